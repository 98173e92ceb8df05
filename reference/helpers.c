/* Index arithmetic, checks and error reporting shared by the interpreter's op files. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "dialects/graph/graph.h"
#include "reference/internal.h"
#include "support/context.h"
#include "support/diag.h"
#include "support/strbuf.h"

bool ref_fail(MlirOperation op, const char *fmt, ...) {
  BrazeStr text = {0};
  va_list ap;
  va_start(ap, fmt);
  braze_str_vprintf(&text, fmt, ap);
  va_end(ap);
  MlirStringRef name = braze_op_name(op);
  braze_emit_error(mlirOperationGetLocation(op), "reference: %.*s: %s", (int)name.length, name.data,
                   braze_str_cstr(&text));
  braze_str_free(&text);
  return false;
}

const char *ref_type_str(const BrazeHostTensor *t) {
  static char slots[4][128];
  static unsigned next;
  char *buf = slots[next++ % 4];
  braze_tensor_type_str(t, buf, sizeof slots[0]);
  return buf;
}

void ref_strides(int rank, const int64_t *shape, int64_t *strides) {
  int64_t s = 1;
  for (int i = rank - 1; i >= 0; --i) {
    strides[i] = s;
    s *= shape[i];
  }
}

bool ref_broadcast_strides(const BrazeHostTensor *t, int rank, const int64_t *shape, int64_t *strides) {
  if (t->rank > rank)
    return false;
  int64_t own[BRAZE_TENSOR_MAX_RANK];
  ref_strides(t->rank, t->shape, own);
  int lead = rank - t->rank;
  for (int i = 0; i < rank; ++i) {
    if (i < lead) {
      strides[i] = 0;
      continue;
    }
    int64_t dim = t->shape[i - lead];
    if (dim != shape[i] && dim != 1)
      return false;
    strides[i] = dim == 1 ? 0 : own[i - lead];
  }
  return true;
}

bool ref_index_next(int64_t *idx, int rank, const int64_t *shape) {
  for (int i = rank - 1; i >= 0; --i) {
    if (++idx[i] < shape[i])
      return true;
    idx[i] = 0;
  }
  return false;
}

int64_t ref_offset(const int64_t *idx, const int64_t *strides, int rank) {
  int64_t off = 0;
  for (int i = 0; i < rank; ++i)
    off += idx[i] * strides[i];
  return off;
}

bool ref_same_shape(const BrazeHostTensor *a, const BrazeHostTensor *b) {
  if (a->rank != b->rank)
    return false;
  for (int i = 0; i < a->rank; ++i)
    if (a->shape[i] != b->shape[i])
      return false;
  return true;
}

bool ref_require_float(MlirOperation op, const BrazeHostTensor *t, const char *what) {
  if (braze_dtype_is_float(t->dtype))
    return true;
  return ref_fail(op, "%s must have a float element type (f32, f64, f16, bf16), got %s", what, ref_type_str(t));
}

bool ref_require_dtype(MlirOperation op, const BrazeHostTensor *t, BrazeDType dtype, const char *what) {
  if (t->dtype == dtype)
    return true;
  return ref_fail(op, "%s must have element type %s, got %s", what, braze_dtype_str(dtype), ref_type_str(t));
}

bool ref_require_shape(MlirOperation op, const BrazeHostTensor *t, int rank, const int64_t *shape, const char *what) {
  BrazeHostTensor want = {.dtype = t->dtype, .rank = rank};
  for (int i = 0; i < rank; ++i)
    want.shape[i] = shape[i];
  if (ref_same_shape(t, &want))
    return true;
  return ref_fail(op, "%s has type %s, expected %s", what, ref_type_str(t), ref_type_str(&want));
}

bool ref_dim_attr(MlirOperation op, const char *name, int bound, int *out) {
  int64_t v;
  if (!braze_attr_i64(op, name, &v))
    return ref_fail(op, "expected an integer attribute '%s'", name);
  if (v < 0 || v >= bound)
    return ref_fail(op, "attribute '%s' = %lld is out of range [0, %d)", name, (long long)v, bound);
  *out = (int)v;
  return true;
}

bool ref_f64_attr(MlirOperation op, const char *name, double *out) {
  if (braze_attr_f64(op, name, out))
    return true;
  return ref_fail(op, "expected a float attribute '%s'", name);
}

double ref_max(double a, double b) {
  if (isnan(a) || isnan(b))
    return NAN;
  if (a == b)
    return signbit(a) ? b : a;
  return a > b ? a : b;
}

double ref_min(double a, double b) {
  if (isnan(a) || isnan(b))
    return NAN;
  if (a == b)
    return signbit(a) ? a : b;
  return a < b ? a : b;
}
