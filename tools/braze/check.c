/* `braze check`: compile a module, run every entry (or --func) on seeded random
 * inputs (or --inputs), and compare each output with the reference interpreter — or,
 * for an ONNX model when ONNX Runtime for node is installed (NODE_PATH), with ONNX
 * Runtime (--oracle=auto|reference|onnxruntime).
 *
 * Metric per output, for floats: err = max_i |a_i - b_i| / max(|b_i|, 1e-2 * max_j |b_j|)
 * (a relative error whose denominator is floored at a hundredth of the output's scale,
 * so values near zero do not blow it up). NaN must meet NaN and infinities must be
 * equal. Bounds: f32 1e-4, f64 1e-9, f16 1e-2, bf16 5e-2 (--rtol overrides). Integers and i1 must
 * match exactly. Exit 1 when any output fails.
 *
 * With --mesh=SPEC nothing is compiled: the module is partitioned for the mesh
 * (shard-partition), every rank's program is simulated with the reference interpreter
 * (tools/braze/mesh-sim.h), and the assembled outputs are compared with the reference
 * run of the unpartitioned function, with the same metric and bounds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/graph/symbols.h"
#include "import/onnx-import.h"
#include "mlir-c/BuiltinAttributes.h"
#include "reference/reference.h"
#include "support/context.h"
#include "tools/braze/commands.h"
#include "tools/braze/common.h"
#include "tools/braze/compile.h"
#include "tools/braze/mesh-sim.h"
#include "tools/braze/ort-oracle.h"

static const char help_head[] =
    "usage: braze check FILE.mlir [options]\n"
    "  --target=NAME           target to compile for (default cpu)\n"
    "  --pipeline=NAME|FILE    pipeline (default: the target's default)\n"
    "  --rtol=X                bound on the relative error for every float dtype\n"
    "  --fusion-plan=FILE      form the kernels a fusion plan lists (docs/fusion-plans.md)\n"
    "  --oracle=WHICH          auto (default: ONNX Runtime for .onnx models when node can\n"
    "                          load onnxruntime-node, else the reference interpreter),\n"
    "                          reference, or onnxruntime\n"
    "  --mesh=NAME:SIZE[,...]|func  compile nothing: partition for this mesh (func: each\n"
    "                          function's braze.mesh), simulate every rank with the reference\n"
    "                          and compare with the unpartitioned reference (docs/sharding.md)\n"
    "  --mesh-passes=PASSES    with --mesh: passes run after shard-partition, e.g.\n"
    "                          'shard-chunk{chunks=2 min-bytes=0}' (docs/sharding.md)\n"
    "  --dims=NAME=V1,V2,...   a function with a symbolic dim (decision 0029): compile it once\n"
    "                          and check the library against the reference at each size\n"
    "  --load-pass-plugin=LIB  load a plugin (its targets for --target; repeatable)\n"
    "  --target-costs=FILE     override the target's facts (JSON; docs/target-costs.md)\n"
    "Without --func every public function is checked.\n";

typedef struct {
  BrazeCommonFlags common;
  const char *target, *pipeline, *rtol, *oracle, *fusion_plan, *mesh;
  const char *mesh_passes; /* --mesh-passes: passes run after shard-partition in the simulation */
  const char *dims;        /* --dims NAME=V1,V2,...: the sizes a symbolic function is checked at */
} CheckFlags;

typedef struct {
  double err;     /* the metric above; +inf on a NaN/inf mismatch */
  int64_t worst;  /* element index of the largest error */
  bool exact_dtype;
} Comparison;

static double default_bound(BrazeDType dtype) {
  switch (dtype) {
  case BRAZE_DTYPE_F32:
    return 1e-4;
  case BRAZE_DTYPE_F64:
    return 1e-9; /* the reference computes in double too; only op order and libm differ */
  case BRAZE_DTYPE_F16:
    return 1e-2;
  case BRAZE_DTYPE_BF16:
    return 5e-2;
  default:
    return 0.0;
  }
}

static Comparison compare(const BrazeHostTensor *got, const BrazeHostTensor *want) {
  Comparison c = {0.0, 0, !braze_dtype_is_float(want->dtype)};
  int64_t n = braze_tensor_numel(want);
  double scale = 0.0;
  for (int64_t i = 0; i < n; ++i)
    if (isfinite(want->data[i]) && fabs(want->data[i]) > scale)
      scale = fabs(want->data[i]);
  double floor_denom = scale > 0 ? 1e-2 * scale : 1e-30;
  for (int64_t i = 0; i < n; ++i) {
    double a = got->data[i], b = want->data[i], e;
    if (isnan(a) || isnan(b) || isinf(a) || isinf(b))
      e = (isnan(a) && isnan(b)) || a == b ? 0.0 : INFINITY;
    else
      e = fabs(a - b) / fmax(fabs(b), floor_denom);
    if (e > c.err || (isinf(e) && !isinf(c.err))) {
      c.err = e;
      c.worst = i;
    }
  }
  return c;
}

/* Compare all outputs; prints one line per output. */
static bool report(const char *func, const BrazeHostTensor *got, const BrazeHostTensor *want, size_t n,
                   const char *oracle, const CheckFlags *f) {
  bool all = true;
  for (size_t o = 0; o < n; ++o) {
    char type[128];
    braze_tensor_type_str(&want[o], type, sizeof type);
    Comparison c = compare(&got[o], &want[o]);
    double bound = c.exact_dtype ? 0.0 : f->rtol ? atof(f->rtol) : default_bound(want[o].dtype);
    bool pass = c.err <= bound;
    all = all && pass;
    printf("%s  @%s out%zu %-18s max rel err %.3g (bound %.0e)", pass ? "PASS" : "FAIL", func, o, type, c.err,
           bound);
    if (!pass)
      printf("  worst at element %lld: got %.9g, %s %.9g", (long long)c.worst, got[o].data[c.worst], oracle,
             want[o].data[c.worst]);
    printf("\n");
  }
  return all;
}

/* ONNX Runtime when asked for, or by default for an ONNX model it can run. */
static bool use_onnxruntime(const CheckFlags *f) {
  if (f->oracle && strcmp(f->oracle, "reference") == 0)
    return false;
  if (f->oracle && strcmp(f->oracle, "onnxruntime") == 0)
    return true;
  return braze_onnx_is_model_path(f->common.file) && braze_ort_available();
}

/* The expected outputs from the chosen oracle. */
static bool run_oracle(MlirOperation func, const CheckFlags *f, const BrazeHostTensor *inputs, size_t n_in,
                       size_t n_out, BrazeHostTensor **want, size_t *n_want) {
  if (!use_onnxruntime(f))
    return braze_reference_run(func, inputs, n_in, want, n_want);
  *n_want = n_out;
  return braze_ort_run(f->common.file, inputs, n_in, n_out, want);
}

static bool check_func_sized(MlirOperation func, const BrazeCompiled *compiled, const CheckFlags *f,
                             const int64_t *sizes);

/* A function with a symbolic dim: one size of --dims after another, each on a copy
 * specialized at that size (its random inputs and its reference), one library. */
static bool check_func_dims(MlirOperation func, const BrazeCompiled *compiled, const CheckFlags *f) {
  MlirStringRef ref = braze_cli_func_name(func);
  BrazeSymTable table;
  if (!braze_sym_table_read(func, &table))
    return false;
  const char *eq = f->dims ? strchr(f->dims, '=') : NULL;
  int k = eq ? braze_sym_lookup(&table, f->dims, (size_t)(eq - f->dims)) : -1;
  if (table.count != 1 || k < 0) {
    fprintf(stderr, "braze check: @%.*s has symbolic dims (%s%s): give their sizes, --dims=%s=V1,V2,...\n",
            (int)ref.length, ref.data, table.sym[0].name, table.count > 1 ? ", ..." : "", table.sym[0].name);
    return false;
  }
  bool ok = true;
  for (const char *p = eq + 1; *p;) {
    char *end;
    long long v = strtoll(p, &end, 10);
    if (end == p || (*end && *end != ',')) {
      fprintf(stderr, "braze check: --dims: expected integers after '%s=', got '%s'\n", table.sym[0].name, p);
      return false;
    }
    p = *end ? end + 1 : end;
    int64_t sizes[1] = {v};
    BrazeStr why = {0};
    if (!braze_sym_check_value(&table, 0, v, &why)) {
      fprintf(stderr, "braze check: --dims: %s\n", braze_str_cstr(&why));
      braze_str_free(&why);
      return false;
    }
    MlirOperation copy = mlirOperationClone(func);
    printf("size: %s = %lld\n", table.sym[0].name, v);
    ok = braze_sym_specialize(copy, sizes) && check_func_sized(copy, compiled, f, sizes) && ok;
    mlirOperationDestroy(copy);
  }
  return ok;
}

static bool check_func(MlirOperation func, const BrazeCompiled *compiled, const CheckFlags *f) {
  if (braze_func_has_symbols(func))
    return check_func_dims(func, compiled, f);
  if (f->dims && f->common.func) {
    fprintf(stderr, "braze check: --dims: @%s has no symbolic dims\n", f->common.func);
    return false;
  }
  return check_func_sized(func, compiled, f, NULL);
}

static bool check_func_sized(MlirOperation func, const BrazeCompiled *compiled, const CheckFlags *f,
                             const int64_t *sizes) {
  MlirStringRef ref = braze_cli_func_name(func);
  char *name = strndup(ref.data, ref.length);
  const char *oracle = use_onnxruntime(f) ? "onnxruntime" : "reference";
  BrazeHostTensor *inputs = NULL, *want = NULL, *got = NULL;
  size_t n_in = 0, n_want = 0, n_got = 0;
  bool ok = braze_cli_make_inputs("check", func, &f->common, &inputs, &n_in) &&
            braze_compiled_call_sizes("check", compiled, name, sizes, inputs, n_in, &got, &n_got) &&
            run_oracle(func, f, inputs, n_in, n_got, &want, &n_want);
  if (ok && n_got != n_want) {
    fprintf(stderr, "braze check: @%s: compiled code gives %zu outputs, the %s %zu\n", name, n_got, oracle, n_want);
    ok = false;
  }
  if (ok && f->common.save_outputs)
    ok = braze_cli_save_tensors("check", f->common.save_outputs, "out", got, n_got);
  if (ok) {
    printf("oracle: %s\n", oracle);
    ok = report(name, got, want, n_want, oracle, f);
  }
  braze_tensors_free(inputs, n_in);
  braze_tensors_free(want, n_want);
  braze_tensors_free(got, n_got);
  free(name);
  return ok;
}

static bool is_public_definition(MlirOperation op) {
  if (!braze_op_is(op, "func.func") || mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0))))
    return false;
  MlirAttribute vis = mlirOperationGetAttributeByName(op, braze_ref("sym_visibility"));
  return mlirAttributeIsNull(vis) || !braze_ref_eq(mlirStringAttrGetValue(vis), "private");
}

static bool check_module(MlirOperation module, const BrazeCompiled *compiled, const CheckFlags *f) {
  if (f->common.func) {
    MlirOperation func = braze_cli_find_func("check", module, f->common.func);
    return !mlirOperationIsNull(func) && check_func(func, compiled, f);
  }
  bool ok = true;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (is_public_definition(op))
      ok = check_func(op, compiled, f) && ok;
  return ok;
}

static int parse_flags(int argc, char **argv, CheckFlags *f) {
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      printf("%s%s", help_head, braze_cli_common_help);
      return -2;
    }
    int r = braze_cli_common_flag("check", argc, argv, &i, &f->common);
    if (!r && !(r = braze_cli_flag_value("check", argc, argv, &i, "--target", &f->target)) &&
        !(r = braze_cli_flag_value("check", argc, argv, &i, "--pipeline", &f->pipeline)) &&
        !(r = braze_cli_flag_value("check", argc, argv, &i, "--rtol", &f->rtol)) &&
        !(r = braze_cli_flag_value("check", argc, argv, &i, "--fusion-plan", &f->fusion_plan)) &&
        !(r = braze_cli_flag_value("check", argc, argv, &i, "--mesh", &f->mesh)) &&
        !(r = braze_cli_flag_value("check", argc, argv, &i, "--mesh-passes", &f->mesh_passes)) &&
        !(r = braze_cli_flag_value("check", argc, argv, &i, "--dims", &f->dims)))
      r = braze_cli_flag_value("check", argc, argv, &i, "--oracle", &f->oracle);
    if (r < 0)
      return -1;
    if (r == 0) {
      fprintf(stderr, "braze check: unexpected argument '%s' (braze check --help)\n", argv[i]);
      return -1;
    }
  }
  if (!f->common.file) {
    fprintf(stderr, "braze check: no input file (braze check --help)\n");
    return -1;
  }
  if (strcmp(f->common.file, "-") == 0) {
    /* The file is read twice: once compiled, once for the reference. */
    fprintf(stderr, "braze check: needs a file, not stdin\n");
    return -1;
  }
  if (f->oracle && strcmp(f->oracle, "auto") && strcmp(f->oracle, "reference") && strcmp(f->oracle, "onnxruntime")) {
    fprintf(stderr, "braze check: --oracle must be auto, reference or onnxruntime, not '%s'\n", f->oracle);
    return -1;
  }
  if (f->oracle && strcmp(f->oracle, "onnxruntime") == 0 && !braze_onnx_is_model_path(f->common.file)) {
    fprintf(stderr, "braze check: --oracle=onnxruntime needs an .onnx model\n");
    return -1;
  }
  if (f->rtol && !(atof(f->rtol) >= 0)) {
    fprintf(stderr, "braze check: bad --rtol '%s'\n", f->rtol);
    return -1;
  }
  return 0;
}

/* ---- --mesh: the partitioned program simulated against the unpartitioned reference ---- */

static bool check_func_on_mesh(MlirOperation func, MlirOperation partitioned, const CheckFlags *f) {
  MlirStringRef ref = braze_cli_func_name(func);
  char *name = strndup(ref.data, ref.length), mesh[160];
  BrazeHostTensor *inputs = NULL, *want = NULL, *got = NULL;
  size_t n_in = 0, n_want = 0, n_got = 0;
  if (!mlirAttributeIsNull(mlirOperationGetAttributeByName(func, braze_ref("braze.partitioned")))) {
    fprintf(stderr, "braze check: @%s is already partitioned: --mesh compares a function with its partition "
                    "(`braze run --mesh=func` runs a partitioned one)\n", name);
    free(name);
    return false;
  }
  bool ok = braze_cli_make_inputs("check", func, &f->common, &inputs, &n_in) &&
            braze_reference_run(func, inputs, n_in, &want, &n_want) &&
            braze_mesh_run("check", partitioned, inputs, n_in, &got, &n_got);
  if (ok && n_got != n_want) {
    fprintf(stderr, "braze check: @%s: the mesh gives %zu outputs, the reference %zu\n", name, n_got, n_want);
    ok = false;
  }
  if (ok && f->common.save_outputs)
    ok = braze_cli_save_tensors("check", f->common.save_outputs, "out", got, n_got);
  if (ok) {
    braze_mesh_describe_func(partitioned, mesh, sizeof mesh);
    printf("oracle: reference (unpartitioned); simulated on %s\n", mesh);
    ok = report(name, got, want, n_want, "reference", f);
  }
  braze_tensors_free(inputs, n_in);
  braze_tensors_free(want, n_want);
  braze_tensors_free(got, n_got);
  free(name);
  return ok;
}

/* Every public function of `module` (or --func) against its copy in `partitioned`. */
static bool check_module_on_mesh(MlirOperation module, MlirOperation partitioned, const CheckFlags *f) {
  bool ok = true;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!is_public_definition(op))
      continue;
    MlirStringRef name = braze_cli_func_name(op);
    char *text = strndup(name.data, name.length);
    bool wanted = !f->common.func || strcmp(f->common.func, text) == 0;
    MlirOperation twin = wanted ? braze_cli_find_func("check", partitioned, text) : (MlirOperation){NULL};
    free(text);
    if (wanted)
      ok = !mlirOperationIsNull(twin) && check_func_on_mesh(op, twin, f) && ok;
  }
  return ok;
}

static int check_on_mesh(const CheckFlags *f) {
  BrazeCliModule m, p;
  if (!braze_cli_load("check", f->common.file, &m))
    return 1;
  bool ok = braze_cli_load("check", f->common.file, &p);
  if (ok) {
    ok = braze_mesh_partition("check", p.module, f->mesh, f->mesh_passes) && check_module_on_mesh(m.module, p.module, f);
    ok = ok && m.sink.num_errors == 0 && p.sink.num_errors == 0;
    braze_cli_unload(&p);
  }
  braze_cli_unload(&m);
  printf("%s\n", ok ? "check passed" : "check FAILED");
  return ok ? 0 : 1;
}

int braze_cmd_check(int argc, char **argv) {
  CheckFlags f = {0};
  int r = parse_flags(argc, argv, &f);
  if (r)
    return r == -2 ? 0 : 1;
  if (f.mesh && (f.target || f.pipeline || f.fusion_plan || f.oracle)) {
    fprintf(stderr, "braze check: --mesh compiles nothing: it takes no --target, --pipeline, --fusion-plan or --oracle\n");
    return 1;
  }
  if (f.mesh_passes && !f.mesh) {
    fprintf(stderr, "braze check: --mesh-passes runs passes in the mesh simulation: it needs --mesh\n");
    return 1;
  }
  if (f.mesh)
    return check_on_mesh(&f);
  braze_compile_set_fusion_plan(f.fusion_plan);
  BrazeCompiled compiled;
  if (!braze_compiled_build("check", f.common.file, f.target, f.pipeline, &compiled))
    return 1;
  BrazeCliModule m;
  bool ok = braze_cli_load("check", f.common.file, &m);
  if (ok) {
    ok = check_module(m.module, &compiled, &f);
    braze_cli_unload(&m);
  }
  braze_compiled_free(&compiled);
  printf("%s\n", ok ? "check passed" : "check FAILED");
  return ok ? 0 : 1;
}
