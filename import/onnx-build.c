/* Building graph-dialect ops and attributes for the importer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/graph/graph.h"
#include "import/onnx-internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/diag.h"

/* Constants with more elements than this go to the module's dialect_resources
 * section as hex blobs instead of being spelled out element by element. */
enum { INLINE_CONSTANT_LIMIT = 1024 };

MlirValue onnx_build(OnnxImporter *im, const char *op, const OnnxType *type, const MlirValue *operands,
                     size_t num_operands, const OnnxNamedAttr *attrs, size_t num_attrs) {
  char name[64];
  snprintf(name, sizeof name, "graph.%s", op);
  /* A failed operand or a type without an element type (an input that could not be
   * converted) builds nothing: its error has been reported. */
  MlirType result = onnx_tensor_type(im->ctx, type);
  bool ok = !mlirTypeIsNull(result);
  for (size_t i = 0; ok && i < num_operands; ++i)
    ok = !mlirValueIsNull(operands[i]);
  for (size_t i = 0; ok && i < num_attrs; ++i)
    ok = !mlirAttributeIsNull(attrs[i].attr);
  if (!ok) {
    BrazeDiagSink *sink = braze_diag_sink(im->ctx);
    if (!sink || sink->num_errors == 0)
      onnx_node_error(im, "internal error: %s has an operand or a type that failed to convert", name);
    return (MlirValue){NULL};
  }
  MlirOperationState st = mlirOperationStateGet(braze_ref(name), im->loc);
  mlirOperationStateAddOperands(&st, (intptr_t)num_operands, operands);
  mlirOperationStateAddResults(&st, 1, &result);
  MlirNamedAttribute named[8]; /* converters pass at most 3 attributes */
  if (num_attrs > 8) {
    onnx_node_error(im, "internal error: too many attributes for %s", name);
    return (MlirValue){NULL};
  }
  for (size_t i = 0; i < num_attrs; ++i)
    named[i] = mlirNamedAttributeGet(mlirIdentifierGet(im->ctx, braze_ref(attrs[i].name)), attrs[i].attr);
  mlirOperationStateAddAttributes(&st, (intptr_t)num_attrs, named);
  MlirOperation created = mlirOperationCreate(&st);
  if (mlirOperationIsNull(created)) {
    onnx_node_error(im, "internal error: cannot create %s", name);
    return (MlirValue){NULL};
  }
  mlirBlockAppendOwnedOperation(im->body, created);
  return mlirOperationGetResult(created, 0);
}

MlirValue onnx_build_unary(OnnxImporter *im, const char *op, MlirValue x, const OnnxType *type) {
  return onnx_build(im, op, type, &x, 1, NULL, 0);
}

MlirValue onnx_build_binary(OnnxImporter *im, const char *op, MlirValue a, MlirValue b,
                            const OnnxType *type) {
  MlirValue operands[2] = {a, b};
  return onnx_build(im, op, type, operands, 2, NULL, 0);
}

/* An integer splat's bits: values from 2^63 (ui64) through uint64_t; out-of-range
 * values saturate instead of being undefined conversions. */
static int64_t splat_int(double value) {
  if (!(value > -0x1p63))
    return INT64_MIN;
  if (value >= 0x1p64)
    return -1; /* all ones */
  return value >= 0x1p63 ? (int64_t)(uint64_t)value : (int64_t)value;
}

static MlirAttribute splat_attr(OnnxImporter *im, const OnnxType *type, double value) {
  MlirType tensor = onnx_tensor_type(im->ctx, type);
  MlirType elem = onnx_element_type(im->ctx, type->dtype);
  if (mlirTypeIsNull(tensor))
    return mlirAttributeGetNull();
  if (type->dtype == ONNX__TENSOR_PROTO__DATA_TYPE__BOOL)
    return mlirDenseElementsAttrBoolSplatGet(tensor, value != 0);
  MlirAttribute scalar = onnx_dtype_is_float(type->dtype) ? mlirFloatAttrDoubleGet(im->ctx, elem, value)
                                                          : mlirIntegerAttrGet(elem, splat_int(value));
  return mlirDenseElementsAttrSplatGet(tensor, scalar);
}

MlirValue onnx_build_splat(OnnxImporter *im, const OnnxType *type, double value) {
  OnnxNamedAttr attr = {"value", splat_attr(im, type, value)};
  return onnx_build(im, "constant", type, NULL, 0, &attr, 1);
}

MlirValue onnx_build_scalar(OnnxImporter *im, int32_t dtype, double value) {
  OnnxType t = {.dtype = dtype, .rank = 0};
  return onnx_build_splat(im, &t, value);
}

MlirValue onnx_build_reshape(OnnxImporter *im, MlirValue x, const OnnxType *to) {
  return onnx_build_unary(im, "reshape", x, to);
}

MlirValue onnx_build_transpose(OnnxImporter *im, MlirValue x, const OnnxType *xt, const int64_t *perm,
                               OnnxType *out) {
  *out = *xt;
  for (size_t i = 0; i < xt->rank; ++i)
    out->dims[i] = xt->dims[perm[i]];
  OnnxNamedAttr attr = {"perm", onnx_i64_array(im, perm, xt->rank)};
  return onnx_build(im, "transpose", out, &x, 1, &attr, 1);
}

MlirAttribute onnx_i64_array(OnnxImporter *im, const int64_t *v, size_t n) {
  return mlirDenseI64ArrayGet(im->ctx, (intptr_t)n, v);
}

MlirAttribute onnx_i64_attr(OnnxImporter *im, int64_t v) {
  return mlirIntegerAttrGet(mlirIntegerTypeGet(im->ctx, 64), v);
}

MlirAttribute onnx_f32_attr(OnnxImporter *im, double v) {
  return mlirFloatAttrDoubleGet(im->ctx, mlirF32TypeGet(im->ctx), v);
}

MlirAttribute onnx_str_attr(OnnxImporter *im, const char *s) {
  return mlirStringAttrGet(im->ctx, braze_ref(s));
}

MlirAttribute onnx_bool_attr(OnnxImporter *im, bool v) { return mlirBoolAttrGet(im->ctx, v); }

/* True when every element has the same bytes (a splat prints as one value). */
static bool is_splat(const OnnxData *data, size_t size) {
  const unsigned char *p = data->data;
  for (size_t off = size; off < data->nbytes; off += size)
    if (memcmp(p, p + off, size) != 0)
      return false;
  return true;
}

static void free_blob(void *user_data, const void *data, size_t size, size_t align) {
  (void)data, (void)size, (void)align;
  free(user_data);
}

/* Resource keys are bare identifiers in the printed module: other characters of the
 * ONNX name become '_'. MLIR makes keys unique itself (suffixes) on collisions. */
static void resource_key(const char *name, char *out, size_t n) {
  size_t j = 0;
  if (!((name[0] >= 'a' && name[0] <= 'z') || (name[0] >= 'A' && name[0] <= 'Z') || name[0] == '_'))
    out[j++] = '_';
  for (size_t i = 0; name[i] && j + 1 < n; ++i) {
    char c = name[i];
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    out[j++] = ok ? c : '_';
  }
  out[j] = '\0';
}

static MlirAttribute bool_attr(MlirType tensor, const OnnxData *data, size_t count) {
  int *values = malloc((count ? count : 1) * sizeof *values);
  const unsigned char *p = data->data;
  for (size_t i = 0; i < count; ++i)
    values[i] = p[i] != 0;
  MlirAttribute attr = mlirDenseElementsAttrBoolGet(tensor, (intptr_t)count, values);
  free(values);
  return attr;
}

MlirAttribute onnx_constant_attr(OnnxImporter *im, const OnnxType *type, const OnnxData *data,
                                 const char *resource_name) {
  MlirType tensor = onnx_tensor_type(im->ctx, type);
  size_t size = onnx_dtype_size(type->dtype);
  size_t count = (size_t)onnx_num_elements(type);
  if (type->dtype == ONNX__TENSOR_PROTO__DATA_TYPE__BOOL)
    return bool_attr(tensor, data, count);
  if (count == 0)
    return mlirDenseElementsAttrGet(tensor, 0, NULL);
  /* A buffer of exactly one element is read as a splat by MLIR. */
  if (is_splat(data, size))
    return mlirDenseElementsAttrRawBufferGet(tensor, size, data->data);
  if (count <= INLINE_CONSTANT_LIMIT)
    return mlirDenseElementsAttrRawBufferGet(tensor, data->nbytes, data->data);
  char key[256];
  resource_key(resource_name, key, sizeof key);
  /* The context owns the blob (freed with the context), so copy the model's bytes. */
  void *blob = malloc(data->nbytes ? data->nbytes : 1);
  if (data->nbytes)
    memcpy(blob, data->data, data->nbytes);
  return mlirUnmanagedDenseResourceElementsAttrGet(tensor, braze_ref(key), blob, data->nbytes, size,
                                                   /*dataIsMutable=*/false, free_blob, blob);
}

bool onnx_broadcast(OnnxImporter *im, const OnnxType *a, const OnnxType *b, OnnxType *out) {
  intptr_t rank = 0;
  int64_t dims[ONNX_MAX_RANK];
  if (!braze_broadcast_shapes(a->dims, (intptr_t)a->rank, b->dims, (intptr_t)b->rank, dims, &rank)) {
    char sa[128], sb[128];
    return onnx_node_error(im, "shapes %s and %s do not broadcast", onnx_type_str(a, sa, sizeof sa),
                           onnx_type_str(b, sb, sizeof sb));
  }
  out->dtype = a->dtype;
  out->rank = (size_t)rank;
  memcpy(out->dims, dims, sizeof dims);
  return true;
}

bool onnx_require_float(OnnxImporter *im, const OnnxType *t, const char *what) {
  if (onnx_dtype_is_float(t->dtype))
    return true;
  return onnx_node_error(im, "%s must be a float tensor (f32, f64, f16, bf16), not %s", what,
                         onnx_dtype_name(t->dtype));
}
