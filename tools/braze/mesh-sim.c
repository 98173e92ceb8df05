/* The mesh simulation of braze run/check (tools/braze/mesh-sim.h). */
#include "tools/braze/mesh-sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/graph/mesh.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Pass.h"
#include "passes/passes.h"
#include "reference/reference.h"
#include "support/context.h"
#include "tools/braze/common.h"

/* Whether some function has a mesh and is not partitioned yet (a hand-written SPMD
 * program, already partitioned, runs as it is with --mesh=func). */
static bool needs_partition(MlirOperation module) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (braze_op_is(op, "func.func") &&
        mlirAttributeIsNull(mlirOperationGetAttributeByName(op, braze_ref("braze.partitioned"))))
      return true;
  return false;
}

bool braze_mesh_partition(const char *cmd, MlirOperation module, const char *mesh, const char *passes) {
  if (strcmp(mesh, "func") == 0 && !needs_partition(module) && !passes)
    return true;
  BrazeStr text = {0}, error = {0};
  if (strcmp(mesh, "func") == 0)
    braze_str_puts(&text, "builtin.module(shard-partition");
  else
    braze_str_printf(&text, "builtin.module(shard-partition{mesh=%s}", mesh);
  braze_str_printf(&text, "%s%s)", passes ? "," : "", passes ? passes : "");
  MlirPassManager pm = mlirPassManagerCreateOnOperation(mlirOperationGetContext(module), braze_ref("builtin.module"));
  bool ok = braze_pipeline_build(pm, braze_str_cstr(&text), NULL, &error) &&
            mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, module));
  mlirPassManagerDestroy(pm);
  if (error.len)
    fprintf(stderr, "braze %s: --mesh=%s: %s\n", cmd, mesh, braze_str_cstr(&error));
  braze_str_free(&text);
  braze_str_free(&error);
  return ok;
}

/* The braze.sharding of entry i of the function's `list` (arg_attrs / res_attrs). */
static bool entry_sharding(MlirOperation func, const char *list, intptr_t i, const BrazeMesh *mesh, int rank,
                           BrazeSharding *s) {
  braze_sharding_replicated(s, rank);
  MlirAttribute attrs = mlirOperationGetAttributeByName(func, braze_ref(list));
  if (mlirAttributeIsNull(attrs) || !mlirAttributeIsAArray(attrs) || i >= mlirArrayAttrGetNumElements(attrs))
    return true;
  MlirAttribute dict = mlirArrayAttrGetElement(attrs, i);
  MlirAttribute a = mlirAttributeIsADictionary(dict) ? mlirDictionaryAttrGetElementByName(dict, braze_ref("braze.sharding"))
                                                     : (MlirAttribute){NULL};
  BrazeStr why = {0};
  bool ok = mlirAttributeIsNull(a) || braze_sharding_from_attr(a, mesh, rank, s, &why);
  braze_str_free(&why);
  for (int d = 0; ok && d < rank; ++d) /* splits over axes of one device are none (as in the analysis) */
    if (s->split[d] >= 0 && mesh->sizes[s->split[d]] == 1)
      s->split[d] = -1;
  return ok;
}

/* Where rank `coords`' local piece of shape `local` starts in the global tensor. */
static void piece_offsets(const BrazeSharding *s, const int64_t *coords, const int64_t *local, int64_t *offsets) {
  for (int d = 0; d < s->rank; ++d)
    offsets[d] = s->split[d] >= 0 ? coords[s->split[d]] * local[d] : 0;
}

static int64_t linear(const int64_t *idx, const int64_t *shape, int rank, const int64_t *offsets) {
  int64_t at = 0;
  for (int d = 0; d < rank; ++d)
    at = at * shape[d] + idx[d] + (offsets ? offsets[d] : 0);
  return at;
}

static bool next_index(int64_t *idx, const int64_t *shape, int rank) {
  for (int d = rank - 1; d >= 0; --d) {
    if (++idx[d] < shape[d])
      return true;
    idx[d] = 0;
  }
  return false;
}

/* Copy the local piece out of (into, when `into`) the global tensor; with `compare`
 * count the elements that differ instead of writing. */
static int64_t transfer(BrazeHostTensor *global, BrazeHostTensor *local, const int64_t *offsets, bool into, bool compare) {
  int64_t idx[BRAZE_TENSOR_MAX_RANK] = {0}, differ = 0;
  if (braze_tensor_numel(local) == 0)
    return 0;
  do {
    int64_t g = linear(idx, global->shape, global->rank, offsets), l = linear(idx, local->shape, local->rank, NULL);
    double a = global->data[g], b = local->data[l];
    if (compare)
      differ += !(a == b || (isnan(a) && isnan(b)));
    else if (into)
      global->data[g] = b;
    else
      local->data[l] = a;
  } while (next_index(idx, local->shape, local->rank));
  return differ;
}

typedef struct {
  MlirOperation func;
  BrazeMesh mesh;
  int64_t n_ranks;
  MlirType fn; /* the partitioned (local) function type */
} Sim;

static bool split_inputs(const Sim *sim, const BrazeHostTensor *inputs, size_t n_in, BrazeHostTensor **per_rank) {
  for (int64_t r = 0; r < sim->n_ranks; ++r) {
    int64_t coords[BRAZE_MESH_MAX_AXES];
    braze_mesh_coords(&sim->mesh, r, coords);
    per_rank[r] = calloc(n_in ? n_in : 1, sizeof **per_rank);
    for (size_t i = 0; i < n_in; ++i) {
      BrazeSharding s;
      BrazeHostTensor *piece = &per_rank[r][i];
      int64_t offsets[BRAZE_TENSOR_MAX_RANK];
      if (!entry_sharding(sim->func, "arg_attrs", (intptr_t)i, &sim->mesh, inputs[i].rank, &s) ||
          !braze_tensor_init_from_type(piece, mlirFunctionTypeGetInput(sim->fn, (intptr_t)i)))
        return false;
      bool fits = inputs[i].rank == piece->rank;
      for (int d = 0; fits && d < piece->rank; ++d)
        fits = inputs[i].shape[d] == piece->shape[d] * (s.split[d] >= 0 ? sim->mesh.sizes[s.split[d]] : 1);
      if (!fits) {
        fprintf(stderr, "braze: input %zu does not make up argument %zu's local pieces (a partitioned function's "
                        "split arguments need global inputs: give the unpartitioned function)\n", i, i);
        return false;
      }
      piece_offsets(&s, coords, piece->shape, offsets);
      transfer((BrazeHostTensor *)&inputs[i], piece, offsets, false, false);
    }
  }
  return true;
}

/* Result i from every rank: the ranks at coordinate 0 on the axes that do not split
 * it write their pieces, every other rank's piece must equal what is there. */
static bool assemble(const char *cmd, const Sim *sim, BrazeHostTensor **per_rank, size_t i, BrazeHostTensor *out) {
  const BrazeHostTensor *first = &per_rank[0][i];
  BrazeSharding s;
  if (!entry_sharding(sim->func, "res_attrs", (intptr_t)i, &sim->mesh, first->rank, &s))
    return false;
  int64_t shape[BRAZE_TENSOR_MAX_RANK];
  for (int d = 0; d < first->rank; ++d)
    shape[d] = first->shape[d] * (s.split[d] >= 0 ? sim->mesh.sizes[s.split[d]] : 1);
  if (!braze_tensor_init(out, first->dtype, first->rank, shape))
    return false;
  uint8_t splitting = 0;
  for (int d = 0; d < s.rank; ++d)
    if (s.split[d] >= 0)
      splitting |= (uint8_t)(1u << s.split[d]);
  for (int pass = 0; pass < 2; ++pass)
    for (int64_t r = 0; r < sim->n_ranks; ++r) {
      int64_t coords[BRAZE_MESH_MAX_AXES], offsets[BRAZE_TENSOR_MAX_RANK];
      braze_mesh_coords(&sim->mesh, r, coords);
      bool canonical = true;
      for (int a = 0; a < sim->mesh.num_axes; ++a)
        canonical = canonical && ((splitting & (1u << a)) || coords[a] == 0);
      if (canonical != (pass == 0))
        continue;
      piece_offsets(&s, coords, per_rank[r][i].shape, offsets);
      int64_t differ = transfer(out, &per_rank[r][i], offsets, true, pass == 1);
      if (differ) {
        fprintf(stderr, "braze %s: result %zu: rank %lld's replica differs from the others in %lld elements\n", cmd, i,
                (long long)r, (long long)differ);
        return false;
      }
    }
  return true;
}

bool braze_mesh_run(const char *cmd, MlirOperation func, const BrazeHostTensor *inputs, size_t n_in,
                    BrazeHostTensor **outputs, size_t *n_out) {
  Sim sim = {.func = func};
  bool present = false;
  BrazeStr why = {0};
  *outputs = NULL;
  *n_out = 0;
  if (!braze_mesh_from_func(func, &sim.mesh, &present, &why) || !present) {
    fprintf(stderr, "braze %s: the function has no mesh after shard-partition%s%s\n", cmd, why.len ? ": " : "",
            braze_str_cstr(&why));
    braze_str_free(&why);
    return false;
  }
  sim.n_ranks = braze_mesh_devices(&sim.mesh);
  sim.fn = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(func, braze_ref("function_type")));
  BrazeHostTensor **in = calloc((size_t)sim.n_ranks, sizeof *in), **out = calloc((size_t)sim.n_ranks, sizeof *out);
  size_t n_res = 0;
  bool ok = split_inputs(&sim, inputs, n_in, in) && braze_reference_run_mesh(func, sim.n_ranks, in, n_in, out, &n_res);
  if (ok) {
    *outputs = calloc(n_res ? n_res : 1, sizeof **outputs);
    for (size_t i = 0; ok && i < n_res; ++i)
      ok = assemble(cmd, &sim, out, i, &(*outputs)[i]);
    *n_out = ok ? n_res : 0;
    if (!ok) {
      braze_tensors_free(*outputs, n_res);
      *outputs = NULL;
    }
  }
  for (int64_t r = 0; r < sim.n_ranks; ++r) {
    braze_tensors_free(in[r], in[r] ? n_in : 0);
    braze_tensors_free(out[r], out[r] ? n_res : 0);
  }
  free(in);
  free(out);
  return ok;
}

void braze_mesh_describe_func(MlirOperation func, char *buf, size_t size) {
  BrazeMesh mesh;
  bool present = false;
  BrazeStr why = {0}, text = {0};
  if (braze_mesh_from_func(func, &mesh, &present, &why) && present) {
    braze_mesh_describe(&mesh, &text);
    snprintf(buf, size, "mesh %s (%lld device%s)", braze_str_cstr(&text), (long long)braze_mesh_devices(&mesh),
             braze_mesh_devices(&mesh) == 1 ? "" : "s");
  } else
    snprintf(buf, size, "no mesh");
  braze_str_free(&why);
  braze_str_free(&text);
}
