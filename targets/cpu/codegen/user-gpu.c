/* cpu-codegen, user kernels written as GPU kernels (the GPU form: braze.gpu_launch,
 * docs/user-kernels.md "GPU form on each target"). Before an ext kernel's call is
 * converted (user.c), its GPU-form callee @K is rewritten, in a clone @K_cpu, into an
 * ordinary user kernel the CPU already compiles:
 *   scf.parallel over the grid (blocks in parallel: OpenMP)
 *     workgroup allocas: one buffer per block; values live across a split point: one
 *     memref.alloca [threads] each (privatized)
 *     phase 1: scf.for %t over the block's threads { ids from %t; ops; stores of the
 *              values later phases read }
 *     phase 2: ...
 * The body is split at each gpu.barrier and gpu.shuffle (a shuffle is a phase of its
 * own that reads the source lane's privatized value: lane = t mod 32, source by the
 * mode, valid when below the width and inside the block). A split point inside an
 * scf.for whose bounds are uniform (constants, arguments, block ids and pure arith on
 * them) splits inside that loop: the for stays outside the thread loops and its
 * iter_args become per-thread buffers; an scf.if with a uniform condition likewise (the
 * if at the block level, its results per-thread buffers). Pure arith on uniform values
 * stays outside the thread loops; pure arith on thread ids (and uniform values) is
 * recomputed in a later phase that uses it instead of privatized. A split point anywhere else (under a
 * thread-dependent scf.if, in a loop with thread-dependent bounds, in scf.while) is
 * refused at the op, and so are per-thread allocas and memref values live across a
 * split point. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/fusion/user-kernel-effects.h"
#include "support/context.h"
#include "support/diag.h"
#include "support/grow.h"
#include "support/oplist.h"
#include "support/ptrmap.h"
#include "targets/common/gpu-launch.h"
#include "targets/cpu/codegen/codegen.h"

typedef enum { VK_UNIFORM, VK_PHASE, VK_BUFFER, VK_TID } VKind;

typedef struct {
  VKind kind;
  MlirValue v;       /* UNIFORM: the value; PHASE: its value in its phase */
  int phase, dim;    /* PHASE: the phase; TID: the dimension */
  MlirValue t;       /* PHASE: that phase's thread index */
  MlirOperation def; /* PHASE: the op defining v (stores go after it) */
  MlirValue buf;     /* PHASE (once read later), BUFFER: memref<threads x type> */
  MlirOperation remat; /* PHASE: pure arith on thread ids and uniform values, recomputed
                        * in a later phase instead of privatized */
  MlirValue loaded;  /* the load of buf (or the recomputation) in phase `loaded_phase` */
  int loaded_phase;
} VInfo;

typedef struct {
  MlirOperation func;
  const char *name;
  MlirContext ctx;
  MlirLocation loc;
  int64_t grid[3], block[3], threads;
  CgBuilder allocas; /* the block's buffers: at the start of the block loop's body */
  CgBuilder scope;   /* the current block-level point (the block loop's or a uniform for's body) */
  MlirValue bid[3];
  VInfo *vals;
  int n_vals, cap_vals;
  BrazePtrMap index;
  /* the open phase */
  bool open;
  int phase;
  MlirOperation loop;
  CgBuilder pb;
  MlirValue t, tid[3];
  MlirOperation load_before; /* while an op is cloned into the phase: loads go before it */
  bool failed;
  UkSharedView views[UK_MAX_SHARED_VIEWS]; /* of the dynamic shared memory: a buffer each */
  int n_views;
} Ph;

static bool fail(Ph *P, MlirOperation op, const char *what) {
  if (!P->failed)
    braze_emit_error(mlirOperationGetLocation(op), "cpu-codegen: user kernel @%s in the GPU form: %s", P->name, what);
  P->failed = true;
  return false;
}

static VInfo *info(Ph *P, MlirValue v) {
  int i = braze_ptrmap_get(&P->index, braze_ptr_key(v.ptr), -1);
  return i < 0 ? NULL : &P->vals[i];
}

static VInfo *put(Ph *P, MlirValue orig, VKind kind, MlirValue v) {
  P->vals = braze_grow(P->vals, (size_t)P->n_vals, &P->cap_vals, sizeof *P->vals, 64);
  VInfo *x = &P->vals[P->n_vals];
  *x = (VInfo){.kind = kind, .v = v, .phase = P->phase, .t = P->t, .loaded_phase = -1};
  braze_ptrmap_put(&P->index, braze_ptr_key(orig.ptr), P->n_vals++);
  return x;
}

static MlirValue idx_op(CgBuilder *b, const char *name, MlirValue x, MlirValue y) {
  MlirValue ops[2] = {x, y};
  return cg_op(b, name, cg_index_type(b->ctx), 2, ops);
}

/* ---- phases ---- */

static void open_phase(Ph *P) {
  if (P->open)
    return;
  CgBuilder body;
  MlirValue t;
  P->loop = cg_for(&P->scope, cg_index(&P->scope, 0), cg_index(&P->scope, P->threads), 0, NULL, &body, &t, NULL);
  cg_yield(&body, 0, NULL);
  body.before = mlirBlockGetTerminator(body.block);
  P->pb = body;
  P->t = t;
  P->open = true;
  ++P->phase;
  MlirValue bx = cg_index(&body, P->block[0]), by = cg_index(&body, P->block[1]);
  P->tid[0] = idx_op(&body, "arith.remui", t, bx);
  MlirValue q = idx_op(&body, "arith.divui", t, bx);
  P->tid[1] = idx_op(&body, "arith.remui", q, by);
  P->tid[2] = idx_op(&body, "arith.divui", q, by);
}

static void close_phase(Ph *P) { P->open = false; }

/* The block-level builder for uniform ops: before the open phase's loop. */
static CgBuilder uniform_builder(Ph *P) {
  CgBuilder b = P->scope;
  if (P->open)
    b.before = P->loop;
  return b;
}

static MlirValue buffer_of(Ph *P, MlirOperation at, MlirType type) {
  if (mlirTypeIsAMemRef(type) || mlirTypeIsAUnrankedMemRef(type)) {
    fail(P, at, "a memref value is live across a gpu.barrier or gpu.shuffle (expected scalars or vectors)");
    return (MlirValue){NULL};
  }
  int64_t n = P->threads;
  MlirType mt = mlirMemRefTypeGet(type, 1, &n, mlirAttributeGetNull(), mlirAttributeGetNull());
  return mlirOperationGetResult(cg_create(&P->allocas, "memref.alloca", 0, NULL, 1, &mt, 0, NULL), 0);
}

static MlirValue resolve(Ph *P, MlirValue orig, MlirOperation user);

/* A rematerializable value in the open phase: its op cloned on its operands there. */
static MlirValue recompute(Ph *P, MlirValue orig, MlirOperation user) {
  open_phase(P);
  VInfo *x = info(P, orig);
  if (x->loaded_phase == P->phase)
    return x->loaded;
  MlirOperation def = x->remat;
  MlirValue ops[8];
  intptr_t n = mlirOperationGetNumOperands(def);
  for (intptr_t i = 0; i < n; ++i)
    if (mlirValueIsNull(ops[i] = resolve(P, mlirOperationGetOperand(def, i), user)))
      return ops[i];
  CgBuilder lb = P->pb;
  if (P->load_before.ptr && mlirBlockEqual(mlirOperationGetBlock(P->load_before), lb.block))
    lb.before = P->load_before;
  MlirOperation c = cg_insert(&lb, mlirOperationClone(def));
  for (intptr_t i = 0; i < n; ++i)
    mlirOperationSetOperand(c, i, ops[i]);
  x = info(P, orig); /* resolve may have grown the table */
  x->loaded = mlirOperationGetResult(c, 0);
  x->loaded_phase = P->phase;
  return x->loaded;
}

/* What original value `orig` is in the open phase (a load of its buffer when it lives
 * in another), or null when it is not the kernel's (defined inside the op cloned). */
static MlirValue resolve(Ph *P, MlirValue orig, MlirOperation user) {
  VInfo *x = info(P, orig);
  if (!x)
    return (MlirValue){NULL};
  switch (x->kind) {
  case VK_UNIFORM:
    return x->v;
  case VK_TID:
    return P->tid[x->dim];
  case VK_PHASE:
    if (P->open && x->phase == P->phase)
      return x->v;
    if (x->remat.ptr)
      return recompute(P, orig, user);
    if (mlirValueIsNull(x->buf)) {
      x->buf = buffer_of(P, user, mlirValueGetType(x->v));
      if (mlirValueIsNull(x->buf))
        return (MlirValue){NULL};
      CgBuilder s = cg_builder_at_end(mlirOperationGetBlock(x->def), P->loc);
      s.before = mlirOperationGetNextInBlock(x->def);
      cg_store(&s, x->v, x->buf, 1, &x->t);
    }
    break;
  case VK_BUFFER:
    break;
  }
  open_phase(P);
  if (x->loaded_phase != P->phase) {
    CgBuilder lb = P->pb;
    if (P->load_before.ptr && mlirBlockEqual(mlirOperationGetBlock(P->load_before), lb.block))
      lb.before = P->load_before;
    x->loaded = cg_load(&lb, x->buf, 1, &P->t);
    x->loaded_phase = P->phase;
  }
  return x->loaded;
}

typedef struct {
  Ph *P;
  MlirOperation top;
  BrazeOpList ids;
} Remap;

static MlirWalkResult remap_op(MlirOperation op, void *user) {
  Remap *r = user;
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(op); i < n; ++i) {
    MlirValue v = resolve(r->P, mlirOperationGetOperand(op, i), r->top);
    if (!mlirValueIsNull(v))
      mlirOperationSetOperand(op, i, v);
  }
  if (braze_op_is(op, "gpu.thread_id") || braze_op_is(op, "gpu.block_id") || braze_op_is(op, "gpu.block_dim") ||
      braze_op_is(op, "gpu.grid_dim"))
    braze_op_list_push(&r->ids, op);
  return MlirWalkResultAdvance;
}

/* A gpu id op (at b's point) as a value of the phase or the block. */
static MlirValue id_value(Ph *P, CgBuilder *b, MlirOperation id) {
  int d = braze_gpu_dimension(id);
  if (braze_op_is(id, "gpu.thread_id"))
    return P->tid[d];
  if (braze_op_is(id, "gpu.block_id"))
    return P->bid[d];
  return cg_index(b, braze_op_is(id, "gpu.block_dim") ? P->block[d] : P->grid[d]);
}

/* Clone `op` at b (the open phase, or the block level), its operands resolved and its
 * nested gpu ids replaced. */
static MlirOperation clone_at(Ph *P, CgBuilder *b, MlirOperation op) {
  MlirOperation c = cg_insert(b, mlirOperationClone(op));
  Remap r = {.P = P, .top = c};
  P->load_before = c;
  mlirOperationWalk(c, remap_op, &r, MlirWalkPreOrder);
  P->load_before = (MlirOperation){NULL};
  for (size_t i = 0; i < r.ids.count; ++i) {
    MlirOperation id = r.ids.ops[i];
    CgBuilder at = cg_builder_at_end(mlirOperationGetBlock(id), P->loc);
    at.before = id;
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(id, 0), id_value(P, &at, id));
    mlirOperationDestroy(id);
  }
  braze_op_list_free(&r.ids);
  return c;
}

static bool is_uniform_op(Ph *P, MlirOperation op) {
  MlirStringRef n = braze_op_name(op);
  if (mlirOperationGetNumRegions(op) != 0 || mlirOperationGetNumResults(op) != 1 ||
      !(n.length > 6 && (memcmp(n.data, "arith.", 6) == 0 || memcmp(n.data, "index.", 6) == 0)))
    return false;
  for (intptr_t i = 0, k = mlirOperationGetNumOperands(op); i < k; ++i) {
    VInfo *x = info(P, mlirOperationGetOperand(op, i));
    if (!x || x->kind != VK_UNIFORM)
      return false;
  }
  return true;
}

/* Pure arith (at most 8 operands) on thread ids, uniform values and such values. */
static bool is_remat_op(Ph *P, MlirOperation op) {
  MlirStringRef n = braze_op_name(op);
  if (mlirOperationGetNumRegions(op) != 0 || mlirOperationGetNumResults(op) != 1 ||
      mlirOperationGetNumOperands(op) > 8 ||
      !(n.length > 6 && (memcmp(n.data, "arith.", 6) == 0 || memcmp(n.data, "index.", 6) == 0)))
    return false;
  for (intptr_t i = 0, k = mlirOperationGetNumOperands(op); i < k; ++i) {
    VInfo *x = info(P, mlirOperationGetOperand(op, i));
    if (!x || !(x->kind == VK_UNIFORM || x->kind == VK_TID || (x->kind == VK_PHASE && x->remat.ptr)))
      return false;
  }
  return true;
}

static MlirWalkResult find_split(MlirOperation op, void *user) {
  if (!braze_op_is(op, "gpu.barrier") && !braze_op_is(op, "gpu.shuffle"))
    return MlirWalkResultAdvance;
  *(MlirOperation *)user = op;
  return MlirWalkResultInterrupt;
}

static bool emit_block(Ph *P, MlirBlock blk);
static bool store_yield(Ph *P, MlirBlock ob, intptr_t n, const MlirValue *bufs);

/* gpu.shuffle MODE %x, %offset, %width: a phase of its own reading the source lane. */
static bool emit_shuffle(Ph *P, MlirOperation op) {
  close_phase(P);
  MlirValue x = mlirOperationGetOperand(op, 0);
  VInfo *xi = info(P, x);
  open_phase(P);
  MlirValue off = resolve(P, mlirOperationGetOperand(op, 1), op), width = resolve(P, mlirOperationGetOperand(op, 2), op);
  MlirValue own = resolve(P, x, op);
  if (P->failed || !xi || mlirValueIsNull(off) || mlirValueIsNull(width) || mlirValueIsNull(own))
    return fail(P, op, "a gpu.shuffle operand that is not the kernel's");
  xi = info(P, x);
  if (xi->kind == VK_TID)
    return fail(P, op, "a gpu.shuffle of a thread id (expected a computed value)");
  CgBuilder *b = &P->pb;
  MlirType index = cg_index_type(P->ctx);
  off = cg_op(b, "arith.index_cast", index, 1, &off);
  width = cg_op(b, "arith.index_cast", index, 1, &width);
  MlirValue lane = idx_op(b, "arith.remui", P->t, cg_index(b, 32));
  MlirValue base = idx_op(b, "arith.subi", P->t, lane);
  MlirAttribute mode = mlirOperationGetAttributeByName(op, braze_ref("mode"));
  MlirValue src = cg_attr_text_has(mode, "xor")    ? idx_op(b, "arith.xori", lane, off)
                  : cg_attr_text_has(mode, "down") ? idx_op(b, "arith.addi", lane, off)
                  : cg_attr_text_has(mode, "up")   ? idx_op(b, "arith.subi", lane, off)
                                                   : off;
  MlirValue at = idx_op(b, "arith.addi", base, src);
  MlirValue c1[2] = {src, width}, c2[2] = {at, cg_index(b, P->threads)};
  MlirNamedAttribute ult = cg_named(P->ctx, "predicate", cg_parse_attr(P->ctx, "6 : i64"));
  MlirType i1 = mlirIntegerTypeGet(P->ctx, 1);
  MlirValue in_w = mlirOperationGetResult(cg_create(b, "arith.cmpi", 2, c1, 1, &i1, 1, &ult), 0);
  MlirValue in_b = mlirOperationGetResult(cg_create(b, "arith.cmpi", 2, c2, 1, &i1, 1, &ult), 0);
  MlirValue both[2] = {in_w, in_b};
  MlirValue valid = cg_op(b, "arith.andi", i1, 2, both);
  MlirValue value;
  if (xi->kind == VK_UNIFORM) {
    value = own;
  } else {
    MlirValue sel[3] = {valid, at, P->t};
    MlirValue i = cg_op(b, "arith.select", index, 3, sel);
    value = cg_load(b, xi->buf, 1, &i);
  }
  if (xi->kind == VK_UNIFORM) /* the same on every lane */
    put(P, mlirOperationGetResult(op, 0), VK_UNIFORM, own);
  else
    put(P, mlirOperationGetResult(op, 0), VK_PHASE, value)->def = mlirOpResultGetOwner(value);
  VInfo *r1 = put(P, mlirOperationGetResult(op, 1), VK_PHASE, valid);
  r1->def = mlirOpResultGetOwner(valid);
  close_phase(P);
  return true;
}

/* An scf.for with uniform bounds holding split points: the for at the block level, its
 * iter_args per-thread buffers, its body emitted phase by phase. */
static bool emit_uniform_for(Ph *P, MlirOperation op, MlirOperation split) {
  MlirValue bounds[3];
  for (int i = 0; i < 3; ++i) {
    VInfo *x = info(P, mlirOperationGetOperand(op, i));
    if (!x || x->kind != VK_UNIFORM)
      return fail(P, split,
                  "a split point (gpu.barrier, gpu.shuffle) in an scf.for whose bounds depend on the threads "
                  "(expected bounds of constants, arguments, block ids and arith on them)");
    bounds[i] = x->v;
  }
  intptr_t n_iter = mlirOperationGetNumResults(op);
  MlirValue bufs[CG_MAX_ITER];
  if (n_iter > CG_MAX_ITER)
    return fail(P, op, "too many iter_args");
  close_phase(P);
  for (intptr_t i = 0; i < n_iter; ++i) {
    bufs[i] = buffer_of(P, op, mlirValueGetType(mlirOperationGetResult(op, i)));
    if (mlirValueIsNull(bufs[i]))
      return false;
  }
  if (n_iter) { /* the initial values */
    MlirValue init[CG_MAX_ITER];
    open_phase(P);
    for (intptr_t i = 0; i < n_iter; ++i) {
      init[i] = resolve(P, mlirOperationGetOperand(op, 3 + i), op);
      if (mlirValueIsNull(init[i]))
        return fail(P, op, "an iter_arg init that is not the kernel's");
    }
    for (intptr_t i = 0; i < n_iter; ++i)
      cg_store(&P->pb, init[i], bufs[i], 1, &P->t);
    close_phase(P);
  }
  CgBuilder body;
  MlirValue iv;
  cg_for_step(&P->scope, bounds[0], bounds[1], bounds[2], 0, NULL, &body, &iv, NULL);
  cg_yield(&body, 0, NULL);
  body.before = mlirBlockGetTerminator(body.block);
  MlirBlock ob = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  put(P, mlirBlockGetArgument(ob, 0), VK_UNIFORM, iv);
  for (intptr_t i = 0; i < n_iter; ++i)
    put(P, mlirBlockGetArgument(ob, 1 + i), VK_BUFFER, (MlirValue){NULL})->buf = bufs[i];
  CgBuilder outer = P->scope;
  P->scope = body;
  bool ok = emit_block(P, ob);
  ok = ok && store_yield(P, ob, n_iter, bufs);
  close_phase(P);
  P->scope = outer;
  for (intptr_t i = 0; i < n_iter; ++i)
    put(P, mlirOperationGetResult(op, i), VK_BUFFER, (MlirValue){NULL})->buf = bufs[i];
  return ok;
}

/* The yield at the end of a split region: every value read, then stored to bufs. */
static bool store_yield(Ph *P, MlirBlock ob, intptr_t n, const MlirValue *bufs) {
  if (n == 0)
    return true;
  MlirOperation y = mlirBlockGetTerminator(ob);
  MlirValue vals[CG_MAX_ITER];
  open_phase(P);
  for (intptr_t i = 0; i < n; ++i)
    if (mlirValueIsNull(vals[i] = resolve(P, mlirOperationGetOperand(y, i), y)))
      return fail(P, y, "a yielded value that is not the kernel's");
  for (intptr_t i = 0; i < n; ++i)
    cg_store(&P->pb, vals[i], bufs[i], 1, &P->t);
  return true;
}

/* An scf.if with a uniform condition holding split points: the if at the block level,
 * each branch emitted phase by phase, its results per-thread buffers. */
static bool emit_uniform_if(Ph *P, MlirOperation op, MlirOperation split) {
  VInfo *c = info(P, mlirOperationGetOperand(op, 0));
  if (!c || c->kind != VK_UNIFORM)
    return fail(P, split,
                "a split point (gpu.barrier, gpu.shuffle) under an scf.if whose condition depends on the threads "
                "(expected a condition on constants, arguments, block ids and arith on them)");
  intptr_t n_res = mlirOperationGetNumResults(op);
  MlirValue bufs[CG_MAX_ITER];
  if (n_res > CG_MAX_ITER)
    return fail(P, op, "too many results");
  close_phase(P);
  for (intptr_t i = 0; i < n_res; ++i)
    if (mlirValueIsNull(bufs[i] = buffer_of(P, op, mlirValueGetType(mlirOperationGetResult(op, i)))))
      return false;
  CgBuilder branch[2];
  cg_if(&P->scope, c->v, &branch[0], &branch[1]);
  CgBuilder outer = P->scope;
  bool ok = true;
  for (int r = 0; r < 2 && ok; ++r) {
    MlirBlock ob = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
    if (mlirBlockIsNull(ob))
      continue;
    P->scope = branch[r];
    ok = emit_block(P, ob) && store_yield(P, ob, n_res, bufs);
    close_phase(P);
  }
  P->scope = outer;
  for (intptr_t i = 0; i < n_res; ++i)
    put(P, mlirOperationGetResult(op, i), VK_BUFFER, (MlirValue){NULL})->buf = bufs[i];
  return ok;
}

static bool is_workgroup_alloca(MlirOperation op) {
  if (!braze_op_is(op, "memref.alloca"))
    return false;
  MlirAttribute space = mlirMemRefTypeGetMemorySpace(mlirValueGetType(mlirOperationGetResult(op, 0)));
  return !mlirAttributeIsNull(space) && cg_attr_text_has(space, "workgroup");
}

static bool emit_op(Ph *P, MlirOperation op, bool top) {
  if (braze_op_is(op, "gpu.barrier")) {
    close_phase(P);
    return true;
  }
  if (braze_op_is(op, "gpu.shuffle"))
    return emit_shuffle(P, op);
  if (is_workgroup_alloca(op)) {
    MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
    if (!top || !mlirShapedTypeHasStaticShape(t) || mlirShapedTypeGetRank(t) > 8)
      return fail(P, op, "a workgroup memref.alloca below the top level, of dynamic shape or of rank above 8 "
                         "(expected static, at the top level: one per block)");
    intptr_t rank = mlirShapedTypeGetRank(t);
    int64_t shape[8];
    for (intptr_t d = 0; d < rank && d < 8; ++d)
      shape[d] = mlirShapedTypeGetDimSize(t, d);
    MlirType mt = mlirMemRefTypeGet(mlirShapedTypeGetElementType(t), rank, shape, mlirAttributeGetNull(),
                                    mlirAttributeGetNull());
    put(P, mlirOperationGetResult(op, 0), VK_UNIFORM,
        mlirOperationGetResult(cg_create(&P->allocas, "memref.alloca", 0, NULL, 1, &mt, 0, NULL), 0));
    return true;
  }
  if (braze_op_is(op, "gpu.dynamic_shared_memory"))
    return true; /* its views (checked disjoint: uk_shared_views) are the block's buffers */
  if (braze_op_is(op, "memref.view")) {
    int i = 0;
    while (i < P->n_views && !mlirOperationEqual(P->views[i].view, op))
      ++i;
    if (i == P->n_views)
      return fail(P, op, "a memref.view of other than gpu.dynamic_shared_memory");
    MlirType st = P->views[i].type, t = mlirValueGetType(mlirOperationGetResult(op, 0));
    intptr_t rank = mlirShapedTypeGetRank(st);
    int64_t shape[8], dyn[8];
    for (intptr_t d = 0; d < rank; ++d) {
      shape[d] = mlirShapedTypeGetDimSize(st, d);
      dyn[d] = mlirShapedTypeGetDimSize(t, d);
    }
    MlirType elem = mlirShapedTypeGetElementType(st);
    MlirType mt = mlirMemRefTypeGet(elem, rank, shape, mlirAttributeGetNull(), mlirAttributeGetNull());
    MlirValue buf = mlirOperationGetResult(cg_create(&P->allocas, "memref.alloca", 0, NULL, 1, &mt, 0, NULL), 0);
    if (!mlirShapedTypeHasStaticShape(t)) { /* the view's own type, without the address space */
      MlirType dt = mlirMemRefTypeGet(elem, rank, dyn, mlirAttributeGetNull(), mlirAttributeGetNull());
      buf = mlirOperationGetResult(cg_create(&P->allocas, "memref.cast", 1, &buf, 1, &dt, 0, NULL), 0);
    }
    put(P, mlirOperationGetResult(op, 0), VK_UNIFORM, buf);
    return true;
  }
  if (braze_op_is(op, "memref.alloca") || braze_op_is(op, "memref.alloc"))
    return fail(P, op, "a per-thread allocation (expected only workgroup allocas on the CPU)");
  if (braze_op_is(op, "scf.parallel"))
    return fail(P, op, "scf.parallel inside a GPU-form kernel");
  if (braze_op_is(op, "gpu.thread_id")) {
    put(P, mlirOperationGetResult(op, 0), VK_TID, (MlirValue){NULL})->dim = braze_gpu_dimension(op);
    return true;
  }
  if (braze_op_is(op, "gpu.block_id") || braze_op_is(op, "gpu.block_dim") || braze_op_is(op, "gpu.grid_dim")) {
    CgBuilder b = uniform_builder(P);
    put(P, mlirOperationGetResult(op, 0), VK_UNIFORM, id_value(P, &b, op));
    return true;
  }
  MlirOperation split = {NULL};
  mlirOperationWalk(op, find_split, &split, MlirWalkPreOrder);
  if (split.ptr) {
    if (braze_op_is(op, "scf.for"))
      return emit_uniform_for(P, op, split);
    if (braze_op_is(op, "scf.if"))
      return emit_uniform_if(P, op, split);
    MlirStringRef n = braze_op_name(op);
    char msg[200];
    snprintf(msg, sizeof msg,
             "a split point under '%.*s' (a barrier or shuffle splits only at the top level, in scf.for loops "
             "with uniform bounds and under scf.if with a uniform condition)", (int)n.length, n.data);
    return fail(P, split, msg);
  }
  if (is_uniform_op(P, op)) {
    CgBuilder b = uniform_builder(P);
    MlirOperation c = clone_at(P, &b, op);
    put(P, mlirOperationGetResult(op, 0), VK_UNIFORM, mlirOperationGetResult(c, 0));
    return !P->failed;
  }
  open_phase(P);
  bool remat = is_remat_op(P, op);
  MlirOperation c = clone_at(P, &P->pb, op);
  for (intptr_t r = 0, n = mlirOperationGetNumResults(op); r < n; ++r) {
    VInfo *x = put(P, mlirOperationGetResult(op, r), VK_PHASE, mlirOperationGetResult(c, r));
    x->def = c;
    x->remat = remat ? op : (MlirOperation){NULL};
  }
  return !P->failed;
}

static bool emit_block(Ph *P, MlirBlock blk) {
  MlirOperation term = mlirBlockGetTerminator(blk);
  for (MlirOperation op = mlirBlockGetFirstOperation(blk); !mlirOperationIsNull(op) && !P->failed;
       op = mlirOperationGetNextInBlock(op))
    if (!mlirOperationEqual(op, term) && !emit_op(P, op, mlirOperationEqual(mlirOperationGetParentOperation(op), P->func)))
      return false;
  return !P->failed;
}

/* The clone made for `name` earlier (braze.cpu_form_of = @name), or null. */
static MlirOperation find_clone(MlirOperation module, const char *name) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation f = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f)) {
    MlirAttribute of = mlirOperationGetDiscardableAttributeByName(f, braze_ref("braze.cpu_form_of"));
    if (braze_op_is(f, "func.func") && !mlirAttributeIsNull(of) && braze_ref_eq(mlirFlatSymbolRefAttrGetValue(of), name))
      return f;
  }
  return (MlirOperation){NULL};
}

MlirAttribute cg_user_gpu_kernel(MlirOperation callee, MlirOperation module) {
  MlirContext ctx = mlirOperationGetContext(callee);
  MlirStringRef nref = mlirStringAttrGetValue(mlirOperationGetAttributeByName(callee, braze_ref("sym_name")));
  char name[256], cpu_name[272];
  snprintf(name, sizeof name, "%.*s", (int)nref.length, nref.data);
  snprintf(cpu_name, sizeof cpu_name, "%s_cpu", name);
  MlirOperation made = find_clone(module, name);
  if (!mlirOperationIsNull(made))
    return mlirFlatSymbolRefAttrGet(ctx, mlirStringAttrGetValue(mlirOperationGetAttributeByName(made, braze_ref("sym_name"))));
  MlirSymbolTable table = mlirSymbolTableCreate(module);
  char *unique = mlirOperationIsNull(mlirSymbolTableLookup(table, braze_ref(cpu_name))) ? strdup(cpu_name)
                                                                                         : cg_unique_symbol(table, cpu_name);
  mlirSymbolTableDestroy(table);
  snprintf(cpu_name, sizeof cpu_name, "%s", unique);
  free(unique);
  MlirAttribute sym = mlirFlatSymbolRefAttrGet(ctx, braze_ref(cpu_name));
  Ph P = {.func = callee, .name = name, .ctx = ctx, .loc = mlirOperationGetLocation(callee)};
  if (!braze_gpu_launch_read(callee, "cpu-codegen", P.grid, P.block))
    return mlirAttributeGetNull();
  P.threads = P.block[0] * P.block[1] * P.block[2];
  char why[256];
  MlirOperation bad;
  if (!uk_shared_views(callee, P.views, &P.n_views, &bad, why, sizeof why)) {
    fail(&P, bad, why);
    return mlirAttributeGetNull();
  }
  MlirOperation fn = mlirOperationClone(callee);
  mlirOperationSetAttributeByName(fn, braze_ref("sym_name"), mlirStringAttrGet(ctx, braze_ref(cpu_name)));
  mlirOperationRemoveDiscardableAttributeByName(fn, braze_ref("braze.gpu_launch"));
  mlirOperationSetDiscardableAttributeByName(fn, braze_ref("braze.cpu_form_of"), mlirFlatSymbolRefAttrGet(ctx, nref));
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0));
  BrazeOpList old = {0}; /* the clone's body, erased users first */
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    braze_op_list_push(&old, op);
  for (size_t i = old.count; i-- > 0;)
    mlirOperationDestroy(old.ops[i]);
  braze_op_list_free(&old);
  MlirBlock ub = mlirRegionGetFirstBlock(mlirOperationGetRegion(callee, 0));
  for (intptr_t i = 0, n = mlirBlockGetNumArguments(ub); i < n; ++i)
    put(&P, mlirBlockGetArgument(ub, i), VK_UNIFORM, mlirBlockGetArgument(entry, i));
  CgBuilder fb = cg_builder_at_end(entry, P.loc);
  CgBuilder body;
  cg_parallel(&fb, 3, P.grid, &body, P.bid);
  MlirOperation anchor = mlirOpResultGetOwner(cg_index(&body, 0));
  P.allocas = body;
  P.allocas.before = anchor;
  P.scope = body;
  bool ok = emit_block(&P, ub);
  cg_create(&fb, "func.return", 0, NULL, 0, NULL, 0, NULL);
  free(P.vals);
  braze_ptrmap_free(&P.index);
  if (!ok) {
    mlirOperationDestroy(fn);
    return mlirAttributeGetNull();
  }
  mlirBlockInsertOwnedOperationAfter(mlirOperationGetBlock(callee), callee, fn);
  return sym;
}

typedef struct {
  const char *name;
  MlirOperation found;
} CallOf;

static MlirWalkResult find_call(MlirOperation op, void *user) {
  CallOf *q = user;
  if (!braze_op_is(op, "func.call"))
    return MlirWalkResultAdvance;
  MlirAttribute c = mlirOperationGetAttributeByName(op, braze_ref("callee"));
  if (!braze_ref_eq(mlirFlatSymbolRefAttrGetValue(c), q->name))
    return MlirWalkResultAdvance;
  q->found = op;
  return MlirWalkResultInterrupt;
}

bool cg_erase_gpu_form(MlirOperation module) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation f = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(f);) {
    MlirOperation next = mlirOperationGetNextInBlock(f);
    if (braze_op_is(f, "func.func") && braze_is_gpu_form(f)) {
      MlirStringRef n = mlirStringAttrGetValue(mlirOperationGetAttributeByName(f, braze_ref("sym_name")));
      char name[256];
      snprintf(name, sizeof name, "%.*s", (int)n.length, n.data);
      CallOf q = {.name = name};
      mlirOperationWalk(module, find_call, &q, MlirWalkPreOrder);
      if (q.found.ptr) {
        braze_emit_error(mlirOperationGetLocation(q.found),
                         "cpu-codegen: user kernel @%s in the GPU form called from another function than its ext "
                         "kernel (expected calls from the graph only)", name);
        return false;
      }
      mlirOperationDestroy(f);
    }
    f = next;
  }
  return true;
}
