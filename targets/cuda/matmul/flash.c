/* cuda-codegen, attention chains in the online form (passes/chains/online.h) as one
 * kernel on TMA and wgmma: the flash-attention recurrence with S and O in registers.
 *
 * One block of 256 threads (two warpgroups) takes 128 query rows of one batch,
 * warpgroup w the rows [64 w, 64 w + 64). Q (128 x D) is loaded once by TMA; K and V
 * come in blocks of BN keys through two shared-memory stages (an mbarrier each, thread
 * 0 issuing the first loads; a stage is refilled by whichever warpgroup is the second to
 * be past it, counted in shared memory, so the warpgroups need no common barrier). Per
 * key block, each warpgroup:
 *
 *   S = Q_w K^T        wgmma m64nBNk16 over D (A and B both K-major in shared memory)
 *   m' = max(m, rowmax(S * scale))      the scale folded with log2(e): exp2 below
 *   P = exp2(S * scale - m'),  l = l * exp2(m - m') + rowsum(P),  O *= exp2(m - m')
 *   O += P V           wgmma m64nDvk16 over the keys with A in registers: P rounded to
 *                    bf16/f16 pairs, since wgmma's A fragment has S's layout (inline
 *                    PTX: NVVM's op takes A from shared memory only); V MN-major, as the
 *                    GEMM template's B (imm-trans-b 1)
 *
 * A thread holds S's and O's values at rows 16 warp + lane / 4 (+ 8) and columns
 * 8 j + 2 (lane % 4) (+ 1) of its warpgroup's 64 rows (wgmma's accumulator layout):
 * row maxima and sums reduce over its own values, then over the 4 lanes of a row by
 * shuffles. Keys past N in the last block are masked to -inf; rows past M are not
 * stored. The output is O / l, written from the registers. */
#include "targets/cuda/matmul/flash.h"

#include <math.h>
#include <float.h>
#include <stdio.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/diag.h"
#include "support/strbuf.h"

enum { WG_ROWS = 64, THREADS = 256, BOX_BYTES_V = 64 * 64 * 2 };


/* ---- the kernel's text ---- */

typedef struct {
  BrazeStr *s;
  const Flash *f;
  char tmq[192], tmk[192], tmv[192], tmb[192], mbar[128], sacc[1024], oacc[1024];
  BrazeStr out_type; /* the result's memref type */
} Text;

/* The bias tiles' element type in shared memory: an i1 mask's bytes are i8. */
static const char *bias_smem_el(const Flash *f) { return f->bias_select ? "i8" : f->bias_el; }

static void struct_type(char *out, size_t size, int n) {
  int len = snprintf(out, size, "!llvm.struct<(");
  for (int i = 0; i < n; ++i)
    len += snprintf(out + len, size - (size_t)len, "%sf32", i ? ", " : "");
  snprintf(out + len, size - (size_t)len, ")>");
}

static void types(Text *t) {
  const Flash *f = t->f;
  snprintf(t->tmq, sizeof t->tmq, "!nvgpu.tensormap.descriptor<tensor = memref<%dx64x%s, 3>, swizzle = swizzle_128b, "
           "l2promo = l2promo_256b, oob = zero, interleave = none>", BM, f->el);
  snprintf(t->tmk, sizeof t->tmk, "!nvgpu.tensormap.descriptor<tensor = memref<%dx64x%s, 3>, swizzle = swizzle_128b, "
           "l2promo = l2promo_256b, oob = zero, interleave = none>", f->bn, f->el);
  snprintf(t->tmv, sizeof t->tmv, "!nvgpu.tensormap.descriptor<tensor = memref<64x64x%s, 3>, swizzle = swizzle_128b, "
           "l2promo = l2promo_256b, oob = zero, interleave = none>", f->el);
  if (f->bias_tiles) /* 128 rows of a 128-byte box of keys (an i1 mask's bytes as i8) */
    snprintf(t->tmb, sizeof t->tmb, "!nvgpu.tensormap.descriptor<tensor = memref<%dx%dx%s, 3>, swizzle = swizzle_128b, "
             "l2promo = l2promo_256b, oob = zero, interleave = none>", BM, f->bias_box_keys, bias_smem_el(f));
  snprintf(t->mbar, sizeof t->mbar, "!nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = %d>",
           STAGES + 1);
  struct_type(t->sacc, sizeof t->sacc, f->bn / 2);
  struct_type(t->oacc, sizeof t->oacc, (int)f->dv / 2);
}


static void header(Text *t, MlirOperation func, const char *name) {
  const Flash *f = t->f;
  BrazeStr *s = t->s;
  braze_str_printf(s, "gpu.func @%s(", name);
  for (int i = 0; i <= f->n_in; ++i) { /* the inputs, then the result */
    braze_str_printf(s, "%%arg%d: ", i);
    flash_print_memref(s, flash_arg_type(func, i < f->n_in ? i : -1));
    braze_str_puts(s, ", ");
  }
  int maps = f->n_in + 1; /* the TMA descriptors follow the memrefs */
  char bias_map[64] = "", bias_const[32] = "", bias_box[64] = "";
  if (f->bias_tiles) {
    snprintf(bias_map, sizeof bias_map, ", %%tb: !llvm.ptr");
    snprintf(bias_const, sizeof bias_const, ", %d", maps + 3);
    snprintf(bias_box, sizeof bias_box, ", array<i64: 3, %d, %d>", f->bias_box_keys, BM);
  }
  braze_str_printf(s, "%%tq: !llvm.ptr, %%tk: !llvm.ptr, %%tv: !llvm.ptr%s) kernel attributes {known_block_size = "
                      "array<i32: %d, 1, 1>, braze.grid_constants = array<i64: %d, %d, %d%s>, braze.dynamic_smem = %lld : i64, "
                      "braze.tma_boxes = [array<i64: 0, 64, %d>, array<i64: 1, 64, %d>, array<i64: 2, 64, 64>%s], "
                      "braze.grid = array<i64: %lld, %lld, 1>} {\n",
                   bias_map, THREADS, maps, maps + 1, maps + 2, bias_const, (long long)f->smem, BM, f->bn, bias_box,
                   (long long)f->tiles, (long long)f->batch);
  if (f->bias_tiles)
    braze_str_printf(s, "  %%db = builtin.unrealized_conversion_cast %%tb : !llvm.ptr to %s\n", t->tmb);
  braze_str_printf(s, "  %%dq = builtin.unrealized_conversion_cast %%tq : !llvm.ptr to %s\n"
                      "  %%dk = builtin.unrealized_conversion_cast %%tk : !llvm.ptr to %s\n"
                      "  %%dv = builtin.unrealized_conversion_cast %%tv : !llvm.ptr to %s\n", t->tmq, t->tmk, t->tmv);
  braze_str_printf(s, "  %%c0 = arith.constant 0 : index\n  %%c1 = arith.constant 1 : index\n"
                      "  %%c2 = arith.constant 2 : index\n  %%cSTG = arith.constant %d : index\n"
                      "  %%ticks = arith.constant 10000000 : index\n  %%cNB = arith.constant %lld : index\n"
                      "  %%cM = arith.constant %lld : index\n  %%cN = arith.constant %lld : index\n"
                      "  %%cBN = arith.constant %d : index\n  %%c64 = arith.constant 64 : index\n"
                      "  %%c128 = arith.constant 128 : index\n  %%c32 = arith.constant 32 : index\n"
                      "  %%c4 = arith.constant 4 : index\n  %%c16 = arith.constant 16 : index\n",
                   STAGES, (long long)f->blocks, (long long)f->m, (long long)f->n, f->bn);
  braze_str_puts(s, "  %tid = gpu.thread_id x\n  %pid = gpu.block_id x\n  %bh = gpu.block_id y\n"
                    "  %is0 = arith.cmpi eq, %tid, %c0 : index\n  %wg = arith.divui %tid, %c128 : index\n"
                    "  %lt = arith.remui %tid, %c128 : index\n  %warp = arith.divui %lt, %c32 : index\n"
                    "  %lane = arith.remui %tid, %c32 : index\n  %l4 = arith.divui %lane, %c4 : index\n"
                    "  %lm = arith.remui %lane, %c4 : index\n"
                    "  %bm = arith.muli %bh, %cM : index\n  %m0 = arith.muli %pid, %c128 : index\n"
                    "  %qrow = arith.addi %bm, %m0 : index\n");
  flash_kv_batch_row(t->s, t->f);
  if (f->causal) /* the tile's last row keeps keys up to m0 + 127 + offset: later blocks are skipped */
    braze_str_printf(s, "  %%cKE = arith.constant %lld : index\n  %%ke0 = arith.addi %%m0, %%cKE : index\n"
                        "  %%ke1 = arith.maxsi %%ke0, %%c0 : index\n  %%ke = arith.minsi %%ke1, %%cN : index\n"
                        "  %%cBN1 = arith.constant %d : index\n  %%ke2 = arith.addi %%ke, %%cBN1 : index\n"
                        "  %%nbt = arith.divui %%ke2, %%cBN : index\n",
                     (long long)(BM + f->offset), f->bn - 1);
  else
    braze_str_puts(s, "  %nbt = arith.addi %cNB, %c0 : index\n");
  braze_str_printf(s, "  %%bar = nvgpu.mbarrier.create -> %s\n"
                      "  scf.for %%i = %%c0 to %%cSTG step %%c1 {\n"
                      "    nvgpu.mbarrier.init %%bar[%%i], %%c1, predicate = %%is0 : %s\n  }\n"
                      "  nvgpu.mbarrier.init %%bar[%%cSTG], %%c1, predicate = %%is0 : %s\n",
                   t->mbar, t->mbar, t->mbar);
  braze_str_printf(s, "  nvgpu.tma.prefetch.descriptor %%dq, predicate = %%is0 : %s\n"
                      "  nvgpu.tma.prefetch.descriptor %%dk, predicate = %%is0 : %s\n"
                      "  nvgpu.tma.prefetch.descriptor %%dv, predicate = %%is0 : %s\n",
                   t->tmq, t->tmk, t->tmv);
  if (f->bias_tiles)
    braze_str_printf(s, "  nvgpu.tma.prefetch.descriptor %%db, predicate = %%is0 : %s\n", t->tmb);
  braze_str_printf(s, "  %%smem = memref.get_global @braze_smem : memref<0xi8, 3>\n  %%cCNT = arith.constant %lld : index\n"
                      "  %%cnt = memref.view %%smem[%%cCNT][] : memref<0xi8, 3> to memref<%dxi32, 3>\n"
                      "  %%zi = arith.constant 0 : i32\n  scf.if %%is0 {\n    memref.store %%zi, %%cnt[%%c0] : memref<%dxi32, 3>\n"
                      "    memref.store %%zi, %%cnt[%%c1] : memref<%dxi32, 3>\n  }\n  gpu.barrier\n",
                   (long long)f->cnt_off, STAGES, STAGES, STAGES);
}

/* Thread 0's TMA loads of key block `blk` into stage `st` (index values), names
 * suffixed by `x`. */
static void load_kv(Text *t, const char *blk, const char *st, const char *x) {
  const Flash *f = t->f;
  BrazeStr *s = t->s;
  braze_str_printf(s, "    %%so_%s = arith.muli %s, %%cSB : index\n    %%sb_%s = arith.addi %%so_%s, %%cKV : index\n"
                      "    %%kb_%s = arith.muli %s, %%cBN : index\n    %%kr_%s = arith.addi %%krow0, %%kb_%s : index\n"
                      "    nvgpu.mbarrier.arrive.expect_tx %%bar[%s], %%cTX : %s\n",
                   x, st, x, x, x, blk, x, x, st, t->mbar);
  for (int dc = 0; dc < f->d / 64; ++dc)
    braze_str_printf(s, "    %%ko%d_%s = arith.addi %%sb_%s, %%cK%d : index\n"
                        "    %%kv%d_%s = memref.view %%smem[%%ko%d_%s][] : memref<0xi8, 3> to memref<%dx64x%s, 3>\n"
                        "    nvgpu.tma.async.load %%dk[%%cD%d, %%kr_%s], %%bar[%s] to %%kv%d_%s : %s, %s -> memref<%dx64x%s, 3>\n",
                     dc, x, x, dc, dc, x, dc, x, f->bn, f->el, dc, x, st, dc, x, t->tmk, t->mbar, f->bn, f->el);
  for (int b = 0; f->bias_tiles && b < f->bn / f->bias_box_keys; ++b) /* the bias's rows of these keys */
    braze_str_printf(s, "    %%bso%d_%s = arith.muli %s, %%cBS : index\n    %%bo%d_%s = arith.addi %%bso%d_%s, %%cBO%d : index\n"
                        "    %%bk%d_%s = arith.addi %%kb_%s, %%cBK%d : index\n"
                        "    %%bv%d_%s = memref.view %%smem[%%bo%d_%s][] : memref<0xi8, 3> to memref<%dx%dx%s, 3>\n"
                        "    nvgpu.tma.async.load %%db[%%bk%d_%s, %%btr], %%bar[%s] to %%bv%d_%s : %s, %s -> memref<%dx%dx%s, 3>\n",
                     b, x, st, b, x, b, x, b, b, x, x, b, b, x, b, x, BM, f->bias_box_keys, bias_smem_el(f), b, x, st, b,
                     x, t->tmb, t->mbar, BM, f->bias_box_keys, bias_smem_el(f));
  for (int kc = 0; kc < f->bn / 64; ++kc) {
    braze_str_printf(s, "    %%vr%d_%s = arith.addi %%kr_%s, %%cR%d : index\n", kc, x, x, kc);
    for (int dc = 0; dc < f->dv / 64; ++dc) {
      int box = kc * (int)(f->dv / 64) + dc;
      braze_str_printf(s, "    %%vo%d_%s = arith.addi %%sb_%s, %%cV%d : index\n"
                          "    %%vv%d_%s = memref.view %%smem[%%vo%d_%s][] : memref<0xi8, 3> to memref<64x64x%s, 3>\n"
                          "    nvgpu.tma.async.load %%dv[%%cD%d, %%vr%d_%s], %%bar[%s] to %%vv%d_%s : %s, %s -> "
                          "memref<64x64x%s, 3>\n",
                       box, x, x, box, box, x, box, x, f->el, dc, kc, x, st, box, x, t->tmv, t->mbar, f->el);
    }
  }
}

static void loads(Text *t) {
  const Flash *f = t->f;
  BrazeStr *s = t->s;
  braze_str_printf(s, "  %%cSB = arith.constant %lld : index\n  %%cKV = arith.constant %lld : index\n"
                      "  %%cTX = arith.constant %lld : index\n  %%cQTX = arith.constant %lld : index\n",
                   (long long)f->stage_bytes, (long long)f->kv_off,
                   (long long)(f->stage_bytes + (f->bias_tiles ? f->bias_stage : 0)), (long long)f->kv_off);
  if (f->bias_tiles) { /* the bias tiles' places, and the block's first bias row (its 2-D view's) */
    braze_str_printf(s, "  %%cBS = arith.constant %lld : index\n", (long long)f->bias_stage);
    for (int b = 0; b < f->bn / f->bias_box_keys; ++b)
      braze_str_printf(s, "  %%cBO%d = arith.constant %lld : index\n  %%cBK%d = arith.constant %d : index\n", b,
                       (long long)(f->bias_off + (int64_t)b * BM * 128), b, b * f->bias_box_keys);
    flash_bias_batch_base(s, f);
    braze_str_printf(s, "  %%btr0 = arith.divui %%bb_%d, %%cN : index\n  %%btr = arith.addi %%btr0, %%m0 : index\n",
                     f->bias_rank);
  }
  for (int dc = 0; dc < 2; ++dc)
    braze_str_printf(s, "  %%cD%d = arith.constant %d : index\n  %%cK%d = arith.constant %lld : index\n"
                        "  %%cQ%d = arith.constant %d : index\n  %%cR%d = arith.constant %d : index\n",
                     dc, dc * 64, dc, (long long)dc * f->bn * 128, dc, dc * BM * 128, dc, dc * 64);
  for (int box = 0; box < (f->bn / 64) * (f->dv / 64); ++box)
    braze_str_printf(s, "  %%cV%d = arith.constant %lld : index\n", box, (long long)(f->k_bytes + box * BOX_BYTES_V));
  braze_str_puts(s, "  scf.if %is0 {\n");
  braze_str_printf(s, "    nvgpu.mbarrier.arrive.expect_tx %%bar[%%cSTG], %%cQTX : %s\n", t->mbar);
  for (int dc = 0; dc < f->d / 64; ++dc)
    braze_str_printf(s, "    %%qv%d = memref.view %%smem[%%cQ%d][] : memref<0xi8, 3> to memref<%dx64x%s, 3>\n"
                        "    nvgpu.tma.async.load %%dq[%%cD%d, %%qrow], %%bar[%%cSTG] to %%qv%d : %s, %s -> memref<%dx64x%s, 3>\n",
                     dc, dc, BM, f->el, dc, dc, t->tmq, t->mbar, BM, f->el);
  braze_str_puts(s, "    %pro = arith.minui %cSTG, %nbt : index\n    scf.for %p = %c0 to %pro step %c1 {\n");
  load_kv(t, "%p", "%p", "p");
  braze_str_puts(s, "    }\n  }\n");
  braze_str_printf(s, "  %%false = arith.constant false\n"
                      "  nvgpu.mbarrier.try_wait.parity %%bar[%%cSTG], %%false, %%ticks : %s\n", t->mbar);
}

/* Shared-memory matrix descriptors (i64): start address >> 4 in bits 0-13, the leading
 * byte offset >> 4 in 16-29, the stride byte offset >> 4 in 32-45 (1024: eight 128-byte
 * rows), 128-byte swizzle in 62-63. K-major operands ignore the leading offset;
 * V (MN-major) has its 64-column boxes 8 KiB apart. */
static void descriptors(Text *t) {
  BrazeStr *s = t->s;
  uint64_t k_major = (64ull << 32) | (1ull << 62) | (1ull << 16);
  uint64_t mn_major = (64ull << 32) | (1ull << 62) | ((uint64_t)(BOX_BYTES_V >> 4) << 16);
  braze_str_printf(s, "  %%sp = memref.extract_aligned_pointer_as_index %%smem : memref<0xi8, 3> -> index\n"
                      "  %%spi = arith.index_cast %%sp : index to i64\n  %%m18 = arith.constant 262143 : i64\n"
                      "  %%spm = arith.andi %%spi, %%m18 : i64\n  %%c4i = arith.constant 4 : i64\n"
                      "  %%sp4 = arith.shrui %%spm, %%c4i : i64\n"
                      "  %%hiK = arith.constant %lld : i64\n  %%hiV = arith.constant %lld : i64\n"
                      "  %%dK = arith.ori %%sp4, %%hiK : i64\n  %%dV = arith.ori %%sp4, %%hiV : i64\n",
                   (long long)k_major, (long long)mn_major);
  /* this warpgroup's rows of Q (64 rows of 128 bytes into each box) */
  braze_str_printf(s, "  %%wgi = arith.index_cast %%wg : index to i64\n  %%cQW = arith.constant %d : i64\n"
                      "  %%qw = arith.muli %%wgi, %%cQW : i64\n  %%dQ = arith.addi %%dK, %%qw : i64\n",
                   WG_ROWS * 128 >> 4);
}

/* %bl<r> and %bl<r + 1>: the two values of the pair %bp<r> (its columns r and r + 1). */
static void bias_pair_values(BrazeStr *s, const Flash *f, int r) {
  braze_str_printf(s, "      %%bl%d = vector.extract %%bp%d[0] : %s from vector<2x%s>\n"
                      "      %%bl%d = vector.extract %%bp%d[1] : %s from vector<2x%s>\n",
                   r, r, f->bias_el, f->bias_el, r + 1, r, f->bias_el, f->bias_el);
}

/* This thread's bias values %bl<r> from the stage's tiles (bias_tile_constants): its
 * pair at column 8 (r / 4) + 2 (lane % 4) of row half (r / 2) % 2 in box
 * column / keys-per-box, 16-byte chunk (column % keys-per-box) / chunk elements. */
static void bias_tile_loads(Text *t) {
  const Flash *f = t->f;
  BrazeStr *s = t->s;
  int eb = f->bias_select ? 1 : 2, kb = f->bias_box_keys, ec = 16 / eb;
  const char *el = bias_smem_el(f);
  long long total = (long long)(STAGES * f->bias_stage / eb);
  braze_str_puts(s, "      %bsb = arith.muli %st, %cBSE : index\n");
  for (int r = 0; r < f->bn / 2; ++r) {
    int col = 8 * (r / 4) + (r & 1), c0 = 8 * (r / 4);
    braze_str_printf(s, "      %%cc%d = arith.addi %%l2, %%cC%d : index\n", r, col);
    if (r & 1)
      continue;
    braze_str_printf(s, "      %%bsq%d = arith.addi %%bto%d, %%bxl%d : index\n      %%bsc%d = arith.constant %lld : index\n"
                        "      %%bsd%d = arith.addi %%bsq%d, %%bsc%d : index\n      %%bsi%d = arith.addi %%bsd%d, %%bsb : index\n",
                     r, (r / 2) & 1, (c0 % kb) / ec, r, (long long)((c0 / kb) * BM * kb + c0 % ec), r, r, r, r, r);
    braze_str_printf(s, "      %%bp%s%d = vector.load %%bsm[%%bsi%d] {alignment = %d} : memref<%lldx%s, 3>, vector<2x%s>\n",
                     f->bias_select ? "w" : "", r, r, 2 * eb, total, el, el);
    if (f->bias_select)
      braze_str_printf(s, "      %%bp%d = arith.trunci %%bpw%d : vector<2xi8> to vector<2xi1>\n", r, r);
    bias_pair_values(s, f, r);
  }
}

/* The key block's index values (%kb, %lim, the bias's row offsets) and this thread's
 * bias values %bl<r>, loaded between the score product's commit and its wait so that
 * their latency hides behind the tensor cores. Without a partial last block a thread's
 * two neighbouring columns (8 j + 2 (lane % 4) + {0, 1}) are one aligned pair load: the
 * bias's keys are its innermost dim, of even extent N, so every row starts at an even
 * element. An i1 mask is stored a byte per value: its pairs load as vector<2xi8>
 * through the pointer (a vector<2xi1> would be bit-packed). */
static void bias_loads(Text *t) {
  const Flash *f = t->f;
  BrazeStr *s = t->s;
  bool tail = f->n % f->bn != 0, bias = f->n_in == 4;
  if (tail || f->causal || bias)
    braze_str_puts(s, "      %kb = arith.muli %j, %cBN : index\n      %lim = arith.subi %cN, %kb : index\n");
  if (!bias)
    return;
  if (f->bias_tiles) {
    bias_tile_loads(t);
    return;
  }
  braze_str_puts(s, "      %bk0 = arith.addi %brow0, %kb : index\n      %bk1 = arith.addi %brow1, %kb : index\n"
                    "      %lim1 = arith.subi %lim, %c1 : index\n");
  long long total = (long long)flash_bias_elements(f);
  for (int r = 0; r < f->bn / 2; ++r) {
    int col = 8 * (r / 4) + (r & 1), half = (r / 2) & 1;
    braze_str_printf(s, "      %%cc%d = arith.addi %%l2, %%cC%d : index\n", r, col);
    if (tail) { /* clamped into the tensor (keys past N are masked) */
      braze_str_printf(s, "      %%bc%d = arith.minui %%cc%d, %%lim1 : index\n      %%bi%d = arith.addi %%bk%d, %%bc%d : index\n"
                          "      %%bl%d = memref.load %%biasf[%%bi%d] : memref<%lldx%s>\n",
                       r, r, r, half, r, r, r, total, f->bias_el);
      continue;
    }
    if (r & 1)
      continue;
    braze_str_printf(s, "      %%bi%d = arith.addi %%bk%d, %%cc%d : index\n", r, half, r);
    if (f->bias_select)
      braze_str_printf(s, "      %%bq%d = arith.index_cast %%bi%d : index to i64\n"
                          "      %%bg%d = llvm.getelementptr %%bptr[%%bq%d] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8\n"
                          "      %%bw%d = llvm.load %%bg%d {alignment = 2 : i64} : !llvm.ptr<1> -> vector<2xi8>\n"
                          "      %%bp%d = arith.trunci %%bw%d : vector<2xi8> to vector<2xi1>\n",
                       r, r, r, r, r, r, r, r);
    else
      braze_str_printf(s, "      %%bp%d = vector.load %%biasf[%%bi%d] {alignment = %d} : memref<%lldx%s>, vector<2x%s>\n", r,
                       r, strcmp(f->bias_el, "f32") == 0 ? 8 : 4, total, f->bias_el, f->bias_el);
    bias_pair_values(s, f, r);
  }
}

/* S = Q K^T from the stage whose K descriptor is %dKs. */
static void scores(Text *t) {
  const Flash *f = t->f;
  BrazeStr *s = t->s;
  braze_str_printf(s, "      nvvm.wgmma.fence.aligned\n      %%s_0 = llvm.mlir.undef : %s\n", t->sacc);
  int step = 0;
  for (int dc = 0; dc < f->d / 64; ++dc)
    for (int kk = 0; kk < 4; ++kk, ++step) {
      braze_str_printf(s, "      %%qa%d = arith.constant %lld : i64\n      %%kb%d = arith.constant %lld : i64\n", step,
                       (long long)(((int64_t)dc * BM * 128 + kk * 32) >> 4), step,
                       (long long)(((int64_t)dc * f->bn * 128 + kk * 32) >> 4));
      braze_str_printf(s, "      %%da%d = arith.addi %%dQ, %%qa%d : i64\n      %%db%d = arith.addi %%dKs, %%kb%d : i64\n",
                       step, step, step, step);
      braze_str_printf(s, "      %%s_%d = nvvm.wgmma.mma_async %%da%d, %%db%d, %%s_%d, #nvvm.shape<m = 64, n = %d, k = 16>, "
                          "D [<f32>, #nvvm.wgmma_scale_out<%s>], A [<%s>, #nvvm.wgmma_scale_in<one>, <row>], "
                          "B [<%s>, #nvvm.wgmma_scale_in<one>, <col>] : %s -> %s\n",
                       step + 1, step, step, step, f->bn, step ? "one" : "zero", f->el, f->el, t->sacc, t->sacc);
    }
  braze_str_puts(s, "      nvvm.wgmma.commit.group.sync.aligned\n");
  bias_loads(t); /* in flight while the tensor cores work */
  braze_str_puts(s, "      nvvm.wgmma.wait.group.sync.aligned 0\n");
  for (int r = 0; r < f->bn / 2; ++r)
    braze_str_printf(s, "      %%v%d = llvm.extractvalue %%s_%d[%d] : %s\n", r, step, r, t->sacc);
}

/* Fold the values in<r> of row half i (accumulator register r holds row half (r / 2) % 2)
 * with `op` into %out; with `lanes`, over the row's 4 lanes too (shuffles). */
static void fold_row(BrazeStr *s, const char *out, const char *in, int n_vals, int i, const char *op, bool lanes) {
  enum { NAME = 40 }; /* "%" out (a char[8]) "_" int "_" int: 1 + 7 + 2 * (1 + 11) + NUL = 33 at most */
  char names[128][NAME];
  int n = 0, level = 0;
  for (int r = 0; r < n_vals && n < 128; ++r)
    if (((r / 2) & 1) == i)
      snprintf(names[n++], sizeof names[0], "%%%s%d", in, r);
  while (n > 1) { /* a tree, for independent operations in flight */
    int m = 0;
    for (int k = 0; k + 1 < n; k += 2, ++m) {
      char name[NAME];
      if (n == 2 && !lanes)
        snprintf(name, sizeof name, "%%%s", out); /* the thread's own values only: the result */
      else
        snprintf(name, sizeof name, "%%%s_%d_%d", out, level, m);
      braze_str_printf(s, "      %s = %s %s, %s : f32\n", name, op, names[k], names[k + 1]);
      snprintf(names[m], sizeof names[0], "%s", name);
    }
    if (n % 2)
      memmove(names[m++], names[n - 1], sizeof names[0]); /* the odd one out, to the next level */
    n = m;
    ++level;
  }
  if (!lanes)
    return;
  braze_str_printf(s, "      %%%s_x1, %%%s_v1 = gpu.shuffle xor %s, %%i1, %%i32 : f32\n"
                      "      %%%s_y1 = %s %s, %%%s_x1 : f32\n"
                      "      %%%s_x2, %%%s_v2 = gpu.shuffle xor %%%s_y1, %%i2, %%i32 : f32\n"
                      "      %%%s = %s %%%s_y1, %%%s_x2 : f32\n",
                   out, out, names[0], out, op, names[0], out, out, out, out, out, op, out, out);
}

/* The online softmax on S's registers %v<r>: %e<r> = exp2(S scale - m'), the new max
 * %mn<i>, the factor %al<i> and the new partial sums %ln<i>, O rescaled into %oi. */
static void softmax(Text *t) {
  const Flash *f = t->f;
  BrazeStr *s = t->s;
  int nv = f->bn / 2;
  bool tail = f->n % f->bn != 0, bias = f->n_in == 4;
  if (f->causal) /* key kb + c is kept for row r when c <= r + offset - kb */
    braze_str_puts(s, "      %cl0 = arith.subi %rl0, %kb : index\n      %cl1 = arith.subi %rl1, %kb : index\n");
  for (int r = 0; r < nv; ++r) { /* %x<r>: the scaled score, + the bias, -inf where masked */
    int col = 8 * (r / 4) + (r & 1);
    bool masked = tail || f->causal;
    braze_str_printf(s, "      %%%s%d = arith.mulf %%v%d, %%sc : f32\n", bias ? "w" : masked ? "y" : "x", r, r);
    if (!masked && !bias)
      continue;
    if (!bias)
      braze_str_printf(s, "      %%cc%d = arith.addi %%l2, %%cC%d : index\n", r, col);
    if (bias) { /* the bias at the key (%bl<r>, loaded by bias_loads) */
      if (f->bias_select) /* the mask's two values, in the log2 domain already */
        braze_str_printf(s, "      %%bs%d = arith.select %%bl%d, %%btrue, %%bfalse : f32\n", r, r);
      else if (strcmp(f->bias_el, "f32") != 0)
        braze_str_printf(s, "      %%bx%d = arith.extf %%bl%d : %s to f32\n", r, r, f->bias_el);
      /* the scores are in the log2 domain (exp2 below): the bias too */
      if (!f->bias_select)
        flash_bias_log2(s, f, "      ", "bs", strcmp(f->bias_el, "f32") != 0 ? "bx" : "bl", r);
      braze_str_printf(s, "      %%%s%d = arith.addf %%w%d, %%bs%d : f32\n", masked ? "y" : "x", r, r, r);
    }
    if (tail)
      braze_str_printf(s, "      %%ok%d = arith.cmpi ult, %%cc%d, %%lim : index\n"
                          "      %%%s%d = arith.select %%ok%d, %%y%d, %%ninf : f32\n", r, r, f->causal ? "z" : "x", r, r, r);
    if (f->causal)
      braze_str_printf(s, "      %%kp%d = arith.cmpi sle, %%cc%d, %%cl%d : index\n"
                          "      %%x%d = arith.select %%kp%d, %%%s%d, %%ninf : f32\n", r, r, (r / 2) & 1, r, r, tail ? "z" : "y", r);
  }
  for (int i = 0; i < 2; ++i) {
    char out[8];
    snprintf(out, sizeof out, "mx%d", i);
    fold_row(s, out, "x", nv, i, "arith.maximumf", true);
    braze_str_printf(s, "      %%mn%d = arith.maximumf %%m_%d, %%mx%d : f32\n      %%dm%d = arith.subf %%m_%d, %%mn%d : f32\n"
                        "      %%al%d = math.exp2 %%dm%d : f32\n", i, i, i, i, i, i, i, i);
  }
  for (int r = 0; r < nv; ++r)
    braze_str_printf(s, "      %%t%d = arith.subf %%x%d, %%mn%d : f32\n      %%e%d = math.exp2 %%t%d : f32\n", r, r,
                     (r / 2) & 1, r, r);
  for (int i = 0; i < 2; ++i) {
    char out[8];
    snprintf(out, sizeof out, "rs%d", i);
    fold_row(s, out, "e", nv, i, "arith.addf", false);
    braze_str_printf(s, "      %%lp%d = arith.mulf %%l_%d, %%al%d : f32\n      %%ln%d = arith.addf %%lp%d, %%rs%d : f32\n",
                     i, i, i, i, i, i);
  }
  for (int r = 0; r < f->dv / 2; ++r) /* O rescaled, the first P V's accumulator inputs */
    braze_str_printf(s, "      %%ov%d = llvm.extractvalue %%o[%d] : %s\n      %%os%d = arith.mulf %%ov%d, %%al%d : f32\n",
                     r, r, t->oacc, r, r, (r / 2) & 1);
}

/* One wgmma m64nDvk16 with A in registers (P's four bf16x2 words), as inline PTX: NVVM's
 * wgmma op takes A from shared memory only. `acc` names the 64 (Dv / 2) accumulator
 * inputs by a printf pattern over r. */
static void pv_register_a(Text *t, int step, const char *acc_fmt, int kc) {
  const Flash *f = t->f;
  BrazeStr *s = t->s;
  int nd = (int)f->dv / 2;
  braze_str_printf(s, "      %%o_%d = llvm.inline_asm has_side_effects asm_dialect = att \"{\\0A.reg .pred p;\\0A"
                      "setp.ne.b32 p, $%d, 0;\\0Awgmma.mma_async.sync.aligned.m64n%dk16.f32.%s.%s {",
                   step, 2 * nd + 5, nd * 2, f->el, f->el);
  for (int r = 0; r < nd; ++r)
    braze_str_printf(s, "%s$%d", r ? ", " : "", r);
  braze_str_printf(s, "}, {$%d, $%d, $%d, $%d}, $%d, p, 1, 1, 1;\\0A}\\0A\", \"", 2 * nd, 2 * nd + 1, 2 * nd + 2,
                   2 * nd + 3, 2 * nd + 4);
  for (int r = 0; r < nd; ++r)
    braze_str_printf(s, "=f,");
  for (int r = 0; r < nd; ++r)
    braze_str_printf(s, "%d,", r);
  braze_str_puts(s, "r,r,r,r,l,r\" ");
  for (int r = 0; r < nd; ++r) {
    braze_str_printf(s, r ? ", " : "");
    braze_str_printf(s, acc_fmt, r);
  }
  braze_str_printf(s, ", %%pw%d, %%pw%d, %%pw%d, %%pw%d, %%dvb%d, %%i1 : (", 8 * kc, 8 * kc + 2, 8 * kc + 4, 8 * kc + 6, step);
  for (int r = 0; r < nd; ++r)
    braze_str_puts(s, "f32, ");
  braze_str_printf(s, "i32, i32, i32, i32, i64, i32) -> %s\n", t->oacc);
}

/* O += P V: P from the registers (its bf16 pairs, A's fragment layout is S's), V from
 * the stage's boxes. */
static void output_product(Text *t) {
  const Flash *f = t->f;
  BrazeStr *s = t->s;
  for (int r = 0; r < f->bn / 2; r += 2) /* P's pairs as 32-bit words */
    braze_str_printf(s, "      %%pp%d = vector.from_elements %%e%d, %%e%d : vector<2xf32>\n"
                        "      %%ph%d = arith.truncf %%pp%d : vector<2xf32> to vector<2x%s>\n"
                        "      %%pw%d = llvm.bitcast %%ph%d : vector<2x%s> to i32\n",
                     r, r, r + 1, r, r, f->el, r, r, f->el);
  braze_str_puts(s, "      nvvm.wgmma.fence.aligned\n");
  int step = 0;
  char prev[16] = "";
  for (int kc = 0; kc < f->bn / 16; ++kc, ++step) {
    braze_str_printf(s, "      %%vc%d = arith.constant %lld : i64\n      %%dvb%d = arith.addi %%dVs, %%vc%d : i64\n", step,
                     (long long)((f->k_bytes + (int64_t)(kc / 4) * (f->dv / 64) * BOX_BYTES_V + (kc % 4) * 2048) >> 4),
                     step, step);
    if (kc == 0) {
      pv_register_a(t, step, "%%os%d", kc);
    } else {
      for (int r = 0; r < f->dv / 2; ++r)
        braze_str_printf(s, "      %%ox%d_%d = llvm.extractvalue %s[%d] : %s\n", step, r, prev, r, t->oacc);
      char fmt[32];
      snprintf(fmt, sizeof fmt, "%%%%ox%d_%%d", step);
      pv_register_a(t, step, fmt, kc);
    }
    snprintf(prev, sizeof prev, "%%o_%d", step);
  }
  braze_str_printf(s, "      nvvm.wgmma.commit.group.sync.aligned\n      nvvm.wgmma.wait.group.sync.aligned 0\n");
  /* this warpgroup is past the stage: its first thread counts it, and the second warpgroup
   * to get here refills it with block j + STAGES (no block-wide barrier: the warpgroups
   * drift, one's softmax overlapping the other's products) */
  braze_str_printf(s, "      %%nx = arith.addi %%j, %%cSTG : index\n      %%has = arith.cmpi ult, %%nx, %%nbt : index\n"
                      "      %%lead = arith.cmpi eq, %%lt, %%c0 : index\n      %%lh = arith.andi %%has, %%lead : i1\n"
                      "      scf.if %%lh {\n        %%old = memref.atomic_rmw addi %%i1, %%cnt[%%st] : (i32, memref<%dxi32, 3>) -> i32\n"
                      "        %%odd = arith.andi %%old, %%i1 : i32\n        %%go = arith.cmpi eq, %%odd, %%i1 : i32\n"
                      "      scf.if %%go {\n", STAGES);
  load_kv(t, "%nx", "%st", "q");
  braze_str_printf(s, "      }\n      }\n      scf.yield %%mn0, %%mn1, %%ln0, %%ln1, %s : f32, f32, f32, f32, %s\n    }\n", prev, t->oacc);
}

/* The bias's flat index of this thread's two rows at key 0: %brow0, %brow1. Each bias
 * dim adds its index times its stride: a batch dim the block's batch index (from %bh),
 * the row dim the row (clamped to M - 1: rows past M are not stored), a broadcast 0. */
static void bias_rows(Text *t) {
  const Flash *f = t->f;
  BrazeStr *s = t->s;
  braze_str_puts(s, "  %cM1 = arith.subi %cM, %c1 : index\n"
                    "  %br0 = arith.addi %rw, %prow : index\n  %br1 = arith.addi %m0, %br0 : index\n"
                    "  %bra = arith.minui %br1, %cM1 : index\n  %c8b = arith.constant 8 : index\n"
                    "  %brb0 = arith.addi %br1, %c8b : index\n  %brb = arith.minui %brb0, %cM1 : index\n");
  int64_t row_stride = flash_bias_batch_base(s, f);
  braze_str_printf(s, "  %%bRS = arith.constant %lld : index\n  %%bro0 = arith.muli %%bra, %%bRS : index\n"
                      "  %%bro1 = arith.muli %%brb, %%bRS : index\n  %%brow0 = arith.addi %%bb_%d, %%bro0 : index\n"
                      "  %%brow1 = arith.addi %%bb_%d, %%bro1 : index\n"
                      "  %%biasf = memref.reinterpret_cast %%arg3 to offset: [0], sizes: [%lld], strides: [1] : ",
                   (long long)row_stride, f->bias_rank, f->bias_rank, (long long)flash_bias_elements(f));
  BrazeStr bt = {0};
  braze_str_puts(&bt, "memref<");
  for (int r = 0; r < f->bias_rank; ++r)
    braze_str_printf(&bt, "%lldx", (long long)f->bias_shape[r]);
  braze_str_printf(s, "%s%s> to memref<%lldx%s>\n", braze_str_cstr(&bt), f->bias_el, (long long)flash_bias_elements(f), f->bias_el);
  braze_str_free(&bt);
  if (f->bias_select) /* the mask's bytes, for pair loads (bias_loads) */
    braze_str_printf(s, "  %%bpa = memref.extract_aligned_pointer_as_index %%biasf : memref<%lldxi1> -> index\n"
                        "  %%bpi = arith.index_cast %%bpa : index to i64\n  %%bptr = llvm.inttoptr %%bpi : i64 to !llvm.ptr<1>\n",
                     (long long)flash_bias_elements(f));
}

/* The bias tiles as one flat shared-memory buffer %bsm (a stage %cBSE elements), this
 * thread's two rows' offsets in a box %bto0, %bto1, and %bxl<k>: where 16-byte chunk k
 * of its rows lies after the 128-byte swizzle (chunk k ^ row % 8; row % 8 is lane / 4
 * for both rows), plus its column pair's offset 2 (lane % 4). */
static void bias_tile_constants(Text *t) {
  const Flash *f = t->f;
  BrazeStr *s = t->s;
  int eb = f->bias_select ? 1 : 2;
  braze_str_printf(s, "  %%cBSE = arith.constant %lld : index\n"
                      "  %%bsm = memref.view %%smem[%%cBO0][] : memref<0xi8, 3> to memref<%lldx%s, 3>\n"
                      "  %%btl = arith.addi %%rw, %%prow : index\n  %%cKBr = arith.constant %d : index\n"
                      "  %%bto0 = arith.muli %%btl, %%cKBr : index\n  %%cKB8 = arith.constant %d : index\n"
                      "  %%bto1 = arith.addi %%bto0, %%cKB8 : index\n  %%cEC = arith.constant %d : index\n",
                   (long long)(f->bias_stage / eb), (long long)(STAGES * f->bias_stage / eb), bias_smem_el(f),
                   f->bias_box_keys, 8 * f->bias_box_keys, 16 / eb);
  for (int k = 0; k < 8; ++k)
    braze_str_printf(s, "  %%cX%d = arith.constant %d : index\n  %%bxk%d = arith.xori %%l4, %%cX%d : index\n"
                        "  %%bxm%d = arith.muli %%bxk%d, %%cEC : index\n  %%bxl%d = arith.addi %%bxm%d, %%l2 : index\n",
                     k, k, k, k, k, k, k, k);
}

/* Per-thread constants of the loop: the mask's column offsets, the thread's row. */
static void loop_constants(Text *t) {
  const Flash *f = t->f;
  BrazeStr *s = t->s;
  double log2e = 1.4426950408889634;
  braze_str_printf(s, "  %%ninf = arith.constant 0xFF800000 : f32\n  %%fz = arith.constant 0.000000e+00 : f32\n"
                      "  %%sc = arith.constant %.9e : f32\n  %%i1 = arith.constant 1 : i32\n"
                      "  %%i2 = arith.constant 2 : i32\n  %%i32 = arith.constant 32 : i32\n"
                      "  %%l2 = arith.muli %%lm, %%c2 : index\n",
                   f->scale * log2e);
  for (int c = 0; c < f->bn; ++c)
    if ((c % 8) < 2 && (f->n % f->bn != 0 || f->causal || f->n_in == 4))
      braze_str_printf(s, "  %%cC%d = arith.constant %d : index\n", c, c);
  /* this thread's first row in its warpgroup: 16 warp + lane / 4 */
  braze_str_printf(s, "  %%prow0 = arith.muli %%warp, %%c16 : index\n  %%prow = arith.addi %%prow0, %%l4 : index\n"
                      "  %%o_init = llvm.mlir.zero : %s\n", t->oacc);
  braze_str_puts(s, "  %rw = arith.muli %wg, %c64 : index\n");
  if (f->n_in == 4) {
    flash_bias_constants(s, f);
    if (f->bias_select) /* the mask's values times log2(e), kept finite (finfo.min * log2(e) overflows f32) */
      braze_str_printf(s, "  %%btrue = arith.constant %.9e : f32\n  %%bfalse = arith.constant %.9e : f32\n",
                       flash_log2_domain(f->bias_true * log2e), flash_log2_domain(f->bias_false * log2e));
    if (f->bias_tiles)
      bias_tile_constants(t);
    else
      bias_rows(t);
  }
  if (f->causal) /* the last key each of the thread's two rows keeps: m0 + 64 wg + row + 8 i + offset */
    braze_str_printf(s, "  %%cOFF = arith.constant %lld : index\n  %%c8r = arith.constant 8 : index\n"
                        "  %%rr0 = arith.addi %%m0, %%rw : index\n"
                        "  %%rr1 = arith.addi %%rr0, %%prow : index\n  %%rl0 = arith.addi %%rr1, %%cOFF : index\n"
                        "  %%rl1 = arith.addi %%rl0, %%c8r : index\n", (long long)f->offset);
}

static void main_loop(Text *t) {
  const Flash *f = t->f;
  BrazeStr *s = t->s;
  loop_constants(t);
  braze_str_printf(s, "  %%cSB4 = arith.constant %lld : i64\n  %%cKV4 = arith.constant %lld : i64\n",
                   (long long)(f->stage_bytes >> 4), (long long)(f->kv_off >> 4));
  braze_str_printf(s, "  %%res:5 = scf.for %%j = %%c0 to %%nbt step %%c1 iter_args(%%m_0 = %%ninf, %%m_1 = %%ninf, "
                      "%%l_0 = %%fz, %%l_1 = %%fz, %%o = %%o_init) -> (f32, f32, f32, f32, %s) {\n", t->oacc);
  braze_str_printf(s, "      %%st = arith.remui %%j, %%cSTG : index\n      %%rnd = arith.divui %%j, %%cSTG : index\n"
                      "      %%rb = arith.index_cast %%rnd : index to i64\n      %%rbit = arith.trunci %%rb : i64 to i1\n"
                      "      nvgpu.mbarrier.try_wait.parity %%bar[%%st], %%rbit, %%ticks : %s\n"
                      "      %%sti = arith.index_cast %%st : index to i64\n      %%stg0 = arith.muli %%sti, %%cSB4 : i64\n"
                      "      %%stg = arith.addi %%stg0, %%cKV4 : i64\n      %%dKs = arith.addi %%dK, %%stg : i64\n"
                      "      %%dVs = arith.addi %%dV, %%stg : i64\n", t->mbar);
  scores(t);
  softmax(t);
  output_product(t);
}

/* O / l, rounded to the element type, stored from the registers (rows past M skipped). */
static void epilogue(Text *t) {
  const Flash *f = t->f;
  BrazeStr *s = t->s;
  int64_t total = f->batch * f->m * f->dv;
  braze_str_printf(s, "  %%one = arith.constant 1.000000e+00 : f32\n  %%cDV = arith.constant %lld : index\n"
                      "  %%outf = memref.reinterpret_cast %%arg%d to offset: [0], sizes: [%lld], strides: [1] : ",
                   (long long)f->dv, f->n_in, (long long)total);
  braze_str_printf(s, "%s to memref<%lldx%s>\n", braze_str_cstr(&t->out_type), (long long)total, f->el);
  braze_str_puts(s, "  %wr = arith.muli %wg, %c64 : index\n  %orow0 = arith.addi %m0, %wr : index\n"
                    "  %orow1 = arith.addi %orow0, %prow : index\n  %c8 = arith.constant 8 : index\n");
  for (int i = 0; i < 2; ++i) {
    braze_str_printf(s, "  %%L%d_x1, %%L%d_v1 = gpu.shuffle xor %%res#%d, %%i1, %%i32 : f32\n"
                        "  %%L%d_y = arith.addf %%res#%d, %%L%d_x1 : f32\n"
                        "  %%L%d_x2, %%L%d_v2 = gpu.shuffle xor %%L%d_y, %%i2, %%i32 : f32\n"
                        "  %%L%d = arith.addf %%L%d_y, %%L%d_x2 : f32\n  %%inv%d = arith.divf %%one, %%L%d : f32\n",
                     i, i, 2 + i, i, 2 + i, i, i, i, i, i, i, i, i, i);
    braze_str_printf(s, "  %%row%d = arith.addi %%orow1, %%c%s : index\n  %%ok%d = arith.cmpi ult, %%row%d, %%cM : index\n"
                        "  %%grow%d = arith.addi %%bm, %%row%d : index\n  %%gbase%d = arith.muli %%grow%d, %%cDV : index\n"
                        "  %%gidx%d = arith.addi %%gbase%d, %%l2 : index\n  scf.if %%ok%d {\n",
                     i, i ? "8" : "0", i, i, i, i, i, i, i, i, i);
    for (int j8 = 0; j8 < f->dv / 8; ++j8) {
      int r = j8 * 4 + i * 2;
      braze_str_printf(s, "    %%fa%d = llvm.extractvalue %%res#4[%d] : %s\n    %%fb%d = llvm.extractvalue %%res#4[%d] : %s\n"
                          "    %%ga%d = arith.mulf %%fa%d, %%inv%d : f32\n    %%gb%d = arith.mulf %%fb%d, %%inv%d : f32\n"
                          "    %%gv%d = vector.from_elements %%ga%d, %%gb%d : vector<2xf32>\n"
                          "    %%gh%d = arith.truncf %%gv%d : vector<2xf32> to vector<2x%s>\n"
                          "    %%gc%d = arith.constant %d : index\n    %%gi%d = arith.addi %%gidx%d, %%gc%d : index\n"
                          "    vector.store %%gh%d, %%outf[%%gi%d] {alignment = 4} : memref<%lldx%s>, vector<2x%s>\n",
                       r, r, t->oacc, r, r + 1, t->oacc, r, r, i, r, r, i, r, r, r, r, r, f->el, r, 8 * j8, r, i, r, r,
                       r, (long long)total, f->el, f->el);
    }
    braze_str_puts(s, "  }\n");
  }
  braze_str_puts(s, "  gpu.return\n}\n");
}

/* Text of the whole gpu.func. */
static void kernel_text(Text *t, MlirOperation func, const char *name) {
  types(t);
  flash_print_memref(&t->out_type, flash_arg_type(func, -1));
  header(t, func, name);
  loads(t);
  descriptors(t);
  main_loop(t);
  epilogue(t);
}

int cu_convert_chain(MlirOperation func, MlirOperation gpu_module, const CuOptions *opts) {
  MlirAttribute kind = mlirOperationGetAttributeByName(func, braze_ref("kernel.kind"));
  if (mlirAttributeIsNull(kind) || !braze_ref_eq(mlirStringAttrGetValue(kind), "chain"))
    return 0;
  MlirStringRef name_ref = mlirStringAttrGetValue(mlirOperationGetAttributeByName(func, braze_ref("sym_name")));
  char name[256];
  snprintf(name, sizeof name, "%.*s", (int)name_ref.length, name_ref.data);
  Flash f = {0};
  const char *why = flash_plan(func, opts, &f);
  if (why) {
    braze_emit_error(mlirOperationGetLocation(func), "cuda-codegen: chain kernel @%s: no flash kernel: %s", name, why);
    return -1;
  }
  BrazeStr text = {0};
  Text t = {.s = &text, .f = &f};
  if (f.simt)
    flash_simt_text(&text, &f, func, name);
  else
    kernel_text(&t, func, name);
  braze_str_free(&t.out_type);
  MlirOperation fn = cu_parse_gpu_func(gpu_module, braze_str_cstr(&text), "braze-flash");
  braze_str_free(&text);
  if (mlirOperationIsNull(fn)) {
    braze_emit_error(mlirOperationGetLocation(func), "cuda-codegen: internal error: the flash kernel of @%s does not parse",
                     name);
    return -1;
  }
  if (opts->remarks && f.simt)
    braze_emit_remark(mlirOperationGetLocation(func),
                      "cuda-codegen: kernel @%s: flash kernel (online chain, f32 SIMT), grid (%lld, %lld, 1), block %d, "
                      "%d keys per tile, %lld bytes of shared memory%s",
                      name, (long long)f.tiles, (long long)f.batch, FLASH_SIMT_ROWS, f.bn, (long long)f.smem,
                      f.bias_affine ? ", the bias (x + shift) * mul of its input" : "");
  else if (opts->remarks)
    braze_emit_remark(mlirOperationGetLocation(func),
                      "cuda-codegen: kernel @%s: flash kernel (online chain), grid (%lld, %lld, 1), block %d, %d keys "
                      "per step, %d stages, %lld bytes of shared memory%s%s",
                      name, (long long)f.tiles, (long long)f.batch, THREADS, f.bn, STAGES, (long long)f.smem,
                      f.n_in != 4 ? "" : f.bias_tiles ? ", the bias in tiles by TMA" : ", the bias read per thread",
                      f.bias_affine ? ", (x + shift) * mul of its input" : "");
  MlirContext ctx = mlirOperationGetContext(func);
  MlirType types_[5];
  for (int i = 0; i <= f.n_in; ++i) {
    BrazeStr m = {0};
    flash_print_memref(&m, flash_arg_type(func, i < f.n_in ? i : -1));
    types_[i] = mlirTypeParseGet(ctx, braze_ref(braze_str_cstr(&m)));
    braze_str_free(&m);
  }
  cu_replace_by_declaration(func, f.n_in + 1, types_, f.n_in);
  return 1;
}
