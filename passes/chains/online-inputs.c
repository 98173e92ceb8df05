/* The inputs of online chains on targets other than cpu: the pointwise kernels that make
 * an online chain's q, k and v (and its bias) run as one kernel with a result each
 * (part of form-row-chains; horizontal fusion after the chains formed).
 *
 * Exported attention feeds the flash kernel from separate pointwise kernels: q's
 * reshape, transpose and scale (form-kernels' kernel after q's projection) and the
 * heads copies form-row-chains made for k and v (passes/chains/heads.h), or RoPE's
 * rotations of q and k. Each is one memory-bound pass of one launch; run as one kernel
 * (an element kernel over the largest result, the smaller ones guarded:
 * targets/cuda/codegen/row.c) they are one launch:
 *
 *   %q = call @cuda_poi_fused_transpose_2(%qkv)            %r:3 = call @cuda_poi_fused_inputs_0(%qkv)
 *   %k = call @cuda_poi_fused_heads_0(%qkv)          ->    %y = call @cuda_chain_...(%r#0, %r#1, %r#2)
 *   %v = call @cuda_poi_fused_heads_1(%qkv)
 *   %y = call @cuda_chain_...(%q, %k, %v)
 *
 * The merged kernel's body is the kernels' bodies one after another, their arguments
 * merged where the calls pass one value (the one qkv read once per element it is read
 * at). A producer is taken when it is a `poi` kernel (of one result or several, as
 * form-kernels' horizontal fusion makes: taken whole) whose results no op before the
 * last producer's call reads, and none of its generics walks an input's outer dim with
 * the innermost loop (a transposing read: cuda-codegen's tiled transpose takes such a
 * kernel alone; kernels of several results are per-thread). The merged call
 * stands where the last producer's was. Remarks (`remarks`): each merge, and each
 * producer left out with the reason. `no-merge-inputs` switches it off. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/chains/chain.h"
#include "support/context.h"
#include "support/diag.h"

enum { MAX_PRODUCERS = 8, MAX_MERGED_ARGS = 64, MAX_MERGED_RESULTS = 32 };

static MlirBlock body_of(MlirOperation op) { return mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)); }

static MlirOperation callee_of(const Symbols *sym, MlirOperation call) {
  MlirAttribute callee = mlirOperationGetAttributeByName(call, braze_ref("callee"));
  if (mlirAttributeIsNull(callee) || !mlirAttributeIsAFlatSymbolRef(callee))
    return (MlirOperation){NULL};
  return mlirSymbolTableLookup(sym->table, mlirFlatSymbolRefAttrGetValue(callee));
}

static bool kind_is(MlirOperation kernel, const char *kind) {
  MlirAttribute k = mlirOperationGetAttributeByName(kernel, braze_ref("kernel.kind"));
  return !mlirAttributeIsNull(k) && mlirAttributeIsAString(k) && braze_ref_eq(mlirStringAttrGetValue(k), kind);
}

static bool is_online_chain(const Symbols *sym, MlirOperation call) {
  if (!braze_op_is(call, "func.call"))
    return false;
  MlirOperation k = callee_of(sym, call);
  return !mlirOperationIsNull(k) && kind_is(k, "chain") &&
         !mlirAttributeIsNull(mlirOperationGetAttributeByName(k, braze_ref("kernel.online")));
}

/* Whether a generic of the kernel reads an input's outer dim with its innermost loop. */
static bool reads_transposed(MlirOperation kernel) {
  for (MlirOperation op = mlirBlockGetFirstOperation(body_of(kernel)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!braze_op_is(op, "linalg.generic"))
      continue;
    MlirAttribute maps = mlirOperationGetAttributeByName(op, braze_ref("indexing_maps"));
    intptr_t n_in = mlirOperationGetNumOperands(op) - 1;
    for (intptr_t i = 0; i < n_in; ++i) {
      MlirAffineMap map = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, i));
      intptr_t loops = mlirAffineMapGetNumDims(map), results = mlirAffineMapGetNumResults(map);
      for (intptr_t r = 0; loops > 0 && r + 1 < results; ++r)
        if (mlirAffineExprIsFunctionOfDim(mlirAffineMapGetResult(map, r), loops - 1))
          return true;
    }
  }
  return false;
}

typedef struct {
  MlirOperation call, kernel;
} Producer;

/* Why the producer of `v` is not taken, or NULL with *p filled. */
static const char *producer_of(const Symbols *sym, MlirValue v, Producer *p) {
  if (!mlirValueIsAOpResult(v))
    return "not-made-by-a-kernel";
  MlirOperation call = mlirOpResultGetOwner(v);
  MlirOperation kernel = braze_op_is(call, "func.call") ? callee_of(sym, call) : (MlirOperation){NULL};
  if (mlirOperationIsNull(kernel) || mlirBlockIsNull(body_of(kernel)))
    return "not-made-by-a-kernel";
  if (!kind_is(kernel, "poi"))
    return "not-a-pointwise-kernel";
  if (reads_transposed(kernel))
    return "reads-an-input-transposed (the tiled transpose takes it alone)";
  *p = (Producer){call, kernel};
  return NULL;
}

/* Whether every user of the producer's results comes after `last` in its block. */
static bool used_after(MlirOperation call, MlirOperation last) {
  for (intptr_t i = 0; i < mlirOperationGetNumResults(call); ++i) {
    MlirValue r = mlirOperationGetResult(call, i);
    for (MlirOpOperand u = mlirValueGetFirstUse(r); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
      MlirOperation user = mlirOpOperandGetOwner(u);
      if (!mlirBlockEqual(mlirOperationGetBlock(user), mlirOperationGetBlock(last)) ||
          !mlirOperationIsBeforeInBlock(last, user))
        return false;
    }
  }
  return true;
}

static MlirOperation return_of(MlirOperation fn) {
  MlirOperation last = {NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(body_of(fn)); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    last = op;
  return last;
}

static void set_attr(MlirOperation op, const char *name, MlirAttribute a) {
  mlirOperationSetAttributeByName(op, braze_ref(name), a);
}

/* A symbol `<target>_poi_fused_inputs_N` not in the table. */
static void fresh_name(const Symbols *sym, const char *target, char *out, size_t size) {
  for (int n = 0;; ++n) {
    snprintf(out, size, "%s_poi_fused_inputs_%d", target, n);
    if (mlirOperationIsNull(mlirSymbolTableLookup(sym->table, braze_ref(out))))
      return;
  }
}

/* One kernel of the producers' bodies, called in place of their calls. */
static void merge(const Options *o, Symbols *sym, MlirOperation func, const Producer *ps, int n, MlirOperation chain) {
  intptr_t total_results = 0, total_args = 0;
  for (int i = 0; i < n; ++i) {
    total_results += mlirOperationGetNumResults(ps[i].call);
    total_args += mlirOperationGetNumOperands(ps[i].call);
  }
  if (total_results > MAX_MERGED_RESULTS || total_args > MAX_MERGED_ARGS)
    return;
  MlirContext ctx = mlirOperationGetContext(func);
  MlirOperation fn = mlirOperationClone(ps[0].kernel);
  MlirBlock body = body_of(fn);
  MlirValue operands[MAX_MERGED_ARGS], results[MAX_MERGED_RESULTS];
  MlirType in_types[MAX_MERGED_ARGS], out_types[MAX_MERGED_RESULTS];
  MlirAttribute ops[256];
  int n_args = 0, n_ops = 0, n_res = 0;
  for (intptr_t a = 0; a < mlirOperationGetNumOperands(ps[0].call); ++a) {
    operands[n_args] = mlirOperationGetOperand(ps[0].call, a);
    in_types[n_args++] = mlirValueGetType(operands[a]);
  }
  MlirOperation ret = return_of(fn);
  for (intptr_t r = 0; r < mlirOperationGetNumOperands(ret); ++r)
    results[n_res++] = mlirOperationGetOperand(ret, r);
  for (int i = 1; i < n; ++i) {
    MlirOperation part = mlirOperationClone(ps[i].kernel);
    MlirBlock pb = body_of(part);
    for (intptr_t a = 0; a < mlirOperationGetNumOperands(ps[i].call); ++a) { /* arguments merged by value passed */
      MlirValue v = mlirOperationGetOperand(ps[i].call, a);
      int at = -1;
      for (int j = 0; j < n_args && at < 0; ++j)
        if (mlirValueEqual(operands[j], v))
          at = j;
      if (at < 0) {
        at = n_args;
        operands[n_args] = v;
        in_types[n_args++] = mlirValueGetType(v);
        mlirBlockAddArgument(body, mlirValueGetType(v), mlirOperationGetLocation(ps[i].call));
      }
      mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(pb, a), mlirBlockGetArgument(body, at));
    }
    MlirOperation pret = return_of(part);
    for (intptr_t r = 0; r < mlirOperationGetNumOperands(pret); ++r)
      results[n_res++] = mlirOperationGetOperand(pret, r);
    for (MlirOperation op = mlirBlockGetFirstOperation(pb), next; !mlirOperationEqual(op, pret); op = next) {
      next = mlirOperationGetNextInBlock(op);
      mlirOperationMoveBefore(op, ret);
    }
    mlirOperationDestroy(part);
  }
  for (int r = 0; r < n_res; ++r)
    out_types[r] = mlirValueGetType(results[r]);
  for (int i = 0; i < n; ++i) {
    MlirAttribute k_ops = mlirOperationGetAttributeByName(ps[i].kernel, braze_ref("kernel.ops"));
    for (intptr_t j = 0; !mlirAttributeIsNull(k_ops) && j < mlirArrayAttrGetNumElements(k_ops) && n_ops < 256; ++j)
      ops[n_ops++] = mlirArrayAttrGetElement(k_ops, j);
  }
  MlirOperationState rs = mlirOperationStateGet(braze_ref("func.return"), mlirOperationGetLocation(ret));
  mlirOperationStateAddOperands(&rs, n_res, results);
  mlirBlockInsertOwnedOperationBefore(body, ret, mlirOperationCreate(&rs));
  mlirOperationDestroy(ret);
  char name[128];
  fresh_name(sym, o->target, name, sizeof name);
  set_attr(fn, "sym_name", mlirStringAttrGet(ctx, braze_ref(name)));
  set_attr(fn, "function_type", mlirTypeAttrGet(mlirFunctionTypeGet(ctx, n_args, in_types, n_res, out_types)));
  set_attr(fn, "kernel.ops", mlirArrayAttrGet(ctx, n_ops, ops));
  set_attr(fn, "kernel.score", mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), 0));
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(func), func, fn);
  mlirSymbolTableInsert(sym->table, fn);
  /* the call, where the last producer's was */
  MlirOperation last = ps[0].call;
  for (int i = 1; i < n; ++i)
    if (mlirOperationIsBeforeInBlock(last, ps[i].call))
      last = ps[i].call;
  MlirNamedAttribute callee =
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, braze_ref("callee")), mlirFlatSymbolRefAttrGet(ctx, braze_ref(name)));
  MlirOperationState cs = mlirOperationStateGet(braze_ref("func.call"), mlirOperationGetLocation(ps[0].call));
  mlirOperationStateAddOperands(&cs, n_args, operands);
  mlirOperationStateAddResults(&cs, n_res, out_types);
  mlirOperationStateAddAttributes(&cs, 1, &callee);
  MlirOperation call = mlirOperationCreate(&cs);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(last), last, call);
  chain_count_call(sym, fn, 1);
  if (o->remarks) {
    BrazeStr names = {0};
    for (int i = 0; i < n; ++i) {
      braze_str_puts(&names, i ? ", @" : "@");
      chain_print_name(&names, ps[i].kernel);
    }
    BrazeStr chain_name = {0};
    chain_print_name(&chain_name, callee_of(sym, chain));
    braze_emit_remark(mlirOperationGetLocation(chain), "form-row-chains: %d kernels making @%s's inputs as one kernel @%s "
                      "with %d results: %s", n, braze_str_cstr(&chain_name), name, n_res, braze_str_cstr(&names));
    braze_str_free(&names);
    braze_str_free(&chain_name);
  }
  for (int i = 0, at = 0; i < n; ++i) {
    for (intptr_t r = 0; r < mlirOperationGetNumResults(ps[i].call); ++r)
      mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(ps[i].call, r), mlirOperationGetResult(call, at++));
    chain_drop_call(sym, ps[i].call, ps[i].kernel);
  }
}

/* The producers of the chain call's tensors, merged when two or more qualify. */
static void merge_chain_inputs(const Options *o, Symbols *sym, MlirOperation func, MlirOperation chain) {
  Producer ps[MAX_PRODUCERS];
  int n = 0;
  for (intptr_t a = 0; a < mlirOperationGetNumOperands(chain) && n < MAX_PRODUCERS; ++a) {
    MlirValue v = mlirOperationGetOperand(chain, a);
    Producer p;
    const char *why = producer_of(sym, v, &p);
    bool seen = false;
    for (int i = 0; !why && i < n; ++i)
      seen |= mlirOperationEqual(ps[i].call, p.call);
    if (seen)
      continue;
    if (why) {
      if (o->remarks && strcmp(why, "not-made-by-a-kernel") != 0 && strcmp(why, "not-a-pointwise-kernel") != 0)
        braze_emit_remark(mlirOperationGetLocation(chain), "form-row-chains: argument %d of the online chain stays its own "
                          "kernel: %s", (int)a, why);
      continue;
    }
    ps[n++] = p;
  }
  /* every producer's result read only after the last producer's call: drop the earliest
   * offender until that holds */
  for (bool changed = true; changed && n >= 2;) {
    changed = false;
    MlirOperation last = ps[0].call;
    for (int i = 1; i < n; ++i)
      if (mlirOperationIsBeforeInBlock(last, ps[i].call))
        last = ps[i].call;
    for (int i = 0; i < n && !changed; ++i)
      if (!mlirOperationEqual(ps[i].call, last) && !used_after(ps[i].call, last)) {
        if (o->remarks)
          braze_emit_remark(mlirOperationGetLocation(ps[i].call), "form-row-chains: this input of an online chain stays "
                            "its own kernel: its result is read before the last input's kernel");
        ps[i] = ps[--n];
        changed = true;
      }
  }
  if (n >= 2)
    merge(o, sym, func, ps, n, chain);
}

void online_merge_inputs(const Options *o, Symbols *sym, MlirOperation func) {
  if (o->no_merge_inputs)
    return;
  MlirBlock body = body_of(func);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (is_online_chain(sym, op))
      merge_chain_inputs(o, sym, func, op);
}
