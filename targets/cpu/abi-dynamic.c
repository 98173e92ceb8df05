/* The ABI of entries with a symbolic dim (targets/common/dynamic-rows.h, decision 0029),
 * written as LLVM IR after abi.c wrapped the static row-block clones:
 *   int NAME(T *in..., T *out..., int64_t s);  s checked against [min, max] and the
 *       divisor (3 and a message in braze_last_error() otherwise); then the block clone
 *       over each full block of rows, the small clone over full small blocks, and the
 *       small clone once more on the rest padded with copies of its last row
 *   int NAME_output_shape(int32_t output, int64_t s, int64_t *dims);  output's dims
 *   int NAME_packed_sizes(void **args, const int64_t *sizes);
 *   NAME_num_inputs, _num_outputs, _arg_dtypes, _arg_ranks, _arg_dims (-1: the symbol),
 *   NAME_num_symbols (1), NAME_symbol_bounds (min, max, div)
 * The clones' own symbols are made internal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "targets/common/dynamic-loops.h"
#include "targets/cpu/cpu-target.h"

typedef struct {
  LLVMModuleRef m;
  LLVMContextRef ctx;
  LLVMTypeRef i8, i32, i64, ptr;
  LLVMValueRef error_buf, snprintf_fn;
  LLVMTypeRef snprintf_ty;
} Dyn;

static const BrazeEntrySig *find_sig(const BrazeEntrySet *entries, const char *name, int64_t rows) {
  char buf[200];
  snprintf(buf, sizeof buf, "%s" BRAZE_ROWS_SUFFIX "%lld", name, (long long)rows);
  for (size_t i = 0; i < entries->count; ++i)
    if (strcmp(entries->items[i].name, buf) == 0)
      return &entries->items[i];
  return NULL;
}

static LLVMValueRef global_const(const Dyn *a, const char *name, LLVMValueRef init) {
  LLVMValueRef g = LLVMAddGlobal(a->m, LLVMTypeOf(init), name);
  LLVMSetInitializer(g, init);
  LLVMSetGlobalConstant(g, 1);
  return g;
}

static char *cat(const char *a, const char *b) {
  size_t n = strlen(a) + strlen(b) + 1;
  char *s = malloc(n);
  snprintf(s, n, "%s%s", a, b);
  return s;
}

/* if (s < min || s > max || s % div != 0) { message; return 3; } — the builder is left
 * in the passing block. */
static void check_size(const Dyn *a, LLVMBuilderRef b, LLVMValueRef fn, const BrazeDynamicEntry *e, LLVMValueRef s) {
  LLVMValueRef lo = LLVMBuildICmp(b, LLVMIntSLT, s, LLVMConstInt(a->i64, (unsigned long long)e->min, 0), "");
  LLVMValueRef hi = LLVMBuildICmp(b, LLVMIntSGT, s, LLVMConstInt(a->i64, (unsigned long long)e->max, 0), "");
  LLVMValueRef bad = LLVMBuildOr(b, lo, hi, "");
  if (e->div > 1) {
    LLVMValueRef rem = LLVMBuildSRem(b, s, LLVMConstInt(a->i64, (unsigned long long)e->div, 0), "");
    bad = LLVMBuildOr(b, bad, LLVMBuildICmp(b, LLVMIntNE, rem, LLVMConstInt(a->i64, 0, 0), ""), "");
  }
  LLVMBasicBlockRef fail = LLVMAppendBasicBlockInContext(a->ctx, fn, "size_fail");
  LLVMBasicBlockRef pass = LLVMAppendBasicBlockInContext(a->ctx, fn, "size_ok");
  LLVMBuildCondBr(b, bad, fail, pass);
  LLVMPositionBuilderAtEnd(b, fail);
  char fmt[400];
  snprintf(fmt, sizeof fmt, "%s: %s = %%lld is outside %s in [%lld, %lld]%s%s", e->name, e->symbol, e->symbol,
           (long long)e->min, (long long)e->max, e->div > 1 ? ", a multiple of " : "", "");
  if (e->div > 1)
    snprintf(fmt + strlen(fmt), sizeof fmt - strlen(fmt), "%lld", (long long)e->div);
  LLVMValueRef str = LLVMBuildGlobalStringPtr(b, fmt, "size_msg");
  LLVMValueRef args[4] = {a->error_buf, LLVMConstInt(a->i64, 256, 0), str, s};
  LLVMBuildCall2(b, a->snprintf_ty, a->snprintf_fn, args, 4, "");
  LLVMBuildRet(b, LLVMConstInt(a->i32, 3, 0));
  LLVMPositionBuilderAtEnd(b, pass);
}

/* Whether dim d of argument i is the symbol. */
static bool is_sym(const BrazeDynamicEntry *e, const BrazeEntrySig *sig, int i, int d) {
  return e->loops ? sig->args[i].dims[d] == -1 : d == 0 && e->rows[i];
}

static int64_t row_bytes(const BrazeArgInfo *arg) {
  int64_t n = (int64_t)braze_rt_dtype_size(arg->dtype);
  for (int d = 1; d < arg->rank; ++d)
    n *= arg->dims[d];
  return n;
}

static LLVMValueRef rows_at(const Dyn *a, LLVMBuilderRef b, LLVMValueRef base, LLVMValueRef row, int64_t rb) {
  LLVMValueRef bytes = LLVMBuildMul(b, row, LLVMConstInt(a->i64, (unsigned long long)rb, 0), "");
  return LLVMBuildGEP2(b, a->i8, base, &bytes, 1, "rows");
}

/* Call `clone` (int(ptr...)) with each row argument at `row` rows of `bases` (NULL:
 * the entry's own pointers). */
static LLVMValueRef call_block(const Dyn *a, LLVMBuilderRef b, LLVMValueRef fn, const BrazeEntrySig *sig,
                               const BrazeDynamicEntry *e, LLVMValueRef clone, LLVMValueRef row,
                               const LLVMValueRef *bases) {
  unsigned n = (unsigned)e->num_args;
  LLVMValueRef *args = malloc((n ? n : 1) * sizeof *args);
  for (unsigned i = 0; i < n; ++i) {
    LLVMValueRef p = bases ? bases[i] : LLVMGetParam(fn, i);
    args[i] = e->rows[i] ? rows_at(a, b, p, row, row_bytes(&sig->args[i])) : p;
  }
  LLVMValueRef status = LLVMBuildCall2(b, LLVMGlobalGetValueType(clone), clone, args, n, "");
  free(args);
  return status;
}

static LLVMValueRef libc(const Dyn *a, const char *name, LLVMTypeRef ret, LLVMTypeRef *params, unsigned n) {
  LLVMValueRef f = LLVMGetNamedFunction(a->m, name);
  return f ? f : LLVMAddFunction(a->m, name, LLVMFunctionType(ret, params, n, 0));
}

/* The last `left` (0 < left < small rows) rows from `off`: copied into a buffer of
 * `small` rows, the padding filled with copies of the last row (values a real row
 * has, so nothing new can trap), the small clone run on it, the outputs' rows copied
 * back. Returns the status; 1 when the buffer cannot be allocated. */
static void padded_rest(const Dyn *a, LLVMBuilderRef b, LLVMValueRef fn, const BrazeEntrySig *sig,
                        const BrazeDynamicEntry *e, LLVMValueRef clone, LLVMValueRef off, LLVMValueRef left) {
  unsigned n = (unsigned)e->num_args;
  LLVMTypeRef vt = LLVMVoidTypeInContext(a->ctx);
  LLVMValueRef memcpy_fn = libc(a, "memcpy", a->ptr, (LLVMTypeRef[]){a->ptr, a->ptr, a->i64}, 3);
  LLVMValueRef alloc_fn = libc(a, "aligned_alloc", a->ptr, (LLVMTypeRef[]){a->i64, a->i64}, 2);
  LLVMValueRef free_fn = libc(a, "free", vt, (LLVMTypeRef[]){a->ptr}, 1);
  LLVMTypeRef memcpy_ty = LLVMGlobalGetValueType(memcpy_fn);
  int64_t total = 0, *at = malloc((n ? n : 1) * sizeof *at);
  for (unsigned i = 0; i < n; ++i) {
    at[i] = total;
    if (e->rows[i])
      total += (row_bytes(&sig->args[i]) * e->small_rows + 63) / 64 * 64;
  }
  LLVMValueRef buf = LLVMBuildCall2(b, LLVMGlobalGetValueType(alloc_fn), alloc_fn,
                                    (LLVMValueRef[]){LLVMConstInt(a->i64, 64, 0),
                                                     LLVMConstInt(a->i64, (unsigned long long)(total ? total : 64), 0)},
                                    2, "pad");
  LLVMBasicBlockRef oom = LLVMAppendBasicBlockInContext(a->ctx, fn, "pad_oom");
  LLVMBasicBlockRef fill = LLVMAppendBasicBlockInContext(a->ctx, fn, "pad_copy");
  LLVMBuildCondBr(b, LLVMBuildIsNull(b, buf, ""), oom, fill);
  LLVMPositionBuilderAtEnd(b, oom);
  LLVMBuildRet(b, LLVMConstInt(a->i32, 1, 0));
  LLVMPositionBuilderAtEnd(b, fill);
  LLVMValueRef *bases = malloc((n ? n : 1) * sizeof *bases);
  LLVMValueRef last = LLVMBuildSub(b, LLVMBuildAdd(b, off, left, ""), LLVMConstInt(a->i64, 1, 0), "last");
  for (unsigned i = 0; i < n; ++i) {
    bases[i] = LLVMGetParam(fn, i);
    if (!e->rows[i])
      continue;
    LLVMValueRef idx = LLVMConstInt(a->i64, (unsigned long long)at[i], 0);
    bases[i] = LLVMBuildGEP2(b, a->i8, buf, &idx, 1, "seg");
    if ((int)i < sig->num_inputs) {
      int64_t rb = row_bytes(&sig->args[i]);
      LLVMValueRef len = LLVMBuildMul(b, left, LLVMConstInt(a->i64, (unsigned long long)rb, 0), "");
      LLVMBuildCall2(b, memcpy_ty, memcpy_fn,
                     (LLVMValueRef[]){bases[i], rows_at(a, b, LLVMGetParam(fn, i), off, rb), len}, 3, "");
    }
  }
  /* for (j = left; j < small; ++j) row j of each row input = its last row */
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(b);
  LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(a->ctx, fn, "pad_head");
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(a->ctx, fn, "pad_row");
  LLVMBasicBlockRef run = LLVMAppendBasicBlockInContext(a->ctx, fn, "pad_run");
  LLVMBuildBr(b, head);
  LLVMPositionBuilderAtEnd(b, head);
  LLVMValueRef j = LLVMBuildPhi(b, a->i64, "j");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSLT, j, LLVMConstInt(a->i64, (unsigned long long)e->small_rows, 0), ""),
                  body, run);
  LLVMPositionBuilderAtEnd(b, body);
  for (int i = 0; i < sig->num_inputs; ++i) {
    if (!e->rows[i])
      continue;
    int64_t rb = row_bytes(&sig->args[i]);
    LLVMBuildCall2(b, memcpy_ty, memcpy_fn,
                   (LLVMValueRef[]){rows_at(a, b, bases[i], j, rb), rows_at(a, b, LLVMGetParam(fn, (unsigned)i), last, rb),
                                    LLVMConstInt(a->i64, (unsigned long long)rb, 0)},
                   3, "");
  }
  LLVMValueRef next = LLVMBuildAdd(b, j, LLVMConstInt(a->i64, 1, 0), "");
  LLVMBuildBr(b, head);
  LLVMAddIncoming(j, (LLVMValueRef[]){left, next}, (LLVMBasicBlockRef[]){pre, body}, 2);
  LLVMPositionBuilderAtEnd(b, run);
  LLVMValueRef st = call_block(a, b, fn, sig, e, clone, LLVMConstInt(a->i64, 0, 0), bases);
  for (unsigned i = (unsigned)sig->num_inputs; i < n; ++i) {
    if (!e->rows[i])
      continue;
    int64_t rb = row_bytes(&sig->args[i]);
    LLVMValueRef len = LLVMBuildMul(b, left, LLVMConstInt(a->i64, (unsigned long long)rb, 0), "");
    LLVMBuildCall2(b, memcpy_ty, memcpy_fn, (LLVMValueRef[]){rows_at(a, b, LLVMGetParam(fn, i), off, rb), bases[i], len},
                   3, "");
  }
  LLVMBuildCall2(b, LLVMGlobalGetValueType(free_fn), free_fn, &buf, 1, "");
  LLVMBuildRet(b, st);
  free(bases);
  free(at);
}

/* A loop calling `clone` over full blocks of `rows` from `off0`; the builder ends in
 * the block after it, *off_out the first row left, *left_out how many. */
static void block_loop(const Dyn *a, LLVMBuilderRef b, LLVMValueRef fn, const BrazeEntrySig *sig,
                       const BrazeDynamicEntry *e, LLVMValueRef clone, int64_t rows, LLVMValueRef s, LLVMValueRef off0,
                       LLVMBasicBlockRef failed, LLVMValueRef fail_status, LLVMValueRef *off_out, LLVMValueRef *left_out) {
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(b);
  LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(a->ctx, fn, "blocks");
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(a->ctx, fn, "block");
  LLVMBasicBlockRef after = LLVMAppendBasicBlockInContext(a->ctx, fn, "blocks_done");
  LLVMBuildBr(b, head);
  LLVMPositionBuilderAtEnd(b, head);
  LLVMValueRef off = LLVMBuildPhi(b, a->i64, "off");
  LLVMValueRef left = LLVMBuildSub(b, s, off, "left");
  LLVMValueRef n = LLVMConstInt(a->i64, (unsigned long long)rows, 0);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSGE, left, n, ""), body, after);
  LLVMPositionBuilderAtEnd(b, body);
  LLVMValueRef st = call_block(a, b, fn, sig, e, clone, off, NULL);
  LLVMValueRef next = LLVMBuildAdd(b, off, n, "");
  LLVMBasicBlockRef end = LLVMGetInsertBlock(b);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, st, LLVMConstInt(a->i32, 0, 0), ""), head, failed);
  LLVMAddIncoming(off, (LLVMValueRef[]){off0, next}, (LLVMBasicBlockRef[]){pre, end}, 2);
  LLVMAddIncoming(fail_status, &st, &end, 1);
  LLVMPositionBuilderAtEnd(b, after);
  *off_out = off;
  *left_out = left;
}

/* The public entry `int NAME(void *arg..., int64_t s)` of e (its size argument last). */
static LLVMValueRef declare_entry(const Dyn *a, const BrazeDynamicEntry *e) {
  unsigned n = (unsigned)e->num_args;
  LLVMTypeRef *params = malloc((n + 1) * sizeof *params);
  for (unsigned i = 0; i < n; ++i)
    params[i] = a->ptr;
  params[n] = a->i64;
  LLVMValueRef fn = LLVMAddFunction(a->m, e->name, LLVMFunctionType(a->i32, params, n + 1, 0));
  free(params);
  return fn;
}

static LLVMValueRef add_entry(const Dyn *a, const BrazeDynamicEntry *e, const BrazeEntrySig *big,
                              const BrazeEntrySig *small, LLVMValueRef big_fn, LLVMValueRef small_fn) {
  unsigned n = (unsigned)e->num_args;
  LLVMValueRef fn = declare_entry(a, e);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(a->ctx);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(a->ctx, fn, "entry"));
  LLVMValueRef s = LLVMGetParam(fn, n);
  check_size(a, b, fn, e, s);
  LLVMBasicBlockRef cur = LLVMGetInsertBlock(b);
  LLVMBasicBlockRef failed = LLVMAppendBasicBlockInContext(a->ctx, fn, "failed");
  LLVMPositionBuilderAtEnd(b, failed);
  LLVMValueRef st = LLVMBuildPhi(b, a->i32, "status");
  LLVMBuildRet(b, st);
  LLVMPositionBuilderAtEnd(b, cur);
  LLVMValueRef off, left;
  block_loop(a, b, fn, big, e, big_fn, e->block_rows, s, LLVMConstInt(a->i64, 0, 0), failed, st, &off, &left);
  block_loop(a, b, fn, small, e, small_fn, e->small_rows, s, off, failed, st, &off, &left);
  LLVMBasicBlockRef pad = LLVMAppendBasicBlockInContext(a->ctx, fn, "rest");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(a->ctx, fn, "done");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSGT, left, LLVMConstInt(a->i64, 0, 0), ""), pad, done);
  LLVMPositionBuilderAtEnd(b, pad);
  padded_rest(a, b, fn, small, e, small_fn, off, left);
  LLVMPositionBuilderAtEnd(b, done);
  LLVMBuildRet(b, LLVMConstInt(a->i32, 0, 0));
  LLVMDisposeBuilder(b);
  return fn;
}

/* Runtime loops (dynamic-loops.h): int NAME(T *..., int64_t s) checks s, asks
 * NAME__braze_loops_bytes(s) for the workspace, takes the entry's cached one (grown
 * when smaller, kept across calls, claimed with an atomic flag; a call that finds it
 * claimed allocates its own for the call), then calls NAME__braze_loops with a
 * descriptor per pointer (sizes from s, row-major strides), the workspace and s.
 * 1 when an allocation fails (the workspace, or one inside: alloc-checks.c). */
typedef struct {
  LLVMValueRef impl, fn, s, ws, bytes, alloc_failures;
  const BrazeDynamicEntry *e;
  const BrazeEntrySig *sig;
} LoopsCall;

/* The impl call on workspace `ws`; returns the status (alloc-checks' counter). */
static LLVMValueRef loops_call(const Dyn *a, LLVMBuilderRef b, const LoopsCall *c, LLVMValueRef ws) {
  unsigned n = (unsigned)c->e->num_args, cap = 6;
  for (unsigned i = 0; i < n; ++i)
    cap += 3 + 2 * (unsigned)c->sig->args[i].rank;
  LLVMValueRef *args = malloc(cap * sizeof *args);
  unsigned k = 0;
  for (unsigned i = 0; i < n; ++i) {
    const BrazeArgInfo *arg = &c->sig->args[i];
    LLVMValueRef p = LLVMGetParam(c->fn, i);
    args[k++] = p;
    args[k++] = p;
    args[k++] = LLVMConstInt(a->i64, 0, 0);
    LLVMValueRef *sizes = args + k;
    for (int d = 0; d < arg->rank; ++d)
      sizes[d] = is_sym(c->e, c->sig, (int)i, d) ? c->s : LLVMConstInt(a->i64, (unsigned long long)arg->dims[d], 0);
    k += (unsigned)arg->rank;
    LLVMValueRef stride = LLVMConstInt(a->i64, 1, 0);
    for (int d = arg->rank - 1; d >= 0; --d) {
      args[k + (unsigned)d] = stride;
      stride = LLVMBuildMul(b, stride, sizes[d], "");
    }
    k += (unsigned)arg->rank;
  }
  args[k++] = ws; /* memref<?xi8>: ptr, ptr, 0, bytes, 1 */
  args[k++] = ws;
  args[k++] = LLVMConstInt(a->i64, 0, 0);
  args[k++] = c->bytes;
  args[k++] = LLVMConstInt(a->i64, 1, 0);
  args[k++] = c->s;
  LLVMValueRef before = NULL, status;
  if (c->alloc_failures) {
    before = LLVMBuildLoad2(b, a->i64, c->alloc_failures, "failures");
    LLVMSetOrdering(before, LLVMAtomicOrderingMonotonic);
    LLVMSetAlignment(before, 8);
  }
  LLVMBuildCall2(b, LLVMGlobalGetValueType(c->impl), c->impl, args, k, "");
  if (c->alloc_failures) {
    LLVMValueRef after = LLVMBuildLoad2(b, a->i64, c->alloc_failures, "failures_after");
    LLVMSetOrdering(after, LLVMAtomicOrderingMonotonic);
    LLVMSetAlignment(after, 8);
    status = LLVMBuildZExt(b, LLVMBuildICmp(b, LLVMIntNE, before, after, ""), a->i32, "status");
  } else {
    status = LLVMConstInt(a->i32, 0, 0);
  }
  free(args);
  return status;
}

static LLVMValueRef internal_zero(const Dyn *a, LLVMTypeRef t, const char *base, const char *suffix) {
  char *name = cat(base, suffix);
  LLVMValueRef g = LLVMAddGlobal(a->m, t, name);
  free(name);
  LLVMSetInitializer(g, LLVMConstNull(t));
  LLVMSetLinkage(g, LLVMInternalLinkage);
  return g;
}

static LLVMValueRef add_loops_entry(const Dyn *a, const BrazeDynamicEntry *e, const BrazeEntrySig *sig,
                                    LLVMValueRef impl, LLVMValueRef bytes_fn, LLVMValueRef alloc_failures) {
  unsigned n = (unsigned)e->num_args;
  LLVMValueRef fn = declare_entry(a, e);
  LLVMTypeRef vt = LLVMVoidTypeInContext(a->ctx);
  LLVMValueRef alloc_fn = libc(a, "aligned_alloc", a->ptr, (LLVMTypeRef[]){a->i64, a->i64}, 2);
  LLVMValueRef free_fn = libc(a, "free", vt, (LLVMTypeRef[]){a->ptr}, 1);
  LLVMValueRef g_buf = internal_zero(a, a->ptr, e->name, "__braze_ws");
  LLVMValueRef g_cap = internal_zero(a, a->i64, e->name, "__braze_ws_bytes");
  LLVMValueRef g_busy = internal_zero(a, a->i32, e->name, "__braze_ws_busy");
  LLVMBuilderRef b = LLVMCreateBuilderInContext(a->ctx);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(a->ctx, fn, "entry"));
  LoopsCall c = {.impl = impl, .fn = fn, .s = LLVMGetParam(fn, n), .alloc_failures = alloc_failures, .e = e, .sig = sig};
  check_size(a, b, fn, e, c.s);
  LLVMValueRef raw = LLVMBuildCall2(b, LLVMGlobalGetValueType(bytes_fn), bytes_fn, &c.s, 1, "bytes");
  /* at least 64, a multiple of 64 (aligned_alloc's rule) */
  LLVMValueRef r64 = LLVMBuildAnd(b, LLVMBuildAdd(b, raw, LLVMConstInt(a->i64, 63, 0), ""),
                                  LLVMConstInt(a->i64, ~63ull, 0), "");
  LLVMValueRef small = LLVMBuildICmp(b, LLVMIntULT, r64, LLVMConstInt(a->i64, 64, 0), "");
  c.bytes = LLVMBuildSelect(b, small, LLVMConstInt(a->i64, 64, 0), r64, "ws_bytes");
  LLVMValueRef one = LLVMConstInt(a->i32, 1, 0), zero = LLVMConstInt(a->i32, 0, 0);
  LLVMValueRef old = LLVMBuildAtomicRMW(b, LLVMAtomicRMWBinOpXchg, g_busy, one, LLVMAtomicOrderingAcquire, 0);
  LLVMBasicBlockRef own = LLVMAppendBasicBlockInContext(a->ctx, fn, "ws_own");
  LLVMBasicBlockRef grow = LLVMAppendBasicBlockInContext(a->ctx, fn, "ws_grow");
  LLVMBasicBlockRef grow_fail = LLVMAppendBasicBlockInContext(a->ctx, fn, "ws_grow_fail");
  LLVMBasicBlockRef grown = LLVMAppendBasicBlockInContext(a->ctx, fn, "ws_grown");
  LLVMBasicBlockRef run = LLVMAppendBasicBlockInContext(a->ctx, fn, "ws_run");
  LLVMBasicBlockRef other = LLVMAppendBasicBlockInContext(a->ctx, fn, "ws_other");
  LLVMBasicBlockRef other_fail = LLVMAppendBasicBlockInContext(a->ctx, fn, "ws_other_fail");
  LLVMBasicBlockRef other_run = LLVMAppendBasicBlockInContext(a->ctx, fn, "ws_other_run");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, old, zero, ""), own, other);
  /* the cached workspace, grown when smaller */
  LLVMPositionBuilderAtEnd(b, own);
  LLVMValueRef cap = LLVMBuildLoad2(b, a->i64, g_cap, "cap");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, cap, c.bytes, ""), grow, run);
  LLVMPositionBuilderAtEnd(b, grow);
  LLVMValueRef prev = LLVMBuildLoad2(b, a->ptr, g_buf, "prev");
  LLVMBuildCall2(b, LLVMGlobalGetValueType(free_fn), free_fn, &prev, 1, "");
  LLVMValueRef nb = LLVMBuildCall2(b, LLVMGlobalGetValueType(alloc_fn), alloc_fn,
                                   (LLVMValueRef[]){LLVMConstInt(a->i64, 64, 0), c.bytes}, 2, "ws_new");
  LLVMBuildCondBr(b, LLVMBuildIsNull(b, nb, ""), grow_fail, grown);
  LLVMPositionBuilderAtEnd(b, grow_fail);
  LLVMBuildStore(b, LLVMConstNull(a->ptr), g_buf);
  LLVMBuildStore(b, LLVMConstInt(a->i64, 0, 0), g_cap);
  LLVMSetOrdering(LLVMBuildStore(b, zero, g_busy), LLVMAtomicOrderingRelease);
  LLVMBuildRet(b, one);
  LLVMPositionBuilderAtEnd(b, grown);
  LLVMBuildStore(b, nb, g_buf);
  LLVMBuildStore(b, c.bytes, g_cap);
  LLVMBuildBr(b, run);
  LLVMPositionBuilderAtEnd(b, run);
  LLVMValueRef ws = LLVMBuildLoad2(b, a->ptr, g_buf, "ws");
  LLVMValueRef st = loops_call(a, b, &c, ws);
  LLVMSetOrdering(LLVMBuildStore(b, zero, g_busy), LLVMAtomicOrderingRelease);
  LLVMBuildRet(b, st);
  /* claimed by another thread: a workspace for this call */
  LLVMPositionBuilderAtEnd(b, other);
  LLVMValueRef tmp = LLVMBuildCall2(b, LLVMGlobalGetValueType(alloc_fn), alloc_fn,
                                    (LLVMValueRef[]){LLVMConstInt(a->i64, 64, 0), c.bytes}, 2, "ws_tmp");
  LLVMBuildCondBr(b, LLVMBuildIsNull(b, tmp, ""), other_fail, other_run);
  LLVMPositionBuilderAtEnd(b, other_fail);
  LLVMBuildRet(b, one);
  LLVMPositionBuilderAtEnd(b, other_run);
  LLVMValueRef st2 = loops_call(a, b, &c, tmp);
  LLVMBuildCall2(b, LLVMGlobalGetValueType(free_fn), free_fn, &tmp, 1, "");
  LLVMBuildRet(b, st2);
  LLVMDisposeBuilder(b);
  return fn;
}

/* The signature of a runtime-loops entry, from its record (args borrowed). */
static void loops_sig(const BrazeDynamicEntry *e, BrazeEntrySig *sig) {
  memset(sig, 0, sizeof *sig);
  sig->name = (char *)e->name;
  sig->num_inputs = e->num_inputs;
  sig->num_outputs = e->num_args - e->num_inputs;
  sig->args = (BrazeArgInfo *)e->args;
}

/* int NAME_output_shape(int32_t output, int64_t s, int64_t *dims): 4 for a bad output. */
static void add_output_shape(const Dyn *a, const BrazeDynamicEntry *e, const BrazeEntrySig *sig) {
  char *name = cat(e->name, "_output_shape");
  LLVMValueRef fn = LLVMAddFunction(a->m, name, LLVMFunctionType(a->i32, (LLVMTypeRef[]){a->i32, a->i64, a->ptr}, 3, 0));
  free(name);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(a->ctx);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(a->ctx, fn, "entry"));
  LLVMValueRef s = LLVMGetParam(fn, 1);
  check_size(a, b, fn, e, s);
  for (int k = 0; k < sig->num_outputs; ++k) {
    int i = sig->num_inputs + k;
    LLVMBasicBlockRef yes = LLVMAppendBasicBlockInContext(a->ctx, fn, "out");
    LLVMBasicBlockRef no = LLVMAppendBasicBlockInContext(a->ctx, fn, "next");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, LLVMGetParam(fn, 0), LLVMConstInt(a->i32, (unsigned)k, 0), ""), yes,
                    no);
    LLVMPositionBuilderAtEnd(b, yes);
    for (int d = 0; d < sig->args[i].rank; ++d) {
      LLVMValueRef idx = LLVMConstInt(a->i64, (unsigned)d, 0);
      LLVMValueRef slot = LLVMBuildGEP2(b, a->i64, LLVMGetParam(fn, 2), &idx, 1, "");
      LLVMValueRef v = is_sym(e, sig, i, d) ? s : LLVMConstInt(a->i64, (unsigned long long)sig->args[i].dims[d], 0);
      LLVMBuildStore(b, v, slot);
    }
    LLVMBuildRet(b, LLVMConstInt(a->i32, 0, 0));
    LLVMPositionBuilderAtEnd(b, no);
  }
  LLVMBuildRet(b, LLVMConstInt(a->i32, 4, 0));
  LLVMDisposeBuilder(b);
}

static void add_packed_sizes(const Dyn *a, const BrazeDynamicEntry *e, LLVMValueRef entry) {
  char *name = cat(e->name, "_packed_sizes");
  LLVMValueRef fn = LLVMAddFunction(a->m, name, LLVMFunctionType(a->i32, (LLVMTypeRef[]){a->ptr, a->ptr}, 2, 0));
  free(name);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(a->ctx);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(a->ctx, fn, "entry"));
  unsigned n = (unsigned)e->num_args;
  LLVMValueRef *args = malloc((n + 1) * sizeof *args);
  for (unsigned i = 0; i < n; ++i) {
    LLVMValueRef idx = LLVMConstInt(a->i64, i, 0);
    args[i] = LLVMBuildLoad2(b, a->ptr, LLVMBuildGEP2(b, a->ptr, LLVMGetParam(fn, 0), &idx, 1, ""), "");
  }
  args[n] = LLVMBuildLoad2(b, a->i64, LLVMGetParam(fn, 1), "s");
  LLVMBuildRet(b, LLVMBuildCall2(b, LLVMGlobalGetValueType(entry), entry, args, n + 1, ""));
  free(args);
  LLVMDisposeBuilder(b);
}

static void add_tables(const Dyn *a, const BrazeDynamicEntry *e, const BrazeEntrySig *sig) {
  int n = e->num_args;
  LLVMValueRef *dtypes = malloc((size_t)(n ? n : 1) * sizeof *dtypes);
  LLVMValueRef *ranks = malloc((size_t)(n ? n : 1) * sizeof *ranks);
  LLVMValueRef *dims = malloc((size_t)(n ? n : 1) * BRAZE_ABI_MAX_RANK * sizeof *dims);
  for (int i = 0; i < n; ++i) {
    dtypes[i] = LLVMConstInt(a->i32, (unsigned long long)sig->args[i].dtype, 0);
    ranks[i] = LLVMConstInt(a->i32, (unsigned long long)sig->args[i].rank, 0);
    for (int d = 0; d < BRAZE_ABI_MAX_RANK; ++d) {
      int64_t v = d < sig->args[i].rank && is_sym(e, sig, i, d) ? -1 : sig->args[i].dims[d];
      dims[i * BRAZE_ABI_MAX_RANK + d] = LLVMConstInt(a->i64, (unsigned long long)v, 1);
    }
  }
  const char *suffix[] = {"_num_inputs", "_num_outputs", "_arg_dtypes", "_arg_ranks", "_arg_dims",
                          "_num_symbols", "_symbol_bounds"};
  LLVMValueRef vals[7] = {
      LLVMConstInt(a->i32, (unsigned)sig->num_inputs, 0), LLVMConstInt(a->i32, (unsigned)sig->num_outputs, 0),
      LLVMConstArray2(a->i32, dtypes, (uint64_t)n), LLVMConstArray2(a->i32, ranks, (uint64_t)n),
      LLVMConstArray2(a->i64, dims, (uint64_t)n * BRAZE_ABI_MAX_RANK), LLVMConstInt(a->i32, 1, 0),
      LLVMConstArray2(a->i64,
                      (LLVMValueRef[]){LLVMConstInt(a->i64, (unsigned long long)e->min, 0),
                                       LLVMConstInt(a->i64, (unsigned long long)e->max, 0),
                                       LLVMConstInt(a->i64, (unsigned long long)e->div, 0)},
                      3)};
  for (int k = 0; k < 7; ++k) {
    char *name = cat(e->name, suffix[k]);
    global_const(a, name, vals[k]);
    free(name);
  }
  free(dtypes);
  free(ranks);
  free(dims);
}

/* Everything whose name starts with NAME__braze_rows becomes internal. */
static void internalize_clones(const Dyn *a, const char *name) {
  char *prefix = cat(name, BRAZE_ROWS_SUFFIX);
  size_t len = strlen(prefix);
  for (LLVMValueRef f = LLVMGetFirstFunction(a->m); f; f = LLVMGetNextFunction(f)) {
    size_t n;
    const char *s = LLVMGetValueName2(f, &n);
    if (!LLVMIsDeclaration(f) && n >= len && !strncmp(s, prefix, len))
      LLVMSetLinkage(f, LLVMInternalLinkage);
  }
  for (LLVMValueRef g = LLVMGetFirstGlobal(a->m); g; g = LLVMGetNextGlobal(g)) {
    size_t n;
    const char *s = LLVMGetValueName2(g, &n);
    if (!LLVMIsDeclaration(g) && n >= len && !strncmp(s, prefix, len))
      LLVMSetLinkage(g, LLVMInternalLinkage);
  }
  free(prefix);
}

bool braze_cpu_abi_dynamic(LLVMModuleRef m, const BrazeEntrySet *entries, const BrazeDynamicEntry *dyn, int n_dyn,
                           BrazeStr *error) {
  if (n_dyn == 0)
    return true;
  Dyn a = {.m = m, .ctx = LLVMGetModuleContext(m)};
  a.i8 = LLVMInt8TypeInContext(a.ctx);
  a.i32 = LLVMInt32TypeInContext(a.ctx);
  a.i64 = LLVMInt64TypeInContext(a.ctx);
  a.ptr = LLVMPointerTypeInContext(a.ctx, 0);
  LLVMTypeRef buf_ty = LLVMArrayType2(a.i8, 256);
  a.error_buf = LLVMAddGlobal(m, buf_ty, "__braze_last_error");
  LLVMSetInitializer(a.error_buf, LLVMConstNull(buf_ty));
  LLVMSetLinkage(a.error_buf, LLVMInternalLinkage);
  LLVMSetThreadLocal(a.error_buf, 1);
  a.snprintf_ty = LLVMFunctionType(a.i32, (LLVMTypeRef[]){a.ptr, a.i64, a.ptr}, 3, 1);
  a.snprintf_fn = LLVMGetNamedFunction(m, "snprintf");
  if (!a.snprintf_fn)
    a.snprintf_fn = LLVMAddFunction(m, "snprintf", a.snprintf_ty);
  /* const char *braze_last_error(void): this thread's last size error ("" if none). */
  LLVMValueRef last = LLVMAddFunction(m, "braze_last_error", LLVMFunctionType(a.ptr, NULL, 0, 0));
  LLVMBuilderRef b = LLVMCreateBuilderInContext(a.ctx);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(a.ctx, last, "entry"));
  LLVMBuildRet(b, a.error_buf);
  LLVMDisposeBuilder(b);
  LLVMValueRef alloc_failures = LLVMGetNamedGlobal(m, "__braze_alloc_failures");
  for (int i = 0; i < n_dyn; ++i) {
    const BrazeDynamicEntry *e = &dyn[i];
    if (e->loops) {
      char impl_name[200];
      snprintf(impl_name, sizeof impl_name, "%s" BRAZE_LOOPS_SUFFIX, e->name);
      LLVMValueRef impl = LLVMGetNamedFunction(m, impl_name);
      char *bytes_name = cat(impl_name, "_bytes");
      LLVMValueRef bytes_fn = LLVMGetNamedFunction(m, bytes_name);
      free(bytes_name);
      if (!impl || !bytes_fn || LLVMGetNamedFunction(m, e->name)) {
        braze_str_printf(error, "internal error: the runtime loops of entry '%s' are missing", e->name);
        return false;
      }
      BrazeEntrySig sig;
      loops_sig(e, &sig);
      LLVMValueRef fn = add_loops_entry(&a, e, &sig, impl, bytes_fn, alloc_failures);
      add_output_shape(&a, e, &sig);
      add_packed_sizes(&a, e, fn);
      add_tables(&a, e, &sig);
      LLVMSetLinkage(impl, LLVMInternalLinkage);
      LLVMSetLinkage(bytes_fn, LLVMInternalLinkage);
      continue;
    }
    const BrazeEntrySig *big = find_sig(entries, e->name, e->block_rows);
    const BrazeEntrySig *small = find_sig(entries, e->name, e->small_rows);
    char big_name[200], small_name[200];
    snprintf(big_name, sizeof big_name, "%s" BRAZE_ROWS_SUFFIX "%lld", e->name, (long long)e->block_rows);
    snprintf(small_name, sizeof small_name, "%s" BRAZE_ROWS_SUFFIX "%lld", e->name, (long long)e->small_rows);
    LLVMValueRef big_fn = LLVMGetNamedFunction(m, big_name), small_fn = LLVMGetNamedFunction(m, small_name);
    if (!big || !small || !big_fn || !small_fn || big->num_inputs + big->num_outputs != e->num_args ||
        LLVMGetNamedFunction(m, e->name)) {
      braze_str_printf(error, "internal error: the row-block clones of entry '%s' are missing", e->name);
      return false;
    }
    LLVMValueRef fn = add_entry(&a, e, big, small, big_fn, small_fn);
    add_output_shape(&a, e, big);
    add_packed_sizes(&a, e, fn);
    add_tables(&a, e, big);
    internalize_clones(&a, e->name);
  }
  return true;
}
