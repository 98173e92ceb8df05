/* Allocation failures inside compiled code become the entry's status 1.
 *
 * The kernels allocate little themselves (the entry's intermediates live in its
 * workspace, allocated by the ABI wrapper, abi.c): a kernel-local buffer (memref.alloc
 * of a row buffer, a matmul panel too large for the stack) lowers to a malloc call.
 * In the translated module, before the ABI wrappers exist, every direct call to
 * malloc, aligned_alloc or calloc is followed by a null test: on null the function
 * frees what it allocated earlier in the same block, adds 1 to the library's counter
 * `__braze_alloc_failures` (atomic) and returns at once (a zero value for a non-void
 * function), so nothing is written through the null pointer. `NAME_ws` reads the
 * counter before and after the entry's body and returns 1 when it moved.
 *
 * The counter is per library, not per call: a call that fails always sees its own
 * increment; a call running at the same time as a failing one on another thread may
 * report 1 as well (an error, never a wrong result reported as success). What a
 * failed call left in its outputs is unspecified; it writes nothing else. */
#include <stdlib.h>
#include <string.h>

#include "targets/cpu/cpu-target.h"

static const char counter_name[] = "__braze_alloc_failures";

static bool is_allocation(LLVMValueRef inst) {
  if (LLVMGetInstructionOpcode(inst) != LLVMCall)
    return false;
  LLVMValueRef callee = LLVMGetCalledValue(inst);
  if (!callee || !LLVMIsAFunction(callee))
    return false;
  size_t len = 0;
  const char *name = LLVMGetValueName2(callee, &len);
  return (len == 6 && memcmp(name, "malloc", 6) == 0) || (len == 13 && memcmp(name, "aligned_alloc", 13) == 0) ||
         (len == 6 && memcmp(name, "calloc", 6) == 0);
}

typedef struct {
  LLVMModuleRef m;
  LLVMContextRef ctx;
  LLVMValueRef counter, free_fn;
  LLVMTypeRef i64, ptr, free_ty;
} Checks;

/* Replacing a block's uses also renames it in its successors' PHIs; b keeps its
 * terminator, so they must name b again. The C API cannot set an incoming block:
 * each such PHI is rebuilt. */
static void restore_successor_phis(LLVMBasicBlockRef b, LLVMBasicBlockRef head, LLVMBuilderRef builder) {
  LLVMValueRef term = LLVMGetBasicBlockTerminator(b);
  for (unsigned s = 0, n = term ? LLVMGetNumSuccessors(term) : 0; s < n; ++s) {
    LLVMBasicBlockRef succ = LLVMGetSuccessor(term, s);
    for (LLVMValueRef phi = LLVMGetFirstInstruction(succ), next; phi && LLVMIsAPHINode(phi); phi = next) {
      next = LLVMGetNextInstruction(phi);
      unsigned count = LLVMCountIncoming(phi);
      bool renamed = false;
      for (unsigned k = 0; k < count; ++k)
        renamed |= LLVMGetIncomingBlock(phi, k) == head;
      if (!renamed)
        continue;
      LLVMPositionBuilderBefore(builder, phi);
      LLVMValueRef fixed = LLVMBuildPhi(builder, LLVMTypeOf(phi), "");
      for (unsigned k = 0; k < count; ++k) {
        LLVMValueRef v = LLVMGetIncomingValue(phi, k);
        LLVMBasicBlockRef from = LLVMGetIncomingBlock(phi, k);
        if (from == head)
          from = b;
        LLVMAddIncoming(fixed, &v, &from, 1);
      }
      LLVMReplaceAllUsesWith(phi, fixed);
      size_t len = 0;
      const char *name = LLVMGetValueName2(phi, &len);
      char *kept = strndup(name, len);
      LLVMInstructionEraseFromParent(phi);
      LLVMSetValueName2(fixed, kept, len);
      free(kept);
    }
  }
}

/* The block `b` split before its instruction after `call`: the head (b's instructions
 * up to `call`, branched to from b's predecessors) is a new block; b keeps the rest. */
static LLVMBasicBlockRef split_head(Checks *c, LLVMBasicBlockRef b, LLVMValueRef call, LLVMBuilderRef builder) {
  LLVMBasicBlockRef head = LLVMInsertBasicBlockInContext(c->ctx, b, "alloc");
  LLVMReplaceAllUsesWith(LLVMBasicBlockAsValue(b), LLVMBasicBlockAsValue(head));
  restore_successor_phis(b, head, builder);
  LLVMPositionBuilderAtEnd(builder, head);
  for (LLVMValueRef i = LLVMGetFirstInstruction(b), next; i; i = next) {
    next = LLVMGetNextInstruction(i);
    LLVMInstructionRemoveFromParent(i);
    LLVMInsertIntoBuilder(builder, i);
    if (i == call)
      break;
  }
  return head;
}

/* After `call` (now the last instruction of `head`): on null, free `earlier`, count
 * the failure and return; otherwise continue in `rest`. */
static void add_check(Checks *c, LLVMValueRef fn, LLVMBasicBlockRef head, LLVMBasicBlockRef rest, LLVMValueRef call,
                      LLVMValueRef *earlier, size_t n_earlier, LLVMBuilderRef builder) {
  LLVMBasicBlockRef fail = LLVMAppendBasicBlockInContext(c->ctx, fn, "alloc_failed");
  LLVMPositionBuilderAtEnd(builder, head);
  LLVMValueRef is_null = LLVMBuildIsNull(builder, call, "alloc_null");
  LLVMBuildCondBr(builder, is_null, fail, rest);
  LLVMPositionBuilderAtEnd(builder, fail);
  for (size_t i = 0; i < n_earlier; ++i)
    LLVMBuildCall2(builder, c->free_ty, c->free_fn, &earlier[i], 1, "");
  LLVMBuildAtomicRMW(builder, LLVMAtomicRMWBinOpAdd, c->counter, LLVMConstInt(c->i64, 1, 0),
                     LLVMAtomicOrderingMonotonic, 0);
  LLVMTypeRef ret = LLVMGetReturnType(LLVMGlobalGetValueType(fn));
  if (LLVMGetTypeKind(ret) == LLVMVoidTypeKind)
    LLVMBuildRetVoid(builder);
  else
    LLVMBuildRet(builder, LLVMConstNull(ret));
}

static void check_function(Checks *c, LLVMValueRef fn, LLVMBuilderRef builder) {
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
    LLVMValueRef earlier[64];
    size_t n_earlier = 0;
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i;) {
      if (!is_allocation(i)) {
        i = LLVMGetNextInstruction(i);
        continue;
      }
      LLVMBasicBlockRef head = split_head(c, b, i, builder);
      add_check(c, fn, head, b, i, earlier, n_earlier, builder);
      if (n_earlier < sizeof earlier / sizeof *earlier)
        earlier[n_earlier++] = i;
      i = LLVMGetFirstInstruction(b); /* b now starts after the call */
    }
  }
}

LLVMValueRef braze_cpu_check_allocations(LLVMModuleRef m) {
  Checks c = {.m = m, .ctx = LLVMGetModuleContext(m)};
  c.i64 = LLVMInt64TypeInContext(c.ctx);
  c.ptr = LLVMPointerTypeInContext(c.ctx, 0);
  c.free_ty = LLVMFunctionType(LLVMVoidTypeInContext(c.ctx), &c.ptr, 1, 0);
  LLVMBuilderRef builder = LLVMCreateBuilderInContext(c.ctx);
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
    if (LLVMIsDeclaration(fn))
      continue;
    bool any = false;
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b && !any; b = LLVMGetNextBasicBlock(b))
      for (LLVMValueRef i = LLVMGetFirstInstruction(b); i && !any; i = LLVMGetNextInstruction(i))
        any = is_allocation(i);
    if (!any)
      continue;
    if (!c.counter) {
      c.counter = LLVMAddGlobal(m, c.i64, counter_name);
      LLVMSetInitializer(c.counter, LLVMConstInt(c.i64, 0, 0));
      LLVMSetLinkage(c.counter, LLVMInternalLinkage);
      c.free_fn = LLVMGetNamedFunction(m, "free");
      if (!c.free_fn)
        c.free_fn = LLVMAddFunction(m, "free", c.free_ty);
    }
    check_function(&c, fn, builder);
  }
  LLVMDisposeBuilder(builder);
  return c.counter;
}
