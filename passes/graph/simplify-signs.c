/* graph-simplify rules on signs and casts: neg-neg, mul-minus-one, sub-of-neg and
 * cast-chain. Each is exact in IEEE arithmetic and for two's-complement integers
 * (negation is exact; a cast through a type that holds every value of the source is
 * the identity there), so the rewrites change no result. Exporters and users write
 * these where a model is spelled as its author thought of it: softmax(-(-s)), x * -1,
 * a - (-b), bf16 -> f32 -> bf16 around an op that was removed. Attention's matcher
 * (passes/chains/online.c) reads the scores' producers through scales and casts only,
 * so each of these stopped it before. */
#include "dialects/graph/graph.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/graph/simplify.h"

static MlirValue operand(MlirOperation op, intptr_t i) { return mlirOperationGetOperand(op, i); }
static MlirValue result(MlirOperation op) { return mlirOperationGetResult(op, 0); }

static bool apply(MlirOperation op, GraphBuilder *b, SimplifyRun *run, SimplifyRule rule, MlirValue v) {
  if (mlirValueIsNull(v) || !mlirTypeEqual(mlirValueGetType(v), mlirValueGetType(result(op))))
    return false; /* a replacement of another type would break the users */
  MlirLocation loc = mlirOperationGetLocation(op);
  braze_gb_replace(b, op, v);
  simplify_applied(run, loc, rule, NULL);
  return true;
}

/* Whether values of element type `t` are negated by graph.neg: floats and signed
 * (signless) integers, not unsigned ones or i1. */
static bool negatable(MlirType t) {
  if (mlirTypeIsAFloat(t))
    return true;
  return mlirTypeIsAInteger(t) && !mlirIntegerTypeIsUnsigned(t) && mlirIntegerTypeGetWidth(t) > 1;
}

/* neg(neg(x)) -> x. */
static bool neg_neg(MlirOperation op, GraphBuilder *b, SimplifyRun *run) {
  MlirOperation inner = braze_gb_defining(operand(op, 0), "neg");
  return !mlirOperationIsNull(inner) && apply(op, b, run, RULE_NEG_NEG, operand(inner, 0));
}

/* mul(x, -1) and mul(-1, x) -> neg(x), x of the result's type (a -1 that broadcasts x
 * to a larger shape is left alone, as mul-one leaves a 1). */
static bool mul_minus_one(MlirOperation op, GraphBuilder *b, SimplifyRun *run) {
  if (!negatable(braze_element_type(mlirValueGetType(result(op)))))
    return false;
  for (intptr_t c = 1; c >= 0; --c) {
    double value;
    MlirValue x = operand(op, 1 - c);
    if (braze_gb_splat_value(operand(op, c), &value) && value == -1.0 && braze_gb_types_equal(x, result(op)))
      return apply(op, b, run, RULE_MUL_MINUS_ONE, braze_gb_unary(b, "neg", x));
  }
  return false;
}

/* sub(a, neg(b)) -> add(a, b). */
static bool sub_of_neg(MlirOperation op, GraphBuilder *b, SimplifyRun *run) {
  MlirOperation neg = braze_gb_defining(operand(op, 1), "neg");
  return !mlirOperationIsNull(neg) &&
         apply(op, b, run, RULE_SUB_OF_NEG, braze_gb_binary(b, "add", operand(op, 0), operand(neg, 0)));
}

/* add(a, neg(b)) -> sub(a, b) and add(neg(a), b) -> sub(b, a): the same rule read
 * from the add. */
static bool add_of_neg(MlirOperation op, GraphBuilder *b, SimplifyRun *run) {
  for (intptr_t side = 1; side >= 0; --side) {
    MlirOperation neg = braze_gb_defining(operand(op, side), "neg");
    if (!mlirOperationIsNull(neg))
      return apply(op, b, run, RULE_SUB_OF_NEG, braze_gb_binary(b, "sub", operand(op, 1 - side), operand(neg, 0)));
  }
  return false;
}

/* Mantissa and exponent bits of the float types braze has (0: not one of them). */
static void float_bits(MlirType t, int *mantissa, int *exponent) {
  *mantissa = *exponent = 0;
  if (mlirTypeIsABF16(t))
    *mantissa = 7, *exponent = 8;
  else if (mlirTypeIsAF16(t))
    *mantissa = 10, *exponent = 5;
  else if (mlirTypeIsAF32(t))
    *mantissa = 23, *exponent = 8;
  else if (mlirTypeIsAF64(t))
    *mantissa = 52, *exponent = 11;
}

/* Whether element type `to` holds every value of `from` exactly, so a cast from -> to
 * is undone by a cast back: a float with at least the mantissa and exponent bits
 * (bf16 and f16 into f32 and f64, f32 into f64; bf16 and f16 not into each other), an
 * integer of more bits with a sign where the source has one (i1, unsigned into wider
 * unsigned or signed, signed into wider signed). */
static bool holds_exactly(MlirType from, MlirType to) {
  if (mlirTypeIsAFloat(from) && mlirTypeIsAFloat(to)) {
    int fm, fe, tm, te;
    float_bits(from, &fm, &fe);
    float_bits(to, &tm, &te);
    return fm && tm && tm >= fm && te >= fe;
  }
  if (!mlirTypeIsAInteger(from) || !mlirTypeIsAInteger(to))
    return false;
  unsigned fw = mlirIntegerTypeGetWidth(from), tw = mlirIntegerTypeGetWidth(to);
  bool from_unsigned = fw == 1 || mlirIntegerTypeIsUnsigned(from), to_unsigned = mlirIntegerTypeIsUnsigned(to);
  if (tw <= fw)
    return false;
  return from_unsigned || !to_unsigned;
}

/* cast(cast(x, T1), T2) -> x when T2 is x's type, or cast(x, T2) otherwise, when T1
 * holds every value of x's type: the first cast is exact, so the second rounds (or
 * wraps) x once either way. A chain through a narrower type (f32 -> bf16 -> f32)
 * rounds and stays. */
static bool cast_chain(MlirOperation op, GraphBuilder *b, SimplifyRun *run) {
  MlirOperation inner = braze_gb_defining(operand(op, 0), "cast");
  if (mlirOperationIsNull(inner))
    return false;
  MlirValue x = operand(inner, 0);
  MlirType t0 = braze_element_type(mlirValueGetType(x)), t1 = braze_element_type(mlirValueGetType(result(inner)));
  if (!holds_exactly(t0, t1))
    return false;
  if (braze_gb_types_equal(x, result(op)))
    return apply(op, b, run, RULE_CAST_CHAIN, x);
  MlirValue direct = mlirOperationGetResult(braze_gb_create(b, "cast", &x, 1, mlirValueGetType(result(op)), NULL, 0), 0);
  return apply(op, b, run, RULE_CAST_CHAIN, direct);
}

const SimplifyPattern simplify_sign_patterns[] = {
    {RULE_NEG_NEG, "neg", neg_neg},
    {RULE_MUL_MINUS_ONE, "mul", mul_minus_one},
    {RULE_SUB_OF_NEG, "sub", sub_of_neg},
    {RULE_SUB_OF_NEG, "add", add_of_neg},
    {RULE_CAST_CHAIN, "cast", cast_chain},
};
const size_t simplify_num_sign_patterns = sizeof simplify_sign_patterns / sizeof *simplify_sign_patterns;
