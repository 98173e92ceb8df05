/* The constant an outlined kernel's argument is bound to in every call of it: what
 * form-kernels' outlining passed as an argument (a conv's weight, a zero pad's position
 * table) read back at compile time by the targets' templates (the CPU's prepacked B and
 * implicit padding, the CUDA template's padding by TMA). A call from a chain kernel
 * (form-row-chains, inside its scf.forall) passes one of the chain's own arguments: the
 * constant is the one bound to that argument in every call of the chain. */
#ifndef BRAZE_TARGETS_COMMON_BOUND_CONSTANT_H
#define BRAZE_TARGETS_COMMON_BOUND_CONSTANT_H

#include <stdint.h>

#include "mlir-c/IR.h"

/* The attribute of the `arith.constant` every call of `kernel` in `module` passes as
 * argument `arg`, or a null attribute (no call, a non-constant, two constants). */
MlirAttribute braze_bound_constant(MlirOperation module, MlirOperation kernel, intptr_t arg);

#endif
