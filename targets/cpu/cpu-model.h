/* The CPU that the cpu target compiles for (`--cpu=NAME`, $BRAZE_CPU; decision 0026):
 * LLVM's CPU and features, the facts heuristics read (vector width and registers, FMA,
 * native bf16), and the feature mask a library checks at run time before its first
 * kernel (runtime/cpu/cpu-check.c). */
#ifndef BRAZE_TARGETS_CPU_CPU_MODEL_H
#define BRAZE_TARGETS_CPU_CPU_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "support/strbuf.h"

/* One bit per feature of targets/cpu/cpu-features.def, in its order. */
enum {
#define BRAZE_CPU_FEATURE(id, name, leaf, sub, reg, bit) BRAZE_CPU_F_##id##_BIT,
#include "targets/cpu/cpu-features.def"
#undef BRAZE_CPU_FEATURE
  BRAZE_CPU_NUM_FEATURES
};
#define BRAZE_CPU_F(id) (UINT64_C(1) << BRAZE_CPU_F_##id##_BIT)

typedef struct {
  const char *name;     /* as selected: "native", "x86-64-v3", "znver4", ... */
  const char *llvm_cpu; /* LLVM's CPU (the host's name for native) */
  const char *features; /* LLVM's feature string: each checked feature +on or -off */
  uint64_t mask;        /* the checked features the code may use (BRAZE_CPU_F bits) */
  int vector_width_bits;
  int vector_registers;
  int64_t l2_bytes; /* per core; 0 where not known */
} BrazeCpuModel;

/* Select the CPU by name ("native" or NULL: the host). False with the accepted names
 * in *error for an unknown one. The default, before any call: $BRAZE_CPU, else native. */
bool braze_cpu_select(const char *name, BrazeStr *error);
const BrazeCpuModel *braze_cpu_selected(void);
/* The accepted names, one line each with what the CPU has ("x86-64-v3  AVX2, 16 x 256-bit"). */
void braze_cpu_list(BrazeStr *out);
/* "avx512f avx512bw" for the bits of `mask`. */
void braze_cpu_feature_names(uint64_t mask, BrazeStr *out);

#endif
