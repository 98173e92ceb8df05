/* The chain stage: kernels that run one block of rows at a time, chained into one
 * kernel with the intermediates in per-block scratch (decision 0011).
 *
 *   form-row-chains  which kernels are row-local and their block form (row-local.c),
 *                    the chains and their cost model (form-row-chains.c), the chain
 *                    kernels (chain-build.c, chain.h), attention chains in the online
 *                    form (online.c: the match, online-bias.c: the scores' addend,
 *                    online-ir.c: the kernel's IR, online-outline.c: its generics as
 *                    block kernels on the cpu target, online-inputs.c: the kernels
 *                    making its inputs as one on other targets)
 *
 * In and out: the kernel level; a chain is a kernel whose body is an scf.forall. */
#ifndef BRAZE_PASSES_CHAINS_CHAIN_PASSES_H
#define BRAZE_PASSES_CHAINS_CHAIN_PASSES_H

#include "passes/passes.h"

extern const BrazePassInfo braze_pass_form_row_chains;

#endif
