/* `braze import MODEL.onnx [-o OUT.mlir] [--shape NAME=DxD]... [--bind NAME=FILE.npy]...`: ONNX model ->
 * graph-dialect MLIR (docs/onnx-import.md). Prints to stdout without -o; with -o
 * the file is written only when the whole import succeeded. Exit 1 on any error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/onnx-import.h"
#include "support/context.h"
#include "support/diag.h"
#include "tools/braze/commands.h"

enum { MAX_SHAPES = 64, MAX_BINDINGS = 64 };

static void import_usage(FILE *to) {
  fputs("usage: braze import MODEL.onnx [-o OUT.mlir] [--shape NAME=DxDx...]... [--bind NAME=FILE.npy]...\n"
        "  -o FILE             write the module to FILE (default: stdout)\n"
        "  --shape NAME=DxD    static shape for graph input NAME (for dynamic dims)\n"
        "  --dim NAME=MIN:MAX[:DIV]  keep the dim_param NAME as a symbolic dim in [MIN, MAX], a\n"
        "                      multiple of DIV (decision 0029); repeatable\n"
        "  --bind NAME=FILE    graph input NAME becomes a constant holding FILE's data (.npy): for\n"
        "                      inputs braze needs as constants (shapes, axes, k, pads)\n",
        to);
}

typedef struct {
  const char *input;
  const char *output;
  BrazeOnnxShape shapes[MAX_SHAPES];
  size_t num_shapes;
  BrazeOnnxBinding bindings[MAX_BINDINGS];
  size_t num_bindings;
  BrazeOnnxDim dims[8];
  size_t num_dims;
} ImportArgs;

/* NAME=FILE into a binding; false when malformed. */
static bool parse_binding(const char *spec, BrazeOnnxBinding *out) {
  const char *eq = strchr(spec, '=');
  if (!eq || eq == spec || !eq[1] || (size_t)(eq - spec) >= sizeof out->name)
    return false;
  snprintf(out->name, sizeof out->name, "%.*s", (int)(eq - spec), spec);
  out->npy_path = eq + 1;
  return true;
}

/* 0: ok, 1: bad usage, -1: done (help). */
static int parse_import_args(int argc, char **argv, ImportArgs *a) {
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i];
    const char *shape = strncmp(arg, "--shape=", 8) == 0 ? arg + 8 : NULL;
    if (strcmp(arg, "--shape") == 0 && i + 1 < argc)
      shape = argv[++i];
    const char *dim = strncmp(arg, "--dim=", 6) == 0 ? arg + 6 : NULL;
    if (strcmp(arg, "--dim") == 0 && i + 1 < argc)
      dim = argv[++i];
    const char *bind = strncmp(arg, "--bind=", 7) == 0 ? arg + 7 : NULL;
    if (strcmp(arg, "--bind") == 0 && i + 1 < argc)
      bind = argv[++i];
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
      import_usage(stdout);
      return -1;
    } else if (strcmp(arg, "-o") == 0 && i + 1 < argc) {
      a->output = argv[++i];
    } else if (shape) {
      if (a->num_shapes == MAX_SHAPES || !braze_onnx_parse_shape(shape, &a->shapes[a->num_shapes])) {
        fprintf(stderr, "braze import: bad --shape '%s' (expected NAME=DxDx..., dims >= 1)\n", shape);
        return 1;
      }
      a->num_shapes++;
    } else if (dim) {
      if (a->num_dims == 8 || !braze_onnx_parse_dim(dim, &a->dims[a->num_dims])) {
        fprintf(stderr, "braze import: bad --dim '%s' (expected NAME=MIN:MAX[:DIV], 1 <= MIN <= MAX, DIV >= 1; "
                        "at most 8)\n", dim);
        return 1;
      }
      a->num_dims++;
    } else if (bind) {
      if (a->num_bindings == MAX_BINDINGS || !parse_binding(bind, &a->bindings[a->num_bindings])) {
        fprintf(stderr, "braze import: bad --bind '%s' (expected NAME=FILE.npy)\n", bind);
        return 1;
      }
      a->num_bindings++;
    } else if (arg[0] == '-' && arg[1]) {
      fprintf(stderr, "braze import: unknown option '%s'\n", arg);
      import_usage(stderr);
      return 1;
    } else if (a->input) {
      fprintf(stderr, "braze import: more than one model given ('%s', '%s')\n", a->input, arg);
      return 1;
    } else {
      a->input = arg;
    }
  }
  if (!a->input) {
    import_usage(stderr);
    return 1;
  }
  return 0;
}

int braze_cmd_import(int argc, char **argv) {
  ImportArgs args = {0};
  int status = parse_import_args(argc, argv, &args);
  if (status)
    return status < 0 ? 0 : 1;
  MlirContext ctx = braze_context_create();
  if (mlirContextIsNull(ctx))
    return 1;
  BrazeDiagSink sink = {0};
  braze_diag_attach(ctx, &sink);
  BrazeOnnxOptions opts = {args.shapes, args.num_shapes, args.bindings, args.num_bindings};
  MlirModule module;
  bool ok = args.num_dims ? braze_onnx_import_dims(ctx, args.input, &opts, args.dims, args.num_dims, &module)
                          : braze_onnx_import_with(ctx, args.input, &opts, &module);
  if (ok) {
    char *text = NULL;
    size_t len = 0;
    ok = braze_onnx_print_module(module, &text, &len);
    const char *out = args.output ? args.output : "-";
    if (ok && !braze_write_file(out, text, len)) {
      fprintf(stderr, "braze import: cannot write '%s'\n", out);
      ok = false;
    }
    free(text);
    mlirModuleDestroy(module);
  }
  ok = ok && sink.num_errors == 0;
  braze_diag_detach(ctx);
  braze_diag_sink_clear(&sink);
  braze_context_destroy(ctx);
  return ok ? 0 : 1;
}
