/* ONNX value table and tensor data: element types, TensorProto decoding, and the
 * name -> value map through which nodes find their inputs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/onnx-internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

/* ONNX TensorProto.DataType codes braze maps (the graph dialect's element types). */
enum {
  DT_FLOAT = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT,
  DT_INT32 = ONNX__TENSOR_PROTO__DATA_TYPE__INT32,
  DT_INT64 = ONNX__TENSOR_PROTO__DATA_TYPE__INT64,
  DT_BOOL = ONNX__TENSOR_PROTO__DATA_TYPE__BOOL,
  DT_FLOAT16 = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT16,
  DT_BFLOAT16 = ONNX__TENSOR_PROTO__DATA_TYPE__BFLOAT16,
  DT_DOUBLE = ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE,
  DT_INT8 = ONNX__TENSOR_PROTO__DATA_TYPE__INT8,
  DT_INT16 = ONNX__TENSOR_PROTO__DATA_TYPE__INT16,
  DT_UINT8 = ONNX__TENSOR_PROTO__DATA_TYPE__UINT8,
  DT_UINT16 = ONNX__TENSOR_PROTO__DATA_TYPE__UINT16,
  DT_UINT32 = ONNX__TENSOR_PROTO__DATA_TYPE__UINT32,
  DT_UINT64 = ONNX__TENSOR_PROTO__DATA_TYPE__UINT64,
};


MlirType onnx_element_type(MlirContext ctx, int32_t dtype) {
  switch (dtype) {
  case DT_FLOAT: return mlirF32TypeGet(ctx);
  case DT_DOUBLE: return mlirF64TypeGet(ctx);
  case DT_FLOAT16: return mlirF16TypeGet(ctx);
  case DT_BFLOAT16: return mlirBF16TypeGet(ctx);
  case DT_INT8: return mlirIntegerTypeGet(ctx, 8);
  case DT_INT16: return mlirIntegerTypeGet(ctx, 16);
  case DT_UINT8: return mlirIntegerTypeUnsignedGet(ctx, 8); /* decision 0010 */
  case DT_UINT16: return mlirIntegerTypeUnsignedGet(ctx, 16);
  case DT_UINT32: return mlirIntegerTypeUnsignedGet(ctx, 32);
  case DT_UINT64: return mlirIntegerTypeUnsignedGet(ctx, 64);
  case DT_INT32: return mlirIntegerTypeGet(ctx, 32);
  case DT_INT64: return mlirIntegerTypeGet(ctx, 64);
  case DT_BOOL: return mlirIntegerTypeGet(ctx, 1);
  default: return (MlirType){NULL};
  }
}

const char *onnx_dtype_name(int32_t dtype) {
  const ProtobufCEnumValue *v =
      protobuf_c_enum_descriptor_get_value(&onnx__tensor_proto__data_type__descriptor, dtype);
  return v ? v->name : "UNKNOWN";
}

size_t onnx_dtype_size(int32_t dtype) {
  switch (dtype) {
  case DT_FLOAT: case DT_INT32: case DT_UINT32: return 4;
  case DT_INT64: case DT_DOUBLE: case DT_UINT64: return 8;
  case DT_FLOAT16: case DT_BFLOAT16: case DT_INT16: case DT_UINT16: return 2;
  case DT_BOOL: case DT_INT8: case DT_UINT8: return 1;
  default: return 0;
  }
}

bool onnx_dtype_is_unsigned(int32_t dtype) {
  return dtype == DT_UINT8 || dtype == DT_UINT16 || dtype == DT_UINT32 || dtype == DT_UINT64;
}

bool onnx_dtype_is_float(int32_t dtype) {
  return dtype == DT_FLOAT || dtype == DT_DOUBLE || dtype == DT_FLOAT16 || dtype == DT_BFLOAT16;
}

MlirType onnx_tensor_type(MlirContext ctx, const OnnxType *t) {
  MlirType element = onnx_element_type(ctx, t->dtype);
  if (mlirTypeIsNull(element)) /* a value whose conversion failed earlier */
    return element;
  return mlirRankedTensorTypeGet((intptr_t)t->rank, t->dims, element, mlirAttributeGetNull());
}

int64_t onnx_num_elements(const OnnxType *t) {
  int64_t n = 1;
  for (size_t i = 0; i < t->rank; ++i)
    n *= t->dims[i];
  return n;
}

static const char *short_dtype(int32_t dtype) {
  switch (dtype) {
  case DT_FLOAT: return "f32";
  case DT_DOUBLE: return "f64";
  case DT_FLOAT16: return "f16";
  case DT_BFLOAT16: return "bf16";
  case DT_INT8: return "i8";
  case DT_INT16: return "i16";
  case DT_UINT8: return "ui8";
  case DT_UINT16: return "ui16";
  case DT_UINT32: return "ui32";
  case DT_UINT64: return "ui64";
  case DT_INT32: return "i32";
  case DT_INT64: return "i64";
  case DT_BOOL: return "i1";
  default: return onnx_dtype_name(dtype);
  }
}

const char *onnx_type_str(const OnnxType *t, char *buf, size_t n) {
  size_t at = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < t->rank && at < n; ++i)
    at += (size_t)snprintf(buf + at, n - at, "%lldx", (long long)t->dims[i]);
  if (at < n)
    snprintf(buf + at, n - at, "%s", short_dtype(t->dtype));
  return buf;
}

bool onnx_same_shape(const OnnxType *a, const OnnxType *b) {
  return a->rank == b->rank && memcmp(a->dims, b->dims, a->rank * sizeof *a->dims) == 0;
}

bool onnx_check_size(OnnxImporter *im, const OnnxType *t, const char *what) {
  int64_t count = 1;
  for (size_t i = 0; i < t->rank; ++i) {
    /* count * dims[i] <= MAX, tested without overflowing */
    if (t->dims[i] < 0 || (t->dims[i] > 0 && count > ONNX_MAX_ELEMENTS / t->dims[i])) {
      char s[160];
      return onnx_file_error(im, "%s (%s) is too large or has a negative dimension", what,
                                     onnx_type_str(t, s, sizeof s));
    }
    count *= t->dims[i];
  }
  return true;
}

void onnx_data_free(OnnxData *d) {
  free(d->owned);
  *d = (OnnxData){0};
}

/* Typed (non-raw) storage: float_data, double_data, int32_data (i32, i16, i8, ui16,
 * ui8, f16/bf16 bits, bool), int64_data or uint64_data (ui32, ui64), converted to the
 * dense layout (the low bytes, little-endian). */
static bool decode_typed(OnnxImporter *im, const Onnx__TensorProto *t, const char *what,
                         int32_t dtype, size_t count, OnnxData *data) {
  size_t have = dtype == DT_FLOAT    ? t->n_float_data
                : dtype == DT_DOUBLE ? t->n_double_data
                : dtype == DT_INT64  ? t->n_int64_data
                : dtype == DT_UINT32 || dtype == DT_UINT64 ? t->n_uint64_data
                                     : t->n_int32_data;
  if (have != count)
    return onnx_file_error(im, "%s holds %zu values, its shape needs %zu", what, have, count);
  size_t size = onnx_dtype_size(dtype);
  unsigned char *out = malloc(count * size + 1);
  for (size_t i = 0; i < count; ++i) {
    if (dtype == DT_FLOAT) {
      memcpy(out + i * 4, &t->float_data[i], 4);
    } else if (dtype == DT_DOUBLE) {
      memcpy(out + i * 8, &t->double_data[i], 8);
    } else if (dtype == DT_INT64) {
      memcpy(out + i * 8, &t->int64_data[i], 8);
    } else if (dtype == DT_INT32) {
      memcpy(out + i * 4, &t->int32_data[i], 4);
    } else if (dtype == DT_BOOL) {
      out[i] = t->int32_data[i] != 0;
    } else if (dtype == DT_INT8 || dtype == DT_UINT8 || dtype == DT_INT16 || dtype == DT_UINT16) {
      uint16_t x = (uint16_t)t->int32_data[i]; /* little-endian: the low `size` bytes */
      memcpy(out + i * size, &x, size);
    } else if (dtype == DT_UINT32 || dtype == DT_UINT64) {
      memcpy(out + i * size, &t->uint64_data[i], size);
    } else { /* f16/bf16: the bit pattern in the low 16 bits */
      uint16_t bits = (uint16_t)t->int32_data[i];
      memcpy(out + i * 2, &bits, 2);
    }
  }
  data->owned = out;
  data->data = out;
  data->nbytes = count * size;
  return true;
}

bool onnx_decode_tensor(OnnxImporter *im, const Onnx__TensorProto *t, const char *what,
                        OnnxType *type, OnnxData *data) {
  *data = (OnnxData){0};
  int32_t dtype = t->has_data_type ? t->data_type : 0;
  if (mlirTypeIsNull(onnx_element_type(im->ctx, dtype)))
    return onnx_file_error(im, "%s has element type %s, which braze does not support", what,
                           onnx_dtype_name(dtype));
  if (t->n_dims > ONNX_MAX_RANK)
    return onnx_file_error(im, "%s has rank %zu (braze supports up to %d)", what, t->n_dims,
                           ONNX_MAX_RANK);
  type->dtype = dtype;
  type->rank = t->n_dims;
  int64_t count = 1;
  for (size_t i = 0; i < t->n_dims; ++i) {
    if (t->dims[i] < 0 || (t->dims[i] > 0 && count > ONNX_MAX_ELEMENTS / t->dims[i]))
      return onnx_file_error(im, "%s has an invalid or too large shape", what);
    count *= t->dims[i];
    type->dims[i] = t->dims[i];
  }
  if ((t->has_data_location && t->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL) ||
      t->n_external_data)
    return onnx_file_error(im, "%s keeps its data in an external file, which braze does not read",
                           what);
  size_t need = (size_t)count * onnx_dtype_size(dtype);
  if (t->has_raw_data) {
    if (t->raw_data.len != need)
      return onnx_file_error(im, "%s has %zu bytes of raw data, its shape needs %zu", what,
                             t->raw_data.len, need);
    data->data = t->raw_data.data;
    data->nbytes = need;
    return true;
  }
  return decode_typed(im, t, what, dtype, (size_t)count, data);
}

bool onnx_const_ints(OnnxImporter *im, const OnnxValue *v, const char *what, int64_t *out,
                     size_t max, size_t *count) {
  if (!v->is_const)
    return onnx_node_error(im, "%s ('%s') must be a constant (an initializer or a Constant node)",
                           what, v->name);
  if (v->type.dtype != DT_INT64 && v->type.dtype != DT_INT32)
    return onnx_node_error(im, "%s ('%s') must be an integer tensor, not %s", what, v->name,
                           onnx_dtype_name(v->type.dtype));
  if (v->type.rank > 1)
    return onnx_node_error(im, "%s ('%s') must be a 1-D tensor", what, v->name);
  size_t n = (size_t)onnx_num_elements(&v->type);
  if (n > max)
    return onnx_node_error(im, "%s ('%s') has %zu entries (at most %zu)", what, v->name, n, max);
  const unsigned char *bytes = v->data.data;
  for (size_t i = 0; i < n; ++i) {
    if (v->type.dtype == DT_INT64) {
      memcpy(&out[i], bytes + 8 * i, 8);
    } else {
      int32_t x;
      memcpy(&x, bytes + 4 * i, 4);
      out[i] = x;
    }
  }
  *count = n;
  return true;
}

/* ---- the value table: open addressing on FNV-1a hashes of the names ---- */

static size_t hash_name(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; ++s)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return (size_t)h;
}

static size_t *find_slot(OnnxImporter *im, const char *name) {
  size_t mask = im->cap_slots - 1;
  for (size_t i = hash_name(name) & mask;; i = (i + 1) & mask) {
    size_t *slot = &im->slots[i];
    if (*slot == 0 || strcmp(im->values[*slot - 1].name, name) == 0)
      return slot;
  }
}

static void grow_slots(OnnxImporter *im) {
  free(im->slots);
  im->cap_slots = im->cap_slots ? im->cap_slots * 2 : 64;
  im->slots = calloc(im->cap_slots, sizeof *im->slots);
  for (size_t i = 0; i < im->num_values; ++i)
    *find_slot(im, im->values[i].name) = i + 1;
}

OnnxValue *onnx_lookup(OnnxImporter *im, const char *name) {
  if (!im->cap_slots)
    return NULL;
  size_t slot = *find_slot(im, name);
  return slot ? &im->values[slot - 1] : NULL;
}

OnnxValue *onnx_define_value(OnnxImporter *im, const char *name, const OnnxType *type) {
  if (onnx_lookup(im, name)) {
    if (im->node)
      onnx_node_error(im, "value '%s' is defined twice", name);
    else
      onnx_file_error(im, "value '%s' is defined twice", name);
    return NULL;
  }
  if (2 * (im->num_values + 1) > im->cap_slots)
    grow_slots(im);
  if (im->num_values == im->cap_values) {
    im->cap_values = im->cap_values ? 2 * im->cap_values : 64;
    im->values = realloc(im->values, im->cap_values * sizeof *im->values);
  }
  OnnxValue *v = &im->values[im->num_values++];
  *v = (OnnxValue){.name = name, .type = *type, .loc = im->loc};
  *find_slot(im, name) = im->num_values;
  return v;
}

bool onnx_define_constant(OnnxImporter *im, const char *name, const OnnxType *type, OnnxData *data) {
  OnnxValue *v = onnx_define_value(im, name, type);
  if (!v) {
    onnx_data_free(data);
    return false;
  }
  v->is_const = true;
  v->data = *data;
  return true;
}

void onnx_values_free(OnnxImporter *im) {
  for (size_t i = 0; i < im->num_values; ++i)
    onnx_data_free(&im->values[i].data);
  free(im->values);
  free(im->slots);
  im->values = NULL;
  im->slots = NULL;
  im->num_values = im->cap_values = im->cap_slots = 0;
}

MlirValue onnx_materialize(OnnxImporter *im, OnnxValue *v) {
  if (!mlirValueIsNull(v->value) || !v->is_const)
    return v->value;
  if (onnx_num_elements(&v->type) == 0) { /* empty shape pieces exist only while folding */
    onnx_file_error(im, "'%s' is an empty tensor (zero-size tensors are not supported)", v->name);
    return (MlirValue){NULL};
  }
  /* Constants are created where first used, at their own location (initializer or
   * Constant node), so unused shape/axes initializers leave no dead ops behind. */
  MlirLocation saved = im->loc;
  im->loc = v->loc;
  OnnxNamedAttr attr = {"value", onnx_constant_attr(im, &v->type, &v->data, v->name)};
  v->value = onnx_build(im, "constant", &v->type, NULL, 0, &attr, 1);
  im->loc = saved;
  return v->value;
}
