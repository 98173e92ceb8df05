/* Internals of the user-kernel interpreter (reference/user-kernel.c), shared with the
 * GPU form (reference/user-kernel-gpu.c, decision 0027). */
#ifndef BRAZE_REFERENCE_USER_KERNEL_INTERNAL_H
#define BRAZE_REFERENCE_USER_KERNEL_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlir-c/IR.h"
#include "support/ptrmap.h"
#include "support/tensor.h"

enum { MAX_LANES = 16 };

typedef struct {
  int lanes;             /* 0: a scalar */
  double v[MAX_LANES];   /* element values (integers exact as doubles up to 2^53) */
  BrazeHostTensor *mem;  /* a memref argument (or a block's workgroup buffer) */
} RV;

typedef struct {
  BrazePtrMap index; /* value ptr -> vals index */
  RV *vals;
  size_t n, cap;
} KEnv;

struct RefGpuThread;

typedef struct {
  KEnv env;
  const char *kernel;
  struct RefGpuThread *gpu; /* the GPU thread this environment belongs to (NULL: not GPU form) */
} Kx;

void ref_uk_set(Kx *k, MlirValue v, const RV *r);
/* Operand i's value; false (after an error at op) when it has none. */
bool ref_uk_operand(Kx *k, MlirOperation op, intptr_t i, RV *out);
/* Run `block` with its arguments bound to args; the terminator's operands go to yielded. */
bool ref_uk_exec_block(Kx *k, MlirBlock block, const RV *args, RV *yielded, intptr_t *n_yielded);
void ref_uk_env_free(Kx *k);

/* user-kernel-gpu.c: run a GPU-form kernel (braze.gpu_launch) on the buffers; and the
 * ops of its body that only GPU threads evaluate (gpu.*, workgroup memref.alloca). */
bool ref_gpu_launch(MlirOperation call, MlirOperation callee, BrazeHostTensor *const *bufs, size_t n,
                    const char *kname);
bool ref_gpu_op(Kx *k, MlirOperation op, const char *name);

#endif
