/* graph-simplify: algebraic and view simplifications, constant folding, CSE and
 * DCE of graph ops.
 *
 * Each rule is its own named C rewrite pattern (passes/graph/simplify-rules.c, passes/graph/simplify-signs.c,
 * passes/graph/simplify-attention.c, passes/graph/simplify-fold.c,
 * passes/graph/simplify-conv.c, passes/graph/simplify-pad.c)
 * applied by MLIR's greedy driver, except cse and dce, which are walks: upstream
 * cse/canonicalize skip IRDL ops, which carry no side-effect information. The driver,
 * cse and dce alternate until nothing changes.
 *
 * Options:
 *   disable=RULE,...   turn rules off (unknown names are an error)
 *   fold-limit=N       fold constants of at most N elements (default 64)
 *   remarks            one remark per applied rewrite, naming the rule */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/graph/graph.h"
#include "mlir-c/Rewrite.h"
#include "passes/graph/graph-passes.h"
#include "passes/graph/simplify.h"
#include "support/context.h"
#include "support/diag.h"

/* Rounds of (patterns, cse, dce): another round runs only when cse or dce changed
 * something; two rounds nearly always reach the fixpoint. */
enum { MAX_ROUNDS = 8, DEFAULT_FOLD_LIMIT = 64 };

/* ---- options ---- */

static bool disable_rules(const BrazeOption *disable, SimplifyOptions *opts, BrazeStr *error) {
  for (const char *p = disable->value ? disable->value : "";;) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    int found = -1;
    for (int r = 0; r < NUM_RULES && found < 0; ++r)
      if (strlen(simplify_rule_names[r]) == len && memcmp(simplify_rule_names[r], p, len) == 0)
        found = r;
    if (found < 0) {
      braze_str_printf(error, "graph-simplify: disable= names '%.*s', which is not a rule (", (int)len, p);
      for (int r = 0; r < NUM_RULES; ++r)
        braze_str_printf(error, "%s%s", r ? " " : "", simplify_rule_names[r]);
      braze_str_puts(error, ")");
      return false;
    }
    opts->enabled[found] = false;
    if (!comma)
      return true;
    p = comma + 1;
  }
}

static void *create_state(const BrazePassOptions *options, BrazeStr *error) {
  static const char *const allowed[] = {"disable", "fold-limit", "remarks", NULL};
  if (!braze_options_check(options, "graph-simplify", allowed, error))
    return NULL;
  long long limit;
  if (!braze_option_int(options, "fold-limit", DEFAULT_FOLD_LIMIT, &limit, error))
    return NULL;
  if (limit < 0) {
    braze_str_printf(error, "graph-simplify: fold-limit must be >= 0, got %lld", limit);
    return NULL;
  }
  SimplifyOptions *opts = malloc(sizeof *opts);
  for (int r = 0; r < NUM_RULES; ++r)
    opts->enabled[r] = true;
  opts->fold_limit = limit;
  opts->remarks = braze_option_flag(options, "remarks");
  const BrazeOption *disable = braze_option_find(options, "disable");
  if (disable && !disable_rules(disable, opts, error)) {
    free(opts);
    return NULL;
  }
  return opts;
}

static void destroy_state(void *state) { free(state); }

/* ---- patterns ---- */

typedef struct {
  const SimplifyPattern *pattern;
  SimplifyRun *run;
} PatternData;

static MlirLogicalResult match_and_rewrite(MlirRewritePattern pattern, MlirOperation op,
                                           MlirPatternRewriter rewriter, void *user_data) {
  (void)pattern;
  PatternData *data = user_data;
  GraphBuilder b = braze_gb_for_pattern(rewriter, op);
  bool applied = data->pattern->fn(op, &b, data->run);
  return applied ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

static size_t add_patterns(MlirContext ctx, MlirRewritePatternSet set, const SimplifyPattern *table, size_t n,
                           PatternData *data, SimplifyRun *run) {
  MlirRewritePatternCallbacks callbacks = {NULL, NULL, match_and_rewrite};
  size_t added = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!run->opts->enabled[table[i].rule])
      continue;
    data[added] = (PatternData){&table[i], run};
    char root[64];
    snprintf(root, sizeof root, "graph.%s", table[i].root);
    mlirRewritePatternSetAdd(set, mlirOpRewritePatternCreate(braze_ref(root), 1, ctx, callbacks, &data[added], 0, NULL));
    added++;
  }
  return added;
}

static void apply_patterns(MlirOperation func, SimplifyRun *run) {
  MlirContext ctx = mlirOperationGetContext(func);
  size_t max = simplify_num_rule_patterns + simplify_num_sign_patterns + simplify_num_attention_patterns +
               simplify_num_fold_patterns + simplify_num_conv_patterns + simplify_num_pad_patterns;
  PatternData *data = malloc(max * sizeof *data);
  MlirRewritePatternSet set = mlirRewritePatternSetCreate(ctx);
  size_t n = add_patterns(ctx, set, simplify_rule_patterns, simplify_num_rule_patterns, data, run);
  n += add_patterns(ctx, set, simplify_sign_patterns, simplify_num_sign_patterns, data + n, run);
  n += add_patterns(ctx, set, simplify_attention_patterns, simplify_num_attention_patterns, data + n, run);
  n += add_patterns(ctx, set, simplify_fold_patterns, simplify_num_fold_patterns, data + n, run);
  n += add_patterns(ctx, set, simplify_conv_patterns, simplify_num_conv_patterns, data + n, run);
  add_patterns(ctx, set, simplify_pad_patterns, simplify_num_pad_patterns, data + n, run);
  MlirFrozenRewritePatternSet frozen = mlirFreezeRewritePattern(set);
  /* Freezing moves the patterns out but does not free the set object itself. */
  mlirRewritePatternSetDestroy(set);
  MlirGreedyRewriteDriverConfig config = mlirGreedyRewriteDriverConfigCreate();
  mlirGreedyRewriteDriverConfigSetRegionSimplificationLevel(config, MLIR_GREEDY_SIMPLIFY_REGION_LEVEL_DISABLED);
  mlirApplyPatternsAndFoldGreedilyWithOp(func, frozen, config);
  mlirGreedyRewriteDriverConfigDestroy(config);
  mlirFrozenRewritePatternSetDestroy(frozen);
  free(data);
}

/* ---- dce ---- */

static void remark_dead(MlirOperation op, void *user_data) {
  char detail[96];
  MlirStringRef name = braze_op_name(op);
  snprintf(detail, sizeof detail, "erased dead %.*s", (int)name.length, name.data);
  simplify_applied(user_data, mlirOperationGetLocation(op), RULE_DCE, detail);
}

/* ---- the run ---- */

static bool run(MlirOperation func, void *state) {
  SimplifyRun run = {.opts = state};
  for (int round = 0; round < MAX_ROUNDS; ++round) {
    apply_patterns(func, &run); /* runs to its own fixpoint */
    size_t merged = run.opts->enabled[RULE_CSE] ? simplify_cse(func, &run) : 0;
    size_t erased = run.opts->enabled[RULE_DCE] ? braze_graph_erase_dead(func, remark_dead, &run) : 0;
    /* Patterns only see new opportunities after cse/dce changed the IR. */
    if (merged == 0 && erased == 0)
      break;
  }
  return true;
}

const BrazePassInfo braze_pass_graph_simplify = {
    .argument = "graph-simplify",
    .summary = "Simplify graph ops: identities, transpose/reshape chains, constant folding, CSE, DCE",
    .options_help = "    disable=RULE,...     turn rules off: add-zero sub-zero mul-one div-one double-transpose\n"
                    "                         transpose-of-broadcast reshape-chain broadcast-noop select-const\n"
                    "                         shared-weight-matmul matmul-of-transposed-rows neg-neg\n"
                    "                         mul-minus-one sub-of-neg cast-chain scale-out-of-batch-matmul\n"
                    "                         softmax-stabilize mask-to-bias select-keep-first conv-epilogue\n"
                    "                         window-zero-pad const-fold cse dce\n"
                    "    fold-limit=N         fold constants of at most N elements (default 64)\n"
                    "    remarks              emit a remark naming the rule for every rewrite\n",
    .anchor = "func.func",
    .create_state = create_state,
    .destroy_state = destroy_state,
    .run = run,
};
