/* cuda-codegen internals: one kernel's conversion from kernel-level IR (a func.func on
 * tensors holding linalg.generic ops) to a gpu.func over memrefs. The pass is
 * targets/cuda/codegen/cuda-codegen.c; the produced IR is specified in docs/targets-cuda.md.
 *
 *   targets/cuda/codegen/kernel.c  analysis: values, generics, the kernel shape (row / element / matmul)
 *   targets/cuda/codegen/point-eval.c    the point evaluator: a tensor's value at an index, loads and bodies
 *   targets/cuda/codegen/row.c     row kernels (one block per outer index, block reductions) and
 *                     element kernels (one thread per `vec` output elements)
 *   targets/cuda/codegen/tiled.c   element kernels that transpose their major input: tiles through shared memory
 *   targets/cuda/codegen/consts.c  non-splat constants of kernels become arguments
 *   targets/cuda/codegen/user.c, user-gpu.c  ext kernels (user kernels): the flat form's
 *                     scf.parallel over the grid; the GPU form's body as the gpu.func
 *   targets/cuda/matmul/simt.c  contractions: shared-memory tiled SIMT matmul with its epilogue */
#ifndef BRAZE_TARGETS_CUDA_CODEGEN_CODEGEN_H
#define BRAZE_TARGETS_CUDA_CODEGEN_CODEGEN_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/build.h"
#include "passes/loops/zero-pad-read.h"
#include "passes/passes.h"
#include "support/oplist.h"
#include "support/ptrmap.h"

enum { CU_MAX_DIMS = 8, CU_MAX_INPUTS = 16, CU_MAX_WORKGROUP = 16 };

/* How contractions are compiled (cuda-codegen{matmul=...}). */
typedef enum {
  CU_MM_TEMPLATE, /* the tensor-core template where it applies, else SIMT (the default) */
  CU_MM_SIMT,     /* always the SIMT kernel */
  CU_MM_EXTERN,   /* cuBLASLt where it applies, else the template or SIMT */
  CU_MM_AUTO,     /* both, the faster picked per kernel at the first call on the device */
} CuMatmulChoice;

typedef struct {
  bool remarks;         /* remark each kernel's shape, grid and block */
  CuMatmulChoice matmul;
  long long tile_n;     /* the template's tile columns: 256 or 128 (N <= 128 takes 128, N <= 64 takes 64) */
  long long stages;     /* the template's shared-memory stages (2..6; 0: the template's default) */
  bool allow_tf32;      /* f32 contractions on cuBLASLt may use TF32 */
  bool transpose_tiles; /* element kernels that transpose their major input: tiles through shared memory */
  bool bias_tiles;      /* the flash kernel's dense bias rows: tiles by TMA through shared memory */
  long long block;      /* threads per block of element kernels (default 256) */
  long long max_regs;   /* row elements a thread keeps in registers (default 32) */
  long long vec;        /* widest vector access in elements (default 4: 128-bit f32) */
  int warp;             /* the target's warp size (BrazeTargetCosts) */
  int max_block;        /* the target's most threads per block */
  int64_t smem_block;   /* the target's most shared memory per block (the tensor-core template's limit) */
  int sms;              /* the target's streaming multiprocessors (the template's conv tiles) */
} CuOptions;

/* How a kernel maps onto the GPU. */
typedef enum {
  CU_ELEMENT, /* one thread per `vec` elements of the output space; reductions serial */
  CU_ROW,     /* one block per outer index; reductions over the inner dims by the block */
  CU_MATMUL,  /* one contraction in 64x64 output tiles, then its pointwise epilogue */
} CuShape;

typedef enum {
  CV_ARG,   /* a kernel argument: loaded from its memref */
  CV_SPLAT, /* linalg.fill or a splat constant: one scalar */
  CV_EMPTY, /* tensor.empty: no data */
  CV_ITEM,  /* the result of a generic */
  CV_INSERT /* tensor.insert_slice (concat): `src` written into `dest` at `offset` */
} CuValKind;

typedef struct {
  MlirValue tensor;
  CuValKind kind;
  int arg;         /* CV_ARG: argument index */
  MlirValue splat; /* CV_SPLAT: the kernel-level scalar */
  int item;        /* CV_ITEM: the producing generic */
  int src, dest;   /* CV_INSERT: value indices */
  int64_t offset[CU_MAX_DIMS];
  int out_index;   /* kernel result index, -1 */
} CuVal;

typedef struct {
  MlirOperation op;
  int n_in;
  int in_val[CU_MAX_INPUTS];
  int out_val, init_val;
  int n_dims;
  int64_t ext[CU_MAX_DIMS];
  bool par[CU_MAX_DIMS];
  MlirAffineMap maps[CU_MAX_INPUTS + 1]; /* inputs, then the output */
  bool reduction;                        /* has a reduction dim */
  int par_prefix;                        /* leading parallel dims */
  bool contraction;                      /* braze.ops matmul / batch_matmul */
  MlirOperation combiner;                /* reductions: the op yielding the accumulator */
  MlirValue row_value;                   /* row kernels: this block's reduced value */
  signed char flat[CU_MAX_INPUTS];       /* cu_flat_runs of each input: 0 unknown, 1 yes, -1 no */
} CuItem;

/* A memoized value: a load, a vector load or a tensor's value at an index. Entries
 * made inside a loop or an scf.if are dropped when it closes (cu_scope_*). */
typedef enum { MEMO_LOAD, MEMO_VLOAD, MEMO_VALUE, MEMO_FLAT_VIEW, MEMO_FLAT_ADDR, MEMO_FLAT_LOAD } CuMemoKind;

typedef struct {
  CuMemoKind kind;
  int key;
  int n;
  MlirValue idx[CU_MAX_DIMS];
  MlirValue value;
} CuMemo;

/* An index into a tensor's shape, and, when vectorized, which lane of a `vec`-wide
 * run along the last index it is (idx0: lane 0's index). A flat point (flat-runs.c)
 * has no per-lane index: idx0[0] is lane 0's linear position in the argument, the
 * lanes the elements after it. */
typedef struct {
  int n;
  MlirValue idx[CU_MAX_DIMS];
  int vec, lane;
  MlirValue idx0[CU_MAX_DIMS];
  int flat; /* 0: not flat; 1: flat, lane 0 anywhere; 2: flat, lane 0 at a multiple of vec */
} CuPoint;

/* An element kernel run in CU_TILE x CU_TILE tiles through shared memory (tiled.c):
 * its one result is evaluated with consecutive threads along load_dim (where its major
 * input is near-contiguous) and stored along store_dim (the last). */
enum { CU_TILE = 32, CU_TILE_ROWS = 8 };
typedef struct {
  bool on;
  int load_dim, store_dim;
  int64_t tiles[CU_MAX_DIMS]; /* the grid over the result: tiles per dim (1 per element off the two) */
} CuTiled;

typedef struct {
  MlirOperation old, module, gpu_module;
  const CuOptions *opts;
  MlirContext ctx;
  const char *name;
  CuVal *vals;
  int n_vals, cap_vals;
  BrazePtrMap val_index;
  CuItem *items;
  int n_items, cap_items;
  int n_in, n_out;
  int out_val[CU_MAX_INPUTS * 2];
  MlirType arg_types[CU_MAX_INPUTS * 3];
  /* the shape */
  CuShape shape;
  int k;          /* row kernels: outer dims */
  int64_t grid[3];
  int block;      /* threads per block */
  int vec;        /* lanes per thread access */
  int chunks;     /* row kernels: chunks per thread (unrolled when kept in registers) */
  bool unrolled;  /* row kernels: chunks unrolled, values kept in registers */
  CuTiled tiled;  /* element kernels: the tiled form, when on */
  /* A zero pad before the contraction that reads it as A (form-kernels pad-templates,
   * decision 0024): moved to the end of items (items[0] stays the contraction), read
   * by the template with the padding implicit (window.c), else evaluated in place. */
  bool has_pad;
  int pad_item, pad_arg; /* the pad's item, the argument it pads */
  BrazeZeroPad pad;
  /* the new function */
  MlirOperation fn;
  MlirBlock entry;
  CgBuilder fb;
  CgConstPool pool;
  MlirValue tid, bid;
  int n_workgroup;
  /* memo and kernel-level scalars cloned into the new function */
  CuMemo *memo;
  int n_memo, cap_memo;
  BrazePtrMap scalar_index;
  MlirValue *scalars;
  int n_scalars;
  bool contract; /* cloned float mul/add/sub may fuse into FMAs (contraction bodies) */
  const CuPoint *body_point; /* the point of the generic whose body is cloned (linalg.index), or null */
  bool failed;
} CuKernel;

/* A read as a conv's window over a channels-last argument (targets/cuda/matmul/window.c,
 * decision 0021): A's element (m, k) of batch position b is
 *   arg[b][(h0 + oh sh + kh dh) wp + w0 + ow sw + kw dw][c]
 * with m = oh ow_n + ow, k = (kh kw_n + kw) c_n + c; the template loads it as 4-D TMA
 * boxes of [1][bh][bw][64] over the argument viewed as [n][hp][wp][c]. */
typedef struct {
  bool on;
  int64_t n, hp, wp, c;     /* the argument as [n][hp][wp][c] */
  int64_t oh_n, ow_n;       /* output rows and columns: M = oh_n ow_n */
  int64_t sh, sw, dh, dw;   /* strides and dilations, in argument elements */
  int64_t kh_n, kw_n;       /* the taps: K = kh_n kw_n c */
  int64_t h0, w0;           /* output pixel 0's first tap (negative: implicit padding, K->has_pad) */
  int bn, bh, bw;           /* a tile's 128 rows: bn images of bh x bw output pixels */
  int64_t tiles_h, tiles_w; /* the tiles of one image */
} CuWindow;

/* The tensor-core template's plan for a matmul kernel (targets/cuda/matmul/wgmma.c). */
typedef struct {
  CuWindow window;    /* A read through a window (window.on), else plain [batch * M][K] */
  int n_par, dim_m, dim_n, dim_k;
  int64_t m, n, k, batch;
  int tile_n, stages, vec;
  int64_t tiles_m, tiles_n, smem;
  int64_t grid_y;     /* the batch positions, by bn images for a window */
  bool twin;          /* items 0 and 1: one A, two Bs (cu_twin_contraction) */
  int arg_a, arg_b[2]; /* the kernel arguments the TMA descriptors describe */
} CuWgmma;

/* The extern GEMM's plan (targets/cuda/matmul/extern.c); dtypes are cudaDataType's. */
enum { CU_DT_F32 = 0, CU_DT_F16 = 2, CU_DT_BF16 = 14 };
typedef struct {
  int64_t m, n, k, batch, stride_a, stride_b;
  bool trans_a, trans_b;
  bool swap;         /* the contraction's input 1 is A */
  bool product_only; /* the kernel's one result is the product (cast): no epilogue kernel */
  bool addend;       /* ... or alpha product + beta C, C a kernel argument (extern-addend.c) */
  int addend_arg;    /* C's kernel argument */
  double alpha, beta;
  int64_t c_offset;  /* C's first element read: a row offset of the argument, in elements */
  bool tf32;         /* f32 inputs computed in TF32 (allow-tf32) */
  int dtype_in, dtype_out;
} CuExtern;

/* targets/cuda/matmul/extern-addend.c: whether K's epilogue is alpha product + beta C
 * for a kernel argument C read at the product's point (a row offset allowed): the
 * extern GEMM then computes it in cuBLASLt's D = alpha A B + beta C (sets e's addend
 * fields). */
bool cu_extern_addend(const CuKernel *K, CuExtern *e);

/* ---- targets/cuda/codegen/kernel.c ---- */
/* Read the kernel function and choose its shape. False after a diagnostic. */
bool cu_analyze(CuKernel *K);
/* Whether K's items 0 and 1 are two contractions of one A with two Bs of one shape (form-kernels'
 * horizontal-templates: W6's gate and up projections). */
bool cu_twin_contraction(const CuKernel *K);
/* Whether contraction c's inputs take the tiles' roles, one reading m and not n (A: input
 * *role_a), the other n; what the matmul kernels need. */
bool cu_matmul_roles(const CuItem *c, int dim_m, int dim_n, int *role_a);
/* The element shape for K's generics (after the extern GEMM took its contraction). */
bool cu_choose_element(CuKernel *K);
/* Whether the contraction items[0] reads its A from the pad prologue (K->pad_item). */
bool cu_a_is_pad(const CuKernel *K);
/* targets/cuda/codegen/tiled.c: whether element kernel K transposes its major input
 * (its stores' neighbours lie a sector or more apart there while another dim's lie
 * within one): then K->tiled is set (vec 1, CU_TILE_ROWS x CU_TILE threads, one block
 * per tile), and cu_emit_tiled writes it. */
void cu_choose_tiled(CuKernel *K);
bool cu_emit_tiled(CuKernel *K);
/* flat-runs.c: how far input `in`'s linear address (in elements) moves for one step
 * along each dim of `it`, from the origin. */
bool cu_input_steps(const CuKernel *K, const CuItem *it, int in, int64_t *steps);
void cu_kernel_free(CuKernel *K);
/* An error at op (or the kernel) naming the kernel; marks K failed; returns false. */
bool cu_fail(CuKernel *K, MlirOperation op, const char *fmt, ...);
/* Product of a tensor's extents. */
int64_t cu_elements(MlirValue tensor);

/* ---- targets/cuda/codegen/point-eval.c ---- */
/* The type values of `type` are computed in: f16/bf16 widen to f32. */
MlirType cu_compute_type(MlirType type);
/* The value of tensor `val` at point p (an index into its shape), at b. */
MlirValue cu_eval(CuKernel *K, CgBuilder *b, int val, const CuPoint *p);
/* Generic `it` at its dims' point: inputs evaluated at their mapped points, the body
 * cloned on them and `acc` (the accumulator, or null when the body ignores it). */
MlirValue cu_eval_generic(CuKernel *K, CgBuilder *b, const CuItem *it, const CuPoint *dims, MlirValue acc);
/* Clone generic `item`'s body at b on `args` (inputs, then the accumulator); its
 * yielded value in the compute type. */
MlirValue cu_clone_body(CuKernel *K, CgBuilder *b, const CuItem *item, const MlirValue *args);
/* The point of input `in` of item (n_in: the output) at the item's dims. Vector lanes
 * carry over when the map reads the innermost dim last and nowhere else. */
CuPoint cu_input_point(CgBuilder *b, const CuItem *item, int in, const CuPoint *dims);
/* Whether input `in` of `item` walks its last dim with the item's innermost dim alone
 * (then a vectorized point reads it as one aligned vector). */
bool cu_input_walks_last(const CuItem *item, int in);
/* flat-runs.c: whether input `in` (an argument) of `it` reads consecutive elements in
 * each aligned group of `vec` lanes, checked over the domain (memoized in it->flat):
 * 0 no, 1 yes, 2 yes with every group at a multiple of vec */
int cu_flat_runs(CuKernel *K, const CuItem *it, int in, int vec);
/* The flat point of input `in` at the vectorized point `dims`, where cu_flat_runs
 * holds and the input does not walk its last dim; false otherwise. */
bool cu_flat_point(CuKernel *K, CgBuilder *b, const CuItem *it, int in, const CuPoint *dims, CuPoint *q);
/* Store `values` (one per lane, compute type) to the memref argument of val at p. */
void cu_store(CuKernel *K, CgBuilder *b, int val, const CuPoint *p, const MlirValue *lanes);
/* The same into kernel result `out`. */
void cu_store_result(CuKernel *K, CgBuilder *b, int out, const CuPoint *p, const MlirValue *lanes);
/* Apply the accumulating op of a reduction to two partial values. */
MlirValue cu_combine(CuKernel *K, CgBuilder *b, const CuItem *item, MlirValue x, MlirValue y);
/* A reduction's accumulated `total` combined with its outs at point `at` (skipped when
 * the outs is a fill of the combiner's identity). */
MlirValue cu_finish_reduction(CuKernel *K, CgBuilder *b, const CuItem *item, const CuPoint *at, MlirValue total);
/* The identity of a reduction's combiner in its compute type. */
MlirValue cu_identity(CuKernel *K, CgBuilder *b, const CuItem *item);
/* Memo: remember / find a value; scopes drop what was made inside. */
void cu_memo_put(CuKernel *K, CuMemoKind kind, int key, int n, const MlirValue *idx, MlirValue value);
MlirValue cu_memo_get(CuKernel *K, CuMemoKind kind, int key, int n, const MlirValue *idx);
static inline int cu_scope_open(CuKernel *K) { return K->n_memo; }
static inline void cu_scope_close(CuKernel *K, int mark) { K->n_memo = mark; }
/* gpu.* helpers */
MlirValue cu_gpu_id(CgBuilder *b, const char *op);
MlirValue cu_workgroup_buffer(CuKernel *K, MlirType elem, int64_t n);
void cu_barrier(CgBuilder *b);
MlirValue cu_arith(CgBuilder *b, const char *name, MlirValue x, MlirValue y);
MlirValue cu_cmp_ult(CgBuilder *b, MlirValue x, MlirValue y);
MlirValue cu_select(CgBuilder *b, MlirValue c, MlirValue x, MlirValue y);
/* dims of `n` extents from a flat index (row-major). */
void cu_delinearize(CgBuilder *b, MlirValue flat, int n, const int64_t *ext, MlirValue *out);

/* ---- targets/cuda/codegen/cuda-codegen.c ---- */
/* `old` replaced by a declaration with the kernel's memref signature (n_args types, the
 * first n_in inputs), which the graph conversion calls; erased after the launches. */
MlirOperation cu_replace_by_declaration(MlirOperation old, int n_args, const MlirType *types, int n_in);
/* Every func.call of @callee in the module's function bodies, in order (kernels call
 * none: they are graph functions' calls). */
void cu_calls_of(MlirOperation module, MlirStringRef callee, BrazeOpList *calls);
/* A private kernel declaration `name` over `types` (the first n_in inputs, then the
 * outputs) before `before`: what the graph conversion calls. */
MlirOperation cu_declare_kernel(MlirOperation before, MlirAttribute name, int n_args, const MlirType *types, int n_in);

/* ---- targets/cuda/codegen/consts.c ---- */
/* Non-splat tensor constants of `kernel` become trailing arguments passed by its callers. */
void cu_hoist_constants(MlirOperation module, MlirOperation kernel);

/* ---- targets/cuda/codegen/row.c / targets/cuda/matmul/simt.c ---- */
bool cu_emit_row(CuKernel *K);
bool cu_emit_element(CuKernel *K);
bool cu_emit_matmul(CuKernel *K);
/* The `vec` lane points of a vectorized point p0 (whose idx0 becomes its idx). */
void cu_lane_points(CgBuilder *b, CuPoint *p0, CuPoint *points);

/* ---- targets/cuda/matmul/wgmma.c ---- */
/* Whether matmul kernel K takes the tensor-core template; its plan, or why not (a
 * remark's reason: inputs-not-bf16-or-f16, b-not-k-by-n-row-major, ...). */
bool cu_wgmma_plan(CuKernel *K, CuWgmma *plan, const char **reason);
/* The kernel's gpu.func from the template (creates K->fn). False after a diagnostic. */
bool cu_emit_wgmma(CuKernel *K, const CuWgmma *plan);

/* ---- targets/cuda/matmul/window.c ---- */
/* Whether the plan's A (argument w->arg_a, read through the contraction's map 0) is a
 * conv window the template loads by 4-D boxes, found by evaluating the map over the
 * whole (m, k) domain; fills w->window, or sets *reason. */
bool cu_window_plan(const CuKernel *K, CuWgmma *w, const char **reason);
/* The templates' dynamic shared memory, @braze_smem (1024-aligned for TMA's swizzle), in
 * gpu_module: found or created. */
MlirOperation cu_smem_global(MlirOperation gpu_module);
/* A template's `gpu.func` text parsed (with @braze_smem in scope) and appended to
 * gpu_module; null when it does not parse (after MLIR's diagnostics). */
MlirOperation cu_parse_gpu_func(MlirOperation gpu_module, const char *func_text, const char *source);

/* ---- targets/cuda/matmul/flash.c ---- */
/* A `chain` kernel in the online form (passes/chains/online.h) as one flash-attention
 * kernel on TMA and wgmma: 1 when converted, -1 after a diagnostic, 0 when `func` is
 * no chain kernel. */
int cu_convert_chain(MlirOperation func, MlirOperation gpu_module, const CuOptions *opts);

/* ---- targets/cuda/matmul/extern.c ---- */
/* Whether matmul kernel K's contraction can go to cuBLASLt; its plan, or why not. */
bool cu_extern_plan(CuKernel *K, CuExtern *plan, const char **reason);
/* The kernel's product as @NAME_gemm before an element kernel of its epilogue, or
 * (product_only) nothing: cuda-codegen.c marks the declaration for kernel.gemm. */
bool cu_emit_extern(CuKernel *K, const CuExtern *plan);
/* The braze.gemm attribute (the GEMM's shape) on `op`. */
void cu_mark_gemm(MlirOperation op, const CuExtern *plan);
/* braze.alternative = [site, choice, outputs written] of `from` on `to` (when `from` has
 * one), with `outputs` as its outputs written. */
void cu_copy_alternative(MlirOperation from, MlirOperation to, int outputs);

/* targets/cuda/codegen/user.c: an `ext` kernel (a packed user-kernel call) whose user kernel is one
 * top-level scf.parallel becomes a gpu.func in gpu_module, one thread per iteration:
 * 0 when `func` is not an ext kernel, 1 when converted, -1 after a diagnostic. */
int cu_convert_user_kernel(MlirOperation func, MlirOperation module, MlirOperation gpu_module, const CuOptions *opts);

/* An ext kernel's call of its user kernel (targets/cuda/codegen/user.c reads it). */
enum { UK_MAX_ARGS = 64 };
typedef struct {
  MlirOperation ext, call, callee, parallel;
  const char *name;
  int n_in, n_out;
  MlirType types[UK_MAX_ARGS];
  int call_arg[UK_MAX_ARGS]; /* per callee argument: the ext kernel argument (memref) index */
  int64_t lb[CU_MAX_DIMS], step[CU_MAX_DIMS], trip[CU_MAX_DIMS];
  int dims;
  int64_t copies[2 * UK_MAX_ARGS]; /* pre-initialized outputs: (source, destination) argument pairs */
  int n_copies;
} CuUserKernel;

/* targets/cuda/codegen/user-gpu.c: the ext kernel u whose user kernel is written as a GPU
 * kernel (braze.gpu_launch) becomes a gpu.func with the user's body, launched with its
 * grid and block; workgroup allocas become workgroup attributions. False after a
 * diagnostic. */
bool cu_convert_user_gpu(CuUserKernel *u, MlirOperation gpu_module, const CuOptions *opts);

enum { CU_USER_MAX_SHARED = 16 };
/* The gpu.func of a user kernel's ext kernel `u` (user.c): its memrefs, then `n_shared`
 * workgroup attributions of types `shared`; known_block_size `block`, braze.grid `grid`,
 * the ext kernel's discardable attributes, braze.copies_before for pre-initialized
 * outputs; appended to gpu_module, *entry its empty body. */
MlirOperation cu_user_gpu_func(const CuUserKernel *u, MlirOperation gpu_module, const int64_t grid[3],
                               const int64_t block[3], int n_shared, const MlirType *shared, MlirBlock *entry);

/* targets/cuda/codegen/user-align.c: the `alignment` of each vector.load / vector.store
 * of a 1-D vector on a global memref in `func` (a user kernel's gpu.func launched with
 * grid x block), from the powers of two known to divide its indices; the number marked. */
int cu_user_align_vectors(MlirOperation func, const int64_t grid[3], const int64_t block[3]);

/* The pass (targets/cuda/codegen/cuda-codegen.c). */
extern const BrazePassInfo braze_pass_cuda_codegen;

#endif
