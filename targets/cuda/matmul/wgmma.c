/* cuda-codegen, the Hopper tensor-core template: a contraction (batch..., m, n, k) over
 * bf16 or f16 inputs and its pointwise epilogue as one kernel on TMA and wgmma.
 *
 * One block of 256 threads (two warpgroups) computes a BM x BN output tile (BM = 128,
 * BN = 256, 128, or 64 when N <= 64), warpgroup w the rows [64 w, 64 w + 64). Over k, in steps of 64:
 *
 *   stage s of `stages` in dynamic shared memory (1024-aligned, 128-byte swizzle):
 *     A box  [BM][64]        from A viewed as [batch * M][K]   (TMA, one box; a conv's
 *                            window: one 4-D box [bn][bh][bw][64] of one filter tap from
 *                            the padded input, targets/cuda/matmul/window.c)
 *     B box  BN/64 x [64][64] from B as [K][N]                  (TMA, one box per 64 columns)
 *   thread 0 arms full[s] with the bytes to expect and issues the loads; every thread
 *   waits on full[s] (parity: the round), each warpgroup issues its wgmma chain
 *   (m64nBNk16, four per step) and waits for the previous step's chain, after which a
 *   block barrier frees the previous stage and thread 0 refills it `stages` steps ahead.
 *
 * The accumulators (64 x BN f32 per warpgroup, in registers) then go to shared memory
 * (the stages' space, rows padded against bank conflicts; both warpgroups store through
 * one 64-row view, since nvgpu.warpgroup.mma.store places a thread's rows by its
 * thread id, 64 rows further for the second warpgroup), and all 256 threads run the
 * epilogue over the tile in 16-byte runs: the contraction's value read back, every
 * result evaluated at the point (cu_eval: bias, gelu, residual, casts, a product with
 * another tensor) and stored once with vector stores, masked at the M and N edges.
 * The M, N and K edges of the inputs are TMA's out-of-bounds zero fill.
 *
 * A twin (form-kernels{horizontal-templates}: two contractions of one A, W6's gate and
 * up projections) loads A once per step for both, keeps two 64x128 accumulators per
 * warpgroup and evaluates an epilogue that reads both products (silu(a) * b).
 *
 * Tiles are visited in groups of 8 tile rows (the order Triton calls grouped), so the
 * blocks running at once share A and B panels in L2. The TMA descriptors are kernel
 * parameters passed by value (`kernel.tensor_map` in the entry; nvvm.grid_constant
 * after lowering, targets/cuda/target.c), built by the runtime at launch. */
#include "targets/cuda/codegen/codegen.h"

#include <stdio.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/strbuf.h"

/* The dynamic shared memory the kernels address: TMA's 128-byte swizzle needs 1024-aligned
 * shared memory (TOOLCHAIN.md). */
#define SMEM_GLOBAL "memref.global \"private\" @braze_smem : memref<0xi8, 3> {alignment = 1024 : i64}"

enum { BM = 128, BK = 64, THREADS = 256, GROUP_M = 8, C_PAD = 8 };

static bool reads_dims(MlirAffineMap map, const int *dims, int n) {
  if (mlirAffineMapGetNumResults(map) != n)
    return false;
  for (int r = 0; r < n; ++r) {
    MlirAffineExpr e = mlirAffineMapGetResult(map, r);
    if (!mlirAffineExprIsADim(e) || mlirAffineDimExprGetPosition(e) != dims[r])
      return false;
  }
  return true;
}

/* `map` without its leading results that read dims of extent 1 (a conv's one group):
 * they index only 0. */
static MlirAffineMap unit_dims_dropped(const CuItem *c, MlirAffineMap map) {
  intptr_t n = mlirAffineMapGetNumResults(map), drop = 0;
  while (drop + 2 < n) {
    MlirAffineExpr e = mlirAffineMapGetResult(map, drop);
    if (!mlirAffineExprIsADim(e) || c->ext[mlirAffineDimExprGetPosition(e)] != 1)
      break;
    ++drop;
  }
  return drop ? mlirAffineMapGetMinorSubMap(map, n - drop) : map;
}

static MlirType arg_elem(const CuKernel *K, int val) {
  return mlirShapedTypeGetElementType(mlirValueGetType(K->vals[val].tensor));
}

static bool is_half(MlirType t) { return mlirTypeIsABF16(t) || mlirTypeIsAF16(t); }

/* The contraction's body is acc + a * b (with the inputs widened to f32). */
static bool multiply_add(const CuItem *c) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(c->op, 0));
  int muls = 0, adds = 0, others = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (braze_op_is(op, "arith.mulf"))
      ++muls;
    else if (braze_op_is(op, "arith.addf"))
      ++adds;
    else if (!braze_op_is(op, "arith.extf") && !braze_op_is(op, "linalg.yield"))
      ++others;
  }
  return muls == 1 && adds == 1 && others == 0 && c->combiner.ptr && braze_op_is(c->combiner, "arith.addf");
}

/* A window plan's blocks with tile_n columns per tile. A window's tiles take fewer
 * columns while they would give fewer blocks than half the target's multiprocessors
 * (ResNet's late stages: 32 blocks of 256 columns for 7x7 images): more blocks, less
 * work each. */
static int64_t window_blocks(const CuWgmma *w, int tile_n) {
  const CuWindow *g = &w->window;
  return g->tiles_h * g->tiles_w * ((w->n + tile_n - 1) / tile_n) * ((w->batch + g->bn - 1) / g->bn);
}

bool cu_wgmma_plan(CuKernel *K, CuWgmma *w, const char **reason) {
  const CuItem *c = &K->items[0];
  memset(w, 0, sizeof *w);
  w->n_par = c->n_dims - 1;
  w->dim_m = w->n_par - 2;
  w->dim_n = w->n_par - 1;
  w->dim_k = c->n_dims - 1;
  w->m = c->ext[w->dim_m];
  w->n = c->ext[w->dim_n];
  w->k = c->ext[w->dim_k];
  w->batch = 1;
  for (int d = 0; d < w->n_par - 2; ++d)
    w->batch *= c->ext[d];
  if (c->n_in != 2) {
    *reason = "not-two-inputs";
    return false;
  }
  const CuVal *a = &K->vals[c->in_val[0]], *b = &K->vals[c->in_val[1]];
  bool a_pad = cu_a_is_pad(K); /* read as its input, padding by TMA */
  if ((a->kind != CV_ARG && !a_pad) || b->kind != CV_ARG) {
    *reason = "inputs-not-arguments";
    return false;
  }
  MlirType ta = arg_elem(K, c->in_val[0]), tb = arg_elem(K, c->in_val[1]);
  if (!is_half(ta) || !mlirTypeEqual(ta, tb)) {
    *reason = "inputs-not-bf16-or-f16"; /* f32 stays on the SIMT kernel (no TF32 by default) */
    return false;
  }
  w->twin = cu_twin_contraction(K);
  if (!multiply_add(c) || (w->twin && !multiply_add(&K->items[1]))) {
    *reason = "not-a-multiply-add";
    return false;
  }
  if (w->twin && (K->vals[K->items[1].in_val[1]].kind != CV_ARG || !mlirTypeEqual(tb, arg_elem(K, K->items[1].in_val[1])))) {
    *reason = "twin-b-not-an-argument-of-the-same-type";
    return false;
  }
  w->arg_a = a_pad ? K->pad_arg : a->arg;
  w->arg_b[0] = b->arg;
  w->arg_b[1] = w->twin ? K->vals[K->items[1].in_val[1]].arg : -1;
  int a_dims[CU_MAX_DIMS], b_dims[2] = {w->dim_k, w->dim_n};
  for (int d = 0; d < w->n_par - 2; ++d)
    a_dims[d] = d;
  a_dims[w->n_par - 2] = w->dim_m;
  a_dims[w->n_par - 1] = w->dim_k;
  if ((a_pad || !reads_dims(c->maps[0], a_dims, w->n_par)) && !cu_window_plan(K, w, reason))
    return false; /* transposed or broadcast A, or a window the boxes cannot load */
  if (!reads_dims(unit_dims_dropped(c, c->maps[1]), b_dims, 2)) {
    *reason = mlirAffineMapGetNumResults(c->maps[1]) == 2 ? "b-not-k-by-n-row-major" : "batched-b";
    return false;
  }
  /* TMA: global strides are multiples of 16 bytes */
  if ((w->k * 2) % 16 != 0 || (w->n * 2) % 16 != 0) {
    *reason = "row-not-16-byte-aligned";
    return false;
  }
  w->tile_n = (int)K->opts->tile_n;
  if (w->n <= 128 || w->twin) /* a twin keeps two 64x128 accumulators per warpgroup: one 64x256's registers */
    w->tile_n = 128;
  if (w->n <= 64 && !w->twin) /* a 128-column tile would compute as many zero columns as real ones */
    w->tile_n = 64;
  while (w->window.on && !w->twin && w->tile_n > 64 && 2 * window_blocks(w, w->tile_n) < K->opts->sms)
    w->tile_n /= 2;
  /* 4 stages; a conv window's 3 (its k loop is short or its tiles narrow: more blocks
   * per multiprocessor hide the loads better, R1 measured 2.6% faster) */
  w->stages = K->opts->stages ? (int)K->opts->stages : w->window.on ? 3 : 4;
  int nbm = w->twin ? 2 : 1;
  int64_t stage_bytes = (int64_t)(BM * BK + nbm * BK * w->tile_n) * 2;
  int64_t c_bytes = nbm * (int64_t)BM * (w->tile_n + C_PAD) * 4;
  w->smem = stage_bytes * w->stages > c_bytes ? stage_bytes * w->stages : c_bytes;
  if (w->smem + 1024 > K->opts->smem_block) { /* the target's shared memory per block (227 KiB on sm_90) */
    *reason = "shared-memory-exceeds-the-limit";
    return false;
  }
  w->tiles_m = w->window.on ? w->window.tiles_h * w->window.tiles_w : (w->m + BM - 1) / BM;
  w->grid_y = w->window.on ? (w->batch + w->window.bn - 1) / w->window.bn : w->batch;
  w->tiles_n = (w->n + w->tile_n - 1) / w->tile_n;
  if (w->tiles_m * w->tiles_n > 0x7fffffff || w->batch > 65535) {
    *reason = "grid-too-large";
    return false;
  }
  /* the epilogue's run: 16 bytes of the narrowest result when N allows it */
  int bytes = 4;
  for (int r = 0; r < K->n_out; ++r) {
    int eb = (int)cg_elem_bytes(arg_elem(K, K->out_val[r]));
    if (eb < bytes)
      bytes = eb;
  }
  w->vec = 16 / bytes;
  while (w->vec > 1 && (w->n % w->vec != 0 || w->tile_n % w->vec != 0))
    w->vec /= 2;
  return true;
}

/* ---- the kernel's fixed part, as MLIR text ---- */

static void print_type(BrazeStr *s, MlirType t) {
  BrazeStr tmp = {0};
  mlirTypePrint(t, braze_str_callback, &tmp);
  braze_str_puts(s, braze_str_cstr(&tmp));
  braze_str_free(&tmp);
}

/* A's descriptor in braze.tma_boxes (see kernel_text). */
static void a_box_spec(BrazeStr *s, const CuWgmma *w) {
  const CuWindow *g = &w->window;
  if (!g->on) {
    braze_str_printf(s, "array<i64: %d, 64, %d>", w->arg_a, BM);
    return;
  }
  braze_str_printf(s, "array<i64: %d, 64, %lld, %lld, %d, %lld, %lld, %lld, %lld, 1, %lld, %lld, 1>", w->arg_a,
                   (long long)(g->bw * g->sw), (long long)(g->bh * g->sh), g->bn, (long long)g->c, (long long)g->wp,
                   (long long)g->hp, (long long)g->n, (long long)g->sw, (long long)g->sh);
}

/* A window's tile origin: tile %pm of an image as (%oh0, %ow0) output pixels, whose
 * first tap reads input row %hb and column %wb, of images from %img (bn per block y). */
static void window_origin(BrazeStr *s, const CuWindow *g) {
  braze_str_printf(s,
                   "  %%cTW = arith.constant %lld : index\n  %%cWBH = arith.constant %d : index\n"
                   "  %%cWBW = arith.constant %d : index\n  %%cSH = arith.constant %lld : index\n"
                   "  %%cSW = arith.constant %lld : index\n  %%cH0 = arith.constant %lld : index\n"
                   "  %%cW0 = arith.constant %lld : index\n  %%cCB = arith.constant %lld : index\n"
                   "  %%cKW = arith.constant %lld : index\n  %%cDH = arith.constant %lld : index\n"
                   "  %%cDW = arith.constant %lld : index\n"
                   "  %%th = arith.divui %%pm, %%cTW : index\n  %%tw = arith.remui %%pm, %%cTW : index\n"
                   "  %%oh0 = arith.muli %%th, %%cWBH : index\n  %%ow0 = arith.muli %%tw, %%cWBW : index\n"
                   "  %%hs = arith.muli %%oh0, %%cSH : index\n  %%hb = arith.addi %%hs, %%cH0 : index\n"
                   "  %%ws = arith.muli %%ow0, %%cSW : index\n  %%wb = arith.addi %%ws, %%cW0 : index\n"
                   "  %%cWBN = arith.constant %d : index\n  %%img = arith.muli %%batch, %%cWBN : index\n",
                   (long long)g->tiles_w, g->bh, g->bw, (long long)g->sh, (long long)g->sw, (long long)g->h0,
                   (long long)g->w0, (long long)(g->c / BK), (long long)g->kw_n, (long long)g->dh, (long long)g->dw, g->bn);
}

/* A's load of k step `t` (%kc_x = t * 64) to %av_x: one box of BM rows, or a window's
 * box of tap t / (c / 64) and channels from (t mod (c / 64)) * 64. */
static void a_load(BrazeStr *s, const CuWgmma *w, const char *t, const char *stage, const char *x, const char *tma,
                   const char *mbar, const char *a_box) {
  if (!w->window.on) {
    braze_str_printf(s, "      nvgpu.tma.async.load %%da[%%kc_%s, %%arow], %%full[%s] to %%av_%s : %s, %s -> "
                        "memref<%s, 3>\n", x, stage, x, tma, mbar, a_box);
    return;
  }
  braze_str_printf(s,
                   "      %%tap_%s = arith.divui %s, %%cCB : index\n      %%cb_%s = arith.remui %s, %%cCB : index\n"
                   "      %%cc_%s = arith.muli %%cb_%s, %%c64 : index\n"
                   "      %%kh_%s = arith.divui %%tap_%s, %%cKW : index\n      %%kw_%s = arith.remui %%tap_%s, %%cKW : index\n"
                   "      %%hd_%s = arith.muli %%kh_%s, %%cDH : index\n      %%hc_%s = arith.addi %%hb, %%hd_%s : index\n"
                   "      %%wd_%s = arith.muli %%kw_%s, %%cDW : index\n      %%wc_%s = arith.addi %%wb, %%wd_%s : index\n",
                   x, t, x, t, x, x, x, x, x, x, x, x, x, x, x, x, x, x);
  braze_str_printf(s, "      nvgpu.tma.async.load %%da[%%cc_%s, %%wc_%s, %%hc_%s, %%img], %%full[%s] to %%av_%s : "
                      "%s, %s -> memref<%s, 3>\n", x, x, x, stage, x, tma, mbar, a_box);
}

/* Text of the gpu.func: arguments, the TMA/wgmma main loop and the accumulators stored
 * to shared memory, up to a gpu.return before which the epilogue is built. With a twin
 * contraction (w->twin: one A, two Bs) every B-side part is there twice: B operand u
 * has its descriptor %db<u>, its stages at %cB<u>base, its accumulator and C tile. */
static void kernel_text(const CuKernel *K, const CuWgmma *w, BrazeStr *s) {
  const char *el = mlirTypeIsABF16(arg_elem(K, K->items[0].in_val[0])) ? "bf16" : "f16";
  int bn = w->tile_n, nb = bn / 64, S = w->stages, nbm = w->twin ? 2 : 1;
  int64_t kt = (w->k + BK - 1) / BK;
  int64_t a_bytes = BM * BK * 2, b_bytes = (int64_t)BK * bn * 2, c_bytes = (int64_t)BM * (bn + C_PAD) * 4;
  int n_args = K->n_in + K->n_out;
  char tma[192], tmb[160], mbar[128], acc[96];
  char a_box[48];
  if (w->window.on)
    snprintf(a_box, sizeof a_box, "%dx%dx%dx64x%s", w->window.bn, w->window.bh, w->window.bw, el);
  else
    snprintf(a_box, sizeof a_box, "%dx64x%s", BM, el);
  snprintf(tma, sizeof tma,
           "!nvgpu.tensormap.descriptor<tensor = memref<%s, 3>, swizzle = swizzle_128b, l2promo = l2promo_256b, "
           "oob = zero, interleave = none>", a_box);
  snprintf(tmb, sizeof tmb,
           "!nvgpu.tensormap.descriptor<tensor = memref<64x64x%s, 3>, swizzle = swizzle_128b, l2promo = l2promo_256b, "
           "oob = zero, interleave = none>", el);
  snprintf(mbar, sizeof mbar, "!nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = %d>", S);
  snprintf(acc, sizeof acc, "!nvgpu.warpgroup.accumulator<fragmented = vector<64x%dxf32>>", bn);

  braze_str_printf(s, "gpu.func @%s(", K->name);
  for (int i = 0; i < n_args; ++i) {
    braze_str_printf(s, "%%arg%d: ", i);
    print_type(s, K->arg_types[i]);
    braze_str_puts(s, ", ");
  }
  braze_str_puts(s, "%tma: !llvm.ptr");
  for (int u = 0; u < nbm; ++u)
    braze_str_printf(s, ", %%tmb%d: !llvm.ptr", u);
  braze_str_printf(s, ") kernel attributes {known_block_size = array<i32: %d, 1, 1>, braze.grid_constants = array<i64: %d",
                   THREADS, n_args);
  for (int u = 0; u < nbm; ++u)
    braze_str_printf(s, ", %d", n_args + 1 + u);
  /* braze.tma_boxes: [argument, box inner, box outer] of each descriptor, in order;
   * a window's A: [argument, box x 4, dims x 4, element strides x 4], innermost first */
  braze_str_printf(s, ">, braze.dynamic_smem = %lld : i64, braze.tma_boxes = [", (long long)w->smem);
  a_box_spec(s, w);
  for (int u = 0; u < nbm; ++u)
    braze_str_printf(s, ", array<i64: %d, 64, 64>", w->arg_b[u]);
  braze_str_printf(s, "], braze.grid = array<i64: %lld, %lld, 1>} {\n", (long long)(w->tiles_m * w->tiles_n),
                   (long long)w->grid_y);
  braze_str_printf(s, "  %%da = builtin.unrealized_conversion_cast %%tma : !llvm.ptr to %s\n", tma);
  for (int u = 0; u < nbm; ++u)
    braze_str_printf(s, "  %%db%d = builtin.unrealized_conversion_cast %%tmb%d : !llvm.ptr to %s\n", u, u, tmb);
  braze_str_puts(s, "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
                    "  %ticks = arith.constant 10000000 : index\n");
  braze_str_printf(s, "  %%cS = arith.constant %d : index\n  %%cKT = arith.constant %lld : index\n", S, (long long)kt);
  braze_str_puts(s, "  %tid = gpu.thread_id x\n  %pid = gpu.block_id x\n  %batch = gpu.block_id y\n"
                    "  %is0 = arith.cmpi eq, %tid, %c0 : index\n");
  /* grouped tile order: GROUP_M tile rows sweep the tile columns together */
  braze_str_printf(s,
                   "  %%gw = arith.constant %lld : index\n  %%gm = arith.constant %d : index\n"
                   "  %%tm = arith.constant %lld : index\n"
                   "  %%group = arith.divui %%pid, %%gw : index\n  %%first = arith.muli %%group, %%gm : index\n"
                   "  %%left = arith.subi %%tm, %%first : index\n  %%gsize = arith.minui %%left, %%gm : index\n"
                   "  %%inr = arith.remui %%pid, %%gw : index\n  %%pr = arith.remui %%inr, %%gsize : index\n"
                   "  %%pm = arith.addi %%first, %%pr : index\n  %%pn = arith.divui %%inr, %%gsize : index\n",
                   (long long)(GROUP_M * w->tiles_n), GROUP_M, (long long)w->tiles_m);
  braze_str_printf(s,
                   "  %%cBM = arith.constant %d : index\n  %%cBN = arith.constant %d : index\n"
                   "  %%cM = arith.constant %lld : index\n"
                   "  %%m0 = arith.muli %%pm, %%cBM : index\n  %%n0 = arith.muli %%pn, %%cBN : index\n"
                   "  %%brow = arith.muli %%batch, %%cM : index\n  %%arow = arith.addi %%brow, %%m0 : index\n",
                   BM, bn, (long long)w->m);
  if (w->window.on)
    window_origin(s, &w->window);
  braze_str_printf(s, "  %%full = nvgpu.mbarrier.create -> %s\n", mbar);
  braze_str_printf(s, "  scf.for %%i = %%c0 to %%cS step %%c1 {\n"
                      "    nvgpu.mbarrier.init %%full[%%i], %%c1, predicate = %%is0 : %s\n  }\n", mbar);
  braze_str_printf(s, "  nvgpu.tma.prefetch.descriptor %%da, predicate = %%is0 : %s\n", tma);
  for (int u = 0; u < nbm; ++u)
    braze_str_printf(s, "  nvgpu.tma.prefetch.descriptor %%db%d, predicate = %%is0 : %s\n", u, tmb);
  braze_str_puts(s, "  %smem = memref.get_global @braze_smem : memref<0xi8, 3>\n  gpu.barrier\n");
  braze_str_printf(s, "  %%cAB = arith.constant %lld : index\n  %%cBB = arith.constant %lld : index\n"
                      "  %%c64 = arith.constant 64 : index\n  %%cTX = arith.constant %lld : index\n",
                   (long long)a_bytes, (long long)b_bytes, (long long)(a_bytes + nbm * b_bytes));
  for (int u = 0; u < nbm; ++u)
    braze_str_printf(s, "  %%cB%dbase = arith.constant %lld : index\n", u, (long long)(a_bytes * S + u * b_bytes * S));
  for (int j = 0; j < nb; ++j)
    braze_str_printf(s, "  %%cB%d = arith.constant %d : index\n  %%cN%d = arith.constant %d : index\n", j,
                     j * 64 * 64 * 2, j, j * 64);
  /* the load of k step `t` into stage `stage`, by thread 0: one A box, BN/64 boxes of
   * each B; `x` names the values (p: the prologue, q: the refill) */
#define LOAD_STEP(t, stage, x)                                                                                         \
  do {                                                                                                                 \
    braze_str_printf(s, "      %%bs_%s = arith.muli %s, %%cBB : index\n", x, stage);                                   \
    braze_str_printf(s, "      %%ao_%s = arith.muli %s, %%cAB : index\n", x, stage);                                   \
    braze_str_printf(s, "      %%av_%s = memref.view %%smem[%%ao_%s][] : memref<0xi8, 3> to memref<%s, 3>\n",      \
                     x, x, a_box);                                                                                     \
    braze_str_printf(s, "      %%kc_%s = arith.muli %s, %%c64 : index\n", x, t);                                       \
    braze_str_printf(s, "      nvgpu.mbarrier.arrive.expect_tx %%full[%s], %%cTX : %s\n", stage, mbar);              \
    a_load(s, w, t, stage, x, tma, mbar, a_box);                                                                       \
    for (int u = 0; u < nbm; ++u)                                                                                      \
      for (int j = 0; j < nb; ++j) {                                                                                   \
        braze_str_printf(s, "      %%bb%d%d_%s = arith.addi %%bs_%s, %%cB%dbase : index\n", u, j, x, x, u);            \
        braze_str_printf(s, "      %%bo%d%d_%s = arith.addi %%bb%d%d_%s, %%cB%d : index\n", u, j, x, u, j, x, j);      \
        braze_str_printf(s, "      %%bv%d%d_%s = memref.view %%smem[%%bo%d%d_%s][] : memref<0xi8, 3> to "              \
                            "memref<64x64x%s, 3>\n", u, j, x, u, j, x, el);                                            \
        braze_str_printf(s, "      %%bn%d%d_%s = arith.addi %%n0, %%cN%d : index\n", u, j, x, j);                      \
        braze_str_printf(s, "      nvgpu.tma.async.load %%db%d[%%bn%d%d_%s, %%kc_%s], %%full[%s] to %%bv%d%d_%s : "    \
                            "%s, %s -> memref<64x64x%s, 3>\n", u, u, j, x, x, stage, u, j, x, tmb, mbar, el);          \
      }                                                                                                                \
  } while (0)
  /* prologue: the first min(stages, KT) steps */
  braze_str_puts(s, "  %pro = arith.minui %cS, %cKT : index\n  scf.if %is0 {\n    scf.for %p = %c0 to %pro step %c1 {\n");
  LOAD_STEP("%p", "%p", "p");
  braze_str_puts(s, "    }\n  }\n");
  /* the main loop */
  braze_str_printf(s, "  %%c128 = arith.constant 128 : index\n  %%wg = arith.divui %%tid, %%c128 : index\n"
                      "  %%cWGA = arith.constant %d : index\n  %%wgoff = arith.muli %%wg, %%cWGA : index\n",
                   64 * 64 * 2);
  braze_str_printf(s, "  %%acc0 = nvgpu.warpgroup.mma.init.accumulator -> %s\n", acc);
  braze_str_printf(s, "  %%res:%d = scf.for %%t = %%c0 to %%cKT step %%c1 iter_args(", nbm);
  for (int u = 0; u < nbm; ++u)
    braze_str_printf(s, "%s%%acc_%d = %%acc0", u ? ", " : "", u);
  braze_str_puts(s, ") -> (");
  for (int u = 0; u < nbm; ++u)
    braze_str_printf(s, "%s%s", u ? ", " : "", acc);
  braze_str_puts(s, ") {\n    %st = arith.remui %t, %cS : index\n    %round = arith.divui %t, %cS : index\n"
                    "    %rb = arith.index_cast %round : index to i64\n    %rbit = arith.trunci %rb : i64 to i1\n");
  braze_str_printf(s, "    nvgpu.mbarrier.try_wait.parity %%full[%%st], %%rbit, %%ticks : %s\n", mbar);
  braze_str_printf(s, "    %%a0 = arith.muli %%st, %%cAB : index\n    %%a1 = arith.addi %%a0, %%wgoff : index\n"
                      "    %%va = memref.view %%smem[%%a1][] : memref<0xi8, 3> to memref<64x64x%s, 3>\n"
                      "    %%dA = nvgpu.warpgroup.generate.descriptor %%va, %%da : memref<64x64x%s, 3>, %s -> "
                      "!nvgpu.warpgroup.descriptor<tensor = memref<64x64x%s, 3>>\n"
                      "    %%b0 = arith.muli %%st, %%cBB : index\n", el, el, tma, el);
  for (int u = 0; u < nbm; ++u) {
    braze_str_printf(s, "    %%b1_%d = arith.addi %%b0, %%cB%dbase : index\n"
                        "    %%vb%d = memref.view %%smem[%%b1_%d][] : memref<0xi8, 3> to memref<64x%dx%s, 3>\n",
                     u, u, u, u, bn, el);
    braze_str_printf(s, "    %%dB%d = nvgpu.warpgroup.generate.descriptor %%vb%d, %%db%d : memref<64x%dx%s, 3>, %s -> "
                        "!nvgpu.warpgroup.descriptor<tensor = memref<64x%dx%s, 3>>\n", u, u, u, bn, el, tmb, bn, el);
    braze_str_printf(s, "    %%accn_%d = nvgpu.warpgroup.mma %%dA, %%dB%d, %%acc_%d {transposeB} : "
                        "!nvgpu.warpgroup.descriptor<tensor = memref<64x64x%s, 3>>, "
                        "!nvgpu.warpgroup.descriptor<tensor = memref<64x%dx%s, 3>>, %s -> %s\n",
                     u, u, u, el, bn, el, acc, acc);
  }
  /* step t-1's chains are done in both warpgroups: refill its stage with step t-1+S */
  braze_str_puts(s, "    gpu.barrier\n    %tp = arith.addi %t, %cS : index\n    %next = arith.subi %tp, %c1 : index\n"
                    "    %has = arith.cmpi ult, %next, %cKT : index\n    %later = arith.cmpi uge, %t, %c1 : index\n"
                    "    %go0 = arith.andi %has, %later : i1\n    %go = arith.andi %go0, %is0 : i1\n"
                    "    scf.if %go {\n      %q0 = arith.addi %t, %cS : index\n      %q1 = arith.subi %q0, %c1 : index\n"
                    "      %q = arith.remui %q1, %cS : index\n");
  LOAD_STEP("%next", "%q", "q");
#undef LOAD_STEP
  braze_str_puts(s, "    }\n    scf.yield ");
  for (int u = 0; u < nbm; ++u)
    braze_str_printf(s, "%s%%accn_%d", u ? ", " : "", u);
  braze_str_puts(s, " : ");
  for (int u = 0; u < nbm; ++u)
    braze_str_printf(s, "%s%s", u ? ", " : "", acc);
  braze_str_puts(s, "\n  }\n  nvvm.wgmma.wait.group.sync.aligned 0\n  gpu.barrier\n");
  for (int u = 0; u < nbm; ++u)
    braze_str_printf(s,
                     "  %%co%d = arith.constant %lld : index\n"
                     "  %%ctile%d = memref.view %%smem[%%co%d][] {braze.epilogue = \"ctile%d\"} : memref<0xi8, 3> to "
                     "memref<%dx%dxf32, 3>\n"
                     "  %%cwg%d = memref.reinterpret_cast %%ctile%d to offset: [0], sizes: [64, %d], strides: [%d, 1] : "
                     "memref<%dx%dxf32, 3> to memref<64x%dxf32, strided<[%d, 1]>, 3>\n"
                     "  nvgpu.warpgroup.mma.store %%res#%d, %%cwg%d : %s to memref<64x%dxf32, strided<[%d, 1]>, 3>\n",
                     u, (long long)(u * c_bytes), u, u, u, BM, bn + C_PAD, u, u, bn, bn + C_PAD, BM, bn + C_PAD, bn,
                     bn + C_PAD, u, u, acc, bn, bn + C_PAD);
  braze_str_puts(s, "  gpu.barrier\n");
  /* the epilogue's runs: `vec` columns of one row each; the builder fills the body at
   * the ops marked braze.epilogue (cu_emit_wgmma). A window's tile row r is output
   * pixel (%oh0 + r / bw, %ow0 + r mod bw), valid inside the image. */
  BrazeStr row = {0};
  if (w->window.on)
    braze_str_printf(&row,
                     "    %%cOH = arith.constant %lld : index\n    %%cOW = arith.constant %lld : index\n"
                     "    %%cIMG = arith.constant %d : index\n    %%cNB = arith.constant %lld : index\n"
                     "    %%wi = arith.divui %%r, %%cIMG : index\n    %%wp = arith.remui %%r, %%cIMG : index\n"
                     "    %%wr = arith.divui %%wp, %%cWBW : index\n    %%wq = arith.remui %%wp, %%cWBW : index\n"
                     "    %%oh = arith.addi %%oh0, %%wr : index\n    %%ow = arith.addi %%ow0, %%wq : index\n"
                     "    %%eb = arith.addi %%img, %%wi {braze.epilogue = \"batch\"} : index\n"
                     "    %%vh = arith.cmpi ult, %%oh, %%cOH : index\n    %%vw = arith.cmpi ult, %%ow, %%cOW : index\n"
                     "    %%vn = arith.cmpi ult, %%eb, %%cNB : index\n    %%vhw = arith.andi %%vh, %%vw : i1\n"
                     "    %%ev = arith.andi %%vhw, %%vn {braze.epilogue = \"valid\"} : i1\n"
                     "    %%mo = arith.muli %%oh, %%cOW : index\n"
                     "    %%em = arith.addi %%mo, %%ow {braze.epilogue = \"m\"} : index\n",
                     (long long)w->window.oh_n, (long long)w->window.ow_n, w->window.bh * w->window.bw,
                     (long long)w->batch);
  else
    braze_str_puts(&row, "    %eb = arith.addi %batch, %c0 {braze.epilogue = \"batch\"} : index\n"
                         "    %em = arith.addi %m0, %r {braze.epilogue = \"m\"} : index\n");
  braze_str_printf(s, "  %%cRUNS = arith.constant %d : index\n  %%cTOT = arith.constant %d : index\n"
                      "  %%cTH = arith.constant %d : index\n  %%cV = arith.constant %d : index\n"
                      "  scf.for %%i = %%tid to %%cTOT step %%cTH {\n"
                      "    %%r = arith.divui %%i, %%cRUNS : index\n    %%cv = arith.remui %%i, %%cRUNS : index\n"
                      "    %%col = arith.muli %%cv, %%cV : index\n"
                      "%s"
                      "    %%en = arith.addi %%n0, %%col {braze.epilogue = \"n\"} : index\n"
                      "    %%er = arith.addi %%r, %%c0 {braze.epilogue = \"row\"} : index\n"
                      "    %%ec = arith.addi %%col, %%c0 {braze.epilogue = \"col\"} : index\n  }\n"
                      "  gpu.return\n}\n",
                   bn / w->vec, BM * bn / w->vec, THREADS, w->vec, braze_str_cstr(&row));
  braze_str_free(&row);
}

/* ---- the epilogue, built where the text marks it ---- */

enum { EP_BATCH, EP_M, EP_N, EP_ROW, EP_COL, EP_CTILE0, EP_CTILE1, EP_VALID, EP_COUNT };
static const char *const ep_names[EP_COUNT] = {"batch", "m", "n", "row", "col", "ctile0", "ctile1", "valid"};

typedef struct {
  MlirValue v[EP_COUNT];
  MlirOperation last; /* the last marked op of the loop body */
} Marks;

static MlirWalkResult find_mark(MlirOperation op, void *user_data) {
  Marks *marks = user_data;
  MlirAttribute a = mlirOperationGetDiscardableAttributeByName(op, braze_ref("braze.epilogue"));
  if (mlirAttributeIsNull(a))
    return MlirWalkResultAdvance;
  MlirStringRef name = mlirStringAttrGetValue(a);
  for (int i = 0; i < EP_COUNT; ++i)
    if (braze_ref_eq(name, ep_names[i])) {
      marks->v[i] = mlirOperationGetResult(op, 0);
      if (i < EP_CTILE0)
        marks->last = op;
    }
  mlirOperationRemoveDiscardableAttributeByName(op, braze_ref("braze.epilogue"));
  return MlirWalkResultAdvance;
}

/* At b, inside the run's loop: the run's `vec` accumulator values read back from the
 * shared tile, each result evaluated and stored, masked at the M and N edges. */
static void epilogue_run(CuKernel *K, const CuWgmma *w, CgBuilder *b, const Marks *mk) {
  const CuItem *c = &K->items[0];
  CgBuilder at = *b, else_b;
  MlirValue valid = {NULL};
  if (w->window.on)
    valid = mk->v[EP_VALID];
  else if (w->m % BM != 0)
    valid = cu_cmp_ult(b, mk->v[EP_M], cg_index(b, w->m));
  if (w->n % w->tile_n != 0) {
    MlirValue nv = cu_cmp_ult(b, mk->v[EP_N], cg_index(b, w->n));
    valid = mlirValueIsNull(valid) ? nv : cu_arith(b, "arith.andi", valid, nv);
  }
  if (!mlirValueIsNull(valid))
    cg_if(b, valid, &at, &else_b);
  CuPoint p0 = {.n = w->n_par, .vec = w->vec};
  cu_delinearize(&at, mk->v[EP_BATCH], w->n_par - 2, c->ext, p0.idx);
  p0.idx[w->dim_m] = mk->v[EP_M];
  p0.idx[w->dim_n] = mk->v[EP_N];
  CuPoint points[16];
  cu_lane_points(&at, &p0, points);
  int64_t lanes = w->vec;
  MlirType f32 = mlirF32TypeGet(K->ctx), vt = mlirVectorTypeGet(1, &lanes, f32);
  MlirNamedAttribute align = cg_named(K->ctx, "alignment", mlirIntegerAttrGet(mlirIntegerTypeGet(K->ctx, 64), 16));
  int mark = cu_scope_open(K);
  for (int u = 0; u < (w->twin ? 2 : 1) && !K->failed; ++u) { /* each contraction's run, read back */
    const CuItem *cu = &K->items[u];
    MlirValue ops[3] = {mk->v[EP_CTILE0 + u], mk->v[EP_ROW], mk->v[EP_COL]};
    MlirValue run = mlirOperationGetResult(cg_create(&at, "vector.load", 3, ops, 1, &vt, lanes * 4 >= 16 ? 1 : 0, &align), 0);
    for (int l = 0; l < w->vec && !K->failed; ++l) {
      char pos[48];
      snprintf(pos, sizeof pos, "array<i64: %d>", l);
      MlirNamedAttribute sp = cg_named(K->ctx, "static_position", cg_parse_attr(K->ctx, pos));
      MlirValue acc = mlirOperationGetResult(cg_create(&at, "vector.extract", 1, &run, 1, &f32, 1, &sp), 0);
      MlirValue value = cu_finish_reduction(K, &at, cu, &points[l], acc);
      if (!K->failed)
        cu_memo_put(K, MEMO_VALUE, cu->out_val, points[l].n, points[l].idx, value);
    }
  }
  for (int r = 0; r < K->n_out && !K->failed; ++r) {
    MlirValue values[16];
    for (int l = 0; l < w->vec && !K->failed; ++l)
      values[l] = cu_eval(K, &at, K->out_val[r], &points[l]);
    if (!K->failed)
      cu_store_result(K, &at, r, &p0, values);
  }
  cu_scope_close(K, mark);
}

MlirOperation cu_smem_global(MlirOperation gpu_module) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(gpu_module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute name = mlirOperationGetAttributeByName(op, braze_ref("sym_name"));
    if (braze_op_is(op, "memref.global") && braze_ref_eq(mlirStringAttrGetValue(name), "braze_smem"))
      return op;
  }
  MlirOperation g = mlirOperationCreateParse(mlirOperationGetContext(gpu_module), braze_ref(SMEM_GLOBAL),
                                             braze_ref("braze-smem"));
  mlirBlockInsertOwnedOperation(body, 0, g);
  return g;
}

MlirOperation cu_parse_gpu_func(MlirOperation gpu_module, const char *func_text, const char *source) {
  /* parsed inside a gpu.module of its own (a gpu.func verifies only there), then moved */
  BrazeStr text = {0};
  braze_str_printf(&text, "gpu.module @braze_template_text {\n" SMEM_GLOBAL "\n%s}\n", func_text);
  MlirContext ctx = mlirOperationGetContext(gpu_module);
  MlirOperation holder = mlirOperationCreateParse(ctx, braze_ref(braze_str_cstr(&text)), braze_ref(source));
  braze_str_free(&text);
  if (mlirOperationIsNull(holder))
    return holder;
  MlirBlock held = mlirRegionGetFirstBlock(mlirOperationGetRegion(holder, 0));
  MlirOperation fn = mlirOperationGetNextInBlock(mlirBlockGetFirstOperation(held));
  mlirOperationRemoveFromParent(fn);
  mlirOperationDestroy(holder);
  cu_smem_global(gpu_module);
  mlirBlockAppendOwnedOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(gpu_module, 0)), fn);
  return fn;
}

bool cu_emit_wgmma(CuKernel *K, const CuWgmma *w) {
  BrazeStr text = {0};
  kernel_text(K, w, &text);
  MlirOperation fn = cu_parse_gpu_func(K->gpu_module, braze_str_cstr(&text), "braze-wgmma");
  braze_str_free(&text);
  if (mlirOperationIsNull(fn))
    return cu_fail(K, K->old, "internal error: the tensor-core template's text does not parse");
  MlirLocation loc = mlirOperationGetLocation(K->old);
  for (intptr_t i = 0; i < mlirOperationGetNumDiscardableAttributes(K->old); ++i) {
    MlirNamedAttribute a = mlirOperationGetDiscardableAttribute(K->old, i);
    mlirOperationSetDiscardableAttributeByName(fn, mlirIdentifierStr(a.name), a.attribute);
  }
  K->fn = fn;
  K->entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0));
  K->pool.block = K->entry;
  Marks mk = {0};
  mlirOperationWalk(fn, find_mark, &mk, MlirWalkPreOrder);
  for (int i = 0; i < EP_COUNT; ++i)
    if (mlirValueIsNull(mk.v[i]) && (i != EP_CTILE1 || w->twin) && (i != EP_VALID || w->window.on))
      return cu_fail(K, K->old, "internal error: the tensor-core template lacks its epilogue mark '%s'", ep_names[i]);
  K->fb = cg_builder_at_end(mlirOperationGetBlock(mk.last), loc);
  K->fb.before = mlirOperationGetNextInBlock(mk.last); /* the loop body's scf.yield */
  K->fb.pool = &K->pool;
  K->tid = cu_gpu_id(&K->fb, "gpu.thread_id");
  K->bid = cu_gpu_id(&K->fb, "gpu.block_id");
  K->block = THREADS;
  K->vec = w->vec;
  K->grid[0] = w->tiles_m * w->tiles_n;
  K->grid[1] = w->grid_y;
  K->grid[2] = 1;
  epilogue_run(K, w, &K->fb, &mk);
  return !K->failed;
}
