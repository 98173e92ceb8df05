/* cuda-codegen internals: the two kernels of attention chains in the online form
 * (passes/chains/online.h). bf16 and f16 chains with head dims 64 or 128 take the
 * tensor-core kernel (flash.c: TMA and wgmma); f32 chains with head dims up to 64 the
 * SIMT kernel (flash-simt.c: a thread per query row, tiles of keys in shared memory),
 * f32 kept f32 as every f32 contraction on this target. flash-plan.c reads the chain
 * (kernel.online, the arguments' types) into a Flash plan both print from. */
#ifndef BRAZE_TARGETS_CUDA_MATMUL_FLASH_H
#define BRAZE_TARGETS_CUDA_MATMUL_FLASH_H

#include <stdbool.h>
#include <stdint.h>

#include "support/strbuf.h"
#include "targets/cuda/codegen/codegen.h"

enum { BM = 128, STAGES = 2 };
/* The SIMT kernel: rows per block (a thread each), keys per tile, the largest head dim. */
enum { FLASH_SIMT_ROWS = 128, FLASH_SIMT_KEYS = 32, FLASH_SIMT_MAX_HEAD = 64 };

typedef struct {
  int64_t batch, m, n, d, dv;  /* batch (flattened), query rows, keys, head dims */
  int nb;                      /* batch dims */
  int64_t q_batch[8], kv_batch[8]; /* their extents in q, and in k and v (1: shared) */
  int bn;                      /* keys per step */
  double scale;
  bool causal;                 /* query i keeps keys j <= i + offset */
  int64_t offset;
  int n_in;                    /* 3, or 4 with a bias (added to the scaled scores) */
  int bias_rank;
  int64_t bias_dims[8], bias_shape[8]; /* the loop each bias dim reads (-1: none), its extents */
  const char *bias_el;
  bool bias_select;            /* the bias argument is an i1 mask: bias = mask ? bias_true : bias_false */
  double bias_true, bias_false;
  bool bias_affine;            /* the bias is (x + bias_shift) * bias_mul of the argument's x (online-bias.c) */
  double bias_shift, bias_mul;
  bool bias_tiles;             /* a bias row per query, keys innermost: tiles by TMA through shared memory */
  int bias_box_keys;           /* keys per 128-byte-wide box (64 of 2 bytes, 128 of 1) */
  int64_t bias_off, bias_stage; /* the bias tiles' shared memory: offset, bytes per stage */
  const char *el;              /* bf16, f16 or f32 */
  bool simt;                   /* f32: the SIMT kernel (flash-simt.c) */
  int64_t kv_off, stage_bytes, k_bytes, cnt_off, smem; /* shared memory: Q at 0, then K/V stages */
  int64_t tiles, blocks;       /* query tiles per batch, key blocks */
} Flash;

/* The plan of the chain kernel `func` (kernel.online), or the reason it has none. */
const char *flash_plan(MlirOperation func, const CuOptions *opts, Flash *f);

/* Argument i of `func`'s type (i < 0: the result). */
MlirType flash_arg_type(MlirOperation func, int i);
/* A bias value in the log2 domain as a finite f32. */
double flash_log2_domain(double x);
int64_t flash_bias_elements(const Flash *f);
/* The constants flash_bias_log2 reads (%log2e; %afsh, %afmu, %afmin for an affine bias). */
void flash_bias_constants(BrazeStr *s, const Flash *f);
/* `indent`%<out><id> = the f32 bias value %<in><id> in the log2 domain: x * log2(e), or
 * for an affine bias ((x + shift) * mul) * log2(e) kept above -FLT_MAX (finfo.min's
 * bias times log2(e) overflows f32: a key masked everywhere then stays uniform, as the
 * graph's finfo.min scores are). */
void flash_bias_log2(BrazeStr *s, const Flash *f, const char *indent, const char *out, const char *in, int id);
/* `memref<shape x elem>` of a tensor type. */
void flash_print_memref(BrazeStr *s, MlirType tensor);
/* %<acc>_<n> = %<acc>_<n - 1> + ((%bh / inner) % extent / group) * stride. */
void flash_batch_term(BrazeStr *s, const char *acc, int id, int64_t inner, int64_t extent, int64_t group,
                      int64_t stride, int n);
/* %krow0: the first row of the block's k and v ([batch * N][D] views) from %bh. */
void flash_kv_batch_row(BrazeStr *s, const Flash *f);

/* %bb_<rank>: the bias's flat index of its batch dims (from %bh; the row and key dims and
 * broadcast dims 0); returns the row dim's stride (0: the bias has none). */
int64_t flash_bias_batch_base(BrazeStr *s, const Flash *f);

/* The SIMT kernel's gpu.func text for the plan (flash-simt.c). */
void flash_simt_text(BrazeStr *s, const Flash *f, MlirOperation func, const char *name);

#endif
