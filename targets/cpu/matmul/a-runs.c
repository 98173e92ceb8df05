/* cpu-codegen, the matmul template: runs of A. A conv's A is a window view of the
 * activations (decision 0019): its map splits k with floordiv/mod into (kernel
 * position, channel), so the micro-kernel would compute a div/mod chain per k. But
 * along k, A's rows are contiguous in memory for a whole run of R values (a window
 * row's KW x C elements of a channels-last input: R = KW C for a unit dilation), so
 * the k loop is split into runs: per run each row's address is computed once, and the
 * inner loop reads A[base_i + j]. R is found at compile time by evaluating A's
 * linearized address over the whole (m, k) domain: the largest divisor R of K with
 * addr(m, r R + j) = addr(m, r R) + j everywhere (at every batch position when a
 * result of the map mixes batch dims with m or k, else at batch position 0: the batch
 * dims then only add a constant); above 2^24 points it gives up (R = 1). A plain
 * matmul's A gives R = K. */
#include <stdlib.h>

#include "mlir-c/BuiltinTypes.h"
#include "support/affine-eval.h"
#include "targets/cpu/matmul/internal.h"

/* A's linearized address as one expression: sum of result r times its row-major stride. */
bool tm_a_address(const TmPlan *p, BrazeAffineProgram *e) {
  MlirType at = mlirValueGetType(p->vals[p->a_val].tensor);
  intptr_t rank = mlirShapedTypeGetRank(at), n = mlirAffineMapGetNumResults(p->a_map);
  if (rank != n)
    return false;
  MlirAffineExpr sum = mlirAffineConstantExprGet(p->ctx, 0);
  int64_t stride = 1;
  for (intptr_t r = n; r-- > 0;) {
    MlirAffineExpr term = mlirAffineMulExprGet(mlirAffineMapGetResult(p->a_map, r), mlirAffineConstantExprGet(p->ctx, stride));
    sum = mlirAffineAddExprGet(sum, term);
    stride *= mlirShapedTypeGetDimSize(at, r);
  }
  return braze_affine_compile(e, sum);
}

/* Whether some result of A's map reads a batch dim together with m or k: then the
 * runs may differ between batch positions and every one is checked. Otherwise the
 * batch dims only add a constant to the address and batch position 0 decides. */
bool tm_a_batch_mixes(const TmPlan *p) {
  uint64_t batch = (1ull << p->nb) - 1, mk = (1ull << p->nb) | (1ull << (p->nb + 2));
  for (intptr_t r = 0; r < mlirAffineMapGetNumResults(p->a_map); ++r) {
    uint64_t used = cg_affine_dims(mlirAffineMapGetResult(p->a_map, r));
    if ((used & batch) && (used & mk))
      return true;
  }
  return false;
}

/* Whether every candidate run length (cand[0..n)) holds over the k values of one row
 * of addresses; those that fail are set to 0. */
static void check_runs(const int64_t *addr, int64_t K, int64_t *cand, int n) {
  for (int c = 0; c < n; ++c) {
    int64_t R = cand[c];
    for (int64_t k = 0; R && k < K; ++k)
      if (addr[k] != addr[k - k % R] + k % R)
        cand[c] = 0;
  }
}

int64_t tm_a_run(const TmPlan *p) {
  enum { MIN_RUN = 4, MAX_CANDIDATES = 64, MAX_POINTS = 1 << 24 };
  int64_t cand[MAX_CANDIDATES];
  int n = 0;
  for (int64_t R = p->K; R >= MIN_RUN && n < MAX_CANDIDATES; --R)
    if (p->K % R == 0)
      cand[n++] = R;
  int64_t positions = 1; /* batch positions to check */
  if (tm_a_batch_mixes(p))
    for (int d = 0; d < p->nb; ++d)
      positions *= p->batch[d];
  if (n == 0 || positions * p->M * p->K > MAX_POINTS)
    return 1;
  BrazeAffineProgram e = {0};
  if (!tm_a_address(p, &e)) {
    braze_affine_program_free(&e);
    return 1;
  }
  int64_t *addr = malloc((size_t)p->K * sizeof *addr);
  int64_t dims[TM_MAX_DIMS] = {0};
  for (int64_t pos = 0; pos < positions; ++pos) {
    for (int64_t rest = pos, d = p->nb - 1; d >= 0; --d) {
      dims[d] = rest % p->batch[d];
      rest /= p->batch[d];
    }
    for (int64_t m = 0; m < p->M; ++m) {
      dims[p->nb] = m;
      for (int64_t k = 0; k < p->K; ++k) {
        dims[p->nb + 2] = k;
        addr[k] = braze_affine_run(&e, dims);
      }
      check_runs(addr, p->K, cand, n);
    }
  }
  free(addr);
  braze_affine_program_free(&e);
  for (int c = 0; c < n; ++c)
    if (cand[c])
      return cand[c];
  return 1;
}
