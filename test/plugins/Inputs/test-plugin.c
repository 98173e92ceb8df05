/* A plugin for braze's tests, built by the lit tests with clang against
 * include/braze/plugin.h and MLIR's C API only. It registers
 *   - pass `test-count-ops` (on func.func): a remark "@NAME: N ops" per function, or
 *     only ops named by option op=NAME; option `fail` emits an error and fails;
 *   - pipeline `test-count`: graph-verify, test-count-ops;
 *   - dialect `testplug` (IRDL): op testplug.mark;
 *   - target `test-cpu`: the cpu target's lowering and emit, 128-bit vectors.
 * Built with -D to misbehave in one way each (the loader's error tests):
 *   NO_ENTRY, WRONG_ABI, NO_DECLARE, DUP_BUILTIN_PASS, DUP_UPSTREAM_PASS, DUP_TARGET,
 *   FAIL_AFTER_PASS (registers a pass, then returns false), NAME=... (another name),
 *   PASS_NAME=... (another pass name), BAD_DIALECT. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "braze/plugin.h"
#include "mlir-c/BuiltinAttributes.h"

#ifndef NAME
#define NAME "test-plugin"
#endif
#ifndef PASS_NAME
#define PASS_NAME "test-count-ops"
#endif

static BrazePluginRegistrar *host;

typedef struct {
  char *op; /* NULL: every op */
  int fail;
  size_t count;
} CountState;

static void *count_create(const BrazePassOptions *options, BrazeStr *error) {
  CountState *s = calloc(1, sizeof *s);
  for (size_t i = 0; i < options->count; ++i) {
    const BrazeOption *o = &options->items[i];
    if (strcmp(o->key, "op") == 0 && o->value) {
      s->op = strdup(o->value);
    } else if (strcmp(o->key, "fail") == 0 && !o->value) {
      s->fail = 1;
    } else {
      host->error(error, "test-count-ops: unknown option '");
      host->error(error, o->key);
      host->error(error, "' (known: op=NAME, fail)");
      free(s->op);
      free(s);
      return NULL;
    }
  }
  return s;
}

static void count_destroy(void *state) {
  CountState *s = state;
  free(s->op);
  free(s);
}

static MlirWalkResult count_one(MlirOperation op, void *user_data) {
  CountState *s = user_data;
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (!s->op || (strlen(s->op) == name.length && memcmp(s->op, name.data, name.length) == 0))
    s->count++;
  return MlirWalkResultAdvance;
}

static bool count_run(MlirOperation func, void *state) {
  CountState *s = state;
  MlirLocation loc = mlirOperationGetLocation(func);
  if (s->fail) {
    host->emit(loc, BRAZE_PLUGIN_ERROR, "test-count-ops failed as asked");
    return false;
  }
  s->count = 0;
  mlirOperationWalk(func, count_one, s, MlirWalkPreOrder);
  MlirStringRef fname = mlirStringAttrGetValue(mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("sym_name")));
  char msg[256];
  snprintf(msg, sizeof msg, "@%.*s: %zu ops%s%s", (int)fname.length, fname.data, s->count - (s->op ? 0 : 1),
           s->op ? " named " : "", s->op ? s->op : "");
  host->emit(loc, BRAZE_PLUGIN_REMARK, msg);
  return true;
}

static const BrazePassInfo count_pass = {
    .argument = PASS_NAME,
    .summary = "Remark the number of ops in each function (a test plugin's pass)",
    .options_help = "  op=NAME              count only ops named NAME\n"
                    "  fail                 emit an error and fail\n",
    .anchor = "func.func",
    .create_state = count_create,
    .destroy_state = count_destroy,
    .run = count_run,
};

static const char irdl[] = "irdl.dialect @testplug {\n"
                           "  irdl.operation @mark {\n"
                           "    %0 = irdl.any\n"
                           "    irdl.operands(x: %0)\n"
                           "    irdl.results(y: %0)\n"
                           "  }\n"
                           "}\n"
#ifdef BAD_DIALECT
                           "this is not IRDL\n"
#endif
    ;

/* The cpu target's hooks with this target's facts. */
static BrazeTarget test_cpu;
static void test_cpu_costs(BrazeTargetCosts *costs) {
  host->find_target("cpu")->query_costs(costs);
  costs->vector_width_bits = 128;
}

static bool register_all(BrazePluginRegistrar *r) {
  host = r;
#if defined(DUP_BUILTIN_PASS)
  static const BrazePassInfo dup = {.argument = "graph-decompose", .summary = "", .anchor = "", .run = count_run};
  if (!r->register_pass(r, &dup))
    return false;
#elif defined(DUP_UPSTREAM_PASS)
  static const BrazePassInfo dup = {.argument = "canonicalize", .summary = "", .anchor = "", .run = count_run};
  if (!r->register_pass(r, &dup))
    return false;
#endif
  if (!r->register_pass(r, &count_pass))
    return false;
#ifdef FAIL_AFTER_PASS
  return false;
#endif
  const BrazeTarget *cpu = r->find_target("cpu");
  test_cpu = *cpu;
  test_cpu.name = "test-cpu";
#ifdef DUP_TARGET
  test_cpu.name = "cuda";
#endif
  test_cpu.description = "the cpu target with 128-bit vectors (a test plugin's target)";
  test_cpu.default_pipeline = "cpu-default";
  test_cpu.query_costs = test_cpu_costs;
  return r->register_pipeline(r, "test-count", "# a plugin's pipeline\ngraph-verify,\n" PASS_NAME "\n") &&
         r->register_dialect(r, "testplug", irdl) && r->register_target(r, &test_cpu);
}

#if defined(NO_ENTRY)
bool braze_plugin_init_misspelt(BrazePluginRegistrar *r) { return register_all(r); }
#elif defined(WRONG_ABI)
BRAZE_PLUGIN_EXPORT bool braze_plugin_init(BrazePluginRegistrar *r) {
  return r->declare(r, BRAZE_PLUGIN_ABI_VERSION + 1, NAME) && register_all(r);
}
#elif defined(NO_DECLARE)
BRAZE_PLUGIN_EXPORT bool braze_plugin_init(BrazePluginRegistrar *r) { return register_all(r); }
#else
BRAZE_PLUGIN(NAME, register_all)
#endif
