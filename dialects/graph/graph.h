/* The `graph` dialect from C: op classes, attribute accessors, tensor-type helpers
 * and the verifier entry point. The dialect itself is graph.irdl.mlir. */
#ifndef BRAZE_DIALECTS_GRAPH_GRAPH_H
#define BRAZE_DIALECTS_GRAPH_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlir-c/IR.h"

typedef enum {
  GRAPH_NOT_GRAPH = 0,
  GRAPH_UNARY,       /* neg abs exp log sqrt rsqrt tanh sigmoid relu erf cast */
  GRAPH_BINARY,      /* add sub mul div max min pow (numpy broadcasting) */
  GRAPH_CMP,         /* cmp {predicate} */
  GRAPH_SELECT,      /* select(cond, on_true, on_false), broadcasting */
  GRAPH_REDUCE,      /* reduce_sum reduce_mean reduce_max reduce_min reduce_var */
  GRAPH_COMPOSITE,   /* softmax log_softmax layer_norm rms_norm batch_norm gelu silu linear */
  GRAPH_CONTRACTION, /* matmul batch_matmul */
  GRAPH_SHAPE,       /* transpose broadcast_to reshape slice concat window */
  GRAPH_CONSTANT,    /* constant {value} */
  GRAPH_GATHER,      /* gather gather_elements {axis}: indexed reads at run-time indices */
  GRAPH_COLLECTIVE,  /* all_reduce all_gather reduce_scatter all_to_all all_slice {mesh_axes}:
                        partitioned programs only (docs/sharding.md) */
} GraphOpClass;

/* The class of a graph op; GRAPH_NOT_GRAPH for ops of other dialects. */
GraphOpClass braze_graph_op_class(MlirOperation op);
/* The op's name without the "graph." prefix ("add"), or NULL for non-graph ops. */
const char *braze_graph_op_mnemonic(MlirOperation op);
bool braze_is_graph_op(MlirOperation op);
/* Whether `v` has exactly one use. */
bool braze_single_use(MlirValue v);
/* A graph.concat that only puts collectives' results side by side in memory: each
 * operand is read by it alone and is a collective's result or such a concat, and
 * the dims before `dim` have size 1 (each operand is one contiguous block of the
 * result). Such a concat stays a graph op through graph-to-loops and costs nothing:
 * the entry has each collective write its block of the result in place
 * (targets/common/entry-graph.c). */
bool braze_graph_concat_of_collectives(MlirOperation op);

/* Attribute accessors; false when absent or of another kind. */
bool braze_attr_i64(MlirOperation op, const char *name, int64_t *out);
bool braze_attr_f64(MlirOperation op, const char *name, double *out);
/* A string attribute's text (not NUL-terminated: use *len). */
bool braze_attr_str(MlirOperation op, const char *name, const char **data, size_t *len);
/* A dense i64 array attribute: returns its size (or -1 when absent/wrong kind) and
 * copies up to `max` elements into `out`. */
intptr_t braze_attr_i64_array(MlirOperation op, const char *name, int64_t *out, size_t max);

/* Ranked tensor helpers. A graph value is always a ranked static tensor. */
enum { BRAZE_MAX_RANK = 8 };
/* The largest tensor braze compiles or evaluates: 2^40 bytes (1 TiB). Sizes, offsets
 * and element counts below it stay far from overflowing int64 in every pass, the ABI
 * tables and the tools. The graph verifier refuses larger ones, naming the limit. */
#define BRAZE_MAX_TENSOR_BYTES ((int64_t)1 << 40)
#define BRAZE_MAX_TENSOR_BYTES_TEXT "2^40 bytes (1 TiB)"
bool braze_is_ranked_tensor(MlirType t);
intptr_t braze_rank(MlirType t);
/* Copies the shape into `dims` (at least BRAZE_MAX_RANK entries); returns the rank. */
intptr_t braze_shape(MlirType t, int64_t *dims);
int64_t braze_num_elements(MlirType t);
/* A ranked static tensor type's element count and bytes (i1: one byte an element);
 * false when either overflows int64 or the element type is not braze's. */
bool braze_tensor_size(MlirType t, int64_t *elements, int64_t *bytes);
MlirType braze_element_type(MlirType t);
/* "f32", "f64", "f16", "bf16", "i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64", "i1",
 * or NULL for an unsupported type. */
const char *braze_dtype_name(MlirType element);

/* numpy broadcasting of two shapes into `out`; false when incompatible. */
bool braze_broadcast_shapes(const int64_t *a, intptr_t rank_a, const int64_t *b, intptr_t rank_b,
                            int64_t *out, intptr_t *rank_out);

/* Verify every graph op under `root` (shape/dtype rules IRDL cannot express).
 * Emits one error per violation at the op's location; returns false if any. */
bool braze_graph_verify(MlirOperation root);

#endif
