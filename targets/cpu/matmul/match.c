/* cpu-codegen, the matmul template: reading a `tem` kernel. The kernel must be one
 * contraction generic (dims (batch..., m, n, k), body `addf(mulf(a, b), acc)` with a and
 * b optionally `extf`-ed from f16/bf16, init a zero fill) followed by all-parallel
 * generics over its output space (the epilogue) that read tile values (the contraction's
 * result or an earlier epilogue's) at the identity and other tensors through any map
 * that is either contiguous in n or does not read n. Anything else is refused with a
 * reason that names it; cpu-codegen then emits the kernel's loop nests instead. One
 * generic may come before the contraction: a zero pad (form-kernels pad-templates)
 * that the contraction reads as A (decision 0024; targets/cpu/matmul/a-pad.c). */
#include "targets/cpu/matmul/matmul.h"

#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/strbuf.h"

static int find_val(const TmPlan *p, MlirValue v) {
  for (int i = 0; i < p->n_vals; ++i)
    if (mlirValueEqual(p->vals[i].tensor, v))
      return i;
  return -1;
}

static int add_val(TmPlan *p, MlirValue v, TmValKind kind) {
  if (p->n_vals == TM_MAX_VALS)
    return -1;
  p->vals[p->n_vals] = (TmVal){.tensor = v, .kind = kind, .arg = -1, .out_index = -1, .out_index2 = -1};
  return p->n_vals++;
}

static bool is_float_elem(MlirType t) { return mlirTypeIsAF32(t) || mlirTypeIsAF16(t) || mlirTypeIsABF16(t); }

static bool iterator_is_reduction(MlirAttribute iters, intptr_t d) {
  BrazeStr s = {0};
  mlirAttributePrint(mlirArrayAttrGetElement(iters, d), braze_str_callback, &s);
  bool red = strstr(braze_str_cstr(&s), "reduction") != NULL;
  braze_str_free(&s);
  return red;
}

static MlirAffineMap map_of(MlirOperation generic, intptr_t j) {
  MlirAttribute maps = mlirOperationGetAttributeByName(generic, braze_ref("indexing_maps"));
  return mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, j));
}

static uint64_t map_dims(MlirAffineMap m) {
  uint64_t used = 0;
  for (intptr_t r = 0; r < mlirAffineMapGetNumResults(m); ++r)
    used |= cg_affine_dims(mlirAffineMapGetResult(m, r));
  return used;
}

/* Results (d0, ..., d(n-1)) (the map may have more dims: a contraction's output). */
static bool map_is_identity(MlirAffineMap m, int n) {
  if (mlirAffineMapGetNumResults(m) != n)
    return false;
  for (int r = 0; r < n; ++r) {
    MlirAffineExpr e = mlirAffineMapGetResult(m, r);
    if (!mlirAffineExprIsADim(e) || mlirAffineDimExprGetPosition(e) != r)
      return false;
  }
  return true;
}

/* The last result is dim d alone, and no other result reads d. */
bool tm_contiguous_in(MlirAffineMap m, int d) {
  intptr_t n = mlirAffineMapGetNumResults(m);
  if (n == 0)
    return false;
  MlirAffineExpr last = mlirAffineMapGetResult(m, n - 1);
  if (!mlirAffineExprIsADim(last) || mlirAffineDimExprGetPosition(last) != d)
    return false;
  for (intptr_t r = 0; r + 1 < n; ++r)
    if (cg_affine_dims(mlirAffineMapGetResult(m, r)) & (1ull << d))
      return false;
  return true;
}

/* The scalar the block argument `arg` becomes after an optional extf to f32. */
static bool operand_from(MlirValue v, MlirValue arg) {
  if (mlirValueEqual(v, arg))
    return true;
  if (!mlirValueIsAOpResult(v))
    return false;
  MlirOperation def = mlirOpResultGetOwner(v);
  return braze_op_is(def, "arith.extf") && mlirValueEqual(mlirOperationGetOperand(def, 0), arg) &&
         mlirTypeIsAF32(mlirValueGetType(v));
}

/* Body: [extf a], [extf b], m = mulf(a', b'), s = addf(m, acc) (either order), yield s; f32. */
static bool contraction_body_ok(MlirOperation generic) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(generic, 0));
  if (mlirBlockGetNumArguments(body) != 3 || !mlirTypeIsAF32(mlirValueGetType(mlirBlockGetArgument(body, 2))))
    return false;
  MlirValue in0 = mlirBlockGetArgument(body, 0), in1 = mlirBlockGetArgument(body, 1), acc = mlirBlockGetArgument(body, 2);
  MlirOperation mul = {NULL}, add = {NULL}, yield = {NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (braze_op_is(op, "arith.extf") && mlirOperationIsNull(mul))
      continue;
    if (braze_op_is(op, "arith.mulf") && mlirOperationIsNull(mul))
      mul = op;
    else if (braze_op_is(op, "arith.addf") && !mlirOperationIsNull(mul) && mlirOperationIsNull(add))
      add = op;
    else if (braze_op_is(op, "linalg.yield") && !mlirOperationIsNull(add))
      yield = op;
    else
      return false;
  }
  if (mlirOperationIsNull(yield))
    return false;
  MlirValue x = mlirOperationGetOperand(mul, 0), y = mlirOperationGetOperand(mul, 1);
  bool mul_ok = (operand_from(x, in0) && operand_from(y, in1)) || (operand_from(x, in1) && operand_from(y, in0));
  MlirValue m = mlirOperationGetResult(mul, 0);
  MlirValue s0 = mlirOperationGetOperand(add, 0), s1 = mlirOperationGetOperand(add, 1);
  bool add_ok = (mlirValueEqual(s0, m) && mlirValueEqual(s1, acc)) || (mlirValueEqual(s1, m) && mlirValueEqual(s0, acc));
  return mul_ok && add_ok && mlirValueEqual(mlirOperationGetOperand(yield, 0), mlirOperationGetResult(add, 0));
}

static bool is_zero_fill(MlirOperation fill) {
  MlirValue v = mlirOperationGetOperand(fill, 0);
  if (!mlirValueIsAOpResult(v) || !braze_op_is(mlirOpResultGetOwner(v), "arith.constant"))
    return false;
  MlirAttribute a = mlirOperationGetAttributeByName(mlirOpResultGetOwner(v), braze_ref("value"));
  return mlirAttributeIsAFloat(a) && mlirFloatAttrGetValueDouble(a) == 0.0;
}

static const char *read_contraction(TmPlan *p, MlirOperation op) {
  MlirAttribute iters = mlirOperationGetAttributeByName(op, braze_ref("iterator_types"));
  intptr_t nd = mlirArrayAttrGetNumElements(iters);
  if (mlirOperationGetNumOperands(op) != 3 || nd < 3 || nd - 3 > TM_MAX_BATCH)
    return "contraction-form";
  for (intptr_t d = 0; d < nd; ++d)
    if (iterator_is_reduction(iters, d) != (d == nd - 1))
      return "reduction-not-innermost";
  /* The tiles accumulate in f32 registers: a wider (f64) product is not theirs. */
  if (mlirTypeIsAF64(mlirShapedTypeGetElementType(mlirValueGetType(mlirOperationGetOperand(op, 2)))))
    return "contraction-dtype";
  if (!contraction_body_ok(op))
    return "contraction-body";
  p->nb = (int)nd - 3;
  int dm = p->nb, dn = p->nb + 1, dk = p->nb + 2;
  MlirValue init = mlirOperationGetOperand(op, 2);
  if (!mlirValueIsAOpResult(init) || !braze_op_is(mlirOpResultGetOwner(init), "linalg.fill") ||
      !is_zero_fill(mlirOpResultGetOwner(init)))
    return "contraction-init";
  if (!map_is_identity(map_of(op, 2), (int)nd - 1))
    return "contraction-output-map";
  /* A reads m and k, B n and k. With a unit M, A's map may read m as the constant 0 (a
   * reshape of [1, ...] composed in: a batch-1 fc layer) and read neither m nor n. */
  bool reads_m[2], reads_n[2];
  for (int j = 0; j < 2; ++j) {
    uint64_t used = map_dims(map_of(op, j));
    reads_m[j] = used & (1ull << dm);
    reads_n[j] = used & (1ull << dn);
    if (!(used & (1ull << dk)) || (reads_m[j] && reads_n[j]))
      return "contraction-maps";
  }
  bool unit_m = mlirShapedTypeGetDimSize(mlirValueGetType(mlirOperationGetResult(op, 0)), dm) == 1;
  int ia = reads_m[0] != reads_m[1] ? (reads_m[0] ? 0 : 1) : -1;
  if (ia < 0 && unit_m && !reads_m[0] && !reads_m[1] && reads_n[0] != reads_n[1])
    ia = reads_n[0] ? 1 : 0;
  if (ia < 0 || !reads_n[1 - ia])
    return "contraction-maps";
  p->a_val = find_val(p, mlirOperationGetOperand(op, ia));
  p->b_val = find_val(p, mlirOperationGetOperand(op, 1 - ia));
  if (p->a_val < 0 || p->b_val < 0)
    return "contraction-operand";
  TmValKind ak = p->vals[p->a_val].kind;
  if (ak != TV_ARG && ak != TV_GLOBAL && ak != TV_PAD)
    return "contraction-operand";
  if (p->vals[p->b_val].kind != TV_ARG && p->vals[p->b_val].kind != TV_GLOBAL)
    return "contraction-operand";
  p->a_map = map_of(op, ia);
  p->b_map = map_of(op, 1 - ia);
  MlirType at = mlirValueGetType(mlirOperationGetOperand(op, ia)), bt = mlirValueGetType(mlirOperationGetOperand(op, 1 - ia));
  p->a_elem = mlirShapedTypeGetElementType(at);
  p->b_elem = mlirShapedTypeGetElementType(bt);
  if (!is_float_elem(p->a_elem) || !is_float_elem(p->b_elem))
    return "contraction-dtype";
  p->b_contiguous = tm_contiguous_in(p->b_map, dn);
  MlirType ot = mlirValueGetType(mlirOperationGetResult(op, 0));
  for (int d = 0; d < p->nb; ++d)
    p->batch[d] = mlirShapedTypeGetDimSize(ot, d);
  p->M = mlirShapedTypeGetDimSize(ot, dm);
  p->N = mlirShapedTypeGetDimSize(ot, dn);
  p->K = -1;
  for (intptr_t r = 0; r < mlirAffineMapGetNumResults(p->a_map); ++r) {
    MlirAffineExpr e = mlirAffineMapGetResult(p->a_map, r);
    if (mlirAffineExprIsADim(e) && mlirAffineDimExprGetPosition(e) == dk)
      p->K = mlirShapedTypeGetDimSize(at, r);
  }
  for (intptr_t r = 0; p->K < 0 && r < mlirAffineMapGetNumResults(p->b_map); ++r) {
    MlirAffineExpr e = mlirAffineMapGetResult(p->b_map, r);
    if (mlirAffineExprIsADim(e) && mlirAffineDimExprGetPosition(e) == dk)
      p->K = mlirShapedTypeGetDimSize(bt, r);
  }
  if (p->K < 1)
    return "contraction-maps";
  p->mm = op;
  p->mm_val = add_val(p, mlirOperationGetResult(op, 0), TV_TILE);
  return p->mm_val < 0 ? "too-many-values" : NULL;
}

/* A second product of the same A (same value and map), loops and zero init as the
 * first, with its own f32 B: both tiles are computed in one pass over A. */
static const char *read_second_contraction(TmPlan *p, MlirOperation op) {
  TmPlan q = *p;
  q.mm = (MlirOperation){NULL};
  q.n_vals = p->n_vals;
  if (p->n_products != 1 || read_contraction(&q, op) || q.nb != p->nb || q.M != p->M || q.N != p->N || q.K != p->K)
    return "two-contractions";
  for (int d = 0; d < p->nb; ++d)
    if (q.batch[d] != p->batch[d])
      return "two-contractions";
  if (q.a_val != p->a_val || !mlirAffineMapEqual(q.a_map, p->a_map) || !mlirTypeIsAF32(q.b_elem) ||
      !mlirTypeIsAF32(p->b_elem))
    return "two-contractions";
  p->vals[q.mm_val] = q.vals[q.mm_val];
  p->n_vals = q.n_vals;
  p->mm2 = op;
  p->mm2_val = q.mm_val;
  p->b2_val = q.b_val;
  p->b2_map = q.b_map;
  p->b2_contiguous = q.b_contiguous;
  p->n_products = 2;
  return NULL;
}

/* Epilogue bodies: scalar arith/math ops without regions, each with one result and at
 * most 16 operands, at most TM_MAX_BODY_OPS of them (what the vector cloner holds);
 * the output is not read. */
static bool epilogue_body_ok(MlirOperation op, int n_in) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  MlirValue out = mlirBlockGetArgument(body, n_in);
  if (!mlirOpOperandIsNull(mlirValueGetFirstUse(out)))
    return false;
  int count = 0;
  for (MlirOperation b = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(b); b = mlirOperationGetNextInBlock(b)) {
    if (braze_op_is(b, "linalg.yield"))
      break;
    if (++count > TM_MAX_BODY_OPS || mlirOperationGetNumOperands(b) > 16 || mlirOperationGetNumAttributes(b) > 16)
      return false;
    MlirStringRef name = braze_op_name(b);
    bool dialect_ok = (name.length > 6 && !strncmp(name.data, "arith.", 6)) ||
                      (name.length > 5 && !strncmp(name.data, "math.", 5));
    if (!dialect_ok || mlirOperationGetNumRegions(b) != 0 || mlirOperationGetNumResults(b) != 1)
      return false;
    MlirType t = mlirValueGetType(mlirOperationGetResult(b, 0));
    if (!mlirTypeIsAFloat(t) && !mlirTypeIsAInteger(t))
      return false;
  }
  return true;
}

static const char *read_epilogue(TmPlan *p, MlirOperation op) {
  if (p->n_epi == TM_MAX_EPI)
    return "epilogue-too-long";
  MlirAttribute iters = mlirOperationGetAttributeByName(op, braze_ref("iterator_types"));
  int nd = (int)mlirArrayAttrGetNumElements(iters);
  int n_in = (int)mlirOperationGetNumOperands(op) - 1;
  for (int d = 0; d < nd; ++d)
    if (iterator_is_reduction(iters, d))
      return "epilogue-reduction";
  if (mlirOperationGetNumResults(op) != 1 || nd != p->nb + 2 || n_in > TM_MAX_IN)
    return "epilogue-space";
  MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
  MlirType mt = mlirValueGetType(mlirOperationGetResult(p->mm, 0));
  for (int d = 0; d < nd; ++d)
    if (mlirShapedTypeGetDimSize(rt, d) != mlirShapedTypeGetDimSize(mt, d))
      return "epilogue-space";
  if (!map_is_identity(map_of(op, n_in), nd))
    return "epilogue-space";
  if (!epilogue_body_ok(op, n_in))
    return "epilogue-body";
  TmEpi *e = &p->epi[p->n_epi];
  e->op = op;
  e->n_in = n_in;
  for (int j = 0; j < n_in; ++j) {
    int v = find_val(p, mlirOperationGetOperand(op, j));
    if (v < 0 || p->vals[v].kind == TV_EMPTY || p->vals[v].kind == TV_PAD)
      return "epilogue-operand";
    e->in_val[j] = v;
    e->maps[j] = map_of(op, j);
    if (p->vals[v].kind == TV_TILE && !map_is_identity(e->maps[j], nd))
      return "epilogue-indexing"; /* a tile value read at other positions than written */
  }
  e->out_val = add_val(p, mlirOperationGetResult(op, 0), TV_TILE);
  if (e->out_val < 0)
    return "too-many-values";
  p->n_epi++;
  return NULL;
}

static const char *read_return(TmPlan *p, MlirOperation ret) {
  p->n_out = (int)mlirOperationGetNumOperands(ret);
  for (int r = 0; r < p->n_out; ++r) {
    int v = find_val(p, mlirOperationGetOperand(ret, r));
    if (v < 0 || p->vals[v].kind != TV_TILE)
      return "result-not-computed";
    if (p->vals[v].out_index < 0)
      p->vals[v].out_index = r;
    else if (p->vals[v].out_index2 < 0)
      p->vals[v].out_index2 = r;
    else
      return "result-returned-thrice";
  }
  return NULL;
}

static const char *read_constant(TmPlan *p, MlirOperation op) {
  MlirValue res = mlirOperationGetResult(op, 0);
  if (!mlirTypeIsARankedTensor(mlirValueGetType(res)))
    return NULL; /* scalars: read by fills, which are checked where used */
  MlirAttribute value = mlirOperationGetAttributeByName(op, braze_ref("value"));
  bool splat = mlirAttributeIsADenseElements(value) && mlirDenseElementsAttrIsSplat(value);
  if (!splat && !mlirAttributeIsADenseElements(value) && !mlirAttributeIsADenseResourceElements(value))
    return "constant-form";
  int v = add_val(p, res, splat ? TV_SPLAT : TV_GLOBAL);
  if (v < 0)
    return "too-many-values";
  p->vals[v].dense = value;
  return NULL;
}

/* A kernel argument bound to one constant in every call (the pad's table and mask,
 * when outlining passed them as arguments). */
static MlirAttribute argument_constant(MlirValue v, void *user) {
  TmPlan *p = user;
  int i = find_val(p, v);
  return i >= 0 && p->vals[i].kind == TV_ARG ? tm_bound_constant(p, p->vals[i].arg) : (MlirAttribute){NULL};
}

/* The one generic allowed before the contraction: a zero pad of a kernel argument
 * (passes/loops/zero-pad-read.h), which the contraction must read as A. */
static const char *read_pad(TmPlan *p, MlirOperation op) {
  if (p->has_pad)
    return "prologue";
  if (braze_zero_pad_read(op, argument_constant, p, &p->pad))
    return "prologue-not-a-zero-pad";
  p->has_pad = true;
  p->pad_data_val = find_val(p, p->pad.data);
  if (p->pad_data_val < 0 || p->vals[p->pad_data_val].kind != TV_ARG)
    return "prologue";
  return add_val(p, mlirOperationGetResult(op, 0), TV_PAD) < 0 ? "too-many-values" : NULL;
}

static const char *read_op(TmPlan *p, MlirOperation op) {
  if (braze_op_is(op, "tensor.empty") || braze_op_is(op, "linalg.fill"))
    return add_val(p, mlirOperationGetResult(op, 0), TV_EMPTY) < 0 ? "too-many-values" : NULL;
  if (braze_op_is(op, "arith.constant"))
    return read_constant(p, op);
  if (braze_op_is(op, "func.return"))
    return read_return(p, op);
  if (!braze_op_is(op, "linalg.generic"))
    return "unsupported-op";
  MlirAttribute iters = mlirOperationGetAttributeByName(op, braze_ref("iterator_types"));
  intptr_t nd = mlirArrayAttrGetNumElements(iters);
  bool reduction = nd > 0 && iterator_is_reduction(iters, nd - 1);
  if (mlirOperationIsNull(p->mm)) {
    p->n_products = 1;
    return reduction ? read_contraction(p, op) : read_pad(p, op);
  }
  if (reduction)
    return mlirOperationGetNumOperands(op) == 3 && contraction_body_ok(op) ? read_second_contraction(p, op)
                                                                            : "epilogue-reduction";
  return read_epilogue(p, op);
}

bool tm_match(MlirOperation func, TmPlan *p, const char **reason) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  p->n_in = (int)mlirBlockGetNumArguments(body);
  for (int a = 0; a < p->n_in; ++a) {
    int v = add_val(p, mlirBlockGetArgument(body, a), TV_ARG);
    if (v < 0) {
      *reason = "too-many-values";
      return false;
    }
    p->vals[v].arg = a;
    if (!mlirTypeIsARankedTensor(mlirValueGetType(p->vals[v].tensor)) ||
        !mlirShapedTypeHasStaticShape(mlirValueGetType(p->vals[v].tensor))) {
      *reason = "dynamic-shape";
      return false;
    }
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    const char *why = read_op(p, op);
    if (why) {
      *reason = why;
      return false;
    }
  }
  if (mlirOperationIsNull(p->mm)) {
    *reason = "no-contraction";
    return false;
  }
  if (p->has_pad && p->vals[p->a_val].kind != TV_PAD) {
    *reason = "prologue"; /* a pad read as B, or not read */
    return false;
  }
  return true;
}
