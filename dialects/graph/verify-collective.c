/* Graph verifier rules for sharded programs (decision 0015, docs/dialect-graph.md
 * "Collectives"): the collectives' local shape rules with their group size, and a
 * function's braze.mesh with its arguments' and results' braze.sharding. */
#include <string.h>

#include "dialects/graph/mesh.h"
#include "dialects/graph/verify-internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/diag.h"

/* The group size of the collective `v`, from the enclosing function's mesh. */
static bool group_size_of(const GvOp *v, int64_t *group) {
  MlirOperation func = braze_enclosing_func(mlirOperationGetParentOperation(v->op));
  BrazeMesh mesh;
  bool present = false;
  BrazeStr why = {0};
  bool ok = !mlirOperationIsNull(func) && braze_mesh_from_func(func, &mesh, &present, &why);
  if (ok && !present)
    braze_str_puts(&why, "needs a mesh: the enclosing func.func has no braze.mesh attribute");
  int axes[BRAZE_MESH_MAX_AXES], num_axes = 0;
  ok = ok && present && braze_collective_axes(v->op, &mesh, axes, &num_axes, group, &why);
  if (!ok)
    gv_fail(v, "%s", why.len ? braze_str_cstr(&why) : "is not inside a func.func");
  braze_str_free(&why);
  return ok;
}

/* reduction = "sum" | "max" | "min"; a sum of i1 is refused (it would wrap). */
static bool check_reduction(const GvOp *v) {
  const char *s = NULL;
  size_t n = 0;
  if (!braze_attr_str(v->op, "reduction", &s, &n) ||
      !((n == 3 && (!memcmp(s, "sum", 3) || !memcmp(s, "max", 3) || !memcmp(s, "min", 3)))))
    return gv_fail(v, "expects a string attribute 'reduction' = \"sum\", \"max\" or \"min\"");
  if (!memcmp(s, "sum", 3) && gv_is_i1(v->in[0].elt))
    return gv_fail(v, "a sum over i1 is not defined; use \"max\" (or) or \"min\" (and)");
  return true;
}

/* The input shape with `dim` divided by (div) or multiplied by (!div) `group`. */
static bool expect_scaled(const GvOp *v, int64_t *dims, int64_t dim, int64_t group, bool div, const char *what) {
  if (div && dims[dim] % group != 0)
    return gv_fail(v, "%s %lld has size %lld, not divisible by the group size %lld", what, (long long)dim,
                   (long long)dims[dim], (long long)group);
  dims[dim] = div ? dims[dim] / group : dims[dim] * group;
  return true;
}

bool gv_verify_collective(const GvOp *v) {
  int64_t group = 1;
  if (!group_size_of(v, &group) || !gv_same_elt(v, &v->in[0], "operand", &v->res, "result"))
    return false;
  const GvTensor *x = &v->in[0];
  int64_t dims[BRAZE_MAX_RANK];
  memcpy(dims, x->dims, sizeof dims);
  int64_t dim = 0, other = 0;
  if (!strcmp(v->mnemonic, "all_reduce"))
    return check_reduction(v) && gv_result_shape_is(v, dims, x->rank, "an all_reduce keeps the operand's shape");
  if (!strcmp(v->mnemonic, "all_to_all")) {
    if (!gv_dim_attr(v, "split_dim", x->rank, &dim) || !gv_dim_attr(v, "concat_dim", x->rank, &other))
      return false;
    if (dim == other)
      return gv_fail(v, "split_dim and concat_dim are both %lld; expected two different dims", (long long)dim);
    return expect_scaled(v, dims, dim, group, true, "split_dim") &&
           expect_scaled(v, dims, other, group, false, "concat_dim") &&
           gv_result_shape_is(v, dims, x->rank, "split_dim divided and concat_dim multiplied by the group size");
  }
  if (!gv_dim_attr(v, "dim", x->rank, &dim))
    return false;
  if (!strcmp(v->mnemonic, "all_gather"))
    return expect_scaled(v, dims, dim, group, false, "dim") &&
           gv_result_shape_is(v, dims, x->rank, "dim multiplied by the group size");
  if (!strcmp(v->mnemonic, "reduce_scatter") && !check_reduction(v))
    return false;
  return expect_scaled(v, dims, dim, group, true, "dim") &&
         gv_result_shape_is(v, dims, x->rank, "dim divided by the group size");
}

/* ---- a function's mesh and shardings ---- */

static void emit_func_error(MlirOperation func, const char *where, long long index, const char *why) {
  MlirAttribute name = mlirOperationGetAttributeByName(func, braze_ref("sym_name"));
  MlirStringRef sym = mlirAttributeIsAString(name) ? mlirStringAttrGetValue(name) : braze_ref("");
  if (index >= 0)
    braze_emit_error(mlirOperationGetLocation(func), "'func.func' op @%.*s %s #%lld: %s", (int)sym.length, sym.data,
                     where, index, why);
  else
    braze_emit_error(mlirOperationGetLocation(func), "'func.func' op @%.*s: %s", (int)sym.length, sym.data, why);
}

/* The braze.sharding of entry i of `arg_attrs`/`res_attrs`, null when none. */
static MlirAttribute sharding_of(MlirOperation func, const char *list, intptr_t i) {
  MlirAttribute attrs = mlirOperationGetAttributeByName(func, braze_ref(list));
  if (mlirAttributeIsNull(attrs) || !mlirAttributeIsAArray(attrs) || i >= mlirArrayAttrGetNumElements(attrs))
    return (MlirAttribute){NULL};
  MlirAttribute dict = mlirArrayAttrGetElement(attrs, i);
  if (!mlirAttributeIsADictionary(dict))
    return (MlirAttribute){NULL};
  return mlirDictionaryAttrGetElementByName(dict, braze_ref("braze.sharding"));
}

/* Every annotated argument/result of `fn` (its type) parses on `mesh`. */
static bool check_annotations(MlirOperation func, MlirType fn, const BrazeMesh *mesh, bool has_mesh) {
  intptr_t n_in = mlirFunctionTypeGetNumInputs(fn), n = n_in + mlirFunctionTypeGetNumResults(fn);
  for (intptr_t i = 0; i < n; ++i) {
    bool is_arg = i < n_in;
    intptr_t k = is_arg ? i : i - n_in;
    MlirAttribute s = sharding_of(func, is_arg ? "arg_attrs" : "res_attrs", k);
    if (mlirAttributeIsNull(s))
      continue;
    const char *where = is_arg ? "argument" : "result";
    if (!has_mesh) {
      emit_func_error(func, where, (long long)k, "braze.sharding needs a braze.mesh attribute on the function");
      return false;
    }
    MlirType t = is_arg ? mlirFunctionTypeGetInput(fn, k) : mlirFunctionTypeGetResult(fn, k);
    if (!mlirTypeIsARankedTensor(t))
      continue; /* the signature check reports non-tensors where they matter */
    BrazeSharding sharding;
    BrazeStr why = {0};
    bool ok = braze_sharding_from_attr(s, mesh, (int)mlirShapedTypeGetRank(t), &sharding, &why);
    if (!ok)
      emit_func_error(func, where, (long long)k, braze_str_cstr(&why));
    braze_str_free(&why);
    if (!ok)
      return false;
  }
  return true;
}

bool gv_verify_func_sharding(MlirOperation func) {
  MlirAttribute type = mlirOperationGetAttributeByName(func, braze_ref("function_type"));
  if (mlirAttributeIsNull(type) || !mlirAttributeIsAType(type) || !mlirTypeIsAFunction(mlirTypeAttrGetValue(type)))
    return true;
  BrazeMesh mesh;
  bool present = false;
  BrazeStr why = {0};
  if (!braze_mesh_from_func(func, &mesh, &present, &why)) {
    emit_func_error(func, "", -1, braze_str_cstr(&why));
    braze_str_free(&why);
    return false;
  }
  return check_annotations(func, mlirTypeAttrGetValue(type), &mesh, present);
}
