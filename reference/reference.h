/* The reference interpreter: braze's oracle.
 *
 * Evaluates a graph-dialect func.func op by op, in double precision, with plain
 * loops, straight from docs/dialect-graph.md. It shares no code with the compiler's
 * passes: composites (softmax, layer_norm, gelu, linear, ...) are evaluated from their
 * definitions, not through graph-decompose. Every op result is rounded to its element
 * type on store (see braze_dtype_round in support/tensor.h); values inside an op
 * (e.g. a softmax's max and sum) stay in double.
 *
 * What it evaluates: every graph op, func.return, func.call of functions in the same
 * module whose body is itself graph ops (+ calls), and user kernels (docs/user-kernels.md):
 * bufferization.to_buffer / to_tensor, memref.alloc (uninitialized: NaN), memref.copy
 * and func.call of a `braze.user_kernel` function on memrefs, whose scf/memref/vector/
 * arith/math body reference/user-kernel.c evaluates; any other callee is an error at the call.
 * Anything else (a user kernel written in linalg/arith, other dialects' ops, tensors
 * that are not ranked static f32/f16/bf16/i32/i64/i1, integer division by zero, a
 * NaN or out-of-range float->int cast, shapes that break the op's rules) is an error
 * emitted with braze_emit_error at the op's location (file:line:col): never a silent
 * wrong answer. Errors go to the context's braze diagnostic sink when one is attached
 * (support/diag.h), otherwise to MLIR's handlers.
 *
 * Usage:
 *   BrazeHostTensor *outs; size_t n_out;
 *   if (braze_reference_run(func, inputs, n_in, &outs, &n_out)) {
 *     ... outs[i] is result i of the function ...
 *     braze_tensors_free(outs, n_out);
 *   }
 */
#ifndef BRAZE_REFERENCE_REFERENCE_H
#define BRAZE_REFERENCE_REFERENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlir-c/IR.h"
#include "support/tensor.h"

/* Run `func` (a func.func inside a module) on `inputs`, which must match the
 * function's argument types exactly (dtype and shape). On success *outputs is a
 * malloc'd array of *n_out tensors (free with braze_tensors_free) and true is
 * returned; on failure an error has been emitted, *outputs is NULL, *n_out 0. The
 * inputs are not modified. */
bool braze_reference_run(MlirOperation func, const BrazeHostTensor *inputs, size_t n_in, BrazeHostTensor **outputs,
                         size_t *n_out);

/* The mesh simulation (docs/sharding.md): run the partitioned (SPMD) program `func`,
 * whose braze.mesh has n_ranks devices, on every rank in lockstep, op by op, each
 * collective computed from every rank's operand (reference/collective.c). inputs[r]
 * holds rank r's n_in inputs; on success outputs[r] is a malloc'd array of *n_out
 * tensors for each rank (free each with braze_tensors_free). Collectives must be in
 * `func` itself: in a called function only those over a group of one rank are
 * evaluated (they are the identity). */
bool braze_reference_run_mesh(MlirOperation func, int64_t n_ranks, BrazeHostTensor *const *inputs, size_t n_in,
                              BrazeHostTensor **outputs, size_t *n_out);

#endif
