/* The mesh simulation for `braze run --mesh` and `braze check --mesh`
 * (docs/sharding.md): partition a module with shard-partition, split global inputs
 * into each rank's local pieces, run every rank's program with the reference
 * interpreter (collectives simulated: braze_reference_run_mesh), and assemble the
 * ranks' results into global tensors, checking that replicas agree. */
#ifndef BRAZE_TOOLS_BRAZE_MESH_SIM_H
#define BRAZE_TOOLS_BRAZE_MESH_SIM_H

#include <stdbool.h>
#include <stddef.h>

#include "mlir-c/IR.h"
#include "support/tensor.h"

/* Run shard-partition over `module`: with mesh= `mesh` ("tp:2"), or each function's
 * own braze.mesh when `mesh` is "func", then `passes` (pipeline elements, or NULL:
 * none; `braze check --mesh-passes`). Prints "braze CMD: ..." and returns false
 * on failure (diagnostics printed by the module's sink). */
bool braze_mesh_partition(const char *cmd, MlirOperation module, const char *mesh, const char *passes);

/* Evaluate the partitioned `func` on global `inputs` (the unpartitioned function's
 * argument types) over its mesh; *outputs are the global results. */
bool braze_mesh_run(const char *cmd, MlirOperation func, const BrazeHostTensor *inputs, size_t n_in,
                    BrazeHostTensor **outputs, size_t *n_out);

/* "mesh tp=2 (2 devices)" for the partitioned `func`, into buf. */
void braze_mesh_describe_func(MlirOperation func, char *buf, size_t size);

#endif
