/* cuda-codegen, attention chains in the online form: the plan both flash kernels share
 * (the tensor-core one, flash.c, and the SIMT one for f32, flash-simt.c) and the index
 * arithmetic they print. */
#include "targets/cuda/matmul/flash.h"

#include <string.h>

#include <float.h>
#include <stdio.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"

/* ---- the plan ---- */

MlirType flash_arg_type(MlirOperation func, int i) {
  MlirType fn = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(func, braze_ref("function_type")));
  return i < 0 ? mlirFunctionTypeGetResult(fn, 0) : mlirFunctionTypeGetInput(fn, i);
}

const char *flash_plan(MlirOperation func, const CuOptions *opts, Flash *f) {
  MlirAttribute online = mlirOperationGetAttributeByName(func, braze_ref("kernel.online"));
  MlirType fn = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(func, braze_ref("function_type")));
  if (mlirAttributeIsNull(online) || !mlirAttributeIsADictionary(online))
    return "not-in-the-online-form (form-row-chains with a target other than cpu writes it)";
  f->n_in = (int)mlirFunctionTypeGetNumInputs(fn);
  MlirAttribute bias = mlirDictionaryAttrGetElementByName(online, braze_ref("bias"));
  if (f->n_in != (mlirAttributeIsNull(bias) ? 3 : 4) || mlirFunctionTypeGetNumResults(fn) != 1)
    return "not-q-k-v-(bias)-to-one-result";
  if (!mlirAttributeIsNull(bias)) {
    MlirType bt = mlirFunctionTypeGetInput(fn, 3), be = mlirShapedTypeGetElementType(bt);
    f->bias_rank = (int)mlirDenseArrayGetNumElements(bias);
    MlirAttribute bt_attr = mlirDictionaryAttrGetElementByName(online, braze_ref("bias_true"));
    MlirAttribute bf_attr = mlirDictionaryAttrGetElementByName(online, braze_ref("bias_false"));
    f->bias_select = mlirTypeIsAInteger(be) && mlirIntegerTypeGetWidth(be) == 1;
    if (f->bias_rank != mlirShapedTypeGetRank(bt) || f->bias_rank > 8 ||
        !(mlirTypeIsABF16(be) || mlirTypeIsAF16(be) || mlirTypeIsAF32(be) || f->bias_select))
      return "bias-not-a-bf16-f16-f32-or-i1-tensor-of-its-dims";
    if (f->bias_select && (mlirAttributeIsNull(bt_attr) || mlirAttributeIsNull(bf_attr) || !mlirAttributeIsAFloat(bt_attr) ||
                           !mlirAttributeIsAFloat(bf_attr)))
      return "an-i1-bias-without-bias_true-and-bias_false";
    if (f->bias_select) {
      f->bias_true = mlirFloatAttrGetValueDouble(bt_attr);
      f->bias_false = mlirFloatAttrGetValueDouble(bf_attr);
    }
    MlirAttribute sh_attr = mlirDictionaryAttrGetElementByName(online, braze_ref("bias_shift"));
    MlirAttribute mu_attr = mlirDictionaryAttrGetElementByName(online, braze_ref("bias_mul"));
    if (mlirAttributeIsNull(sh_attr) != mlirAttributeIsNull(mu_attr) ||
        (!mlirAttributeIsNull(sh_attr) && (!mlirAttributeIsAFloat(sh_attr) || !mlirAttributeIsAFloat(mu_attr) || f->bias_select)))
      return "an-affine-bias-without-float-bias_shift-and-bias_mul-of-a-float-tensor";
    f->bias_affine = !mlirAttributeIsNull(sh_attr);
    if (f->bias_affine) {
      f->bias_shift = mlirFloatAttrGetValueDouble(sh_attr);
      f->bias_mul = mlirFloatAttrGetValueDouble(mu_attr);
    }
    f->bias_el = f->bias_select ? "i1" : mlirTypeIsABF16(be) ? "bf16" : mlirTypeIsAF16(be) ? "f16" : "f32";
    for (int r = 0; r < f->bias_rank; ++r) {
      f->bias_dims[r] = mlirDenseI64ArrayGetElement(bias, r);
      f->bias_shape[r] = mlirShapedTypeGetDimSize(bt, r);
    }
  }
  MlirAttribute kb = mlirDictionaryAttrGetElementByName(online, braze_ref("key_block"));
  MlirAttribute sc = mlirDictionaryAttrGetElementByName(online, braze_ref("scale"));
  if (mlirAttributeIsNull(kb) || mlirAttributeIsNull(sc) || !mlirAttributeIsAInteger(kb) || !mlirAttributeIsAFloat(sc))
    return "kernel.online lacks key_block or scale";
  f->bn = (int)mlirIntegerAttrGetValueInt(kb);
  f->scale = mlirFloatAttrGetValueDouble(sc);
  MlirAttribute causal = mlirDictionaryAttrGetElementByName(online, braze_ref("causal"));
  f->causal = !mlirAttributeIsNull(causal) && mlirAttributeIsAInteger(causal);
  f->offset = f->causal ? mlirIntegerAttrGetValueInt(causal) : 0;
  MlirType q = flash_arg_type(func, 0), k = flash_arg_type(func, 1), v = flash_arg_type(func, 2), y = flash_arg_type(func, -1);
  MlirType el = mlirShapedTypeGetElementType(q);
  f->simt = mlirTypeIsAF32(el);
  if (!mlirTypeIsABF16(el) && !mlirTypeIsAF16(el) && !f->simt)
    return "inputs-not-bf16-f16-or-f32";
  if (!mlirTypeEqual(el, mlirShapedTypeGetElementType(k)) || !mlirTypeEqual(el, mlirShapedTypeGetElementType(v)) ||
      !mlirTypeEqual(el, mlirShapedTypeGetElementType(y)))
    return "q-k-v-and-result-not-of-one-type";
  f->el = mlirTypeIsABF16(el) ? "bf16" : mlirTypeIsAF16(el) ? "f16" : "f32";
  intptr_t r = mlirShapedTypeGetRank(q);
  f->batch = 1;
  f->nb = (int)r - 2;
  if (f->nb > 8 || mlirShapedTypeGetRank(k) != r || mlirShapedTypeGetRank(v) != r)
    return "q-k-v-of-different-ranks";
  for (intptr_t i = 0; i + 2 < r; ++i) {
    f->batch *= mlirShapedTypeGetDimSize(q, i);
    f->q_batch[i] = mlirShapedTypeGetDimSize(q, i);
    f->kv_batch[i] = mlirShapedTypeGetDimSize(k, i);
    if (f->kv_batch[i] != mlirShapedTypeGetDimSize(v, i) || f->kv_batch[i] < 1 || f->q_batch[i] % f->kv_batch[i] != 0)
      return "k-v-batch-dims-not-dividing-q-s";
  }
  f->m = mlirShapedTypeGetDimSize(q, r - 2);
  f->d = mlirShapedTypeGetDimSize(q, r - 1);
  f->n = mlirShapedTypeGetDimSize(k, r - 2);
  f->dv = mlirShapedTypeGetDimSize(v, r - 1);
  if (f->simt) { /* f32: q's row and the output's in registers, a tile of keys in shared memory */
    if (f->d > FLASH_SIMT_MAX_HEAD || f->dv > FLASH_SIMT_MAX_HEAD)
      return "f32-head-dims-over-64 (the SIMT kernel keeps a row of q and of the output in registers)";
    f->bn = FLASH_SIMT_KEYS;
    f->tiles = (f->m + FLASH_SIMT_ROWS - 1) / FLASH_SIMT_ROWS;
    f->blocks = (f->n + f->bn - 1) / f->bn;
    f->smem = (int64_t)f->bn * (f->d + f->dv) * 4;
    if (f->tiles > 0x7fffffff || f->batch > 65535)
      return "grid-too-large";
    return NULL;
  }
  if ((f->d != 64 && f->d != 128) || (f->dv != 64 && f->dv != 128))
    return "head-dims-not-64-or-128";
  if (f->bn != 64 && f->bn != 128)
    return "key-block-not-64-or-128";
  f->tiles = (f->m + BM - 1) / BM;
  f->blocks = (f->n + f->bn - 1) / f->bn;
  f->kv_off = (int64_t)BM * f->d * 2;
  f->k_bytes = (int64_t)f->bn * f->d * 2;
  f->stage_bytes = f->k_bytes + (int64_t)f->bn * f->dv * 2;
  f->cnt_off = f->kv_off + STAGES * f->stage_bytes; /* a counter per stage: who releases it last */
  f->smem = f->cnt_off + 16;
  if (f->smem + 1024 > opts->smem_block)
    return "shared-memory-exceeds-the-limit";
  /* A bias with a row per query and the keys innermost (N a multiple of the key block)
   * comes in tiles beside K and V: per stage 128 rows of BN keys, by TMA boxes 128 bytes
   * wide (swizzled as K's), where they fit. Its threads' reads straight from global
   * memory are pairs of 2 or 4 bytes 8 rows apart: half of every sector they fetch. */
  int rk = f->bias_rank, eb = f->bias_select ? 1 : 2;
  if (f->n_in == 4 && opts->bias_tiles && f->n % f->bn == 0 && strcmp(f->bias_el, "f32") != 0 && rk >= 2 &&
      f->bias_dims[rk - 1] == f->nb + 1 && f->bias_dims[rk - 2] == f->nb && f->bias_shape[rk - 2] == f->m) {
    int64_t stage = (int64_t)BM * f->bn * eb;
    if (f->cnt_off + STAGES * stage + 16 + 1024 <= opts->smem_block) {
      f->bias_tiles = true;
      f->bias_box_keys = 128 / eb;
      f->bias_stage = stage;
      f->bias_off = f->cnt_off;
      f->cnt_off += STAGES * stage;
      f->smem = f->cnt_off + 16;
    }
  }
  if (f->tiles > 0x7fffffff || f->batch > 65535)
    return "grid-too-large";
  return NULL;
}

/* A bias value in the log2 domain as a finite f32: -inf and values past f32's range
 * become -FLT_MAX (exp2 of it minus the row max is 0, and a row masked everywhere stays
 * uniform, as its scores all equal). */
double flash_log2_domain(double x) {
  if (!(x > -FLT_MAX))
    return -FLT_MAX;
  return x < FLT_MAX ? x : FLT_MAX;
}

void flash_bias_constants(BrazeStr *s, const Flash *f) {
  braze_str_printf(s, "  %%log2e = arith.constant %.9e : f32\n", 1.4426950408889634);
  if (f->bias_affine) /* the graph's f32 constants, exact */
    braze_str_printf(s, "  %%afsh = arith.constant %.9e : f32\n  %%afmu = arith.constant %.9e : f32\n"
                        "  %%afmin = arith.constant %.9e : f32\n",
                     f->bias_shift, f->bias_mul, -FLT_MAX);
}

void flash_bias_log2(BrazeStr *s, const Flash *f, const char *indent, const char *out, const char *in, int id) {
  if (!f->bias_affine) {
    braze_str_printf(s, "%s%%%s%d = arith.mulf %%%s%d, %%log2e : f32\n", indent, out, id, in, id);
    return;
  }
  braze_str_printf(s, "%s%%afa%d = arith.addf %%%s%d, %%afsh : f32\n%s%%afm%d = arith.mulf %%afa%d, %%afmu : f32\n"
                      "%s%%afl%d = arith.mulf %%afm%d, %%log2e : f32\n%s%%%s%d = arith.maximumf %%afl%d, %%afmin : f32\n",
                   indent, id, in, id, indent, id, id, indent, id, id, indent, out, id, id);
}

int64_t flash_bias_elements(const Flash *f) {
  int64_t n = 1;
  for (int r = 0; r < f->bias_rank; ++r)
    n *= f->bias_shape[r];
  return n;
}

void flash_print_memref(BrazeStr *s, MlirType tensor) {
  braze_str_puts(s, "memref<");
  for (intptr_t i = 0; i < mlirShapedTypeGetRank(tensor); ++i)
    braze_str_printf(s, "%lldx", (long long)mlirShapedTypeGetDimSize(tensor, i));
  BrazeStr el = {0};
  mlirTypePrint(mlirShapedTypeGetElementType(tensor), braze_str_callback, &el);
  braze_str_printf(s, "%s>", braze_str_cstr(&el));
  braze_str_free(&el);
}

/* %<acc>_<n> = %<acc>_<n - 1> + ((%bh / inner) % extent / group) * stride: one batch dim's
 * part of a flat index, from the block's flattened batch index %bh (names suffixed by
 * `id`); group > 1 for k and v's heads shared by `group` query heads. */
void flash_batch_term(BrazeStr *s, const char *acc, int id, int64_t inner, int64_t extent, int64_t group,
                       int64_t stride, int n) {
  braze_str_printf(s, "  %%%si%d = arith.constant %lld : index\n  %%%se%d = arith.constant %lld : index\n"
                      "  %%%sw%d = arith.constant %lld : index\n  %%%sq%d = arith.divui %%bh, %%%si%d : index\n"
                      "  %%%sx%d = arith.remui %%%sq%d, %%%se%d : index\n",
                   acc, id, (long long)inner, acc, id, (long long)extent, acc, id, (long long)stride, acc, id, acc, id,
                   acc, id, acc, id, acc, id);
  if (group > 1)
    braze_str_printf(s, "  %%%sg%d = arith.constant %lld : index\n  %%%sh%d = arith.divui %%%sx%d, %%%sg%d : index\n",
                     acc, id, (long long)group, acc, id, acc, id, acc, id);
  braze_str_printf(s, "  %%%sy%d = arith.muli %%%s%c%d, %%%sw%d : index\n  %%%s_%d = arith.addi %%%s_%d, %%%sy%d : index\n",
                   acc, id, acc, group > 1 ? 'h' : 'x', id, acc, id, acc, n, acc, n - 1, acc, id);
}

/* %krow0: the first row of this block's k and v ([batch * N][D] views): q's batch index
 * %bh, with the batch dims that k and v share dropped (extent 1) or divided (extent
 * q's / g: grouped-query heads, query head h reading k/v head h / g). */
void flash_kv_batch_row(BrazeStr *s, const Flash *f) {
  bool shared = false;
  for (int i = 0; i < f->nb; ++i)
    shared |= f->kv_batch[i] != f->q_batch[i];
  if (!shared) {
    braze_str_puts(s, "  %krow0 = arith.muli %bh, %cN : index\n");
    return;
  }
  braze_str_puts(s, "  %kv_0 = arith.addi %c0, %c0 : index\n");
  int64_t inner = 1, kv_inner = 1;
  for (int i = f->nb - 1; i >= 0; --i) { /* idx_i = (bh / inner) % extent_i / g_i, weighted by k's stride */
    if (f->kv_batch[i] != 1)
      flash_batch_term(s, "kv", i, inner, f->q_batch[i], f->q_batch[i] / f->kv_batch[i], kv_inner, f->nb - i);
    else
      braze_str_printf(s, "  %%kv_%d = arith.addi %%kv_%d, %%c0 : index\n", f->nb - i, f->nb - i - 1);
    inner *= f->q_batch[i];
    kv_inner *= f->kv_batch[i];
  }
  braze_str_printf(s, "  %%krow0 = arith.muli %%kv_%d, %%cN : index\n", f->nb);
}

int64_t flash_bias_batch_base(BrazeStr *s, const Flash *f) {
  braze_str_puts(s, "  %bb_0 = arith.addi %c0, %c0 : index\n");
  int64_t stride = 1, row_stride = 0;
  for (int r = f->bias_rank - 1; r >= 0; --r) {
    int64_t d = f->bias_dims[r];
    if (d >= 0 && d < f->nb) { /* batch dim d: (bh / inner) % extent */
      int64_t inner = 1;
      for (int i = (int)d + 1; i < f->nb; ++i)
        inner *= f->q_batch[i];
      flash_batch_term(s, "bb", r, inner, f->q_batch[d], 1, stride, f->bias_rank - r);
    } else {
      if (d == f->nb)
        row_stride = stride;
      braze_str_printf(s, "  %%bb_%d = arith.addi %%bb_%d, %%c0 : index\n", f->bias_rank - r, f->bias_rank - r - 1);
    }
    stride *= f->bias_shape[r];
  }
  return row_stride;
}
