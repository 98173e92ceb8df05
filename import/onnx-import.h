/* ONNX import: an ONNX model file (opsets 13 to 21) becomes a builtin.module holding
 * one func.func of graph-dialect ops. Parsing uses protobuf-c (onnx.pb-c.h is
 * generated from the vendored import/onnx.proto at build time). docs/onnx-import.md
 * lists the ops, their mapping and what is refused.
 *
 * Errors go to the context's diagnostic sink (support/diag.h) at the offending node's
 * location and name the node and its op type; on error nothing is returned. */
#ifndef BRAZE_IMPORT_ONNX_IMPORT_H
#define BRAZE_IMPORT_ONNX_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlir-c/IR.h"

enum { BRAZE_ONNX_MAX_RANK = 8 };
/* The most nodes (and tensors: initializers, constants) a model may have, subgraphs
 * included: a model past it is refused, before it is unpacked, with an error naming
 * the limit (a 100000-node model imports in under a second). */
enum { BRAZE_ONNX_MAX_NODES = 1000000 };

/* A shape override for one graph input (`--shape x=1x128`): replaces the input's
 * declared shape; needed for inputs with symbolic (dynamic) dims. */
typedef struct {
  char name[128];
  int64_t dims[BRAZE_ONNX_MAX_RANK];
  size_t rank;
} BrazeOnnxShape;

/* A graph input bound to given values (--bind NAME=FILE.npy): imported as a constant,
 * so inputs braze needs as constants (shapes, axes, k) can come from a file. */
typedef struct {
  char name[128];
  const char *npy_path;
} BrazeOnnxBinding;

typedef struct {
  const BrazeOnnxShape *shapes;
  size_t num_shapes;
  const BrazeOnnxBinding *bindings;
  size_t num_bindings;
} BrazeOnnxOptions;

/* Import `path` into a new module in `ctx` (a braze context: graph dialect loaded).
 * On success *out owns the module (the caller destroys it). The module has been
 * verified (MLIR verifier and the graph verifier). */
bool braze_onnx_import(MlirContext ctx, const char *path, MlirModule *out);
bool braze_onnx_import_with(MlirContext ctx, const char *path, const BrazeOnnxOptions *opts,
                            MlirModule *out);

/* The same from an in-memory model; `name` stands for the file in locations and messages. */
bool braze_onnx_import_bytes(MlirContext ctx, const void *bytes, size_t len, const char *name,
                             const BrazeOnnxOptions *opts, MlirModule *out);

/* A --dim NAME=MIN:MAX[:DIV]: the ONNX dim_param NAME kept as a symbol (decision 0029). */
typedef struct {
  char name[32];
  int64_t min, max, div;
} BrazeOnnxDim;

/* Parse "NAME=MIN:MAX[:DIV]"; false on malformed text or bounds (1 <= min <= max, div >= 1). */
bool braze_onnx_parse_dim(const char *spec, BrazeOnnxDim *out);

/* Import with the dims[] dim_params kept as symbols (import/onnx-dims.c): graph
 * inputs carrying them get `?` dims bound to the symbols, the rest as
 * braze_onnx_import_with. Errors at the op that keeps a dim from staying symbolic. */
bool braze_onnx_import_dims(MlirContext ctx, const char *path, const BrazeOnnxOptions *opts, const BrazeOnnxDim *dims,
                            size_t n, MlirModule *out);

/* Parse "name=1x128" (or "name=" for a rank-0 input). False on malformed text. */
bool braze_onnx_parse_shape(const char *spec, BrazeOnnxShape *out);

/* True when `path` names an ONNX model (ends in ".onnx"): lets `braze compile` and
 * `braze check` accept models directly. */
bool braze_onnx_is_model_path(const char *path);

/* Print `module` the way `braze import` does: generic graph ops with locations
 * (the ONNX node names) and large constants in the dialect_resources section,
 * re-parseable by braze-opt. Sets *text to a malloc'd, NUL-terminated buffer the
 * caller frees (*len its length). */
bool braze_onnx_print_module(MlirModule module, char **text, size_t *len);

#endif
