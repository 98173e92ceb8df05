/* Helpers shared by braze's subcommands (run, compile, check, bench): flag parsing,
 * loading a module with diagnostics, picking the function, building inputs (random
 * or from .npy files), saving tensors and printing summaries.
 *
 * Every helper that can fail prints "braze <cmd>: <what went wrong>" (or a
 * file:line:col diagnostic) to stderr and returns false; the caller exits 1. */
#ifndef BRAZE_TOOLS_BRAZE_COMMON_H
#define BRAZE_TOOLS_BRAZE_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mlir-c/IR.h"
#include "support/diag.h"
#include "support/tensor.h"

/* Flags shared by commands that evaluate a function. Zero-initialize, then feed
 * every argument to braze_cli_common_flag. */
typedef struct {
  const char *file;         /* the positional FILE.mlir ("-" for stdin) */
  const char *func;         /* --func NAME; NULL: the default function */
  uint64_t seed;            /* --seed N (default 0) */
  const char *inputs;       /* --inputs a.npy,b.npy; NULL: random inputs */
  const char *save_outputs; /* --save-outputs DIR: DIR/out0.npy, out1.npy, ... */
  const char *save_inputs;  /* --save-inputs DIR: DIR/in0.npy, in1.npy, ... */
} BrazeCommonFlags;

/* The help lines for the flags above, for a command's --help text. */
extern const char braze_cli_common_help[];

/* Consume argv[*i] (and its value) if it is a common flag or the positional FILE.
 * Flags take `--name VALUE` or `--name=VALUE`. Returns 1 when consumed (*i then
 * points at the last argument used), 0 when argv[*i] is not a common flag, -1 on a
 * bad value or a second FILE (message printed). */
int braze_cli_common_flag(const char *cmd, int argc, char **argv, int *i, BrazeCommonFlags *flags);

/* For a command's own flags: if argv[*i] is `--name=VALUE` or `--name VALUE`, set
 * *value and return 1 (advancing *i past a separate value); 0 if it is another
 * argument; -1 when the value is missing (message printed). */
int braze_cli_flag_value(const char *cmd, int argc, char **argv, int *i, const char *name, const char **value);

/* A parsed module with its context and the diagnostic sink that prints to stderr. */
typedef struct {
  MlirContext ctx;
  BrazeDiagSink sink;
  MlirOperation module;
} BrazeCliModule;

/* Read and parse `path` ("-" for stdin), then run the graph verifier. On failure the
 * diagnostics have been printed and everything is released. */
bool braze_cli_load(const char *cmd, const char *path, BrazeCliModule *m);
void braze_cli_unload(BrazeCliModule *m);

/* The func.func to run: the one named `name`, or with name NULL the only function
 * of the module, or else its first public one. Null operation (message printed,
 * listing the available functions) when there is none. */
MlirOperation braze_cli_find_func(const char *cmd, MlirOperation module, const char *name);
/* The function's symbol name (not NUL-terminated: use .length). */
MlirStringRef braze_cli_func_name(MlirOperation func);

/* Seeded random inputs matching the function's argument types. The generator is
 * documented and stable: argument i uses splitmix64 seeded with
 * seed ^ (0x9E3779B97F4A7C15 * (i + 1)); u = (next() >> 11) * 2^-53. Floats are
 * standard normal by Box-Muller (z = sqrt(-2 ln(1 - u1)) * cos(2 pi u2), one value
 * per pair of draws) rounded to the element type; i32/i64 are uniform integers in
 * [-8, 8] (floor(u * 17) - 8); i1 is u < 0.5. */
bool braze_cli_random_inputs(const char *cmd, MlirOperation func, uint64_t seed, BrazeHostTensor **inputs,
                             size_t *n_inputs);
/* Read a comma-separated list of .npy files, one per argument, each checked against
 * the argument's dtype and shape. */
bool braze_cli_read_inputs(const char *cmd, MlirOperation func, const char *list, BrazeHostTensor **inputs,
                           size_t *n_inputs);
/* --inputs when given, random inputs from --seed otherwise; saves them when
 * --save-inputs is set. Free with braze_tensors_free. */
bool braze_cli_make_inputs(const char *cmd, MlirOperation func, const BrazeCommonFlags *flags,
                           BrazeHostTensor **inputs, size_t *n_inputs);

/* Write DIR/<prefix><i>.npy for each tensor (DIR is created if missing). Files are
 * written atomically; on failure earlier files of this call are removed. */
bool braze_cli_save_tensors(const char *cmd, const char *dir, const char *prefix, const BrazeHostTensor *ts, size_t n);

/* "out0: tensor<4x8xf32> min=... max=... mean=... std=..." and the first `n_values`
 * values on the next line. NaNs and infinities are counted, not folded into the stats. */
void braze_cli_print_summary(FILE *to, const char *name, const BrazeHostTensor *t, size_t n_values);

#endif
