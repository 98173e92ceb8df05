/* Four threads call the contract library at once on the mock driver, each on its own
 * stream and on the default stream: the program must load once, each stream get one
 * workspace, and every call succeed. */
#include <cuda.h>
#include <pthread.h>
#include <stdio.h>

#include "contract.h"

static void *x, *sums, *max, *copy;
static int failures;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
  (void)arg;
  CUstream stream;
  int bad = braze_cuda_available() != 0 || cuStreamCreate(&stream, 0) != CUDA_SUCCESS;
  for (int i = 0; i < 50 && !bad; ++i)
    bad = f_stream(x, sums, max, copy, stream) != 0 || f(x, sums, max, copy) != 0;
  pthread_mutex_lock(&lock);
  failures += bad;
  pthread_mutex_unlock(&lock);
  return NULL;
}

int main(void) {
  if (braze_cuda_malloc(&x, 512) || braze_cuda_malloc(&sums, 32) || braze_cuda_malloc(&max, 4) ||
      braze_cuda_malloc(&copy, 512))
    return 1;
  pthread_t threads[4];
  for (int i = 0; i < 4; ++i)
    pthread_create(&threads[i], NULL, worker, NULL);
  for (int i = 0; i < 4; ++i)
    pthread_join(threads[i], NULL);
  printf("threads done: %d failed\n", failures);
  return failures != 0;
}
