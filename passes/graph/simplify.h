/* graph-simplify internals, shared by passes/graph/graph-simplify.c (options, driver) and the
 * rule files passes/graph/simplify-rules.c (identities, views, select), passes/graph/simplify-fold.c
 * (constant folding), passes/graph/simplify-signs.c (signs and casts),
 * passes/graph/simplify-attention.c (attention's spellings), passes/graph/simplify-conv.c and passes/graph/simplify-pad.c (conv and
 * window rules) and passes/graph/simplify-cse.c (CSE walk), and the run record
 * (rule names, applied rewrites) in passes/graph/simplify-run.c. */
#ifndef BRAZE_PASSES_GRAPH_SIMPLIFY_H
#define BRAZE_PASSES_GRAPH_SIMPLIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlir-c/IR.h"
#include "passes/graph/builder.h"

/* Every rule, by the name disable= and remarks use. */
typedef enum {
  RULE_ADD_ZERO,
  RULE_SUB_ZERO,
  RULE_MUL_ONE,
  RULE_DIV_ONE,
  RULE_DOUBLE_TRANSPOSE,
  RULE_TRANSPOSE_OF_BROADCAST,
  RULE_RESHAPE_CHAIN,
  RULE_BROADCAST_NOOP,
  RULE_SELECT_CONST,
  RULE_SHARED_WEIGHT_MATMUL,
  RULE_MATMUL_OF_TRANSPOSED_ROWS,
  RULE_NEG_NEG,
  RULE_MUL_MINUS_ONE,
  RULE_SUB_OF_NEG,
  RULE_CAST_CHAIN,
  RULE_SCALE_OUT_OF_BATCH_MATMUL,
  RULE_SOFTMAX_STABILIZE,
  RULE_MASK_TO_BIAS,
  RULE_SELECT_KEEP_FIRST,
  RULE_CONV_EPILOGUE,
  RULE_WINDOW_ZERO_PAD,
  RULE_CONST_FOLD,
  RULE_CSE,
  RULE_DCE,
  NUM_RULES
} SimplifyRule;

extern const char *const simplify_rule_names[NUM_RULES];

typedef struct {
  bool enabled[NUM_RULES];
  int64_t fold_limit; /* max element count of a folded constant */
  bool remarks;       /* one remark per applied rewrite */
} SimplifyOptions;

/* One run of the pass on one function. */
typedef struct {
  const SimplifyOptions *opts;
  size_t num_rewrites;
} SimplifyRun;

/* Record an applied rewrite of `rule` at `loc` (a remark when asked for);
 * `detail` may be NULL. */
void simplify_applied(SimplifyRun *run, MlirLocation loc, SimplifyRule rule, const char *detail);

/* A pattern body: rewrite `op` through `b` and return true, or return false
 * having changed nothing. */
typedef bool (*SimplifyFn)(MlirOperation op, GraphBuilder *b, SimplifyRun *run);

typedef struct {
  SimplifyRule rule;
  const char *root; /* the op mnemonic the pattern is anchored on */
  SimplifyFn fn;
} SimplifyPattern;

/* The pattern tables of the rule files. */
extern const SimplifyPattern simplify_rule_patterns[];
extern const size_t simplify_num_rule_patterns;
extern const SimplifyPattern simplify_fold_patterns[];
extern const size_t simplify_num_fold_patterns;
/* passes/graph/simplify-conv.c: conv-epilogue */
extern const SimplifyPattern simplify_conv_patterns[];
extern const size_t simplify_num_conv_patterns;
/* passes/graph/simplify-signs.c: neg-neg mul-minus-one sub-of-neg cast-chain */
extern const SimplifyPattern simplify_sign_patterns[];
extern const size_t simplify_num_sign_patterns;
/* passes/graph/simplify-attention.c: scale-out-of-batch-matmul softmax-stabilize mask-to-bias
 * select-keep-first */
extern const SimplifyPattern simplify_attention_patterns[];
extern const size_t simplify_num_attention_patterns;
/* passes/graph/simplify-pad.c: window-zero-pad */
extern const SimplifyPattern simplify_pad_patterns[];
extern const size_t simplify_num_pad_patterns;

/* CSE of graph ops under `root`, block by block; returns how many were merged. */
size_t simplify_cse(MlirOperation root, SimplifyRun *run);

#endif
