/* The device side of `braze run/check --target=cuda`: the library's own runtime
 * (runtime/cuda/cuda-runtime.c, compiled into it) allocates and copies, so the
 * tool itself links nothing CUDA and runs on machines without a GPU (it then stops
 * with the runtime's one-sentence reason). */
#include "tools/braze/cuda-runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *(*last_error)(void);
  int (*available)(void);
  int (*malloc_)(void **ptr, size_t bytes);
  int (*free_)(void *ptr);
  int (*htod)(void *dst, const void *src, size_t bytes);
  int (*dtoh)(void *dst, const void *src, size_t bytes);
  int (*synchronize)(void);
} CudaHelpers;

static bool helper(const BrazeLibrary *lib, const char *name, void **slot) {
  *slot = braze_library_symbol(lib, name);
  return *slot != NULL;
}

static bool find_helpers(const char *cmd, const BrazeLibrary *lib, CudaHelpers *h) {
  /* object pointer to function pointer, POSIX-style (as runtime/loader.c does) */
  bool ok = helper(lib, "braze_cuda_last_error", (void **)&h->last_error) &&
            helper(lib, "braze_cuda_available", (void **)&h->available) &&
            helper(lib, "braze_cuda_malloc", (void **)&h->malloc_) && helper(lib, "braze_cuda_free", (void **)&h->free_) &&
            helper(lib, "braze_cuda_memcpy_htod", (void **)&h->htod) &&
            helper(lib, "braze_cuda_memcpy_dtoh", (void **)&h->dtoh) &&
            helper(lib, "braze_cuda_synchronize", (void **)&h->synchronize);
  if (!ok)
    fprintf(stderr, "braze %s: the CUDA library lacks its runtime helpers (braze_cuda_*)\n", cmd);
  return ok;
}

static bool failed(const char *cmd, const CudaHelpers *h, const char *what) {
  fprintf(stderr, "braze %s: %s: %s\n", cmd, what, h->last_error());
  return false;
}

static bool copy_in_and_call(const char *cmd, const CudaHelpers *h, const BrazeEntry *e, void **host, void **dev) {
  int n = e->num_inputs + e->num_outputs;
  for (int i = 0; i < n; ++i) {
    size_t bytes = e->args[i].bytes;
    if (h->malloc_(&dev[i], bytes))
      return failed(cmd, h, "cannot allocate GPU memory");
    if (i >= e->num_inputs)
      memset(host[i], 0xFF, bytes); /* NaN for floats: outputs never written show */
    if (h->htod(dev[i], host[i], bytes))
      return failed(cmd, h, "cannot copy to the GPU");
  }
  if (braze_entry_call(e, dev) != 0) {
    fprintf(stderr, "braze %s: '%s' failed on the GPU: %s\n", cmd, e->name, h->last_error());
    return false;
  }
  if (h->synchronize()) {
    fprintf(stderr, "braze %s: '%s' failed on the GPU: %s\n", cmd, e->name, h->last_error());
    return false;
  }
  for (int o = e->num_inputs; o < n; ++o)
    if (h->dtoh(host[o], dev[o], e->args[o].bytes))
      return failed(cmd, h, "cannot copy from the GPU");
  return true;
}

static bool available(const char *cmd, const CudaHelpers *h) {
  if (h->available() == 0)
    return true;
  fprintf(stderr, "braze %s: cannot run on the GPU: %s\n", cmd, h->last_error());
  return false;
}

bool braze_cuda_can_run(const char *cmd, const BrazeLibrary *lib) {
  CudaHelpers h;
  return strcmp(braze_library_target(lib), "cuda") != 0 || (find_helpers(cmd, lib, &h) && available(cmd, &h));
}

bool braze_cuda_entry_call(const char *cmd, const BrazeLibrary *lib, const BrazeEntry *e, void **buffers) {
  CudaHelpers h;
  if (!find_helpers(cmd, lib, &h) || !available(cmd, &h))
    return false;
  int n = e->num_inputs + e->num_outputs;
  void **dev = calloc(n ? (size_t)n : 1, sizeof *dev);
  bool ok = copy_in_and_call(cmd, &h, e, buffers, dev);
  for (int i = 0; i < n; ++i)
    h.free_(dev[i]);
  free(dev);
  return ok;
}
