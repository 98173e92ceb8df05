/* form-kernels: the fusion scheduler. Groups the realized loop-level ops of each
 * graph function (linalg.generic, tensor.insert_slice, func.call of user kernels)
 * greedily in score order, then outlines every group into a kernel function
 * (decision 0002) called from the graph function.
 *
 * The rules (can_fuse, refusal reasons, scores, names) are in docs/passes.md#form-kernels;
 * the graph and rules in fusion_graph.c / fusion_rules.c, outlining in
 * fusion_outline.c, the report, remarks and explain in fusion_report.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "passes/fusion_graph.h"
#include "passes/fusion_outline.h"
#include "passes/fusion_report.h"
#include "passes/passes.h"
#include "support/context.h"
#include "support/diag.h"

typedef struct {
  FkRules rules;
  char *target;
  bool remarks;
  bool report;
  char *report_file; /* NULL: stderr */
  bool report_json;
  char *explain_a, *explain_b;
} Options;

static const char *const option_names[] = {"disable",     "no-horizontal", "no-epilogue",   "epilogue-templates",
                                           "max-ops",     "target",        "report",        "report-format",
                                           "explain",     "remarks",       NULL};

static void destroy_state(void *state) {
  Options *o = state;
  if (!o)
    return;
  free(o->target);
  free(o->report_file);
  free(o->explain_a);
  free(o->explain_b);
  free(o);
}

static bool parse_report(Options *o, const BrazePassOptions *opts, BrazeStr *error) {
  const BrazeOption *report = braze_option_find(opts, "report");
  const BrazeOption *format = braze_option_find(opts, "report-format");
  o->report = report != NULL || format != NULL;
  if (report && report->value && *report->value && strcmp(report->value, "-") != 0)
    o->report_file = strdup(report->value);
  if (!format)
    return true;
  if (format->value && strcmp(format->value, "json") == 0) {
    o->report_json = true;
    return true;
  }
  if (format->value && strcmp(format->value, "text") == 0)
    return true;
  braze_str_printf(error, "form-kernels: report-format must be 'text' or 'json', got '%s'",
                   format->value ? format->value : "");
  return false;
}

static bool parse_explain(Options *o, const BrazePassOptions *opts, BrazeStr *error) {
  const BrazeOption *explain = braze_option_find(opts, "explain");
  if (!explain)
    return true;
  const char *v = explain->value ? explain->value : "";
  const char *comma = strchr(v, ',');
  if (!comma || comma == v || !comma[1] || strchr(comma + 1, ',')) {
    braze_str_printf(error, "form-kernels: explain expects two names 'A,B', got '%s'", v);
    return false;
  }
  o->explain_a = strndup(v, (size_t)(comma - v));
  o->explain_b = strdup(comma + 1);
  return true;
}

static void *create_state(const BrazePassOptions *opts, BrazeStr *error) {
  if (!braze_options_check(opts, "form-kernels", option_names, error))
    return NULL;
  Options *o = calloc(1, sizeof *o);
  o->rules.disable = braze_option_flag(opts, "disable");
  o->rules.no_horizontal = braze_option_flag(opts, "no-horizontal");
  o->rules.no_epilogue = braze_option_flag(opts, "no-epilogue");
  o->remarks = braze_option_flag(opts, "remarks");
  const BrazeOption *target = braze_option_find(opts, "target");
  o->target = strdup(target && target->value && *target->value ? target->value : "cpu");
  bool ok = braze_option_bool(opts, "epilogue-templates", true, &o->rules.epilogue_templates, error) &&
            braze_option_int(opts, "max-ops", 64, &o->rules.max_ops, error);
  if (ok && o->rules.max_ops < 1) {
    braze_str_printf(error, "form-kernels: max-ops must be at least 1, got %lld", o->rules.max_ops);
    ok = false;
  }
  ok = ok && parse_report(o, opts, error) && parse_explain(o, opts, error);
  if (!ok) {
    destroy_state(o);
    return NULL;
  }
  return o;
}

/* ---- which functions are graph functions ---- */


typedef struct {
  MlirStringRef name;
  bool found;
} CallSearch;

static MlirWalkResult find_call(MlirOperation op, void *user) {
  CallSearch *s = user;
  if (!braze_op_is(op, "func.call"))
    return MlirWalkResultAdvance;
  MlirAttribute callee = mlirOperationGetAttributeByName(op, braze_ref("callee"));
  if (!mlirAttributeIsNull(callee) && mlirAttributeIsAFlatSymbolRef(callee) &&
      mlirStringRefEqual(mlirFlatSymbolRefAttrGetValue(callee), s->name)) {
    s->found = true;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

static bool is_called(MlirOperation module, MlirStringRef name) {
  CallSearch s = {name, false};
  mlirOperationWalk(module, find_call, &s, MlirWalkPreOrder);
  return s.found;
}

/* Graph functions: func.func with a single-block body ending in func.return (the
 * loop level has no control flow) that are not kernels already and are not called
 * from elsewhere (a called function is a user kernel's body). */
static bool is_graph_function(MlirOperation module, MlirOperation op) {
  if (!braze_op_is(op, "func.func") || mlirRegionIsNull(mlirOperationGetRegion(op, 0)))
    return false;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  if (mlirBlockIsNull(body) || !mlirBlockIsNull(mlirBlockGetNextInRegion(body)))
    return false;
  MlirOperation terminator = mlirBlockGetTerminator(body);
  if (mlirOperationIsNull(terminator) || !braze_op_is(terminator, "func.return"))
    return false;
  if (!mlirAttributeIsNull(mlirOperationGetAttributeByName(op, braze_ref("kernel.kind"))))
    return false;
  MlirAttribute sym = mlirOperationGetAttributeByName(op, braze_ref("sym_name"));
  return !mlirAttributeIsNull(sym) && !is_called(module, mlirStringAttrGetValue(sym));
}

/* ---- the pass ---- */

static void report_function(const Options *o, BrazeStr *report, size_t *functions, const FkGraph *g,
                            const FkKernelList *kernels) {
  if (!o->report)
    return;
  if (o->report_json)
    fk_report_json(report, g, kernels, *functions == 0);
  else
    fk_report_text(report, g, kernels);
  ++*functions;
}

static void form_kernels(const Options *o, MlirOperation func, int *next_index, BrazeStr *report,
                         size_t *functions) {
  FkGraph g;
  fk_graph_build(&g, func, &o->rules);
  fk_schedule(&g);
  FkKernelList kernels;
  fk_kernels_plan(&g, o->target, next_index, &kernels);
  report_function(o, report, functions, &g, &kernels);
  if (o->remarks)
    fk_emit_remarks(&g, &kernels);
  if (o->explain_a)
    fk_explain(&g, &kernels, o->explain_a, o->explain_b);
  fk_outline(&g, &kernels);
  fk_kernels_free(&kernels);
  fk_graph_free(&g);
}

static bool write_report(const Options *o, MlirOperation module, const BrazeStr *report) {
  if (!o->report)
    return true;
  if (!o->report_file) {
    fwrite(braze_str_cstr(report), 1, report->len, stderr);
    return true;
  }
  if (braze_write_file(o->report_file, braze_str_cstr(report), report->len))
    return true;
  braze_emit_error(mlirOperationGetLocation(module), "form-kernels: cannot write the report to '%s'",
                   o->report_file);
  return false;
}

static bool run(MlirOperation module, void *state) {
  const Options *o = state;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  /* Collect first: outlining inserts kernel functions into the module. */
  MlirOperation *funcs = calloc(1, sizeof *funcs);
  size_t num_funcs = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (is_graph_function(module, op)) {
      funcs = realloc(funcs, (num_funcs + 1) * sizeof *funcs);
      funcs[num_funcs++] = op;
    }
  BrazeStr report = {0};
  size_t functions = 0;
  int next_index = 0;
  if (o->report_json)
    fk_report_json_begin(&report);
  for (size_t i = 0; i < num_funcs; ++i)
    form_kernels(o, funcs[i], &next_index, &report, &functions);
  if (o->report_json)
    fk_report_json_end(&report);
  bool ok = write_report(o, module, &report);
  braze_str_free(&report);
  free(funcs);
  return ok;
}

const BrazePassInfo braze_pass_form_kernels = {
    .argument = "form-kernels",
    .summary = "Fuse loop-level ops greedily by score and outline each group into a kernel function",
    .options_help = "  disable              one kernel per realized node\n"
                    "  no-horizontal        no fusion of siblings that only share an input\n"
                    "  no-epilogue          no reduction -> pointwise epilogue fusion\n"
                    "  epilogue-templates=true|false  fuse pointwise epilogues into matmul (tem) kernels (default true)\n"
                    "  max-ops=N            at most N graph ops per kernel (default 64)\n"
                    "  target=NAME          kernel name prefix (default cpu)\n"
                    "  report[=FILE]        print the fusion report (stderr, or FILE)\n"
                    "  report-format=text|json\n"
                    "  explain=A,B          remark why nodes of graph ops/ONNX names A and B did (not) fuse\n"
                    "  remarks              a remark per candidate pair and per kernel\n",
    .anchor = "builtin.module",
    .create_state = create_state,
    .destroy_state = destroy_state,
    .run = run,
};
