/* The nesting limit on IR text: MLIR's parser recurses once per nested region,
 * attribute, type and parenthesis, so text nested tens of thousands deep overflows
 * the stack. braze_parse (support/context.h) refuses text nested deeper than
 * BRAZE_MAX_NESTING before MLIR sees it, with an error at the bracket that passes
 * the limit. */
#ifndef BRAZE_SUPPORT_NESTING_H
#define BRAZE_SUPPORT_NESTING_H

#include <stdbool.h>
#include <stddef.h>

#include "mlir-c/IR.h"

enum { BRAZE_MAX_NESTING = 256 };

/* Whether `text` nests ( [ { < at most BRAZE_MAX_NESTING deep, outside string
 * literals and // comments ('>' after '-' is an arrow, not a bracket). When not, an
 * error "nesting deeper than ..." is emitted at source_name:line:col. */
bool braze_nesting_ok(MlirContext ctx, const char *text, size_t len, const char *source_name);

#endif
