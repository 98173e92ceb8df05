/* form-kernels, user kernels: packing user-kernel calls into `ext` kernels and
 * user-kernel epilogue fusion (see passes/fusion/user-epilogue.h; the clone's epilogue code is in
 * passes/fusion/user-epilogue-clone.c).
 *
 * Refusal reasons of an epilogue (a consumer of an output), checked in this order:
 *   disabled                 form-kernels{disable}
 *   user-epilogue-disabled   form-kernels{no-user-epilogue}
 *   reads-output             the kernel reads the output (a store of epilogue(v) would
 *                            change what it reads back)
 *   atomic-output            the kernel writes the output atomically (memref.atomic_rmw,
 *                            generic_atomic_rmw): the final value is known only at the end
 *   escaping-output          the kernel passes the output to a call, view or copy
 *   masked-store             a masked / transfer / n-D store to the output
 *   initialized-output       the graph writes the buffer before the call (memref.copy)
 *   multiple-consumers       the output tensor has another user (or is also returned)
 *   not-pointwise            the consumer is not an all-parallel linalg.generic with one
 *                            identity-mapped result
 *   dtype-mismatch           the consumer changes the element type to one that is not a
 *                            float or an integer of whole bytes (a cast to i1); a cast to
 *                            another float or integer is fused: the output buffer takes the
 *                            chain's final element type and its stores write that type
 *   shape-mismatch           the consumer's iteration space differs from the output's shape
 *   layout-mismatch          the consumer reads the output at other indices (a transpose)
 *   epilogue-captures        the consumer's body uses values from outside it, region ops
 *                            or linalg.index
 *   epilogue-input-not-ready another input of the consumer is computed after the call */
#include "passes/fusion/user-epilogue-internal.h"
#include "passes/fusion/user-epilogue.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/diag.h"

/* ---- small helpers ---- */

MlirOperation fu_def_of(MlirValue v) {
  return mlirValueIsAOpResult(v) ? mlirOpResultGetOwner(v) : (MlirOperation){NULL};
}

size_t fu_num_uses(MlirValue v) {
  size_t n = 0;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
    ++n;
  return n;
}

MlirOperation fu_first_user(MlirValue v) {
  MlirOpOperand u = mlirValueGetFirstUse(v);
  return mlirOpOperandIsNull(u) ? (MlirOperation){NULL} : mlirOpOperandGetOwner(u);
}

char *fu_loc_name(MlirLocation loc) {
  const char *name = NULL;
  size_t len = 0;
  return braze_location_name(loc, &name, &len) ? strndup(name, len) : NULL;
}

/* The graph ops a loop-level op computes ("add,tanh"), or its op name. */
char *fu_op_label(MlirOperation op) {
  BrazeStr s = {0};
  MlirAttribute ops = mlirOperationGetAttributeByName(op, braze_ref("braze.ops"));
  for (intptr_t i = 0; !mlirAttributeIsNull(ops) && mlirAttributeIsAArray(ops) && i < mlirArrayAttrGetNumElements(ops);
       ++i) {
    MlirStringRef e = mlirStringAttrGetValue(mlirArrayAttrGetElement(ops, i));
    braze_str_printf(&s, "%s%.*s", i ? "," : "", (int)e.length, e.data);
  }
  if (!s.len) {
    MlirStringRef n = braze_op_name(op);
    braze_str_printf(&s, "%.*s", (int)n.length, n.data);
  }
  char *out = strdup(braze_str_cstr(&s));
  braze_str_free(&s);
  return out;
}

static MlirNamedAttribute named(MlirContext ctx, const char *name, MlirAttribute a) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, braze_ref(name)), a);
}

static MlirOperation create(const char *name, MlirLocation loc, intptr_t n_operands, const MlirValue *operands,
                            intptr_t n_results, const MlirType *results, intptr_t n_attrs,
                            const MlirNamedAttribute *attrs) {
  MlirOperationState st = mlirOperationStateGet(braze_ref(name), loc);
  mlirOperationStateAddOperands(&st, n_operands, operands);
  mlirOperationStateAddResults(&st, n_results, results);
  mlirOperationStateAddAttributes(&st, n_attrs, attrs);
  return mlirOperationCreate(&st);
}

/* The module's symbols, indexed once per graph function (scans per call were
 * quadratic in graphs with thousands of calls): a name's 64-bit hash -> its op. A hash
 * collision only makes a fresh name look taken (the next index is tried). */
static uint64_t name_key(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i)
    h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
  return h | 1; /* 0 is the map's empty key */
}

static void symbols_add(Symbols *t, MlirStringRef name, MlirOperation op) {
  t->ops = realloc(t->ops, (t->count + 1) * sizeof *t->ops);
  t->ops[t->count] = op;
  braze_ptrmap_put(&t->index, name_key(name.data, name.length), (int)t->count++);
}

static void symbols_build(Symbols *t, MlirOperation module) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute sym = mlirOperationGetAttributeByName(op, braze_ref("sym_name"));
    if (!mlirAttributeIsNull(sym) && mlirAttributeIsAString(sym))
      symbols_add(t, mlirStringAttrGetValue(sym), op);
  }
}

static void symbols_free(Symbols *t) {
  free(t->ops);
  braze_ptrmap_free(&t->index);
}

static bool symbol_taken(const Symbols *t, const char *name) {
  return braze_ptrmap_get(&t->index, name_key(name, strlen(name)), -1) >= 0;
}

/* The func.func a call names (null when it is not a function of the module). */
static MlirOperation symbols_callee(const Symbols *t, MlirOperation call) {
  MlirAttribute callee = mlirOperationGetAttributeByName(call, braze_ref("callee"));
  if (mlirAttributeIsNull(callee) || !mlirAttributeIsAFlatSymbolRef(callee))
    return (MlirOperation){NULL};
  MlirStringRef name = mlirFlatSymbolRefAttrGetValue(callee);
  int i = braze_ptrmap_get(&t->index, name_key(name.data, name.length), -1);
  if (i < 0 || !braze_op_is(t->ops[i], "func.func") ||
      !mlirStringRefEqual(mlirStringAttrGetValue(mlirOperationGetAttributeByName(t->ops[i], braze_ref("sym_name"))), name))
    return (MlirOperation){NULL};
  return t->ops[i];
}

/* ---- one call ---- */

int fu_add_value(MlirValue **list, size_t *n, MlirValue v) {
  for (size_t i = 0; i < *n; ++i)
    if (mlirValueEqual((*list)[i], v))
      return (int)i;
  *list = realloc(*list, (*n + 1) * sizeof **list);
  (*list)[*n] = v;
  return (int)(*n)++;
}

static bool call_error(const Pack *p, const char *fmt, int arg, const char *what) {
  char msg[512];
  snprintf(msg, sizeof msg, fmt, arg, what);
  braze_emit_error(mlirOperationGetLocation(p->call), "form-kernels: call of user kernel @%s: %s", p->info->name, msg);
  return false;
}

static const char *op_name_c(MlirOperation op, char *buf, size_t size) {
  MlirStringRef n = braze_op_name(op);
  snprintf(buf, size, "%.*s", (int)n.length, n.data);
  return buf;
}

/* The uses of an output buffer: the call (once), at most one to_tensor after it, at
 * most one memref.copy into it (from a to_buffer) before it. */
static bool scan_output(Pack *p, Out *o, MlirValue buf) {
  char name[96];
  size_t calls = 0;
  for (MlirOpOperand u = mlirValueGetFirstUse(buf); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    if (mlirOperationEqual(user, p->call))
      ++calls;
    else if (braze_op_is(user, "bufferization.to_tensor") && !o->to_tensor.ptr &&
             mlirOperationIsBeforeInBlock(p->call, user))
      o->to_tensor = user;
    else if (braze_op_is(user, "memref.copy") && !o->copy.ptr && mlirOpOperandGetOperandNumber(u) == 1 &&
             mlirOperationIsBeforeInBlock(user, p->call) &&
             braze_op_is(fu_def_of(mlirOperationGetOperand(user, 0)), "bufferization.to_buffer"))
      o->copy = user;
    else
      return call_error(p,
                        "the output buffer (argument %d) is used by '%s': only the call, one "
                        "bufferization.to_tensor after it and one memref.copy into it before it may use it",
                        o->arg, op_name_c(user, name, sizeof name));
  }
  if (calls != 1)
    return call_error(p, "the output buffer (argument %d) is passed to the call %s", o->arg, "more than once");
  return true;
}

static bool scan_operands(Pack *p) {
  intptr_t n = mlirOperationGetNumOperands(p->call);
  if (n != p->info->num_args)
    return call_error(p, "%d operands for %s", (int)n, "a kernel of another arity");
  p->arg_tensor = malloc(((size_t)n + 1) * sizeof *p->arg_tensor);
  p->arg_out = malloc(((size_t)n + 1) * sizeof *p->arg_out);
  p->outs = calloc((size_t)n + 1, sizeof *p->outs);
  for (intptr_t i = 0; i < n; ++i) {
    MlirOperation d = fu_def_of(mlirOperationGetOperand(p->call, i));
    const UkArg *a = &p->info->args[i];
    p->arg_tensor[i] = p->arg_out[i] = -1;
    if (braze_op_is(d, "bufferization.to_buffer")) {
      if (a->written || a->atomic)
        return call_error(p, "argument %d is written by the kernel but is %s", (int)i,
                          "a bufferization.to_buffer of a tensor: outputs must be fresh memref.alloc buffers");
      p->arg_tensor[i] = fu_add_value(&p->tensors, &p->n_tensors, mlirOperationGetOperand(d, 0));
    } else if (braze_op_is(d, "memref.alloc") && mlirOperationGetNumOperands(d) == 0) {
      Out *o = &p->outs[p->n_outs];
      o->arg = (int)i;
      o->alloc = d;
      o->rec.arg = (int)i;
      p->arg_out[i] = (int)p->n_outs++;
      if (!scan_output(p, o, mlirOperationGetOperand(p->call, i)))
        return false;
    } else {
      return call_error(p, "argument %d must be a bufferization.to_buffer of a tensor or a memref.alloc%s", (int)i,
                        "");
    }
  }
  for (size_t k = 0; k < p->n_outs; ++k)
    if (p->outs[k].copy.ptr)
      fu_add_value(&p->tensors, &p->n_tensors, mlirOperationGetOperand(fu_def_of(mlirOperationGetOperand(p->outs[k].copy, 0)), 0));
  return true;
}

/* ---- building the clone, the ext kernel and the call ---- */

static MlirType memref_of_tensor(MlirType t) {
  intptr_t rank = mlirShapedTypeGetRank(t);
  int64_t shape[16];
  for (intptr_t d = 0; d < rank && d < 16; ++d)
    shape[d] = mlirShapedTypeGetDimSize(t, d);
  return mlirMemRefTypeContiguousGet(mlirShapedTypeGetElementType(t), rank, shape, mlirAttributeGetNull());
}

static MlirType tensor_of_memref(MlirType t) {
  intptr_t rank = mlirShapedTypeGetRank(t);
  int64_t shape[16];
  for (intptr_t d = 0; d < rank && d < 16; ++d)
    shape[d] = mlirShapedTypeGetDimSize(t, d);
  return mlirRankedTensorTypeGet(rank, shape, mlirShapedTypeGetElementType(t), mlirAttributeGetNull());
}

/* The buffer of output o after packing: the alloc's, with the element type of the
 * value the graph reads (the chain's last result: a cast's target type). */
static MlirType out_memref_type(const Out *o) {
  MlirType t = mlirValueGetType(mlirOperationGetResult(o->alloc, 0));
  MlirValue v = fu_final_value(o);
  if (!v.ptr)
    return t;
  intptr_t rank = mlirShapedTypeGetRank(t);
  int64_t shape[16];
  for (intptr_t d = 0; d < rank && d < 16; ++d)
    shape[d] = mlirShapedTypeGetDimSize(t, d);
  return mlirMemRefTypeContiguousGet(mlirShapedTypeGetElementType(mlirValueGetType(v)), rank, shape,
                                     mlirAttributeGetNull());
}

static char *unique_name(const Symbols *syms, const char *base, int *counter) {
  for (;;) {
    BrazeStr s = {0};
    braze_str_printf(&s, "%s_%d", base, (*counter)++);
    if (!symbol_taken(syms, braze_str_cstr(&s)))
      return s.data;
    braze_str_free(&s);
  }
}

static void set_function_type(MlirOperation func, MlirBlock entry) {
  MlirContext ctx = mlirOperationGetContext(func);
  intptr_t n = mlirBlockGetNumArguments(entry);
  MlirType *types = calloc((size_t)n + 1, sizeof *types);
  for (intptr_t i = 0; i < n; ++i)
    types[i] = mlirValueGetType(mlirBlockGetArgument(entry, i));
  mlirOperationSetAttributeByName(func, braze_ref("function_type"),
                                  mlirTypeAttrGet(mlirFunctionTypeGet(ctx, n, types, 0, NULL)));
  free(types);
}

/* A copy of the user kernel with each output's epilogue at its store sites, placed
 * before the graph function (with the ext kernel that calls it), named
 * <kernel>_epilogue_<index of the ext kernel> (the next free index when taken). */
static MlirOperation make_clone(Pack *p, int index, char **name_out) {
  int clones = index;
  MlirContext ctx = mlirOperationGetContext(p->callee);
  MlirOperation clone = mlirOperationClone(p->callee);
  char base[256];
  snprintf(base, sizeof base, "%s_epilogue", p->info->name);
  *name_out = unique_name(p->syms, base, &clones);
  mlirOperationSetAttributeByName(clone, braze_ref("sym_name"), mlirStringAttrGet(ctx, braze_ref(*name_out)));
  mlirOperationSetAttributeByName(clone, braze_ref("braze.user_epilogue_of"),
                                  mlirFlatSymbolRefAttrGet(ctx, braze_ref(p->info->name)));
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(p->func), p->func, clone);
  symbols_add(p->syms, braze_ref(*name_out), clone);
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(clone, 0));
  for (size_t i = 0; i < p->n_extra; ++i)
    mlirBlockAddArgument(entry, memref_of_tensor(mlirValueGetType(p->extra[i])), mlirOperationGetLocation(p->call));
  for (size_t k = 0; k < p->n_outs; ++k) {
    const Out *o = &p->outs[k];
    if (!o->n_chain)
      continue;
    fu_apply_epilogue(clone, o->arg, o->chain, o->n_chain, mlirOperationGetResult(o->to_tensor, 0), p->extra,
                      p->n_extra, p->info->num_args);
    /* a chain that casts (to bf16): the output argument takes its type, which its stores now write */
    mlirValueSetType(mlirBlockGetArgument(entry, o->arg), out_memref_type(o));
  }
  set_function_type(clone, entry);
  return clone;
}

static void append_label(BrazeStr *name, char ***seen, size_t *n_seen, const char *label) {
  for (size_t i = 0; i < *n_seen; ++i)
    if (!strcmp((*seen)[i], label))
      return;
  *seen = realloc(*seen, (*n_seen + 1) * sizeof **seen);
  (*seen)[(*n_seen)++] = strdup(label);
  braze_str_printf(name, "_%s", label);
}

/* kernel.ops: the callee, then every absorbed consumer's graph ops; the name lists
 * them once each (at most 6), Inductor style like form-kernels' other kernels. */
static MlirAttribute kernel_ops(Pack *p, const char *target, int *next_index, char **name_out, int *index) {
  MlirContext ctx = mlirOperationGetContext(p->call);
  MlirAttribute *items = calloc(1, sizeof *items);
  size_t n = 0;
  BrazeStr base = {0};
  char **seen = NULL;
  size_t n_seen = 0;
  braze_str_printf(&base, "%s_ext_fused", target);
  items[n++] = mlirStringAttrGet(ctx, braze_ref(p->info->name));
  append_label(&base, &seen, &n_seen, p->info->name);
  for (size_t k = 0; k < p->n_outs; ++k)
    for (size_t c = 0; c < p->outs[k].n_chain; ++c) {
      MlirAttribute ops = mlirOperationGetAttributeByName(p->outs[k].chain[c], braze_ref("braze.ops"));
      for (intptr_t i = 0; !mlirAttributeIsNull(ops) && i < mlirArrayAttrGetNumElements(ops); ++i) {
        MlirAttribute e = mlirArrayAttrGetElement(ops, i);
        items = realloc(items, (n + 1) * sizeof *items);
        items[n++] = e;
        MlirStringRef s = mlirStringAttrGetValue(e);
        char *label = strndup(s.data, s.length);
        if (n_seen < 6)
          append_label(&base, &seen, &n_seen, label);
        free(label);
      }
    }
  for (size_t i = 0; i < n_seen; ++i)
    free(seen[i]);
  free(seen);
  for (;;) {
    BrazeStr s = {0};
    *index = *next_index;
    braze_str_printf(&s, "%s_%d", braze_str_cstr(&base), (*next_index)++);
    if (!symbol_taken(p->syms, braze_str_cstr(&s))) {
      *name_out = s.data;
      break;
    }
    braze_str_free(&s);
  }
  braze_str_free(&base);
  MlirAttribute attr = mlirArrayAttrGet(ctx, (intptr_t)n, items);
  free(items);
  return attr;
}

static int64_t tensor_bytes(MlirType t) {
  MlirType e = mlirShapedTypeGetElementType(t);
  int64_t bits = mlirTypeIsAInteger(e) ? mlirIntegerTypeGetWidth(e) : mlirTypeIsAFloat(e) ? mlirFloatTypeGetWidth(e) : 64;
  int64_t n = 1;
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); ++d)
    n *= mlirShapedTypeGetDimSize(t, d);
  return n * ((bits + 7) / 8);
}

static MlirOperation append(MlirBlock b, MlirOperation op) {
  mlirBlockAppendOwnedOperation(b, op);
  return op;
}

/* The ext kernel: tensors in, the outputs' tensors out, the call pattern inside. */
static MlirOperation make_kernel(Pack *p, const char *name, const char *callee, MlirAttribute ops, int64_t score) {
  MlirContext ctx = mlirOperationGetContext(p->call);
  MlirLocation loc = mlirOperationGetLocation(p->call);
  MlirType *in_types = calloc(p->n_tensors + 1, sizeof *in_types), *out_types = calloc(p->n_outs + 1, sizeof *out_types);
  MlirLocation *locs = calloc(p->n_tensors + 1, sizeof *locs);
  for (size_t i = 0; i < p->n_tensors; ++i) {
    in_types[i] = mlirValueGetType(p->tensors[i]);
    locs[i] = loc;
  }
  MlirBlock block = mlirBlockCreate((intptr_t)p->n_tensors, in_types, locs);
  MlirValue *bufs = calloc(p->n_tensors + 1, sizeof *bufs);
  for (size_t i = 0; i < p->n_tensors; ++i) {
    MlirValue arg = mlirBlockGetArgument(block, (intptr_t)i);
    MlirType mt = memref_of_tensor(in_types[i]);
    bufs[i] = mlirOperationGetResult(append(block, create("bufferization.to_buffer", loc, 1, &arg, 1, &mt, 0, NULL)), 0);
  }
  MlirValue *allocs = calloc(p->n_outs + 1, sizeof *allocs), *results = calloc(p->n_outs + 1, sizeof *results);
  for (size_t k = 0; k < p->n_outs; ++k) {
    const Out *o = &p->outs[k];
    allocs[k] = mlirOperationGetResult(append(block, mlirOperationClone(o->alloc)), 0);
    mlirValueSetType(allocs[k], out_memref_type(o));
    if (o->copy.ptr) {
      MlirOperation copy = append(block, mlirOperationClone(o->copy));
      MlirValue src = mlirOperationGetOperand(fu_def_of(mlirOperationGetOperand(o->copy, 0)), 0);
      mlirOperationSetOperand(copy, 0, bufs[fu_add_value(&p->tensors, &p->n_tensors, src)]);
      mlirOperationSetOperand(copy, 1, allocs[k]);
    }
  }
  size_t n_args = (size_t)p->info->num_args + p->n_extra;
  MlirValue *args = calloc(n_args + 1, sizeof *args);
  for (int i = 0; i < p->info->num_args; ++i)
    args[i] = p->arg_tensor[i] >= 0 ? bufs[p->arg_tensor[i]] : allocs[p->arg_out[i]];
  for (size_t i = 0; i < p->n_extra; ++i)
    args[p->info->num_args + i] = bufs[fu_add_value(&p->tensors, &p->n_tensors, p->extra[i])];
  MlirNamedAttribute callee_attr = named(ctx, "callee", mlirFlatSymbolRefAttrGet(ctx, braze_ref(callee)));
  append(block, create("func.call", loc, (intptr_t)n_args, args, 0, NULL, 1, &callee_attr));
  for (size_t k = 0; k < p->n_outs; ++k) {
    const Out *o = &p->outs[k];
    MlirOperation tt = o->to_tensor.ptr ? mlirOperationClone(o->to_tensor)
                                        : create("bufferization.to_tensor", loc, 1, &allocs[k], 1,
                                                 (MlirType[]){tensor_of_memref(mlirValueGetType(allocs[k]))}, 0, NULL);
    mlirOperationSetOperand(tt, 0, allocs[k]);
    mlirValueSetType(mlirOperationGetResult(tt, 0), tensor_of_memref(mlirValueGetType(allocs[k])));
    results[k] = mlirOperationGetResult(append(block, tt), 0);
    out_types[k] = mlirValueGetType(results[k]);
  }
  append(block, create("func.return", loc, (intptr_t)p->n_outs, results, 0, NULL, 0, NULL));
  MlirType fn_type = mlirFunctionTypeGet(ctx, (intptr_t)p->n_tensors, in_types, (intptr_t)p->n_outs, out_types);
  MlirNamedAttribute attrs[] = {
      named(ctx, "sym_name", mlirStringAttrGet(ctx, braze_ref(name))),
      named(ctx, "function_type", mlirTypeAttrGet(fn_type)),
      named(ctx, "sym_visibility", mlirStringAttrGet(ctx, braze_ref("private"))),
      named(ctx, "kernel.kind", mlirStringAttrGet(ctx, braze_ref("ext"))),
      named(ctx, "kernel.ops", ops),
      named(ctx, "kernel.score", mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), score)),
  };
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, block);
  MlirOperationState st = mlirOperationStateGet(braze_ref("func.func"), loc);
  mlirOperationStateAddAttributes(&st, sizeof attrs / sizeof *attrs, attrs);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  MlirOperation fn = mlirOperationCreate(&st);
  free(in_types);
  free(out_types);
  free(locs);
  free(bufs);
  free(allocs);
  free(results);
  free(args);
  return fn;
}

static void erase(MlirOperation op) {
  mlirOperationRemoveFromParent(op);
  mlirOperationDestroy(op);
}

static void erase_if_dead(MlirOperation op) {
  if (!op.ptr)
    return;
  for (intptr_t i = 0, n = mlirOperationGetNumResults(op); i < n; ++i)
    if (fu_num_uses(mlirOperationGetResult(op, i)))
      return;
  erase(op);
}

/* Replace the call pattern in the graph by one call of the ext kernel. */
static void rewrite_graph(Pack *p, const char *kernel, MlirAttribute ops) {
  MlirContext ctx = mlirOperationGetContext(p->call);
  MlirType *out_types = calloc(p->n_outs + 1, sizeof *out_types);
  for (size_t k = 0; k < p->n_outs; ++k)
    out_types[k] = tensor_of_memref(out_memref_type(&p->outs[k]));
  MlirNamedAttribute attrs[] = {named(ctx, "callee", mlirFlatSymbolRefAttrGet(ctx, braze_ref(kernel))),
                                named(ctx, "braze.ops", ops)};
  MlirOperation call = create("func.call", mlirOperationGetLocation(p->call), (intptr_t)p->n_tensors, p->tensors,
                              (intptr_t)p->n_outs, out_types, 2, attrs);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(p->call), p->call, call);
  MlirOperation *to_buffers = calloc((size_t)p->info->num_args + p->n_outs + 1, sizeof *to_buffers);
  size_t n_tb = 0;
  for (int i = 0; i < p->info->num_args; ++i)
    if (p->arg_tensor[i] >= 0)
      to_buffers[n_tb++] = fu_def_of(mlirOperationGetOperand(p->call, i));
  for (size_t k = 0; k < p->n_outs; ++k) {
    Out *o = &p->outs[k];
    MlirValue v = fu_final_value(o);
    if (v.ptr)
      mlirValueReplaceAllUsesOfWith(v, mlirOperationGetResult(call, (intptr_t)k));
  }
  erase(p->call);
  for (size_t k = 0; k < p->n_outs; ++k) {
    Out *o = &p->outs[k];
    for (size_t c = o->n_chain; c-- > 0;) {
      MlirOperation init = fu_def_of(mlirOperationGetOperand(o->chain[c], mlirOperationGetNumOperands(o->chain[c]) - 1));
      erase(o->chain[c]);
      if (init.ptr && braze_op_is(init, "tensor.empty"))
        erase_if_dead(init);
    }
    if (o->to_tensor.ptr)
      erase(o->to_tensor);
    if (o->copy.ptr) {
      to_buffers[n_tb++] = fu_def_of(mlirOperationGetOperand(o->copy, 0));
      erase(o->copy);
    }
    erase(o->alloc);
  }
  for (size_t i = 0; i < n_tb; ++i) {
    bool seen = false;
    for (size_t j = 0; j < i; ++j)
      seen = seen || mlirOperationEqual(to_buffers[j], to_buffers[i]);
    if (!seen)
      erase_if_dead(to_buffers[i]);
  }
  free(to_buffers);
  free(out_types);
}

static void pack_free(Pack *p) {
  for (size_t k = 0; k < p->n_outs; ++k)
    free(p->outs[k].chain);
  free(p->outs);
  free(p->tensors);
  free(p->arg_tensor);
  free(p->arg_out);
  free(p->extra);
}

static FuCall *new_record(FuRecords *rec, const Pack *p) {
  rec->calls = realloc(rec->calls, (rec->count + 1) * sizeof *rec->calls);
  FuCall *c = &rec->calls[rec->count++];
  memset(c, 0, sizeof *c);
  c->callee = strdup(p->info->name);
  c->loc = mlirOperationGetLocation(p->call);
  c->loc_name = fu_loc_name(c->loc);
  BrazeStr s = {0};
  uk_info_print(p->info, &s);
  c->analysis = strdup(braze_str_cstr(&s));
  braze_str_free(&s);
  return c;
}

static void print_piece(MlirStringRef piece, void *user) { braze_str_append(user, piece.data, piece.length); }

/* A generic's maps and body: each body op printed alone in generic form without its
 * SSA names (op, attributes, types), then where each operand comes from (block
 * argument n, result r of body op k). */
static void generic_key(BrazeStr *key, MlirOperation g, MlirOpPrintingFlags flags) {
  mlirAttributePrint(mlirOperationGetAttributeByName(g, braze_ref("indexing_maps")), print_piece, key);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(g, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    BrazeStr text = {0};
    /* printed detached: in place, the printer numbers the whole enclosing function
     * first (quadratic over a graph with many calls) */
    MlirOperation alone = mlirOperationClone(op);
    mlirOperationPrintWithFlags(alone, flags, print_piece, &text);
    mlirOperationDestroy(alone);
    /* SSA names (%5, %arg1) depend on the enclosing function: drop them */
    for (const char *c = braze_str_cstr(&text); *c; ++c) {
      braze_str_append(key, c, 1);
      if (*c == '%')
        while (c[1] && (isalnum((unsigned char)c[1]) || c[1] == '_' || c[1] == '#'))
          ++c;
    }
    braze_str_free(&text);
    for (intptr_t i = 0, n = mlirOperationGetNumOperands(op); i < n; ++i) {
      MlirValue v = mlirOperationGetOperand(op, i);
      if (mlirValueIsABlockArgument(v)) {
        braze_str_printf(key, "[a%ld]", (long)mlirBlockArgumentGetArgNumber(v));
        continue;
      }
      int k = 0;
      MlirOperation def = mlirOpResultGetOwner(v), q = mlirBlockGetFirstOperation(body);
      for (; !mlirOperationIsNull(q) && !mlirOperationEqual(q, def); q = mlirOperationGetNextInBlock(q))
        ++k;
      braze_str_printf(key, "[o%d.%ld]", k, (long)mlirOpResultGetResultNumber(v));
    }
  }
}

/* What makes two epilogue copies the same: the kernel, the extra arguments' types, and
 * per output its chain of generics (generic_key) with which operand is the running value
 * and which extra argument the others. */
static char *epilogue_key(const Pack *p) {
  BrazeStr key = {0};
  braze_str_printf(&key, "%s|", p->info->name);
  for (size_t i = 0; i < p->n_extra; ++i) {
    mlirTypePrint(mlirValueGetType(p->extra[i]), print_piece, &key);
    braze_str_puts(&key, ";");
  }
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  mlirOpPrintingFlagsPrintGenericOpForm(flags);
  for (size_t k = 0; k < p->n_outs; ++k) {
    const Out *o = &p->outs[k];
    if (!o->n_chain)
      continue;
    braze_str_printf(&key, "|out %d:", o->arg);
    MlirValue cur = mlirOperationGetResult(o->to_tensor, 0);
    for (size_t c = 0; c < o->n_chain; ++c) {
      for (intptr_t i = 0, n = mlirOperationGetNumOperands(o->chain[c]) - 1; i < n; ++i) {
        MlirValue in = mlirOperationGetOperand(o->chain[c], i);
        int e = -1;
        for (size_t x = 0; x < p->n_extra && e < 0; ++x)
          e = mlirValueEqual(p->extra[x], in) ? (int)x : -1;
        braze_str_printf(&key, mlirValueEqual(in, cur) ? "c," : "e%d,", e);
      }
      generic_key(&key, o->chain[c], flags);
      cur = mlirOperationGetResult(o->chain[c], 0);
    }
  }
  mlirOpPrintingFlagsDestroy(flags);
  char *out = strdup(braze_str_cstr(&key));
  braze_str_free(&key);
  return out;
}

/* The epilogue copy for this call: an identical one made earlier in the run, or a new one. */
static char *epilogue_copy(Pack *p, int index, UkCache *cache) {
  char *key = epilogue_key(p);
  for (size_t i = 0; i < cache->num_copies; ++i)
    if (!strcmp(cache->copy_keys[i], key)) {
      free(key);
      return strdup(cache->copy_names[i]);
    }
  char *name = NULL;
  make_clone(p, index, &name);
  cache->copy_keys = realloc(cache->copy_keys, (cache->num_copies + 1) * sizeof *cache->copy_keys);
  cache->copy_names = realloc(cache->copy_names, (cache->num_copies + 1) * sizeof *cache->copy_names);
  cache->copy_keys[cache->num_copies] = key;
  cache->copy_names[cache->num_copies++] = strdup(name);
  return name;
}

static bool pack_call(Symbols *syms, MlirOperation func, MlirOperation call, MlirOperation callee, const FuOptions *o,
                      int *next_index, UkCache *cache, FuRecords *rec) {
  Pack p = {.call = call, .callee = callee, .func = func, .module = mlirOperationGetParentOperation(func), .syms = syms};
  p.info = uk_analyse(cache, callee);
  if (p.info->error) {
    braze_emit_error(mlirOperationGetLocation(call), "form-kernels: user kernel @%s %s", p.info->name, p.info->error);
    return false;
  }
  if (!scan_operands(&p)) {
    pack_free(&p);
    return false;
  }
  int64_t score = 0;
  for (size_t k = 0; k < p.n_outs; ++k) {
    fu_plan_epilogue(&p, &p.outs[k], o);
    for (size_t c = 0; c < p.outs[k].n_chain; ++c)
      score += tensor_bytes(mlirValueGetType(mlirOperationGetResult(p.outs[k].chain[c], 0)));
  }
  FuCall *r = new_record(rec, &p);
  bool fused = score > 0;
  char *kernel = NULL;
  int index = 0;
  MlirAttribute ops = kernel_ops(&p, o->target, next_index, &kernel, &index);
  if (fused)
    r->clone = epilogue_copy(&p, index, cache);
  MlirOperation fn = make_kernel(&p, kernel, fused ? r->clone : p.info->name, ops, score);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(func), func, fn);
  symbols_add(syms, braze_ref(kernel), fn);
  rewrite_graph(&p, kernel, ops);
  r->kernel = kernel;
  r->outs = calloc(p.n_outs + 1, sizeof *r->outs);
  for (size_t k = 0; k < p.n_outs; ++k)
    r->outs[r->num_outs++] = p.outs[k].rec;
  pack_free(&p);
  return true;
}

/* A buffer that an earlier kernel wrote and this call uses again: upstream
 * canonicalization folds to_buffer(to_tensor(%alloc)) into %alloc, and a user may
 * write `zero(%o); accumulate(%x, %o)`. Put value semantics back: the earlier writer's
 * output gets (or keeps) its to_tensor right after it; a call that only reads the
 * buffer reads a to_buffer of that tensor; a call that writes it gets a fresh alloc
 * initialized by a memref.copy of that tensor (a pre-initialized output), which the
 * later users of the buffer then read. */
static void unfold_buffer_reuse(MlirOperation call, const UkInfo *info) {
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(call); i < n && i < info->num_args; ++i) {
    MlirValue buf = mlirOperationGetOperand(call, i);
    if (!braze_op_is(fu_def_of(buf), "memref.alloc"))
      continue;
    MlirOperation writer = {NULL}, tt = {NULL};
    for (MlirOpOperand u = mlirValueGetFirstUse(buf); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
      MlirOperation user = mlirOpOperandGetOwner(u);
      if (braze_op_is(user, "func.call") && !mlirOperationEqual(user, call) &&
          mlirOperationIsBeforeInBlock(user, call) && (!writer.ptr || mlirOperationIsBeforeInBlock(writer, user)))
        writer = user; /* the latest earlier call */
    }
    if (!writer.ptr)
      continue;
    for (MlirOpOperand u = mlirValueGetFirstUse(buf); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
      MlirOperation user = mlirOpOperandGetOwner(u);
      if (braze_op_is(user, "bufferization.to_tensor") && mlirOperationIsBeforeInBlock(writer, user) &&
          mlirOperationIsBeforeInBlock(user, call))
        tt = user;
    }
    MlirLocation loc = mlirOperationGetLocation(call);
    MlirType mt = mlirValueGetType(buf);
    if (!tt.ptr) {
      MlirType t = tensor_of_memref(mt);
      tt = create("bufferization.to_tensor", loc, 1, &buf, 1, &t, 0, NULL);
      mlirBlockInsertOwnedOperationAfter(mlirOperationGetBlock(writer), writer, tt);
    }
    MlirValue tv = mlirOperationGetResult(tt, 0);
    MlirBlock block = mlirOperationGetBlock(call);
    MlirOperation tb = create("bufferization.to_buffer", loc, 1, &tv, 1, &mt, 0, NULL);
    mlirBlockInsertOwnedOperationBefore(block, call, tb);
    MlirValue src = mlirOperationGetResult(tb, 0);
    if (!info->args[i].written && !info->args[i].atomic) {
      mlirOperationSetOperand(call, i, src);
      continue;
    }
    MlirOperation fresh = mlirOperationClone(fu_def_of(buf));
    mlirBlockInsertOwnedOperationBefore(block, call, fresh);
    MlirValue nb = mlirOperationGetResult(fresh, 0), copy_ops[2] = {src, nb};
    mlirBlockInsertOwnedOperationBefore(block, call, create("memref.copy", loc, 2, copy_ops, 0, NULL, 0, NULL));
    /* this call and every later user of the old buffer use the new one */
    for (MlirOpOperand u = mlirValueGetFirstUse(buf); !mlirOpOperandIsNull(u);) {
      MlirOpOperand next = mlirOpOperandGetNextUse(u);
      MlirOperation user = mlirOpOperandGetOwner(u);
      if (mlirOperationEqual(user, call) || mlirOperationIsBeforeInBlock(call, user))
        mlirOperationSetOperand(user, mlirOpOperandGetOperandNumber(u), nb);
      u = next;
    }
  }
}

bool fu_form_user_kernels(MlirOperation func, const FuOptions *o, int *next_index, UkCache *cache, FuRecords *rec) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  size_t n = 0;
  MlirOperation *calls = calloc(1, sizeof *calls);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!braze_op_is(op, "func.call"))
      continue;
    calls = realloc(calls, (n + 1) * sizeof *calls);
    calls[n++] = op;
  }
  bool ok = true;
  Symbols syms = {0};
  symbols_build(&syms, mlirOperationGetParentOperation(func));
  for (size_t i = 0; i < n; ++i) {
    MlirOperation callee = symbols_callee(&syms, calls[i]);
    if (callee.ptr && uk_is_user_kernel(callee) && !uk_analyse(cache, callee)->error)
      unfold_buffer_reuse(calls[i], uk_analyse(cache, callee));
  }
  for (size_t i = 0; i < n && ok; ++i) {
    MlirOperation callee = symbols_callee(&syms, calls[i]);
    if (callee.ptr && uk_is_user_kernel(callee))
      ok = pack_call(&syms, func, calls[i], callee, o, next_index, cache, rec);
  }
  symbols_free(&syms);
  free(calls);
  return ok;
}
