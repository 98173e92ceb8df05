/* Calls the --cuda-graphs build of contract.mlir on the mock driver: the first call
 * with a set of pointers captures the entry's launches into a graph and launches it;
 * the same pointers replay it; other pointers (another workspace) capture their own;
 * the library keeps the graphs of the last four sets (the fifth evicts the oldest). */
#include <stdio.h>

#include "contract.h"

int main(void) {
  void *x, *sums, *max, *copy, *ws[4];
  if (braze_cuda_malloc(&x, 512) || braze_cuda_malloc(&sums, 32) || braze_cuda_malloc(&max, 4) ||
      braze_cuda_malloc(&copy, 512))
    return 1;
  for (int i = 0; i < 4; ++i)
    if (braze_cuda_malloc(&ws[i], 1024))
      return 1;
  printf("call 1: rc=%d\n", f(x, sums, max, copy));
  printf("call 2: rc=%d\n", f(x, sums, max, copy));
  printf("call 3: rc=%d\n", f_ws(x, sums, max, copy, ws[0]));
  printf("call 4: rc=%d\n", f_ws(x, sums, max, copy, ws[0]));
  printf("call 5: rc=%d\n", f(x, sums, max, copy));
  for (int i = 1; i < 4; ++i) /* three more sets: the fifth evicts the least recently used (ws[0]) */
    printf("new set %d: rc=%d\n", i, f_ws(x, sums, max, copy, ws[i]));
  printf("call 6: rc=%d\n", f(x, sums, max, copy));
  printf("call 7: rc=%d\n", f_ws(x, sums, max, copy, ws[0]));
  return 0;
}
