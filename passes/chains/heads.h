/* form-row-chains internals: the online form through views (passes/chains/heads.c).
 *
 * Exporters slice q, k and v out of one in-projection (PyTorch's
 * TransformerEncoderLayer: slice, reshape and transpose of a [S B, 3E] product), so the
 * attention's contractions read them through views, and the online form's template (the
 * CUDA flash kernel) takes q, k and v as [batch..., rows, head dim] tensors. A kernel of
 * the chain that reads an argument through a view gets a `poi` copy kernel making that
 * layout (one memory-bound pass), and reads the copy by a plain projection:
 *
 *   %k = call @<target>_poi_fused_heads_0(%qkv)        k's heads, [B H, S, D]
 *   %s = call @<kernel>_heads(%q, %k)                   the kernel, reading %k plainly
 *
 * Tentative: form-row-chains applies it only where the online match refused a view,
 * and undoes it when the chain still does not form. On targets with the online form it
 * also gives every other matmul kernel a plain copy of an operand read through a view
 * that repeats no element (the out-projection reading the heads back through a transpose
 * and a reshape), or by a plain map in another layout than the template's (a 1x1 conv's
 * weight [OC, C, 1, 1] read as (n, k, 0, 0)): their tensor-core template takes only
 * [batch..., m, k] A (a unit batch dim the view does not read is a dim of 1 in the copy)
 * and [k, n] B. */
#ifndef BRAZE_PASSES_CHAINS_HEADS_H
#define BRAZE_PASSES_CHAINS_HEADS_H

#include <stdbool.h>

#include "mlir-c/IR.h"
#include "passes/chains/chain.h"

enum { HEADS_MAX_COPIES = 2 };

enum { HEADS_MAX_OPERANDS = 32 };

/* The layout a copy is made in. */
typedef enum {
  HEADS_ONLINE,         /* the online form's [batch..., rows, head dim]: views only */
  HEADS_ONLINE_REDUCTION_LAST, /* the same, and a contraction's input read by a plain map with its
                         * reduction dim not last (k stored as [batch, head dim, keys]) copied
                         * with the reduction last */
  HEADS_TEMPLATE,       /* a matmul template's (m, k) A or (k, n) B */
} HeadsLayout;

/* One call rewritten: the old call stays until heads_commit or heads_undo, its operands
 * pointed at its own result (so it is no second user of the values the matcher counts
 * users of: the probabilities), the originals kept to restore. */
typedef struct {
  MlirOperation old_call, new_call, new_kernel;
  MlirValue old_operands[HEADS_MAX_OPERANDS];
  MlirOperation copy_calls[HEADS_MAX_COPIES], copy_kernels[HEADS_MAX_COPIES];
  int n_copies;
} HeadsEdit;

/* Give `call`'s kernel (`kernel`) copies of the arguments its generics read through
 * views; false (nothing changed) when it reads none, or one it cannot copy (an argument
 * also read elsewhere). The copies are in `layout` (HeadsLayout). A view that repeats
 * elements (a convolution's windows: the copy outgrows its source, the im2col columns)
 * stays a view when its source's rows are a multiple of `window_channels` elements (the
 * template reads it in place; 0: never), else is copied. New kernels are named after
 * `target`, inserted before `func`. */
bool heads_materialize(MlirOperation func, Symbols *sym, MlirOperation call, MlirOperation kernel,
                       const char *target, HeadsLayout layout, long long window_channels, HeadsEdit *e);

/* Keep the edit: the old call is erased, and its kernel when it has no other call (the new
 * kernel then takes its name); the new kernels' calls are counted in sym->calls. */
void heads_commit(HeadsEdit *e, Symbols *sym, MlirOperation old_kernel);

/* Undo the edit: the old call's uses back, the new calls and kernels erased. */
void heads_undo(HeadsEdit *e, Symbols *sym);

#endif
