/* Internals shared by the ONNX importer's files: the importer state, the value
 * table (ONNX name -> MLIR value and, for constants, the data), attribute access
 * and op building. Not part of braze's interface (see import/onnx-import.h). */
#ifndef BRAZE_IMPORT_ONNX_INTERNAL_H
#define BRAZE_IMPORT_ONNX_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "import/onnx-import.h"
#include "mlir-c/IR.h"
#include "onnx.pb-c.h"

enum { ONNX_MAX_RANK = BRAZE_ONNX_MAX_RANK };
/* Elements beyond this count make a tensor too large to import; it also keeps every
 * product of dims far from int64 overflow. */
#define ONNX_MAX_ELEMENTS ((int64_t)1 << 40)
/* Messages nested in messages (model, graph, node, attribute, subgraph, ...): real
 * models stay far below; protobuf-c's unpacker recurses once a level. */
enum { ONNX_MAX_MESSAGE_DEPTH = 64 };

/* A tensor's static type: element type (ONNX TensorProto.DataType code) and shape. */
typedef struct {
  int32_t dtype;
  int64_t dims[ONNX_MAX_RANK];
  size_t rank;
} OnnxType;

/* Constant data, little-endian in MLIR's dense layout (i1: one byte per element). */
typedef struct {
  const void *data;
  size_t nbytes;
  void *owned; /* non-NULL when `data` was converted and must be freed */
} OnnxData;

/* One ONNX value (graph input, initializer, node output). */
typedef struct {
  const char *name;        /* points into the model (or the importer's names) */
  OnnxType type;
  MlirValue value;         /* null until materialized (constants are materialized lazily) */
  bool is_const;           /* data below is valid */
  OnnxData data;
  MlirLocation loc;        /* where a constant is materialized (its initializer or node) */
  const Onnx__NodeProto *unsupported_by; /* an output braze does not produce */
  size_t unsupported_index;
} OnnxValue;

typedef struct {
  MlirContext ctx;
  const char *path;
  int64_t opset;
  Onnx__ModelProto *model;
  MlirBlock body;              /* the function's entry block */
  /* value table: open addressing over `values` indices */
  OnnxValue *values;
  size_t num_values, cap_values;
  size_t *slots;               /* index + 1, 0 = empty */
  size_t cap_slots;
  /* the node being converted (for locations and errors) */
  const Onnx__NodeProto *node;
  size_t node_index;
  MlirLocation loc;
  char **owned_names;          /* synthesized names freed at the end */
  size_t num_owned_names;
} OnnxImporter;

/* --- errors (import/onnx-errors.c) --- */
static inline const char *onnx_str_or_empty(const char *s) { return s ? s : ""; }
/* The model file's location at column `col` (the node index + 1, or 0). */
MlirLocation onnx_file_loc(OnnxImporter *im, unsigned col);
/* An error at the current node, prefixed "node 'NAME' (OP): ". Returns false. */
bool onnx_node_error(OnnxImporter *im, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An error about the model file itself (no node). Returns false. */
bool onnx_file_error(OnnxImporter *im, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *onnx_node_label(const Onnx__NodeProto *node, size_t index, char *buf, size_t n);

/* --- types and data (import/onnx-values.c) --- */
/* The MLIR element type of an ONNX dtype, or a null type when braze has none. */
MlirType onnx_element_type(MlirContext ctx, int32_t dtype);
const char *onnx_dtype_name(int32_t dtype);
size_t onnx_dtype_size(int32_t dtype);
bool onnx_dtype_is_float(int32_t dtype);
bool onnx_dtype_is_unsigned(int32_t dtype); /* UINT8..UINT64 (the graph's ui8..ui64) */
MlirType onnx_tensor_type(MlirContext ctx, const OnnxType *t);
int64_t onnx_num_elements(const OnnxType *t);
/* "4x8xf32" style text for messages. */
const char *onnx_type_str(const OnnxType *t, char *buf, size_t n);
bool onnx_same_shape(const OnnxType *a, const OnnxType *b);
/* Error (naming `what`) unless every dim is >= 0 and the element count is at most
 * ONNX_MAX_ELEMENTS. */
bool onnx_check_size(OnnxImporter *im, const OnnxType *t, const char *what);

/* onnx-wire.c: what a model's bytes hold, read before unpacking them: how deep they
 * nest messages (1: the model alone; ONNX_MAX_MESSAGE_DEPTH + 1 when deeper than the
 * limit, where the scan stops), and how many NodeProto and TensorProto messages they
 * have (subgraphs included). */
typedef struct {
  int depth;
  size_t nodes, tensors;
} OnnxWireStats;
void onnx_wire_scan(const void *bytes, size_t len, OnnxWireStats *stats);
/* Decode a TensorProto into type + data; `what` names it in errors. */
bool onnx_decode_tensor(OnnxImporter *im, const Onnx__TensorProto *t, const char *what,
                        OnnxType *type, OnnxData *data);
void onnx_data_free(OnnxData *d);

/* --- value table (import/onnx-values.c) --- */
OnnxValue *onnx_lookup(OnnxImporter *im, const char *name);
/* Adds a value; errors (and returns NULL) when the name is already defined. */
OnnxValue *onnx_define_value(OnnxImporter *im, const char *name, const OnnxType *type);
/* Adds a constant value owning `data` (freed here when the definition fails). */
bool onnx_define_constant(OnnxImporter *im, const char *name, const OnnxType *type, OnnxData *data);
void onnx_values_free(OnnxImporter *im);
/* The MLIR value of `v`, materializing a constant (graph.constant) on first use. */
MlirValue onnx_materialize(OnnxImporter *im, OnnxValue *v);
/* Read constant data as int64 (shape/axes inputs). */
bool onnx_const_ints(OnnxImporter *im, const OnnxValue *v, const char *what, int64_t *out,
                     size_t max, size_t *count);

/* --- node inputs/outputs (import/onnx-node.c) --- */
size_t onnx_num_inputs(const Onnx__NodeProto *node); /* trailing empty names dropped */
bool onnx_has_input(const Onnx__NodeProto *node, size_t i);
/* Input i as a value entry; error when missing or undefined. */
OnnxValue *onnx_input(OnnxImporter *im, size_t i);
/* Input i as an MLIR value (materialized). Null value on error. */
MlirValue onnx_operand(OnnxImporter *im, size_t i, OnnxType *type);
/* Define output i of the current node. */
bool onnx_set_output(OnnxImporter *im, size_t i, MlirValue value, const OnnxType *type);
/* Output i is input j under another name (Identity and no-op conversions). */
bool onnx_alias_output(OnnxImporter *im, size_t i, OnnxValue *src);
/* Constant input i (initializer or Constant output) as int64s; `what` names it. */
bool onnx_const_input_ints(OnnxImporter *im, size_t i, const char *what, int64_t *out, size_t max,
                           size_t *count);

/* --- attributes (import/onnx-attrs.c) --- */
const Onnx__AttributeProto *onnx_attr(const Onnx__NodeProto *node, const char *name);
int64_t onnx_attr_int(const Onnx__NodeProto *node, const char *name, int64_t dflt);
float onnx_attr_float(const Onnx__NodeProto *node, const char *name, float dflt);
/* String attribute copied into buf (NUL-terminated); `dflt` when absent. */
const char *onnx_attr_string(const Onnx__NodeProto *node, const char *name, const char *dflt,
                             char *buf, size_t n);
/* Ints attribute: true when present; *count elements copied (error when > max). */
bool onnx_attr_ints(OnnxImporter *im, const char *name, int64_t *out, size_t max, size_t *count,
                    bool *present);
/* Ints attribute of exactly `want` entries (at most two per spatial dim of the largest
 * rank: a pads list) into out, error otherwise, or `dflt` in every entry when absent;
 * *given (may be NULL) says which. */
bool onnx_attr_ints_exact(OnnxImporter *im, const char *name, int64_t *out, size_t want, int64_t dflt, bool *given);
/* Normalize an axis into [0, rank); error naming `what` when out of range. */
bool onnx_norm_axis(OnnxImporter *im, int64_t axis, size_t rank, const char *what, int64_t *out);
/* Normalize, sort and check uniqueness of axes. */
bool onnx_norm_axes(OnnxImporter *im, int64_t *axes, size_t n, size_t rank, const char *what);

/* --- op building (import/onnx-build.c) --- */
typedef struct {
  const char *name;
  MlirAttribute attr;
} OnnxNamedAttr;
/* Create graph.<op> at the current node's location with one result of `type`. */
MlirValue onnx_build(OnnxImporter *im, const char *op, const OnnxType *type, const MlirValue *operands,
                     size_t num_operands, const OnnxNamedAttr *attrs, size_t num_attrs);
MlirValue onnx_build_unary(OnnxImporter *im, const char *op, MlirValue x, const OnnxType *type);
MlirValue onnx_build_binary(OnnxImporter *im, const char *op, MlirValue a, MlirValue b,
                            const OnnxType *type);
/* A rank-0 constant of `dtype` holding `value`. */
MlirValue onnx_build_scalar(OnnxImporter *im, int32_t dtype, double value);
/* A constant of `type` filled with `value` (splat). */
MlirValue onnx_build_splat(OnnxImporter *im, const OnnxType *type, double value);
MlirValue onnx_build_reshape(OnnxImporter *im, MlirValue x, const OnnxType *to);
MlirValue onnx_build_transpose(OnnxImporter *im, MlirValue x, const OnnxType *xt, const int64_t *perm,
                               OnnxType *out);
MlirAttribute onnx_i64_array(OnnxImporter *im, const int64_t *v, size_t n);
MlirAttribute onnx_i64_attr(OnnxImporter *im, int64_t v);
MlirAttribute onnx_f32_attr(OnnxImporter *im, double v);
MlirAttribute onnx_str_attr(OnnxImporter *im, const char *s);
MlirAttribute onnx_bool_attr(OnnxImporter *im, bool v);
/* The dense (or dense_resource, when large) value attribute for constant data. */
MlirAttribute onnx_constant_attr(OnnxImporter *im, const OnnxType *type, const OnnxData *data,
                                 const char *resource_name);
/* numpy broadcast of two types' shapes into out (dtype of a); error when incompatible. */
bool onnx_broadcast(OnnxImporter *im, const OnnxType *a, const OnnxType *b, OnnxType *out);
bool onnx_require_float(OnnxImporter *im, const OnnxType *t, const char *what);

/* --- converters (import/onnx-ops-*.c) --- */
typedef bool (*OnnxConverter)(OnnxImporter *im);
typedef struct {
  const char *op_type;
  OnnxConverter convert;
  /* The lowest model opset the converter implements (0: every version of the op
   * from opset 7, braze's lowest). Below it the node is refused naming the op,
   * the opset and the node; converters branch on im->opset for the forms they
   * handle (attribute vs input, Softmax's pre-13 coercion, ...). */
  int min_opset;
} OnnxOpEntry;
/* Each family's table ends with a {NULL, NULL} entry. */
extern const OnnxOpEntry onnx_elementwise_ops[], onnx_reduce_ops[], onnx_shape_ops[],
    onnx_matmul_ops[], onnx_fold_ops[], onnx_activation_ops[], onnx_misc_ops[], onnx_index_ops[],
    onnx_layout_ops[], onnx_pool_ops[], onnx_scatter_ops[], onnx_contract_ops[];
/* import/onnx-ops-conv.c: Conv, ConvTranspose, ConvInteger */
extern const OnnxOpEntry onnx_conv_ops[];
/* The table entry for a default-domain op type, or NULL. */
const OnnxOpEntry *onnx_find_op(const char *op_type);

/* --- import-time folding of constants (import/onnx-fold.c) --- */
/* Elements above this count are not folded (the op is built in the graph instead). */
enum { ONNX_FOLD_LIMIT = 1 << 20 };
/* Whether a constant result of `count` elements is folded: up to ONNX_FOLD_LIMIT
 * for integers/bools (shape arithmetic), a few for float data (exporters' scalar
 * arithmetic; larger float math stays in the graph, where it is fused). */
bool onnx_fold_size_ok(int32_t dtype, int64_t count);
/* True when every present input of the current node is a constant. */
bool onnx_all_inputs_const(OnnxImporter *im);
/* Define output i as a constant of `type` whose bytes come from `src` (any
 * element type): the element at row-major position k of the output is source
 * element index[k]. index NULL: the same order (reshapes). */
bool onnx_define_const_output(OnnxImporter *im, size_t i, const OnnxType *type, const OnnxValue *src,
                              const int64_t *index);
/* The source index of each element of `src` broadcast to `to` (freed by the caller). */
int64_t *onnx_broadcast_index(const OnnxType *src, const OnnxType *to);
/* Elementwise arithmetic on integer/bool constants (shape arithmetic): Add Sub Mul
 * Div Mod Neg Abs Equal Less Greater Not And Or Where Max Min Cast. Sets *done when
 * it defined the outputs; false on error. */
bool onnx_try_fold(OnnxImporter *im, bool *done);

#endif
