/* `braze import --dim NAME=MIN:MAX[:DIV]`: ONNX dim_params kept as symbols
 * (decision 0029).
 *
 * The importer's converters compute static shapes. Rather than teach each of them
 * shape expressions, the model is imported once at a base size of every symbol and
 * once more per symbol at a second size (each graph input carrying the dim_param gets
 * a --shape at that size). The imports must agree op for op: same ops, same
 * attributes (a constant computed from the dim, e.g. a folded Shape, differs and is
 * refused at its op), and each dim either equal in all, or k*NAME in the import that
 * moves NAME. Those dims become `?`, the arguments' `?` dims are bound to their
 * symbols, and the symbolic verifier (dialects/graph/symbols-infer.c) then checks the
 * whole function with shape expressions, at the importer's locations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/graph/symbols.h"
#include "import/onnx-internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/diag.h"

bool braze_onnx_parse_dim(const char *spec, BrazeOnnxDim *out) {
  memset(out, 0, sizeof *out);
  const char *eq = strchr(spec, '=');
  if (!eq || eq == spec || (size_t)(eq - spec) >= sizeof out->name)
    return false;
  memcpy(out->name, spec, (size_t)(eq - spec));
  long long v[3] = {0, 0, 1};
  int n = 0;
  const char *p = eq + 1;
  while (n < 3) {
    char *end;
    v[n++] = strtoll(p, &end, 10);
    if (end == p)
      return false;
    if (!*end)
      break;
    if (*end != ':')
      return false;
    p = end + 1;
  }
  if (n < 2 || *p == 0)
    return false;
  out->min = v[0];
  out->max = v[1];
  out->div = n == 3 ? v[2] : 1;
  return out->min >= 1 && out->max >= out->min && out->div >= 1 && out->max <= ((int64_t)1 << 40);
}

/* The two sizes each symbol is imported at: the smallest legal one >= 2 and the next. */
static bool probe_sizes(MlirLocation loc, const BrazeOnnxDim *d, int64_t *base, int64_t *alt) {
  int64_t lo = d->min < 2 ? 2 : d->min;
  *base = (lo + d->div - 1) / d->div * d->div;
  *alt = *base + d->div;
  if (*alt > d->max)
    *alt = *base - d->div >= d->min ? *base - d->div : -1;
  if (*base <= d->max && *alt >= 1)
    return true;
  braze_emit_error(loc, "--dim %s=%lld:%lld:%lld: needs at least two sizes >= 1 in bounds",
                   d->name, (long long)d->min, (long long)d->max, (long long)d->div);
  return false;
}

/* Overrides: the user's --shape, then each graph input with a --dim dim_param at the
 * sizes `sizes` (one per --dim). */
static bool probe_shapes(const Onnx__GraphProto *g, const BrazeOnnxOptions *opts, const BrazeOnnxDim *dims,
                         size_t n, const int64_t *sizes, BrazeOnnxShape **out, size_t *count, MlirLocation loc) {
  *out = calloc(opts->num_shapes + g->n_input + 1, sizeof **out);
  *count = 0;
  for (size_t i = 0; i < opts->num_shapes; ++i)
    (*out)[(*count)++] = opts->shapes[i];
  for (size_t j = 0; j < g->n_input; ++j) {
    const Onnx__ValueInfoProto *vi = g->input[j];
    const Onnx__TypeProto *tp = vi->type;
    if (!tp || tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || !tp->tensor_type || !tp->tensor_type->shape)
      continue;
    const Onnx__TensorShapeProto *sh = tp->tensor_type->shape;
    BrazeOnnxShape s = {.rank = sh->n_dim};
    snprintf(s.name, sizeof s.name, "%s", onnx_str_or_empty(vi->name));
    bool uses = false, complete = sh->n_dim <= BRAZE_ONNX_MAX_RANK;
    for (size_t k = 0; complete && k < sh->n_dim; ++k) {
      const Onnx__TensorShapeProto__Dimension *d = sh->dim[k];
      if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE && d->dim_value > 0) {
        s.dims[k] = d->dim_value;
        continue;
      }
      complete = false;
      for (size_t q = 0; d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM && q < n; ++q)
        if (strcmp(d->dim_param, dims[q].name) == 0) {
          s.dims[k] = sizes[q];
          complete = uses = true;
        }
    }
    if (!uses)
      continue;
    for (size_t i = 0; i < opts->num_shapes; ++i)
      if (strcmp(opts->shapes[i].name, s.name) == 0) {
        braze_emit_error(loc, "graph input '%s' has a --dim symbol: it takes no --shape",
                         s.name);
        return false;
      }
    if (complete) /* else the importer names the other dynamic dim */
      (*out)[(*count)++] = s;
  }
  return true;
}

/* Every op of the module's functions, in walk order. */
typedef struct {
  MlirOperation *ops;
  size_t n, cap;
} OpList;

static MlirWalkResult collect(MlirOperation op, void *user) {
  OpList *l = user;
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 256;
    l->ops = realloc(l->ops, l->cap * sizeof *l->ops);
  }
  l->ops[l->n++] = op;
  return MlirWalkResultAdvance;
}

static bool same_attributes(MlirOperation a, MlirOperation b) {
  intptr_t n = mlirOperationGetNumAttributes(a);
  if (n != mlirOperationGetNumAttributes(b))
    return false;
  for (intptr_t i = 0; i < n; ++i) {
    MlirNamedAttribute x = mlirOperationGetAttribute(a, i), y = mlirOperationGetAttribute(b, i);
    if (braze_ref_eq(mlirIdentifierStr(x.name), "function_type"))
      continue; /* a function's signature differs by the dims, checked value by value */
    if (!mlirIdentifierEqual(x.name, y.name) || !mlirAttributeEqual(x.attribute, y.attribute))
      return false;
  }
  return true;
}

typedef struct {
  MlirContext ctx;
  const BrazeOnnxDim *dims;
  size_t n;
  const int64_t *base, *alt;
} Probe;

/* Compare value `v` of the base import with its twins; mark its symbolic dims in
 * `dyn` and, for an argument, the symbol of each in `sym`. */
static bool compare_value(const Probe *p, MlirValue v, const MlirValue *twins, MlirOperation at, bool *dyn, int *sym) {
  MlirType t = mlirValueGetType(v);
  if (!mlirTypeIsARankedTensor(t))
    return true;
  intptr_t rank = mlirShapedTypeGetRank(t);
  for (intptr_t d = 0; d < rank; ++d) {
    int64_t d0 = mlirShapedTypeGetDimSize(t, d);
    dyn[d] = false;
    sym[d] = -1;
    for (size_t k = 0; k < p->n; ++k) {
      MlirType tk = mlirValueGetType(twins[k]);
      int64_t dk = mlirShapedTypeGetRank(tk) == rank ? mlirShapedTypeGetDimSize(tk, d) : -1;
      if (dk == d0)
        continue;
      bool linear = dk > 0 && d0 % p->base[k] == 0 && dk % p->alt[k] == 0 && d0 / p->base[k] == dk / p->alt[k];
      if (!linear) {
        braze_emit_error(mlirOperationGetLocation(at),
                         "--dim %s: dim %lld is %lld at %s=%lld and %lld at %s=%lld: braze keeps a dim symbolic "
                         "only as a multiple of the symbol here; use --shape",
                         p->dims[k].name, (long long)d, (long long)d0, p->dims[k].name, (long long)p->base[k],
                         (long long)dk, p->dims[k].name, (long long)p->alt[k]);
        return false;
      }
      dyn[d] = true;
      sym[d] = (int)k;
    }
  }
  return true;
}

static MlirType with_dynamic(MlirType t, const bool *dyn) {
  intptr_t rank = mlirShapedTypeGetRank(t);
  int64_t dims[BRAZE_MAX_RANK];
  for (intptr_t d = 0; d < rank; ++d)
    dims[d] = dyn[d] ? mlirShapedTypeGetDynamicSize() : mlirShapedTypeGetDimSize(t, d);
  return mlirRankedTensorTypeGet(rank, dims, mlirShapedTypeGetElementType(t), mlirRankedTensorTypeGetEncoding(t));
}

/* The base function with `?` dims, its arguments bound, graph.symbols set. */
static bool generalize(const Probe *p, MlirOperation func, MlirOperation *twin_funcs, OpList *base, OpList *twins) {
  for (size_t k = 0; k < p->n; ++k)
    if (twins[k].n != base->n) {
      braze_emit_error(mlirOperationGetLocation(func), "--dim %s: the model imports to different graphs at %s=%lld "
                       "and %s=%lld; use --shape", p->dims[k].name, p->dims[k].name, (long long)p->base[k],
                       p->dims[k].name, (long long)p->alt[k]);
      return false;
    }
  MlirValue *tw = malloc((p->n ? p->n : 1) * sizeof *tw);
  bool dyn[BRAZE_MAX_RANK];
  int sym[BRAZE_MAX_RANK];
  bool ok = true;
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  intptr_t n_args = mlirBlockGetNumArguments(entry);
  MlirAttribute *arg_dicts = calloc((size_t)(n_args ? n_args : 1), sizeof *arg_dicts);
  bool used[BRAZE_MAX_SYMBOLS] = {false};
  for (intptr_t a = 0; ok && a < n_args; ++a) {
    MlirValue v = mlirBlockGetArgument(entry, a);
    for (size_t k = 0; k < p->n; ++k)
      tw[k] = mlirBlockGetArgument(mlirRegionGetFirstBlock(mlirOperationGetRegion(twin_funcs[k], 0)), a);
    ok = compare_value(p, v, tw, func, dyn, sym);
    MlirAttribute names[BRAZE_MAX_RANK];
    intptr_t m = 0;
    MlirType t = mlirValueGetType(v);
    for (intptr_t d = 0; ok && mlirTypeIsARankedTensor(t) && d < mlirShapedTypeGetRank(t); ++d)
      if (dyn[d]) {
        names[m++] = mlirStringAttrGet(p->ctx, braze_ref(p->dims[sym[d]].name));
        used[sym[d]] = true;
      }
    MlirNamedAttribute e = mlirNamedAttributeGet(mlirIdentifierGet(p->ctx, braze_ref(BRAZE_DIMS_ATTR)),
                                                 mlirArrayAttrGet(p->ctx, m, names));
    arg_dicts[a] = mlirDictionaryAttrGet(p->ctx, m ? 1 : 0, &e);
    if (ok && m)
      mlirValueSetType(v, with_dynamic(t, dyn));
  }
  for (size_t i = 0; ok && i < base->n; ++i) {
    MlirOperation op = base->ops[i];
    for (size_t k = 0; ok && k < p->n; ++k)
      if (!mlirIdentifierEqual(mlirOperationGetName(op), mlirOperationGetName(twins[k].ops[i])) ||
          mlirOperationGetNumResults(op) != mlirOperationGetNumResults(twins[k].ops[i]) ||
          !same_attributes(op, twins[k].ops[i])) {
        braze_emit_error(mlirOperationGetLocation(op),
                         "--dim %s: this op differs at %s=%lld and %s=%lld (a value computed from the dim, such as "
                         "a folded Shape, became a constant); braze cannot keep %s symbolic here: use --shape",
                         p->dims[k].name, p->dims[k].name, (long long)p->base[k], p->dims[k].name,
                         (long long)p->alt[k], p->dims[k].name);
        ok = false;
      }
    for (intptr_t r = 0; ok && r < mlirOperationGetNumResults(op); ++r) {
      MlirValue v = mlirOperationGetResult(op, r);
      for (size_t k = 0; k < p->n; ++k)
        tw[k] = mlirOperationGetResult(twins[k].ops[i], r);
      ok = compare_value(p, v, tw, op, dyn, sym);
      bool any = false;
      for (intptr_t d = 0; ok && mlirTypeIsARankedTensor(mlirValueGetType(v)) && d < mlirShapedTypeGetRank(mlirValueGetType(v)); ++d)
        any = any || dyn[d];
      if (ok && any)
        mlirValueSetType(v, with_dynamic(mlirValueGetType(v), dyn));
    }
  }
  for (size_t k = 0; ok && k < p->n; ++k)
    if (!used[k]) {
      braze_emit_error(mlirOperationGetLocation(func), "--dim %s: no graph input has the dim_param '%s'",
                       p->dims[k].name, p->dims[k].name);
      ok = false;
    }
  if (ok) {
    mlirOperationSetAttributeByName(func, braze_ref("arg_attrs"), mlirArrayAttrGet(p->ctx, n_args, arg_dicts));
    MlirNamedAttribute syms[BRAZE_MAX_SYMBOLS];
    intptr_t m = 0;
    for (size_t k = 0; k < p->n; ++k) {
      if (!used[k])
        continue;
      int64_t b[3] = {p->dims[k].min, p->dims[k].max, p->dims[k].div};
      syms[m++] = mlirNamedAttributeGet(mlirIdentifierGet(p->ctx, braze_ref(p->dims[k].name)),
                                        mlirDenseI64ArrayGet(p->ctx, 3, b));
    }
    if (m)
      mlirOperationSetAttributeByName(func, braze_ref(BRAZE_SYMBOLS_ATTR), mlirDictionaryAttrGet(p->ctx, m, syms));
    MlirOperation ret = mlirBlockGetTerminator(entry);
    MlirType fn = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(func, braze_ref("function_type")));
    intptr_t n_out = mlirFunctionTypeGetNumResults(fn);
    MlirType *ins = malloc((size_t)(n_args + 1) * sizeof *ins), *outs = malloc((size_t)(n_out + 1) * sizeof *outs);
    for (intptr_t a = 0; a < n_args; ++a)
      ins[a] = mlirValueGetType(mlirBlockGetArgument(entry, a));
    for (intptr_t r = 0; r < n_out; ++r)
      outs[r] = mlirValueGetType(mlirOperationGetOperand(ret, r));
    mlirOperationSetAttributeByName(func, braze_ref("function_type"),
                                    mlirTypeAttrGet(mlirFunctionTypeGet(p->ctx, n_args, ins, n_out, outs)));
    free(ins);
    free(outs);
  }
  free(arg_dicts);
  free(tw);
  return ok;
}

static MlirOperation first_func(MlirModule m) {
  MlirBlock body = mlirModuleGetBody(m);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (braze_op_is(op, "func.func"))
      return op;
  return (MlirOperation){NULL};
}

bool braze_onnx_import_dims(MlirContext ctx, const char *path, const BrazeOnnxOptions *opts, const BrazeOnnxDim *dims,
                            size_t n, MlirModule *out) {
  if (n == 0 || n > BRAZE_MAX_SYMBOLS) {
    braze_emit_error(mlirLocationUnknownGet(ctx), "--dim: 1 to %d symbols", BRAZE_MAX_SYMBOLS);
    return false;
  }
  size_t len = 0;
  char *bytes = braze_read_file(path, &len);
  Onnx__ModelProto *model = bytes ? onnx__model_proto__unpack(NULL, len, (const uint8_t *)bytes) : NULL;
  free(bytes);
  if (!model || !model->graph) /* the plain import reports why */
    return braze_onnx_import_with(ctx, path, opts, out);
  int64_t base[BRAZE_MAX_SYMBOLS], alt[BRAZE_MAX_SYMBOLS], sizes[BRAZE_MAX_SYMBOLS];
  MlirLocation loc = mlirLocationFileLineColGet(ctx, braze_ref(path), 0, 0);
  bool ok = true;
  for (size_t k = 0; ok && k < n; ++k)
    ok = probe_sizes(loc, &dims[k], &base[k], &alt[k]);
  MlirModule mods[BRAZE_MAX_SYMBOLS + 1];
  size_t imported = 0;
  for (size_t i = 0; ok && i <= n; ++i) { /* i == 0: the base; i: symbol i-1 moved */
    for (size_t k = 0; k < n; ++k)
      sizes[k] = (i == k + 1) ? alt[k] : base[k];
    BrazeOnnxShape *shapes = NULL;
    size_t count = 0;
    ok = probe_shapes(model->graph, opts, dims, n, sizes, &shapes, &count, loc);
    BrazeOnnxOptions o = *opts;
    o.shapes = shapes;
    o.num_shapes = count;
    ok = ok && braze_onnx_import_with(ctx, path, &o, &mods[i]);
    imported += ok;
    free(shapes);
  }
  onnx__model_proto__free_unpacked(model, NULL);
  if (ok) {
    Probe p = {.ctx = ctx, .dims = dims, .n = n, .base = base, .alt = alt};
    OpList lists[BRAZE_MAX_SYMBOLS + 1] = {{0}};
    MlirOperation funcs[BRAZE_MAX_SYMBOLS + 1];
    for (size_t i = 0; i <= n; ++i) {
      funcs[i] = first_func(mods[i]);
      if (!mlirOperationIsNull(funcs[i]))
        mlirOperationWalk(funcs[i], collect, &lists[i], MlirWalkPreOrder);
    }
    ok = !mlirOperationIsNull(funcs[0]) && generalize(&p, funcs[0], funcs + 1, &lists[0], lists + 1);
    for (size_t i = 0; i <= n; ++i)
      free(lists[i].ops);
    ok = ok && braze_graph_verify(mlirModuleGetOperation(mods[0]));
  }
  for (size_t i = ok ? 1 : 0; i < imported; ++i)
    mlirModuleDestroy(mods[i]);
  if (ok)
    *out = mods[0];
  return ok;
}
