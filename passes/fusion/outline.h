/* Outlining fusion groups into kernel functions (decision 0002): each group
 * becomes `func.func private @<name>` with kernel.kind / kernel.ops / kernel.score,
 * and the graph function calls the kernels in a topological order of the groups. */
#ifndef BRAZE_PASSES_FUSION_OUTLINE_H
#define BRAZE_PASSES_FUSION_OUTLINE_H

#include "passes/fusion/graph.h"

typedef struct {
  int group;
  char *name; /* NULL for opaque groups (ops kept in the graph function) */
  const char *kind;
} FkKernel;

typedef struct {
  FkKernel *items; /* in execution order */
  size_t count;
} FkKernelList;

/* Order the groups topologically (ties: program order of their first node) and
 * name each kernel `<target>_<kind>_fused_<op>_..._<index>`; `next_index` counts
 * kernels across the module so that names stay unique. */
void fk_kernels_plan(const FkGraph *g, const char *target, int *next_index, FkKernelList *out);
void fk_kernels_free(FkKernelList *list);
/* The kernel a node ended up in. */
const FkKernel *fk_kernel_of(const FkKernelList *list, const FkGraph *g, int node);

/* Rewrite the function: kernels outlined before it, calls in its body. */
void fk_outline(FkGraph *g, const FkKernelList *kernels);

#endif
