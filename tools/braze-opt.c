/* braze-opt: the opt-style driver. Reads MLIR (graph dialect or any other), runs a
 * pipeline of braze and upstream passes, prints the result. Behaves like mlir-opt:
 *
 *   braze-opt [FILE|-] [-o FILE] [--pass-pipeline='builtin.module(...)'] [--PASS[=OPTS]]...
 *             [--pipeline=NAME|FILE]
 *             [--split-input-file] [--verify-diagnostics] [--list-passes]
 *             [--mlir-print-ir-after-all] [--mlir-print-ir-before-all]
 *             [--mlir-print-ir-before=PASS,...] [--mlir-print-ir-after=PASS,...]
 *             [--mlir-timing] [--allow-unregistered-dialect] [--no-verify-graph]
 *             [--load-pass-plugin=LIB.so]... [--target=NAME] [--cpu=NAME] [--target-costs=FILE] [--version]
 *
 * Exit status: 0 on success, 1 on any error (diagnostics on stderr with file:line:col). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dialects/graph/graph.h"
#include "mlir-c/Pass.h"
#include "passes/passes.h"
#include "support/context.h"
#include "support/diag.h"
#include "support/strbuf.h"
#include "plugins/loader.h"
#include "targets/target.h"
#include "tools/verify-diagnostics.h"
#include "tools/version.h"

typedef struct {
  const char *input;
  const char *output;
  BrazeStr pipeline; /* built from --pass-pipeline and --PASS flags, in order */
  bool split_input;
  bool verify_diagnostics;
  bool timing;
  bool allow_unregistered;
  bool verify_graph;
  BrazeIRPrinting printing;
} Options;

/* --mlir-timing: wall time of braze-opt's phases, summed over split chunks. MLIR's
 * own per-pass report (printed when the pass manager goes away) comes before it. */
enum { PHASE_PARSE, PHASE_VERIFY, PHASE_PASSES, PHASE_OUTPUT, NUM_PHASES };
static const char *const phase_names[NUM_PHASES] = {"Parse", "Verify graph", "Pass pipeline", "Output"};
static double phase_seconds[NUM_PHASES];

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void print_timing_report(void) {
  double total = 0;
  for (int i = 0; i < NUM_PHASES; ++i)
    total += phase_seconds[i];
  fputs("===-------------------------------------------------------------------------===\n"
        "                      ... braze-opt phase time report ...\n"
        "===-------------------------------------------------------------------------===\n",
        stderr);
  fprintf(stderr, "  Total Execution Time: %.4f seconds\n\n  ----Wall Time----  ----Name----\n", total);
  for (int i = 0; i < NUM_PHASES; ++i)
    fprintf(stderr, "  %8.4f (%5.1f%%)  %s\n", phase_seconds[i],
            total > 0 ? 100.0 * phase_seconds[i] / total : 0.0, phase_names[i]);
  fprintf(stderr, "  %8.4f (100.0%%)  Total\n", total);
}

static void usage(FILE *to) {
  fputs("usage: braze-opt [FILE|-] [-o FILE] [--pass-pipeline=PIPELINE] [--PASS[=OPTIONS]]...\n"
        "  --pass-pipeline=P            MLIR textual pipeline mixing braze and upstream passes\n"
        "  --PASS[=key=value ...]       append one pass (braze or upstream) to the pipeline\n"
        "  --pipeline=NAME|FILE         append a named pipeline (cpu-default, ...) or a pipeline file\n"
        "  --list-passes                list braze's passes with summaries and options\n"
        "  --split-input-file           process each '// -----' chunk separately\n"
        "  --verify-diagnostics         check expected-error/warning/remark comments\n"
        "  --mlir-print-ir-after-all, --mlir-print-ir-before-all\n"
        "  --mlir-print-ir-before=PASS[,PASS], --mlir-print-ir-after=PASS[,PASS]\n"
        "  --mlir-timing                report time per pass and per driver phase\n"
        "  --allow-unregistered-dialect accept ops of unknown dialects\n"
        "  --no-verify-graph            skip the graph verifier after parsing\n"
        "  --load-pass-plugin=LIB.so    load a braze plugin (repeatable; also $BRAZE_PLUGINS, colon-separated)\n"
        "  --target=NAME                the target whose facts codegen heuristics read (default: the pass's own)\n"
        "  --target-costs=FILE          override target facts from a JSON file (docs/target-costs.md)\n"
        "  --cpu=NAME                   the CPU whose facts the cpu target's heuristics read: native (the\n"
        "                               default, or $BRAZE_CPU), x86-64-v2/v3/v4 or an LLVM CPU name\n"
        "  --version                    braze's, the plugin ABI's and MLIR/LLVM's versions\n"
        "  -o FILE                      write output to FILE (written only on success)\n",
        to);
}

static void list_passes(void) {
  puts("braze passes (usable in --pass-pipeline and as --NAME flags):");
  for (size_t i = 0; i < braze_pass_count(); ++i) {
    const BrazePassInfo *p = braze_pass_at(i);
    const char *origin = braze_pass_origin_at(i);
    printf("  %-22s %s  [on %s]%s%s%s\n", p->argument, p->summary, p->anchor, origin ? " [plugin " : "",
           origin ? origin : "", origin ? "]" : "");
    if (p->options_help && *p->options_help)
      printf("%s", p->options_help);
  }
  puts("Every upstream MLIR pass (mlir-opt --help lists them) is accepted too.");
}

static void append_pipeline_element(Options *o, const char *elem, size_t len) {
  if (o->pipeline.len)
    braze_str_puts(&o->pipeline, ",");
  braze_str_append(&o->pipeline, elem, len);
}

/* --PASS=key=value,... becomes PASS{key=value,...}. */
static void append_pass_flag(Options *o, const char *flag) {
  const char *eq = strchr(flag, '=');
  if (!eq) {
    append_pipeline_element(o, flag, strlen(flag));
    return;
  }
  BrazeStr elem = {0};
  braze_str_printf(&elem, "%.*s{%s}", (int)(eq - flag), flag, eq + 1);
  append_pipeline_element(o, elem.data, elem.len);
  braze_str_free(&elem);
}

static bool starts_with(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

/* Returns 0 to continue, 1 on a bad flag, -1 when the run is done (help, list). */
static int parse_args(int argc, char **argv, Options *o) {
  o->verify_graph = true;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (strcmp(a, "-o") == 0) {
      if (i + 1 >= argc) {
        fputs("braze-opt: -o needs a file name\n", stderr);
        return 1;
      }
      o->output = argv[++i];
    } else if (starts_with(a, "--pass-pipeline=")) {
      const char *p = a + strlen("--pass-pipeline=");
      static const char wrap[] = "builtin.module(";
      if (starts_with(p, wrap) && p[strlen(p) - 1] == ')')
        append_pipeline_element(o, p + sizeof wrap - 1, strlen(p) - sizeof wrap);
      else
        append_pipeline_element(o, p, strlen(p));
    } else if (starts_with(a, "--pipeline=")) {
      /* A named pipeline (pipelines/NAME.pipeline, embedded) or a pipeline file. */
      BrazeStr text = {0}, error = {0};
      bool found = braze_pipeline_resolve(a + strlen("--pipeline="), &text, &error);
      if (found && text.len)
        append_pipeline_element(o, text.data, text.len);
      else if (!found)
        fprintf(stderr, "braze-opt: %s\n", braze_str_cstr(&error));
      braze_str_free(&text);
      braze_str_free(&error);
      if (!found)
        return 1;
    } else if (strcmp(a, "--split-input-file") == 0) {
      o->split_input = true;
    } else if (strcmp(a, "--verify-diagnostics") == 0) {
      o->verify_diagnostics = true;
    } else if (strcmp(a, "--mlir-timing") == 0) {
      o->timing = true;
    } else if (strcmp(a, "--allow-unregistered-dialect") == 0) {
      o->allow_unregistered = true;
    } else if (strcmp(a, "--no-verify-graph") == 0) {
      o->verify_graph = false;
    } else if (strcmp(a, "--mlir-print-ir-after-all") == 0) {
      o->printing.print_after_all = true;
    } else if (strcmp(a, "--mlir-print-ir-before-all") == 0) {
      o->printing.print_before_all = true;
    } else if (starts_with(a, "--mlir-print-ir-before=")) {
      o->printing.print_before = a + strlen("--mlir-print-ir-before=");
    } else if (starts_with(a, "--mlir-print-ir-after=")) {
      o->printing.print_after = a + strlen("--mlir-print-ir-after=");
    } else if (starts_with(a, "--target=")) {
      const BrazeTarget *t = braze_target_lookup(a + strlen("--target="));
      if (!t) {
        BrazeStr known = {0};
        braze_target_names(&known);
        fprintf(stderr, "braze-opt: unknown target '%s' (known: %s)\n", a + strlen("--target="), known.data);
        braze_str_free(&known);
        return 1;
      }
      braze_target_select(t);
    } else if (starts_with(a, "--cpu=")) {
      BrazeStr error = {0};
      bool ok = braze_cpu_select(a + strlen("--cpu="), &error);
      if (!ok)
        fprintf(stderr, "braze-opt: %s\n", error.data);
      braze_str_free(&error);
      if (!ok)
        return 1;
      braze_target_select(braze_target_selected()); /* the facts passes read are the new CPU's */
    } else if (starts_with(a, "--target-costs=")) {
      BrazeStr error = {0};
      bool ok = braze_target_costs_load(a + strlen("--target-costs="), &error);
      if (!ok)
        fprintf(stderr, "braze-opt: %s\n", error.data);
      braze_str_free(&error);
      if (!ok)
        return 1;
    } else if (strcmp(a, "--version") == 0) {
      braze_print_version(stdout, "braze-opt");
      return -1;
    } else if (strcmp(a, "--list-passes") == 0) {
      list_passes();
      return -1;
    } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      usage(stdout);
      return -1;
    } else if (starts_with(a, "--") && a[2]) {
      append_pass_flag(o, a + 2);
    } else if (a[0] != '-' || strcmp(a, "-") == 0) {
      if (o->input) {
        fprintf(stderr, "braze-opt: more than one input file ('%s' and '%s')\n", o->input, a);
        return 1;
      }
      o->input = a;
    } else {
      fprintf(stderr, "braze-opt: unknown option '%s'\n", a);
      usage(stderr);
      return 1;
    }
  }
  if (!o->input)
    o->input = "-";
  return 0;
}

/* Build the pipeline into a fresh pass manager; false (and the reason printed) when
 * the pipeline text is bad. main() checks it once before any input is processed. */
static MlirPassManager build_pass_manager(MlirContext ctx, const Options *o) {
  MlirPassManager pm = mlirPassManagerCreateOnOperation(ctx, braze_ref("builtin.module"));
  BrazeStr error = {0};
  if (!braze_pipeline_build(pm, braze_str_cstr(&o->pipeline), &o->printing, &error)) {
    fprintf(stderr, "braze-opt: %s\n", braze_str_cstr(&error));
    mlirPassManagerDestroy(pm);
    pm.ptr = NULL;
  }
  braze_str_free(&error);
  return pm;
}

static bool run_pipeline(MlirContext ctx, const Options *o, MlirOperation module) {
  MlirPassManager pm = build_pass_manager(ctx, o);
  if (!pm.ptr)
    return false;
  if (o->timing)
    mlirPassManagerEnableTiming(pm);
  bool ok = mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, module));
  mlirPassManagerDestroy(pm); /* prints MLIR's pass timing report when enabled */
  return ok;
}

/* Process one buffer (a whole file or one split chunk, padded with newlines so
 * that its line numbers are the file's). Appends printed IR to `out`. */
static bool process_buffer(MlirContext ctx, const Options *o, const char *text, size_t len, BrazeStr *out) {
  BrazeDiagSink sink = {.collect = o->verify_diagnostics};
  braze_diag_attach(ctx, &sink);
  const char *file = strcmp(o->input, "-") == 0 ? "<stdin>" : o->input;
  double start = now_seconds();
  MlirOperation module = braze_parse(ctx, text, len, file);
  bool ok = !mlirOperationIsNull(module);
  phase_seconds[PHASE_PARSE] += now_seconds() - start;
  start = now_seconds();
  if (ok && o->verify_graph)
    ok = braze_graph_verify(module);
  phase_seconds[PHASE_VERIFY] += now_seconds() - start;
  start = now_seconds();
  if (ok && o->pipeline.len)
    ok = run_pipeline(ctx, o, module);
  phase_seconds[PHASE_PASSES] += now_seconds() - start;
  start = now_seconds();
  if (ok && sink.num_errors)
    ok = false;
  if (ok) {
    mlirOperationPrint(module, braze_str_callback, out);
    braze_str_puts(out, "\n");
  }
  phase_seconds[PHASE_OUTPUT] += now_seconds() - start;
  if (!mlirOperationIsNull(module))
    mlirOperationDestroy(module);
  braze_diag_detach(ctx);
  if (o->verify_diagnostics)
    ok = braze_verify_diagnostics(file, text, len, &sink);
  braze_diag_sink_clear(&sink);
  return ok;
}

/* Split on lines that are exactly "// -----", as mlir-opt does. */
static bool process_split(MlirContext ctx, const Options *o, const char *text, size_t len, BrazeStr *out) {
  bool ok = true;
  size_t chunk_start = 0, line_start = 0, lines_before = 0, lines_in_chunk = 0;
  for (size_t i = 0; i <= len; ++i) {
    if (i < len && text[i] != '\n')
      continue;
    size_t line_len = i - line_start;
    const char *line = text + line_start;
    bool is_sep = line_len >= 8 && strncmp(line, "// -----", 8) == 0;
    if (is_sep || i == len) {
      size_t chunk_end = is_sep ? line_start : len;
      BrazeStr chunk = {0};
      for (size_t k = 0; k < lines_before; ++k)
        braze_str_puts(&chunk, "\n");
      braze_str_append(&chunk, text + chunk_start, chunk_end - chunk_start);
      /* Chunks that print nothing (failed under --verify-diagnostics) get no separator. */
      BrazeStr chunk_out = {0};
      ok = process_buffer(ctx, o, braze_str_cstr(&chunk), chunk.len, &chunk_out) && ok;
      if (out->len && chunk_out.len)
        braze_str_puts(out, "// -----\n");
      braze_str_append(out, braze_str_cstr(&chunk_out), chunk_out.len);
      braze_str_free(&chunk_out);
      braze_str_free(&chunk);
      lines_before += lines_in_chunk + 1;
      lines_in_chunk = 0;
      chunk_start = i + 1;
    } else {
      lines_in_chunk++;
    }
    line_start = i + 1;
  }
  return ok;
}

static int run(int argc, char **argv) {
  Options o = {0};
  int status = parse_args(argc, argv, &o);
  if (status != 0) {
    braze_str_free(&o.pipeline);
    return status < 0 ? 0 : 1;
  }
  size_t len = 0;
  errno = 0;
  char *text = braze_read_file(o.input, &len);
  if (!text) {
    fprintf(stderr, "braze-opt: cannot read '%s': %s\n", o.input, errno ? strerror(errno) : "read error");
    braze_str_free(&o.pipeline);
    return 1;
  }
  MlirContext ctx = braze_context_create();
  if (mlirContextIsNull(ctx)) {
    free(text);
    braze_str_free(&o.pipeline);
    return 1;
  }
  mlirContextSetAllowUnregisteredDialects(ctx, o.allow_unregistered);
  /* A bad pipeline is a usage error: report it once, before any input is processed. */
  if (o.pipeline.len) {
    MlirPassManager pm = build_pass_manager(ctx, &o);
    if (!pm.ptr) {
      free(text);
      braze_str_free(&o.pipeline);
      braze_context_destroy(ctx);
      return 1;
    }
    mlirPassManagerDestroy(pm);
  }
  BrazeStr out = {0};
  bool ok = o.split_input ? process_split(ctx, &o, text, len, &out) : process_buffer(ctx, &o, text, len, &out);
  /* With --verify-diagnostics the output is still printed (tests FileCheck it too). */
  if (ok && o.output && !braze_write_file(o.output, out.data ? out.data : "", out.len)) {
    fprintf(stderr, "braze-opt: cannot write '%s'\n", o.output);
    ok = false;
  } else if (ok && !o.output) {
    fwrite(braze_str_cstr(&out), 1, out.len, stdout);
  }
  if (o.timing)
    print_timing_report();
  braze_str_free(&out);
  braze_str_free(&o.pipeline);
  free(text);
  braze_context_destroy(ctx);
  return ok ? 0 : 1;
}

int main(int argc, char **argv) {
  /* $BRAZE_CPU is --cpu's default, checked like the flag. */
  BrazeStr error = {0};
  if (!braze_cpu_select(getenv("BRAZE_CPU"), &error)) {
    fprintf(stderr, "braze-opt: $BRAZE_CPU: %s\n", error.data);
    braze_str_free(&error);
    return 1;
  }
  /* Plugins first: their passes and pipelines are named by the other flags. */
  int status = braze_plugins_load_args("braze-opt", &argc, argv) ? run(argc, argv) : 1;
  braze_plugins_unload();
  return status;
}
