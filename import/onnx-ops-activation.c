/* Activations, rounding, hyperbolic functions and predicates imported as
 * compositions of graph ops (each formula is the ONNX operator definition; the
 * choice per op is listed in docs/onnx-import.md). */
#include <math.h>
#include <string.h>

#include "import/onnx-compose.h"

/* Input 0, which must be a float tensor. */
static OcVal float_input(OnnxImporter *im) {
  OcVal x = oc_input(im, 0);
  if (oc_ok(x) && !onnx_require_float(im, &x.t, "the input"))
    x.v = (MlirValue){NULL};
  return x;
}

static double attr_f(OnnxImporter *im, const char *name, double dflt) {
  return onnx_attr_float(im->node, name, (float)dflt);
}

static OcVal zero_like(OnnxImporter *im, OcVal x) { return oc_scalar(im, x.t.dtype, 0.0); }

/* LeakyRelu: x < 0 ? alpha x : x */
static bool convert_leaky_relu(OnnxImporter *im) {
  OcVal x = float_input(im);
  OcVal scaled = oc_binary_s(im, "mul", x, attr_f(im, "alpha", 0.01));
  return oc_output(im, 0, oc_select(im, oc_cmp_s(im, "lt", x, 0), scaled, x));
}

/* PRelu: x < 0 ? slope x : x, slope broadcast to x. */
static bool convert_prelu(OnnxImporter *im) {
  OcVal x = float_input(im), slope = oc_input(im, 1);
  return oc_output(im, 0, oc_select(im, oc_cmp_s(im, "lt", x, 0), oc_binary(im, "mul", x, slope), x));
}

/* exp(x) - 1 (Elu, Selu, Celu: the negative branch). */
static OcVal expm1_of(OnnxImporter *im, OcVal x) { return oc_binary_s(im, "sub", oc_unary(im, "exp", x), 1.0); }

/* Elu: x < 0 ? alpha (exp(x) - 1) : x */
static bool convert_elu(OnnxImporter *im) {
  OcVal x = float_input(im);
  OcVal neg = oc_binary_s(im, "mul", expm1_of(im, x), attr_f(im, "alpha", 1.0));
  return oc_output(im, 0, oc_select(im, oc_cmp_s(im, "lt", x, 0), neg, x));
}

/* Selu: gamma (x > 0 ? x : alpha (exp(x) - 1)) */
static bool convert_selu(OnnxImporter *im) {
  OcVal x = float_input(im);
  double alpha = attr_f(im, "alpha", 1.67326319217681884765625);
  double gamma = attr_f(im, "gamma", 1.05070102214813232421875);
  OcVal neg = oc_binary_s(im, "mul", expm1_of(im, x), alpha);
  OcVal y = oc_select(im, oc_cmp_s(im, "gt", x, 0), x, neg);
  return oc_output(im, 0, oc_binary_s(im, "mul", y, gamma));
}

/* Celu: max(0, x) + min(0, alpha (exp(x / alpha) - 1)) */
static bool convert_celu(OnnxImporter *im) {
  OcVal x = float_input(im);
  double alpha = attr_f(im, "alpha", 1.0);
  OcVal neg = oc_binary_s(im, "mul", expm1_of(im, oc_binary_s(im, "div", x, alpha)), alpha);
  OcVal y = oc_binary(im, "add", oc_binary_s(im, "max", x, 0), oc_binary_s(im, "min", neg, 0));
  return oc_output(im, 0, y);
}

/* max(0, min(1, alpha x + beta)) */
static OcVal hard_sigmoid(OnnxImporter *im, OcVal x, double alpha, double beta) {
  OcVal lin = oc_binary_s(im, "add", oc_binary_s(im, "mul", x, alpha), beta);
  return oc_binary_s(im, "max", oc_binary_s(im, "min", lin, 1.0), 0.0);
}

static bool convert_hard_sigmoid(OnnxImporter *im) {
  OcVal x = float_input(im);
  return oc_output(im, 0, hard_sigmoid(im, x, attr_f(im, "alpha", 0.2), attr_f(im, "beta", 0.5)));
}

/* HardSwish: x HardSigmoid(x) with alpha 1/6, beta 1/2. */
static bool convert_hard_swish(OnnxImporter *im) {
  OcVal x = float_input(im);
  return oc_output(im, 0, oc_binary(im, "mul", x, hard_sigmoid(im, x, 1.0 / 6.0, 0.5)));
}

/* Softplus: log(1 + exp(x)), computed as max(x, 0) + log(1 + exp(-|x|)) so large
 * |x| neither overflows nor loses the linear part. */
static OcVal softplus(OnnxImporter *im, OcVal x) {
  OcVal tail = oc_unary(im, "exp", oc_unary(im, "neg", oc_unary(im, "abs", x)));
  OcVal log1p = oc_unary(im, "log", oc_binary_s(im, "add", tail, 1.0));
  return oc_binary(im, "add", oc_binary_s(im, "max", x, 0.0), log1p);
}

static bool convert_softplus(OnnxImporter *im) { return oc_output(im, 0, softplus(im, float_input(im))); }

/* Softsign: x / (1 + |x|) */
static bool convert_softsign(OnnxImporter *im) {
  OcVal x = float_input(im);
  return oc_output(im, 0, oc_binary(im, "div", x, oc_binary_s(im, "add", oc_unary(im, "abs", x), 1.0)));
}

/* Mish: x tanh(softplus(x)) */
static bool convert_mish(OnnxImporter *im) {
  OcVal x = float_input(im);
  return oc_output(im, 0, oc_binary(im, "mul", x, oc_unary(im, "tanh", softplus(im, x))));
}

/* Shrink: x < -lambd ? x + bias : x > lambd ? x - bias : 0 */
static bool convert_shrink(OnnxImporter *im) {
  OcVal x = float_input(im);
  double bias = attr_f(im, "bias", 0.0), lambd = attr_f(im, "lambd", 0.5);
  OcVal upper = oc_select(im, oc_cmp_s(im, "gt", x, lambd), oc_binary_s(im, "sub", x, bias), zero_like(im, x));
  return oc_output(im, 0, oc_select(im, oc_cmp_s(im, "lt", x, -lambd), oc_binary_s(im, "add", x, bias), upper));
}

/* ThresholdedRelu: x > alpha ? x : 0 */
static bool convert_thresholded_relu(OnnxImporter *im) {
  OcVal x = float_input(im);
  return oc_output(im, 0, oc_select(im, oc_cmp_s(im, "gt", x, attr_f(im, "alpha", 1.0)), x, zero_like(im, x)));
}

/* ---- rounding ---- */

static bool convert_floor(OnnxImporter *im) { return oc_output(im, 0, oc_floor(im, float_input(im))); }

/* Ceil(x) = -floor(-x) */
static bool convert_ceil(OnnxImporter *im) {
  OcVal x = float_input(im);
  return oc_output(im, 0, oc_unary(im, "neg", oc_floor(im, oc_unary(im, "neg", x))));
}

/* Round, halves to even: r = floor(x + 1/2); when x + 1/2 was exactly an integer
 * (a tie) and r is odd, r - 1. x + 1/2 is exact below 2^(p-1) for a p-bit
 * significand (f32 2^22, f64 2^52, f16 2^10, bf16 2^7); from 2^(p-1) on every value is an
 * integer already and is kept. */
static bool convert_round(OnnxImporter *im) {
  OcVal x = float_input(im);
  if (!oc_ok(x))
    return false;
  double exact_below = x.t.dtype == ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT16    ? 1024.0
                       : x.t.dtype == ONNX__TENSOR_PROTO__DATA_TYPE__BFLOAT16 ? 128.0
                       : x.t.dtype == ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE   ? 4503599627370496.0
                                                                              : 4194304.0;
  OcVal small = oc_cmp_s(im, "lt", oc_unary(im, "abs", x), exact_below);
  OcVal up = oc_binary_s(im, "add", x, 0.5);
  OcVal r = oc_floor(im, up);
  OcVal tie = oc_cmp(im, "eq", r, up);
  OcVal half = oc_floor(im, oc_binary_s(im, "mul", r, 0.5));
  OcVal odd = oc_cmp(im, "ne", oc_binary_s(im, "mul", half, 2.0), r);
  OcVal fix = oc_select(im, tie, oc_select(im, odd, oc_binary_s(im, "sub", r, 1.0), r), r);
  return oc_output(im, 0, oc_select(im, small, fix, x));
}

/* Sign: x > 0 ? 1 : x < 0 ? -1 : x (0 and NaN pass through). */
static bool convert_sign(OnnxImporter *im) {
  OcVal x = oc_input(im, 0);
  if (!oc_ok(x))
    return false;
  if (x.t.dtype == ONNX__TENSOR_PROTO__DATA_TYPE__BOOL)
    return onnx_node_error(im, "boolean inputs are not supported");
  OcVal neg = oc_select(im, oc_cmp_s(im, "lt", x, 0), oc_scalar(im, x.t.dtype, -1), x);
  return oc_output(im, 0, oc_select(im, oc_cmp_s(im, "gt", x, 0), oc_scalar(im, x.t.dtype, 1), neg));
}

/* ---- hyperbolic functions from exp/log/sqrt ---- */

static bool convert_sinh(OnnxImporter *im) {
  OcVal x = float_input(im);
  OcVal d = oc_binary(im, "sub", oc_unary(im, "exp", x), oc_unary(im, "exp", oc_unary(im, "neg", x)));
  return oc_output(im, 0, oc_binary_s(im, "mul", d, 0.5));
}

static bool convert_cosh(OnnxImporter *im) {
  OcVal x = float_input(im);
  OcVal s = oc_binary(im, "add", oc_unary(im, "exp", x), oc_unary(im, "exp", oc_unary(im, "neg", x)));
  return oc_output(im, 0, oc_binary_s(im, "mul", s, 0.5));
}

/* Asinh(x) = sign(x) log(|x| + sqrt(x^2 + 1)) (odd, so no cancellation for x < 0). */
static bool convert_asinh(OnnxImporter *im) {
  OcVal x = float_input(im);
  OcVal a = oc_unary(im, "abs", x);
  OcVal r = oc_unary(im, "sqrt", oc_binary_s(im, "add", oc_binary(im, "mul", a, a), 1.0));
  OcVal mag = oc_unary(im, "log", oc_binary(im, "add", a, r));
  return oc_output(im, 0, oc_select(im, oc_cmp_s(im, "lt", x, 0), oc_unary(im, "neg", mag), mag));
}

/* Acosh(x) = log(x + sqrt(x^2 - 1)) (NaN below 1). */
static bool convert_acosh(OnnxImporter *im) {
  OcVal x = float_input(im);
  OcVal r = oc_unary(im, "sqrt", oc_binary_s(im, "sub", oc_binary(im, "mul", x, x), 1.0));
  return oc_output(im, 0, oc_unary(im, "log", oc_binary(im, "add", x, r)));
}

/* Atanh(x) = log((1 + x) / (1 - x)) / 2 */
static bool convert_atanh(OnnxImporter *im) {
  OcVal x = float_input(im);
  OcVal one = oc_scalar(im, x.t.dtype, 1.0);
  OcVal q = oc_binary(im, "div", oc_binary(im, "add", one, x), oc_binary(im, "sub", one, x));
  return oc_output(im, 0, oc_binary_s(im, "mul", oc_unary(im, "log", q), 0.5));
}

/* ---- inverse trigonometric functions (Cephes' atanf) ---- */

/* atan(x): |x| reduced to [0, tan(pi/8)] by atan(a) = pi/2 + atan(-1/a) above
 * tan(3pi/8) and pi/4 + atan((a - 1)/(a + 1)) above tan(pi/8), then an odd
 * polynomial; the sign restored (NaN falls through every comparison). */
static OcVal atan_of(OnnxImporter *im, OcVal x) {
  if (!oc_ok(x))
    return x;
  int32_t dt = x.t.dtype;
  OcVal a = oc_unary(im, "abs", x);
  OcVal big = oc_cmp_s(im, "gt", a, 2.414213562373095), mid = oc_cmp_s(im, "gt", a, 0.4142135623730950);
  OcVal big_arg = oc_binary(im, "div", oc_scalar(im, dt, -1.0), a);
  OcVal mid_arg = oc_binary(im, "div", oc_binary_s(im, "sub", a, 1.0), oc_binary_s(im, "add", a, 1.0));
  OcVal u = oc_select(im, big, big_arg, oc_select(im, mid, mid_arg, a));
  OcVal base = oc_select(im, big, oc_scalar(im, dt, 1.57079632679489661923), oc_select(im, mid, oc_scalar(im, dt, 0.78539816339744830962), oc_scalar(im, dt, 0)));
  OcVal z = oc_binary(im, "mul", u, u);
  OcVal p = oc_binary_s(im, "sub", oc_binary_s(im, "mul", z, 8.05374449538e-2), 1.38776856032e-1);
  p = oc_binary_s(im, "add", oc_binary(im, "mul", p, z), 1.99777106478e-1);
  p = oc_binary_s(im, "sub", oc_binary(im, "mul", p, z), 3.33329491539e-1);
  OcVal y = oc_binary(im, "add", oc_binary(im, "mul", oc_binary(im, "mul", p, z), u), u);
  y = oc_binary(im, "add", base, y);
  return oc_select(im, oc_cmp_s(im, "lt", x, 0), oc_unary(im, "neg", y), y);
}

static bool convert_atan(OnnxImporter *im) { return oc_output(im, 0, atan_of(im, float_input(im))); }

/* asin(x) = atan(x / sqrt((1 - x)(1 + x))) */
static bool convert_asin(OnnxImporter *im) {
  OcVal x = float_input(im);
  if (!oc_ok(x))
    return false;
  OcVal one = oc_scalar(im, x.t.dtype, 1.0);
  OcVal r = oc_unary(im, "sqrt", oc_binary(im, "mul", oc_binary(im, "sub", one, x), oc_binary(im, "add", one, x)));
  return oc_output(im, 0, atan_of(im, oc_binary(im, "div", x, r)));
}

/* acos(x) = 2 atan(sqrt((1 - x) / (1 + x))) */
static bool convert_acos(OnnxImporter *im) {
  OcVal x = float_input(im);
  if (!oc_ok(x))
    return false;
  OcVal one = oc_scalar(im, x.t.dtype, 1.0);
  OcVal q = oc_unary(im, "sqrt", oc_binary(im, "div", oc_binary(im, "sub", one, x), oc_binary(im, "add", one, x)));
  return oc_output(im, 0, oc_binary_s(im, "mul", atan_of(im, q), 2.0));
}

/* ---- predicates ---- */

static bool convert_isnan(OnnxImporter *im) {
  OcVal x = float_input(im);
  return oc_output(im, 0, oc_cmp(im, "ne", x, x));
}

static bool convert_isinf(OnnxImporter *im) {
  OcVal x = float_input(im);
  if (!oc_ok(x))
    return false;
  bool pos = onnx_attr_int(im->node, "detect_positive", 1) != 0;
  bool neg = onnx_attr_int(im->node, "detect_negative", 1) != 0;
  OcVal is_pos = oc_cmp_s(im, "eq", x, INFINITY), is_neg = oc_cmp_s(im, "eq", x, -INFINITY);
  if (pos && neg)
    return oc_output(im, 0, oc_cmp_s(im, "eq", oc_unary(im, "abs", x), INFINITY));
  if (pos)
    return oc_output(im, 0, is_pos);
  if (neg)
    return oc_output(im, 0, is_neg);
  return oc_output(im, 0, oc_cmp(im, "ne", is_pos, is_pos)); /* all false */
}

const OnnxOpEntry onnx_activation_ops[] = {
    {"LeakyRelu", convert_leaky_relu, 0},
    {"PRelu", convert_prelu, 7},
    {"Elu", convert_elu, 0},
    {"Selu", convert_selu, 0},
    {"Celu", convert_celu, 12},
    {"HardSigmoid", convert_hard_sigmoid, 0},
    {"HardSwish", convert_hard_swish, 14},
    {"Softplus", convert_softplus, 0},
    {"Softsign", convert_softsign, 0},
    {"Mish", convert_mish, 18},
    {"Shrink", convert_shrink, 9},
    {"ThresholdedRelu", convert_thresholded_relu, 10},
    {"Floor", convert_floor, 0},
    {"Ceil", convert_ceil, 0},
    {"Round", convert_round, 11},
    {"Sign", convert_sign, 9},
    {"Sinh", convert_sinh, 9},
    {"Cosh", convert_cosh, 9},
    {"Asinh", convert_asinh, 9},
    {"Acosh", convert_acosh, 9},
    {"Atanh", convert_atanh, 9},
    {"Atan", convert_atan, 7},
    {"Asin", convert_asin, 7},
    {"Acos", convert_acos, 7},
    {"IsNaN", convert_isnan, 9},
    {"IsInf", convert_isinf, 10},
    {NULL, NULL, 0},
};
