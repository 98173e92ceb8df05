/* Fuzz target: ONNX protobuf bytes -> the importer (protobuf-c, every converter, the
 * constant folding) -> the MLIR and graph verifiers it runs on its result. */
#include "fuzz/harness.h"
#include "import/onnx-import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MlirModule module = {NULL};
  if (braze_onnx_import_bytes(fz_context(), data, size, "fuzz.onnx", NULL, &module))
    mlirModuleDestroy(module);
  fz_done();
  return 0;
}
