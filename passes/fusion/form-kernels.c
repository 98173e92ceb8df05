/* form-kernels: the fusion scheduler. Groups the realized loop-level ops of each
 * graph function (linalg.generic, tensor.insert_slice, func.call of user kernels)
 * greedily in score order, then outlines every group into a kernel function
 * (decision 0002) called from the graph function.
 *
 * The rules (can_fuse, refusal reasons, scores, names) are in docs/passes.md#form-kernels;
 * the graph and rules in passes/fusion/graph.c / passes/fusion/rules.c, outlining in
 * passes/fusion/outline.c, the report, remarks and explain in passes/fusion/report.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "passes/fusion/fusion-passes.h"
#include "passes/fusion/graph.h"
#include "passes/fusion/outline.h"
#include "passes/fusion/plan.h"
#include "passes/fusion/report.h"
#include "passes/fusion/user-epilogue.h"
#include "support/context.h"
#include "support/diag.h"

typedef struct {
  FkRules rules;
  char *target;
  bool remarks;
  bool report;
  char *report_file; /* NULL: stderr */
  bool report_json;
  bool report_dot;
  char *explain_a, *explain_b;
  char *plan_out; /* plan-out=FILE */
  FkPlan *plan;   /* plan=FILE, read when the pass is built */
  bool plan_complete;
  bool no_user_epilogue; /* user kernels keep their outputs (passes/fusion/user-epilogue.h) */
} Options;

static const char *const option_names[] = {"disable",     "no-horizontal", "no-epilogue",   "epilogue-templates",
                                           "horizontal-templates", "pad-templates", "pad-channels",
                                           "max-ops",     "target",        "report",        "report-format",
                                           "explain",     "remarks",       "plan-out",      "plan",
                                           "plan-mode",   "persistent-max", "no-user-epilogue", NULL};

static void destroy_state(void *state) {
  Options *o = state;
  if (!o)
    return;
  free(o->target);
  free(o->report_file);
  free(o->explain_a);
  free(o->explain_b);
  free(o->plan_out);
  if (o->plan)
    fk_plan_free(o->plan);
  free(o->plan);
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
  if (format->value && strcmp(format->value, "dot") == 0) {
    o->report_dot = true;
    return true;
  }
  if (format->value && strcmp(format->value, "text") == 0)
    return true;
  braze_str_printf(error, "form-kernels: report-format must be 'text', 'json' or 'dot', got '%s'",
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

static bool parse_plan(Options *o, const BrazePassOptions *opts, BrazeStr *error) {
  const BrazeOption *out = braze_option_find(opts, "plan-out");
  const BrazeOption *in = braze_option_find(opts, "plan");
  const BrazeOption *mode = braze_option_find(opts, "plan-mode");
  if (out) {
    if (!out->value || !*out->value) {
      braze_str_puts(error, "form-kernels: plan-out expects a file name");
      return false;
    }
    o->plan_out = strdup(out->value);
  }
  if (mode) {
    const char *m = mode->value ? mode->value : "";
    if (strcmp(m, "complete") != 0 && strcmp(m, "exact") != 0) {
      braze_str_printf(error, "form-kernels: plan-mode must be 'exact' or 'complete', got '%s'", m);
      return false;
    }
    o->plan_complete = strcmp(m, "complete") == 0;
  }
  if (!in)
    return true;
  if (!in->value || !*in->value) {
    braze_str_puts(error, "form-kernels: plan expects a file name");
    return false;
  }
  o->plan = calloc(1, sizeof *o->plan);
  if (fk_plan_read(in->value, o->plan, error))
    return true;
  free(o->plan);
  o->plan = NULL;
  return false;
}

/* pad-templates[=true|false|P]: P the largest share, in percent, of padding among a
 * pad's padded positions that joins its template (a bare key or true: 100). */
static bool parse_pad_templates(Options *o, const BrazePassOptions *opts, BrazeStr *error) {
  const BrazeOption *pt = braze_option_find(opts, "pad-templates");
  o->rules.pad_max_percent = 0;
  o->rules.pad_channels = 1;
  if (!pt && braze_option_find(opts, "pad-channels")) {
    braze_str_printf(error, "form-kernels: pad-channels applies with pad-templates only");
    return false;
  }
  if (!pt)
    return true;
  if (!pt->value || !*pt->value || strcmp(pt->value, "true") == 0)
    o->rules.pad_max_percent = 100;
  else if (strcmp(pt->value, "false") != 0 &&
           (!braze_option_int(opts, "pad-templates", 100, &o->rules.pad_max_percent, error) ||
            o->rules.pad_max_percent < 1 || o->rules.pad_max_percent > 100)) {
    braze_str_clear(error);
    braze_str_printf(error, "form-kernels: pad-templates expects true, false or a percentage 1-100, got '%s'",
                     pt->value);
    return false;
  }
  o->rules.pad_templates = o->rules.pad_max_percent > 0;
  if (!braze_option_int(opts, "pad-channels", 1, &o->rules.pad_channels, error))
    return false;
  if (o->rules.pad_channels < 1) {
    braze_str_printf(error, "form-kernels: pad-channels must be at least 1, got %lld", o->rules.pad_channels);
    return false;
  }
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
  o->no_user_epilogue = braze_option_flag(opts, "no-user-epilogue");
  const BrazeOption *target = braze_option_find(opts, "target");
  o->target = strdup(target && target->value && *target->value ? target->value : "cpu");
  /* horizontal-templates=half: only pairs over f16/bf16 inputs, the ones the CUDA
   * tensor-core template computes in one kernel */
  const BrazeOption *ht = braze_option_find(opts, "horizontal-templates");
  o->rules.horizontal_half_only = ht && ht->value && strcmp(ht->value, "half") == 0;
  o->rules.horizontal_templates = o->rules.horizontal_half_only;
  bool ok = braze_option_bool(opts, "epilogue-templates", true, &o->rules.epilogue_templates, error) &&
            (o->rules.horizontal_half_only ||
             braze_option_bool(opts, "horizontal-templates", false, &o->rules.horizontal_templates, error)) &&
            parse_pad_templates(o, opts, error) &&
            braze_option_int(opts, "max-ops", 64, &o->rules.max_ops, error) &&
            braze_option_int(opts, "persistent-max", 1024, &o->rules.persistent_max, error);
  if (ok && o->rules.max_ops < 1) {
    braze_str_printf(error, "form-kernels: max-ops must be at least 1, got %lld", o->rules.max_ops);
    ok = false;
  }
  ok = ok && parse_report(o, opts, error) && parse_explain(o, opts, error) && parse_plan(o, opts, error);
  if (!ok) {
    destroy_state(o);
    return NULL;
  }
  return o;
}

/* ---- which functions are graph functions ---- */



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
  return !mlirAttributeIsNull(sym) && !braze_calls_symbol(module, mlirStringAttrGetValue(sym));
}

/* ---- the pass ---- */

static void report_function(const Options *o, BrazeStr *report, size_t functions, const FkGraph *g,
                            const FkKernelList *kernels, char *const *names) {
  if (!o->report)
    return;
  if (o->report_dot)
    fk_report_dot(report, g, kernels, names, functions);
  else if (o->report_json)
    fk_report_json(report, g, kernels, functions == 0);
  else
    fk_report_text(report, g, kernels);
}

/* Output text of the whole run: the report and the plan-out file. */
typedef struct {
  BrazeStr report, plan;
  size_t functions;
  int next_index;
  UkCache user_kernels; /* each user kernel analysed once per run */
} Outputs;

/* Fuse and outline one graph function. False (nothing outlined) when a plan does
 * not apply; the errors are emitted. */
static bool form_kernels(const Options *o, MlirOperation func, Outputs *out) {
  FuOptions fu = {o->rules.disable, o->no_user_epilogue, o->target};
  FuRecords user_calls = {0};
  if (!fu_form_user_kernels(func, &fu, &out->next_index, &out->user_kernels, &user_calls)) {
    fu_records_free(&user_calls);
    return false;
  }
  FkGraph g;
  fk_graph_build(&g, func, &o->rules);
  char **names = fk_node_names(&g);
  bool ok = !o->plan || fk_plan_constrain(&g, o->plan, names, o->plan_complete);
  if (ok)
    fk_schedule(&g);
  ok = ok && (!o->plan || fk_plan_verify(&g, o->plan, names));
  ok = ok && fk_absorb_pads(&g, o->rules.pad_templates, o->plan ? o->plan->path : NULL, o->remarks);
  if (ok) {
    FkKernelList kernels;
    fk_kernels_plan(&g, o->target, &out->next_index, &kernels);
    report_function(o, &out->report, out->functions, &g, &kernels, names);
    if (o->report && !o->report_json && !o->report_dot)
      fu_report_text(&out->report, &user_calls, func);
    if (o->plan_out)
      fk_plan_write(&out->plan, &g, &kernels, names, out->functions == 0);
    ++out->functions;
    if (o->remarks)
      fk_emit_remarks(&g, &kernels);
    if (o->explain_a)
      fk_explain(&g, &kernels, o->explain_a, o->explain_b, names);
    if (o->explain_a)
      fu_explain(&user_calls, o->explain_a, o->explain_b);
    fk_outline(&g, &kernels);
    fk_kernels_free(&kernels);
  }
  fk_node_names_free(names, g.num_nodes);
  fk_graph_free(&g);
  fu_records_free(&user_calls);
  return ok;
}

static bool write_output(MlirOperation module, const char *path, const BrazeStr *text, const char *what) {
  if (braze_write_file(path, braze_str_cstr(text), text->len))
    return true;
  braze_emit_error(mlirOperationGetLocation(module), "form-kernels: cannot write the %s to '%s'", what, path);
  return false;
}

static bool write_report(const Options *o, MlirOperation module, const BrazeStr *report) {
  if (!o->report)
    return true;
  if (!o->report_file) {
    fwrite(braze_str_cstr(report), 1, report->len, stderr);
    return true;
  }
  return write_output(module, o->report_file, report, "report");
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
  Outputs out = {0};
  if (o->report_json)
    fk_report_json_begin(&out.report);
  if (o->report_dot)
    fk_report_dot_begin(&out.report);
  fk_plan_write_begin(&out.plan);
  bool ok = true;
  for (size_t i = 0; i < num_funcs; ++i)
    ok = form_kernels(o, funcs[i], &out) && ok;
  if (o->report_json)
    fk_report_json_end(&out.report);
  if (o->report_dot)
    fk_report_dot_end(&out.report);
  fk_plan_write_end(&out.plan);
  if (o->plan)
    ok = fk_plan_check_unmatched(o->plan, module) && ok;
  /* A plan that does not apply leaves no report and no plan file behind. */
  ok = ok && write_report(o, module, &out.report);
  if (ok && o->plan_out)
    ok = write_output(module, o->plan_out, &out.plan, "plan");
  braze_str_free(&out.report);
  braze_str_free(&out.plan);
  uk_cache_free(&out.user_kernels);
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
                    "  pad-templates=true|false|P  a zero pad read only as a template's A joins its tem kernel\n"
                    "                       (the target's template reads the unpadded input; default false);\n"
                    "                       P: only pads whose padding is at most P%% of their positions\n"
                    "  pad-channels=N       with pad-templates: only pads whose channels are a multiple of N\n"
                    "                       (default 1; cuda-default: 64, the template's channels per TMA box)\n"
                    "  horizontal-templates=true|false|half  two matmuls of one A in one tem kernel (default false;\n"
                    "                       half: only over f16/bf16 inputs)\n"
                    "  max-ops=N            at most N graph ops per kernel (default 64)\n"
                    "  persistent-max=N     a reduction over at most N elements is a `per` kernel (default 1024)\n"
                    "  no-user-epilogue     user kernels do not absorb pointwise consumers of their outputs\n"
                    "  target=NAME          kernel name prefix (default cpu)\n"
                    "  report[=FILE]        print the fusion report (stderr, or FILE)\n"
                    "  report-format=text|json|dot  dot: the fusion graph for Graphviz\n"
                    "  explain=A,B          remark why nodes of graph ops/ONNX names/plan names A and B did (not) fuse\n"
                    "  remarks              a remark per candidate pair and per kernel\n"
                    "  plan-out=FILE        write the kernels formed as a fusion plan (JSON, docs/fusion-plans.md)\n"
                    "  plan=FILE            form the kernels a plan lists (same legality rules) and apply its forbid pairs\n"
                    "  plan-mode=exact|complete  ops a plan does not list: alone (exact, default) or fused greedily\n",
    .anchor = "builtin.module",
    .create_state = create_state,
    .destroy_state = destroy_state,
    .run = run,
};
