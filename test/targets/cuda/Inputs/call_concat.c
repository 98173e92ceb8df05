/* Calls @cat and @chain of concat_collectives.mlir on the stand-in driver and NCCL
 * (mock_cuda.c, mock_nccl.c: a peer holding the same data, so a sum doubles) as rank 0
 * of tp=2 and prints the outputs: test/targets/cuda/concat-collectives.test. */
#include <stdio.h>

#include "concat_collectives.h"

static void print(const char *name, const float *dev, int n) {
  float host[24];
  braze_cuda_memcpy_dtoh(host, dev, (size_t)n * sizeof(float));
  printf("%s:", name);
  for (int i = 0; i < n; ++i)
    printf(" %g", host[i]);
  printf("\n");
}

int main(void) {
  float host[12];
  void *a, *b, *c, *y;
  if (braze_cuda_malloc(&a, sizeof host) || braze_cuda_malloc(&b, sizeof host) || braze_cuda_malloc(&c, sizeof host) ||
      braze_cuda_malloc(&y, 2 * sizeof host))
    return 1;
  for (int i = 0; i < 12; ++i)
    host[i] = (float)i;
  braze_cuda_memcpy_htod(a, host, sizeof host);
  for (int i = 0; i < 12; ++i)
    host[i] = (float)(100 + i);
  braze_cuda_memcpy_htod(b, host, sizeof host);
  for (int i = 0; i < 12; ++i)
    host[i] = (float)(-i);
  braze_cuda_memcpy_htod(c, host, sizeof host);
  char id[128];
  if (braze_cuda_mesh_unique_id(id) || braze_cuda_mesh_init_rank(id, 0))
    return 1;
  printf("cat: %d\n", cat(a, b, y));
  print("cat", y, 24);
  printf("chain: %d\n", chain(a, b, c, y));
  print("chain", y, 18);
  return braze_cuda_mesh_finalize();
}
