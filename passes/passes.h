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

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "support/strbuf.h"

/* A pass's options as parsed from `name{key=value key2=a,b flag}` or from the
 * driver flag `--name=key=value`. A bare word is a key with a NULL value. */
typedef struct {
  char *key;
  char *value;
} BrazeOption;

typedef struct {
  BrazeOption *items;
  size_t count;
} BrazePassOptions;

typedef struct BrazePassInfo {
  const char *argument;     /* "graph-decompose": the name in pipelines and the flag */
  const char *summary;      /* one line, shown by --list-passes */
  const char *options_help; /* one "  key=VALUE  what it does" line per option, or "" */
  const char *anchor;       /* op the pass runs on: "func.func" or "builtin.module" */
  /* Build the pass state from its options. On a bad option return NULL and put
   * the reason in *error. May be NULL for passes without state. */
  void *(*create_state)(const BrazePassOptions *options, BrazeStr *error);
  void (*destroy_state)(void *state);
  /* Run on one anchor op. Return false after emitting diagnostics on failure. */
  bool (*run)(MlirOperation op, void *state);
} BrazePassInfo;

/* The registry, in passes.def order. */
size_t braze_pass_count(void);
const BrazePassInfo *braze_pass_at(size_t i);
const BrazePassInfo *braze_pass_lookup(const char *argument, size_t len);

/* Option access for passes. */
const BrazeOption *braze_option_find(const BrazePassOptions *opts, const char *key);
/* True when present as a bare word or with value true/1. */
bool braze_option_flag(const BrazePassOptions *opts, const char *key);
/* Integer option with a default; false (and *error set) when not an integer. */
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
