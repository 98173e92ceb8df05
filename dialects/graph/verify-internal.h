/* Private to the graph verifier (dialects/graph/verify.c and verify-*.c): the per-op view the
 * rules work on, and helpers that format shapes and types into messages. */
#ifndef BRAZE_DIALECTS_GRAPH_VERIFY_INTERNAL_H
#define BRAZE_DIALECTS_GRAPH_VERIFY_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "dialects/graph/graph.h"
#include "mlir-c/IR.h"

/* One operand or the result, already checked to be a ranked static tensor of a
 * supported element type and rank <= BRAZE_MAX_RANK. */
typedef struct {
  MlirType type;
  MlirType elt;
  intptr_t rank;
  int64_t dims[BRAZE_MAX_RANK];
} GvTensor;

typedef struct {
  MlirOperation op;
  const char *mnemonic; /* "add" */
  intptr_t num_inputs;
  const GvTensor *in;
  GvTensor res;
} GvOp;

typedef bool (*GvRule)(const GvOp *v);

/* Text that lives until the end of the full expression that made it (C11 temporary
 * lifetime), so several can be formatted into one message. */
typedef struct {
  char s[256];
} GvText;

/* Emit "'graph.<op>' op <message>" at the op's location; always returns false. */
bool gv_fail(const GvOp *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

GvText gv_dims(const int64_t *dims, intptr_t rank); /* "[4, 8]" */
GvText gv_shape(const GvTensor *t);                 /* the tensor's shape as "[4, 8]" */
GvText gv_type(MlirType t);                         /* "tensor<4x8xf32>", "f32" */

bool gv_is_float(MlirType elt);
bool gv_is_i1(MlirType elt);
bool gv_same_shape(const GvTensor *a, const GvTensor *b);
bool gv_dims_equal(const int64_t *a, intptr_t rank_a, const int64_t *b, intptr_t rank_b);
/* The product of the dims (only those with only[i] set, when `only` is not NULL);
 * false when it overflows int64. */
bool gv_product(const int64_t *dims, intptr_t rank, const bool *only, int64_t *out);

/* Shared checks (each emits its own error). */
bool gv_result_is(const GvOp *v, const GvTensor *t, const char *what); /* result type == t's type */
bool gv_result_shape_is(const GvOp *v, const int64_t *dims, intptr_t rank, const char *why);
bool gv_same_elt(const GvOp *v, const GvTensor *a, const char *a_name, const GvTensor *b,
                 const char *b_name);
/* An integer attribute `name` (not a bool) in [0, rank): the dim/axis of softmax, concat... */
bool gv_dim_attr(const GvOp *v, const char *name, intptr_t rank, int64_t *out);

/* Rules, by op family. */
bool gv_verify_same_type_unary(const GvOp *v); /* neg abs exp ... silu: result type == x type */
bool gv_verify_cast(const GvOp *v);
bool gv_verify_gelu(const GvOp *v);
bool gv_verify_binary(const GvOp *v);
bool gv_verify_bitwise(const GvOp *v); /* bitwise_and/or/xor (binary), bitwise_not: integers only */
bool gv_verify_cmp(const GvOp *v);
bool gv_verify_select(const GvOp *v);

bool gv_verify_reduce(const GvOp *v);
bool gv_verify_softmax(const GvOp *v);
bool gv_verify_layer_norm(const GvOp *v);
bool gv_verify_rms_norm(const GvOp *v);
bool gv_verify_batch_norm(const GvOp *v);

bool gv_verify_linear(const GvOp *v);
bool gv_verify_matmul(const GvOp *v);
bool gv_verify_batch_matmul(const GvOp *v);

bool gv_verify_transpose(const GvOp *v);
bool gv_verify_broadcast_to(const GvOp *v);
bool gv_verify_reshape(const GvOp *v);
bool gv_verify_slice(const GvOp *v);
bool gv_verify_window(const GvOp *v);
bool gv_verify_concat(const GvOp *v);
bool gv_verify_constant(const GvOp *v);

bool gv_verify_gather(const GvOp *v);
bool gv_verify_gather_elements(const GvOp *v);

/* verify-conv.c: conv and conv_transpose */
bool gv_verify_conv(const GvOp *v);

/* verify-collective.c: the collectives' local shape rules, and a func.func's
 * braze.mesh and its arguments' and results' braze.sharding (decision 0015). */
bool gv_verify_collective(const GvOp *v);
bool gv_verify_func_sharding(MlirOperation func);

#endif
