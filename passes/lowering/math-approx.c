/* math-approx: replace math.exp, math.log, math.tanh, math.erf and math.rsqrt on f32
 * (scalars or vectors of f32) with inline arith code: range reduction plus
 * polynomials, so that LLVM vectorizes the loops around them (a libm call would
 * keep them scalar). Coefficients are derived by
 * test/passes/lowering/math-approx/Inputs/derive_coeffs.py (Lawson-refined least squares);
 * test/passes/lowering/math-approx/accuracy.mlir measures the errors against libm in double.
 *
 * It also turns a division by a loop-invariant divisor, x / d in an scf.for or
 * scf.parallel that d is defined outside of, into x * r with r = 1 / d computed just
 * before that loop: a vector division costs about ten multiplications, and softmax's
 * last pass divides every element by its row's sum. Two roundings instead of one:
 * at most 2^-23 relative error (test/passes/lowering/math-approx/div-recip.mlir checks it).
 *
 * Options:
 *   keep=exp,tanh  leave the named functions as math ops (libm calls on the CPU);
 *                  keep=div keeps divisions exact
 *   exp-scale=ldexp|bits  how exp applies 2^n: llvm.intr.ldexp (one vscalefps on
 *                  AVX-512; softmax 4096x1024 0.54-0.59 ms against 0.65-0.67 ms) or
 *                  exponent-field integer arith only. The default is the target's
 *                  fact `vector-ldexp` (docs/target-costs.md): ldexp where it is 1
 *                  (the cpu target with AVX-512F), bits where it is 0 (AVX2, where
 *                  LLVM's vectorized ldexp is an ldexpf call per lane; targets
 *                  without an LLVM backend); ldexp without a target
 *   disable        do nothing */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/lowering/lowering-passes.h"
#include "passes/passes.h"
#include "support/context.h"

/* Builds before one op; f is the float type (f32 or vector of f32), i the i32
 * type of the same shape, c the i1 type of the same shape. */
typedef struct {
  MlirContext ctx;
  MlirLocation loc;
  MlirOperation before;
  MlirType f, i, c;
  bool ldexp_scale; /* exp-scale=ldexp */
} B;

static MlirValue op(B *b, const char *name, MlirType type, intptr_t n, const MlirValue *args, MlirAttribute pred) {
  MlirOperationState st = mlirOperationStateGet(braze_ref(name), b->loc);
  mlirOperationStateAddOperands(&st, n, args);
  mlirOperationStateAddResults(&st, 1, &type);
  if (!mlirAttributeIsNull(pred)) {
    MlirNamedAttribute a = mlirNamedAttributeGet(mlirIdentifierGet(b->ctx, braze_ref("predicate")), pred);
    mlirOperationStateAddAttributes(&st, 1, &a);
  }
  MlirOperation o = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(b->before), b->before, o);
  return mlirOperationGetResult(o, 0);
}

static MlirValue bin(B *b, const char *name, MlirValue x, MlirValue y) {
  MlirValue a[2] = {x, y};
  return op(b, name, mlirValueGetType(x), 2, a, mlirAttributeGetNull());
}
static MlirValue un(B *b, const char *name, MlirType to, MlirValue x) {
  return op(b, name, to, 1, &x, mlirAttributeGetNull());
}

static MlirValue constant(B *b, MlirType type, MlirAttribute scalar_attr) {
  MlirAttribute attr = scalar_attr;
  if (mlirTypeIsAVector(type))
    attr = mlirDenseElementsAttrSplatGet(type, scalar_attr);
  MlirNamedAttribute a = mlirNamedAttributeGet(mlirIdentifierGet(b->ctx, braze_ref("value")), attr);
  MlirOperationState st = mlirOperationStateGet(braze_ref("arith.constant"), b->loc);
  mlirOperationStateAddResults(&st, 1, &type);
  mlirOperationStateAddAttributes(&st, 1, &a);
  MlirOperation o = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(b->before), b->before, o);
  return mlirOperationGetResult(o, 0);
}

static MlirValue fc(B *b, double v) { return constant(b, b->f, mlirFloatAttrDoubleGet(b->ctx, mlirF32TypeGet(b->ctx), v)); }
static MlirValue ic(B *b, int64_t v) { return constant(b, b->i, mlirIntegerAttrGet(mlirIntegerTypeGet(b->ctx, 32), v)); }

/* mulf/addf/subf carry fastmath<contract>: LLVM fuses them into FMAs (one
 * rounding: at least as accurate; the Cody-Waite step n*C1 is exact either way). */
static MlirValue fbin(B *b, const char *name, MlirValue x, MlirValue y) {
  MlirValue v = bin(b, name, x, y);
  mlirOperationSetAttributeByName(mlirOpResultGetOwner(v), braze_ref("fastmath"),
                                  mlirAttributeParseGet(b->ctx, braze_ref("#arith.fastmath<contract>")));
  return v;
}
static MlirValue add(B *b, MlirValue x, MlirValue y) { return fbin(b, "arith.addf", x, y); }
static MlirValue sub(B *b, MlirValue x, MlirValue y) { return fbin(b, "arith.subf", x, y); }
static MlirValue mul(B *b, MlirValue x, MlirValue y) { return fbin(b, "arith.mulf", x, y); }
static MlirValue divf(B *b, MlirValue x, MlirValue y) { return bin(b, "arith.divf", x, y); }

/* arith.cmpf predicates: oeq 1, ogt 2, olt 4, uno 14. */
enum { OEQ = 1, OGT = 2, OLT = 4, UNO = 14 };
static MlirValue cmp(B *b, int pred, MlirValue x, MlirValue y) {
  MlirValue a[2] = {x, y};
  return op(b, "arith.cmpf", b->c, 2, a, mlirIntegerAttrGet(mlirIntegerTypeGet(b->ctx, 64), pred));
}
static MlirValue sel(B *b, MlirValue c, MlirValue x, MlirValue y) {
  MlirValue a[3] = {c, x, y};
  return op(b, "arith.select", mlirValueGetType(x), 3, a, mlirAttributeGetNull());
}
static MlirValue as_int(B *b, MlirValue x) { return un(b, "arith.bitcast", b->i, x); }
static MlirValue as_float(B *b, MlirValue x) { return un(b, "arith.bitcast", b->f, x); }

/* c[0] + x*(c[1] + x*(... c[n-1])) */
static MlirValue horner(B *b, MlirValue x, const double *c, int n) {
  MlirValue r = fc(b, c[n - 1]);
  for (int k = n - 2; k >= 0; --k)
    r = add(b, mul(b, r, x), fc(b, c[k]));
  return r;
}

/* |x| and the sign transplant, by bits (no libm, no branches). */
static MlirValue absf(B *b, MlirValue x) { return as_float(b, bin(b, "arith.andi", as_int(b, x), ic(b, 0x7fffffff))); }
static MlirValue copy_sign(B *b, MlirValue mag, MlirValue sign) {
  MlirValue s = bin(b, "arith.andi", as_int(b, sign), ic(b, (int64_t)(int32_t)0x80000000u));
  return as_float(b, bin(b, "arith.ori", as_int(b, mag), s));
}

static const double exp_p[] = {5.000000000e-01, 1.666666567e-01, 4.166629538e-02,
                               8.333496749e-03, 1.394465915e-03, 1.979036315e-04};

/* Clamp with compare + select: NaN compares false and passes through unchanged. */
static MlirValue clamp(B *b, MlirValue x, double lo, double hi) {
  MlirValue l = fc(b, lo), h = fc(b, hi);
  x = sel(b, cmp(b, OLT, x, l), l, x);
  return sel(b, cmp(b, OGT, x, h), h, x);
}

/* exp(x): n = round(x log2 e) by the 1.5*2^23 trick, r = x - n ln2 in two parts
 * (Cody-Waite: n*0.693359375 is exact), exp(r) = 1 + r + r^2 P(r) on
 * [-ln2/2, ln2/2], times 2^n: by llvm.intr.ldexp (exp-scale=ldexp, the default: one
 * vscalefps on AVX-512, one rounding) or as two exponent-field factors
 * (exp-scale=bits: integer arith only). Both keep n = 128 and gradual underflow (n
 * down to -150) exact. x is clamped to [-104, 89]: below, the result rounds to 0;
 * from ln(FLT_MAX) on, the scaling overflows to +inf by itself. */
static MlirValue exp_approx(B *b, MlirValue x) {
  MlirValue xc = clamp(b, x, -104.0, 89.0);
  MlirValue magic = fc(b, 12582912.0);
  MlirValue n = sub(b, add(b, mul(b, xc, fc(b, 1.44269504088896341)), magic), magic);
  MlirValue r = sub(b, xc, mul(b, n, fc(b, 0.693359375)));
  r = add(b, r, mul(b, n, fc(b, 2.12194440e-4)));
  MlirValue p = add(b, add(b, fc(b, 1.0), r), mul(b, mul(b, r, r), horner(b, r, exp_p, 6)));
  MlirValue ni = un(b, "arith.fptosi", b->i, n), y;
  if (b->ldexp_scale) {
    MlirValue args[2] = {p, ni};
    y = op(b, "llvm.intr.ldexp", b->f, 2, args, mlirAttributeGetNull());
  } else {
    MlirValue h = bin(b, "arith.shrsi", ni, ic(b, 1));
    MlirValue bias = ic(b, 127), shift = ic(b, 23);
    MlirValue s1 = as_float(b, bin(b, "arith.shli", bin(b, "arith.addi", h, bias), shift));
    MlirValue s2 = as_float(b, bin(b, "arith.shli", bin(b, "arith.addi", bin(b, "arith.subi", ni, h), bias), shift));
    y = mul(b, mul(b, p, s1), s2);
  }
  /* fptosi(NaN) is poison: select the input back for NaN. */
  return sel(b, cmp(b, UNO, x, x), x, y);
}

static const double log_p[] = {3.333331347e-01,  -2.500000894e-01, 2.000211924e-01,
                               -1.666799486e-01, 1.421954632e-01,  -1.240559816e-01,
                               1.188821197e-01,  -1.167561561e-01, 6.746490300e-02};

/* log(x): x = m 2^e with m in [sqrt(1/2), sqrt(2)) (subnormals scaled by 2^23
 * first), log(1+f) = f - f^2/2 + f^3 P(f), plus e ln2 in two parts. */
static MlirValue log_approx(B *b, MlirValue x) {
  MlirValue small = cmp(b, OLT, x, fc(b, 1.17549435e-38));
  MlirValue xs = sel(b, small, mul(b, x, fc(b, 8388608.0)), x);
  MlirValue bits = as_int(b, xs);
  MlirValue e = bin(b, "arith.subi", bin(b, "arith.shrui", bits, ic(b, 23)), ic(b, 126));
  e = bin(b, "arith.subi", e, sel(b, small, ic(b, 23), ic(b, 0)));
  MlirValue m = as_float(b, bin(b, "arith.ori", bin(b, "arith.andi", bits, ic(b, 0x007fffff)), ic(b, 0x3f000000)));
  MlirValue lt = cmp(b, OLT, m, fc(b, 0.707106781186547524));
  e = bin(b, "arith.subi", e, sel(b, lt, ic(b, 1), ic(b, 0)));
  MlirValue f = sub(b, sel(b, lt, add(b, m, m), m), fc(b, 1.0));
  MlirValue fe = un(b, "arith.sitofp", b->f, e);
  MlirValue z = mul(b, f, f);
  MlirValue y = mul(b, mul(b, f, z), horner(b, f, log_p, 9));
  y = add(b, y, mul(b, fe, fc(b, -2.12194440e-4)));
  y = sub(b, y, mul(b, z, fc(b, 0.5)));
  MlirValue r = add(b, add(b, f, y), mul(b, fe, fc(b, 0.693359375)));
  MlirValue inf = fc(b, INFINITY);
  r = sel(b, cmp(b, OEQ, x, inf), inf, r);
  r = sel(b, cmp(b, OEQ, x, fc(b, 0.0)), fc(b, -INFINITY), r);
  r = sel(b, cmp(b, OLT, x, fc(b, 0.0)), fc(b, NAN), r);
  return sel(b, cmp(b, UNO, x, x), x, r);
}

static const double tanh_p[] = {1.0, -0.15887358784675598, 0.031422365456819534, 0.0079510398209095,
                                0.00022578659991268069, 1.3382006045503658e-06, 8.46703041013086e-10};
static const double tanh_q[] = {1.0, 0.1744595766067505, -0.04375737905502319, 0.024071823805570602,
                                0.0016300821444019675, 2.139023672498297e-05, 5.001356129241685e-08};

/* |x| P(x^2) / Q(x^2) with |x| clamped to `hi`, capped at 1, with x's sign: the
 * shape of both tanh and erf (odd, saturating at 1). One branch, no exp. */
static MlirValue odd_rational(B *b, MlirValue x, double hi, const double *p, int np, const double *q, int nq) {
  MlirValue ax = clamp(b, absf(b, x), 0.0, hi);
  MlirValue z = mul(b, ax, ax);
  MlirValue r = divf(b, mul(b, ax, horner(b, z, p, np)), horner(b, z, q, nq));
  MlirValue one = fc(b, 1.0);
  r = sel(b, cmp(b, OGT, r, one), one, r);
  return copy_sign(b, r, x); /* r >= 0 (or NaN): or-ing in the sign is copysign */
}

/* tanh(x): a (13, 12) odd rational on |x| <= 9 (tanh is 1 in f32 beyond). */
static MlirValue tanh_approx(B *b, MlirValue x) { return odd_rational(b, x, 9.0, tanh_p, 7, tanh_q, 7); }

static const double erf_p[] = {1.1283791065216064,    0.20710980892181396,    0.05152281001210213,
                               0.003989891614764929,  0.0001472683943575248,  -1.942216158568044e-06,
                               1.9110816040779355e-08};
static const double erf_q[] = {1.0, 0.5168775320053101, 0.11796432733535767, 0.014956722967326641,
                               0.0010209413012489676};

/* erf(x): a (13, 8) odd rational on |x| <= 4 (erf is 1 in f32 beyond 3.92). */
static MlirValue erf_approx(B *b, MlirValue x) { return odd_rational(b, x, 4.0, erf_p, 7, erf_q, 5); }

/* rsqrt(x) = 1 / sqrt(x): math.sqrt is one instruction (vsqrtps, correctly
 * rounded), not a libm call, so this is within 1 ulp and vectorizes; a bit-trick
 * seed with Newton steps would be slower to reach the same accuracy. */
static MlirValue rsqrt_approx(B *b, MlirValue x) { return divf(b, fc(b, 1.0), un(b, "math.sqrt", b->f, x)); }

typedef struct {
  const char *name; /* math.<name> and the keep= spelling */
  MlirValue (*build)(B *, MlirValue);
} Approx;

static const Approx approxes[] = {
    {"exp", exp_approx}, {"log", log_approx}, {"tanh", tanh_approx}, {"erf", erf_approx}, {"rsqrt", rsqrt_approx},
};
enum { NUM_APPROX = sizeof approxes / sizeof *approxes };

typedef struct {
  bool disable;
  bool keep[NUM_APPROX];
  bool keep_div;    /* keep=div */
  bool ldexp_scale; /* exp-scale=ldexp (default) or bits */
} State;

typedef struct {
  const State *state;
  MlirOperation *ops;
  int *which;
  size_t n, cap;
} Collect;

static bool is_f32_like(MlirType t) {
  if (mlirTypeIsAVector(t))
    return !mlirVectorTypeIsScalable(t) && mlirTypeIsAF32(mlirShapedTypeGetElementType(t));
  return mlirTypeIsAF32(t);
}

/* Record `o` to rewrite: `which` is its approxes[] entry, -1 for a division. */
static void collect_push(Collect *c, MlirOperation o, int which) {
  if (c->n == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 16;
    c->ops = realloc(c->ops, c->cap * sizeof *c->ops);
    c->which = realloc(c->which, c->cap * sizeof *c->which);
  }
  c->ops[c->n] = o;
  c->which[c->n++] = which;
}

static MlirWalkResult collect(MlirOperation o, void *user) {
  Collect *c = user;
  MlirStringRef name = braze_op_name(o);
  if (name.length < 6 || strncmp(name.data, "math.", 5) != 0 || mlirOperationGetNumOperands(o) != 1)
    return MlirWalkResultAdvance;
  for (int k = 0; k < NUM_APPROX; ++k) {
    if (c->state->keep[k] || strlen(approxes[k].name) != name.length - 5 ||
        strncmp(name.data + 5, approxes[k].name, name.length - 5) != 0)
      continue;
    if (!is_f32_like(mlirValueGetType(mlirOperationGetResult(o, 0))))
      break;
    collect_push(c, o, k);
    break;
  }
  return MlirWalkResultAdvance;
}

static MlirType same_shape(MlirType like, MlirType elem) {
  if (!mlirTypeIsAVector(like))
    return elem;
  int64_t shape[8];
  intptr_t rank = mlirShapedTypeGetRank(like);
  for (intptr_t d = 0; d < rank && d < 8; ++d)
    shape[d] = mlirShapedTypeGetDimSize(like, d);
  return mlirVectorTypeGet(rank, shape, elem);
}

static void rewrite(MlirOperation o, int which, const State *s) {
  MlirContext ctx = mlirOperationGetContext(o);
  MlirType f = mlirValueGetType(mlirOperationGetResult(o, 0));
  /* The LLVM dialect's llvm.intr.ldexp verifies only a scalar exponent (MLIR 22), so
   * vectors (the matmul template's epilogue) scale by bits. */
  B b = {ctx, mlirOperationGetLocation(o), o, f, same_shape(f, mlirIntegerTypeGet(ctx, 32)),
         same_shape(f, mlirIntegerTypeGet(ctx, 1)), s->ldexp_scale && !mlirTypeIsAVector(f)};
  MlirValue y = approxes[which].build(&b, mlirOperationGetOperand(o, 0));
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(o, 0), y);
  mlirOperationDestroy(o);
}

/* ---- division by a loop-invariant divisor ---- */

static bool is_loop(MlirOperation op) { return braze_op_is(op, "scf.for") || braze_op_is(op, "scf.parallel"); }

static bool nested_in(MlirOperation op, MlirOperation ancestor) {
  for (; !mlirOperationIsNull(op); op = mlirOperationGetParentOperation(op))
    if (mlirOperationEqual(op, ancestor))
      return true;
  return false;
}

/* The op defining v, or for a block argument the op owning its block. */
static MlirOperation value_origin(MlirValue v) {
  if (mlirValueIsAOpResult(v))
    return mlirOpResultGetOwner(v);
  return mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v));
}

static bool is_constant_one(MlirValue v) {
  if (!mlirValueIsAOpResult(v) || !braze_op_is(mlirOpResultGetOwner(v), "arith.constant"))
    return false;
  MlirAttribute a = mlirOperationGetAttributeByName(mlirOpResultGetOwner(v), braze_ref("value"));
  if (mlirAttributeIsADenseElements(a) && mlirDenseElementsAttrIsSplat(a))
    a = mlirDenseElementsAttrGetSplatValue(a);
  return mlirAttributeIsAFloat(a) && mlirFloatAttrGetValueDouble(a) == 1.0;
}

/* The innermost loop around `div` whose body its divisor is defined outside of. */
static MlirOperation invariant_loop(MlirOperation div) {
  MlirOperation loop = mlirOperationGetParentOperation(div);
  while (!mlirOperationIsNull(loop) && !is_loop(loop))
    loop = mlirOperationGetParentOperation(loop);
  if (mlirOperationIsNull(loop) || nested_in(value_origin(mlirOperationGetOperand(div, 1)), loop))
    return (MlirOperation){NULL};
  return loop;
}

static MlirWalkResult collect_div(MlirOperation o, void *user) {
  Collect *c = user;
  if (!braze_op_is(o, "arith.divf") || !is_f32_like(mlirValueGetType(mlirOperationGetResult(o, 0))) ||
      is_constant_one(mlirOperationGetOperand(o, 0)) || mlirOperationIsNull(invariant_loop(o)))
    return MlirWalkResultAdvance;
  collect_push(c, o, -1);
  return MlirWalkResultAdvance;
}

static void rewrite_div(MlirOperation div) {
  MlirContext ctx = mlirOperationGetContext(div);
  MlirType f = mlirValueGetType(mlirOperationGetResult(div, 0));
  B before_loop = {ctx, mlirOperationGetLocation(div), invariant_loop(div), f, f, f, false};
  MlirValue r = divf(&before_loop, fc(&before_loop, 1.0), mlirOperationGetOperand(div, 1));
  B at = before_loop;
  at.before = div;
  MlirValue y = bin(&at, "arith.mulf", mlirOperationGetOperand(div, 0), r);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(div, 0), y);
  mlirOperationDestroy(div);
}

static bool run(MlirOperation func, void *state) {
  const State *s = state;
  if (s->disable)
    return true;
  Collect c = {.state = s};
  mlirOperationWalk(func, collect, &c, MlirWalkPostOrder);
  for (size_t i = 0; i < c.n; ++i)
    rewrite(c.ops[i], c.which[i], s);
  size_t n_math = c.n;
  if (!s->keep_div)
    mlirOperationWalk(func, collect_div, &c, MlirWalkPostOrder);
  for (size_t i = n_math; i < c.n; ++i)
    rewrite_div(c.ops[i]);
  free(c.ops);
  free(c.which);
  return true;
}

static const char *const allowed[] = {"keep", "disable", "exp-scale", NULL};

static void *create_state(const BrazePassOptions *options, BrazeStr *error) {
  if (!braze_options_check(options, "math-approx", allowed, error))
    return NULL;
  const BrazeOption *keep = braze_option_find(options, "keep");
  State *s = calloc(1, sizeof *s);
  s->disable = braze_option_flag(options, "disable");
  const BrazeOption *scale = braze_option_find(options, "exp-scale");
  const BrazeTargetCosts *costs = braze_pass_target_costs();
  s->ldexp_scale = scale && scale->value ? strcmp(scale->value, "ldexp") == 0 : !costs || costs->vector_ldexp;
  if (scale && scale->value && !s->ldexp_scale && strcmp(scale->value, "bits") != 0) {
    braze_str_printf(error, "math-approx: exp-scale expects ldexp or bits, got '%s'", scale->value);
    free(s);
    return NULL;
  }
  for (const char *p = keep && keep->value ? keep->value : ""; *p;) {
    size_t len = strcspn(p, ",");
    int found = -1;
    for (int k = 0; k < NUM_APPROX; ++k)
      if (strlen(approxes[k].name) == len && strncmp(p, approxes[k].name, len) == 0)
        found = k;
    if (len == 3 && strncmp(p, "div", 3) == 0) {
      s->keep_div = true;
    } else if (found < 0) {
      braze_str_printf(error,
                       "math-approx: keep= names an unknown function '%.*s' (exp, log, tanh, erf, rsqrt, div)",
                       (int)len, p);
      free(s);
      return NULL;
    } else {
      s->keep[found] = true;
    }
    p += len;
    if (*p == ',')
      ++p;
  }
  return s;
}

static void destroy_state(void *state) { free(state); }

const BrazePassInfo braze_pass_math_approx = {
    .argument = "math-approx",
    .summary = "Inline arith polynomial approximations of f32 exp, log, tanh, erf, rsqrt (vectorizable); "
               "loop-invariant divisions as reciprocal multiplications",
    .options_help = "  keep=exp,tanh        leave these as math ops (libm calls); keep=div: exact divisions\n"
                    "  exp-scale=ldexp|bits 2^n in exp by llvm.intr.ldexp (default) or integer arith\n"
                    "  disable              do nothing\n",
    .anchor = "func.func",
    .create_state = create_state,
    .destroy_state = destroy_state,
    .run = run,
};
