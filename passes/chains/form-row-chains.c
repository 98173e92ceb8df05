/* form-row-chains: run a chain of row-local kernels one block of rows at a time.
 *
 * form-kernels leaves a matmul template, its consumer reduction and the next matmul
 * as separate kernels when the reduction reads whole rows of the first product (W7's
 * q @ k^T -> softmax -> @ v): each writes its full result (8 MiB of scores twice in
 * W7) for the next to read back. When every kernel of such a chain is row-local
 * (passes/chains/row-local.h: the result's rows depend only on the same rows of the chain's
 * row operands), the chain becomes one kernel (kind `chain`) that takes a block of
 * `rows` rows of one batch per parallel iteration and calls each kernel's block form
 * on it: the intermediates live in per-block scratch that stays in cache, and only
 * the chain's inputs and its result touch memory. This is tile-level fusion across
 * kernels, as flash attention does for attention, derived from the kernels instead of
 * matched as a pattern. The block forms are the original kernels retyped to the
 * block's shapes and marked `kernel.serial` (the chain's loop is the parallel one).
 *
 * The chain kernel, at the kernel level:
 *   func.func private @cpu_chain_fused_..._N(%q, %k, %v) -> tensor<8x512x64xf32>
 *       attributes {kernel.kind = "chain", kernel.rows = 64, ...} {
 *     %r = scf.forall (%b, %m) = (0, 0) to (8, 512) step (1, 64) shared_outs(%o = %e) -> (...) {
 *       %q_rows = tensor.extract_slice %q[%b, %m, 0] [1, 64, 64] [1, 1, 1]   (ROW)
 *       %k_batch = tensor.extract_slice %k[%b, 0, 0] [1, 512, 64] [1, 1, 1] (BATCH)
 *       %s = func.call @cpu_tem_..._0_rows(%q_rows, %k_batch) : ... -> tensor<1x64x512xf32>
 *       ...
 *       scf.forall.in_parallel { tensor.parallel_insert_slice %y into %o[%b, %m, 0] ... }
 *     }
 *
 * A chain is a run of calls in the graph function where each result is used once, by
 * the next call; it holds at least one `tem` kernel (the ones whose intermediates are
 * large enough to matter). Refusals (remarks): a kernel that is not row-local (with
 * passes/chains/row-local.c's reason), kernels with different rows, a matmul operand repacked per
 * block that is larger than max-repack-bytes (W6's weights: each block would pack
 * them again), no block size that divides the rows.
 *
 * The online form (passes/chains/online.h, decision 0017): an attention chain (q @ k^T,
 * a row max, exp and a row sum of the scaled scores, @ v) with at least online-min-keys
 * keys becomes one chain kernel that runs the keys in blocks with a running max and sum
 * per row (the flash-attention recurrence); its attribute kernel.online = {key_block,
 * scale} is what a target's template needs. Refusals name the step that broke
 * (probabilities used elsewhere, a reduction that is not a max, ...). On targets other
 * than cpu no whole-row chains form: the CUDA target runs only the online form. On the
 * cpu target the online kernel's generics become block kernels (online-outline.c), and
 * shorter attention keeps whole rows.
 *
 * Options:
 *   disable              form no chains
 *   rows=N               rows per block (default 0: the largest divisor of the rows whose
 *                        intermediates fit max-scratch-bytes, keeping min-blocks blocks)
 *   max-scratch-bytes=N  per-block intermediates (default: the L2 fact of the target being
 *                        compiled for, 1048576 for the cpu target and without a target: half
 *                        a core's L2 on current x86 servers; doubled up to 4x when packing
 *                        would outweigh the savings)
 *   max-repack-bytes=N   largest BATCH/WHOLE operand of a tem kernel (default 1048576)
 *   min-blocks=N         parallel iterations to keep (default 8)
 *   target=NAME          kernel name prefix (default cpu); not cpu: online chains only
 *   no-online            no online form
 *   key-block=N          keys per step of the online form (default 128; cpu: 256, the
 *                        keys it leaves in a tail step)
 *   online-min-keys=N    attention with fewer keys keeps whole rows (default 0; cpu: 2048)
 *   online=all|half|cuda all attention chains take the online form, or (half) only bf16/f16
 *                        ones with head dims 64 or 128: what the CUDA flash kernel takes;
 *                        cuda: those and f32 ones with head dims up to 64 (the CUDA SIMT
 *                        flash kernel's, targets/cuda/matmul/flash-simt.c)
 *   no-merge-inputs      (not cpu) keep the pointwise kernels making an online chain's inputs
 *                        separate (default: one kernel with a result each, online-inputs.c)
 *   window-channels=N    (not cpu) a matmul kernel's operand read through a view that repeats
 *                        elements (a conv's window) stays a view when its source's rows are
 *                        a multiple of N elements (default 64: the CUDA template loads a
 *                        window by 4-D boxes of 64 channels), else gets a plain copy (the
 *                        im2col columns); so does a strided 1x1 conv's input (a window of
 *                        one tap: ResNet's downsampling convs); 0: always a copy
 *   remarks              one remark per chain formed or refused */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"
#include "passes/chains/chain-passes.h"
#include "passes/chains/chain.h"
#include "passes/chains/heads.h"
#include "support/context.h"
#include "support/diag.h"
#include "support/ptrmap.h"
#include "support/strbuf.h"

/* ---- finding chains ---- */

static MlirOperation callee_of(const Symbols *sym, MlirOperation call) {
  MlirAttribute callee = mlirOperationGetAttributeByName(call, braze_ref("callee"));
  if (mlirAttributeIsNull(callee) || !mlirAttributeIsAFlatSymbolRef(callee))
    return (MlirOperation){NULL};
  return mlirSymbolTableLookup(sym->table, mlirFlatSymbolRefAttrGetValue(callee));
}

static MlirWalkResult count_call(MlirOperation op, void *user) {
  Symbols *sym = user;
  if (!braze_op_is(op, "func.call"))
    return MlirWalkResultAdvance;
  MlirOperation callee = callee_of(sym, op);
  if (!mlirOperationIsNull(callee)) {
    uint64_t key = braze_ptr_key(callee.ptr);
    braze_ptrmap_put(&sym->calls, key, braze_ptrmap_get(&sym->calls, key, 0) + 1);
  }
  return MlirWalkResultAdvance;
}

static bool kind_is(MlirOperation kernel, const char *kind) {
  MlirAttribute k = mlirOperationGetAttributeByName(kernel, braze_ref("kernel.kind"));
  return !mlirAttributeIsNull(k) && mlirAttributeIsAString(k) && braze_ref_eq(mlirStringAttrGetValue(k), kind);
}

/* Kernels a chain may hold: the loop kinds and templates, with a body. */
static bool chainable(MlirOperation kernel) {
  if (mlirOperationIsNull(kernel) || mlirRegionIsNull(mlirOperationGetRegion(kernel, 0)) ||
      mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(kernel, 0))))
    return false;
  return kind_is(kernel, "tem") || kind_is(kernel, "per") || kind_is(kernel, "red") || kind_is(kernel, "poi");
}

/* The first user of `v` in `block` (in block order), or null when a user is elsewhere. */
static MlirOperation first_user(MlirValue v, MlirBlock block) {
  MlirOperation first = {NULL};
  for (MlirOpOperand use = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(use); use = mlirOpOperandGetNextUse(use)) {
    MlirOperation user = mlirOpOperandGetOwner(use);
    if (!mlirBlockEqual(mlirOperationGetBlock(user), block))
      return (MlirOperation){NULL};
    if (mlirOperationIsNull(first) || mlirOperationIsBeforeInBlock(user, first))
      first = user;
  }
  return first;
}

static bool is_link_from(const Chain *c, int from, MlirOperation op) {
  for (int i = from; i < c->n; ++i)
    if (mlirOperationEqual(c->links[i].call, op))
      return true;
  return false;
}

/* The longest prefix whose links' results are read only by later links of it (a result
 * read outside the chain would have to be written whole). */
static int closed_prefix(const Chain *c) {
  for (int n = c->n; n >= 2; --n) {
    bool closed = true;
    for (int i = 0; i + 1 < n && closed; ++i)
      for (MlirOpOperand use = mlirValueGetFirstUse(mlirOperationGetResult(c->links[i].call, 0));
           closed && !mlirOpOperandIsNull(use); use = mlirOpOperandGetNextUse(use)) {
        Chain prefix = *c;
        prefix.n = n;
        closed = is_link_from(&prefix, i + 1, mlirOpOperandGetOwner(use));
      }
    if (closed)
      return n;
  }
  return c->n < 2 ? c->n : 1;
}

/* Grow the chain from `call` along results to their first user: a result may also feed
 * later links (a residual read by the chain's last kernel), but nothing outside it. */
static void collect_links(Chain *c, MlirOperation call) {
  c->n = 0;
  MlirBlock block = mlirOperationGetBlock(call);
  while (c->n < MAX_LINKS && braze_op_is(call, "func.call") && mlirOperationGetNumResults(call) == 1) {
    MlirOperation kernel = callee_of(c->sym, call);
    if (!chainable(kernel))
      break;
    c->links[c->n++] = (Link){.call = call, .kernel = kernel};
    call = first_user(mlirOperationGetResult(call, 0), block);
    if (mlirOperationIsNull(call))
      break;
  }
  c->n = closed_prefix(c);
}

/* ---- checking a chain ---- */

static bool same_rows(const RcRows *a, const RcRows *b) {
  return a->nr == b->nr && memcmp(a->dims, b->dims, (size_t)a->nr * sizeof *a->dims) == 0;
}

/* Bytes a tem kernel packs per block for operand `v` read through `slice` (all of a
 * whole operand, one batch's slice of k or v). */
static int64_t repack_bytes(const Chain *c, MlirValue v, const RcSlice *slice) {
  return chain_tensor_bytes(rc_block_type(mlirValueGetType(v), slice, c->mc > 0 ? c->mc : 1, &c->rows));
}

/* Whether a tem link's whole operand `v` costs no packing per block: cpu-codegen packs a
 * constant matmul B once, at compile time (decision 0008), also when a chain's block
 * kernel reads it through the chain's argument. */
static bool packed_at_compile_time(const Chain *c, MlirValue v) {
  return strcmp(c->o->target, "cpu") == 0 && mlirValueIsAOpResult(v) &&
         braze_op_is(mlirOpResultGetOwner(v), "arith.constant");
}

static const char *check_links(Chain *c) {
  bool has_template = false;
  for (int i = 0; i < c->n; ++i) {
    Link *l = &c->links[i];
    RcRows rows;
    const char *why = rc_kernel_rows(l->kernel, &rows);
    if (why)
      return why;
    if (i == 0)
      c->rows = rows;
    else if (!same_rows(&rows, &c->rows))
      return "different-rows";
    BrazeStr detail = {0};
    why = rc_classify(l->kernel, &c->rows, l->slices, &detail);
    if (why && detail.data) {
      BrazeStr name = {0};
      chain_print_name(&name, l->kernel);
      snprintf(c->detail, sizeof c->detail, "@%s reads %s", braze_str_cstr(&name), braze_str_cstr(&detail));
      braze_str_free(&name);
    }
    braze_str_free(&detail);
    if (why)
      return why;
    bool tem = kind_is(l->kernel, "tem");
    has_template |= tem;
    for (intptr_t j = 0; j < mlirOperationGetNumOperands(l->call); ++j) {
      MlirValue v = mlirOperationGetOperand(l->call, j);
      const RcSlice *slice = &l->slices[j];
      if (chain_is_intermediate(c, i, v) && !rc_slice_is_rows(slice, &c->rows))
        return "intermediate-not-read-by-rows";
      if (tem && slice->used && !rc_slice_is_rows(slice, &c->rows) && !packed_at_compile_time(c, v) &&
          repack_bytes(c, v, slice) > c->o->max_repack)
        return "operand-too-large-to-repack";
    }
  }
  return has_template ? NULL : "no-template";
}

/* What a chain of blocks of mc rows costs and saves, in bytes: the intermediates are
 * no longer written and read back (saved), but every block packs its matmuls'
 * non-row operands again, where the separate kernels packed them once per batch
 * (BATCH) or once (WHOLE). */
static int64_t repack_extra(const Chain *c) {
  int64_t m = c->rows.dims[c->rows.nr - 1], blocks = m / c->mc, extra = 0;
  for (int i = 0; i < c->rows.nr - 1; ++i)
    blocks *= c->rows.dims[i];
  for (int i = 0; i < c->n; ++i) {
    const Link *l = &c->links[i];
    for (intptr_t j = 0; kind_is(l->kernel, "tem") && j < mlirOperationGetNumOperands(l->call); ++j) {
      MlirValue v = mlirOperationGetOperand(l->call, j);
      if (l->slices[j].used && !rc_slice_is_rows(&l->slices[j], &c->rows) && !packed_at_compile_time(c, v))
        extra += blocks * repack_bytes(c, v, &l->slices[j]) - chain_tensor_bytes(mlirValueGetType(v));
    }
  }
  return extra;
}

/* A block of a chain with a matmul holds at least one register tile of rows (the cpu
 * template's 6): fewer would leave most of every tile idle, and the matmul streams its
 * whole weight once per block. */
enum { TEMPLATE_TILE_ROWS = 6 };

static int64_t min_block_rows(const Chain *c) {
  int64_t m = c->rows.dims[c->rows.nr - 1];
  for (int i = 0; i < c->n; ++i)
    if (kind_is(c->links[i].kernel, "tem"))
      return m < TEMPLATE_TILE_ROWS ? m : TEMPLATE_TILE_ROWS;
  return 1;
}

/* The largest divisor of m whose intermediates fit `budget` bytes while keeping
 * min-blocks parallel iterations (else the largest that fits); 0 when none fits. */
static int64_t rows_within(const Chain *c, int64_t budget, int64_t per_row, int64_t batches) {
  int64_t m = c->rows.dims[c->rows.nr - 1], best = 0;
  for (int64_t mc = m; mc >= min_block_rows(c); --mc) {
    if (m % mc || mc * per_row > budget)
      continue;
    if (!best)
      best = mc;
    if (batches * (m / mc) >= c->o->min_blocks)
      return mc;
  }
  return best;
}

/* Rows per block: the largest block whose intermediates fit max-scratch-bytes (keeping
 * min-blocks parallel iterations), and whose extra packing stays under a quarter of
 * the traffic it saves (copies into cache are cheaper than a round trip through
 * memory, not free). When the packing is too much at that size (long rows: k and v of
 * 2048 rows, packed again per block), the scratch budget doubles, up to 4x, before the
 * chain is refused: larger blocks pack less often. */
static const char *choose_rows(Chain *c) {
  int64_t m = c->rows.dims[c->rows.nr - 1], batches = 1, per_row = 0;
  for (int i = 0; i < c->rows.nr - 1; ++i)
    batches *= c->rows.dims[i];
  for (int i = 0; i + 1 < c->n; ++i)
    per_row += rc_row_bytes(mlirValueGetType(mlirOperationGetResult(c->links[i].call, 0)), &c->rows);
  if (c->o->rows > 0) {
    c->mc = c->o->rows;
    return m % c->mc ? "rows-not-a-divisor" : NULL;
  }
  const char *why = "rows-exceed-scratch";
  for (int64_t budget = c->o->max_scratch; budget <= 4 * c->o->max_scratch; budget *= 2) {
    int64_t mc = rows_within(c, budget, per_row, batches);
    if (!mc)
      continue;
    if (batches * (m / mc) < 2)
      return "one-block";
    c->mc = mc;
    if (4 * repack_extra(c) <= 2 * chain_intermediate_bytes(c))
      return NULL;
    why = "repacking-exceeds-savings";
  }
  return why;
}

/* ---- the online form (passes/chains/online.h) ---- */

static MlirOperation online_callee(void *user, MlirOperation call) { return callee_of(user, call); }

static bool online_enabled(const Options *o) { return !o->no_online; }

/* The largest divisor of n that is at most cap. */
static int64_t divisor_at_most(int64_t n, int64_t cap) {
  for (int64_t d = cap < n ? cap : n; d > 1; --d)
    if (n % d == 0)
      return d;
  return 1;
}

/* Rows and keys per block of the online form. Targets with a template for it take any
 * extents (the last blocks partial); the cpu target's block kernels are static, so rows
 * divide the query rows (at most 128, or rows=N, keeping min-blocks blocks where the
 * rows allow), and the keys that key-block leaves run as a tail step of their own. */
static const char *online_blocks(const Options *o, const OnlineChain *oc, int64_t *rows, int64_t *keys) {
  *rows = o->rows > 0 ? o->rows : 128;
  *keys = o->key_block;
  if (!o->cpu)
    return NULL;
  if (o->rows > 0 && oc->m % o->rows != 0)
    return "rows=N does not divide the query rows";
  int64_t batch = 1;
  for (int i = 0; i < oc->nb; ++i)
    batch *= oc->batch[i];
  if (o->rows <= 0) {
    *rows = divisor_at_most(oc->m, 128);
    while (*rows > 16 && batch * (oc->m / *rows) < o->min_blocks)
      *rows = divisor_at_most(oc->m, *rows - 1);
  }
  *keys = o->key_block < oc->n ? o->key_block : oc->n;
  return NULL;
}

/* online=half: the chains the CUDA flash template takes (bf16 or f16, head dims 64 or 128). */
static bool online_half_domain(const OnlineChain *oc) {
  bool half = mlirTypeIsABF16(oc->elem) || mlirTypeIsAF16(oc->elem);
  return half && (oc->d == 64 || oc->d == 128) && (oc->dv == 64 || oc->dv == 128);
}

/* online=cuda: those, and the f32 chains the SIMT flash kernel takes (head dims up to 64:
 * a row of q and of the output in a thread's registers). */
static bool online_cuda_domain(const OnlineChain *oc) {
  return online_half_domain(oc) || (mlirTypeIsAF32(oc->elem) && oc->d <= 64 && oc->dv <= 64);
}

/* NULL and the chain's rows and keys per block when `op` starts an online chain that
 * this target takes, else the reason. */
static const char *online_fits(const Options *o, Symbols *sym, MlirOperation op, OnlineChain *oc, int64_t *rows,
                               int64_t *keys) {
  const char *why = online_match(op, online_callee, sym, oc);
  if (!why && o->online_half && !online_half_domain(oc))
    why = "online=half: not bf16 or f16 with head dims 64 or 128";
  if (!why && o->online_cuda && !online_cuda_domain(oc))
    why = "online=cuda: neither bf16 or f16 with head dims 64 or 128 nor f32 with head dims up to 64";
  if (!why && oc->n < o->online_min_keys)
    why = "fewer keys than online-min-keys: whole rows";
  return why ? why : online_blocks(o, oc, rows, keys);
}

/* Try the online form at `op`; *next is where the walk goes on. False on an internal error.
 * Where q, k or v are read through views, their kernels get copies in the plain layout
 * (passes/chains/heads.h), kept only if the chain then forms. */
static bool try_online(const Options *o, Symbols *sym, MlirOperation module, MlirOperation func, MlirOperation op,
                       MlirOperation *next) {
  OnlineChain oc = {.plausible = false};
  int64_t rows, keys;
  const char *why = online_fits(o, sym, op, &oc, &rows, &keys), *first = why;
  /* on the cpu target attention with fewer keys keeps whole rows (remarked as a chain) */
  bool plausible = oc.plausible && !(o->cpu && oc.n < o->online_min_keys);
  HeadsEdit edits[2];
  MlirOperation old_kernels[2];
  int n_edits = 0;
  bool k_transposed = false;
  MlirOperation scores = op;
  while (why && n_edits < 2 &&
         (strcmp(why, ONLINE_QK_VIEW) == 0 || strcmp(why, ONLINE_V_VIEW) == 0 || strcmp(why, ONLINE_K_TRANSPOSED) == 0)) {
    MlirOperation call = strcmp(why, ONLINE_V_VIEW) == 0 ? oc.calls[3] : scores;
    HeadsLayout layout = strcmp(why, ONLINE_K_TRANSPOSED) == 0 ? HEADS_ONLINE_REDUCTION_LAST : HEADS_ONLINE;
    k_transposed |= layout == HEADS_ONLINE_REDUCTION_LAST;
    old_kernels[n_edits] = callee_of(sym, call);
    if (!heads_materialize(func, sym, call, old_kernels[n_edits], o->target, layout, 0, &edits[n_edits]))
      break;
    if (mlirOperationEqual(call, scores))
      scores = edits[n_edits].new_call;
    ++n_edits;
    why = online_fits(o, sym, scores, &oc, &rows, &keys);
  }
  if (why) {
    bool copied = n_edits > 0;
    while (n_edits > 0)
      heads_undo(&edits[--n_edits], sym);
    if (o->remarks && plausible)
      braze_emit_remark(mlirOperationGetLocation(op), "form-row-chains: no online chain from this call: %s%s%s", first,
                        copied && strcmp(first, why) != 0 ? "; with the heads copied: " : "",
                        copied && strcmp(first, why) != 0 ? why : "");
    *next = mlirOperationGetNextInBlock(op);
    return true;
  }
  int copies = 0;
  for (int i = 0; i < n_edits; ++i) {
    copies += edits[i].n_copies;
    heads_commit(&edits[i], sym, old_kernels[i]);
  }
  if (o->remarks && copies)
    braze_emit_remark(mlirOperationGetLocation(op), "form-row-chains: %d copy kernel(s) put heads read through views%s "
                      "in [batch..., rows, head dim] layout for the online form", copies,
                      k_transposed ? " or k stored transposed" : "");
  Chain c = {.o = o, .module = module, .func = func, .sym = sym};
  /* the walk resumes after the first of the calls that remains: the chain's new call
   * stands where the output's call was */
  *next = mlirOperationGetNextInBlock(oc.calls[3]);
  if (!online_bias_relayout(&oc)) {
    braze_emit_error(mlirOperationGetLocation(op), "form-row-chains: internal: the bias constant could not be laid out");
    return false;
  }
  return chain_build_online(&c, &oc, rows, keys);
}

static const char *chain_fits(Chain *c) {
  c->detail[0] = 0;
  const char *why = check_links(c);
  return why ? why : choose_rows(c);
}

/* ---- the pass ---- */

static void remark_refusal(const Chain *c, const char *why, const char *detail) {
  if (!c->o->remarks)
    return;
  BrazeStr names = {0};
  for (int i = 0; i < c->n; ++i) {
    braze_str_puts(&names, i ? " -> @" : "@");
    chain_print_name(&names, c->links[i].kernel);
  }
  braze_emit_remark(mlirOperationGetLocation(c->links[0].call), "form-row-chains: no chain %s: %s%s%s%s",
                    braze_str_cstr(&names), why, *detail ? " (" : "", detail, *detail ? ")" : "");
  braze_str_free(&names);
}

/* Whether every argument of a kernel is bf16 or f16: a product the tensor-core template
 * takes (it accumulates in f32, so the result may be f32). */
static bool half_operands(MlirOperation kernel) {
  MlirType fn = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(kernel, braze_ref("function_type")));
  for (intptr_t i = 0; i < mlirFunctionTypeGetNumInputs(fn); ++i) {
    MlirType t = mlirFunctionTypeGetInput(fn, i);
    MlirType e = mlirTypeIsARankedTensor(t) ? mlirShapedTypeGetElementType(t) : t;
    if (!mlirTypeIsABF16(e) && !mlirTypeIsAF16(e))
      return false;
  }
  return mlirFunctionTypeGetNumInputs(fn) > 0;
}

/* On targets with the online form, a half-precision matmul kernel left reading an operand
 * through a view that repeats no element reads a plain copy instead (passes/chains/heads.h):
 * the tensor-core template takes only plain operands. */
static void plain_template_operands(const Options *o, Symbols *sym, MlirOperation func) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body), next; !mlirOperationIsNull(op); op = next) {
    next = mlirOperationGetNextInBlock(op);
    MlirOperation kernel = braze_op_is(op, "func.call") ? callee_of(sym, op) : (MlirOperation){NULL};
    HeadsEdit e;
    if (mlirOperationIsNull(kernel) || !kind_is(kernel, "tem") || !half_operands(kernel) ||
        !heads_materialize(func, sym, op, kernel, o->target, HEADS_TEMPLATE, o->window_channels, &e))
      continue;
    next = mlirOperationGetNextInBlock(e.new_call);
    if (o->remarks) {
      BrazeStr name = {0};
      chain_print_name(&name, kernel);
      braze_emit_remark(mlirOperationGetLocation(op), "form-row-chains: @%s reads %d operand(s) through a view: "
                        "plain copies for the matmul template", braze_str_cstr(&name), e.n_copies);
      braze_str_free(&name);
    }
    heads_commit(&e, sym, kernel);
  }
}

static bool run_on_func(const Options *o, Symbols *sym, MlirOperation module, MlirOperation func) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body), next; online_enabled(o) && !mlirOperationIsNull(op); op = next)
    if (!try_online(o, sym, module, func, op, &next))
      return false;
  if (!o->cpu) { /* targets with the online form run no whole-row chains */
    if (online_enabled(o)) {
      online_merge_inputs(o, sym, func);
      plain_template_operands(o, sym, func);
    }
    return true;
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);) {
    Chain c = {.o = o, .module = module, .func = func, .sym = sym};
    collect_links(&c, op);
    if (c.n < 2) {
      op = mlirOperationGetNextInBlock(op);
      continue;
    }
    /* the longest prefix (2 links at least) that forms a chain: a link that does not fit
     * (W7-style attention followed by an output projection through a view) ends it */
    int full = c.n;
    const char *why = chain_fits(&c), *first = why, *longer = why; /* longer: the prefix one link longer */
    char first_detail[sizeof c.detail];
    memcpy(first_detail, c.detail, sizeof c.detail);
    while (why && c.n > 2) {
      longer = why;
      memcpy(c.stopped_detail, c.detail, sizeof c.detail);
      --c.n;
      why = chain_fits(&c);
    }
    if (why) {
      c.n = full;
      if (strcmp(first, "no-template") != 0)
        remark_refusal(&c, first, first_detail);
      op = mlirOperationGetNextInBlock(op);
      continue;
    }
    if (c.n < full) {
      c.stopped = longer;
      c.stopped_at = c.links[c.n].kernel;
    }
    MlirOperation next = mlirOperationGetNextInBlock(c.links[c.n - 1].call);
    if (!chain_build(&c))
      return false;
    op = next;
  }
  return true;
}

static bool is_graph_function(MlirOperation op) {
  if (!braze_op_is(op, "func.func") ||
      !mlirAttributeIsNull(mlirOperationGetAttributeByName(op, braze_ref("kernel.kind"))))
    return false;
  MlirRegion r = mlirOperationGetRegion(op, 0);
  return !mlirBlockIsNull(mlirRegionGetFirstBlock(r));
}

static bool run(MlirOperation module, void *state) {
  const Options *o = state;
  if (o->disable)
    return true;
  Symbols sym = {mlirSymbolTableCreate(module), {0}};
  mlirOperationWalk(module, count_call, &sym, MlirWalkPreOrder);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  bool ok = true;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); ok && !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (is_graph_function(op))
      ok = run_on_func(o, &sym, module, op);
  braze_ptrmap_free(&sym.calls);
  mlirSymbolTableDestroy(sym.table);
  return ok;
}

static void destroy_state(void *state) {
  Options *o = state;
  if (o)
    free(o->target);
  free(o);
}

/* Per-block intermediates: the L2 of the target being compiled for (1 MiB, the cpu
 * target's, without one). */
static long long default_scratch(void) {
  const BrazeTargetCosts *costs = braze_pass_target_costs();
  return costs && costs->l2_cache_bytes > 0 ? costs->l2_cache_bytes : 1048576;
}

static void *create_state(const BrazePassOptions *opts, BrazeStr *error) {
  static const char *const allowed[] = {"disable", "remarks", "rows", "max-scratch-bytes", "max-repack-bytes",
                                        "min-blocks", "target", "no-online", "key-block", "online",
                                        "online-min-keys", "window-channels", "no-merge-inputs", NULL};
  if (!braze_options_check(opts, "form-row-chains", allowed, error))
    return NULL;
  Options *o = calloc(1, sizeof *o);
  o->disable = braze_option_flag(opts, "disable");
  o->remarks = braze_option_flag(opts, "remarks");
  o->no_online = braze_option_flag(opts, "no-online");
  o->no_merge_inputs = braze_option_flag(opts, "no-merge-inputs");
  const BrazeOption *online = braze_option_find(opts, "online");
  if (online && (!online->value || (strcmp(online->value, "half") != 0 && strcmp(online->value, "all") != 0 &&
                                    strcmp(online->value, "cuda") != 0))) {
    braze_str_printf(error, "form-row-chains: online must be 'all', 'half' or 'cuda', not '%s'",
                     online->value ? online->value : "");
    free(o);
    return NULL;
  }
  o->online_half = online && strcmp(online->value, "half") == 0;
  o->online_cuda = online && strcmp(online->value, "cuda") == 0;
  const BrazeOption *t = braze_option_find(opts, "target");
  o->target = strdup(t && t->value ? t->value : "cpu");
  o->cpu = strcmp(o->target, "cpu") == 0;
  if (!braze_option_int(opts, "rows", 0, &o->rows, error) ||
      !braze_option_int(opts, "max-scratch-bytes", default_scratch(), &o->max_scratch, error) ||
      !braze_option_int(opts, "max-repack-bytes", 1048576, &o->max_repack, error) ||
      !braze_option_int(opts, "min-blocks", 8, &o->min_blocks, error) ||
      !braze_option_int(opts, "key-block", o->cpu ? 256 : 128, &o->key_block, error) ||
      !braze_option_int(opts, "online-min-keys", o->cpu ? 2048 : 0, &o->online_min_keys, error) ||
      !braze_option_int(opts, "window-channels", 64, &o->window_channels, error) || o->window_channels < 0 || o->rows < 0 ||
      o->max_scratch < 1 || o->min_blocks < 1 || o->key_block < 1 || o->online_min_keys < 0) {
    if (!error->data)
      braze_str_printf(error, "form-row-chains: rows, online-min-keys and window-channels must be >= 0, "
                       "max-scratch-bytes, min-blocks and key-block >= 1");
    destroy_state(o);
    return NULL;
  }
  return o;
}

const BrazePassInfo braze_pass_form_row_chains = {
    .argument = "form-row-chains",
    .summary = "Run chains of row-local kernels (matmul -> softmax -> matmul) one block of rows at a time",
    .options_help = "  disable              form no chains\n"
                    "  rows=N               rows per block (default 0: the largest divisor of the rows whose\n"
                    "                       intermediates fit max-scratch-bytes, keeping min-blocks blocks)\n"
                    "  max-scratch-bytes=N  per-block intermediates (default: the target's L2 fact, 1048576\n"
                    "                       for cpu; up to 4x when packing would outweigh the savings)\n"
                    "  max-repack-bytes=N   largest non-row operand of a matmul kernel, packed again per\n"
                    "                       block (default 1048576)\n"
                    "  min-blocks=N         parallel blocks to keep (default 8)\n"
                    "  target=NAME          chain kernel name prefix (default cpu); any target but cpu takes\n"
                    "                       attention chains in the online form and no whole-row chains; cpu\n"
                    "                       takes both, the online form's generics as block kernels\n"
                    "  no-online            no online form (a target whose codegen lacks it)\n"
                    "  key-block=N          keys per step of the online form (default 128; cpu: 256, the\n"
                    "                       keys it leaves in a tail step)\n"
                    "  online-min-keys=N    attention chains with fewer keys keep whole rows (default 0;\n"
                    "                       cpu: 2048, where a block of whole rows of scores leaves L2)\n"
                    "  online=all|half|cuda which attention chains take the online form: all (default),\n"
                    "                       bf16/f16 ones with head dims 64 or 128 (half: the CUDA flash\n"
                    "                       kernel's), or those and f32 ones with head dims up to 64 (cuda:\n"
                    "                       the CUDA SIMT kernel's too)\n"
                    "  no-merge-inputs      (not cpu) keep the pointwise kernels making an online chain's\n"
                    "                       inputs separate (default: one kernel with a result each)\n"
                    "  window-channels=N    (not cpu) a matmul kernel's operand read through a view repeating\n"
                    "                       elements (a conv's window) stays a view when its source's rows are\n"
                    "                       a multiple of N elements (default 64: the CUDA template's window\n"
                    "                       boxes), else gets a plain copy (im2col); so does a strided 1x1\n"
                    "                       conv's input (one tap); 0: always a copy\n"
                    "  remarks              one remark per chain formed or refused\n",
    .anchor = "builtin.module",
    .create_state = create_state,
    .destroy_state = destroy_state,
    .run = run,
};
