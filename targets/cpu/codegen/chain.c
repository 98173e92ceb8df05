/* cpu-codegen, `chain` kernels (passes/chains/form-row-chains.c): the scf.forall over row
 * blocks becomes one scf.parallel (OpenMP) whose iteration takes memref.subviews of
 * the arguments (dynamic offsets, the sources' strides), gives every intermediate a
 * buffer of the block's shape (the iteration's scratch, in cache: on the stack, on the
 * heap above CH_STACK_BYTES) and calls the block kernels destination-passing, the last
 * one writing straight into its subview of the result:
 *
 *   scf.parallel (%b, %mb) = (0, 0) to (8, 8) step (1, 1) {
 *     %q = memref.subview %arg0[%b, %m, 0] [1, 64, 64] [1, 1, 1] : ... strided<[32768, 64, 1], offset: ?>
 *     %s = memref.alloca() : memref<1x64x512xf32>
 *     func.call @cpu_tem_..._0_rows(%q, %k, %s)
 *     ...
 *   }
 *
 * The block kernels were converted like any kernel (they come first in the module);
 * here their parallel loops become scf.for (the chain's loop is the parallel one) and
 * their arguments take the subviews' strided types, except where a kernel reads an
 * argument as dense memory (the template's collapse of A to one dim) and the subview is
 * not dense (heads read back as rows: a [H, rows, Dh] block of [H, S, Dh]): that block
 * is copied into the iteration's scratch first (dense_input).
 *
 * An attention chain in the online form (form-row-chains outlined its generics:
 * passes/chains/online-outline.c) also has fills of the running max, sum and output and
 * an scf.for over key blocks whose iter_args are those; the loop carries two buffers per
 * iter_arg, this step's values and the next step's, and swaps them (emit_key_loop). */
#include "targets/cpu/codegen/kernel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/diag.h"
#include "support/oplist.h"

/* Per-block intermediates up to this size live on the stack (alloca); larger ones on the
 * heap (memref.alloc, freed at the end of the block's iteration): a parallel iteration
 * runs on an OpenMP worker's stack or the caller's, a few MiB, and long rows (W7 at S =
 * 4096: 2 MiB of scores per 128-row block, twice) overflow it. A failed malloc becomes
 * the entry's status 1 (targets/cpu/alloc-checks.c). */
enum { CH_MAX_VALUES = 64, CH_MAX_RANK = 8, CH_STACK_BYTES = 256 * 1024 };

typedef struct {
  MlirOperation module;
  const char *name;
  CgBuilder body;                  /* inside the scf.parallel */
  MlirValue offsets[CH_MAX_RANK];  /* forall iv -> lb + iv * step */
  MlirValue forall_ivs[CH_MAX_RANK];
  int n_ivs;
  MlirValue from[CH_MAX_VALUES], to[CH_MAX_VALUES]; /* tensor -> memref */
  int n_map;
  MlirValue heap[CH_MAX_VALUES]; /* intermediates on the heap, freed after the block */
  int n_heap;
  CgBuilder alloc;               /* where block buffers go: before the key loop, if any */
  /* in the online form's key loop: the yielded values and the buffers they are written to */
  MlirValue yielded[CH_MAX_RANK], yield_mem[CH_MAX_RANK];
  int n_yielded;
} Chain;

static void map_value(Chain *c, MlirValue from, MlirValue to) {
  if (c->n_map < CH_MAX_VALUES) {
    c->from[c->n_map] = from;
    c->to[c->n_map++] = to;
  }
}

static MlirValue lookup(const Chain *c, MlirValue v) {
  for (int i = 0; i < c->n_map; ++i)
    if (mlirValueEqual(c->from[i], v))
      return c->to[i];
  for (int i = 0; i < c->n_ivs; ++i)
    if (mlirValueEqual(c->forall_ivs[i], v))
      return c->offsets[i];
  return (MlirValue){NULL};
}

static bool fail(const Chain *c, MlirOperation op, const char *what) {
  braze_emit_error(mlirOperationGetLocation(op), "cpu-codegen: chain kernel @%s: %s", c->name, what);
  return false;
}

/* ---- subviews ---- */

/* memref<sizes x elem, strided<[source strides * slice strides], offset: ?>>. */
static MlirType subview_type(MlirType source, MlirAttribute sizes, MlirAttribute slice_strides) {
  intptr_t rank = mlirShapedTypeGetRank(source);
  int64_t shape[CH_MAX_RANK], strides[CH_MAX_RANK], stride = 1;
  for (intptr_t d = rank - 1; d >= 0; --d) {
    strides[d] = stride * mlirDenseI64ArrayGetElement(slice_strides, d);
    stride *= mlirShapedTypeGetDimSize(source, d);
    shape[d] = mlirDenseI64ArrayGetElement(sizes, d);
  }
  MlirContext ctx = mlirTypeGetContext(source);
  MlirAttribute layout = mlirStridedLayoutAttrGet(ctx, mlirShapedTypeGetDynamicStrideOrOffset(), rank, strides);
  return mlirMemRefTypeGet(mlirShapedTypeGetElementType(source), rank, shape, layout, mlirAttributeGetNull());
}

/* memref.subview of `source` with the slice op's static attributes and its dynamic
 * offsets (the forall ivs) mapped; `first_offset` is the slice's first offset operand. */
static MlirValue subview(Chain *c, MlirOperation slice, MlirValue source, intptr_t first_offset) {
  MlirAttribute offs = mlirOperationGetAttributeByName(slice, braze_ref("static_offsets"));
  MlirAttribute sizes = mlirOperationGetAttributeByName(slice, braze_ref("static_sizes"));
  MlirAttribute strides = mlirOperationGetAttributeByName(slice, braze_ref("static_strides"));
  MlirValue operands[1 + CH_MAX_RANK];
  operands[0] = source;
  int n_dyn = 0;
  for (intptr_t d = 0; d < mlirDenseArrayGetNumElements(offs); ++d)
    if (mlirDenseI64ArrayGetElement(offs, d) == mlirShapedTypeGetDynamicStrideOrOffset()) {
      operands[1 + n_dyn] = lookup(c, mlirOperationGetOperand(slice, first_offset + n_dyn));
      if (mlirValueIsNull(operands[1 + n_dyn]))
        return (MlirValue){NULL};
      ++n_dyn;
    }
  MlirContext ctx = c->body.ctx;
  int32_t segments[4] = {1, n_dyn, 0, 0};
  MlirNamedAttribute attrs[4] = {
      cg_named(ctx, "static_offsets", offs), cg_named(ctx, "static_sizes", sizes),
      cg_named(ctx, "static_strides", strides),
      cg_named(ctx, "operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 4, segments))};
  MlirType type = subview_type(mlirValueGetType(source), sizes, strides);
  return mlirOperationGetResult(cg_create(&c->body, "memref.subview", 1 + n_dyn, operands, 1, &type, 4, attrs), 0);
}

/* ---- the block kernels ---- */


/* The converted block kernel takes the operand types of its one call. */
static void retype_callee(MlirOperation callee, intptr_t n, const MlirValue *operands) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(callee, 0));
  MlirType types[CH_MAX_VALUES];
  for (intptr_t i = 0; i < n && i < CH_MAX_VALUES; ++i) {
    types[i] = mlirValueGetType(operands[i]);
    mlirBlockArgumentSetType(mlirBlockGetArgument(entry, i), types[i]);
  }
  MlirType fn = mlirFunctionTypeGet(mlirOperationGetContext(callee), n, types, 0, NULL);
  mlirOperationSetAttributeByName(callee, braze_ref("function_type"), mlirTypeAttrGet(fn));
}

/* The scf.parallel_insert_slice writing `v` into the result, or null. */
static MlirOperation insert_of(MlirOperation forall, MlirValue v) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(forall, 0));
  MlirOperation term = mlirBlockGetTerminator(body);
  MlirBlock inner = mlirRegionGetFirstBlock(mlirOperationGetRegion(term, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(inner); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (braze_op_is(op, "tensor.parallel_insert_slice") && mlirValueEqual(mlirOperationGetOperand(op, 0), v))
      return op;
  return (MlirOperation){NULL};
}

/* A buffer for a block intermediate of tensor type `t`: on the stack up to
 * CH_STACK_BYTES, else on the heap (freed at the end of the block's iteration). */
static MlirValue block_buffer(Chain *c, MlirType t) {
  MlirType mt = cg_memref_like(t);
  MlirNamedAttribute align = cg_named(c->body.ctx, "alignment", mlirIntegerAttrGet(mlirIntegerTypeGet(c->body.ctx, 64), 64));
  int64_t bytes = cg_elem_bytes(mlirShapedTypeGetElementType(mt)) * cg_num_elements(mt);
  bool heap = bytes > CH_STACK_BYTES && c->n_heap < CH_MAX_VALUES;
  MlirValue mem =
      mlirOperationGetResult(cg_create(&c->alloc, heap ? "memref.alloc" : "memref.alloca", 0, NULL, 1, &mt, 1, &align), 0);
  if (heap)
    c->heap[c->n_heap++] = mem;
  return mem;
}

/* A loop nest over the shape of `t` at *b (none over dims of size 1): *b becomes the
 * innermost body, idx its indices. */
static void block_loops(CgBuilder *b, MlirType t, MlirValue *idx) {
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); ++d) {
    CgBuilder inner;
    if (mlirShapedTypeGetDimSize(t, d) == 1) {
      idx[d] = cg_index(b, 0);
      continue;
    }
    cg_for(b, cg_index(b, 0), cg_index(b, mlirShapedTypeGetDimSize(t, d)), 0, NULL, &inner, &idx[d], NULL);
    cg_yield(&inner, 0, NULL);
    inner.before = mlirBlockGetTerminator(inner.block);
    *b = inner;
  }
}

/* Whether a memref's elements are one dense run in row-major order (dims of size 1
 * have any stride): what a collapse to one dim needs. */
static bool is_dense(MlirType t) {
  intptr_t rank = mlirShapedTypeGetRank(t);
  int64_t strides[CH_MAX_RANK], offset, expect = 1;
  if (rank > CH_MAX_RANK || mlirLogicalResultIsFailure(mlirMemRefTypeGetStridesAndOffset(t, strides, &offset)))
    return false;
  for (intptr_t d = rank - 1; d >= 0; --d) {
    int64_t size = mlirShapedTypeGetDimSize(t, d);
    if (size != 1 && strides[d] != expect)
      return false;
    expect *= size;
  }
  return true;
}

/* Whether the converted block kernel reads its argument `arg` as dense memory: a
 * memref.collapse_shape or expand_shape of it (the matmul template reads A's runs
 * through a collapse to one dim: targets/cpu/matmul/template-emit.c), a reinterpret_cast
 * or a view. Such an argument cannot take a strided subview's type. */
static bool reads_dense(MlirValue arg) {
  static const char *const dense_ops[] = {"memref.collapse_shape", "memref.expand_shape", "memref.reinterpret_cast",
                                          "memref.view"};
  for (MlirOpOperand use = mlirValueGetFirstUse(arg); !mlirOpOperandIsNull(use); use = mlirOpOperandGetNextUse(use))
    for (size_t i = 0; i < sizeof dense_ops / sizeof *dense_ops; ++i)
      if (braze_op_is(mlirOpOperandGetOwner(use), dense_ops[i]))
        return true;
  return false;
}

/* `from` into `to` (same shape) by a loop nest at the chain's body: LLVM vectorizes the
 * inner dim. No memref.copy: between strided memrefs it lowers to a call into MLIR's
 * runner library, which a braze library does not link. */
static void copy_block(Chain *c, MlirValue from, MlirValue to) {
  MlirType t = mlirValueGetType(from);
  MlirValue idx[CH_MAX_RANK];
  CgBuilder b = c->body;
  block_loops(&b, t, idx);
  intptr_t rank = mlirShapedTypeGetRank(t);
  cg_store(&b, cg_load(&b, from, rank, idx), to, rank, idx);
}

/* Whether every dense read of `arg` is a memref.collapse_shape (the template's A). */
static bool only_collapses(MlirValue arg) {
  for (MlirOpOperand use = mlirValueGetFirstUse(arg); !mlirOpOperandIsNull(use); use = mlirOpOperandGetNextUse(use)) {
    MlirOperation user = mlirOpOperandGetOwner(use);
    if (braze_op_is(user, "memref.expand_shape") || braze_op_is(user, "memref.reinterpret_cast") ||
        braze_op_is(user, "memref.view"))
      return false;
  }
  return true;
}

/* The collapses of `arg` take a dense subview's dynamic offset: their results become
 * memref<shape x elem, strided<[row-major strides], offset: ?>> (the template only loads
 * from them). */
static void retype_collapses(MlirValue arg) {
  for (MlirOpOperand use = mlirValueGetFirstUse(arg); !mlirOpOperandIsNull(use); use = mlirOpOperandGetNextUse(use)) {
    MlirOperation user = mlirOpOperandGetOwner(use);
    if (!braze_op_is(user, "memref.collapse_shape"))
      continue;
    MlirValue r = mlirOperationGetResult(user, 0);
    MlirType t = mlirValueGetType(r);
    intptr_t rank = mlirShapedTypeGetRank(t);
    int64_t shape[CH_MAX_RANK], strides[CH_MAX_RANK], stride = 1;
    for (intptr_t d = rank - 1; d >= 0 && rank <= CH_MAX_RANK; --d) {
      shape[d] = mlirShapedTypeGetDimSize(t, d);
      strides[d] = stride;
      stride *= shape[d];
    }
    MlirAttribute layout =
        mlirStridedLayoutAttrGet(mlirTypeGetContext(t), mlirShapedTypeGetDynamicStrideOrOffset(), rank, strides);
    mlirValueSetType(r, mlirMemRefTypeGet(mlirShapedTypeGetElementType(t), rank, shape, layout, mlirAttributeGetNull()));
  }
}

/* An input subview for a callee argument read as dense memory (the template's A):
 * a dense subview keeps its type and the callee's collapses of it take its offset; one
 * that is not dense (a [H, rows, Dh] block of [H, S, Dh]), or one read by other dense
 * views, is copied into a block buffer before the call. Otherwise the operand itself.
 * Outputs are never read so: the block kernels store their results through their
 * indices. */
static MlirValue dense_input(Chain *c, MlirOperation callee, intptr_t i, MlirValue operand) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(callee, 0));
  MlirValue arg = mlirBlockGetArgument(entry, i);
  MlirType t = mlirValueGetType(operand);
  if (!reads_dense(arg) || mlirTypeEqual(t, mlirValueGetType(arg)))
    return operand;
  if (is_dense(t) && only_collapses(arg) && mlirShapedTypeGetRank(t) <= CH_MAX_RANK) {
    retype_collapses(arg);
    return operand;
  }
  MlirValue buf = block_buffer(c, t);
  copy_block(c, operand, buf);
  return buf;
}

/* Where a block kernel's result goes: its slice of the chain's result, the buffer of
 * the key loop's next iteration when it is yielded, or a block buffer. */
static MlirValue result_buffer(Chain *c, MlirOperation forall, MlirValue result, MlirValue result_mem) {
  MlirOperation insert = insert_of(forall, result);
  if (!mlirOperationIsNull(insert))
    return subview(c, insert, result_mem, 2);
  for (int i = 0; i < c->n_yielded; ++i)
    if (mlirValueEqual(c->yielded[i], result))
      return c->yield_mem[i];
  return block_buffer(c, mlirValueGetType(result));
}

static bool emit_call(Chain *c, MlirOperation forall, MlirOperation call, MlirValue result_mem) {
  intptr_t n_in = mlirOperationGetNumOperands(call), n_out = mlirOperationGetNumResults(call);
  if (n_in + n_out > CH_MAX_VALUES || n_out < 1)
    return fail(c, call, "a block kernel call must have a result and at most 64 operands and results");
  MlirValue operands[CH_MAX_VALUES];
  for (intptr_t i = 0; i < n_in; ++i)
    if (mlirValueIsNull(operands[i] = lookup(c, mlirOperationGetOperand(call, i))))
      return fail(c, call, "an operand is not a slice, an argument, a loop index or an earlier result");
  for (intptr_t r = 0; r < n_out; ++r) {
    MlirValue result = mlirOperationGetResult(call, r);
    if (mlirValueIsNull(operands[n_in + r] = result_buffer(c, forall, result, result_mem)))
      return fail(c, call, "the result slice's offsets are not the loop's");
    map_value(c, result, operands[n_in + r]);
  }
  MlirAttribute callee_attr = mlirOperationGetAttributeByName(call, braze_ref("callee"));
  MlirOperation callee = braze_module_symbol(c->module, mlirFlatSymbolRefAttrGetValue(callee_attr));
  if (mlirOperationIsNull(callee) || cg_is_declaration(callee) ||
      mlirAttributeIsNull(mlirOperationGetAttributeByName(callee, braze_ref("braze.num_outputs"))))
    return fail(c, call, "the callee is not a converted block kernel");
  for (intptr_t i = 0; i < n_in; ++i)
    operands[i] = dense_input(c, callee, i, operands[i]);
  retype_callee(callee, n_in + n_out, operands);
  cg_serialize_parallel_loops(callee);
  MlirNamedAttribute attr = cg_named(c->body.ctx, "callee", callee_attr);
  cg_create(&c->body, "func.call", n_in + n_out, operands, 0, NULL, 1, &attr);
  return true;
}

/* ---- the online form's loop (passes/chains/online.h) ---- */

/* linalg.fill of a block buffer: a loop nest storing the value. */
static bool emit_fill(Chain *c, MlirOperation fill) {
  MlirValue value = lookup(c, mlirOperationGetOperand(fill, 0));
  if (mlirValueIsNull(value))
    return fail(c, fill, "a fill's value must be a constant of the chain");
  MlirType t = mlirValueGetType(mlirOperationGetResult(fill, 0));
  MlirValue mem = block_buffer(c, t), idx[CH_MAX_RANK];
  CgBuilder b = c->body;
  block_loops(&b, t, idx);
  cg_store(&b, value, mem, mlirShapedTypeGetRank(t), idx);
  map_value(c, mlirOperationGetResult(fill, 0), mem);
  return true;
}

static bool emit_ops(Chain *c, MlirOperation forall, MlirBlock block, MlirValue result_mem);

/* The key loop over memrefs. Each iter_arg has two buffers, the current values and the
 * next ones: the loop carries both and swaps them per step, so a kernel reads the
 * running max, sum and output of the last step while it writes the next, and nothing
 * is copied. */
static bool emit_key_loop(Chain *c, MlirOperation forall, MlirOperation loop, MlirValue result_mem) {
  intptr_t n = mlirOperationGetNumResults(loop);
  MlirValue bounds[3], inits[2 * CH_MAX_RANK], iv, iter[2 * CH_MAX_RANK];
  if (n > CH_MAX_RANK || c->n_yielded)
    return fail(c, loop, "expected one key loop of at most 8 iter_args");
  for (int i = 0; i < 3; ++i)
    if (mlirValueIsNull(bounds[i] = lookup(c, mlirOperationGetOperand(loop, i))))
      return fail(c, loop, "the key loop's bounds must be constants or the row block's indices");
  for (intptr_t i = 0; i < n; ++i) {
    inits[i] = lookup(c, mlirOperationGetOperand(loop, 3 + i));
    if (mlirValueIsNull(inits[i]) || !mlirTypeIsAMemRef(mlirValueGetType(inits[i])))
      return fail(c, loop, "an iter_arg's initial value must be a fill");
    inits[n + i] = block_buffer(c, mlirValueGetType(mlirOperationGetResult(loop, i)));
  }
  CgBuilder outer = c->body, inner;
  MlirOperation f = cg_for_step(&c->body, bounds[0], bounds[1], bounds[2], 2 * n, inits, &inner, &iv, iter);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(loop, 0));
  MlirOperation yield = mlirBlockGetTerminator(body);
  map_value(c, mlirBlockGetArgument(body, 0), iv);
  for (intptr_t i = 0; i < n; ++i) {
    map_value(c, mlirBlockGetArgument(body, 1 + i), iter[i]);
    c->yielded[i] = mlirOperationGetOperand(yield, i);
    c->yield_mem[i] = iter[n + i];
  }
  c->n_yielded = (int)n;
  c->alloc = outer;
  c->alloc.before = f;
  c->body = inner;
  bool ok = emit_ops(c, forall, body, result_mem);
  for (intptr_t i = 0; ok && i < n; ++i) /* every yielded value was written to its next buffer */
    ok = mlirValueEqual(lookup(c, c->yielded[i]), iter[n + i]) ||
         fail(c, loop, "the key loop must yield results of its block kernels, each once");
  MlirValue swapped[2 * CH_MAX_RANK];
  for (intptr_t i = 0; i < n; ++i) {
    swapped[i] = iter[n + i];
    swapped[n + i] = iter[i];
  }
  cg_yield(&inner, 2 * n, swapped);
  c->body = outer;
  c->alloc = outer;
  c->n_yielded = 0;
  for (intptr_t i = 0; i < n; ++i)
    map_value(c, mlirOperationGetResult(loop, i), mlirOperationGetResult(f, i));
  return ok;
}

/* ---- the forall ---- */

/* An index computed from the loops' ivs: affine.apply (a slice offset of a view read
 * as an RC_AFFINE slice: passes/chains/row-local.h) or affine.min (the online form's
 * last key of a causal block), its map's results' minimum. */
static bool emit_affine(Chain *c, MlirOperation op) {
  MlirAffineMap map = mlirAffineMapAttrGetValue(mlirOperationGetAttributeByName(op, braze_ref("map")));
  intptr_t n = mlirOperationGetNumOperands(op);
  MlirValue dims[CH_MAX_RANK], value = {NULL};
  if (n > CH_MAX_RANK || mlirAffineMapGetNumResults(map) < 1 || mlirAffineMapGetNumSymbols(map) != 0)
    return false;
  for (intptr_t i = 0; i < n; ++i)
    if (mlirValueIsNull(dims[i] = lookup(c, mlirOperationGetOperand(op, i))))
      return false;
  for (intptr_t r = 0; r < mlirAffineMapGetNumResults(map); ++r) {
    MlirValue x = cg_affine(&c->body, mlirAffineMapGetResult(map, r), dims);
    value = r == 0 ? x : cg_op(&c->body, "arith.minsi", cg_index_type(c->body.ctx), 2, (MlirValue[]){value, x});
  }
  map_value(c, mlirOperationGetResult(op, 0), value);
  return true;
}

/* The ops of the forall's body or of the key loop's. */
static bool emit_ops(Chain *c, MlirOperation forall, MlirBlock block, MlirValue result_mem) {
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (braze_op_is(op, "tensor.extract_slice")) {
      MlirValue source = lookup(c, mlirOperationGetOperand(op, 0)), view;
      if (mlirValueIsNull(source) || mlirValueIsNull(view = subview(c, op, source, 1)))
        return fail(c, op, "a slice must be of an argument at the loop's offsets");
      map_value(c, mlirOperationGetResult(op, 0), view);
    } else if (braze_op_is(op, "affine.apply")) {
      if (!emit_affine(c, op))
        return fail(c, op, "an offset must be an affine.apply of the loop's ivs");
    } else if (braze_op_is(op, "affine.min")) {
      if (!emit_affine(c, op))
        return fail(c, op, "a bound must be an affine.min of the loop's ivs");
    } else if (braze_op_is(op, "func.call")) {
      if (!emit_call(c, forall, op, result_mem))
        return false;
    } else if (braze_op_is(op, "linalg.fill")) {
      if (!emit_fill(c, op))
        return false;
    } else if (braze_op_is(op, "scf.for")) {
      if (!emit_key_loop(c, forall, op, result_mem))
        return false;
    } else if (!braze_op_is(op, "scf.forall.in_parallel") && !braze_op_is(op, "scf.yield") &&
               !braze_op_is(op, "tensor.empty")) {
      return fail(c, op, "expected affine.apply, affine.min, tensor.extract_slice, tensor.empty, linalg.fill, "
                  "func.call, scf.for and scf.forall.in_parallel in the loop");
    }
  }
  return true;
}

static bool emit_forall(Chain *c, MlirOperation forall, MlirBlock entry, CgBuilder *fb, intptr_t n_in) {
  MlirAttribute lbs = mlirOperationGetAttributeByName(forall, braze_ref("staticLowerBound"));
  MlirAttribute ubs = mlirOperationGetAttributeByName(forall, braze_ref("staticUpperBound"));
  MlirAttribute steps = mlirOperationGetAttributeByName(forall, braze_ref("staticStep"));
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(forall, 0));
  c->n_ivs = (int)mlirDenseArrayGetNumElements(ubs);
  if (mlirAttributeIsNull(lbs) || c->n_ivs > CH_MAX_RANK || mlirOperationGetNumOperands(forall) != 1)
    return fail(c, forall, "expected an scf.forall with static bounds and one shared output");
  int64_t trips[CH_MAX_RANK];
  for (int d = 0; d < c->n_ivs; ++d) {
    int64_t lb = mlirDenseI64ArrayGetElement(lbs, d), step = mlirDenseI64ArrayGetElement(steps, d);
    trips[d] = (mlirDenseI64ArrayGetElement(ubs, d) - lb + step - 1) / step;
  }
  MlirValue ivs[CH_MAX_RANK];
  cg_parallel(fb, c->n_ivs, trips, &c->body, ivs);
  for (int d = 0; d < c->n_ivs; ++d) {
    MlirValue scaled = ivs[d];
    int64_t lb = mlirDenseI64ArrayGetElement(lbs, d), step = mlirDenseI64ArrayGetElement(steps, d);
    MlirType index = cg_index_type(c->body.ctx);
    if (step != 1)
      scaled = cg_op(&c->body, "arith.muli", index, 2, (MlirValue[]){scaled, cg_index(&c->body, step)});
    if (lb != 0)
      scaled = cg_op(&c->body, "arith.addi", index, 2, (MlirValue[]){scaled, cg_index(&c->body, lb)});
    c->offsets[d] = scaled;
    c->forall_ivs[d] = mlirBlockGetArgument(body, d);
  }
  c->alloc = c->body;
  if (!emit_ops(c, forall, body, mlirBlockGetArgument(entry, n_in)))
    return false;
  for (int i = 0; i < c->n_heap; ++i)
    cg_create(&c->body, "memref.dealloc", 1, &c->heap[i], 0, NULL, 0, NULL);
  return true;
}

static MlirWalkResult find_generic(MlirOperation op, void *user) {
  if (!braze_op_is(op, "linalg.generic"))
    return MlirWalkResultAdvance;
  *(bool *)user = true;
  return MlirWalkResultInterrupt;
}

/* Whether an online chain's generics were outlined into block kernels (form-row-chains
 * on the cpu target). */
static bool online_outlined(MlirOperation func) {
  bool generic = false;
  mlirOperationWalk(func, find_generic, &generic, MlirWalkPreOrder);
  return !generic;
}

bool cg_is_chain_kernel(MlirOperation func) {
  MlirAttribute kind = mlirOperationGetAttributeByName(func, braze_ref("kernel.kind"));
  return !mlirAttributeIsNull(kind) && mlirAttributeIsAString(kind) && braze_ref_eq(mlirStringAttrGetValue(kind), "chain");
}

int cg_chain_kernel(MlirOperation func, MlirOperation module) {
  if (!cg_is_chain_kernel(func))
    return 0;
  MlirStringRef nref = mlirStringAttrGetValue(mlirOperationGetAttributeByName(func, braze_ref("sym_name")));
  if (!mlirAttributeIsNull(mlirOperationGetAttributeByName(func, braze_ref("kernel.online"))) && !online_outlined(func)) {
    braze_emit_error(mlirOperationGetLocation(func),
                     "cpu-codegen: chain kernel @%.*s is in the online form with linalg ops in its loops, which "
                     "cpu-codegen does not compile: form chains with form-row-chains{target=cpu} (its generics as block "
                     "kernels) or no-online",
                     (int)nref.length, nref.data);
    return -1;
  }
  char *name = strndup(nref.data, nref.length);
  Chain c = {.module = module, .name = name};
  MlirBlock old_entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  MlirOperation forall = mlirBlockGetFirstOperation(old_entry);
  while (!mlirOperationIsNull(forall) && !braze_op_is(forall, "scf.forall"))
    forall = mlirOperationGetNextInBlock(forall);
  intptr_t n_in = mlirBlockGetNumArguments(old_entry);
  if (mlirOperationIsNull(forall) || n_in + 1 > CH_MAX_VALUES || mlirOperationGetNumResults(forall) != 1) {
    braze_emit_error(mlirOperationGetLocation(func), "cpu-codegen: chain kernel @%s: expected one scf.forall", name);
    free(name);
    return -1;
  }
  MlirType types[CH_MAX_VALUES];
  for (intptr_t i = 0; i < n_in; ++i)
    types[i] = cg_memref_like(mlirValueGetType(mlirBlockGetArgument(old_entry, i)));
  types[n_in] = cg_memref_like(mlirValueGetType(mlirOperationGetResult(forall, 0)));
  MlirBlock entry;
  MlirOperation fn = cg_new_func(func, n_in, 1, types, &entry);
  for (intptr_t i = 0; i < n_in; ++i)
    map_value(&c, mlirBlockGetArgument(old_entry, i), mlirBlockGetArgument(entry, i));
  CgConstPool pool = {.block = entry};
  CgBuilder fb = cg_builder_at_end(entry, mlirOperationGetLocation(func));
  fb.pool = &pool;
  for (MlirOperation op = mlirBlockGetFirstOperation(old_entry); !mlirOperationEqual(op, forall);
       op = mlirOperationGetNextInBlock(op)) /* the online form's fill values and key loop bounds */
    if (braze_op_is(op, "arith.constant"))
      map_value(&c, mlirOperationGetResult(op, 0), mlirOperationGetResult(cg_insert(&fb, mlirOperationClone(op)), 0));
  bool ok = emit_forall(&c, forall, entry, &fb, n_in);
  if (ok)
    cg_create(&fb, "func.return", 0, NULL, 0, NULL, 0, NULL);
  mlirOperationDestroy(ok ? func : fn);
  free(name);
  return ok ? 1 : -1;
}

bool cg_is_serial_kernel(MlirOperation func) {
  return !mlirAttributeIsNull(mlirOperationGetAttributeByName(func, braze_ref("kernel.serial")));
}
