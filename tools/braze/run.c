/* braze run: evaluate a graph function with the reference interpreter.
 *
 *   braze run FILE.mlir [--func NAME] [--seed N] [--inputs a.npy,b.npy]
 *             [--save-inputs DIR] [--save-outputs DIR] [--print N] [--quiet]
 *             [--mesh NAME:SIZE[,...]|func]
 *
 * With --mesh the module is partitioned (shard-partition) and every rank's program is
 * run with the collectives simulated (tools/braze/mesh-sim.h); inputs and outputs are
 * the global tensors.
 *
 * Prints, per output, its name (out0, out1, ...), type, min/max/mean/std and the
 * first N values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference/reference.h"
#include "tools/braze/commands.h"
#include "tools/braze/common.h"
#include "dialects/graph/symbols.h"
#include "tools/braze/compile.h"
#include "tools/braze/mesh-sim.h"

typedef struct {
  BrazeCommonFlags common;
  size_t print_values;
  bool quiet;
  const char *target;
  const char *pipeline;
  const char *mesh; /* --mesh: simulate the partitioned program on this mesh */
  const char *dims; /* --dims NAME=N,...: the sizes of a function's symbolic dims (decision 0029) */
} RunFlags;

static void run_usage(FILE *to) {
  fprintf(to,
          "usage: braze run FILE.mlir [options]\n"
          "Evaluates a graph-dialect function with the reference interpreter (double precision,\n"
          "rounded to each op's element type) and prints a summary of every output.\n"
          "%s"
          "  --print N            how many leading values to print per output (default 8)\n"
          "  --quiet              print nothing (use with --save-outputs)\n"
          "  --target NAME        where to evaluate: reference (default) or a compile target (cpu, cuda, a plugin's)\n"
          "  --pipeline NAME|FILE the pipeline for a compile target (default: the target's)\n"
          "  --mesh NAME:SIZE[,...]|func  partition for this mesh (func: the function's braze.mesh) and\n"
          "                       simulate every rank with the reference (docs/sharding.md)\n"
          "  --dims NAME=N[,...]  the sizes of the function's symbolic dims (reference only)\n"
          "  --load-pass-plugin=LIB, --target-costs=FILE  as for braze compile\n",
          braze_cli_common_help);
}

/* Returns 0 to go on, 1 on a usage error, -1 after --help. */
static int parse_run_flags(int argc, char **argv, RunFlags *f) {
  f->print_values = 8;
  f->target = "reference";
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v = NULL;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      run_usage(stdout);
      return -1;
    }
    if (strcmp(a, "--quiet") == 0) {
      f->quiet = true;
      continue;
    }
    int r = braze_cli_common_flag("run", argc, argv, &i, &f->common);
    if (r == 0 && (r = braze_cli_flag_value("run", argc, argv, &i, "--target", &f->target)) == 0 &&
        (r = braze_cli_flag_value("run", argc, argv, &i, "--pipeline", &f->pipeline)) == 0 &&
        (r = braze_cli_flag_value("run", argc, argv, &i, "--mesh", &f->mesh)) == 0 &&
        (r = braze_cli_flag_value("run", argc, argv, &i, "--dims", &f->dims)) == 0 &&
        (r = braze_cli_flag_value("run", argc, argv, &i, "--print", &v)) == 1) {
      char *end;
      long n = strtol(v, &end, 10);
      if (*end || end == v || n < 0) {
        fprintf(stderr, "braze run: --print expects a non-negative integer, got '%s'\n", v);
        return 1;
      }
      f->print_values = (size_t)n;
    }
    if (r < 0)
      return 1;
    if (r == 0) {
      fprintf(stderr, "braze run: unknown option '%s'\n", a);
      run_usage(stderr);
      return 1;
    }
  }
  if (!f->common.file) {
    fprintf(stderr, "braze run: no input file\n");
    run_usage(stderr);
    return 1;
  }
  if (f->mesh && strcmp(f->target, "reference") != 0) {
    fprintf(stderr, "braze run: --mesh simulates the mesh with the reference interpreter; it takes no --target\n");
    return 1;
  }
  if (strcmp(f->target, "reference") != 0 && !braze_target_lookup(f->target)) {
    BrazeStr known = {0};
    braze_target_names(&known);
    fprintf(stderr, "braze run: unknown target '%s' (available: reference, %s)\n", f->target, known.data);
    braze_str_free(&known);
    return 1;
  }
  return 0;
}

static void print_outputs(const RunFlags *f, MlirOperation func, const BrazeHostTensor *outs, size_t n_out) {
  if (f->quiet)
    return;
  MlirStringRef name = braze_cli_func_name(func);
  printf("@%.*s: %zu output%s\n", (int)name.length, name.data, n_out, n_out == 1 ? "" : "s");
  if (f->mesh) {
    char mesh[160];
    braze_mesh_describe_func(func, mesh, sizeof mesh);
    printf("simulated on %s\n", mesh);
  }
  for (size_t i = 0; i < n_out; ++i) {
    char label[32];
    snprintf(label, sizeof label, "out%zu", i);
    braze_cli_print_summary(stdout, label, &outs[i], f->print_values);
  }
}

static bool run_function(const RunFlags *f, MlirOperation func) {
  BrazeHostTensor *inputs = NULL, *outs = NULL;
  size_t n_in = 0, n_out = 0;
  if (!braze_cli_make_inputs("run", func, &f->common, &inputs, &n_in))
    return false;
  bool ok;
  if (f->mesh) /* inputs were made for the global types: partition after */
    ok = braze_mesh_partition("run", mlirOperationGetParentOperation(func), f->mesh, NULL) &&
         braze_mesh_run("run", func, inputs, n_in, &outs, &n_out);
  else
    ok = strcmp(f->target, "reference") == 0
             ? braze_reference_run(func, inputs, n_in, &outs, &n_out)
             : braze_run_compiled("run", f->common.file, f->target, f->pipeline, func, inputs, n_in, &outs, &n_out);
  if (ok && f->common.save_outputs)
    ok = braze_cli_save_tensors("run", f->common.save_outputs, "out", outs, n_out);
  if (ok)
    print_outputs(f, func, outs, n_out);
  braze_tensors_free(inputs, n_in);
  braze_tensors_free(outs, n_out);
  return ok;
}

/* --dims: `func` specialized in place at the given sizes (its module is not kept). */
static bool specialize_for_run(const RunFlags *f, MlirOperation func) {
  BrazeSymTable table;
  if (!braze_sym_table_read(func, &table))
    return false;
  MlirStringRef name = braze_cli_func_name(func);
  if (table.count == 0 || strcmp(f->target, "reference") != 0 || !f->dims) {
    fprintf(stderr, "braze run: @%.*s: %s\n", (int)name.length, name.data,
            table.count == 0                        ? "--dims: the function has no symbolic dims"
            : strcmp(f->target, "reference") != 0 ? "--dims runs the reference; `braze check --dims` runs a library"
                                                    : "it has symbolic dims: give their sizes with --dims NAME=N,...");
    return false;
  }
  int64_t values[BRAZE_MAX_SYMBOLS];
  BrazeStr why = {0};
  bool ok = braze_sym_parse_values(&table, f->dims, values, &why);
  if (!ok)
    fprintf(stderr, "braze run: --dims: %s\n", braze_str_cstr(&why));
  braze_str_free(&why);
  return ok && braze_sym_specialize(func, values);
}

int braze_cmd_run(int argc, char **argv) {
  RunFlags f = {0};
  int status = parse_run_flags(argc, argv, &f);
  if (status != 0)
    return status < 0 ? 0 : 1;
  BrazeCliModule m;
  if (!braze_cli_load("run", f.common.file, &m))
    return 1;
  MlirOperation func = braze_cli_find_func("run", m.module, f.common.func);
  bool ok = !mlirOperationIsNull(func);
  if (ok && (f.dims || braze_func_has_symbols(func))) /* a copy at the --dims sizes: inputs for it */
    ok = specialize_for_run(&f, func);
  ok = ok && run_function(&f, func);
  ok = ok && m.sink.num_errors == 0;
  braze_cli_unload(&m);
  return ok ? 0 : 1;
}
