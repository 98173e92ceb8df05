/* The target interface: one struct of hooks per target (cpu, later cuda). Everything
 * target-specific lives behind it; no code outside targets/ asks which target it has.
 *
 * Compiling a module for a target (braze_target_compile):
 *   1. braze_entries_capture: the public functions are the entry points; their
 *      graph-level signature says which arguments are inputs and which are outputs;
 *   2. the pipeline (a named pipeline or a file, pipelines/NAME.pipeline) takes the graph
 *      to target-level IR: kernels and an entry over memrefs, destination-passing;
 *   3. braze_entries_finalize reads each entry's memref arguments (the ABI shapes);
 *   4. target->lower_to_llvm, then target->emit writes the artifacts. */
#ifndef BRAZE_TARGETS_TARGET_H
#define BRAZE_TARGETS_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "braze/plugin.h"
#include "braze/runtime.h"
#include "mlir-c/IR.h"
#include "support/strbuf.h"
#include "targets/cpu/cpu-model.h"

/* ---- entry points and their ABI (docs/decisions/0003-output-abi.md) ----
 * BrazeEntrySig, BrazeEntrySet, BrazeEmitKind, BrazeEmitOptions, BrazeTargetCosts and
 * BrazeTarget are part of the plugin ABI: include/braze/plugin.h. */

/* Record the entry points of `module`: every public func.func with a body. A function
 * with results has its arguments as inputs and its results as outputs; a function
 * already in destination-passing style (no results) must carry
 * `braze.num_inputs = N : i64`. Emits an error at the function and returns false when
 * an entry is unusable (no C identifier, bad braze.num_inputs). */
bool braze_entries_capture(MlirOperation module, BrazeEntrySet *out);
/* After the pipeline: every entry must be a function over static identity-layout
 * memrefs (inputs then outputs, no results); read their dtypes and shapes. */
bool braze_entries_finalize(MlirOperation module, BrazeEntrySet *set);
void braze_entries_free(BrazeEntrySet *set);
/* The runtime's dtype code (BRAZE_RT_*, braze/runtime.h) of element type t: float,
 * signless and unsigned integers of 1 (signless only) to 64 bits; -1 otherwise. */
int braze_entry_dtype_code(MlirType t);


/* The registry: targets by name, braze's own then those plugins registered. */
const BrazeTarget *braze_target_lookup(const char *name);
size_t braze_target_count(void);
const BrazeTarget *braze_target_at(size_t i);
/* Where target i comes from: NULL for braze's own, else the plugin's name. */
const char *braze_target_origin_at(size_t i);
/* "cpu, cuda, ..." for messages. */
void braze_target_names(BrazeStr *out);
/* Run-time registration (plugins/loader.c checks the names are new first); the
 * pointers must outlive the registry. */
void braze_target_register_extra(const BrazeTarget *target, const char *origin);
void braze_pipeline_register_extra(const char *name, const char *text, const char *origin);
/* Forget every target and pipeline registered at run time. */
void braze_target_extras_clear(void);

/* ---- the CPU the cpu target compiles for: braze_cpu_select(name, error) and
 * braze_cpu_list(out) (targets/cpu/cpu-model.h, decision 0026) ---- */

/* ---- target facts (targets/costs.c, docs/target-costs.md) ---- */

/* Read overrides of the facts from a JSON object file ({"vector-width-bits": 128,
 * "l2-bytes": "1MiB", ...}); they apply to every target's facts from then on.
 * False with the file and the bad key or value in *error. */
bool braze_target_costs_load(const char *path, BrazeStr *error);
void braze_target_costs_reset(void);
/* `target`'s facts with the overrides applied. */
void braze_target_costs(const BrazeTarget *target, BrazeTargetCosts *out);
/* The target being compiled for (braze_target_compile, braze-opt --target), or NULL. */
void braze_target_select(const BrazeTarget *target);
const BrazeTarget *braze_target_selected(void);
/* What heuristics read: the selected target's facts, else the target named
 * `fallback`'s (a pass run without a target, e.g. braze-opt --cpu-codegen). */
void braze_target_costs_for(const char *fallback, BrazeTargetCosts *out);

/* ---- named pipelines (pipelines/NAME.pipeline, embedded at build time) ---- */

/* Resolve a pipeline given by name ("cpu-default") or by file path (anything with a
 * '/' or ending in ".pipeline"): comments ('#' or '//' to end of line) dropped,
 * whitespace collapsed, an outer builtin.module(...) removed. "none" is the empty
 * pipeline. */
bool braze_pipeline_resolve(const char *name_or_path, BrazeStr *text, BrazeStr *error);
size_t braze_pipeline_count(void);
const char *braze_pipeline_name_at(size_t i);

/* ---- the whole flow ---- */

/* Run `pipeline` (resolved text) on `module`, then lower and emit for `target`.
 * `module` is consumed in place. Diagnostics go to the context's sink; other
 * failures are described in *error. */
bool braze_target_compile(const BrazeTarget *target, MlirOperation module, const char *pipeline,
                          const BrazeEmitOptions *opts, BrazeStr *error);

/* Write each kernel function (func.func with kernel.kind) of `module` to DIR/NAME.mlir. */
bool braze_dump_kernels_mlir(MlirOperation module, const char *dir, BrazeStr *error);

#endif
