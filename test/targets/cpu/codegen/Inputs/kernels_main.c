/* Numeric driver for the kernels of bench/cpu-codegen/gen_kernels.py, compiled with
 * -DKIND_<kind> -DR=rows -DC=cols [-DKD=k]: checks the compiled entry against a
 * double-precision reference; with BENCH_ITERS=n in the environment, also times n
 * calls and prints ms per call and GB/s of compulsory traffic (inputs + output). */
#include <stdlib.h>
#include <time.h>

#include "check.h"

#ifndef KD
#define KD C
#endif
#if defined(KIND_softmax)
#define TOL 2e-6
#define FLOOR 1e-30
#elif defined(KIND_linear_gelu)
#define TOL 1e-4 /* a KD-term f32 dot product, summed in a different order */
#define FLOOR 1.0
#else
#define TOL 2e-6
#define FLOOR 1.0
#endif
#define GELU(t) (0.5 * (t) * (1.0 + erf((t) * 0.70710678118654752)))

static float x[(long)R * (KD > C ? KD : C)], w[(long)KD * C], v[C], y[(long)R * C];
static double want[(long)R * C];

#if defined(KIND_softmax)
void softmax(const float *, float *);
#define CALL() softmax(x, y)
#define BYTES (2.0 * R * C * 4)
static void reference(void) { check_softmax_reference(x, want, R, C); }
#elif defined(KIND_layer_norm)
void layer_norm(const float *, const float *, const float *, float *);
#define CALL() layer_norm(x, w, v, y)
#define BYTES (2.0 * R * C * 4)
static void reference(void) {
  for (long i = 0; i < R; ++i) {
    double m = 0, q = 0;
    for (long j = 0; j < C; ++j)
      m += x[i * C + j];
    m /= C;
    for (long j = 0; j < C; ++j)
      q += (x[i * C + j] - m) * (x[i * C + j] - m);
    double rs = 1 / sqrt(q / C + 1e-5);
    for (long j = 0; j < C; ++j)
      want[i * C + j] = (x[i * C + j] - m) * rs * w[j] + v[j];
  }
}
#elif defined(KIND_rms_norm)
void rms_norm(const float *, const float *, float *);
#define CALL() rms_norm(x, w, y)
#define BYTES (2.0 * R * C * 4)
static void reference(void) {
  for (long i = 0; i < R; ++i) {
    double q = 0;
    for (long j = 0; j < C; ++j)
      q += (double)x[i * C + j] * x[i * C + j];
    double rs = 1 / sqrt(q / C + 1e-6);
    for (long j = 0; j < C; ++j)
      want[i * C + j] = x[i * C + j] * rs * w[j];
  }
}
#elif defined(KIND_gelu_chain)
void gelu_chain(const float *, const float *, const float *, float *);
#define CALL() gelu_chain(x, w, v, y)
#define BYTES (2.0 * R * C * 4)
static void reference(void) {
  for (long i = 0; i < R; ++i)
    for (long j = 0; j < C; ++j) {
      double t = (double)x[i * C + j] * w[j] + v[j];
      want[i * C + j] = GELU(t);
    }
}
#elif defined(KIND_linear_gelu)
void linear_gelu(const float *, const float *, const float *, float *);
#define CALL() linear_gelu(x, w, v, y)
#define BYTES ((double)R * KD * 4 + (double)KD * C * 4 + (double)R * C * 4)
static void reference(void) {
  for (long i = 0; i < R; ++i)
    for (long j = 0; j < C; ++j) {
      double t = v[j];
      for (long k = 0; k < KD; ++k)
        t += (double)x[i * KD + k] * w[k * C + j];
      want[i * C + j] = GELU(t);
    }
}
#elif defined(KIND_copy)
void copy(const float *, float *);
#define CALL() copy(x, y)
#define BYTES (2.0 * R * C * 4)
static void reference(void) {
  for (long i = 0; i < (long)R * C; ++i)
    want[i] = 2.0 * x[i];
}
#else
#error "define KIND_<kind>"
#endif

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(void) {
  check_fill(x, (long)R * (KD > C ? KD : C), -3, 3);
  check_fill(w, (long)KD * C, -1, 1);
  check_fill(v, C, -1, 1);
  CALL();
  reference();
  /* Relative to max(|want|, FLOOR): outputs near zero come from cancellation
   * (x - mean, x*s + b) and are compared absolutely. */
  int ok = check_close("kernel", y, want, (long)R * C, TOL, FLOOR);
  const char *iters = getenv("BENCH_ITERS");
  if (iters && atoi(iters) > 0) {
    int n = atoi(iters);
    for (int i = 0; i < 3; ++i)
      CALL();
    double best = 1e30;
    for (int i = 0; i < n; ++i) {
      double t0 = now_ms();
      CALL();
      double t = now_ms() - t0;
      best = t < best ? t : best;
    }
    printf("time: best %.3f ms, %.1f GB/s\n", best, BYTES / best / 1e6);
  }
  return ok ? 0 : 1;
}
