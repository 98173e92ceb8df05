/* Fuzz target: fusion plan JSON -> the plan reader (jansson, then the shape checks)
 * -> cpu-default with form-kernels{plan=FILE} on the fixed module
 * (fuzz/fixed-module.h): op names resolved, kernels checked against the fusion
 * rules, the legal ones formed, outlined and taken to target-level IR. plan-mode is
 * exact for even-sized inputs and complete for odd ones. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fixed-module.h"
#include "fuzz/harness.h"
#include "support/context.h"

static const char form_kernels[] = "form-kernels{horizontal-templates pad-templates}";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static char path[4200];
  if (!path[0])
    snprintf(path, sizeof path, "%s/plan.json", fz_scratch_dir());
  if (!braze_write_file(path, (const char *)data, size))
    abort();
  static const char *cpu_default;
  static const char *at;
  if (!cpu_default) {
    cpu_default = fz_pipeline("cpu-default");
    if (!(at = strstr(cpu_default, form_kernels)))
      abort(); /* cpu-default changed: update form_kernels above */
  }
  BrazeStr pipeline = {0};
  braze_str_printf(&pipeline, "%.*sform-kernels{horizontal-templates pad-templates plan=%s plan-mode=%s}%s",
                   (int)(at - cpu_default), cpu_default, path, size % 2 ? "complete" : "exact",
                   at + strlen(form_kernels));
  MlirOperation module = fz_load(fz_fixed_module, sizeof fz_fixed_module - 1, "fixed.mlir");
  if (mlirOperationIsNull(module))
    abort();
  fz_run_to_target_ir(module, braze_str_cstr(&pipeline));
  mlirOperationDestroy(module);
  braze_str_free(&pipeline);
  fz_done();
  return 0;
}
