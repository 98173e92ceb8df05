/* Fuzz target: pass pipeline text -> the pipeline parser (braze passes, their
 * options, nesting, upstream elements handed to MLIR). A pipeline that builds and is
 * made of braze passes (plus a few upstream ones that only rewrite IR) then runs on
 * a fixed graph module: passes in any order, with any options, must end in errors,
 * never in a crash. Options that name files or run code (report=, plan=, plan-out=,
 * file=, matmul=auto) are not run; the process works in a scratch directory. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz/fixed-module.h"
#include "fuzz/harness.h"
#include "mlir-c/Pass.h"
#include "passes/passes.h"
#include "support/context.h"

static bool allowed_upstream(const char *name, size_t len) {
  static const char *const names[] = {"canonicalize", "cse", "loop-invariant-code-motion", "symbol-dce",
                                      "builtin.module", "func.func", NULL};
  for (size_t i = 0; names[i]; ++i)
    if (strlen(names[i]) == len && memcmp(names[i], name, len) == 0)
      return true;
  return false;
}

/* Every name outside {...} is a braze pass or an allowed upstream element, and no
 * option text names a file or asks for timing runs. */
static bool safe_to_run(const char *text) {
  static const char *const refused[] = {"report", "plan", "file", "auto", "dump", "cache", "out", "/", NULL};
  for (size_t i = 0; refused[i]; ++i)
    if (strstr(text, refused[i]))
      return false;
  int braces = 0;
  for (const char *p = text; *p;) {
    if (*p == '{' || *p == '}') {
      braces += *p == '{' ? 1 : -1;
      ++p;
      continue;
    }
    if (braces || !(isalnum((unsigned char)*p) || *p == '-' || *p == '_' || *p == '.')) {
      ++p;
      continue;
    }
    const char *start = p;
    while (isalnum((unsigned char)*p) || *p == '-' || *p == '_' || *p == '.')
      ++p;
    size_t len = (size_t)(p - start);
    if (!braze_pass_lookup(start, len) && !allowed_upstream(start, len))
      return false;
  }
  return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static bool in_scratch;
  if (!in_scratch && chdir(fz_scratch_dir()) == 0)
    in_scratch = true;
  char *text = fz_text(data, size);
  if (strlen(text) != size) { /* the tools take pipelines as C strings */
    free(text);
    return 0;
  }
  MlirContext ctx = fz_context();
  MlirPassManager pm = mlirPassManagerCreateOnOperation(ctx, braze_ref("builtin.module"));
  BrazeStr error = {0};
  BrazeIRPrinting printing = {0};
  bool built = braze_pipeline_build(pm, text, &printing, &error);
  if (!built && !error.len)
    abort(); /* a refused pipeline must say why */
  if (built && safe_to_run(text)) {
    MlirOperation module = fz_load(fz_fixed_module, sizeof fz_fixed_module - 1, "fixed.mlir");
    if (mlirOperationIsNull(module))
      abort();
    mlirPassManagerRunOnOp(pm, module);
    mlirOperationDestroy(module);
  }
  mlirPassManagerDestroy(pm);
  braze_str_free(&error);
  free(text);
  fz_done();
  return 0;
}
