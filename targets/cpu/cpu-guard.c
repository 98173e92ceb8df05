/* Every exported entry of a CPU library checks the running CPU before its first kernel
 * (decision 0026). The check (runtime/cpu/cpu-check.c, compiled to LLVM IR for baseline
 * x86-64 when braze is built) is linked into the module; each exported `int` function
 * F becomes F.cpu_checked (internal), and a new F, compiled for baseline x86-64 like the
 * check, returns 2 where the CPU lacks a feature of the library's mask and calls
 * F.cpu_checked otherwise. Nothing compiled for the chosen CPU runs before the check:
 * LLVM does not inline a function that needs more features into one that has fewer. */
#include <stdlib.h>
#include <string.h>

#include "llvm-c/IRReader.h"
#include "llvm-c/Linker.h"
#include "targets/cpu/cpu-model.h"
#include "targets/cpu/cpu-target.h"

extern const char braze_cpu_check_ir[]; /* gen/cpu_check_ir.c, from runtime/cpu/cpu-check.c */

#define CHECK_FN "__braze_cpu_check"
/* What clang gives a function compiled for -march=x86-64 (the check's own attributes). */
#define BASELINE_CPU "x86-64"
#define BASELINE_FEATURES "+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87"

static bool link_check(LLVMModuleRef m, BrazeStr *error) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMMemoryBufferRef buf =
      LLVMCreateMemoryBufferWithMemoryRangeCopy(braze_cpu_check_ir, strlen(braze_cpu_check_ir), "cpu-check.ll");
  LLVMModuleRef rt = NULL;
  char *message = NULL;
  if (LLVMParseIRInContext(ctx, buf, &rt, &message)) { /* takes the buffer */
    braze_str_printf(error, "internal error: the CPU check's IR does not parse: %s", message);
    LLVMDisposeMessage(message);
    return false;
  }
  LLVMSetTarget(rt, LLVMGetTarget(m));
  LLVMSetDataLayout(rt, LLVMGetDataLayoutStr(m));
  if (LLVMLinkModules2(m, rt)) { /* takes rt */
    braze_str_puts(error, "internal error: cannot link the CPU check into the library");
    return false;
  }
  LLVMSetLinkage(LLVMGetNamedFunction(m, CHECK_FN), LLVMInternalLinkage);
  return true;
}

static void set_baseline(LLVMContextRef ctx, LLVMValueRef fn) {
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                          LLVMCreateStringAttribute(ctx, "target-cpu", 10, BASELINE_CPU, strlen(BASELINE_CPU)));
  LLVMAddAttributeAtIndex(
      fn, LLVMAttributeFunctionIndex,
      LLVMCreateStringAttribute(ctx, "target-features", 15, BASELINE_FEATURES, strlen(BASELINE_FEATURES)));
}

static void guard(LLVMModuleRef m, LLVMValueRef fn, LLVMValueRef check, LLVMValueRef mask, LLVMValueRef cpu_name) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  size_t len = 0;
  char *name = strdup(LLVMGetValueName2(fn, &len));
  char *inner = malloc(len + sizeof ".cpu_checked");
  memcpy(inner, name, len);
  memcpy(inner + len, ".cpu_checked", sizeof ".cpu_checked");
  LLVMSetValueName2(fn, inner, strlen(inner));
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  LLVMTypeRef fty = LLVMGlobalGetValueType(fn);
  LLVMValueRef outer = LLVMAddFunction(m, name, fty);
  set_baseline(ctx, outer);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(ctx, outer, "entry");
  LLVMBasicBlockRef refuse = LLVMAppendBasicBlockInContext(ctx, outer, "cpu_lacks_features");
  LLVMBasicBlockRef run = LLVMAppendBasicBlockInContext(ctx, outer, "run");
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMValueRef args2[2] = {mask, cpu_name};
  LLVMValueRef status = LLVMBuildCall2(b, LLVMGlobalGetValueType(check), check, args2, 2, "cpu");
  LLVMValueRef ok = LLVMBuildICmp(b, LLVMIntEQ, status, LLVMConstInt(LLVMInt32TypeInContext(ctx), 0, 0), "cpu_ok");
  LLVMBuildCondBr(b, ok, run, refuse);
  LLVMPositionBuilderAtEnd(b, refuse);
  LLVMBuildRet(b, status);
  LLVMPositionBuilderAtEnd(b, run);
  unsigned n = LLVMCountParams(outer);
  LLVMValueRef *args = calloc(n ? n : 1, sizeof *args);
  for (unsigned i = 0; i < n; ++i)
    args[i] = LLVMGetParam(outer, i);
  LLVMBuildRet(b, LLVMBuildCall2(b, fty, fn, args, n, ""));
  free(args);
  LLVMDisposeBuilder(b);
  free(inner);
  free(name);
}

bool braze_cpu_guard_entries(LLVMModuleRef m, BrazeStr *error) {
  const BrazeCpuModel *cpu = braze_cpu_selected();
  if (LLVMGetNamedFunction(m, CHECK_FN)) {
    braze_str_puts(error, "symbol '" CHECK_FN "' is reserved for the ABI");
    return false;
  }
  /* The exported int functions, before the check's own are linked in. */
  size_t count = 0, cap = 8;
  LLVMValueRef *entries = malloc(cap * sizeof *entries);
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
    LLVMTypeRef ret = LLVMGetReturnType(LLVMGlobalGetValueType(fn));
    if (LLVMIsDeclaration(fn) || LLVMGetLinkage(fn) != LLVMExternalLinkage)
      continue;
    if (LLVMGetTypeKind(ret) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(ret) != 32) {
      set_baseline(LLVMGetModuleContext(m), fn); /* nothing to refuse with: at least no new instructions */
      continue;
    }
    if (count == cap)
      entries = realloc(entries, (cap *= 2) * sizeof *entries);
    entries[count++] = fn;
  }
  bool ok = link_check(m, error);
  if (ok) {
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    LLVMValueRef check = LLVMGetNamedFunction(m, CHECK_FN);
    LLVMValueRef mask = LLVMConstInt(LLVMInt64TypeInContext(ctx), cpu->mask, 0);
    BrazeStr text = {0};
    if (strcmp(cpu->name, "native") == 0)
      braze_str_printf(&text, "native (%s)", cpu->llvm_cpu);
    else
      braze_str_puts(&text, cpu->name);
    LLVMValueRef str = LLVMConstStringInContext2(ctx, text.data, text.len, 0);
    LLVMValueRef name = LLVMAddGlobal(m, LLVMTypeOf(str), "__braze_cpu_name");
    LLVMSetInitializer(name, str);
    LLVMSetGlobalConstant(name, 1);
    LLVMSetLinkage(name, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(name, LLVMGlobalUnnamedAddr);
    braze_str_free(&text);
    for (size_t i = 0; i < count; ++i)
      guard(m, entries[i], check, mask, name);
  }
  free(entries);
  return ok;
}
