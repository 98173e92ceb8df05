/* Calling an entry of a CUDA library from the tools (braze run/check --target=cuda). */
#ifndef BRAZE_TOOLS_BRAZE_CUDA_RUNNER_H
#define BRAZE_TOOLS_BRAZE_CUDA_RUNNER_H

#include <stdbool.h>

#include "include/braze/runtime.h"

/* `buffers` are host buffers in the ABI's layout (inputs filled): copy the inputs to
 * device buffers allocated through the library's braze_cuda_* helpers, fill the
 * outputs with NaN bytes (0xFF) so an output the code never writes cannot pass, call
 * the entry, wait for it, copy the outputs back into `buffers`. On any failure
 * (no driver, no GPU, a CUDA error) prints "braze CMD: ..." and returns false. */
bool braze_cuda_entry_call(const char *cmd, const BrazeLibrary *lib, const BrazeEntry *e, void **buffers);

/* True for a library of another target, or when the library's runtime finds a driver
 * and a GPU; otherwise prints "braze CMD: cannot run on the GPU: <reason>". */
bool braze_cuda_can_run(const char *cmd, const BrazeLibrary *lib);

#endif
