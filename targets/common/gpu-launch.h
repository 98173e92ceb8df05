/* The GPU form of user kernels (docs/user-kernels.md, "GPU form on each target"): a
 * user kernel with `braze.gpu_launch = {grid = array<i64: ...>, block = array<i64: ...>}`
 * (1 to 3 positive entries each, missing ones 1, at most 1024 threads a block) is
 * written as one block's threads: gpu.thread_id / block_id / block_dim / grid_dim,
 * gpu.barrier, gpu.shuffle, workgroup allocas. Both targets read the launch here. */
#ifndef BRAZE_TARGETS_COMMON_GPU_LAUNCH_H
#define BRAZE_TARGETS_COMMON_GPU_LAUNCH_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/IR.h"

/* Whether `func` carries braze.gpu_launch (well-formed or not). */
bool braze_is_gpu_form(MlirOperation func);
/* grid[3] and block[3] (x, y, z) from func's braze.gpu_launch (read by uk_gpu_launch,
 * passes/fusion/user-kernel-effects.h, as form-kernels checks it); false after an error
 * at func naming `pass` and what was expected. */
bool braze_gpu_launch_read(MlirOperation func, const char *pass, int64_t grid[3], int64_t block[3]);
/* 0, 1, 2 for the dimension x, y, z of a gpu id op (its `dimension` attribute). */
int braze_gpu_dimension(MlirOperation id_op);

#endif
