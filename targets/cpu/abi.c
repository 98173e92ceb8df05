/* The C ABI wrappers, written as LLVM IR into the translated module.
 *
 * func-to-llvm expands each memref argument into a descriptor: (allocated ptr,
 * aligned ptr, offset, sizes[rank], strides[rank]). The wrapper `int NAME(T *...)`
 * rebuilds those from plain pointers and the static shapes, so C callers pass plain
 * buffers; `NAME_packed(void **)` and the shape tables serve generic callers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "targets/cpu/cpu.h"

typedef struct {
  LLVMModuleRef m;
  LLVMContextRef ctx;
  LLVMTypeRef i32, i64, ptr;
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

static LLVMValueRef add_wrapper(const Abi *a, const BrazeEntrySig *sig, LLVMValueRef impl) {
  unsigned n = (unsigned)(sig->num_inputs + sig->num_outputs);
  LLVMTypeRef *params = malloc((n ? n : 1) * sizeof *params);
  for (unsigned i = 0; i < n; ++i)
    params[i] = a->ptr;
  LLVMTypeRef fty = LLVMFunctionType(a->i32, params, n, 0);
  free(params);
  LLVMValueRef fn = LLVMAddFunction(a->m, sig->name, fty);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(a->ctx);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(a->ctx, fn, "entry"));
  unsigned nd = descriptor_params(sig);
  LLVMValueRef *args = malloc((nd ? nd : 1) * sizeof *args);
  descriptor_args(a, sig, fn, args);
  LLVMBuildCall2(b, LLVMGlobalGetValueType(impl), impl, args, nd, "");
  LLVMBuildRet(b, LLVMConstInt(a->i32, 0, 0));
  free(args);
  LLVMDisposeBuilder(b);
  return fn;
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

static void add_entry_names(const Abi *a, const BrazeEntrySet *entries) {
  size_t n = entries->count;
  LLVMValueRef *ptrs = malloc((n + 1) * sizeof *ptrs);
  for (size_t i = 0; i < n; ++i) {
    const char *name = entries->items[i].name;
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
  if (!impl || LLVMIsDeclaration(impl) || LLVMCountParams(impl) != descriptor_params(sig) ||
      LLVMGetTypeKind(LLVMGetReturnType(LLVMGlobalGetValueType(impl))) != LLVMVoidTypeKind) {
    braze_str_printf(error, "entry '%s' was not lowered to the expected memref-descriptor signature", sig->name);
    return false;
  }
  static const char *const suffixes[] = {"_num_inputs", "_num_outputs", "_arg_dtypes", "_arg_ranks",
                                         "_arg_dims",   "_packed",      "__braze_impl"};
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
    LLVMValueRef wrapper = add_wrapper(a, sig, impl);
    add_packed(a, sig, wrapper, names[5]);
    add_tables(a, sig, (const char *const *)names);
  }
  for (int i = 0; i < NSUF; ++i)
    free(names[i]);
  return ok;
}

bool braze_cpu_abi_wrap(LLVMModuleRef m, const BrazeEntrySet *entries, BrazeStr *error) {
  Abi a = {.m = m, .ctx = LLVMGetModuleContext(m)};
  a.i32 = LLVMInt32TypeInContext(a.ctx);
  a.i64 = LLVMInt64TypeInContext(a.ctx);
  a.ptr = LLVMPointerTypeInContext(a.ctx, 0);
  if (name_taken(&a, "braze_entry_names")) {
    braze_str_puts(error, "symbol 'braze_entry_names' is reserved for the ABI");
    return false;
  }
  internalize_definitions(m);
  for (size_t i = 0; i < entries->count; ++i)
    if (!wrap_entry(&a, &entries->items[i], error))
      return false;
  add_entry_names(&a, entries);
  return true;
}
