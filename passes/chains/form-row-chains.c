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
 * The online form (passes/chains/online.h, decision 0015): on targets other than cpu, an
 * attention chain (q @ k^T, a row max, exp and a row sum of the scaled scores, @ v) whose
 * rows are too long for a block's scratch becomes one chain kernel that runs the keys in
 * blocks with a running max and sum per row (the flash-attention recurrence); its
 * attribute kernel.online = {key_block, scale} is what the target's template needs.
 * Refusals name the step that broke (probabilities used elsewhere, a reduction that is
 * not a max, ...). There, no whole-row chains form: the CUDA target runs only the online
 * form.
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
 *   key-block=N          keys per step of the online form (default 128)
 *   online=all|half      all attention chains take the online form, or (half) only bf16/f16
 *                        ones with head dims 64 or 128: what the CUDA flash kernel takes
 *   remarks              one remark per chain formed or refused */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"
#include "passes/chains/chain-passes.h"
#include "passes/chains/online.h"
#include "passes/chains/row-local.h"
#include "support/context.h"
#include "support/diag.h"
#include "support/ptrmap.h"
#include "support/strbuf.h"

enum { MAX_LINKS = 16 };

typedef struct {
  bool disable, remarks, no_online, online_half;
  long long rows, max_scratch, max_repack, min_blocks, key_block;
  char *target;
} Options;

typedef struct {
  MlirOperation call, kernel;
  RcSlice slices[RC_MAX_ARGS];
} Link;

/* The module's symbols (looked up by name, one hash table for the pass) and how many
 * calls each kernel has (a kernel is erased when its last call went into a chain). */
typedef struct {
  MlirSymbolTable table;
  BrazePtrMap calls; /* kernel op -> number of func.calls of it */
} Symbols;

typedef struct {
  const Options *o;
  MlirOperation module, func;
  Symbols *sym;
  Link links[MAX_LINKS];
  int n;
  RcRows rows;
  int64_t mc;
  const char *stopped;       /* why the chain ends before the next link (stopped_at), or NULL */
  MlirOperation stopped_at;
} Chain;

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

/* The one user of `v`, or null when it has none or several. */
static MlirOperation only_user(MlirValue v) {
  MlirOpOperand use = mlirValueGetFirstUse(v);
  if (mlirOpOperandIsNull(use) || !mlirOpOperandIsNull(mlirOpOperandGetNextUse(use)))
    return (MlirOperation){NULL};
  return mlirOpOperandGetOwner(use);
}

/* Grow the chain from `call` along single-use results. */
static void collect_links(Chain *c, MlirOperation call) {
  c->n = 0;
  while (c->n < MAX_LINKS && braze_op_is(call, "func.call") && mlirOperationGetNumResults(call) == 1) {
    MlirOperation kernel = callee_of(c->sym, call);
    if (!chainable(kernel))
      break;
    c->links[c->n++] = (Link){.call = call, .kernel = kernel};
    call = only_user(mlirOperationGetResult(call, 0));
    if (mlirOperationIsNull(call) ||
        !mlirBlockEqual(mlirOperationGetBlock(call), mlirOperationGetBlock(c->links[0].call)))
      break;
  }
}

/* ---- checking a chain ---- */

static bool same_rows(const RcRows *a, const RcRows *b) {
  return a->nr == b->nr && memcmp(a->dims, b->dims, (size_t)a->nr * sizeof *a->dims) == 0;
}

/* The link before `link` whose result `v` is, or -1. */
static int producer_link(const Chain *c, int link, MlirValue v) {
  for (int i = 0; i < link; ++i)
    if (mlirValueEqual(v, mlirOperationGetResult(c->links[i].call, 0)))
      return i;
  return -1;
}

static bool is_intermediate(const Chain *c, int link, MlirValue v) { return producer_link(c, link, v) >= 0; }

static int64_t tensor_bytes(MlirType t) {
  RcRows none = {.nr = 0};
  return rc_row_bytes(t, &none);
}

/* Bytes a tem kernel packs per block for operand `v` read through `slice` (all of a
 * whole operand, one batch's slice of k or v). */
static int64_t repack_bytes(const Chain *c, MlirValue v, const RcSlice *slice) {
  return tensor_bytes(rc_block_type(mlirValueGetType(v), slice, c->mc > 0 ? c->mc : 1, &c->rows));
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
    if ((why = rc_classify(l->kernel, &c->rows, l->slices)))
      return why;
    bool tem = kind_is(l->kernel, "tem");
    has_template |= tem;
    for (intptr_t j = 0; j < mlirOperationGetNumOperands(l->call); ++j) {
      MlirValue v = mlirOperationGetOperand(l->call, j);
      const RcSlice *slice = &l->slices[j];
      if (is_intermediate(c, i, v) && !rc_slice_is_rows(slice, &c->rows))
        return "intermediate-not-read-by-rows";
      if (tem && slice->used && !rc_slice_is_rows(slice, &c->rows) && repack_bytes(c, v, slice) > c->o->max_repack)
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
      if (l->slices[j].used && !rc_slice_is_rows(&l->slices[j], &c->rows))
        extra += blocks * repack_bytes(c, v, &l->slices[j]) - tensor_bytes(mlirValueGetType(v));
    }
  }
  return extra;
}

static int64_t intermediate_bytes(const Chain *c) {
  int64_t bytes = 0;
  for (int i = 0; i + 1 < c->n; ++i)
    bytes += tensor_bytes(mlirValueGetType(mlirOperationGetResult(c->links[i].call, 0)));
  return bytes;
}

/* The largest divisor of m whose intermediates fit `budget` bytes while keeping
 * min-blocks parallel iterations (else the largest that fits); 0 when none fits. */
static int64_t rows_within(const Chain *c, int64_t budget, int64_t per_row, int64_t batches) {
  int64_t m = c->rows.dims[c->rows.nr - 1], best = 0;
  for (int64_t mc = m; mc >= 1; --mc) {
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
    if (4 * repack_extra(c) <= 2 * intermediate_bytes(c))
      return NULL;
    why = "repacking-exceeds-savings";
  }
  return why;
}

/* ---- building the chain kernel ---- */

static void print_type(BrazeStr *s, MlirType t) { mlirTypePrint(t, braze_str_callback, s); }

static void print_ints(BrazeStr *s, const int64_t *v, int n) {
  for (int i = 0; i < n; ++i)
    braze_str_printf(s, "%s%lld", i ? ", " : "", (long long)v[i]);
}

static void print_name(BrazeStr *s, MlirOperation op) {
  MlirStringRef n = mlirStringAttrGetValue(mlirOperationGetAttributeByName(op, braze_ref("sym_name")));
  braze_str_append(s, n.data, n.length);
}

static bool symbol_taken(const Symbols *sym, const char *name) {
  return !mlirOperationIsNull(mlirSymbolTableLookup(sym->table, braze_ref(name)));
}

/* `<target>_chain_fused_<origins>_<N>`: each kernel's origins (its name between
 * "_fused" and the index), repeats dropped. */
static char *chain_name(const Chain *c) {
  BrazeStr parts = {0};
  for (int i = 0; i < c->n; ++i) {
    BrazeStr k = {0};
    print_name(&k, c->links[i].kernel);
    const char *name = braze_str_cstr(&k), *f = strstr(name, "_fused_");
    const char *from = f ? f + 6 : name, *to = strrchr(name, '_');
    if (!to || to < from)
      to = name + strlen(name);
    char part[256];
    snprintf(part, sizeof part, "%.*s", (int)(to - from), from);
    if (!strstr(braze_str_cstr(&parts), part))
      braze_str_puts(&parts, part);
    braze_str_free(&k);
  }
  for (int index = 0;; ++index) {
    BrazeStr name = {0};
    braze_str_printf(&name, "%s_chain_fused%s_%d", c->o->target, braze_str_cstr(&parts), index);
    if (!symbol_taken(c->sym, braze_str_cstr(&name))) {
      braze_str_free(&parts);
      return name.data;
    }
    braze_str_free(&name);
  }
}

/* The block form of link i: a retyped clone named `<kernel>_rows`, before `at`. */
static void add_block_kernel(Chain *c, int i, MlirOperation at, BrazeStr *name) {
  MlirOperation clone = mlirOperationClone(c->links[i].kernel);
  print_name(name, c->links[i].kernel);
  braze_str_puts(name, "_rows");
  MlirContext ctx = mlirOperationGetContext(clone);
  mlirOperationSetAttributeByName(clone, braze_ref("sym_name"), mlirStringAttrGet(ctx, braze_ref(braze_str_cstr(name))));
  mlirOperationSetAttributeByName(clone, braze_ref("kernel.serial"), mlirUnitAttrGet(ctx));
  rc_make_block(clone, &c->rows, c->links[i].slices, c->mc);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(at), at, clone);
  mlirSymbolTableInsert(c->sym->table, clone);
}

static int arg_index(const MlirValue *args, int n, MlirValue v) {
  for (int k = 0; k < n; ++k)
    if (mlirValueEqual(args[k], v))
      return k;
  return -1;
}

/* Chain arguments: the values the links read from outside the chain, once each. */
static int external_args(const Chain *c, MlirValue *args) {
  int n = 0;
  for (int i = 0; i < c->n; ++i)
    for (intptr_t j = 0; j < mlirOperationGetNumOperands(c->links[i].call); ++j) {
      MlirValue v = mlirOperationGetOperand(c->links[i].call, j);
      if (!is_intermediate(c, i, v) && arg_index(args, n, v) < 0 && n < RC_MAX_ARGS)
        args[n++] = v;
    }
  return n;
}

/* "[offsets] [sizes] [1, ...]" of a slice of `block`'s shape: the block's iv as the
 * offset of each dim read by a row dim, else 0. */
static void print_slice_spec(BrazeStr *s, const RcSlice *slice, MlirType block) {
  braze_str_puts(s, "[");
  for (int d = 0; d < slice->rank; ++d) {
    braze_str_puts(s, d ? ", " : "");
    if (slice->row_of[d] >= 0)
      braze_str_printf(s, "%%i%d", slice->row_of[d]);
    else
      braze_str_puts(s, "0");
  }
  braze_str_puts(s, "] [");
  for (int d = 0; d < slice->rank; ++d)
    braze_str_printf(s, "%s%lld", d ? ", " : "", (long long)mlirShapedTypeGetDimSize(block, d));
  braze_str_puts(s, "] [");
  for (int d = 0; d < slice->rank; ++d)
    braze_str_puts(s, d ? ", 1" : "1");
  braze_str_puts(s, "]");
}

/* The slices the links read, one per (argument, slice): %sN names slices[N]. */
typedef struct {
  int n;
  int arg[RC_MAX_ARGS * 2];
  RcSlice slice[RC_MAX_ARGS * 2];
} SliceSet;

static int slice_index(SliceSet *set, int k, const RcSlice *slice, bool add) {
  for (int i = 0; i < set->n; ++i)
    if (set->arg[i] == k && rc_slice_equal(&set->slice[i], slice))
      return i;
  if (!add || set->n == RC_MAX_ARGS * 2)
    return -1;
  set->arg[set->n] = k;
  set->slice[set->n] = *slice;
  return set->n++;
}

static void print_slices(BrazeStr *s, const Chain *c, const MlirValue *args, int n_args, SliceSet *set) {
  for (int i = 0; i < c->n; ++i)
    for (intptr_t j = 0; j < mlirOperationGetNumOperands(c->links[i].call); ++j) {
      const RcSlice *slice = &c->links[i].slices[j];
      int k = arg_index(args, n_args, mlirOperationGetOperand(c->links[i].call, j));
      if (k < 0 || !slice->used || rc_slice_is_whole(slice) || slice_index(set, k, slice, false) >= 0)
        continue;
      int n = slice_index(set, k, slice, true);
      MlirType t = mlirValueGetType(args[k]), block = rc_block_type(t, slice, c->mc, &c->rows);
      braze_str_printf(s, "      %%s%d = tensor.extract_slice %%arg%d", n, k);
      print_slice_spec(s, slice, block);
      braze_str_puts(s, " : ");
      print_type(s, t);
      braze_str_puts(s, " to ");
      print_type(s, block);
      braze_str_puts(s, "\n");
    }
}

/* The call's operand types in the block form, and its result type. */
static void print_call_type(BrazeStr *s, const Chain *c, const Link *l) {
  braze_str_puts(s, "(");
  for (intptr_t j = 0; j < mlirOperationGetNumOperands(l->call); ++j) {
    braze_str_puts(s, j ? ", " : "");
    print_type(s, rc_block_type(mlirValueGetType(mlirOperationGetOperand(l->call, j)), &l->slices[j], c->mc, &c->rows));
  }
  braze_str_puts(s, ") -> ");
  MlirType result = mlirValueGetType(mlirOperationGetResult(l->call, 0));
  RcSlice rows = rc_row_slice(&c->rows, (int)mlirShapedTypeGetRank(result));
  print_type(s, rc_block_type(result, &rows, c->mc, &c->rows));
}

static void print_calls(BrazeStr *s, const Chain *c, const MlirValue *args, int n_args, BrazeStr *block_names,
                        SliceSet *set) {
  for (int i = 0; i < c->n; ++i) {
    const Link *l = &c->links[i];
    intptr_t n_ops = mlirOperationGetNumOperands(l->call);
    braze_str_printf(s, "      %%v%d = func.call @%s(", i, braze_str_cstr(&block_names[i]));
    for (intptr_t j = 0; j < n_ops; ++j) {
      MlirValue v = mlirOperationGetOperand(l->call, j);
      int k = arg_index(args, n_args, v);
      braze_str_puts(s, j ? ", " : "");
      if (k < 0) /* an intermediate: the earlier link's result */
        braze_str_printf(s, "%%v%d", producer_link(c, i, v));
      else if (l->slices[j].used && !rc_slice_is_whole(&l->slices[j]))
        braze_str_printf(s, "%%s%d", slice_index(set, k, &l->slices[j], false));
      else
        braze_str_printf(s, "%%arg%d", k);
    }
    braze_str_puts(s, ") : ");
    print_call_type(s, c, l);
    braze_str_puts(s, "\n");
  }
}

static void print_ops_attr(BrazeStr *s, const Chain *c) {
  braze_str_puts(s, "kernel.ops = [");
  bool first = true;
  for (int i = 0; i < c->n; ++i) {
    MlirAttribute ops = mlirOperationGetAttributeByName(c->links[i].kernel, braze_ref("kernel.ops"));
    for (intptr_t k = 0; !mlirAttributeIsNull(ops) && k < mlirArrayAttrGetNumElements(ops); ++k) {
      braze_str_puts(s, first ? "" : ", ");
      mlirAttributePrint(mlirArrayAttrGetElement(ops, k), braze_str_callback, s);
      first = false;
    }
  }
  braze_str_puts(s, "]");
}

/* The chain kernel's text (parsed into the module: scf.forall is far clearer written
 * than assembled op by op). */
static void print_chain(BrazeStr *s, const Chain *c, const char *name, const MlirValue *args, int n_args,
                        BrazeStr *block_names) {
  MlirType result = mlirValueGetType(mlirOperationGetResult(c->links[c->n - 1].call, 0));
  intptr_t rank = mlirShapedTypeGetRank(result);
  RcSlice as_rows = rc_row_slice(&c->rows, (int)rank);
  MlirType block = rc_block_type(result, &as_rows, c->mc, &c->rows);
  SliceSet set = {0};
  int nr = c->rows.nr;
  int64_t steps[RC_MAX_RANK], zeros[RC_MAX_RANK] = {0};
  for (int d = 0; d < nr; ++d)
    steps[d] = d == nr - 1 ? c->mc : 1;
  braze_str_printf(s, "func.func private @%s(", name);
  for (int k = 0; k < n_args; ++k) {
    braze_str_printf(s, "%s%%arg%d: ", k ? ", " : "", k);
    print_type(s, mlirValueGetType(args[k]));
  }
  braze_str_puts(s, ") -> ");
  print_type(s, result);
  braze_str_printf(s, " attributes {kernel.kind = \"chain\", kernel.rows = %lld : i64, ", (long long)c->mc);
  print_ops_attr(s, c);
  /* the score, as form-kernels': bytes saved (each intermediate written and read once) */
  braze_str_printf(s, ", kernel.score = %lld : i64} {\n    %%empty = tensor.empty() : ", (long long)(2 * intermediate_bytes(c)));
  print_type(s, result);
  braze_str_puts(s, "\n    %res = scf.forall (");
  for (int d = 0; d < nr; ++d)
    braze_str_printf(s, "%s%%i%d", d ? ", " : "", d);
  braze_str_puts(s, ") = (");
  print_ints(s, zeros, nr);
  braze_str_puts(s, ") to (");
  print_ints(s, c->rows.dims, nr);
  braze_str_puts(s, ") step (");
  print_ints(s, steps, nr);
  braze_str_puts(s, ") shared_outs(%out = %empty) -> (");
  print_type(s, result);
  braze_str_puts(s, ") {\n");
  print_slices(s, c, args, n_args, &set);
  print_calls(s, c, args, n_args, block_names, &set);
  braze_str_printf(s, "      scf.forall.in_parallel {\n        tensor.parallel_insert_slice %%v%d into %%out", c->n - 1);
  print_slice_spec(s, &as_rows, block);
  braze_str_puts(s, " : ");
  print_type(s, block);
  braze_str_puts(s, " into ");
  print_type(s, result);
  braze_str_puts(s, "\n      }\n    }\n    return %res : ");
  print_type(s, result);
  braze_str_puts(s, "\n}\n");
}

/* Declarations of the block kernels, so the chain parses (and verifies) on its own. */
static void print_declarations(BrazeStr *s, const Chain *c, BrazeStr *block_names) {
  for (int i = 0; i < c->n; ++i) {
    const Link *l = &c->links[i];
    braze_str_printf(s, "func.func private @%s", braze_str_cstr(&block_names[i]));
    print_call_type(s, c, l);
    braze_str_puts(s, "\n");
  }
}

/* ---- rewriting the graph function ---- */


static void replace_calls(Chain *c, MlirOperation chain_fn, const MlirValue *args, int n_args) {
  MlirOperation last = c->links[c->n - 1].call;
  MlirContext ctx = mlirOperationGetContext(last);
  MlirStringRef name = mlirStringAttrGetValue(mlirOperationGetAttributeByName(chain_fn, braze_ref("sym_name")));
  MlirNamedAttribute callee =
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, braze_ref("callee")), mlirFlatSymbolRefAttrGet(ctx, name));
  MlirOperationState st = mlirOperationStateGet(braze_ref("func.call"), mlirOperationGetLocation(c->links[0].call));
  MlirType result = mlirValueGetType(mlirOperationGetResult(last, 0));
  mlirOperationStateAddOperands(&st, n_args, args);
  mlirOperationStateAddResults(&st, 1, &result);
  mlirOperationStateAddAttributes(&st, 1, &callee);
  MlirOperation call = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(last), last, call);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(last, 0), mlirOperationGetResult(call, 0));
  for (int i = c->n - 1; i >= 0; --i) {
    mlirOperationDestroy(c->links[i].call);
    uint64_t key = braze_ptr_key(c->links[i].kernel.ptr);
    int left = braze_ptrmap_get(&c->sym->calls, key, 1) - 1;
    braze_ptrmap_put(&c->sym->calls, key, left);
    if (left <= 0)
      mlirSymbolTableErase(c->sym->table, c->links[i].kernel);
  }
}


/* The parsed chain's ops take the location of the chain's first call (the graph op that
 * started it) instead of positions in the generated text. */
static MlirWalkResult relocate(MlirOperation op, void *user) {
  mlirOperationSetLocation(op, *(MlirLocation *)user);
  return MlirWalkResultAdvance;
}

static bool build_chain(Chain *c) {
  MlirValue args[RC_MAX_ARGS];
  int n_args = external_args(c, args);
  char *name = chain_name(c);
  BrazeStr block_names[MAX_LINKS] = {{0}}, text = {0};
  for (int i = 0; i < c->n; ++i)
    add_block_kernel(c, i, c->func, &block_names[i]);
  print_declarations(&text, c, block_names);
  print_chain(&text, c, name, args, n_args, block_names);
  MlirContext ctx = mlirOperationGetContext(c->func);
  MlirModule parsed = mlirModuleCreateParse(ctx, braze_ref(braze_str_cstr(&text)));
  bool ok = !mlirModuleIsNull(parsed);
  if (ok) {
    MlirOperation chain_fn = mlirBlockGetFirstOperation(mlirModuleGetBody(parsed));
    while (!mlirOperationIsNull(mlirOperationGetNextInBlock(chain_fn)))
      chain_fn = mlirOperationGetNextInBlock(chain_fn);
    mlirOperationRemoveFromParent(chain_fn);
    mlirModuleDestroy(parsed);
    MlirLocation loc = mlirOperationGetLocation(c->links[0].call);
    mlirOperationWalk(chain_fn, relocate, &loc, MlirWalkPreOrder);
    mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(c->func), c->func, chain_fn);
    mlirSymbolTableInsert(c->sym->table, chain_fn);
    if (c->o->remarks) {
      BrazeStr stop = {0};
      if (c->stopped) {
        braze_str_puts(&stop, "; stops before @");
        print_name(&stop, c->stopped_at);
        braze_str_printf(&stop, " (%s)", c->stopped);
      }
      braze_emit_remark(mlirOperationGetLocation(c->links[0].call), "form-row-chains: %d kernels as @%s: blocks of %lld rows%s",
                        c->n, name, (long long)c->mc, braze_str_cstr(&stop));
      braze_str_free(&stop);
    }
    replace_calls(c, chain_fn, args, n_args);
  } else {
    braze_emit_error(mlirOperationGetLocation(c->links[0].call), "form-row-chains: internal: chain @%s did not parse",
                     name);
  }
  for (int i = 0; i < c->n; ++i)
    braze_str_free(&block_names[i]);
  braze_str_free(&text);
  free(name);
  return ok;
}

/* ---- the online form (passes/chains/online.h) ---- */

static MlirOperation online_callee(void *user, MlirOperation call) { return callee_of(user, call); }

/* Whether the online rewrite runs: on targets whose codegen takes the online form (the
 * CUDA flash kernel); cpu-codegen runs whole-row chains only. */
static bool online_enabled(const Options *o) { return !o->no_online && strcmp(o->target, "cpu") != 0; }

/* The online chain kernel for `oc` in place of its four calls. */
static bool build_online(Chain *c, const OnlineChain *oc) {
  c->n = 0;
  for (int i = 0; i < 4; ++i) /* three kernels when the softmax is one */
    if (!mlirOperationIsNull(oc->calls[i]))
      c->links[c->n++] = (Link){.call = oc->calls[i], .kernel = oc->kernels[i]};
  c->mc = c->o->rows > 0 ? c->o->rows : 128;
  char *name = chain_name(c);
  BrazeStr ops = {0}, text = {0};
  print_ops_attr(&ops, c);
  const char *ops_list = strchr(braze_str_cstr(&ops), '['); /* print_ops_attr writes "kernel.ops = [...]" */
  online_print(&text, oc, name, c->mc, c->o->key_block, ops_list, online_saved_bytes(oc));
  MlirOperation fn = mlirOperationCreateParse(mlirOperationGetContext(c->func), braze_ref(braze_str_cstr(&text)),
                                              braze_ref("form-row-chains"));
  bool ok = !mlirOperationIsNull(fn);
  if (ok) {
    MlirLocation loc = mlirOperationGetLocation(oc->calls[0]);
    mlirOperationWalk(fn, relocate, &loc, MlirWalkPreOrder);
    mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(c->func), c->func, fn);
    mlirSymbolTableInsert(c->sym->table, fn);
    if (c->o->remarks)
      braze_emit_remark(loc, "form-row-chains: %d kernels as @%s in the online form: blocks of %lld rows, %lld keys "
                        "per step, scale %g%s", c->n, name, (long long)c->mc, (long long)c->o->key_block, oc->scale,
                        oc->causal ? ", causal" : "");
    MlirValue args[4] = {oc->q, oc->k, oc->v, oc->bias};
    replace_calls(c, fn, args, mlirValueIsNull(oc->bias) ? 3 : 4);
  } else {
    braze_emit_error(mlirOperationGetLocation(oc->calls[0]), "form-row-chains: internal: online chain @%s did not parse",
                     name);
  }
  braze_str_free(&ops);
  braze_str_free(&text);
  free(name);
  return ok;
}

/* online=half: the chains the CUDA flash template takes (bf16 or f16, head dims 64 or 128). */
static bool online_half_domain(const OnlineChain *oc) {
  bool half = mlirTypeIsABF16(oc->elem) || mlirTypeIsAF16(oc->elem);
  return half && (oc->d == 64 || oc->d == 128) && (oc->dv == 64 || oc->dv == 128);
}

/* Try the online form at `op`; *next is where the walk goes on. False on an internal error. */
static bool try_online(const Options *o, Symbols *sym, MlirOperation module, MlirOperation func, MlirOperation op,
                       MlirOperation *next) {
  OnlineChain oc;
  const char *why = online_match(op, online_callee, sym, &oc);
  if (!why && o->online_half && !online_half_domain(&oc))
    why = "online=half: not bf16 or f16 with head dims 64 or 128";
  if (why) {
    if (o->remarks && oc.plausible)
      braze_emit_remark(mlirOperationGetLocation(op), "form-row-chains: no online chain from this call: %s", why);
    *next = mlirOperationGetNextInBlock(op);
    return true;
  }
  Chain c = {.o = o, .module = module, .func = func, .sym = sym};
  /* the walk resumes after the first of the calls that remains: the chain's new call
   * stands where the output's call was */
  *next = mlirOperationGetNextInBlock(oc.calls[3]);
  return build_online(&c, &oc);
}

static const char *chain_fits(Chain *c) {
  const char *why = check_links(c);
  return why ? why : choose_rows(c);
}

/* ---- the pass ---- */

static void remark_refusal(const Chain *c, const char *why) {
  if (!c->o->remarks)
    return;
  BrazeStr names = {0};
  for (int i = 0; i < c->n; ++i) {
    braze_str_puts(&names, i ? " -> @" : "@");
    print_name(&names, c->links[i].kernel);
  }
  braze_emit_remark(mlirOperationGetLocation(c->links[0].call), "form-row-chains: no chain %s: %s",
                    braze_str_cstr(&names), why);
  braze_str_free(&names);
}

static bool run_on_func(const Options *o, Symbols *sym, MlirOperation module, MlirOperation func) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  if (strcmp(o->target, "cpu") != 0) { /* targets with the online form run no whole-row chains */
    for (MlirOperation op = mlirBlockGetFirstOperation(body), next; online_enabled(o) && !mlirOperationIsNull(op); op = next)
      if (!try_online(o, sym, module, func, op, &next))
        return false;
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
    while (why && c.n > 2) {
      longer = why;
      --c.n;
      why = chain_fits(&c);
    }
    if (why) {
      c.n = full;
      if (strcmp(first, "no-template") != 0)
        remark_refusal(&c, first);
      op = mlirOperationGetNextInBlock(op);
      continue;
    }
    if (c.n < full) {
      c.stopped = longer;
      c.stopped_at = c.links[c.n].kernel;
    }
    MlirOperation next = mlirOperationGetNextInBlock(c.links[c.n - 1].call);
    if (!build_chain(&c))
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
                                        "min-blocks", "target", "no-online", "key-block", "online", NULL};
  if (!braze_options_check(opts, "form-row-chains", allowed, error))
    return NULL;
  Options *o = calloc(1, sizeof *o);
  o->disable = braze_option_flag(opts, "disable");
  o->remarks = braze_option_flag(opts, "remarks");
  o->no_online = braze_option_flag(opts, "no-online");
  const BrazeOption *online = braze_option_find(opts, "online");
  if (online && (!online->value || (strcmp(online->value, "half") != 0 && strcmp(online->value, "all") != 0))) {
    braze_str_printf(error, "form-row-chains: online must be 'all' or 'half', not '%s'", online->value ? online->value : "");
    free(o);
    return NULL;
  }
  o->online_half = online && strcmp(online->value, "half") == 0;
  const BrazeOption *t = braze_option_find(opts, "target");
  o->target = strdup(t && t->value ? t->value : "cpu");
  if (!braze_option_int(opts, "rows", 0, &o->rows, error) ||
      !braze_option_int(opts, "max-scratch-bytes", default_scratch(), &o->max_scratch, error) ||
      !braze_option_int(opts, "max-repack-bytes", 1048576, &o->max_repack, error) ||
      !braze_option_int(opts, "min-blocks", 8, &o->min_blocks, error) ||
      !braze_option_int(opts, "key-block", 128, &o->key_block, error) || o->rows < 0 || o->max_scratch < 1 ||
      o->min_blocks < 1 || o->key_block < 1) {
    if (!error->data)
      braze_str_printf(error, "form-row-chains: rows must be >= 0, max-scratch-bytes, min-blocks and key-block >= 1");
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
                    "                       attention chains in the online form and no whole-row chains\n"
                    "  no-online            no online form (a target whose codegen lacks it)\n"
                    "  key-block=N          keys per step of the online form (default 128)\n"
                    "  online=all|half      which attention chains take the online form: all (default), or\n"
                    "                       bf16/f16 ones with head dims 64 or 128 (the CUDA flash kernel's)\n"
                    "  remarks              one remark per chain formed or refused\n",
    .anchor = "builtin.module",
    .create_state = create_state,
    .destroy_state = destroy_state,
    .run = run,
};
