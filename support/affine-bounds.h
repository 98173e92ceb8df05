/* Affine expressions over loop dims of known extents (dim i ranges over [0, extents[i])):
 * their value ranges, and the floordiv/mod simplifications those ranges allow.
 *
 * View composition writes a reshape's split as floordiv/mod of a linearized index:
 * reading q's heads out of a [S, B, 3E] projection through reshape and transpose gives
 * `(d0 * 8 + d2) floordiv 32` and `(d0 * 8 + d2) mod 32`. With d2 < 8 these are
 * `d0 floordiv 4` and `(d0 mod 4) * 8 + d2`: the batch index d0 no longer mixes with
 * the head-dim index d2, which is what lets form-row-chains slice such an operand per
 * batch (passes/chains/row-local.c), and the codegens compute fewer divisions.
 * MLIR's own simplifier does not know the ranges, so it cannot do this. */
#ifndef BRAZE_SUPPORT_AFFINE_BOUNDS_H
#define BRAZE_SUPPORT_AFFINE_BOUNDS_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"

/* [*lo, *hi] of `e` over dims 0..n_dims-1 in [0, extents[d]); false when unknown (a
 * symbol, a dim without an extent, a product of two non-constants). */
bool braze_affine_range(MlirAffineExpr e, const int64_t *extents, intptr_t n_dims, int64_t *lo, int64_t *hi);

/* `e` with each floordiv/mod by a positive constant c of a sum a * H + L, where a
 * divides c and L's range lies in [0, a), rewritten as (H floordiv (c / a)) and
 * (H mod (c / a)) * a + L (and dropped where c / a = 1), bottom up. */
MlirAffineExpr braze_affine_simplify_bounded(MlirAffineExpr e, const int64_t *extents, intptr_t n_dims);

/* Every result of `map` simplified so; extents has one entry per map dim. */
MlirAffineMap braze_map_simplify_bounded(MlirAffineMap map, const int64_t *extents);

/* The additive split of `e` into the terms that read any dim of `mask` (bit d: dim d)
 * and the rest (the constant goes with the rest): e = *with + *without. False when a
 * term mixes dims in and out of the mask (a floordiv of both, a product). */
bool braze_affine_split(MlirAffineExpr e, uint64_t mask, MlirAffineExpr *with, MlirAffineExpr *without);

/* e + k, folded when e is a constant or k is 0 (no mlirSimplifyAffineExpr, which would
 * expand every mod into e - c * (e floordiv c)). */
MlirAffineExpr braze_affine_plus(MlirAffineExpr e, int64_t k);

/* Bit d set for each dim d that `e` reads (dims >= 64 are not tracked). */
uint64_t braze_affine_dims(MlirAffineExpr e);

/* Whether some result of `map` reads dim d. */
bool braze_map_reads_dim(MlirAffineMap map, intptr_t d);

/* Whether every result of `map` is a dim or a constant: no view's floordiv/mod or sum. */
bool braze_map_is_plain(MlirAffineMap map);

#endif
