/* Calls the --cuda-graphs build of contract.mlir on the mock driver: the first call
 * captures the entry's launches into a graph and launches it; the same pointers
 * replay it; new pointers (another workspace) capture again. */
#include <stdio.h>

#include "contract.h"

int main(void) {
  void *x, *sums, *max, *copy, *ws;
  if (braze_cuda_malloc(&x, 512) || braze_cuda_malloc(&sums, 32) || braze_cuda_malloc(&max, 4) ||
      braze_cuda_malloc(&copy, 512) || braze_cuda_malloc(&ws, 1024))
    return 1;
  printf("call 1: rc=%d\n", f(x, sums, max, copy));
  printf("call 2: rc=%d\n", f(x, sums, max, copy));
  printf("call 3: rc=%d\n", f_ws(x, sums, max, copy, ws));
  printf("call 4: rc=%d\n", f_ws(x, sums, max, copy, ws));
  return 0;
}
