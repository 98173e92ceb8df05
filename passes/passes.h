/* braze's pass registry.
 *
 * MLIR's C API cannot register an external pass by name in MLIR's own registry, so
 * braze keeps its own table (passes.def) and its own pipeline parser: one pipeline
 * string mixes braze passes and upstream ones, e.g.
 *   builtin.module(graph-decompose,func.func(canonicalize,cse),form-kernels{max-ops=64})
 * braze passes are built here; every other element goes to mlirOpPassManagerAddPipeline.
 *
 * Adding a pass: write passes/<stage>/<pass-name>.c defining
 *   const BrazePassInfo braze_pass_<pass_name> = { ... };
 * declare it in the stage's header (passes/<stage>/<stage>-passes.h; a target's codegen
 * pass in its codegen.h) and add one BRAZE_PASS(<pass_name>) line to passes/passes.def. */
#ifndef BRAZE_PASSES_PASSES_H
#define BRAZE_PASSES_PASSES_H

#include <stdbool.h>
#include <stddef.h>

#include "braze/plugin.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "support/strbuf.h"

/* BrazeOption, BrazePassOptions and BrazePassInfo are part of the plugin ABI:
 * include/braze/plugin.h. */

/* The registry: passes.def's passes in order, then those plugins registered. */
size_t braze_pass_count(void);
const BrazePassInfo *braze_pass_at(size_t i);
const BrazePassInfo *braze_pass_lookup(const char *argument, size_t len);
/* Where pass i comes from: NULL for braze's own, else the plugin's name. */
const char *braze_pass_origin_at(size_t i);
/* Add a pass after the table's (plugins/loader.c, which checks the name is new).
 * `info` and `origin` must outlive the registry. */
void braze_pass_register_extra(const BrazePassInfo *info, const char *origin);
/* Forget every pass registered at run time (before the plugins are unloaded). */
void braze_pass_extras_clear(void);

/* The facts (BrazeTargetCosts) of the target being compiled for, with --target-costs
 * applied, or NULL when no target is selected (braze-opt without --target). Set by
 * targets/costs.c; heuristics in passes/ read it, those in targets/ call
 * braze_target_costs_for. */
const BrazeTargetCosts *braze_pass_target_costs(void);
void braze_pass_set_target_costs(const BrazeTargetCosts *costs);

/* Option access for passes. */
const BrazeOption *braze_option_find(const BrazePassOptions *opts, const char *key);
/* True when present as a bare word or with value true/1. */
bool braze_option_flag(const BrazePassOptions *opts, const char *key);
/* Integer option with a default; false (and *error set) when not an integer or not
 * below BRAZE_OPTION_INT_MAX in magnitude (so a pass's arithmetic on it, sizes and
 * counts times small factors, cannot overflow). */
#define BRAZE_OPTION_INT_MAX ((long long)1 << 40)
bool braze_option_int(const BrazePassOptions *opts, const char *key, long long dflt, long long *out,
                      BrazeStr *error);
/* key=true|false|1|0, a bare key meaning true; `dflt` when absent. False (with
 * "option 'KEY' expects true or false") on any other value. */
bool braze_option_bool(const BrazePassOptions *opts, const char *key, bool dflt, bool *out, BrazeStr *error);
/* Whether `name` is in the comma-separated list value of `key`. */
bool braze_option_list_has(const BrazePassOptions *opts, const char *key, const char *name);
/* Reject keys not in the NULL-terminated `allowed` list. */
bool braze_options_check(const BrazePassOptions *opts, const char *pass, const char *const *allowed,
                         BrazeStr *error);
/* Parse "key=value key2=a,b flag" (the text inside braces). */
bool braze_options_parse(const char *text, size_t len, BrazePassOptions *out, BrazeStr *error);
void braze_options_free(BrazePassOptions *opts);

/* How the pipeline builder prints IR between passes (--mlir-print-ir-*). The names
 * are pass arguments (braze or upstream), comma-separated; NULL for none. */
typedef struct {
  const char *print_before;
  const char *print_after;
  bool print_before_all;
  bool print_after_all;
} BrazeIRPrinting;

/* Parse `pipeline` (MLIR textual syntax, optionally wrapped in builtin.module(...))
 * and add its passes to `pm`, which runs on builtin.module. Braze passes anchored on
 * func.func written at module level are nested under func.func implicitly. */
bool braze_pipeline_build(MlirPassManager pm, const char *pipeline, const BrazeIRPrinting *printing,
                          BrazeStr *error);

/* Create one braze pass (for callers building pass managers by hand). */
MlirPass braze_pass_create(const BrazePassInfo *info, const BrazePassOptions *opts, BrazeStr *error);

#endif
