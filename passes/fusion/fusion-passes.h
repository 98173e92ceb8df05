/* The fusion stage: loop-level generics grouped into kernels, one func.func each.
 *
 *   user-kernel-analysis  the read/write analysis of user kernels, as a report
 *                         (user-kernel-analysis.c over user-kernel-effects.c)
 *   form-kernels          the fusion graph (graph.c), its legality and scores (rules.c),
 *                         greedy merging in score order, fusion plans (plan.c), the
 *                         report and DOT (report.c, dot.c), outlining into kernel
 *                         functions (outline.c), user-kernel calls packed as `ext`
 *                         kernels with their epilogues (user-epilogue*.c), zero pads
 *                         moved into their template's kernel (pad-prologue.c)
 *
 * In: the loop level. Out: the kernel level (docs/architecture.md, "3. kernel level"). */
#ifndef BRAZE_PASSES_FUSION_FUSION_PASSES_H
#define BRAZE_PASSES_FUSION_FUSION_PASSES_H

#include "passes/passes.h"

extern const BrazePassInfo braze_pass_user_kernel_analysis;
extern const BrazePassInfo braze_pass_form_kernels;

#endif
