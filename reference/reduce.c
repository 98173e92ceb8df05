/* Reductions (sum mean max min var) and the normalizing composites (softmax,
 * log_softmax, layer_norm, rms_norm, batch_norm), each straight from its definition. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/graph/graph.h"
#include "mlir-c/BuiltinAttributes.h"
#include "reference/internal.h"
#include "support/context.h"

typedef enum { R_SUM, R_MEAN, R_MAX, R_MIN, R_VAR } ReduceKind;

typedef struct {
  ReduceKind kind;
  bool reduced[BRAZE_TENSOR_MAX_RANK]; /* per input dim */
  bool keepdim;
  int64_t correction;
} ReduceSpec;

static bool read_keepdim(MlirOperation op, bool *keepdim) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, braze_ref("keepdim"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsABool(a))
    return ref_fail(op, "expected a boolean attribute 'keepdim'");
  *keepdim = mlirBoolAttrGetValue(a);
  return true;
}

static bool read_reduce_spec(MlirOperation op, const BrazeHostTensor *x, ReduceSpec *spec) {
  static const char *const names[] = {"reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_var"};
  const char *m = braze_graph_op_mnemonic(op);
  for (size_t i = 0; i < sizeof names / sizeof *names; ++i)
    if (strcmp(m, names[i]) == 0)
      spec->kind = (ReduceKind)i;
  int64_t dims[BRAZE_TENSOR_MAX_RANK + 1];
  intptr_t n = braze_attr_i64_array(op, "dims", dims, BRAZE_TENSOR_MAX_RANK + 1);
  if (n <= 0 || n > x->rank)
    return ref_fail(op, "expected attribute 'dims' = array<i64: ...> with 1 to %d entries (the operand is %s)",
                    x->rank, ref_type_str(x));
  memset(spec->reduced, 0, sizeof spec->reduced);
  for (intptr_t i = 0; i < n; ++i) {
    if (dims[i] < 0 || dims[i] >= x->rank || spec->reduced[dims[i]])
      return ref_fail(op, "'dims' entry %lld is out of range [0, %d) or repeated", (long long)dims[i], x->rank);
    spec->reduced[dims[i]] = true;
  }
  spec->correction = 0;
  if (spec->kind == R_VAR && !braze_attr_i64(op, "correction", &spec->correction))
    return ref_fail(op, "expected an integer attribute 'correction'");
  if ((spec->kind == R_MEAN || spec->kind == R_VAR) && !ref_require_float(op, x, "the operand"))
    return false;
  return read_keepdim(op, &spec->keepdim);
}

/* Strides mapping an input index to its result element: 0 along reduced dims. */
static void result_strides_per_input_dim(const BrazeHostTensor *x, const ReduceSpec *spec, int64_t *strides) {
  int64_t s = 1;
  for (int d = x->rank - 1; d >= 0; --d) {
    strides[d] = spec->reduced[d] ? 0 : s;
    s *= spec->reduced[d] ? 1 : x->shape[d];
  }
}

static bool check_reduce_result(MlirOperation op, const BrazeHostTensor *x, const ReduceSpec *spec,
                                const BrazeHostTensor *result) {
  int64_t shape[BRAZE_TENSOR_MAX_RANK];
  int rank = 0;
  for (int d = 0; d < x->rank; ++d) {
    if (!spec->reduced[d])
      shape[rank++] = x->shape[d];
    else if (spec->keepdim)
      shape[rank++] = 1;
  }
  return ref_require_shape(op, result, rank, shape, "the result") &&
         ref_require_dtype(op, result, x->dtype, "the result");
}

/* acc[out] op= x[i] over every input element. */
static void accumulate(const BrazeHostTensor *x, const int64_t *out_strides, ReduceKind kind, const double *mean,
                       double *acc) {
  int64_t idx[BRAZE_TENSOR_MAX_RANK] = {0};
  int64_t n = braze_tensor_numel(x);
  for (int64_t i = 0; i < n; ++i, ref_index_next(idx, x->rank, x->shape)) {
    int64_t o = ref_offset(idx, out_strides, x->rank);
    double v = x->data[i];
    switch (kind) {
    case R_SUM:
    case R_MEAN: acc[o] += v; break;
    case R_MAX: acc[o] = ref_max(acc[o], v); break;
    case R_MIN: acc[o] = ref_min(acc[o], v); break;
    case R_VAR: acc[o] += (v - mean[o]) * (v - mean[o]); break;
    }
  }
}

bool ref_reduce(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result) {
  (void)n_args;
  const BrazeHostTensor *x = args[0];
  ReduceSpec spec;
  if (!read_reduce_spec(op, x, &spec) || !check_reduce_result(op, x, &spec, result))
    return false;
  int64_t count = 1; /* n: the product of the reduced dims */
  for (int d = 0; d < x->rank; ++d)
    count *= spec.reduced[d] ? x->shape[d] : 1;
  if (spec.kind == R_VAR && count - spec.correction <= 0)
    return ref_fail(op, "n - correction must be > 0 (n = %lld, correction = %lld)", (long long)count,
                    (long long)spec.correction);
  int64_t out_strides[BRAZE_TENSOR_MAX_RANK];
  result_strides_per_input_dim(x, &spec, out_strides);
  int64_t n_out = braze_tensor_numel(result);
  double init = spec.kind == R_MAX ? -INFINITY : spec.kind == R_MIN ? INFINITY : 0.0;
  for (int64_t o = 0; o < n_out; ++o)
    result->data[o] = init;
  if (spec.kind != R_VAR) {
    accumulate(x, out_strides, spec.kind, NULL, result->data);
    if (spec.kind == R_MEAN)
      for (int64_t o = 0; o < n_out; ++o)
        result->data[o] /= (double)count;
    return true;
  }
  double *mean = calloc((size_t)n_out, sizeof *mean);
  if (!mean)
    return ref_fail(op, "out of memory");
  accumulate(x, out_strides, R_SUM, NULL, mean);
  for (int64_t o = 0; o < n_out; ++o)
    mean[o] /= (double)count;
  accumulate(x, out_strides, R_VAR, mean, result->data);
  for (int64_t o = 0; o < n_out; ++o)
    result->data[o] /= (double)(count - spec.correction);
  free(mean);
  return true;
}

/* x viewed as [outer, extent, inner] around dim `d`. */
typedef struct {
  int64_t outer, extent, inner;
} DimSplit;

static DimSplit split_at(const BrazeHostTensor *x, int d) {
  DimSplit s = {1, x->shape[d], 1};
  for (int i = 0; i < d; ++i)
    s.outer *= x->shape[i];
  for (int i = d + 1; i < x->rank; ++i)
    s.inner *= x->shape[i];
  return s;
}

/* One line along `dim`: max, then sum(exp(x - max)); softmax or log_softmax. */
static void softmax_line(const double *x, double *out, const DimSplit *s, bool log_form) {
  double max = -INFINITY;
  for (int64_t j = 0; j < s->extent; ++j)
    max = ref_max(max, x[j * s->inner]);
  double sum = 0.0;
  for (int64_t j = 0; j < s->extent; ++j)
    sum += exp(x[j * s->inner] - max);
  for (int64_t j = 0; j < s->extent; ++j) {
    double shifted = x[j * s->inner] - max;
    out[j * s->inner] = log_form ? shifted - log(sum) : exp(shifted) / sum;
  }
}

bool ref_softmax(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result) {
  (void)n_args;
  const BrazeHostTensor *x = args[0];
  int dim;
  if (!ref_require_float(op, x, "the operand") || !ref_dim_attr(op, "dim", x->rank, &dim) ||
      !ref_require_shape(op, result, x->rank, x->shape, "the result") ||
      !ref_require_dtype(op, result, x->dtype, "the result"))
    return false;
  bool log_form = strcmp(braze_graph_op_mnemonic(op), "log_softmax") == 0;
  DimSplit s = split_at(x, dim);
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t i = 0; i < s.inner; ++i) {
      int64_t base = o * s.extent * s.inner + i;
      softmax_line(x->data + base, result->data + base, &s, log_form);
    }
  return true;
}

/* Checks for layer_norm / rms_norm: float x, params of shape x.shape[axis:] and x's dtype. */
static bool check_norm(MlirOperation op, const BrazeHostTensor *const *args, size_t n_params,
                       const BrazeHostTensor *result, int *axis) {
  const BrazeHostTensor *x = args[0];
  if (!ref_require_float(op, x, "the operand") || !ref_dim_attr(op, "axis", x->rank, axis) ||
      !ref_require_shape(op, result, x->rank, x->shape, "the result") ||
      !ref_require_dtype(op, result, x->dtype, "the result"))
    return false;
  static const char *const what[] = {"", "the weight", "the bias"};
  for (size_t p = 1; p <= n_params; ++p)
    if (!ref_require_shape(op, args[p], x->rank - *axis, x->shape + *axis, what[p]) ||
        !ref_require_dtype(op, args[p], x->dtype, what[p]))
      return false;
  return true;
}

bool ref_layer_norm(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result) {
  (void)n_args;
  int axis;
  double eps;
  if (!check_norm(op, args, 2, result, &axis) || !ref_f64_attr(op, "eps", &eps))
    return false;
  const BrazeHostTensor *x = args[0], *weight = args[1], *bias = args[2];
  DimSplit s = split_at(x, axis);
  int64_t block = s.extent * s.inner; /* elements normalized together */
  for (int64_t o = 0; o < s.outer; ++o) {
    const double *row = x->data + o * block;
    double mean = 0.0, var = 0.0;
    for (int64_t j = 0; j < block; ++j)
      mean += row[j];
    mean /= (double)block;
    for (int64_t j = 0; j < block; ++j)
      var += (row[j] - mean) * (row[j] - mean);
    var /= (double)block;
    double inv_std = 1.0 / sqrt(var + eps);
    for (int64_t j = 0; j < block; ++j)
      result->data[o * block + j] = (row[j] - mean) * inv_std * weight->data[j] + bias->data[j];
  }
  return true;
}

bool ref_rms_norm(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result) {
  (void)n_args;
  int axis;
  double eps;
  if (!check_norm(op, args, 1, result, &axis) || !ref_f64_attr(op, "eps", &eps))
    return false;
  const BrazeHostTensor *x = args[0], *weight = args[1];
  DimSplit s = split_at(x, axis);
  int64_t block = s.extent * s.inner;
  for (int64_t o = 0; o < s.outer; ++o) {
    const double *row = x->data + o * block;
    double mean_sq = 0.0;
    for (int64_t j = 0; j < block; ++j)
      mean_sq += row[j] * row[j];
    mean_sq /= (double)block;
    double denom = sqrt(mean_sq + eps);
    for (int64_t j = 0; j < block; ++j)
      result->data[o * block + j] = row[j] / denom * weight->data[j];
  }
  return true;
}

bool ref_batch_norm(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result) {
  (void)n_args;
  const BrazeHostTensor *x = args[0];
  double eps;
  if (!ref_require_float(op, x, "the operand") || !ref_f64_attr(op, "eps", &eps) ||
      !ref_require_shape(op, result, x->rank, x->shape, "the result") ||
      !ref_require_dtype(op, result, x->dtype, "the result"))
    return false;
  if (x->rank < 2)
    return ref_fail(op, "the operand must have rank >= 2 (channels are dim 1), got %s", ref_type_str(x));
  static const char *const what[] = {"", "the scale", "the bias", "the mean", "the var"};
  for (int p = 1; p <= 4; ++p)
    if (!ref_require_shape(op, args[p], 1, &x->shape[1], what[p]) || !ref_require_dtype(op, args[p], x->dtype, what[p]))
      return false;
  const double *scale = args[1]->data, *bias = args[2]->data, *mean = args[3]->data, *var = args[4]->data;
  DimSplit s = split_at(x, 1);
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t c = 0; c < s.extent; ++c) {
      double inv_std = 1.0 / sqrt(var[c] + eps);
      for (int64_t i = 0; i < s.inner; ++i) {
        int64_t at = (o * s.extent + c) * s.inner + i;
        result->data[at] = (x->data[at] - mean[c]) * inv_std * scale[c] + bias[c];
      }
    }
  return true;
}
