/* The reference interpreter, user kernels (docs/user-kernels.md): a func.func marked
 * `braze.user_kernel`, on memrefs, evaluated op by op on the caller's buffers (host
 * tensors in double precision; a store rounds to the buffer's element type, values in
 * registers stay double, integers are exact and wrap to their width).
 *
 * Evaluated: scf.for (iter_args), scf.parallel (no reductions; iterations in order),
 * scf.if, scf.yield / scf.reduce, memref.load/store, memref.atomic_rmw,
 * memref.generic_atomic_rmw, memref.dim, vector.load/store (1-D), vector.broadcast,
 * vector.splat, vector.extract/insert (static positions), vector.fma,
 * vector.reduction, func.call of another user kernel, arith (float, integer, index, compares, casts, select, constants
 * incl. splat vectors), math (exp, log, tanh, erf, sqrt, rsqrt, absf, sin, cos, pow,
 * fma, floor, ceil, ...), func.return. Anything else, an index out of bounds or a
 * vector wider than 16 lanes is an error at the op. Shares no code with the
 * lowering. GPU-form kernels (braze.gpu_launch) run through reference/user-kernel-gpu.c,
 * which evaluates their gpu ops and workgroup allocas and calls back into this file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "reference/internal.h"
#include "reference/user-kernel-internal.h"
#include "support/context.h"
#include "support/diag.h"
#include "support/ptrmap.h"
#include "support/strbuf.h"

static RV *kslot(KEnv *e, MlirValue v) {
  int i = braze_ptrmap_get(&e->index, braze_ptr_key(v.ptr), -1);
  if (i >= 0)
    return &e->vals[i];
  if (e->n == e->cap) {
    e->cap = e->cap ? 2 * e->cap : 64;
    e->vals = realloc(e->vals, e->cap * sizeof *e->vals);
  }
  braze_ptrmap_put(&e->index, braze_ptr_key(v.ptr), (int)e->n);
  memset(&e->vals[e->n], 0, sizeof(RV));
  return &e->vals[e->n++];
}

static const RV *kget(KEnv *e, MlirValue v) {
  int i = braze_ptrmap_get(&e->index, braze_ptr_key(v.ptr), -1);
  return i < 0 ? NULL : &e->vals[i];
}

static void kset(KEnv *e, MlirValue v, const RV *r) { *kslot(e, v) = *r; }
void ref_uk_set(Kx *k, MlirValue v, const RV *r) { kset(&k->env, v, r); }

/* ---- types ---- */

static bool is_float_type(MlirType t) {
  if (mlirTypeIsAVector(t))
    t = mlirShapedTypeGetElementType(t);
  return mlirTypeIsAFloat(t);
}

/* Integer width: index is 64. */
static int int_width(MlirType t) {
  if (mlirTypeIsAVector(t))
    t = mlirShapedTypeGetElementType(t);
  return mlirTypeIsAInteger(t) ? (int)mlirIntegerTypeGetWidth(t) : 64;
}

static double wrap_int(double x, MlirType t) {
  int w = int_width(t);
  if (w >= 64)
    return (double)(int64_t)x;
  uint64_t mask = (1ull << w) - 1, u = (uint64_t)(int64_t)x & mask;
  if (w == 1)
    return (double)u;
  return (double)(u >> (w - 1) ? (int64_t)(u | ~mask) : (int64_t)u);
}

static uint64_t as_unsigned(double x, MlirType t) {
  int w = int_width(t);
  uint64_t u = (uint64_t)(int64_t)x;
  return w >= 64 ? u : u & ((1ull << w) - 1);
}

static double round_to(double x, MlirType t) {
  if (mlirTypeIsAVector(t))
    t = mlirShapedTypeGetElementType(t);
  BrazeDType d;
  if (mlirTypeIsAFloat(t) && braze_dtype_from_mlir(t, &d))
    return braze_dtype_round(x, d);
  if (mlirTypeIsAF64(t))
    return x;
  return mlirTypeIsAFloat(t) ? x : wrap_int(x, t);
}

bool ref_buffer_init(BrazeHostTensor *t, MlirType type) {
  memset(t, 0, sizeof *t);
  BrazeDType dtype;
  if (!mlirTypeIsAMemRef(type) || !mlirShapedTypeHasStaticShape(type) ||
      !braze_dtype_from_mlir(mlirShapedTypeGetElementType(type), &dtype) ||
      mlirShapedTypeGetRank(type) > BRAZE_TENSOR_MAX_RANK)
    return false;
  int64_t shape[BRAZE_TENSOR_MAX_RANK];
  for (intptr_t i = 0; i < mlirShapedTypeGetRank(type); ++i)
    shape[i] = mlirShapedTypeGetDimSize(type, i);
  return braze_tensor_init(t, dtype, (int)mlirShapedTypeGetRank(type), shape);
}

static int num_elements(MlirType t) {
  int64_t n = 1;
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); ++d)
    n *= mlirShapedTypeGetDimSize(t, d);
  return n > 1 << 20 ? 1 << 20 : (int)n;
}

/* ---- evaluation ---- */


bool ref_uk_operand(Kx *k, MlirOperation op, intptr_t i, RV *out) {
  const RV *r = kget(&k->env, mlirOperationGetOperand(op, i));
  *out = (RV){0}; /* also on failure: -O3's maybe-uninitialized cannot tell callers stop then */
  if (!r)
    return ref_fail(op, "operand %ld has no value in user kernel @%s", (long)i, k->kernel);
  *out = *r;
  return true;
}

static bool attr_has(MlirAttribute a, const char *needle) {
  BrazeStr s = {0};
  mlirAttributePrint(a, braze_str_callback, &s);
  bool has = strstr(braze_str_cstr(&s), needle) != NULL;
  braze_str_free(&s);
  return has;
}

static bool eval_constant(MlirOperation op, RV *r) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, braze_ref("value"));
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  memset(r, 0, sizeof *r);
  if (mlirAttributeIsAFloat(a))
    r->v[0] = mlirFloatAttrGetValueDouble(a);
  else if (mlirAttributeIsAInteger(a))
    r->v[0] = wrap_int((double)mlirIntegerAttrGetValueInt(a), t);
  else if (mlirAttributeIsADenseElements(a) && mlirDenseElementsAttrIsSplat(a) && mlirTypeIsAVector(t)) {
    r->lanes = (int)num_elements(t);
    if (r->lanes > MAX_LANES)
      return ref_fail(op, "vectors of more than %d lanes are not supported", MAX_LANES);
    double x = is_float_type(t) ? (double)mlirDenseElementsAttrGetFloatSplatValue(a)
                                : (double)mlirDenseElementsAttrGetInt64SplatValue(a);
    for (int l = 0; l < r->lanes; ++l)
      r->v[l] = x;
  } else
    return ref_fail(op, "unsupported constant");
  return true;
}

static double fmax_nan(double a, double b) { return isnan(a) || isnan(b) ? NAN : ref_max(a, b); }
static double fmin_nan(double a, double b) { return isnan(a) || isnan(b) ? NAN : ref_min(a, b); }

/* Float / integer ops of one, two or three operands, lane by lane. */
static bool scalar_fn(const char *name, MlirType t, int nargs, const double *x, double *out, bool *known) {
  *known = true;
  double a = x[0], b = nargs > 1 ? x[1] : 0, c = nargs > 2 ? x[2] : 0;
  int64_t ia = (int64_t)a, ib = (int64_t)b;
  uint64_t ua = as_unsigned(a, t), ub = as_unsigned(b, t);
#define F(n, e) if (!strcmp(name, n)) { *out = (e); return true; }
  F("arith.addf", a + b) F("arith.subf", a - b) F("arith.mulf", a * b) F("arith.divf", a / b)
  F("arith.remf", fmod(a, b)) F("arith.negf", -a) F("arith.maximumf", fmax_nan(a, b))
  F("arith.minimumf", fmin_nan(a, b)) F("arith.maxnumf", fmax(a, b)) F("arith.minnumf", fmin(a, b))
  F("math.exp", exp(a)) F("math.exp2", exp2(a)) F("math.expm1", expm1(a)) F("math.log", log(a))
  F("math.log2", log2(a)) F("math.log1p", log1p(a)) F("math.tanh", tanh(a)) F("math.erf", erf(a))
  F("math.sqrt", sqrt(a)) F("math.rsqrt", 1.0 / sqrt(a)) F("math.absf", fabs(a)) F("math.sin", sin(a))
  F("math.cos", cos(a)) F("math.powf", pow(a, b)) F("math.fma", a * b + c) F("vector.fma", a * b + c)
  F("math.floor", floor(a)) F("math.ceil", ceil(a)) F("math.round", round(a)) F("math.copysign", copysign(a, b))
  F("arith.addi", wrap_int((double)(int64_t)((uint64_t)ia + (uint64_t)ib), t))
  F("arith.subi", wrap_int((double)(int64_t)((uint64_t)ia - (uint64_t)ib), t))
  F("arith.muli", wrap_int((double)(int64_t)((uint64_t)ia * (uint64_t)ib), t))
  F("arith.andi", wrap_int((double)(ia & ib), t)) F("arith.ori", wrap_int((double)(ia | ib), t))
  F("arith.xori", wrap_int((double)(ia ^ ib), t))
  F("arith.shli", wrap_int((double)(int64_t)((uint64_t)ia << (ib & 63)), t))
  F("arith.shrsi", wrap_int((double)(ia >> (ib & 63)), t)) F("arith.shrui", wrap_int((double)(ua >> (ub & 63)), t))
  F("arith.maxsi", ia > ib ? a : b) F("arith.minsi", ia < ib ? a : b)
  F("arith.maxui", ua > ub ? a : b) F("arith.minui", ua < ub ? a : b)
#undef F
  if (!strcmp(name, "arith.divsi") || !strcmp(name, "arith.remsi") || !strcmp(name, "arith.divui") ||
      !strcmp(name, "arith.remui") || !strcmp(name, "arith.ceildivsi") || !strcmp(name, "arith.floordivsi") ||
      !strcmp(name, "arith.ceildivui")) {
    if (ib == 0)
      return false;
    bool u = strstr(name, "ui") != NULL;
    if (!strcmp(name, "arith.divsi")) *out = wrap_int((double)(ia / ib), t);
    else if (!strcmp(name, "arith.remsi")) *out = wrap_int((double)(ia % ib), t);
    else if (!strcmp(name, "arith.divui")) *out = (double)(ua / ub);
    else if (!strcmp(name, "arith.remui")) *out = (double)(ua % ub);
    else if (!strcmp(name, "arith.ceildivui")) *out = (double)((ua + ub - 1) / ub);
    else {
      int64_t q = ia / ib;
      bool inexact = q * ib != ia, neg = (ia < 0) != (ib < 0);
      if (!strcmp(name, "arith.ceildivsi")) q += inexact && !neg;
      else q -= inexact && neg;
      *out = wrap_int((double)q, t);
    }
    (void)u;
    return true;
  }
  *known = false;
  return true;
}

static bool cmp_pred(MlirOperation op, bool is_float, double a, double b, MlirType t, double *out) {
  int64_t p = mlirIntegerAttrGetValueInt(mlirOperationGetAttributeByName(op, braze_ref("predicate")));
  bool r = false, un = isnan(a) || isnan(b);
  if (is_float) {
    switch (p) {
    case 0: r = false; break;
    case 1: r = !un && a == b; break;
    case 2: r = !un && a > b; break;
    case 3: r = !un && a >= b; break;
    case 4: r = !un && a < b; break;
    case 5: r = !un && a <= b; break;
    case 6: r = !un && a != b; break;
    case 7: r = !un; break;
    case 8: r = un || a == b; break;
    case 9: r = un || a > b; break;
    case 10: r = un || a >= b; break;
    case 11: r = un || a < b; break;
    case 12: r = un || a <= b; break;
    case 13: r = un || a != b; break;
    case 14: r = un; break;
    default: r = true; break;
    }
  } else {
    uint64_t ua = as_unsigned(a, t), ub = as_unsigned(b, t);
    switch (p) {
    case 0: r = a == b; break;
    case 1: r = a != b; break;
    case 2: r = a < b; break;
    case 3: r = a <= b; break;
    case 4: r = a > b; break;
    case 5: r = a >= b; break;
    case 6: r = ua < ub; break;
    case 7: r = ua <= ub; break;
    case 8: r = ua > ub; break;
    default: r = ua >= ub; break;
    }
  }
  *out = r;
  (void)op;
  return true;
}

static bool is_cast(const char *n) {
  static const char *const casts[] = {"arith.index_cast", "arith.index_castui", "arith.sitofp", "arith.uitofp",
                                      "arith.fptosi", "arith.fptoui", "arith.extf", "arith.truncf",
                                      "arith.extsi", "arith.extui", "arith.trunci", NULL};
  for (int i = 0; casts[i]; ++i)
    if (!strcmp(n, casts[i]))
      return true;
  return false;
}

static double cast_value(const char *n, double x, MlirType from, MlirType to) {
  if (!strcmp(n, "arith.uitofp") || !strcmp(n, "arith.extui") || !strcmp(n, "arith.index_castui"))
    x = (double)as_unsigned(x, from);
  if (!strcmp(n, "arith.fptosi") || !strcmp(n, "arith.fptoui"))
    x = trunc(x);
  return round_to(x, to);
}

/* Elementwise ops: arith / math on scalars or vectors (lane by lane). */
static bool eval_elementwise(Kx *k, MlirOperation op, const char *name, bool *handled) {
  *handled = false;
  intptr_t n = mlirOperationGetNumOperands(op);
  if (mlirOperationGetNumResults(op) != 1 || n < 1 || n > 3)
    return true;
  MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
  MlirType t0 = mlirValueGetType(mlirOperationGetOperand(op, 0));
  RV x[3], r;
  bool is_select = !strcmp(name, "arith.select"), is_cmp = !strcmp(name, "arith.cmpf") || !strcmp(name, "arith.cmpi");
  bool cast = is_cast(name);
  double probe = 0, xs[3] = {1, 1, 1};
  bool known = is_select || is_cmp || cast;
  if (!known)
    scalar_fn(name, rt, (int)n, xs, &probe, &known);
  if (!known)
    return true;
  *handled = true;
  for (intptr_t i = 0; i < n; ++i)
    if (!ref_uk_operand(k, op, i, &x[i]))
      return false;
  memset(&r, 0, sizeof r);
  r.lanes = mlirTypeIsAVector(rt) ? (int)num_elements(rt) : 0;
  if (r.lanes > MAX_LANES)
    return ref_fail(op, "vectors of more than %d lanes are not supported", MAX_LANES);
  for (int l = 0; l < (r.lanes ? r.lanes : 1); ++l) {
    double a[3];
    for (intptr_t i = 0; i < n; ++i)
      a[i] = x[i].lanes ? x[i].v[l] : x[i].v[0];
    if (is_select)
      r.v[l] = a[0] != 0 ? a[1] : a[2];
    else if (is_cmp)
      cmp_pred(op, is_float_type(t0), a[0], a[1], t0, &r.v[l]);
    else if (cast)
      r.v[l] = cast_value(name, a[0], t0, rt);
    else if (!scalar_fn(name, rt, (int)n, a, &r.v[l], &known))
      return ref_fail(op, "integer division by zero");
  }
  kset(&k->env, mlirOperationGetResult(op, 0), &r);
  return true;
}

/* ---- memory ---- */

/* The row-major offset of op's indices (operands first..first+rank) into `m`; `lanes`
 * elements from there must stay inside the last dimension. */
static bool offset_of(Kx *k, MlirOperation op, const BrazeHostTensor *m, intptr_t first, int lanes, int64_t *off) {
  int64_t o = 0;
  for (int d = 0; d < m->rank; ++d) {
    RV i;
    if (!ref_uk_operand(k, op, first + d, &i))
      return false;
    int64_t idx = (int64_t)i.v[0], extent = m->shape[d] - (d == m->rank - 1 && lanes > 1 ? lanes - 1 : 0);
    if (idx < 0 || idx >= extent)
      return ref_fail(op, "index %lld out of bounds for dimension %d of %s in user kernel @%s", (long long)idx, d,
                      ref_type_str(m), k->kernel);
    o = o * m->shape[d] + idx;
  }
  *off = o;
  return true;
}

static BrazeHostTensor *memref_operand(Kx *k, MlirOperation op, intptr_t i) {
  const RV *r = kget(&k->env, mlirOperationGetOperand(op, i));
  if (!r || !r->mem)
    ref_fail(op, "operand %ld is not a memref argument of user kernel @%s", (long)i, k->kernel);
  return r ? r->mem : NULL;
}

static int result_lanes(MlirOperation op, MlirValue v) {
  MlirType t = mlirValueGetType(v);
  (void)op;
  return mlirTypeIsAVector(t) ? (int)num_elements(t) : 0;
}

/* memref.load / vector.load (base operand 0) and memref.store / vector.store (value 0, base 1). */
static bool eval_access(Kx *k, MlirOperation op, bool store) {
  intptr_t base = store ? 1 : 0;
  BrazeHostTensor *m = memref_operand(k, op, base);
  if (!m)
    return false;
  MlirValue val = store ? mlirOperationGetOperand(op, 0) : mlirOperationGetResult(op, 0);
  int lanes = result_lanes(op, val);
  if (lanes > MAX_LANES || (lanes && mlirShapedTypeGetRank(mlirValueGetType(val)) != 1))
    return ref_fail(op, "only 1-D vectors of at most %d lanes are supported", MAX_LANES);
  int64_t off;
  if (!offset_of(k, op, m, base + 1, lanes, &off))
    return false;
  if (!store) {
    RV r;
    memset(&r, 0, sizeof r);
    r.lanes = lanes;
    for (int l = 0; l < (lanes ? lanes : 1); ++l)
      r.v[l] = m->data[off + l];
    kset(&k->env, val, &r);
    return true;
  }
  RV x;
  if (!ref_uk_operand(k, op, 0, &x))
    return false;
  for (int l = 0; l < (lanes ? lanes : 1); ++l)
    m->data[off + l] = braze_dtype_round(x.v[l], m->dtype);
  return true;
}

static bool eval_atomic(Kx *k, MlirOperation op) {
  BrazeHostTensor *m = memref_operand(k, op, 1);
  RV x;
  int64_t off;
  if (!m || !ref_uk_operand(k, op, 0, &x) || !offset_of(k, op, m, 2, 0, &off))
    return false;
  /* arith::AtomicRMWKind, stored as an integer. */
  MlirAttribute kind = mlirOperationGetAttributeByName(op, braze_ref("kind"));
  int64_t kd = mlirAttributeIsAInteger(kind) ? mlirIntegerAttrGetValueInt(kind) : -1;
  double old = m->data[off], a = x.v[0], r;
  MlirType et = mlirValueGetType(mlirOperationGetOperand(op, 0));
  switch (kd) {
  case 0: case 1: r = old + a; break;                                   /* addf addi */
  case 2: r = wrap_int((double)((int64_t)old & (int64_t)a), et); break; /* andi */
  case 3: r = a; break;                                                 /* assign */
  case 4: r = fmax_nan(old, a); break;                                  /* maximumf */
  case 5: r = fmax(old, a); break;                                      /* maxnumf */
  case 6: r = old > a ? old : a; break;                                 /* maxs */
  case 7: r = as_unsigned(old, et) > as_unsigned(a, et) ? old : a; break;
  case 8: r = fmin_nan(old, a); break;                                  /* minimumf */
  case 9: r = fmin(old, a); break;                                      /* minnumf */
  case 10: r = old < a ? old : a; break;                                /* mins */
  case 11: r = as_unsigned(old, et) < as_unsigned(a, et) ? old : a; break;
  case 12: case 13: r = old * a; break;                                 /* mulf muli */
  case 14: r = wrap_int((double)((int64_t)old | (int64_t)a), et); break; /* ori */
  case 15: r = wrap_int((double)((int64_t)old ^ (int64_t)a), et); break; /* xori */
  default: return ref_fail(op, "unsupported atomic kind");
  }
  m->data[off] = braze_dtype_round(r, m->dtype);
  RV res;
  memset(&res, 0, sizeof res);
  res.v[0] = old;
  kset(&k->env, mlirOperationGetResult(op, 0), &res);
  return true;
}

static bool eval_generic_atomic(Kx *k, MlirOperation op) {
  BrazeHostTensor *m = memref_operand(k, op, 0);
  int64_t off;
  if (!m || !offset_of(k, op, m, 1, 0, &off))
    return false;
  RV cur, out[4];
  memset(&cur, 0, sizeof cur);
  cur.v[0] = m->data[off];
  intptr_t n = 0;
  if (!ref_uk_exec_block(k, mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)), &cur, out, &n))
    return false;
  m->data[off] = braze_dtype_round(out[0].v[0], m->dtype);
  kset(&k->env, mlirOperationGetResult(op, 0), &cur);
  return true;
}

/* ---- vectors ---- */

static int64_t static_pos(MlirOperation op) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, braze_ref("static_position"));
  return mlirAttributeIsNull(a) || mlirDenseArrayGetNumElements(a) != 1 ? -1 : mlirDenseI64ArrayGetElement(a, 0);
}

static bool eval_vector(Kx *k, MlirOperation op, const char *name) {
  RV x, y, r;
  memset(&r, 0, sizeof r);
  MlirValue res = mlirOperationGetResult(op, 0);
  r.lanes = result_lanes(op, res);
  if (r.lanes > MAX_LANES)
    return ref_fail(op, "vectors of more than %d lanes are not supported", MAX_LANES);
  if (!ref_uk_operand(k, op, 0, &x))
    return false;
  if (!strcmp(name, "vector.broadcast") || !strcmp(name, "vector.splat")) {
    if (x.lanes)
      return ref_fail(op, "only scalar broadcasts are supported");
    for (int l = 0; l < r.lanes; ++l)
      r.v[l] = x.v[0];
  } else if (!strcmp(name, "vector.extract")) {
    int64_t p = static_pos(op);
    if (p < 0 || p >= x.lanes || mlirOperationGetNumOperands(op) != 1)
      return ref_fail(op, "only one static position into a 1-D vector is supported");
    r.v[0] = x.v[p];
  } else if (!strcmp(name, "vector.insert")) {
    int64_t p = static_pos(op);
    if (!ref_uk_operand(k, op, 1, &y))
      return false;
    if (p < 0 || p >= y.lanes || mlirOperationGetNumOperands(op) != 2)
      return ref_fail(op, "only one static position into a 1-D vector is supported");
    r = y;
    r.v[p] = x.v[0];
  } else {
    MlirAttribute kind = mlirOperationGetAttributeByName(op, braze_ref("kind"));
    double acc = attr_has(kind, "mul") ? 1 : attr_has(kind, "add") ? 0 : x.v[0];
    for (int l = 0; l < x.lanes; ++l) {
      double a = x.v[l];
      acc = attr_has(kind, "add") ? acc + a : attr_has(kind, "mul") ? acc * a
          : attr_has(kind, "minimumf") ? fmin_nan(acc, a) : attr_has(kind, "maximumf") ? fmax_nan(acc, a)
          : attr_has(kind, "min") ? fmin(acc, a) : fmax(acc, a);
    }
    if (mlirOperationGetNumOperands(op) > 1) {
      if (!ref_uk_operand(k, op, 1, &y))
        return false;
      acc = attr_has(kind, "add") ? acc + y.v[0] : attr_has(kind, "mul") ? acc * y.v[0] : acc;
    }
    r.v[0] = acc;
  }
  kset(&k->env, res, &r);
  return true;
}

/* ---- control flow ---- */

static void bind_results(Kx *k, MlirOperation op, const RV *vals) {
  for (intptr_t i = 0, n = mlirOperationGetNumResults(op); i < n; ++i)
    kset(&k->env, mlirOperationGetResult(op, i), &vals[i]);
}

static bool eval_for(Kx *k, MlirOperation op) {
  RV lb, ub, step;
  if (!ref_uk_operand(k, op, 0, &lb) || !ref_uk_operand(k, op, 1, &ub) || !ref_uk_operand(k, op, 2, &step))
    return false;
  if (step.v[0] <= 0)
    return ref_fail(op, "step must be positive");
  intptr_t n_iter = mlirOperationGetNumOperands(op) - 3;
  RV *args = calloc((size_t)n_iter + 2, sizeof *args), *out = calloc((size_t)n_iter + 2, sizeof *out);
  bool ok = true;
  for (intptr_t i = 0; i < n_iter && ok; ++i)
    ok = ref_uk_operand(k, op, 3 + i, &args[1 + i]);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  for (double iv = lb.v[0]; ok && iv < ub.v[0]; iv += step.v[0]) {
    memset(&args[0], 0, sizeof args[0]);
    args[0].v[0] = iv;
    intptr_t n = 0;
    ok = ref_uk_exec_block(k, body, args, out, &n);
    for (intptr_t i = 0; ok && i < n_iter; ++i)
      args[1 + i] = out[i];
  }
  if (ok)
    bind_results(k, op, args + 1);
  free(args);
  free(out);
  return ok;
}

static bool eval_parallel(Kx *k, MlirOperation op) {
  if (mlirOperationGetNumResults(op) != 0)
    return ref_fail(op, "scf.parallel with reductions is not supported");
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  intptr_t d = mlirBlockGetNumArguments(body);
  if (d > BRAZE_TENSOR_MAX_RANK || mlirOperationGetNumOperands(op) != 3 * d)
    return ref_fail(op, "unsupported scf.parallel form");
  RV lo[BRAZE_TENSOR_MAX_RANK], hi[BRAZE_TENSOR_MAX_RANK], st[BRAZE_TENSOR_MAX_RANK], iv[BRAZE_TENSOR_MAX_RANK];
  for (intptr_t i = 0; i < d; ++i) {
    if (!ref_uk_operand(k, op, i, &lo[i]) || !ref_uk_operand(k, op, d + i, &hi[i]) || !ref_uk_operand(k, op, 2 * d + i, &st[i]))
      return false;
    if (st[i].v[0] <= 0)
      return ref_fail(op, "step must be positive");
    memset(&iv[i], 0, sizeof iv[i]);
    iv[i].v[0] = lo[i].v[0];
    if (lo[i].v[0] >= hi[i].v[0])
      return true;
  }
  for (;;) {
    RV out[1];
    intptr_t n = 0;
    if (!ref_uk_exec_block(k, body, iv, out, &n))
      return false;
    intptr_t i = d - 1;
    for (; i >= 0; --i) {
      iv[i].v[0] += st[i].v[0];
      if (iv[i].v[0] < hi[i].v[0])
        break;
      iv[i].v[0] = lo[i].v[0];
    }
    if (i < 0)
      return true;
  }
}

static bool eval_if(Kx *k, MlirOperation op) {
  RV c;
  if (!ref_uk_operand(k, op, 0, &c))
    return false;
  MlirRegion region = mlirOperationGetRegion(op, c.v[0] != 0 ? 0 : 1);
  MlirBlock block = mlirRegionGetFirstBlock(region);
  if (mlirBlockIsNull(block))
    return true;
  intptr_t nres = mlirOperationGetNumResults(op), n = 0;
  RV *out = calloc((size_t)nres + 1, sizeof *out);
  bool ok = ref_uk_exec_block(k, block, NULL, out, &n);
  if (ok)
    bind_results(k, op, out);
  free(out);
  return ok;
}

/* A func.call of another user kernel on memref arguments. */
static bool eval_nested_call(Kx *k, MlirOperation op) {
  MlirAttribute callee = mlirOperationGetAttributeByName(op, braze_ref("callee"));
  MlirOperation module = mlirOperationGetParentOperation(op);
  while (!mlirOperationIsNull(module) && !braze_op_is(module, "builtin.module"))
    module = mlirOperationGetParentOperation(module);
  if (mlirAttributeIsNull(callee) || mlirOperationIsNull(module))
    return ref_fail(op, "no callee");
  MlirStringRef name = mlirFlatSymbolRefAttrGetValue(callee);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation f = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f)) {
    MlirAttribute sym = mlirOperationGetAttributeByName(f, braze_ref("sym_name"));
    if (mlirAttributeIsNull(sym) || !mlirStringRefEqual(mlirStringAttrGetValue(sym), name))
      continue;
    if (mlirAttributeIsNull(mlirOperationGetAttributeByName(f, braze_ref("braze.user_kernel"))))
      break;
    intptr_t n = mlirOperationGetNumOperands(op);
    BrazeHostTensor **bufs = calloc((size_t)n + 1, sizeof *bufs);
    bool ok = mlirOperationGetNumResults(op) == 0;
    for (intptr_t i = 0; i < n && ok; ++i)
      ok = (bufs[i] = memref_operand(k, op, i)) != NULL;
    ok = ok && ref_user_kernel_call(op, f, bufs, (size_t)n);
    free(bufs);
    return ok;
  }
  return ref_fail(op, "user kernel @%s calls @%.*s, which is not a user kernel on memrefs", k->kernel,
                  (int)name.length, name.data);
}

static bool eval_kernel_op(Kx *k, MlirOperation op) {
  MlirStringRef nref = braze_op_name(op);
  char name[64];
  snprintf(name, sizeof name, "%.*s", (int)nref.length, nref.data);
  if (!strcmp(name, "arith.constant")) {
    RV r;
    if (!eval_constant(op, &r))
      return false;
    kset(&k->env, mlirOperationGetResult(op, 0), &r);
    return true;
  }
  if (k->gpu && (!strncmp(name, "gpu.", 4) || !strcmp(name, "memref.alloca") || !strcmp(name, "memref.view") ||
                 !strcmp(name, "scf.parallel")))
    return ref_gpu_op(k, op, name);
  if (!strcmp(name, "scf.for"))
    return eval_for(k, op);
  if (!strcmp(name, "scf.parallel"))
    return eval_parallel(k, op);
  if (!strcmp(name, "scf.if"))
    return eval_if(k, op);
  if (!strcmp(name, "memref.load") || !strcmp(name, "vector.load"))
    return eval_access(k, op, false);
  if (!strcmp(name, "memref.store") || !strcmp(name, "vector.store"))
    return eval_access(k, op, true);
  if (!strcmp(name, "memref.atomic_rmw"))
    return eval_atomic(k, op);
  if (!strcmp(name, "func.call"))
    return eval_nested_call(k, op);
  if (!strcmp(name, "memref.generic_atomic_rmw"))
    return eval_generic_atomic(k, op);
  if (!strcmp(name, "memref.dim")) {
    BrazeHostTensor *m = memref_operand(k, op, 0);
    RV i, r;
    if (!m || !ref_uk_operand(k, op, 1, &i))
      return false;
    memset(&r, 0, sizeof r);
    r.v[0] = (double)m->shape[(int)i.v[0] % (m->rank ? m->rank : 1)];
    kset(&k->env, mlirOperationGetResult(op, 0), &r);
    return true;
  }
  if (!strcmp(name, "vector.broadcast") || !strcmp(name, "vector.splat") || !strcmp(name, "vector.extract") ||
      !strcmp(name, "vector.insert") || !strcmp(name, "vector.reduction"))
    return eval_vector(k, op, name);
  bool handled;
  if (!eval_elementwise(k, op, name, &handled))
    return false;
  if (handled)
    return true;
  return ref_fail(op, "unsupported op in user kernel @%s (the reference evaluates scf, memref, vector, arith and "
                      "math ops: docs/user-kernels.md)", k->kernel);
}

static bool is_terminator_name(MlirOperation op) {
  return braze_op_is(op, "scf.yield") || braze_op_is(op, "scf.reduce") || braze_op_is(op, "func.return") ||
         braze_op_is(op, "memref.atomic_yield");
}

/* Run `block` with its arguments bound to args; the terminator's operands go to yielded. */
bool ref_uk_exec_block(Kx *k, MlirBlock block, const RV *args, RV *yielded, intptr_t *n_yielded) {
  for (intptr_t i = 0, n = mlirBlockGetNumArguments(block); args && i < n; ++i)
    kset(&k->env, mlirBlockGetArgument(block, i), &args[i]);
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (is_terminator_name(op)) {
      if (braze_op_is(op, "scf.reduce") && mlirOperationGetNumOperands(op) > 0)
        return ref_fail(op, "scf.reduce with operands is not supported");
      *n_yielded = mlirOperationGetNumOperands(op);
      for (intptr_t i = 0; i < *n_yielded; ++i)
        if (!ref_uk_operand(k, op, i, &yielded[i]))
          return false;
      return true;
    }
    if (!eval_kernel_op(k, op))
      return false;
  }
  *n_yielded = 0;
  return true;
}

void ref_uk_env_free(Kx *k) {
  free(k->env.vals);
  braze_ptrmap_free(&k->env.index);
  memset(&k->env, 0, sizeof k->env);
}

bool ref_user_kernel_call(MlirOperation call, MlirOperation callee, BrazeHostTensor *const *bufs, size_t n) {
  MlirStringRef name = mlirStringAttrGetValue(mlirOperationGetAttributeByName(callee, braze_ref("sym_name")));
  char kname[256];
  snprintf(kname, sizeof kname, "%.*s", (int)name.length, name.data);
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(callee, 0));
  if (mlirBlockIsNull(entry) || mlirBlockGetNumArguments(entry) != (intptr_t)n)
    return ref_fail(call, "user kernel @%s takes %ld arguments, the call passes %zu", kname,
                    mlirBlockIsNull(entry) ? 0L : (long)mlirBlockGetNumArguments(entry), n);
  if (!mlirBlockIsNull(mlirBlockGetNextInRegion(entry)))
    return ref_fail(call, "user kernel @%s has several blocks (only structured control flow is supported)", kname);
  if (!mlirAttributeIsNull(mlirOperationGetAttributeByName(callee, braze_ref("braze.gpu_launch"))))
    return ref_gpu_launch(call, callee, bufs, n, kname);
  Kx k = {.kernel = kname};
  RV *args = calloc(n + 1, sizeof *args);
  for (size_t i = 0; i < n; ++i)
    args[i].mem = bufs[i];
  RV out[1];
  intptr_t n_out = 0;
  bool ok = ref_uk_exec_block(&k, entry, args, out, &n_out);
  free(args);
  ref_uk_env_free(&k);
  if (!ok)
    braze_emit(mlirOperationGetLocation(call), BRAZE_DIAG_NOTE, "called from here (@%s)", kname);
  return ok;
}
