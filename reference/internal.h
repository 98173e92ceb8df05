/* Internals of the reference interpreter, shared by its op files.
 *
 * Every op evaluator has the RefOpFn signature: it receives the operand tensors and
 * a result tensor already allocated (zeroed) with the op's result type, writes exact
 * double values into result->data, and returns false after emitting an error at the
 * op. The driver (interp.c) rounds the result to its element type afterwards. */
#ifndef BRAZE_REFERENCE_INTERNAL_H
#define BRAZE_REFERENCE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dialects/graph/mesh.h"
#include "mlir-c/IR.h"
#include "support/tensor.h"

typedef bool (*RefOpFn)(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result);

/* Emit "reference: graph.X: <message>" at the op's location; returns false. */
bool ref_fail(MlirOperation op, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "4x8xf32" for messages (a static buffer per call slot: use at most 4 per message). */
const char *ref_type_str(const BrazeHostTensor *t);

/* Row-major strides of a shape. */
void ref_strides(int rank, const int64_t *shape, int64_t *strides);
/* Strides that read `t` broadcast (numpy rules, aligned right) into a shape of rank
 * `rank`: 0 for broadcast dims. False when `t` does not broadcast to `shape`. */
bool ref_broadcast_strides(const BrazeHostTensor *t, int rank, const int64_t *shape, int64_t *strides);
/* Advance a row-major multi-index; false once it wraps past the last element. */
bool ref_index_next(int64_t *idx, int rank, const int64_t *shape);
int64_t ref_offset(const int64_t *idx, const int64_t *strides, int rank);
bool ref_same_shape(const BrazeHostTensor *a, const BrazeHostTensor *b);

/* Checks shared by the op families; each emits its own error. */
bool ref_require_float(MlirOperation op, const BrazeHostTensor *t, const char *what);
bool ref_require_dtype(MlirOperation op, const BrazeHostTensor *t, BrazeDType dtype, const char *what);
bool ref_require_shape(MlirOperation op, const BrazeHostTensor *t, int rank, const int64_t *shape, const char *what);
/* A required integer attribute `name` in [0, bound). */
bool ref_dim_attr(MlirOperation op, const char *name, int bound, int *out);
/* A required float attribute (eps). */
bool ref_f64_attr(MlirOperation op, const char *name, double *out);

/* NaN-propagating maximum/minimum (IEEE 754-2019 maximum/minimum: +0 > -0). */
double ref_max(double a, double b);
double ref_min(double a, double b);

/* dense_resource constants (resource.c): fill `result` from the blob of `attr`.
 * begin/end bracket one braze_reference_run (the printed module is cached between). */
void ref_resources_begin(void);
void ref_resources_end(void);
bool ref_resource_fill(MlirOperation op, MlirAttribute attr, BrazeHostTensor *result);

/* Op families (pointwise.c, reduce.c, contract.c, shape.c). */
bool ref_unary(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result);
bool ref_cast(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result);
bool ref_gelu(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result);
bool ref_binary(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result);
/* bitwise_and/or/xor (binary, broadcasting) and bitwise_not on integers: two's
 * complement of the dtype's width (i1: logical). */
bool ref_bitwise(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result);
bool ref_cmp(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result);
bool ref_select(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result);
bool ref_reduce(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result);
bool ref_softmax(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result);
bool ref_layer_norm(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result);
bool ref_rms_norm(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result);
bool ref_batch_norm(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result);
bool ref_matmul(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result);
bool ref_batch_matmul(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result);
bool ref_linear(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result);
bool ref_transpose(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result);
bool ref_broadcast_to(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result);
bool ref_reshape(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result);
bool ref_slice(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result);
bool ref_window(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result);
bool ref_concat(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result);
bool ref_constant(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result);
/* gather.c */
bool ref_gather(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result);
bool ref_gather_elements(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result);
/* conv.c */
bool ref_conv(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result);
bool ref_conv_transpose(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result);

/* Collectives (collective.c): args[r] is rank r's operand, results[r] rank r's result
 * (allocated with the op's result type), for every rank of `mesh`. */
bool ref_collective(MlirOperation op, const BrazeMesh *mesh, const BrazeHostTensor *const *args,
                    BrazeHostTensor *results);

/* User kernels (reference/user-kernel.c): a buffer (host tensor) of a static memref type, and
 * a call of a `braze.user_kernel` function on the caller's buffers (written in place). */
bool ref_buffer_init(BrazeHostTensor *t, MlirType memref_type);
bool ref_user_kernel_call(MlirOperation call, MlirOperation callee, BrazeHostTensor *const *bufs, size_t n);

#endif
