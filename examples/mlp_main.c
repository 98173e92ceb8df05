/* Calls the compiled MLP block through its generated header (mlp.h), the way an
 * application would: fill the inputs, call mlp(), time repeated calls. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "mlp.h"

static float *filled(size_t n, unsigned seed, float scale) {
  float *p = malloc(n * sizeof *p);
  for (size_t i = 0; i < n; ++i) {
    seed = seed * 1664525u + 1013904223u;
    p[i] = ((float)(seed >> 8) / 16777216.0f - 0.5f) * scale;
  }
  return p;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(void) {
  float *x = filled(128 * 256, 1, 2.0f), *w1 = filled(1024 * 256, 2, 0.1f), *b1 = filled(1024, 3, 0.1f);
  float *w2 = filled(256 * 1024, 4, 0.05f), *b2 = filled(256, 5, 0.1f);
  float *gamma = filled(256, 6, 1.0f), *beta = filled(256, 7, 0.1f), *out = malloc(128 * 256 * sizeof *out);
  if (mlp(x, w1, b1, w2, b2, gamma, beta, out) != 0)
    return 1;
  enum { REPS = 20 };
  double t0 = now_ms();
  for (int r = 0; r < REPS; ++r)
    mlp(x, w1, b1, w2, b2, gamma, beta, out);
  double per_call = (now_ms() - t0) / REPS;
  double mean = 0, sq = 0;
  for (int i = 0; i < 128 * 256; ++i) {
    mean += out[i];
    sq += out[i] * out[i];
  }
  mean /= 128 * 256;
  printf("mlp(128x256 -> 1024 -> 256, layer_norm): %.3f ms per call; out mean %.4f, rms %.4f\n", per_call, mean,
         sqrt(sq / (128 * 256)));
  free(x), free(w1), free(b1), free(w2), free(b2), free(gamma), free(beta), free(out);
  return 0;
}
