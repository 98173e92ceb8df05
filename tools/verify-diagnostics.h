/* --verify-diagnostics: compare the diagnostics a run produced with the
 * `expected-error/warning/remark/note [@+N|@-N|@above|@below] {{text}}` comments of
 * the input, exactly as mlir-opt reads them. */
#ifndef BRAZE_TOOLS_VERIFY_DIAGNOSTICS_H
#define BRAZE_TOOLS_VERIFY_DIAGNOSTICS_H

#include <stdbool.h>
#include <stddef.h>

#include "support/diag.h"

/* `text` is the whole buffer (or one split chunk, padded so its line numbers are the
 * file's); returns true when every expectation was met and nothing unexpected came. */
bool braze_verify_diagnostics(const char *file, const char *text, size_t len, const BrazeDiagSink *sink);

#endif
