/* cuda-codegen, `ext` kernels (packed user-kernel calls, docs/user-kernels.md): a user
 * kernel whose body is one top-level scf.parallel (constants before it) maps to the
 * grid. The ext kernel becomes a gpu.func over its memrefs (inputs, then outputs) in
 * which thread g = block_id * block + thread_id runs iteration g of the parallel loop
 * (delinearized row-major over its static trip counts; threads past the last do
 * nothing), with the loop's body cloned and the user kernel's arguments replaced by
 * the ext kernel's. The graph then launches it like any other kernel (codegen.c).
 * A pre-initialized output (a memref.copy into it in the ext kernel) becomes
 * `braze.copies_before` on the gpu.func: the entry copies before the launch.
 * A user kernel written as a GPU kernel (braze.gpu_launch) goes to user-gpu.c instead.
 * Refused at the op: other top-level ops (sequential loops, several parallel loops),
 * dynamic bounds, reductions on the parallel loop, calls inside the kernel. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/diag.h"
#include "support/valuemap.h"
#include "targets/common/gpu-launch.h"
#include "targets/cuda/codegen/codegen.h"

typedef CuUserKernel UserKernel;

static bool fail(const UserKernel *u, MlirOperation op, const char *what) {
  braze_emit_error(mlirOperationGetLocation(op), "cuda-codegen: ext kernel @%s: %s", u->name, what);
  return false;
}

static bool is_ext(MlirOperation func) {
  MlirAttribute kind = mlirOperationGetDiscardableAttributeByName(func, braze_ref("kernel.kind"));
  return !mlirAttributeIsNull(kind) && mlirAttributeIsAString(kind) &&
         braze_ref_eq(mlirStringAttrGetValue(kind), "ext");
}

static MlirOperation lookup(MlirOperation module, MlirStringRef name) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation f = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f)) {
    MlirAttribute sym = mlirOperationGetAttributeByName(f, braze_ref("sym_name"));
    if (braze_op_is(f, "func.func") && !mlirAttributeIsNull(sym) && mlirStringRefEqual(mlirStringAttrGetValue(sym), name))
      return f;
  }
  return (MlirOperation){NULL};
}

/* The ext kernel argument index that a value of its body stands for: a to_buffer of
 * argument i is i, the alloc whose to_tensor is returned as result r is n_in + r. */
static int arg_of(const UserKernel *u, MlirValue v) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(u->ext, 0));
  MlirOperation ret = mlirBlockGetTerminator(entry);
  if (!mlirValueIsAOpResult(v))
    return -1;
  MlirOperation def = mlirOpResultGetOwner(v);
  if (braze_op_is(def, "bufferization.to_buffer")) {
    MlirValue t = mlirOperationGetOperand(def, 0);
    return mlirValueIsABlockArgument(t) ? (int)mlirBlockArgumentGetArgNumber(t) : -1;
  }
  for (intptr_t r = 0, n = mlirOperationGetNumOperands(ret); braze_op_is(def, "memref.alloc") && r < n; ++r) {
    MlirValue res = mlirOperationGetOperand(ret, r);
    if (mlirValueIsAOpResult(res) && braze_op_is(mlirOpResultGetOwner(res), "bufferization.to_tensor") &&
        mlirValueEqual(mlirOperationGetOperand(mlirOpResultGetOwner(res), 0), v))
      return u->n_in + (int)r;
  }
  return -1;
}

/* The ext kernel's body: buffers, one call of a user kernel, to_tensors. */
static bool read_ext(UserKernel *u, MlirOperation module) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(u->ext, 0));
  MlirOperation ret = mlirBlockGetTerminator(entry);
  u->n_in = (int)mlirBlockGetNumArguments(entry);
  u->n_out = (int)mlirOperationGetNumOperands(ret);
  if (u->n_in + u->n_out > UK_MAX_ARGS)
    return fail(u, u->ext, "too many arguments");
  for (int i = 0; i < u->n_in + u->n_out; ++i)
    u->types[i] = cg_memref_like(mlirValueGetType(i < u->n_in ? mlirBlockGetArgument(entry, i)
                                                              : mlirOperationGetOperand(ret, i - u->n_in)));
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (braze_op_is(op, "bufferization.to_buffer") || braze_op_is(op, "memref.alloc") ||
        braze_op_is(op, "bufferization.to_tensor") || braze_op_is(op, "func.return"))
      continue;
    if (braze_op_is(op, "memref.copy") && !u->call.ptr && u->n_copies < UK_MAX_ARGS) {
      /* a pre-initialized output: the entry copies before the launch (codegen.c) */
      int src = arg_of(u, mlirOperationGetOperand(op, 0)), dst = arg_of(u, mlirOperationGetOperand(op, 1));
      if (src < 0 || src >= u->n_in || dst < u->n_in)
        return fail(u, op, "a memref.copy that is not an argument into an output");
      u->copies[2 * u->n_copies] = src;
      u->copies[2 * u->n_copies++ + 1] = dst;
      continue;
    }
    if (!braze_op_is(op, "func.call") || u->call.ptr)
      return fail(u, op, "unsupported op in an ext kernel");
    u->call = op;
  }
  if (!u->call.ptr)
    return fail(u, u->ext, "no call of a user kernel");
  MlirAttribute callee = mlirOperationGetAttributeByName(u->call, braze_ref("callee"));
  u->callee = lookup(module, mlirFlatSymbolRefAttrGetValue(callee));
  if (!u->callee.ptr || mlirAttributeIsNull(mlirOperationGetAttributeByName(u->callee, braze_ref("braze.user_kernel"))))
    return fail(u, u->call, "the callee is not a user kernel on memrefs (docs/user-kernels.md)");
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(u->call); i < n; ++i)
    if (i >= UK_MAX_ARGS || (u->call_arg[i] = arg_of(u, mlirOperationGetOperand(u->call, i))) < 0)
      return fail(u, u->call, "an operand is neither an argument's buffer nor an output buffer");
  return true;
}

static bool constant_index(MlirValue v, int64_t *out) {
  if (!mlirValueIsAOpResult(v) || !braze_op_is(mlirOpResultGetOwner(v), "arith.constant"))
    return false;
  MlirAttribute a = mlirOperationGetAttributeByName(mlirOpResultGetOwner(v), braze_ref("value"));
  if (!mlirAttributeIsAInteger(a))
    return false;
  *out = mlirIntegerAttrGetValueInt(a);
  return true;
}

static MlirWalkResult find_call(MlirOperation op, void *user) {
  if (!braze_op_is(op, "func.call"))
    return MlirWalkResultAdvance;
  *(MlirOperation *)user = op;
  return MlirWalkResultInterrupt;
}

/* The user kernel: constants, one scf.parallel with static bounds, return. */
static bool read_user_kernel(UserKernel *u) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(u->callee, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (braze_op_is(op, "arith.constant") || braze_op_is(op, "func.return"))
      continue;
    if (!braze_op_is(op, "scf.parallel") || u->parallel.ptr) {
      char msg[200];
      MlirStringRef n = braze_op_name(op);
      snprintf(msg, sizeof msg,
               "top-level '%.*s': the user kernel maps to the grid only as one top-level scf.parallel (constants "
               "before it)", (int)n.length, n.data);
      return fail(u, op, msg);
    }
    u->parallel = op;
  }
  if (!u->parallel.ptr)
    return fail(u, u->callee, "the user kernel has no top-level scf.parallel to map to the grid");
  MlirBlock pb = mlirRegionGetFirstBlock(mlirOperationGetRegion(u->parallel, 0));
  u->dims = (int)mlirBlockGetNumArguments(pb);
  if (mlirOperationGetNumResults(u->parallel) != 0 || u->dims > CU_MAX_DIMS ||
      mlirOperationGetNumOperands(u->parallel) != 3 * u->dims)
    return fail(u, u->parallel, "scf.parallel with reductions is not supported on the GPU");
  for (int d = 0; d < u->dims; ++d) {
    int64_t ub;
    if (!constant_index(mlirOperationGetOperand(u->parallel, d), &u->lb[d]) ||
        !constant_index(mlirOperationGetOperand(u->parallel, u->dims + d), &ub) ||
        !constant_index(mlirOperationGetOperand(u->parallel, 2 * u->dims + d), &u->step[d]) || u->step[d] <= 0)
      return fail(u, u->parallel, "the scf.parallel bounds and steps must be constants (steps positive)");
    u->trip[d] = ub > u->lb[d] ? (ub - u->lb[d] + u->step[d] - 1) / u->step[d] : 0;
  }
  MlirOperation call = {NULL};
  mlirOperationWalk(u->parallel, find_call, &call, MlirWalkPreOrder);
  if (call.ptr)
    return fail(u, call, "calls inside a user kernel are not supported on the GPU");
  return true;
}

/* ---- the gpu.func ---- */

MlirOperation cu_user_gpu_func(const CuUserKernel *u, MlirOperation gpu_module, const int64_t grid[3],
                                     const int64_t block[3], int n_shared, const MlirType *shared, MlirBlock *entry) {
  MlirContext ctx = mlirOperationGetContext(u->ext);
  MlirLocation loc = mlirOperationGetLocation(u->ext);
  int n = u->n_in + u->n_out;
  MlirType fty = mlirFunctionTypeGet(ctx, n, u->types, 0, NULL);
  char text[128];
  snprintf(text, sizeof text, "array<i32: %d, %d, %d>", (int)block[0], (int)block[1], (int)block[2]);
  MlirNamedAttribute attrs[4] = {
      cg_named(ctx, "sym_name", mlirOperationGetAttributeByName(u->ext, braze_ref("sym_name"))),
      cg_named(ctx, "function_type", mlirTypeAttrGet(fty)),
      cg_named(ctx, "known_block_size", cg_parse_attr(ctx, text)),
      cg_named(ctx, "gpu.kernel", mlirUnitAttrGet(ctx)),
  };
  MlirType types[UK_MAX_ARGS + CU_USER_MAX_SHARED];
  MlirLocation locs[UK_MAX_ARGS + CU_USER_MAX_SHARED];
  for (int i = 0; i < n + n_shared; ++i) {
    types[i] = i < n ? u->types[i] : shared[i - n];
    locs[i] = loc;
  }
  *entry = mlirBlockCreate(n + n_shared, types, locs);
  MlirRegion body = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(body, *entry);
  MlirOperationState st = mlirOperationStateGet(braze_ref("gpu.func"), loc);
  mlirOperationStateAddAttributes(&st, 4, attrs);
  mlirOperationStateAddOwnedRegions(&st, 1, &body);
  MlirOperation fn = mlirOperationCreate(&st);
  for (intptr_t i = 0; i < mlirOperationGetNumDiscardableAttributes(u->ext); ++i) {
    MlirNamedAttribute a = mlirOperationGetDiscardableAttribute(u->ext, i);
    mlirOperationSetDiscardableAttributeByName(fn, mlirIdentifierStr(a.name), a.attribute);
  }
  if (n_shared)
    mlirOperationSetDiscardableAttributeByName(fn, braze_ref("workgroup_attributions"),
                                               mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), n_shared));
  snprintf(text, sizeof text, "array<i64: %lld, %lld, %lld>", (long long)grid[0], (long long)grid[1],
           (long long)grid[2]);
  mlirOperationSetDiscardableAttributeByName(fn, braze_ref("braze.grid"), cg_parse_attr(ctx, text));
  if (u->n_copies)
    mlirOperationSetDiscardableAttributeByName(fn, braze_ref("braze.copies_before"),
                                               mlirDenseI64ArrayGet(ctx, 2 * u->n_copies, u->copies));
  mlirBlockAppendOwnedOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(gpu_module, 0)), fn);
  return fn;
}

/* Thread g runs iteration g: constants, the bounds check, the body with its ivs. */
static void emit_body(const UserKernel *u, MlirBlock entry, int block, int64_t total) {
  MlirLocation loc = mlirOperationGetLocation(u->parallel);
  CgBuilder b = cg_builder_at_end(entry, loc);
  b.before = cg_create(&b, "gpu.return", 0, NULL, 0, NULL, 0, NULL);
  BrazeValueMap m = {0};
  MlirBlock ub = mlirRegionGetFirstBlock(mlirOperationGetRegion(u->callee, 0));
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(u->call); i < n; ++i)
    braze_valuemap_put(&m, mlirBlockGetArgument(ub, i), mlirBlockGetArgument(entry, u->call_arg[i]));
  for (MlirOperation op = mlirBlockGetFirstOperation(ub); !mlirOperationEqual(op, u->parallel);
       op = mlirOperationGetNextInBlock(op)) {
    MlirOperation c = cg_insert(&b, mlirOperationClone(op));
    braze_valuemap_put(&m, mlirOperationGetResult(op, 0), mlirOperationGetResult(c, 0));
  }
  MlirType index = cg_index_type(b.ctx);
  MlirValue tid = cu_gpu_id(&b, "gpu.thread_id"), bid = cu_gpu_id(&b, "gpu.block_id");
  MlirValue mul[2] = {bid, cg_index(&b, block)};
  MlirValue add[2] = {cg_op(&b, "arith.muli", index, 2, mul), tid};
  MlirValue g = cg_op(&b, "arith.addi", index, 2, add);
  CgBuilder then_b, else_b;
  cg_if(&b, cu_cmp_ult(&b, g, cg_index(&b, total)), &then_b, &else_b);
  MlirValue iv[CU_MAX_DIMS];
  cu_delinearize(&then_b, g, u->dims, u->trip, iv);
  MlirBlock pb = mlirRegionGetFirstBlock(mlirOperationGetRegion(u->parallel, 0));
  for (int d = 0; d < u->dims; ++d) {
    MlirValue s[2] = {iv[d], cg_index(&then_b, u->step[d])};
    MlirValue a[2] = {cg_op(&then_b, "arith.muli", index, 2, s), cg_index(&then_b, u->lb[d])};
    braze_valuemap_put(&m, mlirBlockGetArgument(pb, d), cg_op(&then_b, "arith.addi", index, 2, a));
  }
  MlirOperation term = mlirBlockGetTerminator(pb);
  for (MlirOperation op = mlirBlockGetFirstOperation(pb); !mlirOperationEqual(op, term);
       op = mlirOperationGetNextInBlock(op)) {
    MlirOperation c = cg_insert(&then_b, mlirOperationClone(op));
    mlirOperationWalk(c, braze_valuemap_remap_operands, &m, MlirWalkPreOrder);
    for (intptr_t r = 0, n = mlirOperationGetNumResults(op); r < n; ++r)
      braze_valuemap_put(&m, mlirOperationGetResult(op, r), mlirOperationGetResult(c, r));
  }
  braze_valuemap_free(&m);
}

int cu_convert_user_kernel(MlirOperation func, MlirOperation module, MlirOperation gpu_module,
                           const CuOptions *opts) {
  if (!is_ext(func))
    return 0;
  MlirStringRef name = mlirStringAttrGetValue(mlirOperationGetAttributeByName(func, braze_ref("sym_name")));
  char cname[256];
  snprintf(cname, sizeof cname, "%.*s", (int)name.length, name.data);
  UserKernel u = {.ext = func, .name = cname};
  if (!read_ext(&u, module))
    return -1;
  if (braze_is_gpu_form(u.callee)) /* written as a GPU kernel: user-gpu.c */
    return cu_convert_user_gpu(&u, gpu_module, opts) ? 1 : -1;
  if (!read_user_kernel(&u))
    return -1;
  int64_t total = 1;
  for (int d = 0; d < u.dims; ++d)
    total *= u.trip[d];
  int block = (int)opts->block;
  int64_t grid = total > 0 ? (total + block - 1) / block : 1;
  MlirBlock entry;
  const int64_t grid3[3] = {grid, 1, 1}, block3[3] = {block, 1, 1};
  MlirOperation fn = cu_user_gpu_func(&u, gpu_module, grid3, block3, 0, NULL, &entry);
  emit_body(&u, entry, block, total);
  cu_user_align_vectors(fn, grid3, block3);
  if (opts->remarks)
    braze_emit_remark(mlirOperationGetLocation(func),
                      "cuda-codegen: kernel @%s: user kernel @%.*s, its scf.parallel (%lld iterations) over grid "
                      "(%lld, 1, 1), block %d",
                      cname, (int)mlirStringAttrGetValue(mlirOperationGetAttributeByName(u.callee, braze_ref("sym_name"))).length,
                      mlirStringAttrGetValue(mlirOperationGetAttributeByName(u.callee, braze_ref("sym_name"))).data,
                      (long long)total, (long long)grid, block);
  cu_replace_by_declaration(u.ext, u.n_in + u.n_out, u.types, u.n_in);
  return 1;
}
