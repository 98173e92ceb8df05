/* A guard for a crash in MLIR 22's linalg parsers: the custom forms of
 * linalg.broadcast and linalg.reduce (`dimensions = [...]`) and linalg.transpose
 * (`permutation = [...]`) read the list with DenseI64ArrayAttr::parse and store the
 * result unchecked, so a malformed list ("[0d]", "[1", "[1.0]", "x") reports its
 * error and then dereferences a null attribute (a SEGV, found by
 * fuzz-mlir-pipeline). braze_parse (support/context.h) checks each such list before
 * MLIR sees the text. */
#ifndef BRAZE_SUPPORT_LINALG_ARRAYS_H
#define BRAZE_SUPPORT_LINALG_ARRAYS_H

#include <stdbool.h>
#include <stddef.h>

#include "mlir-c/IR.h"

/* Whether every `dimensions =` and `permutation =` in a custom op form (the keyword
 * right after a ')', outside string literals and // comments) is followed by a
 * bracketed, comma-separated list of integers (decimal or hex, optionally negative)
 * or true/false, which is what the parser reads without crashing. When not, an
 * error is emitted at source_name:line:col of the keyword. */
bool braze_linalg_arrays_ok(MlirContext ctx, const char *text, size_t len, const char *source_name);

#endif
