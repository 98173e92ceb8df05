/* cuda-codegen, `ext` kernels whose user kernel is written as a GPU kernel (the GPU form:
 * braze.gpu_launch = {grid, block}, docs/user-kernels.md "GPU form on each target").
 * The body already is one thread's code: the ext kernel becomes a gpu.func whose body is
 * the user kernel's, cloned with the user's arguments replaced by the ext kernel's
 * memrefs (inputs, then outputs), launched with the attribute's grid (braze.grid) and
 * block (known_block_size), which the entry reads like any kernel's (cuda-codegen.c).
 * Each top-level `memref.alloca` in #gpu.address_space<workgroup> becomes a workgroup
 * attribution of the gpu.func (shared memory, one per block, as row.c's partials);
 * gpu ids, gpu.barrier, gpu.shuffle and memref.atomic_rmw lower through the GPU ->
 * NVVM path as they are. A pre-initialized output is copied by the entry first
 * (braze.copies_before), as in user.c.
 * Refused at the op: scf.parallel (the flat form's loop; not inside a GPU-form body),
 * calls, memref.alloc, workgroup allocas below the top level or of dynamic shape, other
 * gpu ops, more than 48 KiB of static shared memory, a gpu.barrier under control that
 * depends on the thread and a gpu.shuffle under control that depends on the lane within
 * a warp (targets/common/gpu-uniform.h; a note at that control). Dynamic shared memory is
 * the module's extern braze_dynamic_smem[] (dynamic_smem below). */
#include <stdio.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/diag.h"
#include "support/valuemap.h"
#include "passes/fusion/user-kernel-effects.h"
#include "targets/common/gpu-launch.h"
#include "targets/common/gpu-uniform.h"
#include "targets/cuda/codegen/codegen.h"

/* static shared memory, and static + dynamic (sm_90's opt-in maximum a block) */
enum { UG_STATIC_SMEM = 48 << 10, UG_MAX_SMEM = 227 << 10 };

typedef struct {
  MlirOperation top; /* the user kernel (workgroup allocas must be its body's ops) */
  const char *failed;
  MlirOperation failed_at;
} Check;

static bool fail(const CuUserKernel *u, MlirOperation op, const char *what) {
  braze_emit_error(mlirOperationGetLocation(op), "cuda-codegen: ext kernel @%s: user kernel in the GPU form: %s",
                   u->name, what);
  return false;
}

static bool is_workgroup_alloca(MlirOperation op) {
  if (!braze_op_is(op, "memref.alloca"))
    return false;
  MlirAttribute space = mlirMemRefTypeGetMemorySpace(mlirValueGetType(mlirOperationGetResult(op, 0)));
  return !mlirAttributeIsNull(space) && cg_attr_text_has(space, "workgroup");
}

static bool allowed_gpu_op(MlirOperation op) {
  static const char *const ok[] = {"gpu.thread_id", "gpu.block_id", "gpu.block_dim", "gpu.grid_dim",
                                   "gpu.barrier",   "gpu.shuffle",  "gpu.dynamic_shared_memory", NULL};
  for (int i = 0; ok[i]; ++i)
    if (braze_op_is(op, ok[i]))
      return true;
  return false;
}

static MlirWalkResult check_op(MlirOperation op, void *user) {
  Check *c = user;
  MlirStringRef n = braze_op_name(op);
  const char *why = NULL;
  if (braze_op_is(op, "scf.parallel"))
    why = "scf.parallel inside a GPU-form kernel (its threads are the block's; write the flat form without "
          "braze.gpu_launch instead)";
  else if (braze_op_is(op, "func.call"))
    why = "calls inside a user kernel are not supported on the GPU";
  else if (braze_op_is(op, "memref.alloc"))
    why = "memref.alloc inside a GPU kernel (expected a memref.alloca: per thread, or in "
          "#gpu.address_space<workgroup> at the top level: per block)";
  else if (is_workgroup_alloca(op) &&
           !mlirOperationEqual(mlirOperationGetParentOperation(op), c->top))
    why = "a workgroup memref.alloca below the top level of the body (expected at the top level: one per block)";
  else if (is_workgroup_alloca(op) && !mlirShapedTypeHasStaticShape(mlirValueGetType(mlirOperationGetResult(op, 0))))
    why = "a workgroup memref.alloca of dynamic shape (expected a static shape)";
  else if (n.length > 4 && memcmp(n.data, "gpu.", 4) == 0 && !allowed_gpu_op(op))
    why = "a gpu op other than thread_id, block_id, block_dim, grid_dim, barrier, shuffle, dynamic_shared_memory";
  if (!why)
    return MlirWalkResultAdvance;
  c->failed = why;
  c->failed_at = op;
  return MlirWalkResultInterrupt;
}

/* The dynamic shared memory of the block as the module's external zero-size workgroup
 * global (PTX `.extern .shared .align 16 .b8 braze_dynamic_smem[];`, which CUDA places
 * after every static shared variable). The upstream lowering of gpu.dynamic_shared_memory
 * makes an internal one instead, a 1-byte static variable that ptxas lays out with the
 * kernel's other static shared memory in declaration order: with a workgroup alloca
 * beside it, the views of the dynamic memory overlapped that buffer. */

/* Refuses the kernel at the barrier or shuffle d names (msg) with a note at the
 * `who`-dependent (thread or lane) control around it. */
static bool divergent(const CuUserKernel *u, const BrazeDivergentBarrier *d, const char *msg, const char *who) {
  fail(u, d->barrier, msg);
  MlirStringRef what = braze_op_name(d->branch);
  braze_emit(mlirOperationGetLocation(d->branch), BRAZE_DIAG_NOTE, "cuda-codegen: the %s-dependent '%.*s'", who,
             (int)what.length, what.data);
  return false;
}

static MlirValue dynamic_smem(CgBuilder *b, MlirOperation gpu_module) {
  static const char *const decl =
      "memref.global @braze_dynamic_smem : memref<0xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64}";
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(gpu_module, 0));
  bool have = false;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op) && !have;
       op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute name = mlirOperationGetAttributeByName(op, braze_ref("sym_name"));
    have = braze_op_is(op, "memref.global") && braze_ref_eq(mlirStringAttrGetValue(name), "braze_dynamic_smem");
  }
  if (!have)
    mlirBlockInsertOwnedOperation(body, 0, mlirOperationCreateParse(b->ctx, braze_ref(decl), braze_ref("braze-dynamic-smem")));
  MlirType t = mlirTypeParseGet(b->ctx, braze_ref("memref<0xi8, #gpu.address_space<workgroup>>"));
  MlirNamedAttribute name = cg_named(b->ctx, "name", mlirFlatSymbolRefAttrGet(b->ctx, braze_ref("braze_dynamic_smem")));
  return mlirOperationGetResult(cg_create(b, "memref.get_global", 0, NULL, 1, &t, 1, &name), 0);
}

bool cu_convert_user_gpu(CuUserKernel *u, MlirOperation gpu_module, const CuOptions *opts) {
  int64_t grid[3], block[3];
  if (!braze_gpu_launch_read(u->callee, "cuda-codegen", grid, block))
    return false;
  Check c = {.top = u->callee};
  mlirOperationWalk(u->callee, check_op, &c, MlirWalkPreOrder);
  if (c.failed)
    return fail(u, c.failed_at, c.failed);
  BrazeDivergentBarrier d;
  if (braze_gpu_divergent_barrier(u->callee, &d)) {
    char msg[320];
    snprintf(msg, sizeof msg,
             "a gpu.barrier under %s on the thread (not every thread of the block reaches it, undefined "
             "on the GPU; expected control on constants, arguments, block ids and arith on them)",
             d.what);
    return divergent(u, &d, msg, "thread");
  }
  if (braze_gpu_divergent_shuffle(u->callee, block, &d)) {
    char msg[400];
    snprintf(msg, sizeof msg,
             "a gpu.shuffle under %s on the lane (not every lane of the warp reaches it: shfl.sync with a full "
             "mask, undefined on the GPU; expected control the 32 lanes of each warp agree on: block ids, warp "
             "indices, thread ids y and z where block x is a multiple of 32)",
             d.what);
    return divergent(u, &d, msg, "lane");
  }
  /* the workgroup allocas: shared memory */
  MlirBlock ub = mlirRegionGetFirstBlock(mlirOperationGetRegion(u->callee, 0));
  MlirType shared[CU_USER_MAX_SHARED];
  MlirOperation shared_op[CU_USER_MAX_SHARED];
  int n_shared = 0;
  int64_t bytes = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(ub); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!is_workgroup_alloca(op))
      continue;
    if (n_shared == CU_USER_MAX_SHARED)
      return fail(u, op, "more than 16 workgroup allocas");
    MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
    bytes += cg_num_elements(t) * cg_elem_bytes(mlirShapedTypeGetElementType(t));
    shared_op[n_shared] = op;
    shared[n_shared++] = t;
  }
  if (bytes > UG_STATIC_SMEM) {
    char msg[160];
    snprintf(msg, sizeof msg, "%lld bytes of workgroup memory, expected at most %d (static shared memory)",
             (long long)bytes, UG_STATIC_SMEM);
    return fail(u, u->callee, msg);
  }
  /* dynamic shared memory (braze.gpu_launch shared_bytes; its views checked by the form):
   * the launch's dynamic size, opted into past 48 KiB by the host (braze.dynamic_smem) */
  char why[256];
  MlirOperation bad;
  UkSharedView views[UK_MAX_SHARED_VIEWS];
  int n_views;
  if (!uk_shared_views(u->callee, views, &n_views, &bad, why, sizeof why))
    return fail(u, bad, why);
  int64_t dynamic = uk_gpu_shared_bytes(u->callee);
  if (dynamic > 0 && bytes + dynamic > UG_MAX_SMEM) {
    char msg[200];
    snprintf(msg, sizeof msg,
             "%lld bytes of static and %lld of dynamic shared memory, expected at most %d together (a block on sm_90)",
             (long long)bytes, (long long)dynamic, UG_MAX_SMEM);
    return fail(u, u->callee, msg);
  }
  MlirBlock entry;
  MlirOperation fn = cu_user_gpu_func(u, gpu_module, grid, block, n_shared, shared, &entry);
  if (dynamic > 0)
    mlirOperationSetDiscardableAttributeByName(
        mlirBlockGetParentOperation(entry), braze_ref("braze.dynamic_smem"),
        mlirIntegerAttrGet(mlirIntegerTypeGet(mlirOperationGetContext(u->callee), 64), dynamic));
  BrazeValueMap m = {0};
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(u->call); i < n; ++i)
    braze_valuemap_put(&m, mlirBlockGetArgument(ub, i), mlirBlockGetArgument(entry, u->call_arg[i]));
  for (int s = 0; s < n_shared; ++s)
    braze_valuemap_put(&m, mlirOperationGetResult(shared_op[s], 0),
                       mlirBlockGetArgument(entry, u->n_in + u->n_out + s));
  CgBuilder b = cg_builder_at_end(entry, mlirOperationGetLocation(u->callee));
  for (MlirOperation op = mlirBlockGetFirstOperation(ub); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (is_workgroup_alloca(op) || braze_op_is(op, "func.return"))
      continue;
    if (braze_op_is(op, "gpu.dynamic_shared_memory")) {
      braze_valuemap_put(&m, mlirOperationGetResult(op, 0), dynamic_smem(&b, gpu_module));
      continue;
    }
    MlirOperation copy = cg_insert(&b, mlirOperationClone(op));
    mlirOperationWalk(copy, braze_valuemap_remap_operands, &m, MlirWalkPreOrder);
    for (intptr_t r = 0, n = mlirOperationGetNumResults(op); r < n; ++r)
      braze_valuemap_put(&m, mlirOperationGetResult(op, r), mlirOperationGetResult(copy, r));
  }
  cg_create(&b, "gpu.return", 0, NULL, 0, NULL, 0, NULL);
  braze_valuemap_free(&m);
  cu_user_align_vectors(fn, grid, block);
  if (opts->remarks) {
    MlirStringRef callee = mlirStringAttrGetValue(mlirOperationGetAttributeByName(u->callee, braze_ref("sym_name")));
    braze_emit_remark(mlirOperationGetLocation(u->ext),
                      "cuda-codegen: kernel @%s: user kernel @%.*s in the GPU form, grid (%lld, %lld, %lld), block "
                      "(%lld, %lld, %lld), %d workgroup buffer(s) of %lld bytes, %lld bytes of dynamic shared memory",
                      u->name, (int)callee.length, callee.data, (long long)grid[0], (long long)grid[1],
                      (long long)grid[2], (long long)block[0], (long long)block[1], (long long)block[2], n_shared,
                      (long long)bytes, (long long)(dynamic > 0 ? dynamic : 0));
  }
  cu_replace_by_declaration(u->ext, u->n_in + u->n_out, u->types, u->n_in);
  return true;
}
