/* Graph verifier rules for reductions and the normalizing composites (softmax,
 * log_softmax, layer_norm, rms_norm, batch_norm). */
#include <string.h>

#include "dialects/graph/verify-internal.h"
#include "mlir-c/BuiltinAttributes.h"

/* dims: a non-empty array<i64> of unique dims in [0, rank). Marks them in `reduced`. */
static bool check_dims(const GvOp *v, intptr_t rank, bool *reduced, int64_t *dims, intptr_t *num_dims) {
  intptr_t n = braze_attr_i64_array(v->op, "dims", dims, BRAZE_MAX_RANK);
  if (n < 0)
    return gv_fail(v, "expects 'dims' to be an array<i64: ...> attribute");
  if (n == 0)
    return gv_fail(v, "dims must not be empty");
  if (n > rank)
    return gv_fail(v, "dims has %lld entries but the operand has rank %lld", (long long)n, (long long)rank);
  for (intptr_t i = 0; i < n; ++i) {
    if (dims[i] < 0 || dims[i] >= rank)
      return gv_fail(v, "dim %lld is out of range for rank %lld", (long long)dims[i], (long long)rank);
    if (reduced[dims[i]])
      return gv_fail(v, "dim %lld appears more than once in dims", (long long)dims[i]);
    reduced[dims[i]] = true;
  }
  *num_dims = n;
  return true;
}

static bool keepdim_attr(const GvOp *v, bool *keepdim) {
  MlirAttribute a = mlirOperationGetAttributeByName(v->op, mlirStringRefCreateFromCString("keepdim"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsABool(a))
    return gv_fail(v, "keepdim must be a bool (keepdim = true or keepdim = false)");
  *keepdim = mlirBoolAttrGetValue(a);
  return true;
}

/* reduce_var: correction >= 0 and n - correction > 0, n the reduced element count. */
static bool check_correction(const GvOp *v, const bool *reduced) {
  int64_t correction;
  if (!braze_attr_i64(v->op, "correction", &correction))
    return gv_fail(v, "expects an integer attribute 'correction' (e.g. correction = 1 : i64)");
  if (correction < 0)
    return gv_fail(v, "correction must be >= 0, got %lld", (long long)correction);
  int64_t n;
  if (!gv_product(v->in[0].dims, v->in[0].rank, reduced, &n))
    return gv_fail(v, "the reduced element count overflows a 64-bit integer");
  if (n - correction <= 0)
    return gv_fail(v, "the reduced element count %lld minus correction %lld must be > 0", (long long)n,
                   (long long)correction);
  return true;
}

bool gv_verify_reduce(const GvOp *v) {
  const GvTensor *x = &v->in[0];
  bool reduced[BRAZE_MAX_RANK] = {false};
  int64_t dims[BRAZE_MAX_RANK];
  intptr_t num_dims;
  bool keepdim = false;
  if (!check_dims(v, x->rank, reduced, dims, &num_dims) || !keepdim_attr(v, &keepdim))
    return false;
  if (strcmp(v->mnemonic, "reduce_var") == 0 && !check_correction(v, reduced))
    return false;
  if (!gv_same_elt(v, x, "operand", &v->res, "result"))
    return false;
  int64_t expected[BRAZE_MAX_RANK];
  intptr_t rank = 0;
  for (intptr_t i = 0; i < x->rank; ++i) {
    if (!reduced[i])
      expected[rank++] = x->dims[i];
    else if (keepdim)
      expected[rank++] = 1;
  }
  return gv_result_shape_is(v, expected, rank, keepdim ? "reduced dims kept as 1" : "reduced dims removed");
}

bool gv_verify_softmax(const GvOp *v) {
  int64_t dim;
  return gv_dim_attr(v, "dim", v->in[0].rank, &dim) && gv_result_is(v, &v->in[0], "operand");
}

static bool eps_attr(const GvOp *v) {
  double eps;
  if (!braze_attr_f64(v->op, "eps", &eps))
    return gv_fail(v, "expects a float attribute 'eps' (e.g. eps = 1.0e-05 : f32)");
  return true;
}

/* `param` (operand #index, called `name`) has shape x.shape[axis:] and x's element type. */
static bool check_trailing_param(const GvOp *v, intptr_t index, const char *name, int64_t axis) {
  const GvTensor *x = &v->in[0], *p = &v->in[index];
  if (!gv_same_elt(v, x, "x", p, name))
    return false;
  if (gv_dims_equal(p->dims, p->rank, x->dims + axis, x->rank - axis))
    return true;
  return gv_fail(v, "%s shape %s must be x.shape[axis:] = %s", name, gv_shape(p).s,
                 gv_dims(x->dims + axis, x->rank - axis).s);
}

bool gv_verify_layer_norm(const GvOp *v) {
  int64_t axis;
  return gv_dim_attr(v, "axis", v->in[0].rank, &axis) && eps_attr(v) &&
         check_trailing_param(v, 1, "weight", axis) && check_trailing_param(v, 2, "bias", axis) &&
         gv_result_is(v, &v->in[0], "x");
}

bool gv_verify_rms_norm(const GvOp *v) {
  int64_t axis;
  return gv_dim_attr(v, "axis", v->in[0].rank, &axis) && eps_attr(v) &&
         check_trailing_param(v, 1, "weight", axis) && gv_result_is(v, &v->in[0], "x");
}

bool gv_verify_batch_norm(const GvOp *v) {
  static const char *const names[] = {"x", "scale", "bias", "mean", "var"};
  const GvTensor *x = &v->in[0];
  if (x->rank < 2)
    return gv_fail(v, "x must have rank >= 2 (channel dim 1), got rank %lld", (long long)x->rank);
  if (!eps_attr(v))
    return false;
  int64_t channels = x->dims[1];
  for (intptr_t i = 1; i < 5; ++i) {
    const GvTensor *p = &v->in[i];
    if (!gv_same_elt(v, x, "x", p, names[i]))
      return false;
    if (p->rank != 1 || p->dims[0] != channels)
      return gv_fail(v, "%s shape %s must be [C] = [%lld] (x's dim 1)", names[i], gv_shape(p).s,
                     (long long)channels);
  }
  return gv_result_is(v, x, "x");
}
