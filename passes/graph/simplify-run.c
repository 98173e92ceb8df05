/* graph-simplify, the record of a run: every rule's name (disable= and remarks use
 * them) and the count and remarks of applied rewrites. Apart from the driver
 * (graph-simplify.c) so that the rule files, which record what they apply, and the
 * driver, which runs the rule files, do not call each other. */
#include "passes/graph/simplify.h"
#include "support/diag.h"

const char *const simplify_rule_names[NUM_RULES] = {
    [RULE_ADD_ZERO] = "add-zero",
    [RULE_SUB_ZERO] = "sub-zero",
    [RULE_MUL_ONE] = "mul-one",
    [RULE_DIV_ONE] = "div-one",
    [RULE_DOUBLE_TRANSPOSE] = "double-transpose",
    [RULE_TRANSPOSE_OF_BROADCAST] = "transpose-of-broadcast",
    [RULE_RESHAPE_CHAIN] = "reshape-chain",
    [RULE_BROADCAST_NOOP] = "broadcast-noop",
    [RULE_CONV_EPILOGUE] = "conv-epilogue",
    [RULE_WINDOW_ZERO_PAD] = "window-zero-pad",
    [RULE_SELECT_CONST] = "select-const",
    [RULE_SHARED_WEIGHT_MATMUL] = "shared-weight-matmul",
    [RULE_MATMUL_OF_TRANSPOSED_ROWS] = "matmul-of-transposed-rows",
    [RULE_NEG_NEG] = "neg-neg",
    [RULE_MUL_MINUS_ONE] = "mul-minus-one",
    [RULE_SUB_OF_NEG] = "sub-of-neg",
    [RULE_CAST_CHAIN] = "cast-chain",
    [RULE_SCALE_OUT_OF_BATCH_MATMUL] = "scale-out-of-batch-matmul",
    [RULE_SOFTMAX_STABILIZE] = "softmax-stabilize",
    [RULE_MASK_TO_BIAS] = "mask-to-bias",
    [RULE_SELECT_KEEP_FIRST] = "select-keep-first",
    [RULE_CONST_FOLD] = "const-fold",
    [RULE_CSE] = "cse",
    [RULE_DCE] = "dce",
};

void simplify_applied(SimplifyRun *run, MlirLocation loc, SimplifyRule rule, const char *detail) {
  run->num_rewrites++;
  if (!run->opts->remarks)
    return;
  if (detail)
    braze_emit_remark(loc, "graph-simplify: %s: %s", simplify_rule_names[rule], detail);
  else
    braze_emit_remark(loc, "graph-simplify: %s", simplify_rule_names[rule]);
}
