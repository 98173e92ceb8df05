/* Helpers for the numeric drivers of the cpu-codegen tests: seeded inputs and a
 * relative-error check against a double-precision reference. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long long check_state = 88172645463325252ull;

static float check_rand(float lo, float hi) {
  check_state ^= check_state << 13;
  check_state ^= check_state >> 7;
  check_state ^= check_state << 17;
  return lo + (hi - lo) * (float)((check_state >> 11) * (1.0 / 9007199254740992.0));
}

static void check_fill(float *x, long n, float lo, float hi) {
  for (long i = 0; i < n; ++i)
    x[i] = check_rand(lo, hi);
}

/* Max of |got - want| / max(|want|, floor); prints it and returns whether <= tol. */
static int check_close(const char *what, const float *got, const double *want, long n, double tol, double floor) {
  double worst = 0;
  long at = 0;
  for (long i = 0; i < n; ++i) {
    double d = fabs((double)got[i] - want[i]) / fmax(fabs(want[i]), floor);
    if (!(d <= worst)) {
      worst = d;
      at = i;
    }
  }
  int ok = worst <= tol;
  printf("%s: %s max rel err %.3g at %ld (got %.9g want %.9g)\n", what, ok ? "OK" : "FAIL", worst, at,
         (double)got[at], want[at]);
  return ok;
}

/* Row-wise softmax of x[rows x cols] in double. */
static void check_softmax_reference(const float *x, double *want, long rows, long cols) {
  for (long i = 0; i < rows; ++i) {
    double m = -INFINITY, s = 0;
    for (long j = 0; j < cols; ++j)
      m = fmax(m, x[i * cols + j]);
    for (long j = 0; j < cols; ++j)
      s += exp(x[i * cols + j] - m);
    for (long j = 0; j < cols; ++j)
      want[i * cols + j] = exp(x[i * cols + j] - m) / s;
  }
}
