/* Symbolic entries as row blocks: the legality analysis and the clones
 * (targets/common/dynamic-rows.h). Linear in the function's ops. */
#include "targets/common/dynamic-rows.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/graph/symbols.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/diag.h"
#include "targets/common/dynamic-loops.h"

typedef struct {
  const BrazeSymShapes *s;
  const BrazeSymTable *table;
  int sym;
  bool ok;
  /* the first reason row blocks do not apply, kept for a remark if runtime loops do
   * not apply either (dynamic-loops.h) */
  bool have_why;
  MlirLocation why_loc;
  char why[512];
} Rows;

static void note(Rows *r, MlirLocation loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void note(Rows *r, MlirLocation loc, const char *fmt, ...) {
  if (r->have_why)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->why, sizeof r->why, fmt, ap);
  va_end(ap);
  r->why_loc = loc;
  r->have_why = true;
}

/* The dim of `v` that is the symbol, or -1; -2 after a remark (the symbol occurs in
 * an expression, or in two dims). */
static intptr_t row_dim(Rows *r, MlirOperation op, MlirValue v, const char *what) {
  const BrazeSymShape *sh = braze_sym_shape_of(r->s, v);
  if (!sh)
    return -1;
  intptr_t found = -1;
  for (intptr_t d = 0; d < sh->rank; ++d) {
    if (!braze_sym_uses(&sh->dim[d], r->sym))
      continue;
    BrazeStr e = {0};
    braze_sym_print(&sh->dim[d], r->table, &e);
    if (braze_sym_as_var(&sh->dim[d]) != r->sym) {
      note(r, mlirOperationGetLocation(op),
                        "%s dim %lld is %s: row blocks take %s only as a whole dim, not inside an expression", what,
                        (long long)d, braze_str_cstr(&e), r->table->sym[r->sym].name);
      braze_str_free(&e);
      return -2;
    }
    braze_str_free(&e);
    if (found >= 0) {
      note(r, mlirOperationGetLocation(op), "%s has %s in dims %lld and %lld: row blocks take it in one dim",
                        what, r->table->sym[r->sym].name, (long long)found, (long long)d);
      return -2;
    }
    found = d;
  }
  return found;
}

static bool refuse(Rows *r, MlirOperation op, const char *mnemonic, const char *how, intptr_t dim) {
  note(r, mlirOperationGetLocation(op),
                    "'graph.%s' op %s dim %lld = %s: row blocks need %s to be an independent dim of every op", mnemonic,
                    how, (long long)dim, r->table->sym[r->sym].name, r->table->sym[r->sym].name);
  return false;
}

static bool op_is_row_local(Rows *r, MlirOperation op) {
  const char *m = braze_graph_op_mnemonic(op);
  intptr_t n = mlirOperationGetNumOperands(op), in[4] = {-1, -1, -1, -1}, out = -1;
  bool any = false;
  for (intptr_t i = 0; i < n; ++i) {
    char what[32];
    snprintf(what, sizeof what, "operand #%lld", (long long)i);
    intptr_t d = row_dim(r, op, mlirOperationGetOperand(op, i), what);
    if (d == -2)
      return false;
    if (i < 4)
      in[i] = d;
    any = any || d >= 0;
  }
  if (mlirOperationGetNumResults(op) == 1 && (out = row_dim(r, op, mlirOperationGetResult(op, 0), "the result")) == -2)
    return false;
  if (!m || !any)
    return true;
  int64_t a, dims[BRAZE_MAX_RANK];
  if (!strcmp(m, "softmax") || !strcmp(m, "log_softmax"))
    return !(braze_attr_i64(op, "dim", &a) && a == in[0]) || refuse(r, op, m, "normalizes over", in[0]);
  if (!strncmp(m, "reduce_", 7)) {
    intptr_t k = braze_attr_i64_array(op, "dims", dims, BRAZE_MAX_RANK);
    for (intptr_t i = 0; i < k; ++i)
      if (dims[i] == in[0])
        return refuse(r, op, m, "reduces over", in[0]);
    return true;
  }
  if (!strcmp(m, "layer_norm") || !strcmp(m, "rms_norm")) {
    if (braze_attr_i64(op, "axis", &a) && in[0] >= a)
      return refuse(r, op, m, "normalizes over", in[0]);
    return in[1] < 0 || refuse(r, op, m, "takes a weight over", in[1]);
  }
  intptr_t ra = n > 0 ? braze_rank(mlirValueGetType(mlirOperationGetOperand(op, 0))) : 0;
  intptr_t rb = n > 1 ? braze_rank(mlirValueGetType(mlirOperationGetOperand(op, 1))) : 0;
  if (!strcmp(m, "matmul") || !strcmp(m, "batch_matmul")) {
    if (in[0] == ra - 1)
      return refuse(r, op, m, "contracts over lhs", in[0]);
    return in[1] != rb - 2 || refuse(r, op, m, "contracts over rhs", in[1]);
  }
  if (!strcmp(m, "linear")) {
    if (in[0] == ra - 1)
      return refuse(r, op, m, "contracts over x", in[0]);
    return (in[1] < 0 && in[2] < 0) || refuse(r, op, m, "takes a weight over", in[1] >= 0 ? in[1] : in[2]);
  }
  if (!strcmp(m, "reshape")) { /* the symbol's dim keeps the same elements before and after it */
    const BrazeSymShape *x = braze_sym_shape_of(r->s, mlirOperationGetOperand(op, 0));
    const BrazeSymShape *y = braze_sym_shape_of(r->s, mlirOperationGetResult(op, 0));
    BrazeSymExpr px = braze_sym_const(1), py = braze_sym_const(1);
    for (intptr_t d = 0; d < in[0]; ++d)
      braze_sym_mul(&px, &x->dim[d], &px);
    for (intptr_t d = 0; d < out; ++d)
      braze_sym_mul(&py, &y->dim[d], &py);
    return (out >= 0 && braze_sym_equal(&px, &py)) || refuse(r, op, m, "moves the elements of", in[0]);
  }
  return true; /* pointwise, broadcasting, transpose, broadcast_to: rows stay rows */
}

static MlirWalkResult check_op(MlirOperation op, void *user) {
  Rows *r = user;
  if (braze_op_is(op, "func.func") || braze_op_is(op, "func.return"))
    return MlirWalkResultAdvance;
  if (!op_is_row_local(r, op)) {
    r->ok = false;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

static MlirStringRef func_name(MlirOperation f) {
  return mlirStringAttrGetValue(mlirOperationGetAttributeByName(f, braze_ref("sym_name")));
}

/* Each argument and result: the symbol at dim 0 or not at all (row blocks are then
 * contiguous). rows[i] says which. */
static bool check_signature(Rows *r, MlirOperation func, bool *rows, int *num_args) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  MlirOperation ret = mlirBlockGetTerminator(entry);
  intptr_t n_in = mlirBlockGetNumArguments(entry), n_out = mlirOperationGetNumOperands(ret);
  if (n_in + n_out > 64) {
    braze_emit_error(mlirOperationGetLocation(func), "'func.func' op row blocks take at most 64 arguments and results");
    return false;
  }
  for (intptr_t i = 0; i < n_in + n_out; ++i) {
    MlirValue v = i < n_in ? mlirBlockGetArgument(entry, i) : mlirOperationGetOperand(ret, i - n_in);
    char what[40];
    snprintf(what, sizeof what, "%s #%lld", i < n_in ? "argument" : "result", (long long)(i < n_in ? i : i - n_in));
    intptr_t d = row_dim(r, func, v, what);
    if (d == -2)
      return false;
    if (d > 0) {
      note(r, mlirOperationGetLocation(func), "%s has %s in dim %lld: row blocks need it in dim 0", what,
                        r->table->sym[r->sym].name, (long long)d);
      return false;
    }
    rows[i] = d == 0;
  }
  *num_args = (int)(n_in + n_out);
  return true;
}

static MlirOperation clone_at(MlirOperation func, MlirBlock body, int64_t rows, MlirStringRef name) {
  MlirOperation copy = mlirOperationClone(func);
  char buf[200];
  snprintf(buf, sizeof buf, "%.*s" BRAZE_ROWS_SUFFIX "%lld", (int)name.length, name.data, (long long)rows);
  mlirOperationSetAttributeByName(copy, braze_ref("sym_name"),
                                  mlirStringAttrGet(mlirOperationGetContext(func), braze_ref(buf)));
  mlirBlockInsertOwnedOperationBefore(body, func, copy);
  return copy;
}

static MlirAttribute named_i64(MlirContext ctx, MlirNamedAttribute *out, const char *name, int64_t v) {
  MlirAttribute a = mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), v);
  *out = mlirNamedAttributeGet(mlirIdentifierGet(ctx, braze_ref(name)), a);
  return a;
}

/* BRAZE_DYNAMIC=loops: runtime loops even where row blocks apply (to compare them);
 * rows: row blocks only (no runtime loops); unset or auto: row blocks where they
 * apply, runtime loops elsewhere. */
static const char *dynamic_mode(void) {
  const char *m = getenv("BRAZE_DYNAMIC");
  return m && *m ? m : "auto";
}

static bool expand_one(MlirOperation func, MlirBlock body, int64_t block_rows, bool takes_loops,
                       MlirAttribute *record) {
  BrazeSymShapes s;
  bool ok = braze_sym_infer(func, &s);
  MlirStringRef name = func_name(func);
  if (ok && s.table.count != 1) {
    braze_emit_error(mlirOperationGetLocation(func),
                     "'func.func' op @%.*s has %d symbols; row blocks and runtime loops take one symbolic dim per "
                     "entry",
                     (int)name.length, name.data, s.table.count);
    ok = false;
  }
  bool rows[64] = {false};
  int num_args = 0;
  Rows r = {.s = &s, .table = &s.table, .sym = 0, .ok = true};
  const char *mode = dynamic_mode();
  if (ok) {
    mlirOperationWalk(func, check_op, &r, MlirWalkPreOrder);
    ok = r.ok && check_signature(&r, func, rows, &num_args);
    if (ok && takes_loops && !strcmp(mode, "loops")) {
      ok = false;
      note(&r, mlirOperationGetLocation(func), "BRAZE_DYNAMIC=loops asks for runtime loops");
    }
    if (!ok && takes_loops && strcmp(mode, "rows") != 0) {
      /* runtime loops (dynamic-loops.h): the function becomes NAME__braze_loops */
      if (braze_dynamic_loops_build(func, body, &s.table, record)) {
        braze_sym_shapes_free(&s);
        return true;
      }
    }
    if (!ok) {
      if (r.have_why)
        braze_emit_remark(r.why_loc, "%s", r.why);
      braze_emit_error(mlirOperationGetLocation(func),
                       "'func.func' op @%.*s: cannot compile symbolic dim %s (see the remarks): give it a static "
                       "size or make it an independent dim",
                       (int)name.length, name.data, s.table.sym[0].name);
    }
  }
  if (!ok) {
    braze_sym_shapes_free(&s);
    return false;
  }
  const BrazeSymbol *sym = &s.table.sym[0];
  /* Blocks of `big` rows, then of `small`, then the rest padded to `small` rows (the
   * ABI copies the last row into the padding): multiples of the divisor, `big` clipped
   * to the bound and `small` to the bound rounded up. */
  int64_t div = sym->div, cap = (sym->max + div - 1) / div * div;
  int64_t small = (64 + div - 1) / div * div, big = block_rows > 0 ? block_rows : 512;
  big = (big + div - 1) / div * div;
  if (small > cap)
    small = cap;
  if (big > sym->max)
    big = sym->max / div * div;
  if (big < small)
    big = small;
  MlirContext ctx = mlirOperationGetContext(func);
  int64_t sizes[2] = {big, small};
  for (int i = 0; i < (big == small ? 1 : 2); ++i)
    ok = ok && braze_sym_specialize(clone_at(func, body, sizes[i], name), &sizes[i]);
  MlirNamedAttribute fields[9];
  fields[0] = mlirNamedAttributeGet(mlirIdentifierGet(ctx, braze_ref("name")), mlirStringAttrGet(ctx, name));
  fields[1] = mlirNamedAttributeGet(mlirIdentifierGet(ctx, braze_ref("symbol")),
                                    mlirStringAttrGet(ctx, braze_ref(sym->name)));
  named_i64(ctx, &fields[2], "min", sym->min);
  named_i64(ctx, &fields[3], "max", sym->max);
  named_i64(ctx, &fields[4], "div", sym->div);
  named_i64(ctx, &fields[5], "block_rows", big);
  named_i64(ctx, &fields[6], "small_rows", small);
  int64_t flags[64];
  for (int i = 0; i < num_args; ++i)
    flags[i] = rows[i];
  fields[7] = mlirNamedAttributeGet(mlirIdentifierGet(ctx, braze_ref("rows")), mlirDenseI64ArrayGet(ctx, num_args, flags));
  *record = mlirDictionaryAttrGet(ctx, 8, fields);
  braze_sym_shapes_free(&s);
  return ok;
}

bool braze_dynamic_rows_expand(MlirOperation module, bool takes_rows, const char *target_name, int64_t block_rows) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  MlirAttribute records[64];
  int n = 0;
  bool ok = true;
  for (MlirOperation op = mlirBlockGetFirstOperation(body), next; !mlirOperationIsNull(op); op = next) {
    next = mlirOperationGetNextInBlock(op);
    if (!braze_op_is(op, "func.func") || !braze_func_has_symbols(op))
      continue;
    if (!takes_rows) {
      MlirStringRef name = func_name(op);
      braze_emit_error(mlirOperationGetLocation(op),
                       "'func.func' op @%.*s has symbolic dims; the %s target does not take them yet: give them "
                       "static sizes",
                       (int)name.length, name.data, target_name);
      ok = false;
      continue;
    }
    if (n == 64) {
      braze_emit_error(mlirOperationGetLocation(op), "'func.func' op more than 64 symbolic entries in one module");
      return false;
    }
    if (expand_one(op, body, block_rows, takes_rows, &records[n])) {
      ++n;
      mlirOperationDestroy(op);
    } else {
      ok = false;
    }
  }
  if (ok && n)
    mlirOperationSetAttributeByName(module, braze_ref(BRAZE_DYNAMIC_ENTRIES_ATTR),
                                    mlirArrayAttrGet(mlirOperationGetContext(module), n, records));
  return ok;
}

static int64_t field_i64(MlirAttribute d, const char *name) {
  MlirAttribute a = mlirDictionaryAttrGetElementByName(d, braze_ref(name));
  return mlirAttributeIsNull(a) ? 0 : mlirIntegerAttrGetValueInt(a);
}

static void field_str(MlirAttribute d, const char *name, char *out, size_t cap) {
  MlirStringRef s = mlirStringAttrGetValue(mlirDictionaryAttrGetElementByName(d, braze_ref(name)));
  snprintf(out, cap, "%.*s", (int)s.length, s.data);
}

BrazeDynamicEntry *braze_dynamic_entries_read(MlirOperation module, int *n) {
  MlirAttribute list = mlirOperationGetAttributeByName(module, braze_ref(BRAZE_DYNAMIC_ENTRIES_ATTR));
  *n = mlirAttributeIsNull(list) ? 0 : (int)mlirArrayAttrGetNumElements(list);
  if (*n == 0)
    return NULL;
  BrazeDynamicEntry *out = calloc((size_t)*n, sizeof *out);
  for (int i = 0; i < *n; ++i) {
    MlirAttribute d = mlirArrayAttrGetElement(list, i);
    BrazeDynamicEntry *e = &out[i];
    field_str(d, "name", e->name, sizeof e->name);
    field_str(d, "symbol", e->symbol, sizeof e->symbol);
    e->min = field_i64(d, "min");
    e->max = field_i64(d, "max");
    e->div = field_i64(d, "div");
    e->block_rows = field_i64(d, "block_rows");
    e->small_rows = field_i64(d, "small_rows");
    MlirAttribute kind = mlirDictionaryAttrGetElementByName(d, braze_ref("kind"));
    if (!mlirAttributeIsNull(kind)) { /* "loops" */
      e->loops = true;
      e->num_inputs = (int)field_i64(d, "num_inputs");
      MlirAttribute args = mlirDictionaryAttrGetElementByName(d, braze_ref("args"));
      e->num_args = (int)mlirArrayAttrGetNumElements(args);
      for (int k = 0; k < e->num_args && k < 64; ++k) {
        MlirAttribute a = mlirArrayAttrGetElement(args, k);
        BrazeArgInfo *info = &e->args[k];
        info->dtype = (int)mlirDenseI64ArrayGetElement(a, 0);
        info->rank = (int)mlirDenseI64ArrayGetElement(a, 1);
        for (int j = 0; j < BRAZE_ABI_MAX_RANK; ++j)
          info->dims[j] = j < info->rank ? mlirDenseI64ArrayGetElement(a, 2 + j) : 1;
        for (int j = 0; j < info->rank; ++j)
          e->rows[k] = e->rows[k] || info->dims[j] == -1;
      }
      continue;
    }
    MlirAttribute rows = mlirDictionaryAttrGetElementByName(d, braze_ref("rows"));
    e->num_args = (int)mlirDenseArrayGetNumElements(rows);
    for (int k = 0; k < e->num_args; ++k)
      e->rows[k] = mlirDenseI64ArrayGetElement(rows, k) != 0;
  }
  return out;
}
