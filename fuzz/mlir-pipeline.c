/* Fuzz target: MLIR text -> parser -> graph verifier -> the default CPU pipeline up
 * to target-level IR (entries captured and finalized; no LLVM emission), as
 * `braze compile --emit=mlir` does. Any crash, leak, sanitizer report or hang is a
 * finding; errors with diagnostics are the expected outcome for bad input. */
#include <stdlib.h>

#include "fuzz/harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char *pipeline;
  if (!pipeline)
    pipeline = fz_pipeline("cpu-default");
  char *text = fz_text(data, size);
  MlirOperation module = fz_load(text, size, "fuzz.mlir");
  free(text);
  if (!mlirOperationIsNull(module)) {
    fz_run_to_target_ir(module, pipeline);
    mlirOperationDestroy(module);
  }
  fz_done();
  return 0;
}
