/* Specializing a function with symbolic dims at concrete sizes, and finding the
 * sizes from concrete argument shapes (dialects/graph/symbols.h). The reference
 * interpreter, the graph verifier's dtype pass and the CPU target's row blocks use it. */
#include <stdlib.h>
#include <string.h>

#include "dialects/graph/symbols.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/diag.h"

static MlirType concrete_type(MlirType t, const BrazeSymShape *s, const int64_t *values, bool *ok) {
  int64_t dims[BRAZE_MAX_RANK];
  for (intptr_t d = 0; d < s->rank; ++d)
    if (!braze_sym_eval(&s->dim[d], values, &dims[d]) || dims[d] < 0)
      *ok = false;
  return mlirRankedTensorTypeGet(s->rank, dims, mlirShapedTypeGetElementType(t), mlirRankedTensorTypeGetEncoding(t));
}

/* arg_attrs without graph.dims. */
static void drop_dims_attrs(MlirOperation func) {
  MlirAttribute arg_attrs = mlirOperationGetAttributeByName(func, braze_ref("arg_attrs"));
  if (mlirAttributeIsNull(arg_attrs) || !mlirAttributeIsAArray(arg_attrs))
    return;
  MlirContext ctx = mlirOperationGetContext(func);
  intptr_t n = mlirArrayAttrGetNumElements(arg_attrs);
  MlirAttribute *dicts = malloc((size_t)(n ? n : 1) * sizeof *dicts);
  for (intptr_t i = 0; i < n; ++i) {
    MlirAttribute d = mlirArrayAttrGetElement(arg_attrs, i);
    intptr_t k = mlirDictionaryAttrGetNumElements(d), m = 0;
    MlirNamedAttribute *keep = malloc((size_t)(k ? k : 1) * sizeof *keep);
    for (intptr_t j = 0; j < k; ++j) {
      MlirNamedAttribute e = mlirDictionaryAttrGetElement(d, j);
      if (!braze_ref_eq(mlirIdentifierStr(e.name), BRAZE_DIMS_ATTR))
        keep[m++] = e;
    }
    dicts[i] = mlirDictionaryAttrGet(ctx, m, keep);
    free(keep);
  }
  mlirOperationSetAttributeByName(func, braze_ref("arg_attrs"), mlirArrayAttrGet(ctx, n, dicts));
  free(dicts);
}

static void update_function_type(MlirOperation func) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  MlirType fn = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(func, braze_ref("function_type")));
  intptr_t n_in = mlirBlockGetNumArguments(entry), n_out = mlirFunctionTypeGetNumResults(fn);
  MlirType *ins = malloc((size_t)(n_in + 1) * sizeof *ins), *outs = malloc((size_t)(n_out + 1) * sizeof *outs);
  for (intptr_t i = 0; i < n_in; ++i)
    ins[i] = mlirValueGetType(mlirBlockGetArgument(entry, i));
  MlirOperation ret = mlirBlockGetTerminator(entry);
  for (intptr_t i = 0; i < n_out; ++i)
    outs[i] = !mlirOperationIsNull(ret) && i < mlirOperationGetNumOperands(ret)
                  ? mlirValueGetType(mlirOperationGetOperand(ret, i))
                  : mlirFunctionTypeGetResult(fn, i);
  MlirType nt = mlirFunctionTypeGet(mlirOperationGetContext(func), n_in, ins, n_out, outs);
  mlirOperationSetAttributeByName(func, braze_ref("function_type"), mlirTypeAttrGet(nt));
  free(ins);
  free(outs);
}

bool braze_sym_specialize(MlirOperation func, const int64_t *values) {
  BrazeSymShapes s;
  bool ok = braze_sym_infer(func, &s);
  for (int i = 0; ok && i < s.table.count; ++i) {
    BrazeStr why = {0};
    if (!braze_sym_check_value(&s.table, i, values[i], &why)) {
      braze_emit_error(mlirOperationGetLocation(func), "'func.func' op cannot specialize: %s", braze_str_cstr(&why));
      ok = false;
    }
    braze_str_free(&why);
  }
  for (int i = 0; ok && i < s.count; ++i) {
    MlirType t = mlirValueGetType(s.values[i]);
    if (mlirTypeIsARankedTensor(t) && !mlirShapedTypeHasStaticShape(t))
      mlirValueSetType(s.values[i], concrete_type(t, &s.shapes[i], values, &ok));
  }
  if (ok) {
    update_function_type(func);
    drop_dims_attrs(func);
    mlirOperationRemoveAttributeByName(func, braze_ref(BRAZE_SYMBOLS_ATTR));
  } else if (s.table.count) {
    braze_emit_error(mlirOperationGetLocation(func), "'func.func' op cannot specialize its symbolic dims");
  }
  braze_sym_shapes_free(&s);
  return ok;
}

bool braze_sym_bind_shapes(MlirOperation func, const BrazeSymTable *table, int num_args, const int64_t *ranks,
                           const int64_t *dims, int64_t *values, BrazeStr *why) {
  BrazeSymShapes s;
  if (!braze_sym_infer(func, &s)) {
    braze_sym_shapes_free(&s);
    braze_str_puts(why, "the function's symbolic shapes do not verify");
    return false;
  }
  bool seen[BRAZE_MAX_SYMBOLS] = {false};
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  bool ok = num_args == mlirBlockGetNumArguments(entry);
  if (!ok)
    braze_str_printf(why, "expected %lld arguments, got %d", (long long)mlirBlockGetNumArguments(entry), num_args);
  for (int i = 0; ok && i < num_args; ++i) {
    const BrazeSymShape *sh = braze_sym_shape_of(&s, mlirBlockGetArgument(entry, i));
    if (!sh)
      continue;
    if (sh->rank != ranks[i]) {
      braze_str_printf(why, "input #%d has rank %lld; expected %lld", i, (long long)ranks[i], (long long)sh->rank);
      ok = false;
    }
    for (intptr_t d = 0; ok && d < sh->rank; ++d) {
      int64_t n = dims[i * BRAZE_MAX_RANK + d], c;
      int k = braze_sym_as_var(&sh->dim[d]);
      if (k >= 0 && !seen[k]) {
        seen[k] = true;
        values[k] = n;
      } else if (k >= 0 && values[k] != n) {
        braze_str_printf(why, "input #%d dim %lld is %lld but %s = %lld from an earlier input", i, (long long)d,
                         (long long)n, table->sym[k].name, (long long)values[k]);
        ok = false;
      } else if (k < 0 && braze_sym_is_const(&sh->dim[d], &c) && c != n) {
        braze_str_printf(why, "input #%d dim %lld is %lld; expected %lld", i, (long long)d, (long long)n,
                         (long long)c);
        ok = false;
      }
    }
  }
  for (int k = 0; ok && k < table->count; ++k) {
    if (!seen[k]) {
      braze_str_printf(why, "no input has a dim bound to %s", table->sym[k].name);
      ok = false;
    } else {
      ok = braze_sym_check_value(table, k, values[k], why);
    }
  }
  braze_sym_shapes_free(&s);
  return ok;
}

bool braze_sym_parse_values(const BrazeSymTable *table, const char *text, int64_t *values, BrazeStr *why) {
  bool seen[BRAZE_MAX_SYMBOLS] = {false};
  const char *p = text;
  while (*p) {
    const char *eq = strchr(p, '=');
    if (!eq) {
      braze_str_printf(why, "expected NAME=VALUE in '%s'", text);
      return false;
    }
    int k = braze_sym_lookup(table, p, (size_t)(eq - p));
    if (k < 0) {
      braze_str_printf(why, "'%.*s' is not a symbol of the function", (int)(eq - p), p);
      return false;
    }
    char *end;
    long long v = strtoll(eq + 1, &end, 10);
    if (end == eq + 1 || (*end && *end != ',')) {
      braze_str_printf(why, "expected an integer after '%.*s='", (int)(eq - p), p);
      return false;
    }
    values[k] = v;
    seen[k] = true;
    if (!braze_sym_check_value(table, k, v, why))
      return false;
    p = *end ? end + 1 : end;
  }
  for (int k = 0; k < table->count; ++k)
    if (!seen[k]) {
      braze_str_printf(why, "no value given for %s", table->sym[k].name);
      return false;
    }
  return true;
}
