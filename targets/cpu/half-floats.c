/* 16-bit floats in the LLVM IR of a CPU library (decision 0026).
 *
 * 1. Rounding to bf16 without AVX512-BF16 (braze_cpu_expand_bf16_rounding, before
 *    LLVM's optimization): every `fptrunc float to bfloat` (scalar or vector) becomes
 *    round-to-nearest-even in i32 arithmetic, NaN kept quiet. LLVM would otherwise call
 *    compiler-rt's __truncsfbf2, which libgcc (gcc 12) lacks. MLIR's arith-expand
 *    does the same for arith.truncf but also expands f32 maximumf/minimumf into
 *    compare-and-select, which LLVM then does not vectorize as a reduction on AVX2
 *    (softmax's row max ran scalar); this rewrite touches bf16 rounding only.
 *    The lowering has made bf16 arithmetic f32 arithmetic first
 *    (arith-emulate-unsupported-floats, math-extend-to-supported-types).
 *
 * 2. Masked loads and stores of 16-bit float vectors (bf16, f16) as i16 vectors
 *    (braze_cpu_half_masked_as_i16, after LLVM's optimization).
 *    Where the CPU has no native bf16 conversions (no AVX512-BF16: every AVX2 machine),
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
  LLVMValueRef old = LLVMGetCalledValue(call);
  LLVMInstructionEraseFromParent(call);
  if (!LLVMGetFirstUse(old))
    LLVMDeleteFunction(old); /* the bf16/f16 intrinsic's declaration, now unused */
  return true;
}

/* An integer constant of `elem`, splat to n lanes where `vec`. */
static LLVMValueRef constant(LLVMTypeRef elem, bool vec, unsigned n, unsigned long long v) {
  LLVMValueRef c = LLVMConstInt(elem, v, 0);
  if (!vec)
    return c;
  LLVMValueRef lanes[64];
  for (unsigned i = 0; i < n; ++i)
    lanes[i] = c;
  return LLVMConstVector(lanes, n);
}

/* fptrunc float (or <N x float>) -> bfloat as integer RNE: (bits + 0x7fff + lsb) >> 16,
 * a NaN as 0x7fc0 with its sign. */
static void expand_rounding(LLVMBuilderRef b, LLVMValueRef inst) {
  LLVMTypeRef to = LLVMTypeOf(inst);
  LLVMValueRef x = LLVMGetOperand(inst, 0);
  LLVMContextRef ctx = LLVMGetTypeContext(to);
  bool vec = LLVMGetTypeKind(to) == LLVMVectorTypeKind;
  unsigned n = vec ? LLVMGetVectorSize(to) : 1;
  LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx), i16 = LLVMInt16TypeInContext(ctx);
  LLVMTypeRef w = vec ? LLVMVectorType(i32, n) : i32, h = vec ? LLVMVectorType(i16, n) : i16;
  LLVMPositionBuilderBefore(b, inst);
  LLVMValueRef bits = LLVMBuildBitCast(b, x, w, "bf16.bits");
  LLVMValueRef lsb = LLVMBuildAnd(b, LLVMBuildLShr(b, bits, constant(i32, vec, n, 16), ""), constant(i32, vec, n, 1), "");
  LLVMValueRef rounded = LLVMBuildAdd(b, LLVMBuildAdd(b, bits, constant(i32, vec, n, 0x7fff), ""), lsb, "");
  LLVMValueRef top = LLVMBuildTrunc(b, LLVMBuildLShr(b, rounded, constant(i32, vec, n, 16), ""), h, "");
  LLVMValueRef sign = LLVMBuildTrunc(b, LLVMBuildLShr(b, bits, constant(i32, vec, n, 16), ""), h, "");
  LLVMValueRef qnan = LLVMBuildOr(b, LLVMBuildAnd(b, sign, constant(i16, vec, n, 0x8000), ""),
                                  constant(i16, vec, n, 0x7fc0), "");
  LLVMValueRef isnan = LLVMBuildFCmp(b, LLVMRealUNO, x, x, "bf16.isnan");
  LLVMValueRef r = LLVMBuildBitCast(b, LLVMBuildSelect(b, isnan, qnan, top, ""), to, "bf16");
  LLVMReplaceAllUsesWith(inst, r);
  LLVMInstructionEraseFromParent(inst);
}

static bool is_float_to_bf16(LLVMValueRef inst) {
  if (LLVMGetInstructionOpcode(inst) != LLVMFPTrunc)
    return false;
  if (LLVMGetTypeKind(LLVMTypeOf(inst)) == LLVMVectorTypeKind && LLVMGetVectorSize(LLVMTypeOf(inst)) > 64)
    return false; /* wider than any vector braze writes: left to LLVM */
  LLVMTypeRef to = LLVMTypeOf(inst), from = LLVMTypeOf(LLVMGetOperand(inst, 0));
  if (LLVMGetTypeKind(to) == LLVMVectorTypeKind) {
    to = LLVMGetElementType(to);
    from = LLVMGetElementType(from);
  }
  return LLVMGetTypeKind(to) == LLVMBFloatTypeKind && LLVMGetTypeKind(from) == LLVMFloatTypeKind;
}

void braze_cpu_expand_bf16_rounding(LLVMModuleRef m) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst;) {
        LLVMValueRef next = LLVMGetNextInstruction(inst);
        if (is_float_to_bf16(inst))
          expand_rounding(b, inst);
        inst = next;
      }
  LLVMDisposeBuilder(b);
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
