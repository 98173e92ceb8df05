/* Unit tests for the pipeline parser (passes/pipeline.c): one string mixes braze
 * and upstream passes, nests them, and bad strings give errors, not crashes. */
#include <string.h>

#include "mlir-c/Pass.h"
#include "passes/passes.h"
#include "support/context.h"
#include "support/diag.h"
#include "test/unit/check.h"

static MlirContext ctx;

/* Build `pipeline` into a fresh pass manager; returns whether it built and puts the
 * printed pass pipeline (or the error) in *text. */
static bool build(const char *pipeline, const BrazeIRPrinting *printing, BrazeStr *text) {
  MlirPassManager pm = mlirPassManagerCreateOnOperation(ctx, braze_ref("builtin.module"));
  bool ok = braze_pipeline_build(pm, pipeline, printing, text);
  if (ok)
    mlirPrintPassPipeline(mlirPassManagerGetAsOpPassManager(pm), braze_str_callback, text);
  mlirPassManagerDestroy(pm);
  return ok;
}

static void expect_pipeline(const char *pipeline, const char *printed_part) {
  BrazeStr text = {0};
  bool ok = build(pipeline, NULL, &text);
  if (!ok)
    fprintf(stderr, "pipeline '%s' failed: %s\n", pipeline, braze_str_cstr(&text));
  CHECK(ok);
  CHECK_CONTAINS(braze_str_cstr(&text), printed_part);
  braze_str_free(&text);
}

static void expect_error(const char *pipeline, const char *message_part) {
  BrazeStr text = {0};
  CHECK(!build(pipeline, NULL, &text));
  CHECK_CONTAINS(braze_str_cstr(&text), message_part);
  braze_str_free(&text);
}

/* A registered braze pass anchored on func.func, if any (the set grows over time). */
static const char *func_pass(void) {
  for (size_t i = 0; i < braze_pass_count(); ++i)
    if (strcmp(braze_pass_at(i)->anchor, "func.func") == 0)
      return braze_pass_at(i)->argument;
  return NULL;
}

static void mixes_braze_and_upstream(void) {
  expect_pipeline("builtin.module(graph-verify,func.func(canonicalize,cse))", "graph-verify");
  expect_pipeline("builtin.module(graph-verify,func.func(canonicalize,cse))", "func.func(canonicalize");
  expect_pipeline("graph-verify, canonicalize ,cse", "graph-verify");
  expect_pipeline("  builtin.module( cse )  ", "cse");
}

static void empty_pipelines(void) {
  expect_pipeline("", "builtin.module");
  expect_pipeline("builtin.module()", "builtin.module");
  expect_pipeline("func.func()", "builtin.module");
}

static void func_passes_nest_implicitly(void) {
  const char *name = func_pass();
  if (!name)
    return; /* no func.func braze pass registered in this build */
  char buf[256];
  snprintf(buf, sizeof buf, "func.func(%s", name);
  expect_pipeline(name, buf);                       /* written at module level */
  char nested[256];
  snprintf(nested, sizeof nested, "func.func(%s)", name);
  expect_pipeline(nested, buf);                     /* written nested */
}

static void registry_lookup(void) {
  CHECK(braze_pass_count() >= 1);
  const BrazePassInfo *info = braze_pass_lookup("graph-verify", strlen("graph-verify"));
  CHECK(info != NULL && strcmp(info->anchor, "builtin.module") == 0);
  CHECK(braze_pass_lookup("graph-verif", strlen("graph-verif")) == NULL);
  CHECK(braze_pass_lookup("graph-verify-x", strlen("graph-verify-x")) == NULL);
  CHECK(braze_pass_at(braze_pass_count()) == NULL);
}

static void bad_pipelines_are_errors(void) {
  expect_error("no-such-pass", "unknown pass or bad pipeline element 'no-such-pass'");
  expect_error("graph-verify{bogus=1}", "pass 'graph-verify' takes no options");
  expect_error("graph-verify{bogus", "unbalanced '{' in pass pipeline");
  expect_error("func.func(cse", "expected ')' in pass pipeline");
  expect_error("builtin.module(cse", "expected ')' closing builtin.module(");
  expect_error("cse)", "unexpected ')' at offset 3 of the pass pipeline");
  expect_error(",cse", "expected a pass or op name at offset 0");
  expect_error("cse,,canonicalize", "expected a pass or op name at offset 4");
  expect_error("func.func(graph-verify)",
               "pass 'graph-verify' runs on 'builtin.module' and cannot be nested under 'func.func'");
  expect_error("canonicalize{no-such-option=1}", "unknown pass or bad pipeline element");
}

static void printers_are_inserted(void) {
  BrazeIRPrinting printing = {.print_before = "cse", .print_after = "graph-verify,canonicalize"};
  BrazeStr text = {0};
  CHECK(build("graph-verify,func.func(canonicalize,cse)", &printing, &text));
  const char *p = braze_str_cstr(&text);
  /* graph-verify, printer, then inside func.func: canonicalize, printer, printer, cse. */
  const char *verify = strstr(p, "graph-verify"), *cse = strstr(p, "cse");
  const char *first_printer = strstr(p, "braze-print-ir");
  CHECK(verify && cse && first_printer && verify < first_printer && first_printer < cse);
  int printers = 0;
  for (const char *q = p; (q = strstr(q, "braze-print-ir")); q += 1)
    ++printers;
  CHECK(printers == 3);
  braze_str_free(&text);
}

/* The built pass manager runs: the graph verifier passes a good module and fails a bad one. */
static bool run_on(const char *source) {
  BrazeDiagSink sink = {.collect = true};
  braze_diag_attach(ctx, &sink);
  MlirOperation module = braze_parse(ctx, source, strlen(source), "unit.mlir");
  CHECK(!mlirOperationIsNull(module));
  MlirPassManager pm = mlirPassManagerCreateOnOperation(ctx, braze_ref("builtin.module"));
  BrazeStr error = {0};
  CHECK(braze_pipeline_build(pm, "graph-verify,func.func(cse)", NULL, &error));
  bool ok = mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, module));
  mlirPassManagerDestroy(pm);
  mlirOperationDestroy(module);
  braze_str_free(&error);
  braze_diag_detach(ctx);
  if (!ok)
    CHECK(sink.num_errors >= 1);
  braze_diag_sink_clear(&sink);
  return ok;
}

static void built_pipeline_runs(void) {
  CHECK(run_on("func.func @f(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {\n"
               "  %0 = \"graph.add\"(%a, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>\n"
               "  return %0 : tensor<4x8xf32>\n}\n"));
  CHECK(!run_on("func.func @f(%a: tensor<4x8xf32>, %b: tensor<3xf32>) -> tensor<4x8xf32> {\n"
                "  %0 = \"graph.add\"(%a, %b) : (tensor<4x8xf32>, tensor<3xf32>) -> tensor<4x8xf32>\n"
                "  return %0 : tensor<4x8xf32>\n}\n"));
}

int main(void) {
  ctx = braze_context_create();
  if (mlirContextIsNull(ctx))
    return 1;
  RUN_CASE(mixes_braze_and_upstream);
  RUN_CASE(empty_pipelines);
  RUN_CASE(func_passes_nest_implicitly);
  RUN_CASE(registry_lookup);
  RUN_CASE(bad_pipelines_are_errors);
  RUN_CASE(printers_are_inserted);
  RUN_CASE(built_pipeline_runs);
  braze_context_destroy(ctx);
  return check_finish();
}
