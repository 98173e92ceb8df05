/* Graph verifier rules for shape ops: transpose, broadcast_to, reshape, slice, concat, window. */
#include <string.h>

#include "dialects/graph/verify-internal.h"

static bool same_elt_as_input(const GvOp *v) { return gv_same_elt(v, &v->in[0], "operand", &v->res, "result"); }

/* An array<i64> attribute with exactly one entry per dim of a rank-`rank` tensor. */
static bool per_dim_array(const GvOp *v, const char *name, intptr_t rank, int64_t *out) {
  int64_t scratch[BRAZE_MAX_RANK + 1];
  intptr_t n = braze_attr_i64_array(v->op, name, scratch, BRAZE_MAX_RANK + 1);
  if (n < 0)
    return gv_fail(v, "expects '%s' to be an array<i64: ...> attribute", name);
  if (n != rank)
    return gv_fail(v, "%s has %lld entries; expected one per dim (rank %lld)", name, (long long)n,
                   (long long)rank);
  memcpy(out, scratch, (size_t)n * sizeof *out);
  return true;
}

bool gv_verify_transpose(const GvOp *v) {
  const GvTensor *x = &v->in[0];
  int64_t perm[BRAZE_MAX_RANK];
  if (!same_elt_as_input(v) || !per_dim_array(v, "perm", x->rank, perm))
    return false;
  bool seen[BRAZE_MAX_RANK] = {false};
  for (intptr_t i = 0; i < x->rank; ++i) {
    if (perm[i] < 0 || perm[i] >= x->rank || seen[perm[i]])
      return gv_fail(v, "perm %s is not a permutation of 0..%lld", gv_dims(perm, x->rank).s,
                     (long long)x->rank - 1);
    seen[perm[i]] = true;
  }
  int64_t expected[BRAZE_MAX_RANK];
  for (intptr_t i = 0; i < x->rank; ++i)
    expected[i] = x->dims[perm[i]];
  return gv_result_shape_is(v, expected, x->rank, "result dim i = operand dim perm[i]");
}

bool gv_verify_broadcast_to(const GvOp *v) {
  const GvTensor *x = &v->in[0];
  int64_t shape[BRAZE_MAX_RANK];
  intptr_t rank;
  if (!same_elt_as_input(v))
    return false;
  bool ok = x->rank <= v->res.rank &&
            braze_broadcast_shapes(x->dims, x->rank, v->res.dims, v->res.rank, shape, &rank) &&
            gv_dims_equal(shape, rank, v->res.dims, v->res.rank);
  if (ok)
    return true;
  return gv_fail(v, "operand shape %s cannot be broadcast to the result shape %s", gv_shape(x).s,
                 gv_shape(&v->res).s);
}

bool gv_verify_reshape(const GvOp *v) {
  if (!same_elt_as_input(v))
    return false;
  int64_t in, out;
  if (!gv_product(v->in[0].dims, v->in[0].rank, NULL, &in) || !gv_product(v->res.dims, v->res.rank, NULL, &out))
    return gv_fail(v, "element count overflows a 64-bit integer");
  if (in == out)
    return true;
  return gv_fail(v, "result shape %s has %lld elements but the operand shape %s has %lld",
                 gv_shape(&v->res).s, (long long)out, gv_shape(&v->in[0]).s, (long long)in);
}

bool gv_verify_slice(const GvOp *v) {
  const GvTensor *x = &v->in[0];
  int64_t starts[BRAZE_MAX_RANK], limits[BRAZE_MAX_RANK], strides[BRAZE_MAX_RANK];
  if (!same_elt_as_input(v) || !per_dim_array(v, "starts", x->rank, starts) ||
      !per_dim_array(v, "limits", x->rank, limits) || !per_dim_array(v, "strides", x->rank, strides))
    return false;
  int64_t expected[BRAZE_MAX_RANK];
  for (intptr_t i = 0; i < x->rank; ++i) {
    if (starts[i] < 0 || starts[i] > limits[i] || limits[i] > x->dims[i])
      return gv_fail(v, "dim %lld: expected 0 <= start (%lld) <= limit (%lld) <= size (%lld)", (long long)i,
                     (long long)starts[i], (long long)limits[i], (long long)x->dims[i]);
    if (strides[i] < 1)
      return gv_fail(v, "dim %lld: stride must be >= 1, got %lld", (long long)i, (long long)strides[i]);
    expected[i] = (limits[i] - starts[i] + strides[i] - 1) / strides[i];
  }
  return gv_result_shape_is(v, expected, x->rank, "ceil((limit - start) / stride) per dim");
}

/* window {kernel, strides, dilations}: x [B, S1..Sn, C] (n = rank - 2 >= 1, 2n + 2 <= the
 * maximal rank) -> [B, O1..On, K1..Kn, C], Oi = (Si - di (Ki - 1) - 1) / si + 1 >= 1. */
bool gv_verify_window(const GvOp *v) {
  const GvTensor *x = &v->in[0];
  intptr_t n = x->rank - 2;
  if (!same_elt_as_input(v))
    return false;
  if (n < 1 || 2 * n + 2 > BRAZE_MAX_RANK)
    return gv_fail(v, "expects an operand [B, S1..Sn, C] with 1 <= n <= %d spatial dims, got %s",
                   (BRAZE_MAX_RANK - 2) / 2, gv_shape(x).s);
  int64_t kernel[BRAZE_MAX_RANK], strides[BRAZE_MAX_RANK], dilations[BRAZE_MAX_RANK];
  if (!per_dim_array(v, "kernel", n, kernel) || !per_dim_array(v, "strides", n, strides) ||
      !per_dim_array(v, "dilations", n, dilations))
    return false;
  int64_t expected[BRAZE_MAX_RANK];
  expected[0] = x->dims[0];
  expected[2 * n + 1] = x->dims[n + 1];
  for (intptr_t i = 0; i < n; ++i) {
    if (kernel[i] < 1 || strides[i] < 1 || dilations[i] < 1)
      return gv_fail(v, "spatial dim %lld: kernel (%lld), stride (%lld) and dilation (%lld) must be >= 1",
                     (long long)i, (long long)kernel[i], (long long)strides[i], (long long)dilations[i]);
    int64_t reach = dilations[i] * (kernel[i] - 1) + 1;
    if (reach > x->dims[1 + i])
      return gv_fail(v, "spatial dim %lld: the window spans %lld elements but the operand has %lld",
                     (long long)i, (long long)reach, (long long)x->dims[1 + i]);
    expected[1 + i] = (x->dims[1 + i] - reach) / strides[i] + 1;
    expected[1 + n + i] = kernel[i];
  }
  return gv_result_shape_is(v, expected, 2 * n + 2, "[B, (S - d (K - 1) - 1) / s + 1 per dim, K per dim, C]");
}

/* Input #i agrees with input #0 on rank, element type and every dim but `dim`. */
static bool concat_input_matches(const GvOp *v, intptr_t i, int64_t dim) {
  const GvTensor *first = &v->in[0], *t = &v->in[i];
  if (t->rank != first->rank)
    return gv_fail(v, "input #%lld has rank %lld; expected rank %lld like input #0", (long long)i,
                   (long long)t->rank, (long long)first->rank);
  if (!mlirTypeEqual(t->elt, first->elt))
    return gv_fail(v, "input #%lld has element type %s; expected %s like input #0", (long long)i,
                   gv_type(t->elt).s, gv_type(first->elt).s);
  for (intptr_t d = 0; d < t->rank; ++d)
    if (d != dim && t->dims[d] != first->dims[d])
      return gv_fail(v, "input #%lld has shape %s; expected every dim but dim %lld to equal input #0's %s",
                     (long long)i, gv_shape(t).s, (long long)dim, gv_shape(first).s);
  return true;
}

bool gv_verify_concat(const GvOp *v) {
  int64_t dim; /* binary: IRDL checked there are exactly 2 inputs */
  if (!gv_dim_attr(v, "dim", v->in[0].rank, &dim) || !same_elt_as_input(v))
    return false;
  int64_t expected[BRAZE_MAX_RANK];
  memcpy(expected, v->in[0].dims, sizeof expected);
  for (intptr_t i = 1; i < v->num_inputs; ++i) {
    if (!concat_input_matches(v, i, dim))
      return false;
    expected[dim] += v->in[i].dims[dim];
  }
  return gv_result_shape_is(v, expected, v->in[0].rank, "the inputs' sizes along dim added up");
}
