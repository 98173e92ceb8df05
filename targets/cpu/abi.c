/* The C ABI wrappers, written as LLVM IR into the translated module.
 *
 * func-to-llvm expands each memref argument into a descriptor: (allocated ptr,
 * aligned ptr, offset, sizes[rank], strides[rank]). `int NAME_ws(T *..., void *ws)`
 * rebuilds those from plain pointers and the static shapes, so C callers pass plain
 * buffers, plus the caller's workspace (NAME_workspace_bytes, 64-byte aligned; unused
 * when 0). `int NAME(T *...)` supplies the workspace itself: one buffer per entry,
 * allocated on the first call and kept, claimed with an atomic flag; a call that
 * finds it claimed by another thread allocates its own for the call. It returns 1
 * when that allocation fails, and so does NAME_ws when an allocation inside the
 * kernels fails (alloc-checks.c). `NAME_packed(void **)` and the shape tables serve
 * generic callers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "targets/cpu/cpu-target.h"

typedef struct {
  LLVMModuleRef m;
  LLVMContextRef ctx;
  LLVMTypeRef i32, i64, ptr;
  LLVMValueRef alloc_failures; /* alloc-checks.c's counter, or NULL */
} Abi;

static bool name_taken(const Abi *a, const char *name) {
  return LLVMGetNamedFunction(a->m, name) || LLVMGetNamedGlobal(a->m, name);
}

/* Only the wrappers and tables are exported: the kernels and the entries' bodies get
 * internal linkage, so LLVM may specialize them and nothing clashes across libraries. */
static void internalize_definitions(LLVMModuleRef m) {
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    if (!LLVMIsDeclaration(fn))
      LLVMSetLinkage(fn, LLVMInternalLinkage);
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
    if (!LLVMIsDeclaration(g) && LLVMGetLinkage(g) == LLVMExternalLinkage)
      LLVMSetLinkage(g, LLVMInternalLinkage);
}

static unsigned descriptor_params(const BrazeEntrySig *sig) {
  unsigned n = 0;
  for (int i = 0; i < sig->num_inputs + sig->num_outputs; ++i)
    n += 3 + 2 * (unsigned)sig->args[i].rank;
  return n;
}

/* Arguments for the impl call: one descriptor per plain pointer. */
static void descriptor_args(const Abi *a, const BrazeEntrySig *sig, LLVMValueRef wrapper, LLVMValueRef *out) {
  unsigned k = 0;
  for (int i = 0; i < sig->num_inputs + sig->num_outputs; ++i) {
    const BrazeArgInfo *arg = &sig->args[i];
    LLVMValueRef p = LLVMGetParam(wrapper, (unsigned)i);
    out[k++] = p;
    out[k++] = p;
    out[k++] = LLVMConstInt(a->i64, 0, 0);
    for (int d = 0; d < arg->rank; ++d)
      out[k++] = LLVMConstInt(a->i64, (unsigned long long)arg->dims[d], 0);
    int64_t stride = 1;
    LLVMValueRef *strides = out + k;
    for (int d = arg->rank - 1; d >= 0; --d) {
      strides[d] = LLVMConstInt(a->i64, (unsigned long long)stride, 0);
      stride *= arg->dims[d];
    }
    k += (unsigned)arg->rank;
  }
}

static LLVMTypeRef pointer_fn_type(const Abi *a, unsigned n_ptrs) {
  LLVMTypeRef *params = malloc((n_ptrs ? n_ptrs : 1) * sizeof *params);
  for (unsigned i = 0; i < n_ptrs; ++i)
    params[i] = a->ptr;
  LLVMTypeRef fty = LLVMFunctionType(a->i32, params, n_ptrs, 0);
  free(params);
  return fty;
}

/* int NAME_ws(T *in..., T *out..., void *ws): descriptors, then the impl call. */
static LLVMValueRef add_ws_wrapper(const Abi *a, const BrazeEntrySig *sig, LLVMValueRef impl, const char *name) {
  unsigned n = (unsigned)(sig->num_inputs + sig->num_outputs);
  LLVMValueRef fn = LLVMAddFunction(a->m, name, pointer_fn_type(a, n + 1));
  LLVMBuilderRef b = LLVMCreateBuilderInContext(a->ctx);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(a->ctx, fn, "entry"));
  unsigned nd = descriptor_params(sig) + (sig->workspace_bytes > 0 ? 5 : 0);
  LLVMValueRef *args = malloc((nd ? nd : 1) * sizeof *args);
  descriptor_args(a, sig, fn, args);
  if (sig->workspace_bytes > 0) { /* memref<Nxi8>: ptr, ptr, offset 0, size N, stride 1 */
    LLVMValueRef *ws = args + descriptor_params(sig);
    ws[0] = ws[1] = LLVMGetParam(fn, n);
    ws[2] = LLVMConstInt(a->i64, 0, 0);
    ws[3] = LLVMConstInt(a->i64, (unsigned long long)sig->workspace_bytes, 0);
    ws[4] = LLVMConstInt(a->i64, 1, 0);
  }
  if (a->alloc_failures) { /* 1 when an allocation inside failed (alloc-checks.c) */
    LLVMValueRef before = LLVMBuildLoad2(b, a->i64, a->alloc_failures, "failures");
    LLVMSetOrdering(before, LLVMAtomicOrderingMonotonic);
    LLVMSetAlignment(before, 8);
    LLVMBuildCall2(b, LLVMGlobalGetValueType(impl), impl, args, nd, "");
    LLVMValueRef after = LLVMBuildLoad2(b, a->i64, a->alloc_failures, "failures_after");
    LLVMSetOrdering(after, LLVMAtomicOrderingMonotonic);
    LLVMSetAlignment(after, 8);
    LLVMValueRef failed = LLVMBuildICmp(b, LLVMIntNE, before, after, "alloc_failed");
    LLVMBuildRet(b, LLVMBuildZExt(b, failed, a->i32, "status"));
  } else {
    LLVMBuildCall2(b, LLVMGlobalGetValueType(impl), impl, args, nd, "");
    LLVMBuildRet(b, LLVMConstInt(a->i32, 0, 0));
  }
  free(args);
  LLVMDisposeBuilder(b);
  return fn;
}

static LLVMValueRef libc_function(const Abi *a, const char *name, LLVMTypeRef type) {
  LLVMValueRef fn = LLVMGetNamedFunction(a->m, name);
  return fn ? fn : LLVMAddFunction(a->m, name, type);
}

static LLVMValueRef internal_global(const Abi *a, LLVMTypeRef type, const char *name) {
  LLVMValueRef g = LLVMAddGlobal(a->m, type, name);
  LLVMSetInitializer(g, LLVMConstNull(type));
  LLVMSetLinkage(g, LLVMInternalLinkage);
  return g;
}

typedef struct {
  LLVMBuilderRef b;
  LLVMValueRef fn, ws_fn, aligned_alloc, free_fn;
  LLVMTypeRef alloc_ty, free_ty;
} WrapperGen;

/* Call NAME_ws with the wrapper's pointers and `ws`; returns its status. */
static LLVMValueRef call_ws(const WrapperGen *w, unsigned n, LLVMValueRef ws) {
  LLVMValueRef *args = malloc((n + 1) * sizeof *args);
  for (unsigned i = 0; i < n; ++i)
    args[i] = LLVMGetParam(w->fn, i);
  args[n] = ws;
  LLVMValueRef status = LLVMBuildCall2(w->b, LLVMGlobalGetValueType(w->ws_fn), w->ws_fn, args, n + 1, "");
  free(args);
  return status;
}

static LLVMValueRef alloc_workspace(const Abi *a, const WrapperGen *w, int64_t bytes) {
  int64_t rounded = (bytes + 63) / 64 * 64; /* aligned_alloc wants a multiple of the alignment */
  LLVMValueRef args[2] = {LLVMConstInt(a->i64, 64, 0), LLVMConstInt(a->i64, (unsigned long long)rounded, 0)};
  return LLVMBuildCall2(w->b, w->alloc_ty, w->aligned_alloc, args, 2, "ws");
}

/* int NAME(T *in..., T *out...): the kept workspace when the flag is free, else a
 * buffer of its own for this call (see the file comment). */
static LLVMValueRef add_wrapper(const Abi *a, const BrazeEntrySig *sig, LLVMValueRef ws_fn, const char *kept_name,
                                const char *busy_name) {
  unsigned n = (unsigned)(sig->num_inputs + sig->num_outputs);
  WrapperGen w = {.b = LLVMCreateBuilderInContext(a->ctx), .ws_fn = ws_fn};
  w.fn = LLVMAddFunction(a->m, sig->name, pointer_fn_type(a, n));
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(a->ctx, w.fn, "entry");
  LLVMPositionBuilderAtEnd(w.b, entry);
  if (sig->workspace_bytes == 0) {
    LLVMBuildRet(w.b, call_ws(&w, n, LLVMConstPointerNull(a->ptr)));
    LLVMDisposeBuilder(w.b);
    return w.fn;
  }
  w.alloc_ty = LLVMFunctionType(a->ptr, (LLVMTypeRef[]){a->i64, a->i64}, 2, 0);
  w.free_ty = LLVMFunctionType(LLVMVoidTypeInContext(a->ctx), (LLVMTypeRef[]){a->ptr}, 1, 0);
  w.aligned_alloc = libc_function(a, "aligned_alloc", w.alloc_ty);
  w.free_fn = libc_function(a, "free", w.free_ty);
  LLVMValueRef kept = internal_global(a, a->ptr, kept_name);
  LLVMValueRef busy = internal_global(a, a->i32, busy_name);
  LLVMBasicBlockRef claimed = LLVMAppendBasicBlockInContext(a->ctx, w.fn, "claimed");
  LLVMBasicBlockRef fresh = LLVMAppendBasicBlockInContext(a->ctx, w.fn, "own");
  LLVMBasicBlockRef have = LLVMAppendBasicBlockInContext(a->ctx, w.fn, "kept");
  LLVMBasicBlockRef fail = LLVMAppendBasicBlockInContext(a->ctx, w.fn, "fail");
  LLVMBasicBlockRef own_run = LLVMAppendBasicBlockInContext(a->ctx, w.fn, "own_run");
  LLVMValueRef zero = LLVMConstInt(a->i32, 0, 0), one = LLVMConstInt(a->i32, 1, 0);
  LLVMValueRef xchg = LLVMBuildAtomicCmpXchg(w.b, busy, zero, one, LLVMAtomicOrderingAcquire,
                                             LLVMAtomicOrderingMonotonic, 0);
  LLVMBuildCondBr(w.b, LLVMBuildExtractValue(w.b, xchg, 1, "won"), claimed, fresh);
  /* claimed: the kept buffer, allocated on first use */
  LLVMPositionBuilderAtEnd(w.b, claimed);
  LLVMValueRef cur = LLVMBuildLoad2(w.b, a->ptr, kept, "cur");
  LLVMBasicBlockRef first = LLVMAppendBasicBlockInContext(a->ctx, w.fn, "first");
  LLVMBuildCondBr(w.b, LLVMBuildIsNull(w.b, cur, ""), first, have);
  LLVMPositionBuilderAtEnd(w.b, first);
  LLVMValueRef made = alloc_workspace(a, &w, sig->workspace_bytes);
  LLVMBuildStore(w.b, made, kept);
  LLVMBasicBlockRef made_ok = LLVMAppendBasicBlockInContext(a->ctx, w.fn, "made");
  LLVMBasicBlockRef release_fail = LLVMAppendBasicBlockInContext(a->ctx, w.fn, "release_fail");
  LLVMBuildCondBr(w.b, LLVMBuildIsNull(w.b, made, ""), release_fail, made_ok);
  LLVMPositionBuilderAtEnd(w.b, release_fail);
  LLVMSetOrdering(LLVMBuildStore(w.b, zero, busy), LLVMAtomicOrderingRelease);
  LLVMBuildBr(w.b, fail);
  LLVMPositionBuilderAtEnd(w.b, made_ok);
  LLVMBuildBr(w.b, have);
  LLVMPositionBuilderAtEnd(w.b, have);
  LLVMValueRef ws = LLVMBuildPhi(w.b, a->ptr, "ws");
  LLVMAddIncoming(ws, (LLVMValueRef[]){cur, made}, (LLVMBasicBlockRef[]){claimed, made_ok}, 2);
  LLVMValueRef status = call_ws(&w, n, ws);
  LLVMSetOrdering(LLVMBuildStore(w.b, zero, busy), LLVMAtomicOrderingRelease);
  LLVMBuildRet(w.b, status);
  /* own: another thread holds the kept buffer */
  LLVMPositionBuilderAtEnd(w.b, fresh);
  LLVMValueRef own = alloc_workspace(a, &w, sig->workspace_bytes);
  LLVMBuildCondBr(w.b, LLVMBuildIsNull(w.b, own, ""), fail, own_run);
  LLVMPositionBuilderAtEnd(w.b, own_run);
  LLVMValueRef own_status = call_ws(&w, n, own);
  LLVMBuildCall2(w.b, w.free_ty, w.free_fn, &own, 1, "");
  LLVMBuildRet(w.b, own_status);
  LLVMPositionBuilderAtEnd(w.b, fail);
  LLVMBuildRet(w.b, one);
  LLVMDisposeBuilder(w.b);
  return w.fn;
}

static void add_packed(const Abi *a, const BrazeEntrySig *sig, LLVMValueRef wrapper, const char *name) {
  LLVMTypeRef fty = LLVMFunctionType(a->i32, (LLVMTypeRef[]){a->ptr}, 1, 0);
  LLVMValueRef fn = LLVMAddFunction(a->m, name, fty);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(a->ctx);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(a->ctx, fn, "entry"));
  unsigned n = (unsigned)(sig->num_inputs + sig->num_outputs);
  LLVMValueRef *args = malloc((n ? n : 1) * sizeof *args);
  for (unsigned i = 0; i < n; ++i) {
    LLVMValueRef idx = LLVMConstInt(a->i64, i, 0);
    LLVMValueRef slot = LLVMBuildGEP2(b, a->ptr, LLVMGetParam(fn, 0), &idx, 1, "");
    args[i] = LLVMBuildLoad2(b, a->ptr, slot, "");
  }
  LLVMValueRef status = LLVMBuildCall2(b, LLVMGlobalGetValueType(wrapper), wrapper, args, n, "");
  LLVMBuildRet(b, status);
  free(args);
  LLVMDisposeBuilder(b);
}

static void add_constant(const Abi *a, const char *name, LLVMTypeRef elem, LLVMValueRef *vals, unsigned n,
                         bool scalar) {
  LLVMValueRef init = scalar ? vals[0] : LLVMConstArray2(elem, vals, n);
  LLVMValueRef g = LLVMAddGlobal(a->m, LLVMTypeOf(init), name);
  LLVMSetInitializer(g, init);
  LLVMSetGlobalConstant(g, 1);
}

static void add_tables(const Abi *a, const BrazeEntrySig *sig, const char *const names[5]) {
  unsigned n = (unsigned)(sig->num_inputs + sig->num_outputs);
  LLVMValueRef nin = LLVMConstInt(a->i32, (unsigned long long)sig->num_inputs, 0);
  LLVMValueRef nout = LLVMConstInt(a->i32, (unsigned long long)sig->num_outputs, 0);
  add_constant(a, names[0], a->i32, &nin, 1, true);
  add_constant(a, names[1], a->i32, &nout, 1, true);
  LLVMValueRef *dtypes = malloc((n ? n : 1) * sizeof *dtypes);
  LLVMValueRef *ranks = malloc((n ? n : 1) * sizeof *ranks);
  LLVMValueRef *dims = malloc((n ? n : 1) * BRAZE_ABI_MAX_RANK * sizeof *dims);
  for (unsigned i = 0; i < n; ++i) {
    dtypes[i] = LLVMConstInt(a->i32, (unsigned long long)sig->args[i].dtype, 0);
    ranks[i] = LLVMConstInt(a->i32, (unsigned long long)sig->args[i].rank, 0);
    for (int d = 0; d < BRAZE_ABI_MAX_RANK; ++d)
      dims[i * BRAZE_ABI_MAX_RANK + d] = LLVMConstInt(a->i64, (unsigned long long)sig->args[i].dims[d], 0);
  }
  add_constant(a, names[2], a->i32, dtypes, n, false);
  add_constant(a, names[3], a->i32, ranks, n, false);
  add_constant(a, names[4], a->i64, dims, n * BRAZE_ABI_MAX_RANK, false);
  free(dtypes);
  free(ranks);
  free(dims);
}

/* The entries' names; an entry with a symbolic dim stands for its row-block clones. */
static void add_entry_names(const Abi *a, const BrazeEntrySet *entries, const BrazeDynamicEntry *dyn, int n_dyn) {
  size_t n = 0, total = entries->count + (size_t)n_dyn;
  LLVMValueRef *ptrs = malloc((total + 1) * sizeof *ptrs);
  for (size_t k = 0; k < total; ++k) {
    if (k < entries->count && strstr(entries->items[k].name, BRAZE_ROWS_SUFFIX))
      continue;
    const char *name = k < entries->count ? entries->items[k].name : dyn[k - entries->count].name;
    size_t i = n++;
    LLVMValueRef str = LLVMConstStringInContext2(a->ctx, name, strlen(name), 0);
    LLVMValueRef g = LLVMAddGlobal(a->m, LLVMTypeOf(str), ".braze.entry_name");
    LLVMSetInitializer(g, str);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
    ptrs[i] = g;
  }
  ptrs[n] = LLVMConstPointerNull(a->ptr);
  add_constant(a, "braze_entry_names", a->ptr, ptrs, (unsigned)n + 1, false);
  free(ptrs);
}

static bool wrap_entry(const Abi *a, const BrazeEntrySig *sig, BrazeStr *error) {
  LLVMValueRef impl = LLVMGetNamedFunction(a->m, sig->name);
  if (!impl || LLVMIsDeclaration(impl) || LLVMCountParams(impl) != descriptor_params(sig) + (sig->workspace_bytes > 0 ? 5u : 0u) ||
      LLVMGetTypeKind(LLVMGetReturnType(LLVMGlobalGetValueType(impl))) != LLVMVoidTypeKind) {
    braze_str_printf(error, "entry '%s' was not lowered to the expected memref-descriptor signature", sig->name);
    return false;
  }
  static const char *const suffixes[] = {"_num_inputs",      "_num_outputs", "_arg_dtypes",     "_arg_ranks",
                                         "_arg_dims",        "_packed",      "__braze_impl",    "_ws",
                                         "_workspace_bytes", "__braze_ws",   "__braze_ws_busy"};
  enum { NSUF = sizeof suffixes / sizeof *suffixes };
  char *names[NSUF];
  bool ok = true;
  for (int i = 0; i < NSUF; ++i) {
    size_t len = strlen(sig->name) + strlen(suffixes[i]) + 1;
    names[i] = malloc(len);
    snprintf(names[i], len, "%s%s", sig->name, suffixes[i]);
    if (ok && name_taken(a, names[i])) {
      braze_str_printf(error, "symbol '%s' is reserved for the ABI of entry '%s'", names[i], sig->name);
      ok = false;
    }
  }
  if (ok) {
    LLVMSetValueName2(impl, names[6], strlen(names[6]));
    LLVMValueRef wrapper = add_wrapper(a, sig, add_ws_wrapper(a, sig, impl, names[7]), names[9], names[10]);
    add_packed(a, sig, wrapper, names[5]);
    add_tables(a, sig, (const char *const *)names);
    LLVMValueRef ws_bytes = LLVMConstInt(a->i64, (unsigned long long)sig->workspace_bytes, 0);
    add_constant(a, names[8], a->i64, &ws_bytes, 1, true);
  }
  for (int i = 0; i < NSUF; ++i)
    free(names[i]);
  return ok;
}

bool braze_cpu_abi_wrap(LLVMModuleRef m, const BrazeEntrySet *entries, const BrazeDynamicEntry *dyn, int n_dyn,
                        BrazeStr *error) {
  Abi a = {.m = m, .ctx = LLVMGetModuleContext(m)};
  a.i32 = LLVMInt32TypeInContext(a.ctx);
  a.i64 = LLVMInt64TypeInContext(a.ctx);
  a.ptr = LLVMPointerTypeInContext(a.ctx, 0);
  if (name_taken(&a, "braze_entry_names")) {
    braze_str_puts(error, "symbol 'braze_entry_names' is reserved for the ABI");
    return false;
  }
  if (name_taken(&a, "__braze_alloc_failures")) {
    braze_str_puts(error, "symbol '__braze_alloc_failures' is reserved for the ABI");
    return false;
  }
  internalize_definitions(m);
  a.alloc_failures = braze_cpu_check_allocations(m);
  for (size_t i = 0; i < entries->count; ++i)
    if (!wrap_entry(&a, &entries->items[i], error))
      return false;
  if (!braze_cpu_abi_dynamic(m, entries, dyn, n_dyn, error))
    return false;
  add_entry_names(&a, entries, dyn, n_dyn);
  return true;
}
