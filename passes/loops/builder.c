/* Loop-level helpers (see passes/loops/builder.h). */
#include "passes/loops/builder.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/AffineExpr.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Linalg.h"
#include "support/context.h"
#include "support/diag.h"

enum { MAX_OPERANDS = 256 };

/* ---- builder ---- */

BrazeBuilder braze_builder_before(MlirOperation op) {
  MlirLocation loc = mlirOperationGetLocation(op);
  return (BrazeBuilder){mlirLocationGetContext(loc), loc, mlirOperationGetBlock(op), op};
}

BrazeBuilder braze_builder_at_end(MlirBlock block, MlirLocation loc) {
  return (BrazeBuilder){mlirLocationGetContext(loc), loc, block, {NULL}};
}

MlirOperation braze_builder_insert(BrazeBuilder *b, MlirOperation op) {
  if (!mlirOperationIsNull(b->before))
    mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(b->before), b->before, op);
  else
    mlirBlockAppendOwnedOperation(b->block, op);
  return op;
}

static MlirNamedAttribute named(MlirContext ctx, const char *name, MlirAttribute attr) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, braze_ref(name)), attr);
}

MlirOperation braze_build_op(BrazeBuilder *b, const char *name, const MlirValue *operands, intptr_t num_operands,
                             const MlirType *results, intptr_t num_results, const MlirNamedAttribute *attrs,
                             intptr_t num_attrs) {
  MlirOperationState state = mlirOperationStateGet(braze_ref(name), b->loc);
  mlirOperationStateAddOperands(&state, num_operands, operands);
  mlirOperationStateAddResults(&state, num_results, results);
  mlirOperationStateAddAttributes(&state, num_attrs, attrs);
  return braze_builder_insert(b, mlirOperationCreate(&state));
}

MlirValue braze_build_typed(BrazeBuilder *b, const char *name, const MlirValue *operands, intptr_t n,
                            MlirType result, const MlirNamedAttribute *attrs, intptr_t num_attrs) {
  return mlirOperationGetResult(braze_build_op(b, name, operands, n, &result, 1, attrs, num_attrs), 0);
}

MlirValue braze_build_unary(BrazeBuilder *b, const char *name, MlirValue x) {
  return braze_build_typed(b, name, &x, 1, mlirValueGetType(x), NULL, 0);
}

MlirValue braze_build_binary(BrazeBuilder *b, const char *name, MlirValue x, MlirValue y) {
  MlirValue operands[2] = {x, y};
  return braze_build_typed(b, name, operands, 2, mlirValueGetType(x), NULL, 0);
}

MlirValue braze_build_constant_attr(BrazeBuilder *b, MlirAttribute value) {
  MlirNamedAttribute attr = named(b->ctx, "value", value);
  return braze_build_typed(b, "arith.constant", NULL, 0, mlirAttributeGetType(value), &attr, 1);
}

MlirValue braze_build_scalar_constant(BrazeBuilder *b, MlirType type, double value) {
  MlirAttribute attr = mlirTypeIsAFloat(type) ? mlirFloatAttrDoubleGet(b->ctx, type, value)
                                              : mlirIntegerAttrGet(type, (int64_t)value);
  return braze_build_constant_attr(b, attr);
}

MlirValue braze_build_int_constant(BrazeBuilder *b, MlirType type, int64_t value) {
  return braze_build_constant_attr(b, mlirIntegerAttrGet(type, value));
}

MlirValue braze_build_empty(BrazeBuilder *b, MlirType tensor_type) {
  return braze_build_typed(b, "tensor.empty", NULL, 0, tensor_type, NULL, 0);
}

static MlirAttribute segment_sizes(MlirContext ctx, const int32_t *sizes, intptr_t n) {
  return mlirDenseI32ArrayGet(ctx, n, sizes);
}

MlirValue braze_build_fill(BrazeBuilder *b, MlirValue scalar, MlirValue init) {
  MlirOperationState state = mlirOperationStateGet(braze_ref("linalg.fill"), b->loc);
  MlirValue operands[2] = {scalar, init};
  MlirType result = mlirValueGetType(init);
  int32_t sizes[2] = {1, 1};
  MlirNamedAttribute attr = named(b->ctx, "operandSegmentSizes", segment_sizes(b->ctx, sizes, 2));
  MlirRegion region = mlirRegionCreate();
  mlirOperationStateAddOperands(&state, 2, operands);
  mlirOperationStateAddResults(&state, 1, &result);
  mlirOperationStateAddAttributes(&state, 1, &attr);
  mlirOperationStateAddOwnedRegions(&state, 1, &region);
  MlirOperation fill = mlirOperationCreate(&state);
  mlirLinalgFillBuiltinNamedOpRegion(fill);
  return mlirOperationGetResult(braze_builder_insert(b, fill), 0);
}

MlirValue braze_build_insert_slice(BrazeBuilder *b, MlirValue source, MlirValue dest, const int64_t *offsets) {
  MlirType src_type = mlirValueGetType(source);
  intptr_t rank = mlirShapedTypeGetRank(src_type);
  int64_t sizes[16], strides[16];
  for (intptr_t i = 0; i < rank && i < 16; ++i) {
    sizes[i] = mlirShapedTypeGetDimSize(src_type, i);
    strides[i] = 1;
  }
  int32_t segments[5] = {1, 1, 0, 0, 0};
  MlirNamedAttribute attrs[4] = {
      named(b->ctx, "operandSegmentSizes", segment_sizes(b->ctx, segments, 5)),
      named(b->ctx, "static_offsets", mlirDenseI64ArrayGet(b->ctx, rank, offsets)),
      named(b->ctx, "static_sizes", mlirDenseI64ArrayGet(b->ctx, rank, sizes)),
      named(b->ctx, "static_strides", mlirDenseI64ArrayGet(b->ctx, rank, strides)),
  };
  MlirValue operands[2] = {source, dest};
  return braze_build_typed(b, "tensor.insert_slice", operands, 2, mlirValueGetType(dest), attrs, 4);
}

/* ---- linalg.generic ---- */

static MlirAttribute iterator_attr(MlirContext ctx, bool reduction) {
  return mlirAttributeParseGet(ctx, braze_ref(reduction ? "#linalg.iterator_type<reduction>"
                                                        : "#linalg.iterator_type<parallel>"));
}

/* The generic's region: one block with an argument per operand's element type. */
static MlirRegion new_body_region(const BrazeGenericSpec *spec, MlirLocation loc, MlirBlock *block_out) {
  intptr_t n = spec->num_inputs + spec->num_outputs;
  MlirType types[MAX_OPERANDS];
  MlirLocation locs[MAX_OPERANDS];
  for (intptr_t i = 0; i < n; ++i) {
    MlirValue v = i < spec->num_inputs ? spec->inputs[i] : spec->outputs[i - spec->num_inputs];
    MlirType t = mlirValueGetType(v);
    types[i] = mlirTypeIsAShaped(t) ? mlirShapedTypeGetElementType(t) : t;
    locs[i] = loc;
  }
  MlirRegion region = mlirRegionCreate();
  *block_out = mlirBlockCreate(n, types, locs);
  mlirRegionAppendOwnedBlock(region, *block_out);
  return region;
}

static bool fill_body(const BrazeGenericSpec *spec, MlirBlock block, MlirLocation loc) {
  intptr_t n = spec->num_inputs + spec->num_outputs;
  MlirValue args[MAX_OPERANDS], yields[MAX_OPERANDS];
  for (intptr_t i = 0; i < n; ++i)
    args[i] = mlirBlockGetArgument(block, i);
  BrazeBuilder body = braze_builder_at_end(block, loc);
  if (!spec->body(&body, args, n, yields, spec->body_data))
    return false;
  braze_build_op(&body, "linalg.yield", yields, spec->num_outputs, NULL, 0, NULL, 0);
  return true;
}

MlirOperation braze_build_generic(BrazeBuilder *b, const BrazeGenericSpec *spec) {
  intptr_t n = spec->num_inputs + spec->num_outputs;
  if (n > MAX_OPERANDS || spec->num_loops > MAX_OPERANDS) {
    braze_emit_error(b->loc, "too many operands or loops for one linalg.generic");
    return (MlirOperation){NULL};
  }
  MlirAttribute maps[MAX_OPERANDS], iterators[MAX_OPERANDS];
  for (intptr_t i = 0; i < n; ++i)
    maps[i] = mlirAffineMapAttrGet(spec->maps[i]);
  for (intptr_t i = 0; i < spec->num_loops; ++i)
    iterators[i] = iterator_attr(b->ctx, spec->reduction && spec->reduction[i]);
  int32_t sizes[2] = {(int32_t)spec->num_inputs, (int32_t)spec->num_outputs};
  MlirNamedAttribute attrs[4] = {
      named(b->ctx, "indexing_maps", mlirArrayAttrGet(b->ctx, n, maps)),
      named(b->ctx, "iterator_types", mlirArrayAttrGet(b->ctx, spec->num_loops, iterators)),
      named(b->ctx, "operandSegmentSizes", segment_sizes(b->ctx, sizes, 2)),
      named(b->ctx, BRAZE_OPS_ATTR, spec->ops),
  };
  MlirValue operands[MAX_OPERANDS];
  MlirType results[MAX_OPERANDS];
  for (intptr_t i = 0; i < n; ++i)
    operands[i] = i < spec->num_inputs ? spec->inputs[i] : spec->outputs[i - spec->num_inputs];
  for (intptr_t i = 0; i < spec->num_outputs; ++i)
    results[i] = mlirValueGetType(spec->outputs[i]);

  MlirBlock block;
  MlirRegion region = new_body_region(spec, b->loc, &block);
  MlirOperationState state = mlirOperationStateGet(braze_ref("linalg.generic"), b->loc);
  mlirOperationStateAddOperands(&state, n, operands);
  mlirOperationStateAddResults(&state, spec->num_outputs, results);
  mlirOperationStateAddAttributes(&state, mlirAttributeIsNull(spec->ops) ? 3 : 4, attrs);
  mlirOperationStateAddOwnedRegions(&state, 1, &region);
  MlirOperation generic = mlirOperationCreate(&state);
  if (!fill_body(spec, block, b->loc)) {
    mlirOperationDestroy(generic);
    return (MlirOperation){NULL};
  }
  return braze_builder_insert(b, generic);
}

bool braze_is_generic(MlirOperation op) { return braze_op_is(op, "linalg.generic"); }

static MlirAttribute get_attr(MlirOperation op, const char *name) {
  return mlirOperationGetAttributeByName(op, braze_ref(name));
}

intptr_t braze_generic_num_inputs(MlirOperation generic) {
  MlirAttribute sizes = get_attr(generic, "operandSegmentSizes");
  return mlirDenseI32ArrayGetElement(sizes, 0);
}

intptr_t braze_generic_num_loops(MlirOperation generic) {
  return mlirArrayAttrGetNumElements(get_attr(generic, "iterator_types"));
}

MlirAffineMap braze_generic_map(MlirOperation generic, intptr_t operand) {
  return mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(get_attr(generic, "indexing_maps"), operand));
}

bool braze_generic_loop_is_reduction(MlirOperation generic, intptr_t loop) {
  MlirAttribute it = mlirArrayAttrGetElement(get_attr(generic, "iterator_types"), loop);
  return mlirAttributeEqual(it, iterator_attr(mlirOperationGetContext(generic), true));
}

bool braze_generic_all_parallel(MlirOperation generic) {
  for (intptr_t i = 0, n = braze_generic_num_loops(generic); i < n; ++i)
    if (braze_generic_loop_is_reduction(generic, i))
      return false;
  return true;
}

intptr_t braze_generic_loop_extents(MlirOperation generic, int64_t *extents, intptr_t max) {
  intptr_t n_loops = braze_generic_num_loops(generic);
  for (intptr_t d = 0; d < n_loops && d < max; ++d)
    extents[d] = -1;
  for (intptr_t j = 0; j < mlirOperationGetNumOperands(generic); ++j) {
    MlirAffineMap map = braze_generic_map(generic, j);
    MlirType t = mlirValueGetType(mlirOperationGetOperand(generic, j));
    for (intptr_t r = 0; mlirTypeIsARankedTensor(t) && r < mlirAffineMapGetNumResults(map); ++r) {
      MlirAffineExpr e = mlirAffineMapGetResult(map, r);
      intptr_t d = mlirAffineExprIsADim(e) ? mlirAffineDimExprGetPosition(e) : -1;
      if (d >= 0 && d < max && extents[d] < 0)
        extents[d] = mlirShapedTypeGetDimSize(t, r);
    }
  }
  return n_loops;
}

MlirBlock braze_generic_body(MlirOperation generic) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(generic, 0));
}

/* ---- braze.ops ---- */

MlirAttribute braze_string_array(MlirContext ctx, const char *const *items, intptr_t n) {
  MlirAttribute elems[MAX_OPERANDS];
  for (intptr_t i = 0; i < n && i < MAX_OPERANDS; ++i)
    elems[i] = mlirStringAttrGet(ctx, braze_ref(items[i]));
  return mlirArrayAttrGet(ctx, n < MAX_OPERANDS ? n : MAX_OPERANDS, elems);
}

MlirAttribute braze_string_array_concat(MlirContext ctx, MlirAttribute first, MlirAttribute second) {
  if (mlirAttributeIsNull(first) && mlirAttributeIsNull(second))
    return first;
  intptr_t n1 = mlirAttributeIsNull(first) ? 0 : mlirArrayAttrGetNumElements(first);
  intptr_t n2 = mlirAttributeIsNull(second) ? 0 : mlirArrayAttrGetNumElements(second);
  MlirAttribute *elems = malloc(sizeof *elems * (size_t)(n1 + n2 + 1));
  for (intptr_t i = 0; i < n1; ++i)
    elems[i] = mlirArrayAttrGetElement(first, i);
  for (intptr_t i = 0; i < n2; ++i)
    elems[n1 + i] = mlirArrayAttrGetElement(second, i);
  MlirAttribute result = mlirArrayAttrGet(ctx, n1 + n2, elems);
  free(elems);
  return result;
}

bool braze_ops_contains(MlirOperation op, const char *name) {
  MlirAttribute ops = get_attr(op, BRAZE_OPS_ATTR);
  if (mlirAttributeIsNull(ops) || !mlirAttributeIsAArray(ops))
    return false;
  for (intptr_t i = 0, n = mlirArrayAttrGetNumElements(ops); i < n; ++i) {
    MlirAttribute s = mlirArrayAttrGetElement(ops, i);
    if (mlirAttributeIsAString(s) && braze_ref_eq(mlirStringAttrGetValue(s), name))
      return true;
  }
  return false;
}

/* ---- affine maps ---- */

static MlirAffineMap map_from_exprs(MlirContext ctx, intptr_t num_dims, intptr_t n, MlirAffineExpr *exprs) {
  if (n == 0)
    return mlirAffineMapZeroResultGet(ctx, num_dims, 0);
  return mlirAffineMapGet(ctx, num_dims, 0, n, exprs);
}

MlirAffineMap braze_map_compose(MlirAffineMap outer, MlirAffineMap inner) {
  MlirContext ctx = mlirAffineMapGetContext(inner);
  intptr_t dims = mlirAffineMapGetNumDims(inner);
  intptr_t n = mlirAffineMapGetNumResults(outer);
  MlirAffineExpr exprs[MAX_OPERANDS];
  for (intptr_t i = 0; i < n && i < MAX_OPERANDS; ++i) {
    MlirAffineExpr e = mlirAffineExprCompose(mlirAffineMapGetResult(outer, i), inner);
    exprs[i] = mlirSimplifyAffineExpr(e, (uint32_t)dims, 0);
  }
  return map_from_exprs(ctx, dims, n, exprs);
}

MlirAffineMap braze_map_identity(MlirContext ctx, intptr_t rank) {
  return rank == 0 ? mlirAffineMapZeroResultGet(ctx, 0, 0) : mlirAffineMapMultiDimIdentityGet(ctx, rank);
}

MlirAffineMap braze_map_broadcast(MlirContext ctx, intptr_t num_loops, const int64_t *domain, intptr_t domain_rank,
                                  const int64_t *shape, intptr_t rank) {
  MlirAffineExpr exprs[MAX_OPERANDS];
  for (intptr_t j = 0; j < rank && j < MAX_OPERANDS; ++j) {
    intptr_t d = domain_rank - rank + j; /* right-aligned */
    bool stretched = shape[j] == 1 && domain[d] != 1;
    exprs[j] = stretched ? mlirAffineConstantExprGet(ctx, 0) : mlirAffineDimExprGet(ctx, d);
  }
  return map_from_exprs(ctx, num_loops, rank, exprs);
}

bool braze_map_inverse_permutation(MlirAffineMap map, MlirAffineMap *inverse) {
  intptr_t n = mlirAffineMapGetNumResults(map);
  if (n != mlirAffineMapGetNumDims(map) || (n > 0 && !mlirAffineMapIsPermutation(map)) || n > MAX_OPERANDS)
    return false;
  MlirContext ctx = mlirAffineMapGetContext(map);
  MlirAffineExpr exprs[MAX_OPERANDS];
  for (intptr_t i = 0; i < n; ++i) {
    intptr_t pos = mlirAffineDimExprGetPosition(mlirAffineMapGetResult(map, i));
    exprs[pos] = mlirAffineDimExprGet(ctx, i);
  }
  *inverse = map_from_exprs(ctx, n, n, exprs);
  return true;
}

/* ---- scalar arithmetic by element type ---- */

static bool is_float(MlirValue v) { return mlirTypeIsAFloat(mlirValueGetType(v)); }

static unsigned bit_width(MlirType t) {
  return mlirTypeIsAFloat(t) ? mlirFloatTypeGetWidth(t) : mlirIntegerTypeGetWidth(t);
}

/* i1 is treated as unsigned (false < true); other integers as signed. */
static bool is_bool(MlirValue v) { return !is_float(v) && bit_width(mlirValueGetType(v)) == 1; }

static MlirValue build_cmp(BrazeBuilder *b, bool is_f, int64_t predicate, MlirValue x, MlirValue y) {
  MlirValue operands[2] = {x, y};
  MlirNamedAttribute attr = mlirNamedAttributeGet(
      mlirIdentifierGet(b->ctx, braze_ref("predicate")),
      mlirIntegerAttrGet(mlirIntegerTypeGet(b->ctx, 64), predicate));
  return braze_build_typed(b, is_f ? "arith.cmpf" : "arith.cmpi", operands, 2, mlirIntegerTypeGet(b->ctx, 1),
                           &attr, 1);
}

/* arith.cmpf / arith.cmpi predicate numbers (mlir/Dialect/Arith/IR/ArithBase.td). */
enum { CMPF_OEQ = 1, CMPF_OGT = 2, CMPF_OGE = 3, CMPF_OLT = 4, CMPF_OLE = 5, CMPF_UNE = 13, CMPF_UNO = 14 };
enum { CMPI_EQ = 0, CMPI_NE = 1, CMPI_SLT = 2, CMPI_SLE = 3, CMPI_SGT = 4, CMPI_SGE = 5 };
enum { CMPI_UNSIGNED_SHIFT = 4 }; /* slt -> ult, ... */

MlirValue braze_scalar_cmp(BrazeBuilder *b, const char *pred, size_t len, MlirValue x, MlirValue y) {
  return braze_scalar_cmp_u(b, pred, len, x, y, false);
}

MlirValue braze_scalar_cmp_u(BrazeBuilder *b, const char *pred, size_t len, MlirValue x, MlirValue y,
                             bool is_unsigned) {
  static const struct { const char *name; int64_t f, i; } table[] = {
      {"eq", CMPF_OEQ, CMPI_EQ},  {"ne", CMPF_UNE, CMPI_NE},  {"lt", CMPF_OLT, CMPI_SLT},
      {"le", CMPF_OLE, CMPI_SLE}, {"gt", CMPF_OGT, CMPI_SGT}, {"ge", CMPF_OGE, CMPI_SGE},
  };
  for (size_t i = 0; i < sizeof table / sizeof *table; ++i) {
    if (strlen(table[i].name) != len || memcmp(table[i].name, pred, len) != 0)
      continue;
    bool u = is_unsigned || is_bool(x);
    int64_t ipred = table[i].i + (u && table[i].i >= CMPI_SLT ? CMPI_UNSIGNED_SHIFT : 0);
    return build_cmp(b, is_float(x), is_float(x) ? table[i].f : ipred, x, y);
  }
  return (MlirValue){NULL};
}

/* The arith op of a binary graph op for float / signed int / unsigned (i1) operands. */
MlirValue braze_scalar_binary(BrazeBuilder *b, const char *m, MlirValue x, MlirValue y) {
  return braze_scalar_binary_u(b, m, x, y, false);
}

MlirValue braze_scalar_binary_u(BrazeBuilder *b, const char *m, MlirValue x, MlirValue y, bool is_unsigned) {
  static const struct { const char *graph, *f, *si, *ui; } table[] = {
      {"add", "arith.addf", "arith.addi", "arith.addi"},
      {"sub", "arith.subf", "arith.subi", "arith.subi"},
      {"mul", "arith.mulf", "arith.muli", "arith.muli"},
      {"div", "arith.divf", "arith.divsi", "arith.divui"},
      {"max", "arith.maximumf", "arith.maxsi", "arith.maxui"},
      {"min", "arith.minimumf", "arith.minsi", "arith.minui"},
      {"pow", "math.powf", NULL, NULL},
      {"rem", "arith.remf", "arith.remsi", "arith.remui"},
      {"bitwise_and", NULL, "arith.andi", "arith.andi"},
      {"bitwise_or", NULL, "arith.ori", "arith.ori"},
      {"bitwise_xor", NULL, "arith.xori", "arith.xori"},
  };
  for (size_t i = 0; i < sizeof table / sizeof *table; ++i) {
    if (strcmp(table[i].graph, m) != 0)
      continue;
    const char *name = is_float(x) ? table[i].f : is_unsigned || is_bool(x) ? table[i].ui : table[i].si;
    return name ? braze_build_binary(b, name, x, y) : (MlirValue){NULL};
  }
  return (MlirValue){NULL};
}

/* The reduction combiner: acc op x. */
MlirValue braze_scalar_reduce_combine(BrazeBuilder *b, const char *kind, MlirValue x, MlirValue acc) {
  return braze_scalar_reduce_combine_u(b, kind, x, acc, false);
}

MlirValue braze_scalar_reduce_combine_u(BrazeBuilder *b, const char *kind, MlirValue x, MlirValue acc,
                                        bool is_unsigned) {
  const char *m = strcmp(kind, "max") == 0 ? "max" : strcmp(kind, "min") == 0 ? "min" : "add";
  return braze_scalar_binary_u(b, m, x, acc, is_unsigned);
}

/* The identity of a reduction: 0 for sums, -inf / the smallest integer for max,
 * +inf / the largest integer for min. */
MlirValue braze_scalar_reduce_identity(BrazeBuilder *b, const char *kind, MlirType element) {
  return braze_scalar_reduce_identity_u(b, kind, element, false);
}

MlirValue braze_scalar_reduce_identity_u(BrazeBuilder *b, const char *kind, MlirType element, bool is_unsigned) {
  bool max = strcmp(kind, "max") == 0, min = strcmp(kind, "min") == 0;
  if (mlirTypeIsAFloat(element))
    return braze_build_scalar_constant(b, element, max ? -INFINITY : min ? INFINITY : 0.0);
  unsigned w = bit_width(element);
  if (w == 1 || is_unsigned) /* unsigned: 0 is the smallest, all ones (-1) the largest */
    return braze_build_int_constant(b, element, min ? -1 : 0);
  int64_t largest = w >= 64 ? INT64_MAX : (INT64_C(1) << (w - 1)) - 1;
  return braze_build_int_constant(b, element, max ? -largest - 1 : min ? largest : 0);
}

static MlirValue zero_like(BrazeBuilder *b, MlirValue x) {
  return braze_build_scalar_constant(b, mlirValueGetType(x), 0.0);
}

/* cast: float<->float by ext/trunc (f16<->bf16 through f32), float->int fptosi,
 * int->float sitofp (uitofp from i1), int->int extsi/trunci (extui from i1), and
 * to i1 as x != 0. */
MlirValue braze_scalar_cast(BrazeBuilder *b, MlirValue x, MlirType to) {
  return braze_scalar_cast_u(b, x, to, false, false);
}

/* f64 -> bf16 without LLVM's __truncdfbf2 libcall (libgcc 12 has none): round to odd
 * into f32 (truncf; where that is inexact and its last bit even, the f32 neighbour
 * towards x), then f32 -> bf16 to nearest even. f32 keeps more than two bits beyond
 * bf16's at every magnitude, so the result is x rounded once to nearest even. */
static MlirValue f64_to_bf16(BrazeBuilder *b, MlirValue x) {
  MlirType f32 = mlirF32TypeGet(b->ctx), i32 = mlirIntegerTypeGet(b->ctx, 32);
  MlirValue t = braze_build_typed(b, "arith.truncf", &x, 1, f32, NULL, 0);
  MlirValue back = braze_build_typed(b, "arith.extf", &t, 1, mlirF64TypeGet(b->ctx), NULL, 0);
  MlirValue bits = braze_build_typed(b, "arith.bitcast", &t, 1, i32, NULL, 0);
  MlirValue low = braze_build_binary(b, "arith.andi", bits, braze_build_int_constant(b, i32, 1));
  MlirValue keep[3] = {build_cmp(b, false, CMPI_NE, low, braze_build_int_constant(b, i32, 0)), /* odd */
                       build_cmp(b, true, CMPF_OEQ, back, x),                                   /* exact */
                       build_cmp(b, true, CMPF_UNO, x, x)};                                     /* NaN */
  MlirValue any = braze_build_binary(b, "arith.ori", braze_build_binary(b, "arith.ori", keep[0], keep[1]), keep[2]);
  MlirValue above = build_cmp(b, true, CMPF_OGT, braze_build_unary(b, "math.absf", back),
                              braze_build_unary(b, "math.absf", x));
  MlirValue steps[3] = {above, braze_build_int_constant(b, i32, -1), braze_build_int_constant(b, i32, 1)};
  MlirValue step = braze_build_typed(b, "arith.select", steps, 3, i32, NULL, 0);
  MlirValue picks[3] = {any, bits, braze_build_binary(b, "arith.addi", bits, step)};
  MlirValue odd_bits = braze_build_typed(b, "arith.select", picks, 3, i32, NULL, 0);
  MlirValue odd = braze_build_typed(b, "arith.bitcast", &odd_bits, 1, f32, NULL, 0);
  return braze_build_typed(b, "arith.truncf", &odd, 1, mlirBF16TypeGet(b->ctx), NULL, 0);
}

MlirValue braze_scalar_cast_u(BrazeBuilder *b, MlirValue x, MlirType to, bool from_unsigned, bool to_unsigned) {
  MlirType from = mlirValueGetType(x);
  if (mlirTypeEqual(from, to))
    return x;
  if (mlirTypeIsAF64(from) && mlirTypeIsABF16(to))
    return f64_to_bf16(b, x);
  bool ff = mlirTypeIsAFloat(from), ft = mlirTypeIsAFloat(to);
  unsigned wf = bit_width(from), wt = bit_width(to);
  if (!ft && wt == 1)
    return ff ? build_cmp(b, true, CMPF_UNE, x, zero_like(b, x)) : build_cmp(b, false, CMPI_NE, x, zero_like(b, x));
  const char *name;
  if (ff && ft && wf == wt) {
    x = braze_build_typed(b, "arith.extf", &x, 1, mlirF32TypeGet(b->ctx), NULL, 0);
    name = "arith.truncf";
  } else if (ff && ft) {
    name = wt > wf ? "arith.extf" : "arith.truncf";
  } else if (ff) {
    name = to_unsigned ? "arith.fptoui" : "arith.fptosi";
  } else if (ft) {
    name = wf == 1 || from_unsigned ? "arith.uitofp" : "arith.sitofp";
  } else {
    name = wt < wf ? "arith.trunci" : wf == 1 || from_unsigned ? "arith.extui" : "arith.extsi";
  }
  return braze_build_typed(b, name, &x, 1, to, NULL, 0);
}

/* ---- value maps and cloning ---- */

void braze_value_map_add(BrazeValueMap *m, MlirValue from, MlirValue to) {
  if (m->count == m->cap) {
    m->cap = m->cap ? 2 * m->cap : 16;
    m->from = realloc(m->from, m->cap * sizeof *m->from);
    m->to = realloc(m->to, m->cap * sizeof *m->to);
  }
  m->from[m->count] = from;
  m->to[m->count] = to;
  m->count++;
}

MlirValue braze_value_map_lookup(const BrazeValueMap *m, MlirValue v) {
  for (size_t i = m->count; i-- > 0;)
    if (mlirValueEqual(m->from[i], v))
      return m->to[i];
  return v;
}

void braze_value_map_free(BrazeValueMap *m) {
  free(m->from);
  free(m->to);
  *m = (BrazeValueMap){0};
}

static MlirWalkResult remap_operands(MlirOperation op, void *data) {
  const BrazeValueMap *map = data;
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(op); i < n; ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    MlirValue to = braze_value_map_lookup(map, v);
    if (!mlirValueEqual(v, to))
      mlirOperationSetOperand(op, i, to);
  }
  return MlirWalkResultAdvance;
}

bool braze_clone_block_body(BrazeBuilder *b, MlirBlock src, BrazeValueMap *map, MlirValue *yields,
                            intptr_t *num_yields) {
  return braze_clone_body_at(b, src, map, NULL, 0, yields, num_yields);
}

bool braze_clone_body_at(BrazeBuilder *b, MlirBlock src, BrazeValueMap *map, const MlirValue *src_dims,
                         intptr_t num_src_dims, MlirValue *yields, intptr_t *num_yields) {
  MlirOperation terminator = mlirBlockGetTerminator(src);
  for (MlirOperation op = mlirBlockGetFirstOperation(src); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (mlirOperationEqual(op, terminator))
      break;
    if (src_dims && braze_op_is(op, "linalg.index")) {
      int64_t d = mlirIntegerAttrGetValueInt(mlirOperationGetAttributeByName(op, braze_ref("dim")));
      if (d < 0 || d >= num_src_dims)
        return false;
      braze_value_map_add(map, mlirOperationGetResult(op, 0), src_dims[d]);
      continue;
    }
    MlirOperation clone = mlirOperationClone(op);
    mlirOperationWalk(clone, remap_operands, map, MlirWalkPreOrder);
    braze_builder_insert(b, clone);
    for (intptr_t i = 0, n = mlirOperationGetNumResults(op); i < n; ++i)
      braze_value_map_add(map, mlirOperationGetResult(op, i), mlirOperationGetResult(clone, i));
  }
  intptr_t n = mlirOperationIsNull(terminator) ? 0 : mlirOperationGetNumOperands(terminator);
  if (n > *num_yields)
    return false;
  for (intptr_t i = 0; i < n; ++i)
    yields[i] = braze_value_map_lookup(map, mlirOperationGetOperand(terminator, i));
  *num_yields = n;
  return true;
}
