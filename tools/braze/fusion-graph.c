/* `braze fusion-graph`: the fusion graph of a module as Graphviz DOT, i.e. the
 * target's pipeline (or --pipeline) up to form-kernels, with
 * form-kernels{report-format=dot report=OUT} (docs/fusion-plans.md).
 *
 *   braze fusion-graph FILE.mlir|FILE.onnx [--target=cpu] [--pipeline=NAME|FILE]
 *                      [--fusion-plan=FILE] [-o OUT.dot] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/Pass.h"
#include "passes/passes.h"
#include "support/context.h"
#include "targets/target.h"
#include "tools/braze/commands.h"
#include "tools/braze/common.h"
#include "tools/braze/pipeline-edit.h"

static const char help[] =
    "usage: braze fusion-graph FILE [options]\n"
    "Writes form-kernels' fusion graph as Graphviz DOT (render: dot -Tpng OUT -o OUT.png):\n"
    "a cluster per function and kernel, a box per node, an edge per candidate pair with\n"
    "its category, score and decision.\n"
    "  --target=NAME           the target whose default pipeline runs (default cpu)\n"
    "  --pipeline=NAME|FILE    a pipeline with a form-kernels pass instead\n"
    "  --fusion-plan=FILE      apply a fusion plan first (form-kernels{plan=FILE})\n"
    "  -o OUT                  the DOT file (default: STEM.fusion.dot)\n";

typedef struct {
  const char *input, *target, *pipeline, *plan, *output;
} GraphFlags;

static int parse_flags(int argc, char **argv, GraphFlags *f) {
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(help, stdout);
      return -2;
    }
    int r;
    if ((r = braze_cli_flag_value("fusion-graph", argc, argv, &i, "-o", &f->output)) ||
        (r = braze_cli_flag_value("fusion-graph", argc, argv, &i, "--target", &f->target)) ||
        (r = braze_cli_flag_value("fusion-graph", argc, argv, &i, "--pipeline", &f->pipeline)) ||
        (r = braze_cli_flag_value("fusion-graph", argc, argv, &i, "--fusion-plan", &f->plan))) {
      if (r < 0)
        return -1;
      continue;
    }
    if (a[0] != '-' && !f->input) {
      f->input = a;
      continue;
    }
    fprintf(stderr, "braze fusion-graph: unexpected argument '%s' (braze fusion-graph --help)\n", a);
    return -1;
  }
  if (!f->input) {
    fprintf(stderr, "braze fusion-graph: no input file (braze fusion-graph --help)\n");
    return -1;
  }
  return 0;
}

/* "dir/mlp.mlir" -> "mlp.fusion.dot" (in the current directory). */
static char *default_output(const char *input) {
  const char *base = strrchr(input, '/');
  base = base ? base + 1 : input;
  const char *dot = strrchr(base, '.');
  size_t stem = dot && dot != base ? (size_t)(dot - base) : strlen(base);
  BrazeStr out = {0};
  braze_str_append(&out, base, stem);
  braze_str_puts(&out, ".fusion.dot");
  return out.data;
}

/* The pipeline up to form-kernels, which writes the DOT file. */
static bool graph_pipeline(const GraphFlags *f, const char *output, BrazeStr *text, BrazeStr *error) {
  const BrazeTarget *target = braze_target_lookup(f->target ? f->target : "cpu");
  if (!target) {
    braze_str_printf(error, "unknown target '%s'", f->target);
    return false;
  }
  return braze_pipeline_resolve(f->pipeline ? f->pipeline : target->default_pipeline, text, error) &&
         braze_pipeline_cut_after_form_kernels(text, error) &&
         (!f->plan || braze_pipeline_add_form_kernels_option(text, "plan", f->plan, error)) &&
         braze_pipeline_add_form_kernels_option(text, "report-format", "dot", error) &&
         braze_pipeline_add_form_kernels_option(text, "report", output, error);
}

static bool run_pipeline(MlirOperation module, const char *text, BrazeStr *error) {
  MlirPassManager pm = mlirPassManagerCreateOnOperation(mlirOperationGetContext(module), braze_ref("builtin.module"));
  bool ok = braze_pipeline_build(pm, text, NULL, error) && mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, module));
  mlirPassManagerDestroy(pm);
  return ok;
}

int braze_cmd_fusion_graph(int argc, char **argv) {
  GraphFlags f = {0};
  int r = parse_flags(argc, argv, &f);
  if (r)
    return r == -2 ? 0 : 1;
  char *default_out = f.output ? NULL : default_output(f.input);
  const char *output = f.output ? f.output : default_out;
  BrazeStr text = {0}, error = {0};
  bool ok = graph_pipeline(&f, output, &text, &error);
  BrazeCliModule m;
  if (ok && (ok = braze_cli_load("fusion-graph", f.input, &m))) {
    ok = run_pipeline(m.module, braze_str_cstr(&text), &error) && m.sink.num_errors == 0;
    braze_cli_unload(&m);
  }
  if (error.len)
    fprintf(stderr, "braze fusion-graph: %s: error: %s\n", f.input, braze_str_cstr(&error));
  if (ok)
    fprintf(stderr, "braze fusion-graph: wrote %s\n", output);
  braze_str_free(&text);
  braze_str_free(&error);
  free(default_out);
  return ok ? 0 : 1;
}
