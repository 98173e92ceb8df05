/* Loop-level helpers: building linalg.generic (and the few tensor/arith ops around
 * it) from C, composing affine maps, and cloning region bodies with value remapping.
 *
 * Used by graph-to-loops and inline-unrealized; form-kernels and the CPU codegen may
 * reuse them. Nothing here knows about the graph dialect.
 *
 * Insertion: a BrazeBuilder puts every op it creates either right before `before`
 * (when non-null) or at the end of `block`, with location `loc`. */
#ifndef BRAZE_PASSES_LOOPS_BUILDER_H
#define BRAZE_PASSES_LOOPS_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir/origins.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/IR.h"

typedef struct {
  MlirContext ctx;
  MlirLocation loc;
  MlirBlock block;      /* used when `before` is null: append at the end */
  MlirOperation before; /* non-null: insert right before this op */
} BrazeBuilder;

/* A builder inserting before `op` with `op`'s location. */
BrazeBuilder braze_builder_before(MlirOperation op);
/* A builder appending to `block` with location `loc`. */
BrazeBuilder braze_builder_at_end(MlirBlock block, MlirLocation loc);
/* Insert a detached op where the builder points; returns it. */
MlirOperation braze_builder_insert(BrazeBuilder *b, MlirOperation op);

/* ---- generic op creation ---- */

/* Create and insert `name` with operands, result types and attributes (no regions). */
MlirOperation braze_build_op(BrazeBuilder *b, const char *name, const MlirValue *operands, intptr_t num_operands,
                             const MlirType *results, intptr_t num_results, const MlirNamedAttribute *attrs,
                             intptr_t num_attrs);
/* One-result ops whose result type is the first operand's type (arith.addf, math.exp...). */
MlirValue braze_build_unary(BrazeBuilder *b, const char *name, MlirValue x);
MlirValue braze_build_binary(BrazeBuilder *b, const char *name, MlirValue x, MlirValue y);
/* A one-result op with an explicit result type (casts, compares). */
MlirValue braze_build_typed(BrazeBuilder *b, const char *name, const MlirValue *operands, intptr_t n,
                            MlirType result, const MlirNamedAttribute *attrs, intptr_t num_attrs);
/* arith.constant of scalar `type` (float or integer/index) holding `value`. */
MlirValue braze_build_scalar_constant(BrazeBuilder *b, MlirType type, double value);
/* arith.constant of integer `type` holding `value` exactly (INT64_MIN/MAX included). */
MlirValue braze_build_int_constant(BrazeBuilder *b, MlirType type, int64_t value);
/* arith.constant of any typed attribute (dense tensors, scalars). */
MlirValue braze_build_constant_attr(BrazeBuilder *b, MlirAttribute value);
/* tensor.empty of a static tensor type. */
MlirValue braze_build_empty(BrazeBuilder *b, MlirType tensor_type);
/* linalg.fill ins(scalar) outs(init) -> init's type. */
MlirValue braze_build_fill(BrazeBuilder *b, MlirValue scalar, MlirValue init);
/* tensor.insert_slice of `source` into `dest` at static `offsets` with unit strides. */
MlirValue braze_build_insert_slice(BrazeBuilder *b, MlirValue source, MlirValue dest, const int64_t *offsets);

/* ---- linalg.generic ---- */

/* Emits the scalar body of a generic into `body` (a builder appending to the new
 * block). `args` are the block arguments (one per input, then one per output).
 * Writes one value per output to `yields`; returns false (after emitting an error
 * at body->loc) when it cannot. */
typedef bool (*BrazeBodyFn)(BrazeBuilder *body, const MlirValue *args, intptr_t num_args, MlirValue *yields,
                            void *data);

typedef struct {
  const MlirValue *inputs;
  intptr_t num_inputs;
  const MlirValue *outputs; /* the inits; results have their types */
  intptr_t num_outputs;
  const MlirAffineMap *maps; /* num_inputs + num_outputs maps over num_loops dims */
  intptr_t num_loops;
  const bool *reduction; /* per loop: true for a reduction iterator; NULL = all parallel */
  MlirAttribute ops;     /* braze.ops array attribute, or null for none */
  BrazeBodyFn body;
  void *body_data;
} BrazeGenericSpec;

/* Build and insert a linalg.generic; null op (after the body's error) on failure. */
MlirOperation braze_build_generic(BrazeBuilder *b, const BrazeGenericSpec *spec);

/* Reading a linalg.generic back. Maps are returned in operand order (inputs, outputs). */
bool braze_is_generic(MlirOperation op);
intptr_t braze_generic_num_inputs(MlirOperation generic);
intptr_t braze_generic_num_loops(MlirOperation generic);
MlirAffineMap braze_generic_map(MlirOperation generic, intptr_t operand);
bool braze_generic_loop_is_reduction(MlirOperation generic, intptr_t loop);
bool braze_generic_all_parallel(MlirOperation generic);
/* The loops' extents (extents[0..max)), each from an operand dim the loop reads as a bare
 * dim (-1 when none does); returns the number of loops, which may exceed max. */
intptr_t braze_generic_loop_extents(MlirOperation generic, int64_t *extents, intptr_t max);
MlirBlock braze_generic_body(MlirOperation generic);

/* ---- scalar arithmetic chosen by element type ---- */

/* The arith op for `op` in "add" "sub" "mul" "div" "max" "min" "pow" on floats,
 * signed integers, or i1 (unsigned: false < true). Float max/min propagate NaN
 * (arith.maximumf/minimumf); integer div truncates (divsi); pow is floats only.
 * Null value when there is none. */
MlirValue braze_scalar_binary(BrazeBuilder *b, const char *op, MlirValue x, MlirValue y);
/* Compare with `pred` ("eq" "ne" "lt" "le" "gt" "ge", `len` chars) to i1: ordered
 * float predicates except ne (une: NaN != NaN); signed integers; unsigned i1. */
MlirValue braze_scalar_cmp(BrazeBuilder *b, const char *pred, size_t len, MlirValue x, MlirValue y);
/* A reduction of kind "sum", "max" or "min": the combiner x (op) acc, and the
 * identity (0; -inf or the smallest integer; +inf or the largest integer). */
MlirValue braze_scalar_reduce_combine(BrazeBuilder *b, const char *kind, MlirValue x, MlirValue acc);
MlirValue braze_scalar_reduce_identity(BrazeBuilder *b, const char *kind, MlirType element);
/* Convert `x` to scalar type `to` with the graph dialect's cast semantics:
 * float<->float ext/trunc (f16<->bf16 through f32), float->int fptosi, int->float
 * sitofp (uitofp from i1), int->int extsi/trunci (extui from i1), to i1 as x != 0. */
MlirValue braze_scalar_cast(BrazeBuilder *b, MlirValue x, MlirType to);

/* The same for integers the graph level typed unsigned (ui8..ui64, stored signless
 * at the loop level: passes/loops/signless.h): `is_unsigned` picks divui, maxui,
 * minui, cmpi ult/ule/ugt/uge and the identities 0 (max) and all ones (min); a cast
 * reads an unsigned source with extui/uitofp and writes an unsigned target with
 * fptoui. */
MlirValue braze_scalar_binary_u(BrazeBuilder *b, const char *op, MlirValue x, MlirValue y, bool is_unsigned);
MlirValue braze_scalar_cmp_u(BrazeBuilder *b, const char *pred, size_t len, MlirValue x, MlirValue y,
                             bool is_unsigned);
MlirValue braze_scalar_reduce_combine_u(BrazeBuilder *b, const char *kind, MlirValue x, MlirValue acc,
                                        bool is_unsigned);
MlirValue braze_scalar_reduce_identity_u(BrazeBuilder *b, const char *kind, MlirType element, bool is_unsigned);
MlirValue braze_scalar_cast_u(BrazeBuilder *b, MlirValue x, MlirType to, bool from_unsigned, bool to_unsigned);

/* ---- braze.ops ---- */

/* An array attribute of string attributes. */
MlirAttribute braze_string_array(MlirContext ctx, const char *const *items, intptr_t n);
/* The concatenation of two string array attributes (either may be null; null
 * when both are). */
MlirAttribute braze_string_array_concat(MlirContext ctx, MlirAttribute first, MlirAttribute second);
/* Whether the op's braze.ops contains `name`. */
bool braze_ops_contains(MlirOperation op, const char *name);

/* ---- affine maps ---- */

/* outer ∘ inner: each result of `outer` with its dims replaced by `inner`'s results,
 * simplified; the result map has inner's dims. outer's dim count must equal inner's
 * result count. */
MlirAffineMap braze_map_compose(MlirAffineMap outer, MlirAffineMap inner);
/* The identity map of `rank` dims. */
MlirAffineMap braze_map_identity(MlirContext ctx, intptr_t rank);
/* The numpy-broadcast read map of an operand of `shape` inside a loop nest over
 * `domain` (operand dims aligned to the right of the domain's first `domain_rank`
 * dims; size-1 dims read at 0 when the domain dim is not 1; missing leading dims
 * dropped). The map has `num_loops` dims (>= domain_rank). */
MlirAffineMap braze_map_broadcast(MlirContext ctx, intptr_t num_loops, const int64_t *domain, intptr_t domain_rank,
                                  const int64_t *shape, intptr_t rank);
/* If `map` is a permutation, its inverse in *inverse; false otherwise. */
bool braze_map_inverse_permutation(MlirAffineMap map, MlirAffineMap *inverse);

/* ---- cloning with value remapping ---- */

typedef struct {
  MlirValue *from;
  MlirValue *to;
  size_t count, cap;
} BrazeValueMap;

void braze_value_map_add(BrazeValueMap *m, MlirValue from, MlirValue to);
/* The value `v` maps to, or `v` itself when unmapped. */
MlirValue braze_value_map_lookup(const BrazeValueMap *m, MlirValue v);
void braze_value_map_free(BrazeValueMap *m);

/* Clone every op of `src` except its terminator where `b` points, replacing operands
 * (also inside nested regions) through `map`, and adding each result's clone to it.
 * Writes the terminator's operands, remapped, to `yields` (room for *num_yields in;
 * the count out). Returns false when the terminator has more operands than room. */
bool braze_clone_block_body(BrazeBuilder *b, MlirBlock src, BrazeValueMap *map, MlirValue *yields,
                            intptr_t *num_yields);
/* The same, where each `linalg.index d` of `src` is replaced by src_dims[d] (index
 * values of the loop nest the body moves into) instead of being cloned; false also
 * when d is out of range. braze_clone_block_body is this with no dims. */
bool braze_clone_body_at(BrazeBuilder *b, MlirBlock src, BrazeValueMap *map, const MlirValue *src_dims,
                         intptr_t num_src_dims, MlirValue *yields, intptr_t *num_yields);

#endif
