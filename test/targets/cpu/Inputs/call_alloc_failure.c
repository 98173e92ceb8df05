/* Allocation failures inside compiled CPU code (../alloc-failure.test, docs/reliability.md).
 *
 * This program defines malloc and aligned_alloc, so the library's calls come here
 * (symbol interposition); while `armed`, requests of at least `fail_bytes` made by
 * the compiled library itself fail (the OpenMP runtime's own do not: it does not
 * survive them, and it is not braze's code). Each
 * entry must then return 1 and write nothing outside its outputs (guard zones around
 * every output, inputs compared afterwards); when the failing allocation is the
 * workspace (before any kernel runs), the outputs must be untouched too. The next
 * call, with allocation working again, must give the same results as before. Last,
 * 8 threads call the entries at once (the kept workspace taken by one, the others
 * allocating their own) and must all get the single-threaded results. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "f.h"

extern void *__libc_malloc(size_t n);
extern void *__libc_memalign(size_t align, size_t n);

static int armed;
static size_t fail_bytes;
static int refused;

/* Whether a request of n bytes from code at `caller` fails now. */
static int refuse(size_t n, void *caller) {
  if (!armed || n < fail_bytes)
    return 0;
  Dl_info info;
  if (!dladdr(caller, &info) || !info.dli_fname || !strstr(info.dli_fname, "libf.so"))
    return 0;
  __atomic_add_fetch(&refused, 1, __ATOMIC_RELAXED);
  return 1;
}

void *malloc(size_t n) { return refuse(n, __builtin_return_address(0)) ? NULL : __libc_malloc(n); }

void *aligned_alloc(size_t align, size_t n) {
  return refuse(n, __builtin_return_address(0)) ? NULL : __libc_memalign(align, n);
}

enum { GUARD = 256, THREADS = 8, CALLS = 100 };
static const unsigned char fill = 0xA5;

/* A buffer of n floats with GUARD bytes of `fill` on each side (and inside). */
static float *guarded(size_t n) {
  unsigned char *p = __libc_malloc(2 * GUARD + n * sizeof(float));
  memset(p, fill, 2 * GUARD + n * sizeof(float));
  return (float *)(p + GUARD);
}

static int guards_intact(const float *buf, size_t n, int with_inside) {
  const unsigned char *p = (const unsigned char *)buf - GUARD;
  size_t total = 2 * GUARD + n * sizeof(float);
  for (size_t i = 0; i < total; ++i) {
    int inside = i >= GUARD && i < GUARD + n * sizeof(float);
    if ((!inside || with_inside) && p[i] != fill)
      return 0;
  }
  return 1;
}

static void refill(float *buf, size_t n) { memset((unsigned char *)buf - GUARD, fill, 2 * GUARD + n * sizeof(float)); }

static float x[64 * 37], a[16 * 32], b[32 * 24], c[24 * 8];
static float want_local[64 * 37], want_ws[16 * 8];

static int same(const float *got, const float *want, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (fabsf(got[i] - want[i]) > 1e-6f * (1.0f + fabsf(want[i])))
      return 0;
  return 1;
}

static void *hammer(void *arg) {
  float out_local[64 * 37], out_ws[16 * 8];
  long ok = 1;
  for (int k = 0; k < CALLS; ++k) {
    ok &= local(x, out_local) == 0 && same(out_local, want_local, 64 * 37);
    ok &= ws(a, b, c, out_ws) == 0 && same(out_ws, want_ws, 16 * 8);
  }
  (void)arg;
  return (void *)ok;
}

int main(void) {
  for (int i = 0; i < 64 * 37; ++i)
    x[i] = (float)((i * 7) % 23) * 0.25f - 2.0f;
  for (int i = 0; i < 16 * 32; ++i)
    a[i] = (float)((i * 5) % 17) * 0.1f - 0.8f;
  for (int i = 0; i < 32 * 24; ++i)
    b[i] = (float)((i * 3) % 11) * 0.1f - 0.5f;
  for (int i = 0; i < 24 * 8; ++i)
    c[i] = (float)((i * 2) % 7) * 0.2f - 0.6f;
  float *out_local = guarded(64 * 37), *out_ws = guarded(16 * 8);
  float x0[64 * 37], a0[16 * 32];
  memcpy(x0, x, sizeof x);
  memcpy(a0, a, sizeof a);

  /* A first call of `local` starts the OpenMP runtime (its allocations are not ours). */
  int st = local(x, out_local);
  memcpy(want_local, out_local, sizeof want_local);
  printf("warm-up: local %d\n", st);

  /* ws's first call allocates its kept workspace: make exactly that fail. */
  refill(out_ws, 16 * 8);
  fail_bytes = (size_t)(ws_workspace_bytes + 63) / 64 * 64;
  armed = 1;
  st = ws(a, b, c, out_ws);
  armed = 0;
  printf("workspace fails: ws %d, refused %d, outputs untouched %d\n", st, refused > 0,
         guards_intact(out_ws, 16 * 8, 1));

  st = ws(a, b, c, out_ws);
  memcpy(want_ws, out_ws, sizeof want_ws);
  printf("then: ws %d\n", st);

  /* Every allocation fails: the kernels' own buffers (local's reduction, ws's softmax). */
  refill(out_local, 64 * 37);
  refill(out_ws, 16 * 8);
  refused = 0;
  fail_bytes = 1;
  armed = 1;
  int st_local = local(x, out_local), st_ws = ws(a, b, c, out_ws);
  armed = 0;
  printf("kernel buffers fail: local %d ws %d, refused %d, local untouched %d, nothing written outside %d\n",
         st_local, st_ws, refused > 0, guards_intact(out_local, 64 * 37, 1), guards_intact(out_ws, 16 * 8, 0));
  printf("inputs unchanged %d\n", memcmp(x, x0, sizeof x) == 0 && memcmp(a, a0, sizeof a) == 0);

  /* Allocation works again: the same results. */
  int again = local(x, out_local) == 0 && same(out_local, want_local, 64 * 37) && ws(a, b, c, out_ws) == 0 &&
              same(out_ws, want_ws, 16 * 8);
  void *scratch = aligned_alloc(64, (size_t)(ws_workspace_bytes + 63) / 64 * 64);
  again = again && scratch && ws_ws(a, b, c, out_ws, scratch) == 0 && same(out_ws, want_ws, 16 * 8);
  free(scratch);
  printf("recovered %d\n", again);

  pthread_t t[THREADS];
  int threads_ok = 1;
  for (int i = 0; i < THREADS; ++i)
    pthread_create(&t[i], NULL, hammer, NULL);
  for (int i = 0; i < THREADS; ++i) {
    void *r;
    pthread_join(t[i], &r);
    threads_ok &= r != NULL;
  }
  printf("%d threads x %d calls of each entry: %s\n", THREADS, CALLS, threads_ok ? "ok" : "FAIL");
  return 0;
}
