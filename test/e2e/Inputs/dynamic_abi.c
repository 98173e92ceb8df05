/* Calls one compiled library with a symbolic dim at several sizes (decision 0029):
 * the rows at a small size equal the same rows at a large one, NAME_output_shape gives
 * the output's dims, and sizes outside the bounds return 3 with a message. */
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef int (*MlpFn)(const float *, const float *, const float *, const float *, float *, int64_t);
typedef int (*ShapeFn)(int32_t, int64_t, int64_t *);

static float next(uint32_t *s) {
  *s = *s * 1664525u + 1013904223u;
  return (float)((*s >> 8) & 0xffff) / 65536.0f - 0.5f;
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  void *h = dlopen(argv[1], RTLD_NOW);
  if (!h) {
    printf("dlopen: %s\n", dlerror());
    return 1;
  }
  MlpFn mlp = (MlpFn)dlsym(h, "mlp");
  ShapeFn shape = (ShapeFn)dlsym(h, "mlp_output_shape");
  const char *(*last_error)(void) = (const char *(*)(void))dlsym(h, "braze_last_error");
  if (!mlp || !shape || !last_error)
    return 1;
  enum { MAXR = 130, K = 64, H = 128 };
  uint32_t seed = 7;
  float *x = malloc(sizeof(float) * MAXR * K), *w1 = malloc(sizeof(float) * K * H), *b1 = malloc(sizeof(float) * H);
  float *w2 = malloc(sizeof(float) * H * K), *big = malloc(sizeof(float) * MAXR * K), *small = malloc(sizeof(float) * MAXR * K);
  for (int i = 0; i < MAXR * K; ++i)
    x[i] = next(&seed);
  for (int i = 0; i < K * H; ++i)
    w1[i] = next(&seed), w2[i] = next(&seed);
  for (int i = 0; i < H; ++i)
    b1[i] = next(&seed);
  printf("status %d at %d\n", mlp(x, w1, b1, w2, big, MAXR), MAXR);
  const int sizes[] = {1, 7, 64, 65, 129};
  for (int k = 0; k < 5; ++k) {
    int s = sizes[k];
    int st = mlp(x, w1, b1, w2, small, s);
    double worst = 0;
    for (int i = 0; i < s * K; ++i)
      worst = fmax(worst, fabs(small[i] - big[i]) / fmax(fabs(big[i]), 1e-2));
    printf("status %d at %d, rows agree with size %d: %s\n", st, s, MAXR, worst < 1e-4 ? "yes" : "NO");
  }
  int64_t dims[2] = {0, 0};
  int st = shape(0, 7, dims);
  printf("output_shape(0, 7) = %d [%lld, %lld]\n", st, (long long)dims[0], (long long)dims[1]);
  printf("output_shape(1, 7) = %d\n", shape(1, 7, dims));
  printf("output_shape(0, 5000) = %d\n", shape(0, 5000, dims));
  printf("status %d at 0: %s\n", mlp(x, w1, b1, w2, small, 0), last_error());
  printf("status %d at 4097: %s\n", mlp(x, w1, b1, w2, small, 4097), last_error());
  free(x), free(w1), free(b1), free(w2), free(big), free(small);
  return 0;
}
