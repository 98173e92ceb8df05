/* Building and reading graph-dialect ops from C.
 *
 * Shared by graph-decompose, graph-simplify and any pass that creates graph ops.
 * A GraphBuilder inserts new ops either through a pattern rewriter (inside a
 * rewrite pattern: the greedy driver must see every change) or directly before an
 * anchor op (plain walks). Every op it creates carries the builder's location.
 *
 * Result types are inferred the way docs/dialect-graph.md defines them (numpy
 * broadcasting for binary ops, reduced dims removed or kept as 1, ...); the element
 * type is the first operand's. Functions returning MlirValue return a null value
 * (mlirValueIsNull) when the shapes do not fit; callers then report at the op. */
#ifndef BRAZE_PASSES_GRAPH_BUILDER_H
#define BRAZE_PASSES_GRAPH_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlir-c/IR.h"
#include "mlir-c/Rewrite.h"

typedef struct {
  MlirContext ctx;
  MlirLocation loc;
  MlirRewriterBase rewriter; /* non-null: insert at the rewriter's insertion point */
  MlirOperation anchor;      /* rewriter null: insert right before this op */
  size_t num_created;        /* ops created so far (for remarks and reports) */
} GraphBuilder;

/* A builder that inserts before `op` (with `op`'s location), through `rewriter`. */
GraphBuilder braze_gb_for_pattern(MlirPatternRewriter rewriter, MlirOperation op);
/* A builder that inserts before `op` (with `op`'s location) without a rewriter. */
GraphBuilder braze_gb_before(MlirOperation op);

/* ---- types ---- */
MlirType braze_gb_tensor_type(MlirContext ctx, const int64_t *shape, intptr_t rank, MlirType element);

/* ---- creating ops ---- */

/* Any op: "graph.<mnemonic>" with the given operands, one result and attributes. */
MlirOperation braze_gb_create(GraphBuilder *b, const char *mnemonic, const MlirValue *operands,
                              intptr_t num_operands, MlirType result, const MlirNamedAttribute *attrs,
                              intptr_t num_attrs);
/* Any op as above with a result of `shape` and element type `elem`; returns the result. */
MlirValue braze_gb_make(GraphBuilder *b, const char *mnemonic, const MlirValue *operands, intptr_t num_operands,
                        const int64_t *shape, intptr_t rank, MlirType elem, const MlirNamedAttribute *attrs,
                        intptr_t num_attrs);
/* Pointwise unary op whose result type is x's type. */
MlirValue braze_gb_unary(GraphBuilder *b, const char *mnemonic, MlirValue x);
/* Pointwise binary op (add sub mul div max min pow) with the broadcast result shape. */
MlirValue braze_gb_binary(GraphBuilder *b, const char *mnemonic, MlirValue lhs, MlirValue rhs);
/* reduce_* over `dims` (each < rank). */
MlirValue braze_gb_reduce(GraphBuilder *b, const char *mnemonic, MlirValue x, const int64_t *dims,
                          intptr_t num_dims, bool keepdim);
/* A rank-0 graph.constant of `element` type holding `value` (floats and integers). */
MlirValue braze_gb_scalar(GraphBuilder *b, MlirType element, double value);
/* graph.constant {value = dense}: its type is the attribute's type. */
MlirValue braze_gb_constant(GraphBuilder *b, MlirAttribute dense);
MlirValue braze_gb_transpose(GraphBuilder *b, MlirValue x, const int64_t *perm);
MlirValue braze_gb_reshape(GraphBuilder *b, MlirValue x, const int64_t *shape, intptr_t rank);
MlirValue braze_gb_broadcast_to(GraphBuilder *b, MlirValue x, MlirType result);
/* matmul of [M, K] x [K, N]. */
MlirValue braze_gb_matmul(GraphBuilder *b, MlirValue lhs, MlirValue rhs);

/* ---- attributes ---- */
MlirNamedAttribute braze_gb_attr_i64_array(MlirContext ctx, const char *name, const int64_t *values,
                                           intptr_t n);
MlirNamedAttribute braze_gb_attr_bool(MlirContext ctx, const char *name, bool value);

/* ---- reading ---- */

/* The `value` attribute of the graph.constant defining `v` when it is a dense
 * elements attribute; a null attribute otherwise (block argument, other op, dense
 * resource). */
MlirAttribute braze_gb_constant_value(MlirValue v);
/* True when `v` is a graph.constant whose value is a splat; *out gets the splat as
 * a double (integers converted; i1 true is 1). */
bool braze_gb_splat_value(MlirValue v, double *out);
/* The op defining `v` when it is "graph.<mnemonic>", else a null op. */
MlirOperation braze_gb_defining(MlirValue v, const char *mnemonic);
bool braze_gb_is_identity_perm(const int64_t *perm, intptr_t n);
bool braze_gb_types_equal(MlirValue a, MlirValue b);

/* ---- replacing and erasing ---- */

/* Replace `op`'s single result by `v` and erase `op` (through the rewriter if any). */
void braze_gb_replace(GraphBuilder *b, MlirOperation op, MlirValue v);

/* Called for each graph op braze_graph_erase_dead is about to erase. */
typedef void (*BrazeEraseCallback)(MlirOperation op, void *user_data);
/* Erase graph ops whose results have no uses, under
 * `root`, until none is left: the greedy driver and upstream DCE cannot, since IRDL
 * ops carry no side-effect information. Returns how many were erased. */
size_t braze_graph_erase_dead(MlirOperation root, BrazeEraseCallback on_erase, void *user_data);

#endif
