/* form-row-chains internals: which kernels can run one block of rows at a time, and
 * their block form (passes/chains/row-local.c). A kernel is row-local when every value it
 * reads or writes is indexed, for its leading "row" dims (the result's dims but the
 * last: batch..., m), either by those dims exactly (ROW: sliced to the block's rows),
 * by the batch dims alone (BATCH: sliced to the block's batch, whole along m: a
 * matmul's B), or by none of them (WHOLE: read as it is). Such a kernel computes rows
 * [m0, m0 + mc) of its result from rows [m0, m0 + mc) of its ROW operands alone, so a
 * chain of them can run block by block with the intermediates in per-block scratch. */
#ifndef BRAZE_PASSES_CHAINS_ROW_LOCAL_H
#define BRAZE_PASSES_CHAINS_ROW_LOCAL_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/AffineExpr.h"
#include "mlir-c/IR.h"
#include "support/strbuf.h"

enum { RC_MAX_ARGS = 32, RC_MAX_RANK = 8, RC_MAX_LOOPS = 16 };

/* The row shape shared by a chain: `nr` leading dims (batch dims then m). */
typedef struct {
  int nr;
  int64_t dims[RC_MAX_RANK];
} RcRows;

/* How a kernel reads a value, dim by dim: row_of[d] = r when the value's dim d is
 * indexed by row dim r (sliced to the block: one batch, or the block's mc rows for m),
 * -1 when by no row dim (kept whole). ROW values (row_of[r] = r for r < nr: scores,
 * q) are sliced to the block's rows; BATCH ones (k, v: the batch dims only) to its
 * batch; a [S, S] mask read by (m, n) to its rows of every batch.
 *
 * RC_AFFINE: the dim is read through an expression of row dims and other loops, as
 * views write it: q's heads inside a [S, B, 3E] projection are read at
 * `(b*h mod 4) * 8 + d` (support/affine-bounds.h). It splits into an offset of the
 * row dims (over dims d0.. = row dims 0.., the block's first rows) and a part of the
 * other loops spanning `size` elements `stride` apart (the block reads that window),
 * or m times a stride (by_m: the block's mc rows that far apart, as a [S * B, E] result
 * read by (b, s) at row s * B + b). */
enum { RC_AFFINE = -2 };

typedef struct {
  MlirAffineExpr offset;
  int64_t size, stride;
  bool by_m;
} RcWindow;

typedef struct {
  bool used;
  int rank;
  int8_t row_of[RC_MAX_RANK];
  RcWindow window[RC_MAX_RANK]; /* RC_AFFINE dims */
} RcSlice;

/* The slice of a value read as rows (the row dims leading, in order). */
RcSlice rc_row_slice(const RcRows *rows, int rank);
bool rc_slice_equal(const RcSlice *a, const RcSlice *b);
/* Whether the slice reads the row dims as its leading dims (ROW). */
bool rc_slice_is_rows(const RcSlice *s, const RcRows *rows);
/* Whether the slice reads no row dim: the value is passed whole. */
bool rc_slice_is_whole(const RcSlice *s);

/* The kernel's rows: its one result's dims but the last. NULL, or why not (a static
 * string: a named reason for remarks). */
const char *rc_kernel_rows(MlirOperation kernel, RcRows *rows);

/* How `kernel` reads each argument (slices[i]; .used false when unread), against
 * `rows`. NULL when the kernel is row-local, else the reason; for an argument read
 * through a map that is no window of the block's rows (a view that mixes the rows
 * with other loops), `detail` (when not NULL) gets which argument and the map. */
const char *rc_classify(MlirOperation kernel, const RcRows *rows, RcSlice *slices, BrazeStr *detail);

/* The type of `type` sliced by `slice` to one block of mc rows. */
MlirType rc_block_type(MlirType type, const RcSlice *slice, int64_t mc, const RcRows *rows);

/* Retype a clone of a classified kernel to its block form in place: arguments by
 * their slices, every row-shaped value inside (tensor.empty, linalg.fill,
 * linalg.generic results) to mc rows of one batch, and the function type. */
void rc_make_block(MlirOperation clone, const RcRows *rows, const RcSlice *slices, int64_t mc);

/* Bytes of one row of a row-shaped tensor type (the dims after the rows); with
 * rows->nr = 0, of the whole tensor. */
int64_t rc_row_bytes(MlirType type, const RcRows *rows);

#endif
