/* Origins: which op the user wrote a primitive op for. graph-decompose marks the ops
 * it creates with the composite they came from (in their location, so printed IR
 * does not change); graph-to-loops and inline-unrealized carry it to the generics as
 * `braze.origins` (parallel to `braze.ops`, present only where some origin differs
 * from its op); form-kernels names kernels by origins (decision 0007). */
#ifndef BRAZE_IR_ORIGINS_H
#define BRAZE_IR_ORIGINS_H

#include <stdbool.h>

#include "mlir-c/IR.h"

/* The graph ops a generic or kernel was made of, in order (set by graph-to-loops,
 * merged by inline-unrealized and form-kernels). */
#define BRAZE_OPS_ATTR "braze.ops"
#define BRAZE_ORIGINS_ATTR "braze.origins"

/* `loc` marked as coming from composite `name` (fused location metadata
 * {braze.origin = "name"}); `loc` itself when it already has an origin (the
 * outermost composite names the ops). */
MlirLocation braze_origin_loc(MlirLocation loc, const char *name);
/* The origin a location carries (digging through fused, name and call-site
 * locations), as a string ref; false when none. */
bool braze_loc_origin(MlirLocation loc, MlirStringRef *origin);

/* Set braze.origins on `generic` (whose braze.ops has one entry per graph op) to
 * `origins` when some entry differs from braze.ops; remove it otherwise. */
void braze_set_origins(MlirOperation generic, MlirAttribute origins);
/* The origins of a generic: braze.origins, or braze.ops when it has none. */
MlirAttribute braze_origins_of(MlirOperation generic);

#endif
