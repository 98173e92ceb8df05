/* graph-decompose: a batch_norm (inference) folded into the conv it reads when the
 * conv's weight and the batch_norm's parameters are f32 constants (Inductor's and
 * ONNX Runtime's conv-bn fold): with k = scale / sqrt(var + eps) per output channel,
 *   batch_norm(conv(x, w) [+ b]) = conv(x, w * k) + ((b - mean) k + beta)
 * computed here in double and rounded once to f32; the bias b is optional (a
 * constant per-channel add between the two, as the ONNX importer writes Conv's B).
 * The conv and the add then lower like any conv and add: the add is the matmul
 * template's epilogue. graph-decompose holds a conv whose only reader folds it
 * (braze_conv_awaits_fold) so the fold sees the conv before its expansion. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/graph/graph.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/graph/decompose-conv.h"
#include "support/context.h"

static bool is_f32(MlirValue v) {
  MlirType t = mlirValueGetType(v);
  return braze_is_ranked_tensor(t) && mlirTypeIsAF32(braze_element_type(t));
}

MlirAttribute braze_conv_constant_f32(MlirValue v) {
  for (MlirOperation r; !mlirOperationIsNull(r = braze_gb_defining(v, "reshape"));)
    v = mlirOperationGetOperand(r, 0);
  MlirOperation def = braze_gb_defining(v, "constant");
  if (mlirOperationIsNull(def) || !is_f32(v))
    return mlirAttributeGetNull();
  MlirAttribute a = mlirOperationGetAttributeByName(def, braze_ref("value"));
  bool ok = !mlirAttributeIsNull(a) && (mlirAttributeIsADenseElements(a) || mlirAttributeIsADenseResourceElements(a));
  return ok ? a : mlirAttributeGetNull();
}

double braze_conv_constant_element(MlirAttribute a, int64_t i) {
  if (mlirAttributeIsADenseResourceElements(a))
    return mlirDenseFloatResourceElementsAttrGetValue(a, i);
  if (mlirDenseElementsAttrIsSplat(a))
    return mlirFloatAttrGetValueDouble(mlirDenseElementsAttrGetSplatValue(a));
  return mlirDenseElementsAttrGetFloatValue(a, i);
}

/* A constant holding one value per channel of a rank-`rank` result: `channels`
 * elements, every dim 1 but the channel dim (dim 1, with the shape aligned right). */
static bool per_channel(MlirValue v, intptr_t rank, int64_t channels) {
  MlirType t = mlirValueGetType(v);
  intptr_t r = braze_rank(t);
  if (mlirAttributeIsNull(braze_conv_constant_f32(v)) || r > rank || braze_num_elements(t) != channels)
    return false;
  for (intptr_t d = 0; d < r; ++d) {
    int64_t size = mlirShapedTypeGetDimSize(t, d);
    if (size != 1 && d + rank - r != 1)
      return false;
  }
  return true;
}

/* The conv under a batch_norm's input: x itself, or add(conv, per-channel constant). */
typedef struct {
  MlirOperation conv;
  MlirValue bias; /* null when none */
} ConvUnderBn;

static bool conv_under(MlirOperation bn, ConvUnderBn *out) {
  MlirValue x = mlirOperationGetOperand(bn, 0);
  out->bias = (MlirValue){NULL};
  MlirOperation add = braze_gb_defining(x, "add");
  if (!mlirOperationIsNull(add)) {
    if (!braze_single_use(x))
      return false;
    for (int side = 0; side < 2; ++side) {
      MlirValue c = mlirOperationGetOperand(add, side), other = mlirOperationGetOperand(add, 1 - side);
      if (!mlirOperationIsNull(braze_gb_defining(other, "conv")) &&
          per_channel(c, braze_rank(mlirValueGetType(x)), mlirShapedTypeGetDimSize(mlirValueGetType(x), 1)) &&
          braze_gb_types_equal(other, x)) {
        out->bias = c;
        x = other;
        break;
      }
    }
    if (mlirValueIsNull(out->bias))
      return false;
  }
  out->conv = braze_gb_defining(x, "conv");
  return !mlirOperationIsNull(out->conv) && braze_single_use(x) && is_f32(x);
}

bool braze_batch_norm_folds(MlirOperation bn) {
  ConvUnderBn u;
  if (mlirOperationGetNumOperands(bn) != 5 || !conv_under(bn, &u))
    return false;
  MlirValue y = mlirOperationGetResult(u.conv, 0);
  int64_t channels = mlirShapedTypeGetDimSize(mlirValueGetType(y), 1);
  MlirValue w = mlirOperationGetOperand(u.conv, 1);
  if (mlirAttributeIsNull(braze_conv_constant_f32(w)))
    return false;
  double eps;
  if (!braze_attr_f64(bn, "eps", &eps))
    return false;
  for (intptr_t i = 1; i < 5; ++i) {
    MlirValue p = mlirOperationGetOperand(bn, i);
    MlirType t = mlirValueGetType(p);
    if (braze_rank(t) != 1 || mlirShapedTypeGetDimSize(t, 0) != channels ||
        mlirAttributeIsNull(braze_conv_constant_f32(p)))
      return false;
  }
  return true;
}

bool braze_conv_awaits_fold(MlirOperation conv) {
  MlirValue y = mlirOperationGetResult(conv, 0);
  if (!braze_single_use(y))
    return false;
  MlirOperation user = mlirOpOperandGetOwner(mlirValueGetFirstUse(y));
  const char *m = braze_graph_op_mnemonic(user);
  if (m && strcmp(m, "add") == 0 && braze_single_use(mlirOperationGetResult(user, 0))) {
    user = mlirOpOperandGetOwner(mlirValueGetFirstUse(mlirOperationGetResult(user, 0)));
    m = braze_graph_op_mnemonic(user);
  }
  return m && strcmp(m, "batch_norm") == 0 && braze_batch_norm_folds(user);
}

MlirValue braze_fold_batch_norm(MlirOperation bn, GraphBuilder *b, MlirOperation dead[2]) {
  ConvUnderBn u;
  if (!braze_batch_norm_folds(bn) || !conv_under(bn, &u))
    return (MlirValue){NULL};
  MlirValue x = mlirOperationGetOperand(bn, 0);
  dead[0] = mlirValueIsNull(u.bias) ? (MlirOperation){NULL} : mlirOpResultGetOwner(x);
  dead[1] = u.conv;
  MlirValue w = mlirOperationGetOperand(u.conv, 1);
  MlirType wt = mlirValueGetType(w), yt = mlirValueGetType(mlirOperationGetResult(u.conv, 0));
  int64_t channels = mlirShapedTypeGetDimSize(yt, 1), per = braze_num_elements(wt) / channels;
  double eps = 0;
  braze_attr_f64(bn, "eps", &eps);
  MlirAttribute wa = braze_conv_constant_f32(w), scale = braze_conv_constant_f32(mlirOperationGetOperand(bn, 1)),
                beta = braze_conv_constant_f32(mlirOperationGetOperand(bn, 2)),
                mean = braze_conv_constant_f32(mlirOperationGetOperand(bn, 3)),
                var = braze_conv_constant_f32(mlirOperationGetOperand(bn, 4));
  MlirAttribute bias = mlirValueIsNull(u.bias) ? mlirAttributeGetNull() : braze_conv_constant_f32(u.bias);
  float *nw = malloc((size_t)(channels * per) * sizeof *nw), *nb = malloc((size_t)channels * sizeof *nb);
  for (int64_t c = 0; c < channels; ++c) {
    double k = braze_conv_constant_element(scale, c) / sqrt(braze_conv_constant_element(var, c) + eps);
    for (int64_t j = 0; j < per; ++j)
      nw[c * per + j] = (float)(braze_conv_constant_element(wa, c * per + j) * k);
    double b0 = mlirAttributeIsNull(bias) ? 0.0 : braze_conv_constant_element(bias, c);
    nb[c] = (float)((b0 - braze_conv_constant_element(mean, c)) * k + braze_conv_constant_element(beta, c));
  }
  MlirValue ops[2] = {mlirOperationGetOperand(u.conv, 0),
                      braze_gb_constant(b, mlirDenseElementsAttrFloatGet(wt, channels * per, nw))};
  /* The new conv keeps the conv's location (kernels are named after it); the bias add
   * is the batch_norm's. */
  intptr_t num_attrs = mlirOperationGetNumAttributes(u.conv);
  MlirNamedAttribute attrs[8];
  for (intptr_t i = 0; i < num_attrs && i < 8; ++i)
    attrs[i] = mlirOperationGetAttribute(u.conv, i);
  GraphBuilder cb = *b;
  cb.loc = mlirOperationGetLocation(u.conv);
  MlirValue y = mlirOperationGetResult(braze_gb_create(&cb, "conv", ops, 2, yt, attrs, num_attrs < 8 ? num_attrs : 8), 0);
  b->num_created = cb.num_created;
  int64_t shape[BRAZE_MAX_RANK];
  intptr_t rank = braze_rank(yt);
  for (intptr_t d = 0; d < rank; ++d)
    shape[d] = d == 1 ? channels : 1;
  MlirType bt = braze_gb_tensor_type(b->ctx, shape, rank, mlirF32TypeGet(b->ctx));
  MlirValue folded_bias = braze_gb_constant(b, mlirDenseElementsAttrFloatGet(bt, channels, nb));
  free(nw);
  free(nb);
  return braze_gb_binary(b, "add", y, folded_bias);
}
