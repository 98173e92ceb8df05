/* Diagnostics: one sink for MLIR's diagnostics and braze's own.
 *
 * The MLIR C API can emit only errors (mlirEmitError); braze's passes also emit
 * warnings and remarks (fusion decisions, inlining decisions). Both kinds flow into
 * one sink per context, which either prints them as `file:line:col: severity: msg`
 * or collects them for --verify-diagnostics. */
#ifndef BRAZE_SUPPORT_DIAG_H
#define BRAZE_SUPPORT_DIAG_H

#include <stdbool.h>
#include <stddef.h>

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"

typedef enum {
  BRAZE_DIAG_ERROR,
  BRAZE_DIAG_WARNING,
  BRAZE_DIAG_NOTE,
  BRAZE_DIAG_REMARK,
} BrazeSeverity;

typedef struct {
  BrazeSeverity severity;
  char *file; /* NULL when the location has no file (unknown location) */
  unsigned line, column;
  char *message;
} BrazeDiag;

typedef struct BrazeDiagSink {
  bool collect;      /* true: keep diagnostics in `items` instead of printing them */
  BrazeDiag *items;
  size_t count, cap;
  size_t num_errors;
} BrazeDiagSink;

/* Attach `sink` to `ctx` (replacing any previous braze sink) so MLIR diagnostics reach it. */
void braze_diag_attach(MlirContext ctx, BrazeDiagSink *sink);
BrazeDiagSink *braze_diag_sink(MlirContext ctx);
void braze_diag_detach(MlirContext ctx);
void braze_diag_sink_clear(BrazeDiagSink *sink);

/* Emit a diagnostic at `loc` (printf-style message). */
void braze_emit(MlirLocation loc, BrazeSeverity severity, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#define braze_emit_error(loc, ...) braze_emit((loc), BRAZE_DIAG_ERROR, __VA_ARGS__)
#define braze_emit_warning(loc, ...) braze_emit((loc), BRAZE_DIAG_WARNING, __VA_ARGS__)
#define braze_emit_remark(loc, ...) braze_emit((loc), BRAZE_DIAG_REMARK, __VA_ARGS__)

/* The file:line:col a location points at, digging through name, call-site and
 * fused locations. Returns false for locations with no file position. */
bool braze_location_file_line_col(MlirLocation loc, const char **file, size_t *file_len,
                                  unsigned *line, unsigned *col);
/* The innermost name of a NameLoc (e.g. an ONNX node name), looking through call-site
 * and fused locations (the first child with a name), or NULL/0. */
bool braze_location_name(MlirLocation loc, const char **name, size_t *len);

const char *braze_severity_name(BrazeSeverity s);

#endif
