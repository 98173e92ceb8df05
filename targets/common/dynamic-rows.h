/* Entries with a symbolic dim compiled as row blocks (docs/decisions/0029-symbolic-dims.md).
 *
 * A public function with graph.symbols whose one symbol s is an independent dim of
 * every op (pointwise with broadcasting, matmul's M or N, reductions, softmax and
 * norms over other dims, transposes, reshapes that keep it whole) computes each block
 * of rows along s on its own. braze_dynamic_rows_expand replaces such a function F by
 * two static clones, F__braze_rows<B> (B = 512 rows) and F__braze_rows<b> (b = 64), both
 * multiples of the divisor and within the bound, records what the ABI needs in the
 * module attribute braze.dynamic_entries, and the target's ABI
 * (targets/cpu/abi-dynamic.c) exports `int F(ptrs..., int64_t s)`, which checks s against
 * the bounds, calls the B clone over full blocks, then the b clone, and the b clone once
 * more on the rest padded with copies of the last row. A function
 * that does not fit gets a remark at the op naming the dim and an error at the function. */
#ifndef BRAZE_TARGETS_COMMON_DYNAMIC_ROWS_H
#define BRAZE_TARGETS_COMMON_DYNAMIC_ROWS_H

#include <stdbool.h>
#include <stdint.h>

#include "braze/runtime.h"
#include "mlir-c/IR.h"

#define BRAZE_DYNAMIC_ENTRIES_ATTR "braze.dynamic_entries"
#define BRAZE_ROWS_SUFFIX "__braze_rows"

/* `takes_rows`: the target implements the row-block ABI; otherwise each symbolic
 * entry is refused with an error naming `target_name`. `block_rows`: the preferred
 * block (0: 512), rounded to the divisor and clipped to the bound. */
bool braze_dynamic_rows_expand(MlirOperation module, bool takes_rows, const char *target_name, int64_t block_rows);

/* One dynamic entry, as read back from braze.dynamic_entries. */
typedef struct {
  char name[128], symbol[32];
  int64_t min, max, div;
  int64_t block_rows, small_rows; /* the clones' row counts; equal when there is one */
  int num_args;                   /* inputs, then outputs (as the clones' signatures) */
  bool rows[64];                  /* arg i's dim 0 is the symbol (dtypes, other dims: the clones');
                                     runtime loops: arg i has the symbol in some dim */
  /* Runtime loops (dynamic-loops.h): NAME__braze_loops(memref..., index s), no clones;
   * the arguments' dtypes and dims here, -1 for the symbol. */
  bool loops;
  int num_inputs;
  BrazeArgInfo args[64];
} BrazeDynamicEntry;


/* The module's dynamic entries (count in *n, NULL when none); free() the array. */
BrazeDynamicEntry *braze_dynamic_entries_read(MlirOperation module, int *n);

#endif
