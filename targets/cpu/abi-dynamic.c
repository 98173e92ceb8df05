/* The ABI of entries with a symbolic dim (targets/common/dynamic-rows.h, decision 0029),
 * written as LLVM IR after abi.c wrapped the static row-block clones:
 *   int NAME(T *in..., T *out..., int64_t s);  s checked against [min, max] and the
 *       divisor (3 and a message in braze_last_error() otherwise); then the block clone
 *       over each full block of rows and the divisor clone over the rest
 *   int NAME_output_shape(int32_t output, int64_t s, int64_t *dims);  output's dims
 *   int NAME_packed_sizes(void **args, const int64_t *sizes);
 *   NAME_num_inputs, _num_outputs, _arg_dtypes, _arg_ranks, _arg_dims (-1: the symbol),
 *   NAME_num_symbols (1), NAME_symbol_bounds (min, max, div)
 * The clones' own symbols are made internal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Call `clone` (int(ptr...)) with each row argument advanced by `off` rows. */
static LLVMValueRef call_block(const Dyn *a, LLVMBuilderRef b, LLVMValueRef fn, const BrazeEntrySig *sig,
                               const BrazeDynamicEntry *e, LLVMValueRef clone, LLVMValueRef off) {
  unsigned n = (unsigned)e->num_args;
  LLVMValueRef *args = malloc((n ? n : 1) * sizeof *args);
  for (unsigned i = 0; i < n; ++i) {
    LLVMValueRef p = LLVMGetParam(fn, i);
    if (e->rows[i]) {
      const BrazeArgInfo *arg = &sig->args[i];
      int64_t row_bytes = (int64_t)braze_rt_dtype_size(arg->dtype);
      for (int d = 1; d < arg->rank; ++d)
        row_bytes *= arg->dims[d];
      LLVMValueRef bytes = LLVMBuildMul(b, off, LLVMConstInt(a->i64, (unsigned long long)row_bytes, 0), "");
      p = LLVMBuildGEP2(b, a->i8, p, &bytes, 1, "rows");
    }
    args[i] = p;
  }
  LLVMValueRef status = LLVMBuildCall2(b, LLVMGlobalGetValueType(clone), clone, args, n, "");
  free(args);
  return status;
}

static LLVMValueRef add_entry(const Dyn *a, const BrazeDynamicEntry *e, const BrazeEntrySig *big,
                              const BrazeEntrySig *small, LLVMValueRef big_fn, LLVMValueRef small_fn) {
  unsigned n = (unsigned)e->num_args;
  LLVMTypeRef *params = malloc((n + 1) * sizeof *params);
  for (unsigned i = 0; i < n; ++i)
    params[i] = a->ptr;
  params[n] = a->i64;
  LLVMValueRef fn = LLVMAddFunction(a->m, e->name, LLVMFunctionType(a->i32, params, n + 1, 0));
  free(params);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(a->ctx);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(a->ctx, fn, "entry");
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMValueRef s = LLVMGetParam(fn, n);
  check_size(a, b, fn, e, s);
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(b);
  LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(a->ctx, fn, "head");
  LLVMBasicBlockRef big_bb = LLVMAppendBasicBlockInContext(a->ctx, fn, "block");
  LLVMBasicBlockRef rest = LLVMAppendBasicBlockInContext(a->ctx, fn, "rest");
  LLVMBasicBlockRef small_bb = LLVMAppendBasicBlockInContext(a->ctx, fn, "small");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(a->ctx, fn, "done");
  LLVMBasicBlockRef failed = LLVMAppendBasicBlockInContext(a->ctx, fn, "failed");
  LLVMBuildBr(b, head);
  LLVMPositionBuilderAtEnd(b, head);
  LLVMValueRef off = LLVMBuildPhi(b, a->i64, "off");
  LLVMValueRef left = LLVMBuildSub(b, s, off, "left");
  LLVMValueRef big_rows = LLVMConstInt(a->i64, (unsigned long long)e->block_rows, 0);
  LLVMValueRef small_rows = LLVMConstInt(a->i64, (unsigned long long)e->small_rows, 0);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSGE, left, big_rows, ""), big_bb, rest);
  LLVMPositionBuilderAtEnd(b, big_bb);
  LLVMValueRef st_big = call_block(a, b, fn, big, e, big_fn, off);
  LLVMValueRef off_big = LLVMBuildAdd(b, off, big_rows, "");
  LLVMBasicBlockRef big_end = LLVMGetInsertBlock(b);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, st_big, LLVMConstInt(a->i32, 0, 0), ""), head, failed);
  LLVMPositionBuilderAtEnd(b, rest);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSGT, left, LLVMConstInt(a->i64, 0, 0), ""), small_bb, done);
  LLVMPositionBuilderAtEnd(b, small_bb);
  LLVMValueRef st_small = call_block(a, b, fn, small, e, small_fn, off);
  LLVMValueRef off_small = LLVMBuildAdd(b, off, small_rows, "");
  LLVMBasicBlockRef small_end = LLVMGetInsertBlock(b);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, st_small, LLVMConstInt(a->i32, 0, 0), ""), head, failed);
  LLVMAddIncoming(off, (LLVMValueRef[]){LLVMConstInt(a->i64, 0, 0), off_big, off_small},
                  (LLVMBasicBlockRef[]){pre, big_end, small_end}, 3);
  LLVMPositionBuilderAtEnd(b, failed);
  LLVMValueRef st = LLVMBuildPhi(b, a->i32, "status");
  LLVMAddIncoming(st, (LLVMValueRef[]){st_big, st_small}, (LLVMBasicBlockRef[]){big_end, small_end}, 2);
  LLVMBuildRet(b, st);
  LLVMPositionBuilderAtEnd(b, done);
  LLVMBuildRet(b, LLVMConstInt(a->i32, 0, 0));
  LLVMDisposeBuilder(b);
  return fn;
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
      LLVMValueRef v = d == 0 && e->rows[i] ? s : LLVMConstInt(a->i64, (unsigned long long)sig->args[i].dims[d], 0);
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
      int64_t v = d == 0 && e->rows[i] ? -1 : sig->args[i].dims[d];
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
  for (int i = 0; i < n_dyn; ++i) {
    const BrazeDynamicEntry *e = &dyn[i];
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
