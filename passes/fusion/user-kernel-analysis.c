/* user-kernel-analysis: check every user kernel's form (a private func.func marked
 * `braze.user_kernel`, static identity-layout memref arguments, no results) and
 * print its read/write analysis (passes/fusion/user-kernel-effects.h): per memref argument
 * read, written (store sites: scalar, vector, masked), atomic, escapes (the first op
 * that lets it escape). The IR is not changed. form-kernels runs the same (cached)
 * analysis to decide user-kernel epilogue fusion (docs/user-kernels.md).
 *
 * Options:
 *   report[=FILE]  print the analysis (stderr, or FILE); without it the pass only
 *                  checks the form */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes/fusion/fusion-passes.h"
#include "passes/fusion/user-kernel-effects.h"
#include "support/context.h"
#include "support/diag.h"

typedef struct {
  bool report;
  char *file; /* NULL: stderr */
} Options;

static const char *const option_names[] = {"report", NULL};

static void *create_state(const BrazePassOptions *opts, BrazeStr *error) {
  if (!braze_options_check(opts, "user-kernel-analysis", option_names, error))
    return NULL;
  Options *o = calloc(1, sizeof *o);
  const BrazeOption *report = braze_option_find(opts, "report");
  o->report = report != NULL;
  if (report && report->value && *report->value && strcmp(report->value, "-") != 0)
    o->file = strdup(report->value);
  return o;
}

static void destroy_state(void *state) {
  Options *o = state;
  if (o)
    free(o->file);
  free(o);
}

static bool run(MlirOperation module, void *state) {
  const Options *o = state;
  UkCache cache = {0};
  BrazeStr text = {0};
  bool ok = true;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation f = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f)) {
    if (!uk_is_user_kernel(f))
      continue;
    const UkInfo *info = uk_analyse(&cache, f);
    if (info->error) {
      braze_emit_error(mlirOperationGetLocation(info->error_op), "user kernel @%s %s", info->name, info->error);
      ok = false;
      continue;
    }
    braze_str_printf(&text, "user kernel @%s\n", info->name);
    uk_info_print(info, &text);
  }
  if (ok && o->report) {
    if (!o->file)
      fwrite(braze_str_cstr(&text), 1, text.len, stderr);
    else if (!braze_write_file(o->file, braze_str_cstr(&text), text.len)) {
      braze_emit_error(mlirOperationGetLocation(module), "user-kernel-analysis: cannot write the report to '%s'",
                       o->file);
      ok = false;
    }
  }
  braze_str_free(&text);
  uk_cache_free(&cache);
  return ok;
}

const BrazePassInfo braze_pass_user_kernel_analysis = {
    .argument = "user-kernel-analysis",
    .summary = "Check user kernels' form and report what each reads, writes (store sites), writes atomically "
               "or lets escape",
    .options_help = "  report[=FILE]        print the per-argument analysis (stderr, or FILE)\n",
    .anchor = "builtin.module",
    .create_state = create_state,
    .destroy_state = destroy_state,
    .run = run,
};
