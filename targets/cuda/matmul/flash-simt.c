/* cuda-codegen, f32 attention chains in the online form as one SIMT kernel: the
 * flash-attention recurrence in f32 without tensor cores (f32 stays f32 on this target,
 * as its contractions do without allow-tf32).
 *
 * A block of FLASH_SIMT_ROWS threads takes as many query rows of one batch, a thread a
 * row: its row of q (scaled by scale * log2(e)) and of the output in registers, its
 * running max and sum. Per tile of FLASH_SIMT_KEYS keys the block copies k's and v's
 * rows of the tile into shared memory (contiguous in memory: coalesced, zero past the
 * last key), then each thread
 *
 *   s_c = q . k_c                          (c over the tile, D FMAs each; every thread reads
 *                                           the same k_c: shared-memory broadcasts)
 *   s_c += bias[row, key] * log2(e)        (a bias or an i1 mask's select); -inf past the
 *                                           keys or the causal limit
 *   m' = max(m, s_c),  a = exp2(m - m'),  p_c = exp2(s_c - m')
 *   l = l a + sum p_c,  o = o a + sum p_c v_c
 *
 * and at the end stores o / l (rows past M store nothing). The tile loop's bounds and
 * every index in registers are static: q, o and the scores are f32 values, not arrays
 * (no local memory). Causal chains stop at the block's last row's last key. */
#include "targets/cuda/matmul/flash.h"

#include <stdio.h>

#include "mlir-c/BuiltinTypes.h"

enum { ROWS = FLASH_SIMT_ROWS, KEYS = FLASH_SIMT_KEYS };

static void flat_view(BrazeStr *s, const char *name, int arg, MlirType tensor, const char *el) {
  int64_t n = 1;
  for (intptr_t i = 0; i < mlirShapedTypeGetRank(tensor); ++i)
    n *= mlirShapedTypeGetDimSize(tensor, i);
  braze_str_printf(s, "  %%%s = memref.reinterpret_cast %%arg%d to offset: [0], sizes: [%lld], strides: [1] : ", name, arg,
                   (long long)n);
  flash_print_memref(s, tensor);
  braze_str_printf(s, " to memref<%lldx%s>\n", (long long)n, el);
}

static int64_t elements(MlirType t) {
  int64_t n = 1;
  for (intptr_t i = 0; i < mlirShapedTypeGetRank(t); ++i)
    n *= mlirShapedTypeGetDimSize(t, i);
  return n;
}

/* %brow: the bias's flat index of this thread's row at key 0 (its batch dims from %bh,
 * its row dim the row clamped to M - 1, broadcast dims 0); keys are its last dim. */
static void bias_row(BrazeStr *s, const Flash *f) {
  int64_t row_stride = flash_bias_batch_base(s, f);
  braze_str_printf(s, "  %%bRS = arith.constant %lld : index\n  %%bro = arith.muli %%rowc, %%bRS : index\n"
                      "  %%brow = arith.addi %%bb_%d, %%bro : index\n",
                   (long long)row_stride, f->bias_rank);
}

static void header(BrazeStr *s, const Flash *f, MlirOperation func, const char *name) {
  braze_str_printf(s, "gpu.func @%s(", name);
  for (int i = 0; i <= f->n_in; ++i) {
    braze_str_printf(s, "%s%%arg%d: ", i ? ", " : "", i);
    flash_print_memref(s, flash_arg_type(func, i < f->n_in ? i : -1));
  }
  braze_str_printf(s, ") kernel attributes {known_block_size = array<i32: %d, 1, 1>, braze.dynamic_smem = %lld : i64, "
                      "braze.grid = array<i64: %lld, %lld, 1>} {\n",
                   ROWS, (long long)f->smem, (long long)f->tiles, (long long)f->batch);
  braze_str_printf(s, "  %%c0 = arith.constant 0 : index\n  %%c1 = arith.constant 1 : index\n"
                      "  %%cM = arith.constant %lld : index\n  %%cN = arith.constant %lld : index\n"
                      "  %%cM1 = arith.constant %lld : index\n  %%cN1 = arith.constant %lld : index\n"
                      "  %%cD = arith.constant %lld : index\n  %%cDV = arith.constant %lld : index\n"
                      "  %%cKT = arith.constant %d : index\n  %%cROWS = arith.constant %d : index\n"
                      "  %%ninf = arith.constant 0xFF800000 : f32\n  %%fz = arith.constant 0.000000e+00 : f32\n"
                      "  %%one = arith.constant 1.000000e+00 : f32\n  %%sc = arith.constant %.9e : f32\n",
                   (long long)f->m, (long long)f->n, (long long)f->m - 1, (long long)f->n - 1, (long long)f->d,
                   (long long)f->dv, KEYS, ROWS, f->scale * 1.4426950408889634);
  braze_str_puts(s, "  %tid = gpu.thread_id x\n  %pid = gpu.block_id x\n  %bh = gpu.block_id y\n"
                    "  %m0 = arith.muli %pid, %cROWS : index\n  %row = arith.addi %m0, %tid : index\n"
                    "  %ok = arith.cmpi ult, %row, %cM : index\n  %rowc = arith.minui %row, %cM1 : index\n"
                    "  %bm = arith.muli %bh, %cM : index\n  %grow = arith.addi %bm, %rowc : index\n");
  flash_kv_batch_row(s, f);
  flat_view(s, "qf", 0, flash_arg_type(func, 0), "f32");
  flat_view(s, "kf", 1, flash_arg_type(func, 1), "f32");
  flat_view(s, "vf", 2, flash_arg_type(func, 2), "f32");
  flat_view(s, "outf", f->n_in, flash_arg_type(func, -1), "f32");
  if (f->n_in == 4) {
    flat_view(s, "biasf", 3, flash_arg_type(func, 3), f->bias_el);
    flash_bias_constants(s, f);
    if (f->bias_select)
      braze_str_printf(s, "  %%btrue = arith.constant %.9e : f32\n  %%bfalse = arith.constant %.9e : f32\n",
                       flash_log2_domain(f->bias_true * 1.4426950408889634),
                       flash_log2_domain(f->bias_false * 1.4426950408889634));
    bias_row(s, f);
  }
  braze_str_printf(s, "  %%smem = memref.get_global @braze_smem : memref<0xi8, 3>\n"
                      "  %%ks = memref.view %%smem[%%c0][] : memref<0xi8, 3> to memref<%lldxf32, 3>\n"
                      "  %%cVO = arith.constant %lld : index\n"
                      "  %%vs = memref.view %%smem[%%cVO][] : memref<0xi8, 3> to memref<%lldxf32, 3>\n",
                   (long long)KEYS * f->d, (long long)KEYS * f->d * 4, (long long)KEYS * f->dv);
  /* this thread's row of q, in the log2 domain */
  braze_str_puts(s, "  %qb = arith.muli %grow, %cD : index\n");
  for (int64_t d = 0; d < f->d; ++d)
    braze_str_printf(s, "  %%qc%lld = arith.constant %lld : index\n  %%qi%lld = arith.addi %%qb, %%qc%lld : index\n"
                        "  %%qr%lld = memref.load %%qf[%%qi%lld] : memref<%lldxf32>\n"
                        "  %%q%lld = arith.mulf %%qr%lld, %%sc : f32\n",
                     (long long)d, (long long)d, (long long)d, (long long)d, (long long)d, (long long)d,
                     (long long)elements(flash_arg_type(func, 0)), (long long)d, (long long)d);
  if (f->causal) /* keys up to the block's last row + offset */
    braze_str_printf(s, "  %%cKE = arith.constant %lld : index\n  %%ke0 = arith.addi %%m0, %%cKE : index\n"
                        "  %%ke1 = arith.maxsi %%ke0, %%c0 : index\n  %%ke = arith.minsi %%ke1, %%cN : index\n"
                        "  %%cKT1 = arith.constant %d : index\n  %%ke2 = arith.addi %%ke, %%cKT1 : index\n"
                        "  %%nbt = arith.divui %%ke2, %%cKT : index\n  %%cOFF = arith.constant %lld : index\n"
                        "  %%rlim = arith.addi %%row, %%cOFF : index\n",
                     (long long)(ROWS + f->offset), KEYS - 1, (long long)f->offset);
  else
    braze_str_printf(s, "  %%nbt = arith.constant %lld : index\n", (long long)f->blocks);
}

/* The block copies rows [k0, k0 + KEYS) of a [rows][width] operand (contiguous from
 * `base` * width) into `dst`, zero past the last key. */
static void load_tile(BrazeStr *s, const char *x, const char *src, const char *dst, int64_t width, int64_t total) {
  int64_t n = KEYS * width;
  braze_str_printf(s, "    %%%sbase0 = arith.addi %%krow0, %%k0 : index\n    %%%sbase = arith.muli %%%sbase0, %%c%s : index\n",
                   x, x, x, x[0] == 'k' ? "D" : "DV");
  for (int64_t i = 0; i * ROWS < n; ++i) {
    braze_str_printf(s, "    %%%sc%lld = arith.constant %lld : index\n    %%%sl%lld = arith.addi %%tid, %%%sc%lld : index\n",
                     x, (long long)i, (long long)(i * ROWS), x, (long long)i, x, (long long)i);
    bool partial = (i + 1) * ROWS > n;
    if (partial)
      braze_str_printf(s, "    %%%sn%lld = arith.constant %lld : index\n    %%%sin%lld = arith.cmpi ult, %%%sl%lld, %%%sn%lld : index\n"
                          "    scf.if %%%sin%lld {\n",
                       x, (long long)i, (long long)n, x, (long long)i, x, (long long)i, x, (long long)i, x, (long long)i);
    /* key k0 + idx / width is in range when the flat index is below N * width */
    braze_str_printf(s, "    %%%sg%lld = arith.addi %%%sbase, %%%sl%lld : index\n"
                        "    %%%sk%lld = arith.divui %%%sl%lld, %%c%s : index\n    %%%skk%lld = arith.addi %%k0, %%%sk%lld : index\n"
                        "    %%%sv%lld = arith.cmpi ult, %%%skk%lld, %%cN : index\n"
                        "    %%%sx%lld = scf.if %%%sv%lld -> (f32) {\n"
                        "      %%%sy%lld = memref.load %%%s[%%%sg%lld] : memref<%lldxf32>\n      scf.yield %%%sy%lld : f32\n"
                        "    } else {\n      scf.yield %%fz : f32\n    }\n"
                        "    memref.store %%%sx%lld, %%%s[%%%sl%lld] : memref<%lldxf32, 3>\n",
                     x, (long long)i, x, x, (long long)i, x, (long long)i, x, (long long)i, x[0] == 'k' ? "D" : "DV", x,
                     (long long)i, x, (long long)i, x, (long long)i, x, (long long)i, x, (long long)i, x, (long long)i, x,
                     (long long)i, src, x, (long long)i, (long long)total, x, (long long)i, x, (long long)i, dst, x,
                     (long long)i, (long long)n);
    if (partial)
      braze_str_puts(s, "    }\n");
  }
}

/* Score c of the tile in the log2 domain, masked and biased: %s<c>. */
static void score(BrazeStr *s, const Flash *f, int c, int64_t bias_total) {
  for (int64_t d = 0; d < f->d; ++d) {
    braze_str_printf(s, "    %%kc%d_%lld = arith.constant %lld : index\n"
                        "    %%kv%d_%lld = memref.load %%ks[%%kc%d_%lld] : memref<%lldxf32, 3>\n",
                     c, (long long)d, (long long)(c * f->d + d), c, (long long)d, c, (long long)d, (long long)KEYS * f->d);
    if (d == 0)
      braze_str_printf(s, "    %%a%d_0 = arith.mulf %%q0, %%kv%d_0 : f32\n", c, c);
    else
      braze_str_printf(s, "    %%a%d_%lld = math.fma %%q%lld, %%kv%d_%lld, %%a%d_%lld : f32\n", c, (long long)d,
                       (long long)d, c, (long long)d, c, (long long)d - 1);
  }
  const char *x = "a";
  char cur[32];
  snprintf(cur, sizeof cur, "%%a%d_%lld", c, (long long)f->d - 1);
  braze_str_printf(s, "    %%kco%d = arith.constant %d : index\n    %%key%d = arith.addi %%k0, %%kco%d : index\n", c, c, c, c);
  if (f->n_in == 4) {
    braze_str_printf(s, "    %%bk%d = arith.minui %%key%d, %%cN1 : index\n    %%bi%d = arith.addi %%brow, %%bk%d : index\n"
                        "    %%bl%d = memref.load %%biasf[%%bi%d] : memref<%lldx%s>\n",
                     c, c, c, c, c, c, (long long)bias_total, f->bias_el);
    if (f->bias_select)
      braze_str_printf(s, "    %%bs%d = arith.select %%bl%d, %%btrue, %%bfalse : f32\n", c, c);
    else if (f->bias_el[1] != '3') { /* bf16 or f16 */
      braze_str_printf(s, "    %%be%d = arith.extf %%bl%d : %s to f32\n", c, c, f->bias_el);
      flash_bias_log2(s, f, "    ", "bs", "be", c);
    } else {
      flash_bias_log2(s, f, "    ", "bs", "bl", c);
    }
    braze_str_printf(s, "    %%sb%d = arith.addf %s, %%bs%d : f32\n", c, cur, c);
    snprintf(cur, sizeof cur, "%%sb%d", c);
    x = "sb";
  }
  (void)x;
  bool tail = f->n % KEYS != 0;
  if (tail || f->causal) {
    braze_str_printf(s, "    %%in%d = arith.cmpi ult, %%key%d, %%cN : index\n", c, c);
    if (f->causal)
      braze_str_printf(s, "    %%cz%d = arith.cmpi sle, %%key%d, %%rlim : index\n    %%keep%d = arith.andi %%in%d, %%cz%d : i1\n",
                       c, c, c, c, c);
    else
      braze_str_printf(s, "    %%keep%d = arith.andi %%in%d, %%in%d : i1\n", c, c, c);
    braze_str_printf(s, "    %%s%d = arith.select %%keep%d, %s, %%ninf : f32\n", c, c, cur);
  } else {
    braze_str_printf(s, "    %%s%d = arith.addf %s, %%fz : f32\n", c, cur);
  }
}

static void main_loop(BrazeStr *s, const Flash *f, MlirOperation func) {
  int64_t bias_total = f->n_in == 4 ? elements(flash_arg_type(func, 3)) : 0;
  braze_str_puts(s, "  %res:");
  braze_str_printf(s, "%lld = scf.for %%j = %%c0 to %%nbt step %%c1 iter_args(%%m = %%ninf, %%l = %%fz", (long long)f->dv + 2);
  for (int64_t d = 0; d < f->dv; ++d)
    braze_str_printf(s, ", %%o%lld = %%fz", (long long)d);
  braze_str_puts(s, ") -> (f32, f32");
  for (int64_t d = 0; d < f->dv; ++d)
    braze_str_puts(s, ", f32");
  braze_str_puts(s, ") {\n    %k0 = arith.muli %j, %cKT : index\n    gpu.barrier\n");
  load_tile(s, "k", "kf", "ks", f->d, elements(flash_arg_type(func, 1)));
  load_tile(s, "v", "vf", "vs", f->dv, elements(flash_arg_type(func, 2)));
  braze_str_puts(s, "    gpu.barrier\n");
  for (int c = 0; c < KEYS; ++c)
    score(s, f, c, bias_total);
  braze_str_puts(s, "    %mx0 = arith.maximumf %m, %s0 : f32\n");
  for (int c = 1; c < KEYS; ++c)
    braze_str_printf(s, "    %%mx%d = arith.maximumf %%mx%d, %%s%d : f32\n", c, c - 1, c);
  /* a row with every score so far -inf keeps exponents finite: exp2(-inf - 0) = 0 */
  braze_str_printf(s, "    %%allm = arith.cmpf oeq, %%mx%d, %%ninf : f32\n    %%mn = arith.select %%allm, %%fz, %%mx%d : f32\n"
                      "    %%dm = arith.subf %%m, %%mn : f32\n    %%al = math.exp2 %%dm : f32\n"
                      "    %%l0 = arith.mulf %%l, %%al : f32\n",
                   KEYS - 1, KEYS - 1);
  for (int c = 0; c < KEYS; ++c)
    braze_str_printf(s, "    %%sd%d = arith.subf %%s%d, %%mn : f32\n    %%p%d = math.exp2 %%sd%d : f32\n"
                        "    %%l%d = arith.addf %%l%d, %%p%d : f32\n",
                     c, c, c, c, c + 1, c, c);
  for (int64_t d = 0; d < f->dv; ++d) {
    braze_str_printf(s, "    %%ox%lld_0 = arith.mulf %%o%lld, %%al : f32\n", (long long)d, (long long)d);
    for (int c = 0; c < KEYS; ++c)
      braze_str_printf(s, "    %%vc%lld_%d = arith.constant %lld : index\n"
                          "    %%vv%lld_%d = memref.load %%vs[%%vc%lld_%d] : memref<%lldxf32, 3>\n"
                          "    %%ox%lld_%d = math.fma %%p%d, %%vv%lld_%d, %%ox%lld_%d : f32\n",
                       (long long)d, c, (long long)(c * f->dv + d), (long long)d, c, (long long)d, c,
                       (long long)KEYS * f->dv, (long long)d, c + 1, c, (long long)d, c, (long long)d, c);
  }
  braze_str_printf(s, "    scf.yield %%mx%d, %%l%d", KEYS - 1, KEYS);
  for (int64_t d = 0; d < f->dv; ++d)
    braze_str_printf(s, ", %%ox%lld_%d", (long long)d, KEYS);
  braze_str_puts(s, " : f32, f32");
  for (int64_t d = 0; d < f->dv; ++d)
    braze_str_puts(s, ", f32");
  braze_str_puts(s, "\n  }\n");
}

/* o / l at the thread's row of the output, when the row is one of the M. */
static void epilogue(BrazeStr *s, const Flash *f, MlirOperation func) {
  int64_t total = elements(flash_arg_type(func, -1));
  braze_str_puts(s, "  %inv = arith.divf %one, %res#1 : f32\n  %ob = arith.muli %grow, %cDV : index\n  scf.if %ok {\n");
  for (int64_t d = 0; d < f->dv; ++d)
    braze_str_printf(s, "    %%y%lld = arith.mulf %%res#%lld, %%inv : f32\n    %%yc%lld = arith.constant %lld : index\n"
                        "    %%yi%lld = arith.addi %%ob, %%yc%lld : index\n"
                        "    memref.store %%y%lld, %%outf[%%yi%lld] : memref<%lldxf32>\n",
                     (long long)d, (long long)d + 2, (long long)d, (long long)d, (long long)d, (long long)d, (long long)d,
                     (long long)d, (long long)total);
  braze_str_puts(s, "  }\n  gpu.return\n}\n");
}

void flash_simt_text(BrazeStr *s, const Flash *f, MlirOperation func, const char *name) {
  header(s, f, func, name);
  main_loop(s, f, func);
  epilogue(s, f, func);
}
