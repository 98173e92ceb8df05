/* Masked loads and stores of 16-bit float vectors (bf16, f16) as i16 vectors, after
 * LLVM's optimization and before code generation.
 *
 * Where the CPU has no native bf16 conversions (no AVX512-BF16: every AVX2 machine),
 * LLVM's x86 backend legalizes `llvm.masked.store.v8bf16` and `llvm.masked.load.v8bf16`
 * (the matmul template's and the loop nests' remainder columns) through f32 lanes:
 * an fpext and an fptrunc per lane, the fptrunc a call of compiler-rt's __truncsfbf2,
 * which libgcc (gcc 12) does not have, so the library does not link. A masked load or
 * store moves bits and converts nothing: the same call on i16 lanes, with bitcasts
 * around it, is the same operation and needs no conversion on any x86 level (f16 on a
 * CPU without F16C would otherwise take __truncsfhf2 per lane, too). */
#include <string.h>

#include "targets/cpu/cpu-target.h"

static bool is_half_vector(LLVMTypeRef t) {
  if (LLVMGetTypeKind(t) != LLVMVectorTypeKind)
    return false;
  LLVMTypeKind k = LLVMGetTypeKind(LLVMGetElementType(t));
  return k == LLVMBFloatTypeKind || k == LLVMHalfTypeKind;
}

static bool callee_named(LLVMValueRef call, const char *prefix) {
  LLVMValueRef callee = LLVMGetCalledValue(call);
  size_t len = 0;
  const char *name = callee ? LLVMGetValueName2(callee, &len) : NULL;
  return name && strncmp(name, prefix, strlen(prefix)) == 0;
}

/* The pointer argument's `align` attribute, copied from `from` to `to`. */
static void copy_align(LLVMValueRef from, LLVMValueRef to, unsigned param) {
  unsigned kind = LLVMGetEnumAttributeKindForName("align", 5);
  LLVMAttributeRef a = LLVMGetCallSiteEnumAttribute(from, param + 1, kind);
  if (a)
    LLVMAddCallSiteAttribute(to, param + 1, a);
}

static LLVMValueRef intrinsic(LLVMModuleRef m, const char *name, LLVMTypeRef vec, LLVMTypeRef ptr) {
  unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
  LLVMTypeRef types[2] = {vec, ptr};
  return LLVMGetIntrinsicDeclaration(m, id, types, 2);
}

/* One call; true when it was replaced (and erased). */
static bool rewrite(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef call) {
  bool store = callee_named(call, "llvm.masked.store.");
  if (!store && !callee_named(call, "llvm.masked.load."))
    return false;
  if (LLVMGetNumArgOperands(call) != 3)
    return false;
  LLVMValueRef data = store ? LLVMGetOperand(call, 0) : LLVMGetOperand(call, 2); /* the value, or the pass-through */
  LLVMTypeRef vt = LLVMTypeOf(data);
  if (!is_half_vector(vt))
    return false;
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMTypeRef it = LLVMVectorType(LLVMInt16TypeInContext(ctx), LLVMGetVectorSize(vt));
  LLVMValueRef ptr = LLVMGetOperand(call, store ? 1 : 0), mask = LLVMGetOperand(call, store ? 2 : 1);
  LLVMPositionBuilderBefore(b, call);
  LLVMValueRef bits = LLVMBuildBitCast(b, data, it, "");
  LLVMValueRef fn = intrinsic(m, store ? "llvm.masked.store" : "llvm.masked.load", it, LLVMTypeOf(ptr));
  LLVMValueRef args[3] = {store ? bits : ptr, store ? ptr : mask, store ? mask : bits};
  LLVMValueRef repl = LLVMBuildCall2(b, LLVMGlobalGetValueType(fn), fn, args, 3, "");
  copy_align(call, repl, store ? 1 : 0);
  if (!store)
    LLVMReplaceAllUsesWith(call, LLVMBuildBitCast(b, repl, vt, ""));
  LLVMInstructionEraseFromParent(call);
  return true;
}

void braze_cpu_half_masked_as_i16(LLVMModuleRef m) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst;) {
        LLVMValueRef next = LLVMGetNextInstruction(inst);
        if (LLVMIsACallInst(inst))
          rewrite(m, b, inst);
        inst = next;
      }
  LLVMDisposeBuilder(b);
}
