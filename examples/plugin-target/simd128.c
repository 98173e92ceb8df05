/* simd128: an imaginary accelerator brought up as a braze plugin, out of braze's tree.
 * It is a fixed-width SIMD device (128-bit vectors, a 256 KiB L2, 4 cores) that runs
 * the host CPU's code: the target reuses braze's cpu lowering and emit and changes
 * the facts heuristics read, so its matmul kernels carry vector<4xf32> tiles. It adds
 *   - pass `simd128-launches` (on the module): a remark per graph function with its
 *     kernel launches; `max=N` makes more than N an error (a device with a launch
 *     budget);
 *   - pipeline `simd128-default` (simd128-default.pipeline, embedded at build time);
 *   - target `simd128`.
 * It includes braze/plugin.h and MLIR's C API only (docs/new-hardware.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "braze/plugin.h"
#include "mlir-c/BuiltinAttributes.h"
#include "simd128-pipeline.h" /* simd128_default_pipeline[], generated from the .pipeline file */

static BrazePluginRegistrar *braze;

/* ---- simd128-launches ---- */

typedef struct {
  long max; /* 0: no limit */
} LaunchOptions;

static void *launches_create(const BrazePassOptions *options, BrazeStr *error) {
  LaunchOptions *o = calloc(1, sizeof *o);
  for (size_t i = 0; i < options->count; ++i) {
    const BrazeOption *opt = &options->items[i];
    char *end = NULL;
    if (strcmp(opt->key, "max") == 0 && opt->value)
      o->max = strtol(opt->value, &end, 10);
    if (!end || *end || end == opt->value || o->max < 1) {
      braze->error(error, "simd128-launches: expected max=N with N >= 1");
      free(o);
      return NULL;
    }
  }
  return o;
}

static void launches_destroy(void *state) { free(state); }

static bool has_attr(MlirOperation op, const char *name) {
  return !mlirAttributeIsNull(mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name)));
}

static bool is_op(MlirOperation op, const char *name) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return n.length == strlen(name) && memcmp(n.data, name, n.length) == 0;
}

static MlirOperation symbol(MlirOperation module, MlirStringRef name) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation f = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f)) {
    MlirAttribute sym = mlirOperationGetAttributeByName(f, mlirStringRefCreateFromCString("sym_name"));
    if (!mlirAttributeIsNull(sym) && mlirStringRefEqual(mlirStringAttrGetValue(sym), name))
      return f;
  }
  return (MlirOperation){NULL};
}

typedef struct {
  MlirOperation module;
  long launches;
} Count;

/* Kernel launches: calls of kernel functions (kernel.kind) from a graph function. */
static MlirWalkResult count_call(MlirOperation op, void *user_data) {
  Count *c = user_data;
  MlirAttribute callee = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("callee"));
  if (is_op(op, "func.call") && !mlirAttributeIsNull(callee)) {
    MlirOperation f = symbol(c->module, mlirFlatSymbolRefAttrGetValue(callee));
    c->launches += !mlirOperationIsNull(f) && has_attr(f, "kernel.kind");
  }
  return MlirWalkResultAdvance;
}

static bool report(MlirOperation func, const LaunchOptions *o, long launches) {
  MlirStringRef name = mlirStringAttrGetValue(mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("sym_name")));
  char msg[512];
  bool over = o->max && launches > o->max;
  if (over)
    snprintf(msg, sizeof msg, "simd128: @%.*s launches %ld kernels, the device allows %ld", (int)name.length, name.data,
             launches, o->max);
  else
    snprintf(msg, sizeof msg, "simd128: @%.*s launches %ld kernel%s", (int)name.length, name.data, launches,
             launches == 1 ? "" : "s");
  braze->emit(mlirOperationGetLocation(func), over ? BRAZE_PLUGIN_ERROR : BRAZE_PLUGIN_REMARK, msg);
  return !over;
}

/* Every graph function (a func.func with a body that is no kernel) of the module. */
static bool launches_run(MlirOperation module, void *state) {
  bool ok = true;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation f = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f)) {
    if (!is_op(f, "func.func") || has_attr(f, "kernel.kind") ||
        mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0))))
      continue;
    Count c = {module, 0};
    mlirOperationWalk(f, count_call, &c, MlirWalkPreOrder);
    ok = report(f, state, c.launches) && ok;
  }
  return ok;
}

static const BrazePassInfo launches_pass = {
    .argument = "simd128-launches",
    .summary = "Report each graph function's kernel launches (simd128 has a launch budget)",
    .options_help = "  max=N                error when a function launches more than N kernels\n",
    .anchor = "builtin.module",
    .create_state = launches_create,
    .destroy_state = launches_destroy,
    .run = launches_run,
};

/* ---- the target ---- */

static BrazeTarget simd128;

static void simd128_costs(BrazeTargetCosts *costs) {
  memset(costs, 0, sizeof *costs);
  costs->vector_width_bits = 128;
  costs->vector_registers = 16;
  costs->vector_ldexp = 0; /* exp scales by exponent bits */
  costs->cache_line_bytes = 64;
  costs->l2_cache_bytes = 256 << 10;
  costs->num_cores = 4;
}

static bool register_all(BrazePluginRegistrar *r) {
  braze = r;
  const BrazeTarget *cpu = r->find_target("cpu");
  if (!cpu)
    return false;
  simd128 = *cpu; /* the cpu's lowering, emit and runtime */
  simd128.name = "simd128";
  simd128.description = "simd128 (example plugin): 128-bit SIMD, 4 cores, 256 KiB L2; the host CPU's lowering";
  simd128.default_pipeline = "simd128-default";
  simd128.codegen_pipeline = "cpu-codegen,math-approx,simd128-launches";
  simd128.query_costs = simd128_costs;
  return r->register_pass(r, &launches_pass) && r->register_pipeline(r, "simd128-default", simd128_default_pipeline) &&
         r->register_target(r, &simd128);
}

BRAZE_PLUGIN("simd128", register_all)
