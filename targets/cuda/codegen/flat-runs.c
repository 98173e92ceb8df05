/* cuda-codegen, flat runs: a vectorized element kernel's read whose lanes are
 * consecutive elements of the argument although its map is no plain walk along the
 * argument's last dim. A conv's im2col copy is the case in point: ResNet's stem reads
 * its padded channels-last input [n][pos][3] through a window map, lane k of a run
 * reading
 *   pos = 2 ow + 236 (ow floordiv 112) + 230 (k floordiv 24) + (k floordiv 3) mod 8,
 *   c = k mod 3,
 * so every lane computed its own position (two floordivs and two mods each), and the
 * index arithmetic, not memory, bounded the copy (0.10 ms on an H100 for 135 MB).
 * But runs of 24 k are 24 consecutive elements, so within each group of `vec` lanes
 * lane j reads lane 0's element + j: one address per group, and the group is loaded
 * as one vector from the argument viewed flat.
 *
 * The check is exact, by evaluation (support/affine-eval): the read's linear address
 * is split into its terms; when the terms that read the kernel's innermost dim read
 * no other dim, their sum alone decides, over the innermost extent; otherwise every
 * point of the domain is evaluated (up to 2^22 points, else no flat runs), which also
 * tells whether every group starts at a multiple of its width: then the load is
 * aligned like the plain vector loads (the arguments' base aligned to a vector), else
 * to one element (the hardware then loads the lanes one by one, at one address). */
#include "targets/cuda/codegen/codegen.h"

#include <stdlib.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/affine-eval.h"

enum { MAX_TERMS = 64, MAX_POINTS = 1 << 22 };

/* The terms of `e` (an add tree), each times `scale`, appended to terms[*n]. */
static bool split_terms(MlirContext ctx, MlirAffineExpr e, int64_t scale, MlirAffineExpr *terms, int *n) {
  if (mlirAffineExprIsAAdd(e))
    return split_terms(ctx, mlirAffineBinaryOpExprGetLHS(e), scale, terms, n) &&
           split_terms(ctx, mlirAffineBinaryOpExprGetRHS(e), scale, terms, n);
  if (*n == MAX_TERMS)
    return false;
  terms[(*n)++] = scale == 1 ? e : mlirAffineMulExprGet(e, mlirAffineConstantExprGet(ctx, scale));
  return true;
}

/* Whether addr(lanes of each aligned group of `vec` along the innermost dim `inner`)
 * = addr(lane 0) + j, addr compiled over `dims`, for every point with the other dims
 * in [0, ext) (every other dim fixed at 0 when only `inner` is read); *aligned: every
 * group's lane 0 at a multiple of vec as well. */
static bool runs_hold(const BrazeAffineProgram *addr, int n_dims, const int64_t *ext, int inner, int vec, bool all,
                      bool *aligned) {
  int64_t point[CU_MAX_DIMS] = {0}, total = 1;
  for (int d = 0; d < n_dims && all; ++d)
    total *= ext[d];
  if (!all)
    total = ext[inner];
  if (total > MAX_POINTS)
    return false;
  for (int64_t flat = 0; flat < total; flat += vec) {
    int64_t rest = flat;
    for (int d = n_dims - 1; d >= 0; --d) {
      int64_t e = all || d == inner ? ext[d] : 1;
      point[d] = rest % e;
      rest /= e;
    }
    int64_t base = braze_affine_run(addr, point);
    *aligned = *aligned && base % vec == 0;
    for (int j = 1; j < vec; ++j) {
      point[inner] += 1;
      if (braze_affine_run(addr, point) != base + j)
        return false;
    }
  }
  return true;
}

/* The linear address of input `in` of `it` in its argument (row-major), as terms. */
static bool address_terms(const CuKernel *K, const CuItem *it, int in, MlirAffineExpr *terms, int *n) {
  MlirAffineMap map = it->maps[in];
  MlirType t = mlirValueGetType(K->vals[it->in_val[in]].tensor);
  intptr_t rank = mlirShapedTypeGetRank(t);
  if (rank != mlirAffineMapGetNumResults(map))
    return false;
  int64_t stride = 1;
  *n = 0;
  for (intptr_t r = rank; r-- > 0;) {
    if (!split_terms(K->ctx, mlirAffineMapGetResult(map, r), stride, terms, n))
      return false;
    stride *= mlirShapedTypeGetDimSize(t, r);
  }
  return true;
}

/* The whole linear address of input `in` of `it` (the sum of its terms). */
static bool address_of(const CuKernel *K, const CuItem *it, int in, MlirAffineExpr *out) {
  MlirAffineExpr terms[MAX_TERMS];
  int n = 0;
  if (!address_terms(K, it, in, terms, &n))
    return false;
  *out = mlirAffineConstantExprGet(K->ctx, 0);
  for (int i = 0; i < n; ++i)
    *out = mlirAffineAddExprGet(*out, terms[i]);
  return true;
}

/* 2: flat runs at vector-aligned positions (the whole domain evaluated: every term
 * counts), 1: flat runs, -1: none. */
static int check_flat_runs(const CuKernel *K, const CuItem *it, int in, int vec) {
  MlirAffineExpr terms[MAX_TERMS];
  int n = 0, inner = it->n_dims - 1;
  if (!address_terms(K, it, in, terms, &n) || it->ext[inner] % vec)
    return -1;
  uint64_t inner_bit = 1ull << inner;
  bool separable = true;
  MlirAffineExpr sum = mlirAffineConstantExprGet(K->ctx, 0);
  for (int i = 0; i < n; ++i) {
    uint64_t used = cg_affine_dims(terms[i]);
    if (!(used & inner_bit))
      continue;
    separable = separable && used == inner_bit;
    sum = mlirAffineAddExprGet(sum, terms[i]);
  }
  if (!separable) /* the whole address, over the whole domain */
    for (int i = 0; i < n; ++i)
      sum = cg_affine_dims(terms[i]) & inner_bit ? sum : mlirAffineAddExprGet(sum, terms[i]);
  BrazeAffineProgram addr = {0};
  bool aligned = !separable;
  bool ok = braze_affine_compile(&addr, sum) && runs_hold(&addr, it->n_dims, it->ext, inner, vec, !separable, &aligned);
  braze_affine_program_free(&addr);
  return ok ? 1 + aligned : -1;
}

int cu_flat_runs(CuKernel *K, const CuItem *it, int in, int vec) {
  CuItem *item = &K->items[it - K->items];
  if (item->flat[in] == 0)
    item->flat[in] = (signed char)check_flat_runs(K, it, in, vec);
  return item->flat[in] > 0 ? item->flat[in] : 0;
}

bool cu_flat_point(CuKernel *K, CgBuilder *b, const CuItem *it, int in, const CuPoint *dims, CuPoint *q) {
  if (dims->vec < 2 || K->vals[it->in_val[in]].kind != CV_ARG)
    return false;
  MlirType t = mlirValueGetType(K->vals[it->in_val[in]].tensor), elem = mlirShapedTypeGetElementType(t);
  if (mlirTypeIsAInteger(elem) && mlirIntegerTypeGetWidth(elem) == 1) /* i1: one element at a time */
    return false;
  int runs = cu_input_walks_last(it, in) ? 0 : cu_flat_runs(K, it, in, dims->vec); /* walks: a plain vector load */
  if (!runs)
    return false;
  *q = (CuPoint){.n = 1, .vec = dims->vec, .lane = dims->lane, .flat = runs == 2 ? 2 : 1};
  int key = (int)(it - K->items) * CU_MAX_INPUTS + in; /* one address per group, shared by its lanes */
  q->idx0[0] = cu_memo_get(K, MEMO_FLAT_ADDR, key, it->n_dims, dims->idx0);
  if (!mlirValueIsNull(q->idx0[0]))
    return true;
  MlirAffineExpr addr;
  if (!address_of(K, it, in, &addr)) /* cu_flat_runs held, so it was read before */
    return false;
  q->idx0[0] = cg_affine(b, addr, dims->idx0);
  cu_memo_put(K, MEMO_FLAT_ADDR, key, it->n_dims, dims->idx0, q->idx0[0]);
  return true;
}

bool cu_input_steps(const CuKernel *K, const CuItem *it, int in, int64_t *steps) {
  MlirAffineExpr sum;
  if (!address_of(K, it, in, &sum))
    return false;
  BrazeAffineProgram addr = {0};
  bool ok = braze_affine_compile(&addr, sum);
  int64_t point[CU_MAX_DIMS] = {0};
  int64_t origin = ok ? braze_affine_run(&addr, point) : 0;
  for (int d = 0; d < it->n_dims && ok; ++d) {
    point[d] = it->ext[d] > 1 ? 1 : 0;
    steps[d] = braze_affine_run(&addr, point) - origin;
    point[d] = 0;
  }
  braze_affine_program_free(&addr);
  return ok;
}
