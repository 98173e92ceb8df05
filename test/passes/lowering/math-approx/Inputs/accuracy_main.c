/* Driver of accuracy.mlir: sweeps f32 inputs through the approximations (compiled
 * from MLIR) and compares with libm in double. Prints the max relative error per
 * function and fails (exit 1) above the documented bounds: 1e-6 for exp, log,
 * rsqrt, tanh, erf. Results below FLT_MIN are checked absolutely. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { N = 65536, STRIDE = 251 };
typedef void (*Chunk)(const float *, float *);
void exp_chunk(const float *, float *);
void log_chunk(const float *, float *);
void tanh_chunk(const float *, float *);
void erf_chunk(const float *, float *);
void rsqrt_chunk(const float *, float *);
static double rsqrt_ref(double x) { return 1.0 / sqrt(x); }

static float from_bits(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/* Error of one result: relative, absolute below FLT_MIN; inf when the class
 * (NaN, infinity, sign) is wrong. */
static double error_of(float got, double want) {
  if (isnan(want))
    return isnan(got) ? 0 : INFINITY;
  if (fabs(want) > FLT_MAX)
    return (isinf(got) && (got > 0) == (want > 0)) ? 0 : INFINITY;
  if (isnan(got) || isinf(got))
    return INFINITY;
  if (fabs(want) < FLT_MIN)
    return fabs(got - want) <= 2 * 0x1p-149 ? 0 : INFINITY;
  return fabs(got - want) / fabs(want);
}

static int sweep(const char *name, Chunk f, double (*ref)(double), double bound) {
  static float x[N], y[N];
  double worst = 0;
  float worst_x = 0;
  uint64_t u = 0;
  while (u <= 0xffffffffull) {
    int n = 0;
    for (; n < N && u <= 0xffffffffull; u += STRIDE)
      x[n++] = from_bits((uint32_t)u);
    for (int i = n; i < N; ++i)
      x[i] = 1.0f;
    f(x, y);
    for (int i = 0; i < n; ++i) {
      double e = error_of(y[i], ref((double)x[i]));
      if (!(e <= worst)) {
        worst = e;
        worst_x = x[i];
      }
    }
  }
  int ok = worst <= bound;
  printf("%s: %s max rel err %.3g (bound %.0e) at x = %.9g\n", name, ok ? "OK" : "FAIL", worst, bound,
         (double)worst_x);
  return ok;
}

static int specials(void) {
  static float x[N], y[N];
  const float in[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1.0f, -1.0f, 88.8f, -110.0f, FLT_MIN / 4, 1e-30f};
  const int n = sizeof in / sizeof *in;
  const Chunk fs[] = {exp_chunk, log_chunk, tanh_chunk, erf_chunk, rsqrt_chunk};
  double (*refs[])(double) = {exp, log, tanh, erf, rsqrt_ref};
  int ok = 1;
  for (int k = 0; k < 5; ++k) {
    memcpy(x, in, sizeof in);
    fs[k](x, y);
    for (int i = 0; i < n; ++i) {
      double want = refs[k]((double)in[i]);
      int same = error_of(y[i], want) <= 1e-6 && (want != 0 || signbit(y[i]) == signbit(want));
      if (!same) {
        printf("specials: function %d at %g: got %g want %g\n", k, (double)in[i], (double)y[i], want);
        ok = 0;
      }
    }
  }
  printf("specials: %s\n", ok ? "OK" : "FAIL");
  return ok;
}

int main(void) {
  int ok = sweep("exp", exp_chunk, exp, 1e-6);
  ok &= sweep("log", log_chunk, log, 1e-6);
  ok &= sweep("tanh", tanh_chunk, tanh, 1e-6);
  ok &= sweep("erf", erf_chunk, erf, 1e-6);
  ok &= sweep("rsqrt", rsqrt_chunk, rsqrt_ref, 1e-6);
  ok &= specials();
  return ok ? 0 : 1;
}
