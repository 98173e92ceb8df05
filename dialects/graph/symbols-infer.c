/* Symbolic shape inference: the shape rules of docs/dialect-graph.md over shape
 * expressions (dialects/graph/symbols.h). Ops whose rules are written here take
 * symbolic dims; any other graph op takes only static operands and says so at its
 * location. The dtype and attribute rules stay with the static verifier, which
 * graph verification runs on a specialization once the shapes agree (verify.c). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/graph/symbols.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/diag.h"

typedef struct {
  BrazeSymShapes *s;
  MlirOperation op;
  const char *mnemonic;
  intptr_t n_in;
  const BrazeSymShape *in[4];
} Infer;

static bool fail(const Infer *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(const Infer *c, const char *fmt, ...) {
  BrazeStr msg = {0};
  braze_str_printf(&msg, "'graph.%s' op ", c->mnemonic);
  va_list ap;
  va_start(ap, fmt);
  braze_str_vprintf(&msg, fmt, ap);
  va_end(ap);
  braze_emit_error(mlirOperationGetLocation(c->op), "%s", braze_str_cstr(&msg));
  braze_str_free(&msg);
  return false;
}

/* Text of a shape or dim for messages: lives in a buffer of the caller. */
static const char *shape_text(const Infer *c, const BrazeSymShape *s, BrazeStr *buf) {
  braze_str_free(buf);
  braze_sym_shape_print(s, &c->s->table, buf);
  return braze_str_cstr(buf);
}

static void put_shape(BrazeSymShapes *s, MlirValue v, const BrazeSymShape *shape) {
  if (s->count == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 64;
    s->shapes = realloc(s->shapes, (size_t)s->cap * sizeof *s->shapes);
    s->values = realloc(s->values, (size_t)s->cap * sizeof *s->values);
  }
  s->values[s->count] = v;
  s->shapes[s->count] = *shape;
  braze_ptrmap_put(&s->index, braze_ptr_key(v.ptr), s->count++);
}

const BrazeSymShape *braze_sym_shape_of(const BrazeSymShapes *s, MlirValue v) {
  int i = braze_ptrmap_get(&s->index, braze_ptr_key(v.ptr), -1);
  return i < 0 ? NULL : &s->shapes[i];
}

void braze_sym_shapes_free(BrazeSymShapes *s) {
  braze_ptrmap_free(&s->index);
  free(s->shapes);
  free(s->values);
  memset(s, 0, sizeof *s);
}

static bool static_shape(MlirType t, BrazeSymShape *out) {
  if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t) || mlirShapedTypeGetRank(t) > BRAZE_MAX_RANK)
    return false;
  out->rank = mlirShapedTypeGetRank(t);
  for (intptr_t d = 0; d < out->rank; ++d)
    out->dim[d] = braze_sym_const(mlirShapedTypeGetDimSize(t, d));
  return true;
}

static bool is_symbolic(const BrazeSymShape *s) {
  int64_t c;
  for (intptr_t d = 0; d < s->rank; ++d)
    if (!braze_sym_is_const(&s->dim[d], &c))
      return true;
  return false;
}

/* ---- the rules ---- */

static bool broadcast(const Infer *c, const BrazeSymShape *a, const BrazeSymShape *b, BrazeSymShape *out) {
  intptr_t rank = a->rank > b->rank ? a->rank : b->rank;
  out->rank = rank;
  for (intptr_t i = 0; i < rank; ++i) {
    intptr_t ia = a->rank - rank + i, ib = b->rank - rank + i;
    BrazeSymExpr one = braze_sym_const(1);
    const BrazeSymExpr *x = ia >= 0 ? &a->dim[ia] : &one, *y = ib >= 0 ? &b->dim[ib] : &one;
    int64_t cx, cy;
    bool kx = braze_sym_is_const(x, &cx), ky = braze_sym_is_const(y, &cy);
    if (braze_sym_equal(x, y) || (ky && cy == 1))
      out->dim[i] = *x;
    else if (kx && cx == 1)
      out->dim[i] = *y;
    else {
      BrazeStr sa = {0}, sb = {0};
      fail(c, "operand shapes %s and %s do not broadcast (result dim %lld: a symbolic dim broadcasts only with 1 "
           "or an equal dim)", shape_text(c, a, &sa), shape_text(c, b, &sb), (long long)i);
      braze_str_free(&sa);
      braze_str_free(&sb);
      return false;
    }
  }
  return true;
}

static bool same_dim(const Infer *c, const BrazeSymExpr *a, const BrazeSymExpr *b, const char *what) {
  if (braze_sym_equal(a, b))
    return true;
  BrazeStr sa = {0}, sb = {0};
  braze_sym_print(a, &c->s->table, &sa);
  braze_sym_print(b, &c->s->table, &sb);
  fail(c, "%s: %s and %s differ", what, braze_str_cstr(&sa), braze_str_cstr(&sb));
  braze_str_free(&sa);
  braze_str_free(&sb);
  return false;
}

static bool attr_dim(const Infer *c, const char *name, intptr_t rank, int64_t *out) {
  if (braze_attr_i64(c->op, name, out) && *out >= 0 && *out < rank)
    return true;
  return fail(c, "expects an integer attribute '%s' in [0, %lld)", name, (long long)rank);
}

static bool infer_reduce(const Infer *c, BrazeSymShape *res) {
  const BrazeSymShape *x = c->in[0];
  int64_t dims[BRAZE_MAX_RANK];
  intptr_t n = braze_attr_i64_array(c->op, "dims", dims, BRAZE_MAX_RANK);
  bool reduced[BRAZE_MAX_RANK] = {false};
  for (intptr_t i = 0; i < n; ++i) {
    if (dims[i] < 0 || dims[i] >= x->rank)
      return fail(c, "dim %lld is out of range for rank %lld", (long long)dims[i], (long long)x->rank);
    reduced[dims[i]] = true;
  }
  if (n <= 0)
    return fail(c, "expects a non-empty 'dims' array<i64>");
  MlirAttribute k = mlirOperationGetAttributeByName(c->op, braze_ref("keepdim"));
  bool keepdim = !mlirAttributeIsNull(k) && mlirAttributeIsABool(k) && mlirBoolAttrGetValue(k);
  res->rank = 0;
  for (intptr_t d = 0; d < x->rank; ++d) {
    if (!reduced[d])
      res->dim[res->rank++] = x->dim[d];
    else if (keepdim)
      res->dim[res->rank++] = braze_sym_const(1);
  }
  return true;
}

static bool infer_contraction(const Infer *c, bool batched, BrazeSymShape *res) {
  const BrazeSymShape *a = c->in[0], *b = c->in[1];
  if (!batched && (a->rank != 2 || b->rank != 2))
    return fail(c, "operands must be 2-D ([M, K] and [K, N])");
  if (batched && (a->rank < 2 || b->rank < 2 || (a->rank < 3 && b->rank < 3)))
    return fail(c, "operands must have rank >= 2 and at least one rank >= 3");
  if (!same_dim(c, &a->dim[a->rank - 1], &b->dim[b->rank - 2], "contraction dims K (lhs's last, rhs's second to last)"))
    return false;
  BrazeSymShape ba = {.rank = a->rank - 2}, bb = {.rank = b->rank - 2};
  memcpy(ba.dim, a->dim, sizeof(BrazeSymExpr) * (size_t)ba.rank);
  memcpy(bb.dim, b->dim, sizeof(BrazeSymExpr) * (size_t)bb.rank);
  if (!broadcast(c, &ba, &bb, res))
    return false;
  res->dim[res->rank++] = a->dim[a->rank - 2];
  res->dim[res->rank++] = b->dim[b->rank - 1];
  return true;
}

static bool infer_linear(const Infer *c, BrazeSymShape *res) {
  const BrazeSymShape *x = c->in[0], *w = c->in[1], *b = c->in[2];
  if (x->rank < 1 || w->rank != 2 || b->rank != 1)
    return fail(c, "expects x [..., K], weight [N, K] and bias [N]");
  if (!same_dim(c, &w->dim[1], &x->dim[x->rank - 1], "weight's K and x's last dim") ||
      !same_dim(c, &b->dim[0], &w->dim[0], "bias's N and weight's N"))
    return false;
  *res = *x;
  res->dim[x->rank - 1] = w->dim[0];
  return true;
}

static bool infer_norm(const Infer *c, BrazeSymShape *res) {
  const BrazeSymShape *x = c->in[0];
  int64_t axis;
  if (!attr_dim(c, "axis", x->rank, &axis))
    return false;
  for (intptr_t p = 1; p < c->n_in; ++p) {
    const BrazeSymShape *w = c->in[p];
    bool ok = w->rank == x->rank - axis;
    for (intptr_t d = 0; ok && d < w->rank; ++d)
      ok = braze_sym_equal(&w->dim[d], &x->dim[axis + d]);
    if (!ok) {
      BrazeStr sw = {0};
      fail(c, "operand #%lld shape %s must be x.shape[axis:]", (long long)p, shape_text(c, w, &sw));
      braze_str_free(&sw);
      return false;
    }
  }
  *res = *x;
  return true;
}

static bool infer_transpose(const Infer *c, BrazeSymShape *res) {
  const BrazeSymShape *x = c->in[0];
  int64_t perm[BRAZE_MAX_RANK];
  if (braze_attr_i64_array(c->op, "perm", perm, BRAZE_MAX_RANK) != x->rank)
    return fail(c, "expects 'perm' with one entry per dim (%lld)", (long long)x->rank);
  bool seen[BRAZE_MAX_RANK] = {false};
  res->rank = x->rank;
  for (intptr_t i = 0; i < x->rank; ++i) {
    if (perm[i] < 0 || perm[i] >= x->rank || seen[perm[i]])
      return fail(c, "perm is not a permutation of 0..%lld", (long long)x->rank - 1);
    seen[perm[i]] = true;
    res->dim[i] = x->dim[perm[i]];
  }
  return true;
}

static bool product(const BrazeSymShape *s, intptr_t skip, BrazeSymExpr *out) {
  *out = braze_sym_const(1);
  for (intptr_t d = 0; d < s->rank; ++d)
    if (d != skip && !braze_sym_mul(out, &s->dim[d], out))
      return false;
  return true;
}

/* The result's static dims come from its type; its one `?` (if any) is the operand's
 * element count over the static ones. The products must agree symbolically. */
static bool infer_reshape(const Infer *c, MlirType rt, BrazeSymShape *res) {
  const BrazeSymShape *x = c->in[0];
  intptr_t rank = mlirShapedTypeGetRank(rt), dyn = -1;
  res->rank = rank;
  for (intptr_t d = 0; d < rank; ++d) {
    int64_t n = mlirShapedTypeGetDimSize(rt, d);
    if (mlirShapedTypeIsDynamicSize(n)) {
      if (dyn >= 0)
        return fail(c, "result dims %lld and %lld are both '?': a reshape infers at most one symbolic dim",
                    (long long)dyn, (long long)d);
      dyn = d;
      res->dim[d] = braze_sym_const(1);
    } else {
      res->dim[d] = braze_sym_const(n);
    }
  }
  BrazeSymExpr in, out;
  if (!product(x, -1, &in) || !product(res, dyn, &out))
    return fail(c, "element count is too large an expression");
  int64_t k;
  if (dyn >= 0) {
    if (!braze_sym_is_const(&out, &k) || !braze_sym_div_const(&in, k, &res->dim[dyn]))
      goto mismatch;
    if (braze_sym_is_const(&res->dim[dyn], &k))
      return fail(c, "result dim %lld is '?' but the element count fixes it to %lld", (long long)dyn, (long long)k);
    return true;
  }
  if (braze_sym_equal(&in, &out))
    return true;
mismatch:;
  BrazeStr si = {0}, so = {0};
  braze_sym_print(&in, &c->s->table, &si);
  fail(c, "operand shape %s has %s elements; the result type's static dims cannot hold them",
       shape_text(c, x, &so), braze_str_cstr(&si));
  braze_str_free(&si);
  braze_str_free(&so);
  return false;
}

/* broadcast_to: the result type's static dims, and each `?` where the operand's
 * aligned dim is that symbolic dim. */
static bool infer_broadcast_to(const Infer *c, MlirType rt, BrazeSymShape *res) {
  const BrazeSymShape *x = c->in[0];
  intptr_t rank = mlirShapedTypeGetRank(rt);
  if (x->rank > rank)
    return fail(c, "operand rank %lld exceeds the result rank %lld", (long long)x->rank, (long long)rank);
  res->rank = rank;
  for (intptr_t d = 0; d < rank; ++d) {
    int64_t n = mlirShapedTypeGetDimSize(rt, d);
    intptr_t xd = d - (rank - x->rank);
    if (!mlirShapedTypeIsDynamicSize(n)) {
      res->dim[d] = braze_sym_const(n);
      continue;
    }
    int64_t k;
    if (xd < 0 || braze_sym_is_const(&x->dim[xd], &k))
      return fail(c, "result dim %lld is '?' but the operand has no symbolic dim there to broadcast from",
                  (long long)d);
    res->dim[d] = x->dim[xd];
  }
  return broadcast(c, x, res, res);
}

typedef enum { R_SAME, R_BROADCAST, R_REDUCE, R_MATMUL, R_BMM, R_LINEAR, R_NORM, R_TRANSPOSE, R_RESHAPE, R_BCAST_TO } Rule;

static const struct {
  const char *mnemonic;
  Rule rule;
} rules[] = {
    {"neg", R_SAME}, {"abs", R_SAME}, {"relu", R_SAME}, {"exp", R_SAME}, {"log", R_SAME}, {"sqrt", R_SAME},
    {"rsqrt", R_SAME}, {"tanh", R_SAME}, {"sigmoid", R_SAME}, {"erf", R_SAME}, {"sin", R_SAME}, {"cos", R_SAME},
    {"silu", R_SAME}, {"gelu", R_SAME}, {"cast", R_SAME}, {"bitwise_not", R_SAME}, {"softmax", R_SAME},
    {"log_softmax", R_SAME}, {"add", R_BROADCAST}, {"sub", R_BROADCAST}, {"mul", R_BROADCAST},
    {"div", R_BROADCAST}, {"max", R_BROADCAST}, {"min", R_BROADCAST}, {"pow", R_BROADCAST}, {"rem", R_BROADCAST},
    {"bitwise_and", R_BROADCAST}, {"bitwise_or", R_BROADCAST}, {"bitwise_xor", R_BROADCAST}, {"cmp", R_BROADCAST},
    {"select", R_BROADCAST}, {"reduce_sum", R_REDUCE}, {"reduce_mean", R_REDUCE}, {"reduce_max", R_REDUCE},
    {"reduce_min", R_REDUCE}, {"reduce_var", R_REDUCE}, {"matmul", R_MATMUL}, {"batch_matmul", R_BMM},
    {"linear", R_LINEAR}, {"layer_norm", R_NORM}, {"rms_norm", R_NORM}, {"transpose", R_TRANSPOSE},
    {"reshape", R_RESHAPE}, {"broadcast_to", R_BCAST_TO},
};

static int find_rule(const char *mnemonic) {
  for (size_t i = 0; i < sizeof rules / sizeof *rules; ++i)
    if (strcmp(rules[i].mnemonic, mnemonic) == 0)
      return (int)i;
  return -1;
}

static bool apply_rule(Infer *c, Rule rule, MlirType rt, BrazeSymShape *res) {
  static const int arity[] = {[R_SAME] = 1, [R_BROADCAST] = 2, [R_REDUCE] = 1, [R_MATMUL] = 2, [R_BMM] = 2,
                              [R_LINEAR] = 3, [R_NORM] = 2, [R_TRANSPOSE] = 1, [R_RESHAPE] = 1, [R_BCAST_TO] = 1};
  if (c->n_in < arity[rule] || c->n_in > 3)
    return fail(c, "expects %d operand%s, got %lld", arity[rule], arity[rule] == 1 ? "" : "s", (long long)c->n_in);
  switch (rule) {
  case R_SAME:
    *res = *c->in[0];
    return true;
  case R_BROADCAST:
    if (!broadcast(c, c->in[0], c->in[1], res))
      return false;
    return c->n_in < 3 || broadcast(c, res, c->in[2], res);
  case R_REDUCE:
    return infer_reduce(c, res);
  case R_MATMUL:
    return infer_contraction(c, false, res);
  case R_BMM:
    return infer_contraction(c, true, res);
  case R_LINEAR:
    return c->n_in == 3 ? infer_linear(c, res) : fail(c, "expects 3 operands");
  case R_NORM:
    return infer_norm(c, res);
  case R_TRANSPOSE:
    return infer_transpose(c, res);
  case R_RESHAPE:
    return infer_reshape(c, rt, res);
  case R_BCAST_TO:
    return infer_broadcast_to(c, rt, res);
  }
  return false;
}

/* The result type agrees with the inferred shape: `?` exactly where it is symbolic. */
static bool check_result(const Infer *c, MlirType rt, const BrazeSymShape *res) {
  bool ok = mlirTypeIsARankedTensor(rt) && mlirShapedTypeGetRank(rt) == res->rank;
  for (intptr_t d = 0; ok && d < res->rank; ++d) {
    int64_t n = mlirShapedTypeGetDimSize(rt, d), k;
    ok = braze_sym_is_const(&res->dim[d], &k) ? n == k : mlirShapedTypeIsDynamicSize(n);
  }
  if (ok)
    return true;
  BrazeStr s = {0};
  fail(c, "result type must have the shape %s ('?' for each symbolic dim)", shape_text(c, res, &s));
  braze_str_free(&s);
  return false;
}

static bool infer_op(BrazeSymShapes *s, MlirOperation op) {
  const char *mnemonic = braze_graph_op_mnemonic(op);
  intptr_t n_res = mlirOperationGetNumResults(op);
  Infer c = {.s = s, .op = op, .mnemonic = mnemonic, .n_in = mlirOperationGetNumOperands(op)};
  BrazeSymShape tmp[4];
  int symbolic_operand = -1;
  for (intptr_t i = 0; i < c.n_in; ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    const BrazeSymShape *sh = braze_sym_shape_of(s, v);
    if (!sh && i < 4 && static_shape(mlirValueGetType(v), &tmp[i]))
      sh = &tmp[i];
    if (sh && is_symbolic(sh) && symbolic_operand < 0)
      symbolic_operand = (int)i;
    if (!sh && mlirTypeIsARankedTensor(mlirValueGetType(v)) && !mlirShapedTypeHasStaticShape(mlirValueGetType(v))) {
      braze_emit_error(mlirOperationGetLocation(op), "operand #%lld has a '?' dim that no symbol gives", (long long)i);
      return false;
    }
    if (i < 4)
      c.in[i] = sh;
  }
  int rule = mnemonic && n_res == 1 ? find_rule(mnemonic) : -1;
  if (symbolic_operand >= 0 && !mnemonic && !braze_op_is(op, "func.return")) {
    MlirIdentifier id = mlirOperationGetName(op);
    MlirStringRef name = mlirIdentifierStr(id);
    braze_emit_error(mlirOperationGetLocation(op), "'%.*s' op does not take symbolic dims: operand #%d is symbolic",
                     (int)name.length, name.data, symbolic_operand);
    return false;
  }
  if (rule < 0 || symbolic_operand < 0) {
    if (symbolic_operand >= 0 && mnemonic) {
      BrazeStr sh = {0};
      fail(&c, "does not take symbolic dims yet: operand #%d has shape %s", symbolic_operand,
           shape_text(&c, c.in[symbolic_operand], &sh));
      braze_str_free(&sh);
      return false;
    }
    for (intptr_t r = 0; r < n_res; ++r) { /* static results (or non-tensor ones) */
      MlirValue v = mlirOperationGetResult(op, r);
      BrazeSymShape sh;
      if (static_shape(mlirValueGetType(v), &sh))
        put_shape(s, v, &sh);
      else if (mlirTypeIsARankedTensor(mlirValueGetType(v)) && !mlirShapedTypeHasStaticShape(mlirValueGetType(v))) {
        braze_emit_error(mlirOperationGetLocation(op), "result #%lld has a '?' dim but no operand is symbolic",
                         (long long)r);
        return false;
      }
    }
    return true;
  }
  for (intptr_t i = 0; i < c.n_in && i < 4; ++i)
    if (!c.in[i])
      return fail(&c, "operand #%lld is not a ranked tensor", (long long)i);
  BrazeSymShape res;
  MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!mlirTypeIsARankedTensor(rt))
    return fail(&c, "result must be a ranked tensor");
  if (!apply_rule(&c, rules[rule].rule, rt, &res) || !check_result(&c, rt, &res))
    return false;
  put_shape(s, mlirOperationGetResult(op, 0), &res);
  return true;
}

/* Arguments: each `?` dim takes the next symbol of the argument's graph.dims. */
static bool bind_arguments(MlirOperation func, BrazeSymShapes *s) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  MlirAttribute arg_attrs = mlirOperationGetAttributeByName(func, braze_ref("arg_attrs"));
  MlirLocation loc = mlirOperationGetLocation(func);
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(entry); ++i) {
    MlirValue arg = mlirBlockGetArgument(entry, i);
    MlirType t = mlirValueGetType(arg);
    if (!mlirTypeIsARankedTensor(t))
      continue;
    MlirAttribute dims = {0};
    if (!mlirAttributeIsNull(arg_attrs) && mlirAttributeIsAArray(arg_attrs) && i < mlirArrayAttrGetNumElements(arg_attrs))
      dims = mlirDictionaryAttrGetElementByName(mlirArrayAttrGetElement(arg_attrs, i), braze_ref(BRAZE_DIMS_ATTR));
    intptr_t rank = mlirShapedTypeGetRank(t), next = 0;
    intptr_t given = !mlirAttributeIsNull(dims) && mlirAttributeIsAArray(dims) ? mlirArrayAttrGetNumElements(dims) : 0;
    if (rank > BRAZE_MAX_RANK) {
      braze_emit_error(loc, "'func.func' op argument #%lld has rank %lld; braze supports rank <= %d", (long long)i,
                       (long long)rank, BRAZE_MAX_RANK);
      return false;
    }
    BrazeSymShape sh = {.rank = rank};
    for (intptr_t d = 0; d < rank; ++d) {
      int64_t n = mlirShapedTypeGetDimSize(t, d);
      if (!mlirShapedTypeIsDynamicSize(n)) {
        sh.dim[d] = braze_sym_const(n);
        continue;
      }
      MlirAttribute name = next < given ? mlirArrayAttrGetElement(dims, next) : (MlirAttribute){0};
      ++next;
      MlirStringRef ref = !mlirAttributeIsNull(name) && mlirAttributeIsAString(name) ? mlirStringAttrGetValue(name)
                                                                                     : (MlirStringRef){"", 0};
      int k = ref.length ? braze_sym_lookup(&s->table, ref.data, ref.length) : -1;
      if (k < 0) {
        if (ref.length)
          braze_emit_error(loc, "'func.func' op argument #%lld dim %lld: symbol '%.*s' is not declared in "
                           BRAZE_SYMBOLS_ATTR, (long long)i, (long long)d, (int)ref.length, ref.data);
        else
          braze_emit_error(loc, "'func.func' op argument #%lld dim %lld is '?': expected a symbol name for it in the "
                           "argument's " BRAZE_DIMS_ATTR " = [\"NAME\", ...] (one per '?' dim)", (long long)i,
                           (long long)d);
        return false;
      }
      sh.dim[d] = braze_sym_var(k);
    }
    if (next != given) {
      braze_emit_error(loc, "'func.func' op argument #%lld: " BRAZE_DIMS_ATTR " names %lld symbols for %lld '?' dims",
                       (long long)i, (long long)given, (long long)next);
      return false;
    }
    put_shape(s, arg, &sh);
  }
  return true;
}

typedef struct {
  BrazeSymShapes *s;
  bool ok;
} Walk;

static MlirWalkResult visit(MlirOperation op, void *user) {
  Walk *w = user;
  if (braze_op_is(op, "func.func"))
    return MlirWalkResultAdvance;
  if (infer_op(w->s, op))
    return MlirWalkResultAdvance;
  w->ok = false; /* later ops would only repeat it: their operands have no shape */
  return MlirWalkResultInterrupt;
}

bool braze_sym_infer(MlirOperation func, BrazeSymShapes *out) {
  memset(out, 0, sizeof *out);
  if (!braze_sym_table_read(func, &out->table) || !bind_arguments(func, out))
    return false;
  Walk w = {.s = out, .ok = true};
  mlirOperationWalk(func, visit, &w, MlirWalkPreOrder);
  return w.ok;
}
