/* Compiling a module file for a target, shared by `braze compile`, `braze check` and
 * `braze run --target=...` (which compile into a temporary library and call it). */
#ifndef BRAZE_TOOLS_BRAZE_COMPILE_H
#define BRAZE_TOOLS_BRAZE_COMPILE_H

#include <stdbool.h>
#include <stddef.h>

#include "include/braze/runtime.h"
#include "support/tensor.h"
#include "targets/target.h"

/* Parse and verify `input`, run `pipeline` (a name or a file; NULL: the target's
 * default), lower and emit as `emit` says. `target` NULL means cpu. Diagnostics and
 * errors are printed as "braze <cmd>: ..." or file:line:col; returns false on failure
 * (and writes nothing). */
bool braze_compile_file(const char *cmd, const char *input, const char *target, const char *pipeline,
                        const BrazeEmitOptions *emit);

/* Compiles after this apply the fusion plan at `path` (NULL: none): the pipeline's
 * form-kernels gets plan=PATH (`--fusion-plan=FILE` of compile and check). */
void braze_compile_set_fusion_plan(const char *path);
/* Compiles after this partition the module for `mesh` first ("tp:2", or "func": each
 * function's own braze.mesh; NULL: no partition): `--mesh` of compile. */
void braze_compile_set_mesh(const char *mesh);

/* A library compiled into a private temporary directory and loaded; the file is
 * removed as soon as it is loaded. */
typedef struct {
  BrazeLibrary *lib;
} BrazeCompiled;

bool braze_compiled_build(const char *cmd, const char *input, const char *target, const char *pipeline,
                          BrazeCompiled *out);
void braze_compiled_free(BrazeCompiled *c);

/* Call entry `name` (NULL: the first) on host tensors; on success *outputs holds
 * n_out tensors (free with braze_tensors_free). Checks the inputs' dtypes and shapes
 * against the library's tables. */
/* The same for an entry with a symbolic dim at `sizes` (one per symbol). */
bool braze_compiled_call_sizes(const char *cmd, const BrazeCompiled *c, const char *name, const int64_t *sizes,
                               const BrazeHostTensor *inputs, size_t n_in, BrazeHostTensor **outputs, size_t *n_out);
bool braze_compiled_call(const char *cmd, const BrazeCompiled *c, const char *name, const BrazeHostTensor *inputs,
                         size_t n_in, BrazeHostTensor **outputs, size_t *n_out);

/* `braze run --target=NAME`: compile `file` for the target (pipeline NULL: its
 * default), then evaluate `func` (a function of the parsed file) with the compiled
 * code. Same contract as braze_reference_run: on success *outputs holds the results. */
bool braze_run_compiled(const char *cmd, const char *file, const char *target, const char *pipeline,
                        MlirOperation func, const BrazeHostTensor *inputs, size_t n_in, BrazeHostTensor **outputs,
                        size_t *n_out);

#endif
