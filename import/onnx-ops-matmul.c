/* Converters for contractions: MatMul (numpy matmul semantics: 1-D operands are
 * promoted and the added dim removed again; rank > 2 gives batch_matmul with
 * broadcast batch dims) and Gemm (transA/transB/alpha/beta; the PyTorch Linear form
 * becomes graph.linear). */
#include <string.h>

#include "import/onnx-internal.h"

/* Shape of batch_matmul(a, b): broadcast batch dims, then [M, N]. */
static bool matmul_type(OnnxImporter *im, const OnnxType *a, const OnnxType *b, OnnxType *r) {
  int64_t m = a->dims[a->rank - 2], k = a->dims[a->rank - 1];
  int64_t k2 = b->dims[b->rank - 2], n = b->dims[b->rank - 1];
  if (k != k2) {
    char s1[128], s2[128];
    return onnx_node_error(im, "inner dimensions differ: %s times %s", onnx_type_str(a, s1, sizeof s1),
                           onnx_type_str(b, s2, sizeof s2));
  }
  OnnxType ba = *a, bb = *b;
  ba.rank -= 2;
  bb.rank -= 2;
  if (!onnx_broadcast(im, &ba, &bb, r))
    return false;
  r->dims[r->rank++] = m;
  r->dims[r->rank++] = n;
  return true;
}

static bool convert_matmul(OnnxImporter *im) {
  OnnxType ta, tb;
  MlirValue a = onnx_operand(im, 0, &ta);
  if (mlirValueIsNull(a))
    return false;
  MlirValue b = onnx_operand(im, 1, &tb);
  if (mlirValueIsNull(b) || !onnx_require_float(im, &ta, "A") || !onnx_require_float(im, &tb, "B"))
    return false;
  if (ta.dtype != tb.dtype)
    return onnx_node_error(im, "A and B have different element types");
  if (ta.rank == 0 || tb.rank == 0)
    return onnx_node_error(im, "operands must have rank >= 1");
  /* 1-D operands: a [K] -> [1, K], b [K] -> [K, 1]; the extra dim goes again below. */
  bool a_vec = ta.rank == 1, b_vec = tb.rank == 1;
  if (a_vec) {
    OnnxType t = {.dtype = ta.dtype, .rank = 2, .dims = {1, ta.dims[0]}};
    a = onnx_build_reshape(im, a, &t);
    ta = t;
  }
  if (b_vec) {
    OnnxType t = {.dtype = tb.dtype, .rank = 2, .dims = {tb.dims[0], 1}};
    b = onnx_build_reshape(im, b, &t);
    tb = t;
  }
  OnnxType r;
  if (!matmul_type(im, &ta, &tb, &r))
    return false;
  const char *op = ta.rank == 2 && tb.rank == 2 ? "matmul" : "batch_matmul";
  MlirValue y = onnx_build_binary(im, op, a, b, &r);
  if (a_vec || b_vec) {
    OnnxType squeezed = r;
    if (b_vec)
      squeezed.rank--; /* drop N = 1 */
    if (a_vec) {       /* drop M = 1 */
      squeezed.dims[squeezed.rank - 1 - !b_vec] = squeezed.dims[squeezed.rank - !b_vec];
      squeezed.rank--;
    }
    y = onnx_build_reshape(im, y, &squeezed);
    r = squeezed;
  }
  return onnx_set_output(im, 0, y, &r);
}

/* Gemm's 2-D operand, transposed when its trans attribute says so. */
static MlirValue gemm_operand(OnnxImporter *im, size_t i, const char *trans_attr, const char *what,
                              OnnxType *t) {
  MlirValue v = onnx_operand(im, i, t);
  if (mlirValueIsNull(v))
    return v;
  if (t->rank != 2 || !onnx_require_float(im, t, what)) {
    if (t->rank != 2)
      onnx_node_error(im, "%s must be 2-D, not rank %zu", what, t->rank);
    return (MlirValue){NULL};
  }
  if (!onnx_attr_int(im->node, trans_attr, 0))
    return v;
  static const int64_t swap[2] = {1, 0};
  OnnxType in = *t;
  return onnx_build_transpose(im, v, &in, swap, t);
}

/* Gemm(A, B, C) with transA=0, transB=1, alpha=beta=1 and C of shape [N] is
 * PyTorch's Linear: graph.linear keeps it whole for the passes. */
static bool is_linear(OnnxImporter *im, const OnnxType *b, const OnnxType *c) {
  const Onnx__NodeProto *n = im->node;
  return onnx_attr_int(n, "transA", 0) == 0 && onnx_attr_int(n, "transB", 0) == 1 &&
         onnx_attr_float(n, "alpha", 1.0f) == 1.0f && onnx_attr_float(n, "beta", 1.0f) == 1.0f &&
         c->rank == 1 && b->rank == 2 && c->dims[0] == b->dims[0] && c->dtype == b->dtype;
}

static bool convert_linear(OnnxImporter *im) {
  OnnxType t[3];
  MlirValue v[3];
  for (size_t i = 0; i < 3; ++i)
    if (mlirValueIsNull(v[i] = onnx_operand(im, i, &t[i])))
      return false;
  if (t[0].rank != 2 || t[0].dtype != t[1].dtype || t[0].dims[1] != t[1].dims[1] ||
      !onnx_require_float(im, &t[0], "A"))
    return onnx_node_error(im, "A and B do not fit a Gemm with transB = 1");
  OnnxType r = {.dtype = t[0].dtype, .rank = 2, .dims = {t[0].dims[0], t[1].dims[0]}};
  return onnx_set_output(im, 0, onnx_build(im, "linear", &r, v, 3, NULL, 0), &r);
}

static bool convert_gemm(OnnxImporter *im) {
  OnnxValue *bv = onnx_input(im, 1);
  OnnxValue *cv = onnx_has_input(im->node, 2) ? onnx_input(im, 2) : NULL;
  if (!bv || (onnx_has_input(im->node, 2) && !cv))
    return false;
  if (cv && is_linear(im, &bv->type, &cv->type))
    return convert_linear(im);
  OnnxType ta, tb, r;
  MlirValue a = gemm_operand(im, 0, "transA", "A", &ta);
  if (mlirValueIsNull(a))
    return false;
  MlirValue b = gemm_operand(im, 1, "transB", "B", &tb);
  if (mlirValueIsNull(b))
    return false;
  if (ta.dtype != tb.dtype)
    return onnx_node_error(im, "A and B have different element types");
  if (!matmul_type(im, &ta, &tb, &r))
    return false;
  MlirValue y = onnx_build_binary(im, "matmul", a, b, &r);
  double alpha = onnx_attr_float(im->node, "alpha", 1.0f), beta = onnx_attr_float(im->node, "beta", 1.0f);
  if (alpha != 1.0)
    y = onnx_build_binary(im, "mul", y, onnx_build_scalar(im, r.dtype, alpha), &r);
  if (!cv || beta == 0.0)
    return onnx_set_output(im, 0, y, &r);
  OnnxType tc, sum;
  MlirValue c = onnx_operand(im, 2, &tc);
  if (mlirValueIsNull(c))
    return false;
  if (tc.dtype != r.dtype)
    return onnx_node_error(im, "C has element type %s, A and B %s", onnx_dtype_name(tc.dtype),
                           onnx_dtype_name(r.dtype));
  if (!onnx_broadcast(im, &r, &tc, &sum))
    return false;
  if (!onnx_same_shape(&sum, &r)) {
    char s1[128], s2[128];
    return onnx_node_error(im, "C of shape %s does not broadcast to %s", onnx_type_str(&tc, s1, sizeof s1),
                           onnx_type_str(&r, s2, sizeof s2));
  }
  if (beta != 1.0)
    c = onnx_build_binary(im, "mul", c, onnx_build_scalar(im, r.dtype, beta), &tc);
  return onnx_set_output(im, 0, onnx_build_binary(im, "add", y, c, &r), &r);
}

const OnnxOpEntry onnx_matmul_ops[] = {
    {"MatMul", convert_matmul, 0},
    {"Gemm", convert_gemm, 7},
    {NULL, NULL, 0},
};
