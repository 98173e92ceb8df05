/* Calls the partitioned library of collectives.mlir on the stand-in driver and NCCL
 * (mock_cuda.c, mock_nccl.c) as rank argv[1] of tp=2, printing each step's status and
 * each output: test/targets/cuda/collectives.test. */
#include <stdio.h>
#include <stdlib.h>

#include "collectives.h"

static void report(const char *what, int rc) {
  printf("%s: %d%s%s\n", what, rc, rc ? " " : "", rc ? braze_cuda_last_error() : "");
}

static void print(const char *name, const float *dev, int rows, int cols) {
  float host[64];
  braze_cuda_memcpy_dtoh(host, dev, (size_t)(rows * cols) * sizeof(float));
  printf("%s:", name);
  for (int r = 0; r < rows; ++r) {
    printf(" [");
    for (int c = 0; c < cols; ++c)
      printf("%s%g", c ? " " : "", host[r * cols + c]);
    printf("]");
  }
  printf("\n");
}

int main(int argc, char **argv) {
  int rank = argc > 1 ? atoi(argv[1]) : 0;
  float host[24];
  for (int i = 0; i < 24; ++i)
    host[i] = (float)i;
  void *x, *y;
  if (braze_cuda_malloc(&x, sizeof host) || braze_cuda_malloc(&y, sizeof host) ||
      braze_cuda_memcpy_htod(x, host, sizeof host)) {
    printf("no device: %s\n", braze_cuda_last_error());
    return 1;
  }
  printf("mesh: %d devices, %d axis %s=%lld, rank before init %d\n", braze_mesh_num_devices, braze_mesh_num_axes,
         braze_mesh_axis_names[0], (long long)braze_mesh_axis_sizes[0], braze_cuda_mesh_rank());
  report("ar before init", ar(x, y));
  report("init_rank 5", braze_cuda_mesh_init_rank("bad", 5));
  char id[128];
  report("unique_id", braze_cuda_mesh_unique_id(id));
  report("init_rank", braze_cuda_mesh_init_rank(id, rank));
  printf("rank %d\n", braze_cuda_mesh_rank());
  report("init again", braze_cuda_mesh_init_rank(id, rank));
  report("ar", ar(x, y));
  print("ar", y, 4, 6);
  report("gather1", gather1(x, y));
  print("gather1", y, 4, 6);
  report("scatter1", scatter1(x, y));
  print("scatter1", y, 4, 3);
  report("a2a", a2a(x, y));
  print("a2a", y, 2, 12);
  report("slice1", slice1(x, y));
  print("slice1", y, 4, 3);
  void *z;
  if (braze_cuda_malloc(&z, sizeof host))
    return 1;
  for (int call = 0; call < 2; ++call) /* the second call reuses the stream and events */
    report("overlap", overlap(x, x, y, z));
  report("finalize", braze_cuda_mesh_finalize());
  report("ar after finalize", ar(x, y));
  return 0;
}
