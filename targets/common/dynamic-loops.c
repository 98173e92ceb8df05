/* Runtime loops for symbolic entries (targets/common/dynamic-loops.h): the function at
 * two sizes of its symbol, taken to the loop level and compared op for op; what
 * differs becomes a form in the symbol (dims c*s or s+k, constants k*s or k/s).
 * Linear in the ops of the two loop-level functions. */
#include "targets/common/dynamic-loops.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "braze/runtime.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/passes.h"
#include "support/context.h"
#include "targets/target.h"
#include "support/diag.h"
#include "targets/common/dynamic-rows.h"

/* graph ops to the loop level, as cpu-default does before fusion. Fusion and codegen
 * are not run: their decisions (tiles, blocks, templates) are made for one size. */
#define TO_LOOPS "graph-decompose,graph-simplify,graph-to-loops"

const BrazeDynShape *braze_dyn_shape_of(const BrazeDynForms *f, MlirValue v) {
  int i = braze_ptrmap_get(&f->shape_of, braze_ptr_key(v.ptr), -1);
  return i < 0 ? NULL : &f->shapes[i];
}

const BrazeDynConst *braze_dyn_const_of(const BrazeDynForms *f, MlirOperation constant) {
  int i = braze_ptrmap_get(&f->const_of, braze_ptr_key(constant.ptr), -1);
  return i < 0 ? NULL : &f->consts[i];
}

void braze_dyn_forms_free(BrazeDynForms *f) {
  braze_ptrmap_free(&f->shape_of);
  braze_ptrmap_free(&f->const_of);
  free(f->shapes);
  free(f->consts);
  memset(f, 0, sizeof *f);
}

typedef struct {
  MlirOperation *ops;
  int n, cap;
} OpList;

static MlirWalkResult collect(MlirOperation op, void *user) {
  OpList *l = user;
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 256;
    l->ops = realloc(l->ops, (size_t)l->cap * sizeof *l->ops);
  }
  l->ops[l->n++] = op;
  return MlirWalkResultAdvance;
}

typedef struct {
  BrazeDynForms *f;
  int64_t a, b; /* the two sizes */
  const char *sym;
} Diff;

/* "'linalg.generic' op (from graph.reduce_sum)": the op and, for a loop-level op, the
 * graph op it computes (braze.ops), as remarks begin. */
static const char *op_name(MlirOperation op, char *buf, size_t cap) {
  MlirStringRef s = mlirIdentifierStr(mlirOperationGetName(op));
  int n = snprintf(buf, cap, "'%.*s' op", (int)s.length, s.data);
  MlirAttribute ops = mlirOperationGetDiscardableAttributeByName(op, braze_ref("braze.ops"));
  if (!mlirAttributeIsNull(ops) && mlirAttributeIsAArray(ops) && mlirArrayAttrGetNumElements(ops) > 0 && n > 0 &&
      (size_t)n < cap) {
    MlirStringRef g = mlirStringAttrGetValue(mlirArrayAttrGetElement(ops, 0));
    snprintf(buf + n, cap - (size_t)n, " (from graph.%.*s)", (int)g.length, g.data);
  }
  return buf;
}

/* da at size a, db at size b: c*s (k = 0) or s + k. */
static bool dim_form(int64_t da, int64_t db, int64_t a, int64_t b, BrazeDynDim *out) {
  if (da == db) {
    *out = (BrazeDynDim){0, da};
    return true;
  }
  if (da % a == 0 && db % b == 0 && da / a == db / b && da / a > 0) {
    *out = (BrazeDynDim){da / a, 0};
    return true;
  }
  if (da - a == db - b) {
    *out = (BrazeDynDim){1, da - a};
    return true;
  }
  return false;
}

static void print_form(const BrazeDynDim *d, const char *sym, char *buf, size_t cap) {
  if (d->coef == 0)
    snprintf(buf, cap, "%lld", (long long)d->off);
  else if (d->coef == 1)
    snprintf(buf, cap, d->off ? "%s%+lld" : "%s", sym, (long long)d->off);
  else
    snprintf(buf, cap, d->off ? "%lld*%s%+lld" : "%lld*%s", (long long)d->coef, sym, (long long)d->off);
}

/* Compare two values' types; a ranked tensor's dims give its form. */
static bool diff_value(Diff *d, MlirOperation at, MlirValue va, MlirValue vb, const char *what) {
  MlirType ta = mlirValueGetType(va), tb = mlirValueGetType(vb);
  char name[128];
  if (mlirTypeEqual(ta, tb))
    return true;
  bool shaped = mlirTypeIsARankedTensor(ta) && mlirTypeIsARankedTensor(tb);
  if (!shaped || mlirShapedTypeGetRank(ta) != mlirShapedTypeGetRank(tb) || mlirShapedTypeGetRank(ta) > 8 ||
      !mlirTypeEqual(mlirShapedTypeGetElementType(ta), mlirShapedTypeGetElementType(tb))) {
    braze_emit_remark(mlirOperationGetLocation(at), "%s %s: its type depends on the size of %s in a way runtime loops do not take",
                      op_name(at, name, sizeof name), what, d->sym);
    return false;
  }
  BrazeDynShape sh = {.rank = (int)mlirShapedTypeGetRank(ta)};
  for (int i = 0; i < sh.rank; ++i)
    if (!dim_form(mlirShapedTypeGetDimSize(ta, i), mlirShapedTypeGetDimSize(tb, i), d->a, d->b, &sh.dim[i])) {
      braze_emit_remark(mlirOperationGetLocation(at),
                        "%s %s dim %d is %lld at %s = %lld and %lld at %s = %lld: runtime loops take c*%s or %s+k",
                        op_name(at, name, sizeof name), what, i, (long long)mlirShapedTypeGetDimSize(ta, i), d->sym,
                        (long long)d->a, (long long)mlirShapedTypeGetDimSize(tb, i), d->sym, (long long)d->b, d->sym,
                        d->sym);
      return false;
    }
  BrazeDynForms *f = d->f;
  if (f->n_shapes == f->cap_shapes) {
    f->cap_shapes = f->cap_shapes ? 2 * f->cap_shapes : 64;
    f->shapes = realloc(f->shapes, (size_t)f->cap_shapes * sizeof *f->shapes);
  }
  f->shapes[f->n_shapes] = sh;
  braze_ptrmap_put(&f->shape_of, braze_ptr_key(va.ptr), f->n_shapes++);
  return true;
}

static bool close_to(double x, double y) { return fabs(x - y) <= 1e-6 * fmax(fabs(x), fabs(y)); }

/* A scalar constant that differs: k*s or k/s. */
static bool diff_constant(Diff *d, MlirOperation a, MlirAttribute va, MlirAttribute vb) {
  double x, y;
  bool is_float = mlirAttributeIsAFloat(va) && mlirAttributeIsAFloat(vb);
  if (is_float) {
    x = mlirFloatAttrGetValueDouble(va);
    y = mlirFloatAttrGetValueDouble(vb);
  } else if (mlirAttributeIsAInteger(va) && mlirAttributeIsAInteger(vb)) {
    x = (double)mlirIntegerAttrGetValueInt(va);
    y = (double)mlirIntegerAttrGetValueInt(vb);
  } else {
    return false;
  }
  BrazeDynConst c;
  if (close_to(x / (double)d->a, y / (double)d->b))
    c = (BrazeDynConst){BRAZE_DYN_CONST_MUL, x / (double)d->a};
  else if (is_float && close_to(x * (double)d->a, y * (double)d->b))
    c = (BrazeDynConst){BRAZE_DYN_CONST_INV, x * (double)d->a};
  else
    return false;
  BrazeDynForms *f = d->f;
  if (f->n_consts == f->cap_consts) {
    f->cap_consts = f->cap_consts ? 2 * f->cap_consts : 16;
    f->consts = realloc(f->consts, (size_t)f->cap_consts * sizeof *f->consts);
  }
  f->consts[f->n_consts] = c;
  braze_ptrmap_put(&f->const_of, braze_ptr_key(a.ptr), f->n_consts++);
  return true;
}

static bool diff_attrs(Diff *d, MlirOperation a, MlirOperation b) {
  char name[128];
  intptr_t n = mlirOperationGetNumAttributes(a);
  if (n != mlirOperationGetNumAttributes(b))
    goto differs;
  for (intptr_t i = 0; i < n; ++i) {
    MlirNamedAttribute na = mlirOperationGetAttribute(a, i);
    MlirStringRef key = mlirIdentifierStr(na.name);
    MlirAttribute vb = mlirOperationGetAttributeByName(b, key);
    if (mlirAttributeIsNull(vb))
      goto differs;
    if (mlirAttributeEqual(na.attribute, vb))
      continue;
    if (braze_op_is(a, "func.func") && braze_ref_eq(key, "function_type"))
      continue; /* the argument and result types are compared as values */
    if (braze_op_is(a, "arith.constant") && braze_ref_eq(key, "value") && diff_constant(d, a, na.attribute, vb))
      continue;
    braze_emit_remark(mlirOperationGetLocation(a),
                      "%s attribute '%.*s' depends on the size of %s: runtime loops take it only in dims and "
                      "scalar constants k*%s or k/%s",
                      op_name(a, name, sizeof name), (int)key.length, key.data, d->sym, d->sym, d->sym);
    return false;
  }
  return true;
differs:
  braze_emit_remark(mlirOperationGetLocation(a), "%s has other attributes at another size of %s",
                    op_name(a, name, sizeof name), d->sym);
  return false;
}

static bool diff_op(Diff *d, MlirOperation a, MlirOperation b) {
  char name[128], what[48];
  if (!mlirIdentifierEqual(mlirOperationGetName(a), mlirOperationGetName(b)) ||
      mlirOperationGetNumOperands(a) != mlirOperationGetNumOperands(b) ||
      mlirOperationGetNumResults(a) != mlirOperationGetNumResults(b) ||
      mlirOperationGetNumRegions(a) != mlirOperationGetNumRegions(b)) {
    braze_emit_remark(mlirOperationGetLocation(a),
                      "%s: the loop-level program is not the same at %s = %lld and %s = %lld (a size-dependent "
                      "rewrite): runtime loops need one program for every size",
                      op_name(a, name, sizeof name), d->sym, (long long)d->a, d->sym, (long long)d->b);
    return false;
  }
  for (intptr_t i = 0; i < mlirOperationGetNumResults(a); ++i) {
    snprintf(what, sizeof what, "result #%lld", (long long)i);
    if (!diff_value(d, a, mlirOperationGetResult(a, i), mlirOperationGetResult(b, i), what))
      return false;
  }
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(a); ++r) {
    MlirBlock ba = mlirRegionGetFirstBlock(mlirOperationGetRegion(a, r));
    MlirBlock bb = mlirRegionGetFirstBlock(mlirOperationGetRegion(b, r));
    if (mlirBlockIsNull(ba) || mlirBlockIsNull(bb))
      continue;
    if (mlirBlockGetNumArguments(ba) != mlirBlockGetNumArguments(bb))
      return false;
    for (intptr_t i = 0; i < mlirBlockGetNumArguments(ba); ++i) {
      snprintf(what, sizeof what, "argument #%lld", (long long)i);
      if (!diff_value(d, a, mlirBlockGetArgument(ba, i), mlirBlockGetArgument(bb, i), what))
        return false;
    }
  }
  return diff_attrs(d, a, b);
}

/* Two sizes of the symbol within its bounds and divisor, distinct, at least 2 where
 * the range allows (1 is where broadcasting rewrites could differ), and not small
 * powers of two (which static dims often are). */
static bool pick_sizes(const BrazeSymbol *s, int64_t *a, int64_t *b) {
  int64_t div = s->div > 0 ? s->div : 1;
  int64_t lo = s->min > 2 ? s->min : 2;
  int64_t start = lo > 13 ? lo : 13;
  int64_t x = (start + div - 1) / div * div;
  if (x > s->max)
    x = s->max / div * div;
  if (x < s->min)
    return false;
  int64_t y = x + div <= s->max ? x + div : x - div;
  if (y < s->min || y < 1 || y == x)
    return false;
  *a = x;
  *b = y;
  return true;
}

/* func cloned into a module of its own, specialized at `size`, taken to loops. */
static MlirModule at_size(MlirOperation func, int64_t size) {
  MlirLocation loc = mlirOperationGetLocation(func);
  MlirModule m = mlirModuleCreateEmpty(loc);
  MlirOperation copy = mlirOperationClone(func);
  mlirBlockAppendOwnedOperation(mlirModuleGetBody(m), copy);
  bool ok = braze_sym_specialize(copy, &size);
  if (ok) {
    MlirContext ctx = mlirOperationGetContext(func);
    MlirPassManager pm = mlirPassManagerCreateOnOperation(ctx, braze_ref("builtin.module"));
    BrazeStr error = {0};
    ok = braze_pipeline_build(pm, TO_LOOPS, NULL, &error) &&
         mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(m)));
    if (error.len)
      braze_emit_error(loc, "%s", braze_str_cstr(&error));
    braze_str_free(&error);
    mlirPassManagerDestroy(pm);
  }
  if (!ok) {
    mlirModuleDestroy(m);
    return (MlirModule){NULL};
  }
  return m;
}

static MlirOperation only_func(MlirModule m) {
  MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(m));
  while (!mlirOperationIsNull(op) && !braze_op_is(op, "func.func"))
    op = mlirOperationGetNextInBlock(op);
  return op;
}

/* The ABI's description of argument or result `v` ([dtype, rank, dims...], -1 for the
 * symbol); false after a remark when a dim is another form of it. */
static bool arg_record(const BrazeDynForms *f, MlirOperation func, MlirValue v, MlirValue decl, const char *what,
                       const char *sym, MlirAttribute *out) {
  MlirType t = mlirValueGetType(v);
  int64_t fields[2 + 8];
  int code = mlirTypeIsARankedTensor(t) ? braze_entry_dtype_code(mlirShapedTypeGetElementType(t)) : -1;
  if (code < 0 || mlirShapedTypeGetRank(t) > 8) {
    braze_emit_remark(mlirOperationGetLocation(func), "%s: runtime loops take ranked tensors of signless or float types",
                      what);
    return false;
  }
  (void)decl;
  fields[0] = code;
  fields[1] = mlirShapedTypeGetRank(t);
  const BrazeDynShape *sh = braze_dyn_shape_of(f, v);
  for (int d = 0; d < fields[1]; ++d) {
    fields[2 + d] = mlirShapedTypeGetDimSize(t, d);
    if (sh && sh->dim[d].coef != 0) {
      if (sh->dim[d].coef != 1 || sh->dim[d].off != 0) {
        char form[48];
        print_form(&sh->dim[d], sym, form, sizeof form);
        braze_emit_remark(mlirOperationGetLocation(func),
                          "%s dim %d is %s: the ABI of runtime loops takes %s itself in arguments and results", what, d,
                          form, sym);
        return false;
      }
      fields[2 + d] = -1;
    }
  }
  *out = mlirDenseI64ArrayGet(mlirOperationGetContext(func), 2 + fields[1], fields);
  return true;
}

static MlirNamedAttribute named(MlirContext ctx, const char *name, MlirAttribute a) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, braze_ref(name)), a);
}

static MlirAttribute i64_attr(MlirContext ctx, int64_t v) { return mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), v); }

static bool make_record(const BrazeDynForms *f, MlirOperation lf, MlirOperation func, const BrazeSymbol *sym,
                        MlirAttribute *record) {
  MlirContext ctx = mlirOperationGetContext(func);
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(lf, 0));
  MlirOperation ret = mlirBlockGetTerminator(entry);
  intptr_t n_in = mlirBlockGetNumArguments(entry), n_out = mlirOperationGetNumOperands(ret);
  if (n_in + n_out > 64 || n_out == 0) {
    braze_emit_remark(mlirOperationGetLocation(func), "runtime loops take 1 to 64 arguments and results");
    return false;
  }
  MlirAttribute args[64];
  for (intptr_t i = 0; i < n_in + n_out; ++i) {
    char what[40];
    snprintf(what, sizeof what, "%s #%lld", i < n_in ? "argument" : "result", (long long)(i < n_in ? i : i - n_in));
    MlirValue v = i < n_in ? mlirBlockGetArgument(entry, i) : mlirOperationGetOperand(ret, i - n_in);
    if (!arg_record(f, func, v, v, what, sym->name, &args[i]))
      return false;
  }
  MlirStringRef name = mlirStringAttrGetValue(mlirOperationGetAttributeByName(func, braze_ref("sym_name")));
  MlirNamedAttribute fields[9] = {
      named(ctx, "name", mlirStringAttrGet(ctx, name)),
      named(ctx, "symbol", mlirStringAttrGet(ctx, braze_ref(sym->name))),
      named(ctx, "min", i64_attr(ctx, sym->min)),
      named(ctx, "max", i64_attr(ctx, sym->max)),
      named(ctx, "div", i64_attr(ctx, sym->div)),
      named(ctx, "kind", mlirStringAttrGet(ctx, braze_ref("loops"))),
      named(ctx, "num_inputs", i64_attr(ctx, n_in)),
      named(ctx, "args", mlirArrayAttrGet(ctx, n_in + n_out, args)),
  };
  *record = mlirDictionaryAttrGet(ctx, 8, fields);
  return true;
}

bool braze_dynamic_loops_build(MlirOperation func, MlirBlock body, const BrazeSymTable *table, MlirAttribute *record) {
  const BrazeSymbol *sym = &table->sym[0];
  MlirStringRef fname = mlirStringAttrGetValue(mlirOperationGetAttributeByName(func, braze_ref("sym_name")));
  int64_t a, b;
  if (!pick_sizes(sym, &a, &b)) {
    braze_emit_remark(mlirOperationGetLocation(func),
                      "'func.func' op @%.*s: %s takes fewer than two sizes of at least 2; give it a static size",
                      (int)fname.length, fname.data, sym->name);
    return false;
  }
  MlirModule ma = at_size(func, a), mb = mlirModuleIsNull(ma) ? (MlirModule){NULL} : at_size(func, b);
  if (mlirModuleIsNull(ma) || mlirModuleIsNull(mb)) {
    if (!mlirModuleIsNull(ma))
      mlirModuleDestroy(ma);
    return false;
  }
  MlirOperation fa = only_func(ma), fb = only_func(mb);
  OpList la = {0}, lb = {0};
  mlirOperationWalk(fa, collect, &la, MlirWalkPreOrder);
  mlirOperationWalk(fb, collect, &lb, MlirWalkPreOrder);
  BrazeDynForms forms = {0};
  Diff d = {.f = &forms, .a = a, .b = b, .sym = sym->name};
  bool ok = la.n == lb.n;
  if (!ok)
    braze_emit_remark(mlirOperationGetLocation(func),
                      "'func.func' op @%.*s: the loop-level program has %d ops at %s = %lld and %d at %s = %lld (a "
                      "size-dependent rewrite): runtime loops need one program for every size",
                      (int)fname.length, fname.data, la.n, sym->name, (long long)a, lb.n, sym->name, (long long)b);
  for (int i = 0; ok && i < la.n; ++i)
    ok = diff_op(&d, la.ops[i], lb.ops[i]);
  ok = ok && make_record(&forms, fa, func, sym, record);
  if (ok) {
    char name[200];
    snprintf(name, sizeof name, "%.*s" BRAZE_LOOPS_SUFFIX, (int)fname.length, fname.data);
    ok = braze_dynamic_loops_emit(fa, &forms, name, body, func, sym->name);
  }
  free(la.ops);
  free(lb.ops);
  braze_dyn_forms_free(&forms);
  mlirModuleDestroy(ma);
  mlirModuleDestroy(mb);
  return ok;
}

/* ---- keeping the runtime-loops functions out of the target's pipeline ---- */

#define CODEGEN_AFTER "math-approx,loop-invariant-code-motion,canonicalize,cse"

static bool is_loops_op(MlirOperation op) {
  if (braze_op_is(op, "memref.global"))
    return !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(op, braze_ref("braze.runtime_loops")));
  if (!braze_op_is(op, "func.func"))
    return false;
  if (!mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(op, braze_ref("braze.runtime_loops"))))
    return true;
  MlirAttribute name = mlirOperationGetAttributeByName(op, braze_ref("sym_name"));
  return braze_ref_eq(mlirStringAttrGetValue(name), "cblas_sgemm") &&
         mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)));
}

MlirModule braze_dynamic_loops_detach(MlirOperation module) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  MlirModule side = {NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(body), next; !mlirOperationIsNull(op); op = next) {
    next = mlirOperationGetNextInBlock(op);
    if (!is_loops_op(op))
      continue;
    if (mlirModuleIsNull(side))
      side = mlirModuleCreateEmpty(mlirOperationGetLocation(module));
    mlirOperationRemoveFromParent(op);
    mlirBlockAppendOwnedOperation(mlirModuleGetBody(side), op);
  }
  return side;
}

bool braze_dynamic_loops_attach(MlirOperation module, MlirModule side, BrazeStr *error) {
  if (mlirModuleIsNull(side))
    return true;
  MlirPassManager pm = mlirPassManagerCreateOnOperation(mlirOperationGetContext(module), braze_ref("builtin.module"));
  bool ok = braze_pipeline_build(pm, CODEGEN_AFTER, NULL, error) &&
            mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(side)));
  mlirPassManagerDestroy(pm);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  MlirSymbolTable table = mlirSymbolTableCreate(module);
  bool have_sgemm = !mlirOperationIsNull(mlirSymbolTableLookup(table, braze_ref("cblas_sgemm")));
  mlirSymbolTableDestroy(table);
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(side)), next; ok && !mlirOperationIsNull(op);
       op = next) {
    next = mlirOperationGetNextInBlock(op);
    mlirOperationRemoveFromParent(op);
    bool decl = braze_op_is(op, "func.func") && mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)));
    if (decl && have_sgemm)
      mlirOperationDestroy(op); /* the module declares it already (the BLAS extern kernels) */
    else
      mlirBlockInsertOwnedOperation(body, 0, op);
  }
  mlirModuleDestroy(side);
  return ok;
}
