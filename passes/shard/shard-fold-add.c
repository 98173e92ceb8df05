/* shard-fold-add: move an add of a value every rank of the group holds alike into the
 * partial sums of the all_reduce before it:
 *
 *   %s = graph.all_reduce(%p) {mesh_axes = A, reduction = "sum"}
 *   %y = graph.add(%s, %x)                         (or add(%x, %s))
 * becomes
 *   %h = graph.mul(%x, 1/n)                        (n = the group's size)
 *   %q = graph.add(%p, %h)
 *   %y = graph.all_reduce(%q) {mesh_axes = A, reduction = "sum"}
 *
 * The n ranks each add x/n to their partial sum, and the all_reduce adds the n
 * copies back up to x. What it buys: the add runs inside the kernel that makes the
 * partial sum (a matmul template's epilogue) instead of as a kernel of its own after
 * the collective, where nothing overlaps it (the residual add after a row-split
 * projection: Megatron's FFN and attention out-projection; decision 0020), and the
 * collective's result is the final value, which the CUDA entry writes in place into
 * the function's result (targets/common/entry-graph.c, "concats of collectives").
 *
 * Exactness: n is a power of two, so x/n is exact (unless x/n is subnormal in the
 * element type) and the n copies sum to x exactly; each rank rounds p + x/n once more
 * than the unfolded program rounds p, so results differ from it by the element type's
 * rounding (docs/sharding.md "Precision").
 *
 * x must be the same on every rank of the group: a function argument whose sharding
 * splits no dim over an axis of the group, a constant, the result of an all_reduce or
 * all_gather over (at least) the group's axes, or a graph op of such values.
 *
 * Options (docs/passes.md#shard-fold-add):
 *   remarks   a remark per all_reduce: folded, or why not
 * Left alone (a remark says why): a reduction other than sum, an integer element
 * type, a group whose size is not a power of two, a sum read by anything but one add,
 * an addend that may differ between the ranks of the group or that broadcasts the
 * sum to a larger shape (more to communicate). Runs on partitioned functions
 * (braze.partitioned) only. */
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "dialects/graph/graph.h"
#include "dialects/graph/mesh.h"
#include "passes/graph/builder.h"
#include "passes/shard/shard-passes.h"
#include "support/context.h"
#include "support/diag.h"
#include "support/oplist.h"
#include "support/ptrmap.h"

typedef struct {
  bool remarks;
} Options;

static const char *const option_names[] = {"remarks", NULL};

static void *create_state(const BrazePassOptions *opts, BrazeStr *error) {
  Options *o = calloc(1, sizeof *o);
  if (braze_options_check(opts, "shard-fold-add", option_names, error) &&
      braze_option_bool(opts, "remarks", false, &o->remarks, error))
    return o;
  free(o);
  return NULL;
}

static void destroy_state(void *state) { free(state); }

/* ---- which values every rank of a group holds alike ---- */

typedef struct {
  MlirOperation func;
  const BrazeMesh *mesh;
  unsigned axes;    /* the group: a bit per mesh axis */
  BrazePtrMap memo; /* value -> 1 alike, 2 not */
} Alike;

/* A collective's group: a bit per mesh axis its mesh_axes name, and its size; false
 * when mesh_axes is malformed (the verifier reports it). */
static bool collective_group(MlirOperation op, const BrazeMesh *mesh, unsigned *bits, int64_t *size) {
  int axes[BRAZE_MESH_MAX_AXES], n = 0;
  BrazeStr why = {0};
  bool ok = braze_collective_axes(op, mesh, axes, &n, size, &why);
  braze_str_free(&why);
  *bits = 0;
  for (int i = 0; ok && i < n; ++i)
    *bits |= 1u << axes[i];
  return ok;
}

/* An argument's braze.sharding splits no dim over an axis of the group. */
static bool argument_alike(const Alike *a, MlirValue arg) {
  intptr_t i = mlirBlockArgumentGetArgNumber(arg);
  MlirAttribute attrs = mlirOperationGetAttributeByName(a->func, braze_ref("arg_attrs"));
  if (mlirAttributeIsNull(attrs) || !mlirAttributeIsAArray(attrs) || i >= mlirArrayAttrGetNumElements(attrs))
    return true;
  MlirAttribute dict = mlirArrayAttrGetElement(attrs, i);
  MlirAttribute attr = mlirAttributeIsADictionary(dict)
                           ? mlirDictionaryAttrGetElementByName(dict, braze_ref("braze.sharding"))
                           : (MlirAttribute){NULL};
  if (mlirAttributeIsNull(attr))
    return true;
  BrazeSharding s;
  BrazeStr why = {0};
  bool parsed = braze_sharding_from_attr(attr, a->mesh, (int)braze_rank(mlirValueGetType(arg)), &s, &why);
  braze_str_free(&why);
  if (!parsed)
    return false;
  for (int d = 0; d < s.rank; ++d)
    if (s.split[d] >= 0 && (a->axes >> s.split[d] & 1u) && a->mesh->sizes[s.split[d]] > 1)
      return false;
  return true;
}

static bool alike(Alike *a, MlirValue v) {
  if (mlirValueIsABlockArgument(v))
    return argument_alike(a, v);
  uint64_t key = braze_ptr_key(v.ptr);
  int known = braze_ptrmap_get(&a->memo, key, 0);
  if (known)
    return known == 1;
  MlirOperation op = mlirOpResultGetOwner(v);
  bool same;
  if (!braze_is_graph_op(op)) {
    same = false;
  } else if (braze_graph_op_class(op) == GRAPH_COLLECTIVE) {
    unsigned bits = 0;
    int64_t size = 0;
    same = (braze_op_is(op, "graph.all_reduce") || braze_op_is(op, "graph.all_gather")) &&
           collective_group(op, a->mesh, &bits, &size) && (bits & a->axes) == a->axes;
  } else {
    same = true;
    for (intptr_t i = 0; same && i < mlirOperationGetNumOperands(op); ++i)
      same = alike(a, mlirOperationGetOperand(op, i));
  }
  braze_ptrmap_put(&a->memo, key, same ? 1 : 2);
  return same;
}

/* ---- the rewrite ---- */

static bool is_float(MlirType t) {
  return mlirTypeIsAF32(t) || mlirTypeIsAF16(t) || mlirTypeIsABF16(t) || mlirTypeIsAF64(t);
}

/* The one add reading `sum`, and which of its operands is the other one; null when the
 * sum has another reader. */
static MlirOperation only_add(MlirValue sum, int *other) {
  if (!braze_single_use(sum))
    return (MlirOperation){NULL};
  MlirOpOperand first = mlirValueGetFirstUse(sum);
  MlirOperation user = mlirOpOperandGetOwner(first);
  if (!braze_op_is(user, "graph.add"))
    return (MlirOperation){NULL};
  *other = 1 - (int)mlirOpOperandGetOperandNumber(first);
  return user;
}

/* Why the all_reduce is left alone, or NULL (then *add and *addend are set). */
static const char *refusal(MlirOperation reduce, Alike *a, int64_t group, MlirOperation *add, MlirValue *addend) {
  MlirAttribute red = mlirOperationGetAttributeByName(reduce, braze_ref("reduction"));
  if (mlirAttributeIsNull(red) || !braze_ref_eq(mlirStringAttrGetValue(red), "sum"))
    return "not a sum";
  MlirValue sum = mlirOperationGetResult(reduce, 0);
  if (!is_float(braze_element_type(mlirValueGetType(sum))))
    return "an integer sum (x/n is not exact)";
  if (group < 2 || (group & (group - 1)))
    return "the group's size is not a power of two (x/n is not exact)";
  int other = 0;
  *add = only_add(sum, &other);
  if (mlirOperationIsNull(*add))
    return "the sum is read by something other than one graph.add";
  *addend = mlirOperationGetOperand(*add, other);
  if (!mlirTypeEqual(mlirValueGetType(mlirOperationGetResult(*add, 0)), mlirValueGetType(sum)))
    return "the addend broadcasts the sum to a larger shape";
  if (!alike(a, *addend))
    return "the addend may differ between the ranks of the group";
  return NULL;
}

/* add(all_reduce(p), x) -> all_reduce(add(p, mul(x, 1/n))), the new ops before the add. */
static void fold(MlirOperation reduce, MlirOperation add, MlirValue x, int64_t group) {
  GraphBuilder b = braze_gb_before(add);
  MlirValue p = mlirOperationGetOperand(reduce, 0);
  MlirValue share = braze_gb_binary(&b, "mul", x,
                                    braze_gb_scalar(&b, braze_element_type(mlirValueGetType(x)), 1.0 / (double)group));
  MlirValue q = braze_gb_binary(&b, "add", p, share);
  MlirOperation sum = mlirOperationClone(reduce);
  mlirOperationSetOperand(sum, 0, q);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(add), add, sum);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(add, 0), mlirOperationGetResult(sum, 0));
  mlirOperationDestroy(add);
  mlirOperationDestroy(reduce);
}

static bool is_all_reduce(MlirOperation op) { return braze_op_is(op, "graph.all_reduce"); }

static bool run(MlirOperation func, void *state) {
  const Options *o = state;
  if (mlirAttributeIsNull(mlirOperationGetAttributeByName(func, braze_ref("braze.partitioned"))))
    return true;
  BrazeMesh mesh;
  bool present = false;
  BrazeStr why = {0};
  bool has_mesh = braze_mesh_from_func(func, &mesh, &present, &why) && present;
  braze_str_free(&why);
  if (!has_mesh)
    return true; /* shard-partition verified the mesh; nothing to fold without one */
  BrazeOpList reduces = {0};
  braze_op_list_collect(func, is_all_reduce, &reduces);
  for (size_t i = 0; i < reduces.count; ++i) {
    MlirOperation reduce = reduces.ops[i], add = {NULL};
    MlirLocation loc = mlirOperationGetLocation(reduce);
    Alike a = {.func = func, .mesh = &mesh};
    int64_t group = 0;
    if (!collective_group(reduce, &mesh, &a.axes, &group))
      continue; /* the verifier reports it */
    MlirValue x = {NULL};
    const char *no = refusal(reduce, &a, group, &add, &x);
    braze_ptrmap_free(&a.memo);
    if (no) {
      if (o->remarks)
        braze_emit_remark(loc, "shard-fold-add: all_reduce left as it is: %s", no);
      continue;
    }
    fold(reduce, add, x, group);
    if (o->remarks)
      braze_emit_remark(loc, "shard-fold-add: the add after the all_reduce folded into its partial sums (each of "
                             "the %lld ranks adds the addend / %lld)",
                        (long long)group, (long long)group);
  }
  braze_op_list_free(&reduces);
  return true;
}

const BrazePassInfo braze_pass_shard_fold_add = {
    .argument = "shard-fold-add",
    .summary = "Fold an add of a value alike on every rank into the partial sums of the all_reduce before it: "
               "add(all_reduce(p), x) -> all_reduce(p + x/n)",
    .options_help = "    remarks              a remark per all_reduce: folded, or why not\n",
    .anchor = "func.func",
    .create_state = create_state,
    .destroy_state = destroy_state,
    .run = run,
};
