/* Drives the partitioned library of mesh_all.mlir (dp=2 x tp=2) from one process on
 * the stand-in driver and NCCL (mock_cuda.c with MOCK_CUDA_DEVICES=5, mock_nccl.c):
 * the refusals before and at braze_cuda_mesh_init_all, then rank r on device 3 - r,
 * each rank's entries on a thread of its own with its device current, all ranks at
 * once; the main thread prints each rank's results in rank order after they joined.
 * Device 4 is no device of the mesh: a call from it is refused. x = 0..31 on every
 * rank (the stand-in NCCL's peers hold the same data): test/targets/cuda/mesh-all.test. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_all.h"

enum { RANKS = 4, CALLS = 2 };
static const int devices[RANKS] = {3, 2, 1, 0};

typedef struct {
  int rank;
  char text[2048]; /* what the rank's thread saw, printed by the main thread */
  size_t used;
} Rank;

static void say(Rank *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int w = vsnprintf(r->text + r->used, sizeof r->text - r->used, fmt, ap);
  va_end(ap);
  if (w > 0 && r->used + (size_t)w < sizeof r->text)
    r->used += (size_t)w;
}

static void report(Rank *r, const char *what, int rc) {
  say(r, "rank %d %s: %d%s%s\n", r->rank, what, rc, rc ? " " : "", rc ? braze_cuda_last_error() : "");
}

static void print(Rank *r, const char *name, const float *dev, int rows, int cols) {
  float host[64];
  braze_cuda_memcpy_dtoh(host, dev, (size_t)(rows * cols) * sizeof(float));
  say(r, "rank %d %s:", r->rank, name);
  for (int i = 0; i < rows; ++i) {
    say(r, " [");
    for (int j = 0; j < cols; ++j)
      say(r, "%s%g", j ? " " : "", host[i * cols + j]);
    say(r, "]");
  }
  say(r, "\n");
}

/* x = 0..31 in device memory of the current device. */
static void *input(void) {
  float host[32];
  for (int i = 0; i < 32; ++i)
    host[i] = (float)i;
  void *x = NULL;
  if (braze_cuda_malloc(&x, sizeof host) || braze_cuda_memcpy_htod(x, host, sizeof host))
    return NULL;
  return x;
}

static void *run_rank(void *arg) {
  Rank *r = arg;
  report(r, "set_device", braze_cuda_set_device(devices[r->rank]));
  say(r, "rank %d on device %d: braze_cuda_mesh_rank %d\n", r->rank, devices[r->rank], braze_cuda_mesh_rank());
  void *x = input(), *y = NULL, *c = NULL, *z = NULL;
  if (!x || braze_cuda_malloc(&y, 128) || braze_cuda_malloc(&c, 16) || braze_cuda_malloc(&z, 128)) {
    report(r, "alloc", 1);
    return NULL;
  }
  for (int call = 0; call < CALLS; ++call) { /* the second call: nothing loaded or made again */
    report(r, "arc", arc(x, y, c));
    print(r, "arc", y, 4, 6);
    print(r, "arc const", c, 2, 2);
    report(r, "scatter", scatter(x, y));
    print(r, "scatter", y, 4, 2);
    report(r, "overlap", overlap(x, x, y, z));
  }
  return NULL;
}

static void main_report(const char *what, int rc) {
  printf("%s: %d%s%s\n", what, rc, rc ? " " : "", rc ? braze_cuda_last_error() : "");
}

int main(void) {
  Rank ranks[RANKS];
  pthread_t threads[RANKS];
  printf("mesh: %d devices\n", braze_mesh_num_devices);
  main_report("set_device 9", braze_cuda_set_device(9));
  main_report("set_device 4", braze_cuda_set_device(4));
  void *x = input(), *y = NULL, *c = NULL;
  if (!x || braze_cuda_malloc(&y, 128) || braze_cuda_malloc(&c, 16))
    return 1;
  main_report("arc before init", arc(x, y, c));
  main_report("init_all 3 devices", braze_cuda_mesh_init_all(devices, 3));
  const int out_of_range[RANKS] = {0, 1, 2, 7}, twice[RANKS] = {0, 1, 1, 2};
  main_report("init_all device 7", braze_cuda_mesh_init_all(out_of_range, RANKS));
  main_report("init_all device 1 twice", braze_cuda_mesh_init_all(twice, RANKS));
  printf("rank before init %d\n", braze_cuda_mesh_rank());
  main_report("init_all", braze_cuda_mesh_init_all(devices, RANKS));
  main_report("init_all again", braze_cuda_mesh_init_all(devices, RANKS));
  main_report("init_rank after init_all", braze_cuda_mesh_init_rank("id", 0));
  /* the main thread is still on device 4, no device of the mesh */
  printf("rank of device 4 %d\n", braze_cuda_mesh_rank());
  main_report("arc on device 4", arc(x, y, c));
  fflush(stdout);
  for (int r = 0; r < RANKS; ++r) {
    ranks[r] = (Rank){.rank = r};
    pthread_create(&threads[r], NULL, run_rank, &ranks[r]);
  }
  for (int r = 0; r < RANKS; ++r)
    pthread_join(threads[r], NULL);
  for (int r = 0; r < RANKS; ++r)
    fputs(ranks[r].text, stdout);
  main_report("finalize", braze_cuda_mesh_finalize());
  main_report("set_device 3", braze_cuda_set_device(3));
  main_report("arc after finalize", arc(x, y, c));
  return 0;
}
