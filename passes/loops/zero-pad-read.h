/* Zero pads at the loop level: recognising the generic that graph-decompose's
 * zero-pad form (passes/graph/zero-pad.c) becomes, so that a consumer may read the
 * unpadded tensor with the padding implicit (decision 0024).
 *
 * The form: an all-parallel linalg.generic over [B, Lp, C] (identity output map)
 * whose inputs are integer constants (the position table, the inside mask) and whose
 * body yields `arith.select(cond, tensor.extract %data[...], 0.0)`, the condition and
 * the indices computed from the inputs and `linalg.index` by integer arith. It is read
 * exactly, not by its form: the body is decoded into a small integer program and run
 * at every point of [B, Lp, C] (as targets/cpu/matmul/a-runs.c evaluates maps), at
 * b = 0 or c = 0 only where a dependence analysis of the program shows the loop just
 * moves the read along a dim of its extent (graph-decompose's pads: 3 364 points
 * instead of 6.9 million for ResNet's first stage at batch 32). It is a
 * zero pad of channels-last data when there is a table T[Lp] such that at every point
 * (b, q, c): cond holds iff T[q] >= 0, and then the element read is
 * data_flat[(b L + T[q]) C + c] (L = data's elements / (B C); data's memory is
 * [B, L, C] row-major, whatever its shape). Used by form-kernels (pad-templates) and
 * the CPU matmul template. Nothing here knows about a target. */
#ifndef BRAZE_PASSES_LOOPS_ZERO_PAD_READ_H
#define BRAZE_PASSES_LOOPS_ZERO_PAD_READ_H

#include <stdint.h>

#include "mlir-c/IR.h"

typedef struct {
  MlirValue data;          /* the tensor read (captured by the body) */
  int64_t batch, padded;   /* B, Lp */
  int64_t channels, inner; /* C, L: data is [B, L, C] in memory */
  int32_t *table;          /* [Lp]: the position of data each padded position reads, or -1 */
} BrazeZeroPad;

/* Points of [B, Lp, C] above which the pad is not checked (and not recognised). */
enum { BRAZE_ZERO_PAD_MAX_POINTS = 1 << 26 };

/* The constant a value is bound to (an outlined kernel's argument that every call
 * passes the same constant), or a null attribute; `arith.constant` inputs are read
 * without it. */
typedef MlirAttribute (*BrazeConstantOf)(MlirValue value, void *user);

/* NULL when `generic` is a zero pad of channels-last data (*out filled, free it with
 * braze_zero_pad_free), else why not (a static string; *out left empty). Its inputs
 * must be constants: `arith.constant`s, or values `constant_of` (may be NULL) binds. */
const char *braze_zero_pad_read(MlirOperation generic, BrazeConstantOf constant_of, void *user, BrazeZeroPad *out);
void braze_zero_pad_free(BrazeZeroPad *pad);

#endif
