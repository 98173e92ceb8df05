/* Calls a runtime-loops library (decision 0032) at several sizes: a small size, a
 * larger one (the cached workspace grows), the small one again (same results), sizes
 * out of bounds (3 and a message), and NAME_output_shape. */
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*AttnFn)(const float *, const float *, const float *, float *, int64_t);
typedef int (*ShapeFn)(int32_t, int64_t, int64_t *);

enum { H = 4, MAXS = 300, D = 16 };

static float next(uint32_t *s) {
  *s = *s * 1664525u + 1013904223u;
  return (float)((*s >> 8) & 0xffff) / 65536.0f - 0.5f;
}

static int finite_all(const float *x, int n) {
  for (int i = 0; i < n; ++i)
    if (!isfinite(x[i]))
      return 0;
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  void *h = dlopen(argv[1], RTLD_NOW);
  if (!h) {
    printf("dlopen: %s\n", dlerror());
    return 1;
  }
  AttnFn attn = (AttnFn)dlsym(h, "attn");
  ShapeFn shape = (ShapeFn)dlsym(h, "attn_output_shape");
  const char *(*last_error)(void) = (const char *(*)(void))dlsym(h, "braze_last_error");
  if (!attn || !shape || !last_error)
    return 1;
  size_t n = (size_t)H * MAXS * D;
  float *q = malloc(n * sizeof *q), *k = malloc(n * sizeof *k), *v = malloc(n * sizeof *v);
  float *o = calloc(n, sizeof *o), *first = calloc(n, sizeof *first);
  uint32_t seed = 3;
  for (size_t i = 0; i < n; ++i)
    q[i] = next(&seed), k[i] = next(&seed), v[i] = next(&seed);
  int st = attn(q, k, v, first, 5);
  printf("status %d at 5: out[0] finite %s\n", st, finite_all(first, H * 5 * D) ? "yes" : "NO");
  st = attn(q, k, v, o, MAXS);
  printf("status %d at %d: out[0] finite %s\n", st, MAXS, finite_all(o, H * MAXS * D) ? "yes" : "NO");
  memset(o, 0, n * sizeof *o);
  st = attn(q, k, v, o, 5);
  printf("status %d at 5 again: same as before %s\n", st, memcmp(o, first, H * 5 * D * sizeof *o) ? "NO" : "yes");
  const int64_t bad[2] = {0, 1025};
  for (int i = 0; i < 2; ++i) {
    st = attn(q, k, v, o, bad[i]);
    printf("status %d at %lld: %s\n", st, (long long)bad[i], last_error());
  }
  int64_t dims[3] = {0, 0, 0};
  st = shape(0, 9, dims);
  printf("output_shape(0, 9) = %d [%lld, %lld, %lld]\n", st, (long long)dims[0], (long long)dims[1], (long long)dims[2]);
  free(q), free(k), free(v), free(o), free(first);
  dlclose(h);
  return 0;
}
