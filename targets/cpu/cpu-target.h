/* Internals of the CPU target shared between its files (not a public interface:
 * everything outside targets/ goes through targets/target.h). */
#ifndef BRAZE_TARGETS_CPU_CPU_TARGET_H
#define BRAZE_TARGETS_CPU_CPU_TARGET_H

#include "llvm-c/Core.h"
#include "targets/common/dynamic-rows.h"
#include "targets/target.h"

#ifndef BRAZE_LLVM_LIBDIR
#define BRAZE_LLVM_LIBDIR "/usr/lib/llvm-22/lib" /* where libomp lives */
#endif

extern const BrazeTarget braze_target_cpu;

/* The upstream pipeline from target-level IR to the LLVM dialect. */
const char *braze_cpu_lowering_pipeline(void);

/* omp-schedule.c: after convert-scf-to-openmp, each omp.wsloop in a function with
 * BRAZE_CPU_SCHEDULE_ATTR = "static" | "dynamic" | "guided" (cpu-codegen{schedule=...})
 * gets that schedule. False after a diagnostic at a function with another value. */
#define BRAZE_CPU_SCHEDULE_ATTR "braze.omp_schedule"
/* Its values, in cpu-codegen's CgSchedule order. */
extern const char *const braze_cpu_schedule_names[3];
bool braze_cpu_apply_schedules(MlirOperation module);

/* emit.c: translate, optimize, write the object/.so/LLVM IR and the header. */
bool braze_cpu_emit(MlirOperation module, const BrazeEntrySet *entries, const BrazeEmitOptions *opts,
                    BrazeStr *error);

/* abi.c: in the translated LLVM module, give every function but the ABI wrappers
 * internal linkage, and add for each entry `int NAME(T *...)`, `int NAME_packed(void **)`,
 * the shape tables and `braze_entry_names` (see include/braze/runtime.h). The entry's
 * own function is renamed NAME__braze_impl. */
bool braze_cpu_abi_wrap(LLVMModuleRef m, const BrazeEntrySet *entries, const BrazeDynamicEntry *dyn, int n_dyn,
                        BrazeStr *error);

/* abi-dynamic.c: the ABI of the entries with a symbolic dim (decision 0029) over their
 * wrapped row-block clones, which become internal. */
bool braze_cpu_abi_dynamic(LLVMModuleRef m, const BrazeEntrySet *entries, const BrazeDynamicEntry *dyn, int n_dyn,
                           BrazeStr *error);

/* cpu-guard.c: link the CPU check (runtime/cpu/cpu-check.c) into the module and put
 * it in front of every exported int function: on a CPU without the selected CPU's
 * features (cpu-model.h) each returns 2. After braze_cpu_abi_wrap. */
bool braze_cpu_guard_entries(LLVMModuleRef m, BrazeStr *error);

/* half-floats.c: on CPUs without AVX512-BF16, f32 -> bf16 rounding as integer
 * arithmetic (before LLVM's optimization); and masked loads and stores of bf16/f16
 * vectors as i16 ones, which would otherwise go through f32 lane by lane (after it). */
void braze_cpu_expand_bf16_rounding(LLVMModuleRef m);
void braze_cpu_half_masked_as_i16(LLVMModuleRef m);

/* alloc-checks.c: every malloc/aligned_alloc/calloc call in the module's functions
 * gets a null test that counts the failure in `__braze_alloc_failures` and returns;
 * the counter (NULL when nothing allocates), which NAME_ws compares around the body. */
LLVMValueRef braze_cpu_check_allocations(LLVMModuleRef m);

/* abi_header.c: the C header declaring the entries, with shapes in comments. */
void braze_cpu_abi_header(const BrazeEntrySet *entries, const BrazeDynamicEntry *dyn, int n_dyn,
                          const char *source_name, const char *guard_hint, BrazeStr *out);

#endif
