/* Creating braze's MLIR context and reading IR into it. */
#ifndef BRAZE_SUPPORT_CONTEXT_H
#define BRAZE_SUPPORT_CONTEXT_H

#include <stdbool.h>

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

/* A context with every upstream dialect registered and braze's IRDL dialects
 * (graph, kernel) loaded; upstream passes and LLVM translations registered.
 * Returns a null context (and prints why) if the embedded dialects fail to load. */
MlirContext braze_context_create(void);
/* IRDL dialects (a module of irdl.dialect ops) that every context created from now
 * on loads too (plugins/loader.c); `irdl_text` must outlive the contexts. */
void braze_context_add_irdl(const char *name, const char *irdl_text);
void braze_context_irdl_clear(void);
/* Parse and load IRDL dialect definitions into `ctx`; false when either fails
 * (MLIR's diagnostics went to the context's handler). */
bool braze_context_load_irdl(MlirContext ctx, const char *irdl_text);
void braze_context_destroy(MlirContext ctx);

/* Parse `text` as a top-level operation (normally builtin.module); `source_name`
 * is the file name locations will carry. Null operation on error (diagnostics
 * have been emitted), text nested deeper than BRAZE_MAX_NESTING included
 * (support/nesting.h), and a malformed linalg dimensions/permutation list, on
 * which MLIR's parser crashes (support/linalg-arrays.h). */
MlirOperation braze_parse(MlirContext ctx, const char *text, size_t len, const char *source_name);

/* Read a whole file ("-" is stdin) into a malloc'd NUL-terminated buffer. */
char *braze_read_file(const char *path, size_t *len_out);

/* Write `len` bytes to `path` atomically (temp file + rename) so a failure never
 * leaves a partial output. "-" is stdout. */
bool braze_write_file(const char *path, const char *data, size_t len);

/* Helpers for the C API's string refs. */
static inline MlirStringRef braze_ref(const char *s) { return mlirStringRefCreateFromCString(s); }
bool braze_ref_eq(MlirStringRef ref, const char *s);

/* The op's name (e.g. "graph.add") as a string ref. */
MlirStringRef braze_op_name(MlirOperation op);
bool braze_op_is(MlirOperation op, const char *name);

/* The module's top-level op named `name` (sym_name), or null. A linear scan: callers
 * that look up many names build a table instead. */
MlirOperation braze_module_symbol(MlirOperation module, MlirStringRef name);
/* Whether any func.call under `root` calls `name`. */
bool braze_calls_symbol(MlirOperation root, MlirStringRef name);

#endif
