/* Which values of a GPU-form user kernel may differ between the threads of a block, and
 * the barriers that not every thread of the block reaches together (docs/user-kernels.md,
 * "GPU form on each target"): a gpu.barrier under an scf.if whose condition, in an
 * scf.for whose bounds, or in an scf.while whose condition depends on the thread, and a
 * gpu.shuffle under such control that depends on the lane within a warp. */
#ifndef BRAZE_TARGETS_COMMON_GPU_UNIFORM_H
#define BRAZE_TARGETS_COMMON_GPU_UNIFORM_H

#include <stdbool.h>

#include "mlir-c/IR.h"

typedef struct {
  MlirOperation barrier; /* the first gpu.barrier under thread-dependent control */
  MlirOperation branch;  /* the scf.if / scf.for / scf.while whose control depends on the thread */
  const char *what;      /* "an scf.if whose condition depends", "an scf.for whose bounds depend", ... */
} BrazeDivergentBarrier;

/* True when a gpu.barrier of `func` (a GPU-form user kernel) is under control that
 * depends on the thread (filled in *out). Thread-dependent: gpu.thread_id, gpu.shuffle
 * and atomic results, everything computed from them, loop-carried values and results
 * yielded from them, and everything defined under control that depends on them when it
 * leaves that control. Constants, arguments, block ids and dims, and loads at uniform
 * indices are uniform. */
bool braze_gpu_divergent_barrier(MlirOperation func, BrazeDivergentBarrier *out);

/* True when a gpu.shuffle of `func` (launched with `block` threads a block) is under
 * control on which the lanes of a warp may disagree (filled in *out, .barrier the
 * shuffle): it lowers to shfl.sync with a full mask, undefined unless every lane of the
 * warp executes it. The same taint at the warp level: thread id x, lane ids, shuffle
 * and atomic results and what is computed from them; thread ids y and z are uniform
 * across a warp when block x is a multiple of 32 (or the block is 1-D), and so are
 * x / 32c, x >> k (k >= 5) and x < 32c, x >= 32c computed directly from thread id x. */
bool braze_gpu_divergent_shuffle(MlirOperation func, const int64_t block[3], BrazeDivergentBarrier *out);

#endif
