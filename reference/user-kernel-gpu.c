/* The reference interpreter, GPU-form user kernels (decision 0027): a user kernel with
 * `braze.gpu_launch = {grid = array<i64: ...>, block = array<i64: ...>}`.
 *
 * Every block of the grid runs in turn (x fastest, then y, z). The threads of a block
 * are coroutines (ucontext) on one OS thread, each with its own value environment and
 * stack, scheduled in linear-id order (linear id = x + bx * (y + by * z)): a thread
 * runs until it reaches a gpu.barrier or a gpu.shuffle, or returns. Then
 *   - a warp (32 consecutive linear ids) whose live threads all wait at the same
 *     gpu.shuffle exchanges its values and goes on;
 *   - once every live thread of the block waits at the same gpu.barrier, all go on.
 * Threads that wait at a barrier while others of the block returned (barrier
 * divergence), wait at different barriers, or a warp split between a shuffle and
 * anything else are errors at the op. The schedule is fixed, so a run is deterministic
 * (atomics apply in linear-id order within a round). Workgroup memory (a top-level
 * memref.alloca in #gpu.address_space<workgroup>) is one buffer per block, NaN (floats)
 * or -1 (integers) until written; so is each memref.view of gpu.dynamic_shared_memory
 * (braze.gpu_launch's shared_bytes), whose byte range, evaluated when the first thread
 * of the block reaches it, must lie within shared_bytes, be aligned to its element and
 * not overlap another view's (the same range in every thread). One OS thread: the MLIR
 * C API is only read from it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#include "ir/build.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "reference/internal.h"
#include "reference/user-kernel-internal.h"
#include "support/context.h"
#include "support/diag.h"

enum { STACK_BYTES = 256 * 1024, WARP = 32, MAX_SHARED = 64 };

typedef enum { T_READY, T_BARRIER, T_SHUFFLE, T_DONE } TState;

typedef struct Launch Launch;

typedef struct RefGpuThread {
  ucontext_t ctx;
  Launch *launch;
  Kx k;
  int64_t tid[3];
  int linear;
  TState state;
  bool ok;
  MlirOperation wait_op;
  double shfl_val, shfl_out;
  int64_t shfl_lane; /* the source lane, computed from the mode */
  int64_t shfl_width;
  bool shfl_valid;
  char *stack;
} RefGpuThread;

struct Launch {
  ucontext_t sched;
  MlirBlock entry;
  RV *args;
  int64_t grid[3], block[3], bid[3];
  RefGpuThread *threads;
  int n;
  bool abort; /* an error: blocked threads unwind (their waits return false) */
  MlirOperation shared_ops[MAX_SHARED];
  BrazeHostTensor shared[MAX_SHARED];
  int64_t shared_lo[MAX_SHARED], shared_hi[MAX_SHARED]; /* a view's bytes; -1: an alloca */
  int num_shared;
  int64_t shared_bytes; /* braze.gpu_launch shared_bytes (0: none) */
};

static RefGpuThread *g_starting; /* the thread thread_main starts (one OS thread) */
static int g_running;             /* launches in progress: a GPU kernel calling another is refused */

static void thread_main(void) {
  RefGpuThread *t = g_starting;
  RV out[1];
  intptr_t n = 0;
  t->ok = ref_uk_exec_block(&t->k, t->launch->entry, t->launch->args, out, &n);
  t->state = T_DONE;
  /* returns to uc_link: the scheduler */
}

/* Block until the scheduler resumes this thread; false when the launch aborts. */
static bool wait_here(RefGpuThread *t, TState state, MlirOperation op) {
  t->state = state;
  t->wait_op = op;
  swapcontext(&t->ctx, &t->launch->sched);
  return !t->launch->abort;
}

static int dim_of(MlirOperation op) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, braze_ref("dimension"));
  if (mlirAttributeIsNull(a))
    return -1;
  return cg_attr_text_has(a, "dim x") ? 0 : cg_attr_text_has(a, "dim y") ? 1 : cg_attr_text_has(a, "dim z") ? 2 : -1;
}

static bool set_scalar(Kx *k, MlirValue v, double x) {
  RV r;
  memset(&r, 0, sizeof r);
  r.v[0] = x;
  ref_uk_set(k, v, &r);
  return true;
}

/* The block's buffer of `op` (an alloca, or a view at bytes [lo, hi)), made of type
 * `t` by the block's first thread to reach it. */
static bool shared_buffer(Kx *k, MlirOperation op, MlirType t, int64_t lo, int64_t hi) {
  Launch *L = k->gpu->launch;
  int i = 0;
  while (i < L->num_shared && !mlirOperationEqual(L->shared_ops[i], op))
    ++i;
  if (i < L->num_shared && (L->shared_lo[i] != lo || L->shared_hi[i] != hi))
    return ref_fail(op, "memref.view of gpu.dynamic_shared_memory at bytes [%lld, %lld) in one thread and [%lld, "
                        "%lld) in another of user kernel @%s (expected the same view in every thread)",
                    (long long)lo, (long long)hi, (long long)L->shared_lo[i], (long long)L->shared_hi[i], k->kernel);
  if (i == L->num_shared) {
    if (L->num_shared == MAX_SHARED)
      return ref_fail(op, "more than %d workgroup buffers in user kernel @%s", MAX_SHARED, k->kernel);
    for (int j = 0; lo >= 0 && j < L->num_shared; ++j)
      if (L->shared_lo[j] >= 0 && lo < L->shared_hi[j] && L->shared_lo[j] < hi && lo < hi)
        return ref_fail(op, "memref.view of gpu.dynamic_shared_memory at bytes [%lld, %lld) overlaps another "
                            "view's [%lld, %lld) in user kernel @%s (views must be disjoint)",
                        (long long)lo, (long long)hi, (long long)L->shared_lo[j], (long long)L->shared_hi[j],
                        k->kernel);
    if (!ref_buffer_init(&L->shared[i], t))
      return ref_fail(op, "workgroup buffer must be a static memref of a supported element type");
    for (int64_t e = 0; e < braze_tensor_numel(&L->shared[i]); ++e)
      L->shared[i].data[e] = braze_dtype_is_float(L->shared[i].dtype) ? NAN : -1;
    L->shared_ops[i] = op;
    L->shared_lo[i] = lo;
    L->shared_hi[i] = hi;
    L->num_shared++;
  }
  RV r;
  memset(&r, 0, sizeof r);
  r.mem = &L->shared[i];
  ref_uk_set(k, mlirOperationGetResult(op, 0), &r);
  return true;
}

static bool eval_alloca(Kx *k, MlirOperation op) {
  Launch *L = k->gpu->launch;
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  MlirAttribute space = mlirTypeIsAMemRef(t) ? mlirMemRefTypeGetMemorySpace(t) : (MlirAttribute){NULL};
  if (mlirAttributeIsNull(space) || !cg_attr_text_has(space, "workgroup") ||
      !mlirBlockEqual(mlirOperationGetBlock(op), L->entry))
    return ref_fail(op, "only top-level memref.alloca in #gpu.address_space<workgroup> is supported in GPU-form "
                        "user kernel @%s", k->kernel);
  return shared_buffer(k, op, t, -1, -1);
}

/* memref.view %dyn[offset][sizes]: the block's buffer at those bytes. */
static bool eval_view(Kx *k, MlirOperation op) {
  Launch *L = k->gpu->launch;
  MlirValue src = mlirOperationGetOperand(op, 0);
  if (!mlirValueIsAOpResult(src) || !braze_op_is(mlirOpResultGetOwner(src), "gpu.dynamic_shared_memory"))
    return ref_fail(op, "memref.view is evaluated only of gpu.dynamic_shared_memory in GPU-form user kernel @%s",
                    k->kernel);
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  intptr_t rank = mlirShapedTypeGetRank(t), next = 2;
  int64_t shape[8], elem = cg_elem_bytes(mlirShapedTypeGetElementType(t)), numel = 1;
  RV off, size;
  if (rank > 8 || elem <= 0 || !ref_uk_operand(k, op, 1, &off))
    return ref_fail(op, "memref.view of gpu.dynamic_shared_memory of an unsupported type in user kernel @%s",
                    k->kernel);
  for (intptr_t d = 0; d < rank; ++d) {
    shape[d] = mlirShapedTypeGetDimSize(t, d);
    if (mlirShapedTypeIsDynamicDim(t, d)) {
      if (!ref_uk_operand(k, op, next++, &size))
        return false;
      shape[d] = (int64_t)size.v[0];
    }
    numel *= shape[d];
  }
  int64_t lo = (int64_t)off.v[0], hi = lo + numel * elem;
  if (lo < 0 || lo % elem || numel < 0 || hi > L->shared_bytes)
    return ref_fail(op, "memref.view of gpu.dynamic_shared_memory at bytes [%lld, %lld) is outside the %lld bytes "
                        "of braze.gpu_launch shared_bytes or not aligned to its element in user kernel @%s",
                    (long long)lo, (long long)hi, (long long)L->shared_bytes, k->kernel);
  MlirType st = mlirMemRefTypeGet(mlirShapedTypeGetElementType(t), rank, shape, mlirAttributeGetNull(),
                                  mlirMemRefTypeGetMemorySpace(t));
  return shared_buffer(k, op, st, lo, hi);
}

static bool eval_shuffle(Kx *k, MlirOperation op) {
  RefGpuThread *t = k->gpu;
  RV v, off, width;
  if (!ref_uk_operand(k, op, 0, &v) || !ref_uk_operand(k, op, 1, &off) || !ref_uk_operand(k, op, 2, &width))
    return false;
  if (v.lanes)
    return ref_fail(op, "gpu.shuffle of a vector is not supported");
  if (width.v[0] < 1 || width.v[0] > WARP)
    return ref_fail(op, "gpu.shuffle width %g is not in [1, %d] in user kernel @%s", width.v[0], WARP, k->kernel);
  MlirAttribute mode = mlirOperationGetAttributeByName(op, braze_ref("mode"));
  int64_t lane = t->linear % WARP, o = (int64_t)off.v[0];
  if (mlirAttributeIsNull(mode))
    return ref_fail(op, "gpu.shuffle without a mode");
  t->shfl_lane = cg_attr_text_has(mode, "xor") ? (lane ^ o) : cg_attr_text_has(mode, "down") ? lane + o
               : cg_attr_text_has(mode, "up")  ? lane - o : o;
  t->shfl_val = v.v[0];
  t->shfl_width = (int64_t)width.v[0];
  if (!wait_here(t, T_SHUFFLE, op))
    return false;
  set_scalar(k, mlirOperationGetResult(op, 0), t->shfl_out);
  return set_scalar(k, mlirOperationGetResult(op, 1), t->shfl_valid ? 1 : 0);
}

bool ref_gpu_op(Kx *k, MlirOperation op, const char *name) {
  RefGpuThread *t = k->gpu;
  Launch *L = t->launch;
  if (!strcmp(name, "memref.alloca"))
    return eval_alloca(k, op);
  if (!strcmp(name, "memref.view"))
    return eval_view(k, op);
  if (!strcmp(name, "gpu.dynamic_shared_memory")) {
    if (L->shared_bytes <= 0 || !mlirBlockEqual(mlirOperationGetBlock(op), L->entry))
      return ref_fail(op, "gpu.dynamic_shared_memory needs braze.gpu_launch shared_bytes and the top level of "
                          "GPU-form user kernel @%s", k->kernel);
    return set_scalar(k, mlirOperationGetResult(op, 0), 0); /* its views make the buffers */
  }
  if (!strcmp(name, "scf.parallel"))
    return ref_fail(op, "scf.parallel is not allowed in GPU-form user kernel @%s (the threads are the parallelism)",
                    k->kernel);
  if (!strcmp(name, "gpu.barrier"))
    return wait_here(t, T_BARRIER, op);
  if (!strcmp(name, "gpu.shuffle"))
    return eval_shuffle(k, op);
  const int64_t *src = !strcmp(name, "gpu.thread_id") ? t->tid : !strcmp(name, "gpu.block_id") ? L->bid
                     : !strcmp(name, "gpu.block_dim") ? L->block : !strcmp(name, "gpu.grid_dim") ? L->grid : NULL;
  int d = src ? dim_of(op) : -1;
  if (!src || d < 0)
    return ref_fail(op, "unsupported op in GPU-form user kernel @%s (the reference evaluates gpu.thread_id, "
                        "block_id, block_dim, grid_dim, barrier, shuffle and dynamic_shared_memory: docs/user-kernels.md)", k->kernel);
  return set_scalar(k, mlirOperationGetResult(op, 0), (double)src[d]);
}

/* ---- the scheduler ---- */

static void start_thread(Launch *L, RefGpuThread *t) {
  g_starting = t;
  swapcontext(&L->sched, &t->ctx);
}

static void resume(Launch *L, RefGpuThread *t) {
  t->state = T_READY;
  swapcontext(&L->sched, &t->ctx);
}

/* Resolve the warps whose live threads all wait at one shuffle; an error (after a
 * message) for a warp split between a shuffle and a barrier or a return. */
static bool shuffle_warps(Launch *L, bool *any) {
  *any = false;
  for (int w = 0; w * WARP < L->n; ++w) {
    RefGpuThread *lanes = &L->threads[w * WARP];
    int n = L->n - w * WARP < WARP ? L->n - w * WARP : WARP, at = -1;
    for (int l = 0; l < n && at < 0; ++l)
      if (lanes[l].state == T_SHUFFLE)
        at = l;
    if (at < 0)
      continue;
    MlirOperation op = lanes[at].wait_op;
    for (int l = 0; l < n; ++l)
      if (lanes[l].state != T_SHUFFLE || !mlirOperationEqual(lanes[l].wait_op, op))
        return ref_fail(op, "warp divergence in user kernel @%s block (%lld,%lld,%lld): thread %d waits at this "
                            "gpu.shuffle while thread %d of its warp %s", lanes[at].k.kernel,
                        (long long)L->bid[0], (long long)L->bid[1], (long long)L->bid[2], lanes[at].linear,
                        lanes[l].linear, lanes[l].state == T_DONE ? "has returned"
                                         : lanes[l].state == T_BARRIER ? "waits at a gpu.barrier"
                                                                       : "waits at another gpu.shuffle");
    for (int l = 0; l < n; ++l) {
      RefGpuThread *t = &lanes[l];
      t->shfl_valid = t->shfl_lane >= 0 && t->shfl_lane < t->shfl_width && t->shfl_lane < n;
      t->shfl_out = t->shfl_valid ? lanes[t->shfl_lane].shfl_val : t->shfl_val;
    }
    for (int l = 0; l < n; ++l)
      lanes[l].state = T_READY;
    *any = true;
  }
  return true;
}

/* Every live thread waits at one barrier: release them. False (after a message) on
 * divergence; *done when every thread returned. */
static bool barrier_release(Launch *L, bool *done) {
  int waiting = -1, returned = -1;
  for (int i = 0; i < L->n; ++i) {
    if (L->threads[i].state == T_BARRIER && waiting < 0)
      waiting = i;
    if (L->threads[i].state == T_DONE && returned < 0)
      returned = i;
  }
  *done = waiting < 0;
  if (waiting < 0)
    return true;
  RefGpuThread *w = &L->threads[waiting];
  if (returned >= 0)
    return ref_fail(w->wait_op, "barrier divergence in user kernel @%s block (%lld,%lld,%lld): thread %d waits at "
                                "this gpu.barrier but thread %d has returned", w->k.kernel, (long long)L->bid[0],
                    (long long)L->bid[1], (long long)L->bid[2], w->linear, L->threads[returned].linear);
  for (int i = 0; i < L->n; ++i)
    if (!mlirOperationEqual(L->threads[i].wait_op, w->wait_op))
      return ref_fail(w->wait_op, "barrier divergence in user kernel @%s: thread %d waits at this gpu.barrier, "
                                  "thread %d at another one", w->k.kernel, w->linear, L->threads[i].linear);
  for (int i = 0; i < L->n; ++i)
    L->threads[i].state = T_READY;
  return true;
}

/* Run one block; false after an error (every thread unwound). */
static bool run_block(Launch *L, const char *kname) {
  for (int i = 0; i < L->n; ++i) {
    RefGpuThread *t = &L->threads[i];
    ref_uk_env_free(&t->k);
    t->k.kernel = kname;
    t->k.gpu = t;
    t->launch = L;
    t->linear = i;
    t->tid[0] = i % L->block[0];
    t->tid[1] = (i / L->block[0]) % L->block[1];
    t->tid[2] = i / (L->block[0] * L->block[1]);
    t->state = T_READY;
    t->ok = true;
    t->wait_op = (MlirOperation){NULL};
    getcontext(&t->ctx);
    t->ctx.uc_stack.ss_sp = t->stack;
    t->ctx.uc_stack.ss_size = STACK_BYTES;
    t->ctx.uc_link = &L->sched;
    makecontext(&t->ctx, thread_main, 0);
    start_thread(L, t);
    if (!t->ok)
      break;
  }
  bool ok = true;
  for (;;) {
    for (int i = 0; ok && i < L->n; ++i) {
      if (L->threads[i].state == T_DONE && !L->threads[i].ok)
        ok = false;
      else if (L->threads[i].state == T_READY && L->threads[i].wait_op.ptr) {
        resume(L, &L->threads[i]);
        ok = L->threads[i].state != T_DONE || L->threads[i].ok;
      }
    }
    bool any = false, done = false;
    if (ok)
      ok = shuffle_warps(L, &any);
    if (ok && any)
      continue;
    if (ok)
      ok = barrier_release(L, &done);
    if (!ok || done)
      break;
  }
  if (!ok) { /* unwind every thread still waiting, so their frames free what they hold */
    L->abort = true;
    for (int i = 0; i < L->n; ++i)
      if (L->threads[i].state == T_BARRIER || L->threads[i].state == T_SHUFFLE)
        resume(L, &L->threads[i]);
  }
  for (int i = 0; i < L->num_shared; ++i)
    braze_tensor_free(&L->shared[i]);
  L->num_shared = 0;
  return ok;
}

static bool read_launch(MlirOperation callee, int64_t grid[3], int64_t block[3]) {
  MlirAttribute launch = mlirOperationGetAttributeByName(callee, braze_ref("braze.gpu_launch"));
  if (!mlirAttributeIsADictionary(launch))
    return false;
  static const char *const keys[2] = {"grid", "block"};
  int64_t *dims[2] = {grid, block};
  for (int k = 0; k < 2; ++k) {
    MlirAttribute a = mlirDictionaryAttrGetElementByName(launch, braze_ref(keys[k]));
    intptr_t n = mlirAttributeIsNull(a) || !mlirAttributeIsADenseI64Array(a) ? 0 : mlirDenseArrayGetNumElements(a);
    if (n < 1 || n > 3)
      return false;
    for (int d = 0; d < 3; ++d) {
      dims[k][d] = d < n ? mlirDenseI64ArrayGetElement(a, d) : 1;
      if (dims[k][d] < 1)
        return false;
    }
  }
  return block[0] * block[1] * block[2] <= 1024;
}

/* braze.gpu_launch's shared_bytes: 0 when absent, -1 when not a positive integer. */
static int64_t read_shared_bytes(MlirOperation callee) {
  MlirAttribute launch = mlirOperationGetAttributeByName(callee, braze_ref("braze.gpu_launch"));
  MlirAttribute a = mlirDictionaryAttrGetElementByName(launch, braze_ref("shared_bytes"));
  if (mlirAttributeIsNull(a))
    return 0;
  return mlirAttributeIsAInteger(a) && mlirIntegerAttrGetValueInt(a) > 0 ? mlirIntegerAttrGetValueInt(a) : -1;
}

bool ref_gpu_launch(MlirOperation call, MlirOperation callee, BrazeHostTensor *const *bufs, size_t n,
                    const char *kname) {
  if (g_running)
    return ref_fail(call, "GPU-form user kernel @%s is called from a GPU-form user kernel (a launch inside a "
                          "thread is not supported)", kname);
  Launch *L = calloc(1, sizeof *L);
  if (!read_launch(callee, L->grid, L->block) || (L->shared_bytes = read_shared_bytes(callee)) < 0) {
    free(L);
    return ref_fail(call, "user kernel @%s has a malformed braze.gpu_launch (grid and block: array<i64> of 1 to 3 "
                          "positive entries, at most 1024 threads a block, shared_bytes a positive integer; run "
                          "user-kernel-analysis)", kname);
  }
  L->entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(callee, 0));
  L->args = calloc(n + 1, sizeof *L->args);
  for (size_t i = 0; i < n; ++i)
    L->args[i].mem = bufs[i];
  L->n = (int)(L->block[0] * L->block[1] * L->block[2]);
  L->threads = calloc((size_t)L->n, sizeof *L->threads);
  bool ok = true;
  g_running++;
  for (int i = 0; i < L->n && ok; ++i)
    ok = (L->threads[i].stack = malloc(STACK_BYTES)) != NULL;
  if (!ok)
    ref_fail(call, "cannot allocate %d thread stacks for user kernel @%s", L->n, kname);
  for (L->bid[2] = 0; ok && L->bid[2] < L->grid[2]; ++L->bid[2])
    for (L->bid[1] = 0; ok && L->bid[1] < L->grid[1]; ++L->bid[1])
      for (L->bid[0] = 0; ok && L->bid[0] < L->grid[0]; ++L->bid[0])
        ok = run_block(L, kname);
  g_running--;
  for (int i = 0; i < L->n; ++i) {
    ref_uk_env_free(&L->threads[i].k);
    free(L->threads[i].stack);
  }
  free(L->threads);
  free(L->args);
  free(L);
  if (!ok)
    braze_emit(mlirOperationGetLocation(call), BRAZE_DIAG_NOTE, "called from here (@%s)", kname);
  return ok;
}
