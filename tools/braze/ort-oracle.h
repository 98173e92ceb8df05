/* ONNX Runtime as the oracle of `braze check MODEL.onnx`: the model runs in ONNX
 * Runtime for node (onnxruntime-node, found through NODE_PATH) on the same inputs as
 * the compiled code, through tools/braze/ort-run.js. f32 inputs and outputs only. */
#ifndef BRAZE_TOOLS_BRAZE_ORT_ORACLE_H
#define BRAZE_TOOLS_BRAZE_ORT_ORACLE_H

#include <stdbool.h>
#include <stddef.h>

#include "support/tensor.h"

/* Whether `node` runs and can load onnxruntime-node (checked once per process). */
bool braze_ort_available(void);

/* Run `model` on `inputs`; `n_out` outputs are read back into *outputs (free with
 * braze_tensors_free). Prints why and returns false on failure. */
bool braze_ort_run(const char *model, const BrazeHostTensor *inputs, size_t n_in, size_t n_out,
                   BrazeHostTensor **outputs);

#endif
