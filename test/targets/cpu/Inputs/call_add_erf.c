/* Calls the library compiled from ../emit-shared.mlir through its generated header and
 * compares with libm: add_erf (its kept workspace: first call allocates, the next
 * reuse), add_erf_ws with the caller's workspace, and add_erf from several threads at
 * once (the ones that find the kept workspace claimed use one of their own). */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "add_erf.h"

enum { R = 7, C = 37, THREADS = 4, CALLS = 200 };
static float a[R * C], b[C];

static int check(const float *o) {
  double max_err = 0;
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j) {
      double want = erf(erf(a[i * C + j] + b[j]) + b[j]);
      double e = fabs(want - o[i * C + j]);
      max_err = e > max_err ? e : max_err;
    }
  return max_err < 1e-6;
}

static void *hammer(void *arg) {
  float o[R * C];
  long ok = 1;
  for (int k = 0; k < CALLS; ++k)
    ok &= add_erf(a, b, o) == 0 && check(o);
  (void)arg;
  return (void *)ok;
}

int main(void) {
  float o[R * C];
  for (int i = 0; i < R * C; ++i)
    a[i] = (float)(i % 13) * 0.1f - 0.6f;
  for (int j = 0; j < C; ++j)
    b[j] = (float)j * 0.01f;
  int ok = add_erf(a, b, o) == 0 && check(o) && add_erf(a, b, o) == 0 && check(o);
  printf("inputs %d outputs %d out0 %lldx%lld workspace %lld\n", add_erf_num_inputs, add_erf_num_outputs,
         (long long)add_erf_arg_dims[16], (long long)add_erf_arg_dims[17], (long long)add_erf_workspace_bytes);
  void *ws = aligned_alloc(64, (size_t)(add_erf_workspace_bytes + 63) / 64 * 64);
  int ws_ok = ws && add_erf_ws(a, b, o, ws) == 0 && check(o);
  free(ws);
  pthread_t t[THREADS];
  int threads_ok = 1;
  for (int i = 0; i < THREADS; ++i)
    pthread_create(&t[i], NULL, hammer, NULL);
  for (int i = 0; i < THREADS; ++i) {
    void *r;
    pthread_join(t[i], &r);
    threads_ok &= r != NULL;
  }
  printf("max abs err %s\n", ok ? "ok" : "TOO LARGE");
  printf("caller workspace %s\n", ws_ok ? "ok" : "FAIL");
  printf("%d threads x %d calls %s\n", THREADS, CALLS, threads_ok ? "ok" : "FAIL");
  return ok && ws_ok && threads_ok ? 0 : 1;
}
