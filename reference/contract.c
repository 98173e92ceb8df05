/* Contractions: matmul, batch_matmul (numpy batch broadcasting) and linear. */
#include "dialects/graph/graph.h"
#include "reference/internal.h"

/* c[M, N] = a[M, K] @ b[K, N] (c is overwritten); i-k-j order keeps b and c rows contiguous. */
static void matmul_block(const double *a, const double *b, double *c, int64_t m, int64_t k, int64_t n) {
  for (int64_t i = 0; i < m * n; ++i)
    c[i] = 0.0;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p) {
      double aik = a[i * k + p];
      const double *brow = b + p * n;
      double *crow = c + i * n;
      for (int64_t j = 0; j < n; ++j)
        crow[j] += aik * brow[j];
    }
}

static bool check_contraction_types(MlirOperation op, const BrazeHostTensor *a, const BrazeHostTensor *b,
                                    const BrazeHostTensor *result) {
  if (!ref_require_float(op, a, "the lhs") || !ref_require_dtype(op, b, a->dtype, "the rhs") ||
      !ref_require_dtype(op, result, a->dtype, "the result"))
    return false;
  if (a->rank < 2 || b->rank < 2)
    return ref_fail(op, "operands must have rank >= 2, got %s and %s", ref_type_str(a), ref_type_str(b));
  int64_t k = a->shape[a->rank - 1];
  if (b->shape[b->rank - 2] != k)
    return ref_fail(op, "contracted dims differ: lhs %s has K = %lld, rhs %s has %lld", ref_type_str(a), (long long)k,
                    ref_type_str(b), (long long)b->shape[b->rank - 2]);
  return true;
}

bool ref_matmul(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result) {
  (void)n_args;
  const BrazeHostTensor *a = args[0], *b = args[1];
  if (!check_contraction_types(op, a, b, result))
    return false;
  if (a->rank != 2 || b->rank != 2)
    return ref_fail(op, "operands must have rank 2 (use batch_matmul for batches), got %s and %s", ref_type_str(a),
                    ref_type_str(b));
  int64_t shape[2] = {a->shape[0], b->shape[1]};
  if (!ref_require_shape(op, result, 2, shape, "the result"))
    return false;
  matmul_block(a->data, b->data, result->data, a->shape[0], a->shape[1], b->shape[1]);
  return true;
}

/* The batch dims of `t` (all but the last two) as a shape-only tensor. */
static BrazeHostTensor batch_part(const BrazeHostTensor *t) {
  BrazeHostTensor part = {.dtype = t->dtype, .rank = t->rank - 2};
  for (int i = 0; i < part.rank; ++i)
    part.shape[i] = t->shape[i];
  return part;
}

bool ref_batch_matmul(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result) {
  (void)n_args;
  const BrazeHostTensor *a = args[0], *b = args[1];
  if (!check_contraction_types(op, a, b, result))
    return false;
  BrazeHostTensor a_batch = batch_part(a), b_batch = batch_part(b);
  int64_t shape[BRAZE_TENSOR_MAX_RANK];
  intptr_t batch_rank;
  if (!braze_broadcast_shapes(a_batch.shape, a_batch.rank, b_batch.shape, b_batch.rank, shape, &batch_rank))
    return ref_fail(op, "batch dims of %s and %s do not broadcast", ref_type_str(a), ref_type_str(b));
  int64_t m = a->shape[a->rank - 2], k = a->shape[a->rank - 1], n = b->shape[b->rank - 1];
  shape[batch_rank] = m;
  shape[batch_rank + 1] = n;
  if (!ref_require_shape(op, result, (int)batch_rank + 2, shape, "the result"))
    return false;
  int64_t a_strides[BRAZE_TENSOR_MAX_RANK], b_strides[BRAZE_TENSOR_MAX_RANK];
  ref_broadcast_strides(&a_batch, (int)batch_rank, shape, a_strides);
  ref_broadcast_strides(&b_batch, (int)batch_rank, shape, b_strides);
  int64_t idx[BRAZE_TENSOR_MAX_RANK] = {0};
  BrazeHostTensor out_batch = batch_part(result);
  int64_t batches = braze_tensor_numel(&out_batch);
  for (int64_t bi = 0; bi < batches; ++bi, ref_index_next(idx, (int)batch_rank, shape)) {
    const double *ab = a->data + ref_offset(idx, a_strides, (int)batch_rank) * m * k;
    const double *bb = b->data + ref_offset(idx, b_strides, (int)batch_rank) * k * n;
    matmul_block(ab, bb, result->data + bi * m * n, m, k, n);
  }
  return true;
}

bool ref_linear(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result) {
  (void)n_args;
  const BrazeHostTensor *x = args[0], *w = args[1], *bias = args[2];
  if (x->rank < 1 || w->rank != 2)
    return ref_fail(op, "expected x [..., K] and weight [N, K], got %s and %s", ref_type_str(x), ref_type_str(w));
  int64_t k = x->shape[x->rank - 1], n = w->shape[0];
  if (w->shape[1] != k)
    return ref_fail(op, "weight %s must be [N, K] with K = %lld (x is %s)", ref_type_str(w), (long long)k,
                    ref_type_str(x));
  int64_t shape[BRAZE_TENSOR_MAX_RANK];
  for (int i = 0; i < x->rank - 1; ++i)
    shape[i] = x->shape[i];
  shape[x->rank - 1] = n;
  if (!ref_require_shape(op, bias, 1, &n, "the bias") || !ref_require_shape(op, result, x->rank, shape, "the result") ||
      !ref_require_dtype(op, w, x->dtype, "the weight") || !ref_require_dtype(op, bias, x->dtype, "the bias") ||
      !ref_require_dtype(op, result, x->dtype, "the result"))
    return false;
  int64_t rows = k ? braze_tensor_numel(x) / k : braze_tensor_numel(result) / (n ? n : 1);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < n; ++j) {
      double acc = 0.0;
      for (int64_t p = 0; p < k; ++p)
        acc += x->data[r * k + p] * w->data[j * k + p];
      result->data[r * n + j] = acc + bias->data[j];
    }
  return true;
}
