/* `braze compile`: a graph module to a shared library (+ C header), an object, or
 * the target-level MLIR / optimized LLVM IR for inspection.
 *
 *   braze compile FILE.mlir [--target=cpu] [--pipeline=NAME|FILE] [-o OUT]
 *                 [-c | --emit=so|obj|mlir|llvm] [--header=FILE | --no-header]
 *                 [--dump-kernels=DIR] [--fusion-plan=FILE] [--mesh=NAME:SIZE,...|func]
 *                 [--fusion-report=FILE] [--fusion-plan-out=FILE] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/context.h"
#include "support/progress.h"
#include "tools/braze/commands.h"
#include "tools/braze/common.h"
#include "tools/braze/compile.h"
#include "tools/braze/mesh-sim.h"
#include "tools/braze/pipeline-edit.h"

static const char help[] =
    "usage: braze compile FILE.mlir [options]\n"
    "  --target=NAME           target to compile for (default cpu)\n"
    "  --pipeline=NAME|FILE    named pipeline (cpu-default, cpu-no-fusion, cpu-no-inline,\n"
    "                          cpu-no-epilogue, cpu-no-decompose, cpu-lower, none) or a\n"
    "                          pipeline file; default: the target's default pipeline\n"
    "  -o OUT                  output (default libSTEM.so, STEM.o, or stdout for text)\n"
    "  -c                      emit a relocatable object instead of a shared library\n"
    "  --emit=so|obj|mlir|llvm shared library, object, target-level MLIR (after the\n"
    "                          pipeline), or optimized LLVM IR with the ABI wrappers\n"
    "  --header=FILE           where to write the C header (default: OUT with .h)\n"
    "  --no-header             write no header\n"
    "  --dump-kernels=DIR      write DIR/KERNEL.mlir (loop IR) and DIR/KERNEL.ll (LLVM IR;\n"
    "                          cuda: DIR/KERNEL.ptx)\n"
    "  --cuda-graphs           cuda: each entry records its launches as a CUDA graph at its\n"
    "                          first call per set of pointers and replays it after\n"
    "  --fusion-plan=FILE      form the kernels a fusion plan lists: form-kernels{plan=FILE}\n"
    "                          in the pipeline (docs/fusion-plans.md)\n"
    "  --fusion-report=FILE    write form-kernels' text report there: every node, candidate pair,\n"
    "                          decision and kernel (form-kernels{report=FILE}; docs/passes.md)\n"
    "  --fusion-plan-out=FILE  write the fusion plan there (form-kernels{plan-out=FILE}), to edit\n"
    "                          and apply again with --fusion-plan (docs/fusion-plans.md)\n"
    "  --mesh=NAME:SIZE,...    partition the module for this mesh first (shard-partition{mesh=...};\n"
    "                          func: each function's own braze.mesh): the per-device program,\n"
    "                          its collectives over NCCL (cuda; docs/sharding.md, decision 0018)\n"
    "  --progress              a line on stderr as each stage starts: 'braze: stage NAME at MS ms'\n"
    "                          (import, passes, lower, llvm, link, done), for callers that show\n"
    "                          progress (the Python package: docs/python.md)\n"
    "  --list-targets          print each target's pipelines, runtime and cost facts\n"
    "  --load-pass-plugin=LIB  load a plugin's passes, pipelines, dialects, targets (repeatable)\n"
    "  --target-costs=FILE     override the target's facts (JSON; docs/target-costs.md)\n";

typedef struct {
  const char *input, *target, *pipeline, *output, *header, *dump_kernels, *emit, *fusion_plan, *mesh;
  const char *fusion_report, *plan_out;
  bool object, no_header, cuda_graphs, progress;
} CompileFlags;

static void print_error(const char *cmd, const char *input, const BrazeStr *error) {
  if (error->len)
    fprintf(stderr, "braze %s: %s: error: %s\n", cmd, input, error->data);
}

static const char *fusion_plan, *compile_mesh, *fusion_report, *plan_out;

void braze_compile_set_fusion_plan(const char *path) { fusion_plan = path; }
void braze_compile_set_mesh(const char *mesh) { compile_mesh = mesh; }

/* --fusion-report=FILE, --fusion-plan-out=FILE: form-kernels{report=FILE plan-out=FILE}. */
static void compile_set_outputs(const char *report, const char *plan) {
  fusion_report = report;
  plan_out = plan;
}

static bool add_form_kernels_output(BrazeStr *text, const char *flag, const char *key, const char *path,
                                    BrazeStr *error) {
  BrazeStr why = {0};
  bool ok = braze_pipeline_add_form_kernels_option(text, key, path, &why);
  if (!ok)
    braze_str_printf(error, "%s: %s", flag, braze_str_cstr(&why));
  braze_str_free(&why);
  return ok;
}

/* --fusion-plan=FILE: the pipeline's form-kernels gets plan=FILE. */
static bool add_fusion_plan(BrazeStr *text, const char *path, BrazeStr *error) {
  BrazeStr why = {0};
  bool ok = braze_pipeline_add_form_kernels_option(text, "plan", path, &why);
  if (!ok)
    braze_str_printf(error, "--fusion-plan: %s", braze_str_cstr(&why));
  braze_str_free(&why);
  return ok;
}

bool braze_compile_file(const char *cmd, const char *input, const char *target_name, const char *pipeline,
                        const BrazeEmitOptions *emit) {
  const BrazeTarget *target = braze_target_lookup(target_name ? target_name : "cpu");
  if (!target) {
    BrazeStr known = {0};
    braze_target_names(&known);
    fprintf(stderr, "braze %s: unknown target '%s' (known: %s)\n", cmd, target_name, known.data);
    braze_str_free(&known);
    return false;
  }
  BrazeStr text = {0}, error = {0};
  bool ok = braze_pipeline_resolve(pipeline ? pipeline : target->default_pipeline, &text, &error);
  if (ok && fusion_plan)
    ok = add_fusion_plan(&text, fusion_plan, &error);
  if (ok && fusion_report)
    ok = add_form_kernels_output(&text, "--fusion-report", "report", fusion_report, &error);
  if (ok && plan_out)
    ok = add_form_kernels_output(&text, "--fusion-plan-out", "plan-out", plan_out, &error);
  if (!ok) {
    fprintf(stderr, "braze %s: %s\n", cmd, error.data);
    braze_str_free(&text);
    braze_str_free(&error);
    return false;
  }
  BrazeCliModule m;
  braze_progress("import");
  ok = braze_cli_load(cmd, input, &m);
  if (ok && compile_mesh)
    ok = braze_mesh_partition(cmd, m.module, compile_mesh, NULL) && m.sink.num_errors == 0;
  if (ok) {
    ok = braze_target_compile(target, m.module, braze_str_cstr(&text), emit, &error) && m.sink.num_errors == 0;
    print_error(cmd, input, &error);
    braze_cli_unload(&m);
  }
  braze_str_free(&text);
  braze_str_free(&error);
  if (ok)
    braze_progress("done");
  return ok;
}

/* "dir/libmlp.so" -> "mlp" (no directory, no lib prefix, no extension). */
static char *stem_of(const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  if (strncmp(base, "lib", 3) == 0 && base[3])
    base += 3;
  char *stem = strdup(base);
  char *dot = strrchr(stem, '.');
  if (dot && dot != stem)
    *dot = '\0';
  return stem;
}

/* OUT with its extension replaced by .h (lib prefix dropped): out/libmlp.so -> out/mlp.h. */
static char *default_header(const char *output) {
  const char *base = strrchr(output, '/');
  size_t dir_len = base ? (size_t)(base - output) + 1 : 0;
  char *stem = stem_of(output);
  size_t n = dir_len + strlen(stem) + 3;
  char *h = malloc(n);
  snprintf(h, n, "%.*s%s.h", (int)dir_len, output, stem);
  free(stem);
  return h;
}

static bool parse_emit(const CompileFlags *f, BrazeEmitKind *kind) {
  const char *e = f->emit ? f->emit : f->object ? "obj" : "so";
  static const char *const names[] = {"so", "obj", "mlir", "llvm"};
  static const BrazeEmitKind kinds[] = {BRAZE_EMIT_SHARED, BRAZE_EMIT_OBJECT, BRAZE_EMIT_MLIR, BRAZE_EMIT_LLVM};
  for (int i = 0; i < 4; ++i)
    if (strcmp(e, names[i]) == 0) {
      *kind = kinds[i];
      return !(f->object && kinds[i] != BRAZE_EMIT_OBJECT);
    }
  return false;
}

static void list_targets(void) {
  for (size_t i = 0; i < braze_target_count(); ++i) {
    const BrazeTarget *t = braze_target_at(i);
    BrazeTargetCosts costs;
    braze_target_costs(t, &costs);
    const char *origin = braze_target_origin_at(i);
    printf("%s: %s%s%s%s\n  default pipeline: %s\n  codegen passes:   %s\n  runtime:         ", t->name, t->description,
           origin ? " (plugin " : "", origin ? origin : "", origin ? ")" : "",
           t->default_pipeline, t->codegen_pipeline);
    for (const char *const *r = t->runtime_link_args; *r; ++r)
      printf(" %s", *r);
    printf("\n  costs:            vector width %d bits, %d vector registers, cache line %d bytes, L2 %lld bytes, "
           "%d cores\n",
           costs.vector_width_bits, costs.vector_registers, costs.cache_line_bytes, (long long)costs.l2_cache_bytes,
           costs.num_cores);
    if (strcmp(t->name, "cpu") == 0) {
      const BrazeCpuModel *cpu = braze_cpu_selected();
      BrazeStr names = {0};
      braze_cpu_feature_names(cpu->mask, &names);
      printf("  cpu:              %s (LLVM CPU %s), checked at run time: %s\n", cpu->name, cpu->llvm_cpu,
             names.len ? names.data : "nothing beyond x86-64");
      braze_str_free(&names);
    }
    if (costs.num_sms)
      printf("  gpu:              %d SMs, warp %d, %d threads/block, shared memory %lld bytes/SM, %lld bytes/block\n",
             costs.num_sms, costs.warp_size, costs.max_threads_per_block, (long long)costs.shared_mem_per_sm_bytes,
             (long long)costs.shared_mem_per_block_bytes);
  }
  BrazeStr cpus = {0};
  braze_cpu_list(&cpus);
  printf("CPUs for the cpu target (--cpu=NAME):\n%s", cpus.data);
  braze_str_free(&cpus);
  printf("pipelines: none");
  for (size_t i = 0; i < braze_pipeline_count(); ++i)
    printf(" %s", braze_pipeline_name_at(i));
  printf("\n");
}

static int parse_flags(int argc, char **argv, CompileFlags *f) {
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    int r = 0;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(help, stdout);
      return -2;
    }
    if (strcmp(a, "--list-targets") == 0) {
      list_targets();
      return -2;
    }
    if (strcmp(a, "-c") == 0) {
      f->object = true;
      continue;
    }
    if (strcmp(a, "--no-header") == 0) {
      f->no_header = true;
      continue;
    }
    if (strcmp(a, "--cuda-graphs") == 0) {
      f->cuda_graphs = true;
      continue;
    }
    if (strcmp(a, "--progress") == 0) {
      f->progress = true;
      continue;
    }
    if ((r = braze_cli_flag_value("compile", argc, argv, &i, "-o", &f->output)) ||
        (r = braze_cli_flag_value("compile", argc, argv, &i, "--target", &f->target)) ||
        (r = braze_cli_flag_value("compile", argc, argv, &i, "--pipeline", &f->pipeline)) ||
        (r = braze_cli_flag_value("compile", argc, argv, &i, "--header", &f->header)) ||
        (r = braze_cli_flag_value("compile", argc, argv, &i, "--emit", &f->emit)) ||
        (r = braze_cli_flag_value("compile", argc, argv, &i, "--dump-kernels", &f->dump_kernels)) ||
        (r = braze_cli_flag_value("compile", argc, argv, &i, "--fusion-plan", &f->fusion_plan)) ||
        (r = braze_cli_flag_value("compile", argc, argv, &i, "--fusion-report", &f->fusion_report)) ||
        (r = braze_cli_flag_value("compile", argc, argv, &i, "--fusion-plan-out", &f->plan_out)) ||
        (r = braze_cli_flag_value("compile", argc, argv, &i, "--mesh", &f->mesh))) {
      if (r < 0)
        return -1;
      continue;
    }
    if ((a[0] != '-' || strcmp(a, "-") == 0) && !f->input) {
      f->input = a;
      continue;
    }
    fprintf(stderr, "braze compile: unexpected argument '%s' (braze compile --help)\n", a);
    return -1;
  }
  if (!f->input) {
    fprintf(stderr, "braze compile: no input file (braze compile --help)\n");
    return -1;
  }
  return 0;
}

int braze_cmd_compile(int argc, char **argv) {
  CompileFlags f = {0};
  int r = parse_flags(argc, argv, &f);
  if (r)
    return r == -2 ? 0 : 1;
  if (f.progress)
    braze_progress_enable();
  braze_compile_set_fusion_plan(f.fusion_plan);
  braze_compile_set_mesh(f.mesh);
  compile_set_outputs(f.fusion_report, f.plan_out);
  BrazeEmitOptions emit = {.dump_kernels = f.dump_kernels, .source_name = f.input, .graph_replay = f.cuda_graphs};
  if (!parse_emit(&f, &emit.kind)) {
    fprintf(stderr, "braze compile: bad --emit '%s' (so, obj, mlir or llvm; -c means obj)\n",
            f.emit ? f.emit : "");
    return 1;
  }
  char *stem = stem_of(strcmp(f.input, "-") == 0 ? "stdin" : f.input);
  char *default_out = NULL;
  if (!f.output && (emit.kind == BRAZE_EMIT_SHARED || emit.kind == BRAZE_EMIT_OBJECT)) {
    size_t n = strlen(stem) + 8;
    default_out = malloc(n);
    snprintf(default_out, n, emit.kind == BRAZE_EMIT_SHARED ? "lib%s.so" : "%s.o", stem);
  }
  emit.output = f.output ? f.output : default_out ? default_out : "-";
  char *header = NULL;
  bool binary = emit.kind == BRAZE_EMIT_SHARED || emit.kind == BRAZE_EMIT_OBJECT;
  if (binary && !f.no_header)
    emit.header = f.header ? f.header : (header = default_header(emit.output));
  bool ok = braze_compile_file("compile", f.input, f.target, f.pipeline, &emit);
  free(header);
  free(default_out);
  free(stem);
  return ok ? 0 : 1;
}
