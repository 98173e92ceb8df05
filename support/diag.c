#include "support/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/strbuf.h"

/* MLIR keeps no per-context user data reachable from C, so the sink of each live
 * context is kept in a small table. braze uses one or two contexts per process. */
enum { MAX_CONTEXTS = 16 };
static struct {
  MlirContext ctx;
  BrazeDiagSink *sink;
  MlirDiagnosticHandlerID handler;
} attached[MAX_CONTEXTS];

const char *braze_severity_name(BrazeSeverity s) {
  switch (s) {
  case BRAZE_DIAG_ERROR: return "error";
  case BRAZE_DIAG_WARNING: return "warning";
  case BRAZE_DIAG_NOTE: return "note";
  case BRAZE_DIAG_REMARK: return "remark";
  }
  return "error";
}

bool braze_location_file_line_col(MlirLocation loc, const char **file, size_t *file_len,
                                  unsigned *line, unsigned *col) {
  if (mlirLocationIsAFileLineColRange(loc)) {
    MlirIdentifier name = mlirLocationFileLineColRangeGetFilename(loc);
    MlirStringRef ref = mlirIdentifierStr(name);
    *file = ref.data;
    *file_len = ref.length;
    *line = (unsigned)mlirLocationFileLineColRangeGetStartLine(loc);
    *col = (unsigned)mlirLocationFileLineColRangeGetStartColumn(loc);
    return true;
  }
  if (mlirLocationIsAName(loc))
    return braze_location_file_line_col(mlirLocationNameGetChildLoc(loc), file, file_len, line, col);
  if (mlirLocationIsACallSite(loc))
    return braze_location_file_line_col(mlirLocationCallSiteGetCaller(loc), file, file_len, line, col);
  if (mlirLocationIsAFused(loc)) {
    intptr_t n = mlirLocationFusedGetNumLocations(loc);
    MlirLocation *locs = calloc((size_t)(n ? n : 1), sizeof *locs);
    mlirLocationFusedGetLocations(loc, locs);
    bool found = false;
    for (intptr_t i = 0; i < n && !found; ++i)
      found = braze_location_file_line_col(locs[i], file, file_len, line, col);
    free(locs);
    return found;
  }
  return false;
}

bool braze_location_name(MlirLocation loc, const char **name, size_t *len) {
  if (mlirLocationIsAName(loc)) {
    MlirStringRef ref = mlirIdentifierStr(mlirLocationNameGetName(loc));
    *name = ref.data;
    *len = ref.length;
    return true;
  }
  if (mlirLocationIsACallSite(loc))
    return braze_location_name(mlirLocationCallSiteGetCallee(loc), name, len);
  if (mlirLocationIsAFused(loc)) { /* e.g. graph-decompose's origin around an ONNX name */
    intptr_t n = mlirLocationFusedGetNumLocations(loc);
    MlirLocation *locs = calloc((size_t)(n ? n : 1), sizeof *locs);
    mlirLocationFusedGetLocations(loc, locs);
    bool found = false;
    for (intptr_t i = 0; i < n && !found; ++i)
      found = braze_location_name(locs[i], name, len);
    free(locs);
    return found;
  }
  return false;
}

static void sink_add(BrazeDiagSink *sink, MlirLocation loc, BrazeSeverity severity,
                     const char *message) {
  const char *file = NULL;
  size_t file_len = 0;
  unsigned line = 0, col = 0;
  bool has_pos = braze_location_file_line_col(loc, &file, &file_len, &line, &col);
  if (severity == BRAZE_DIAG_ERROR)
    sink->num_errors++;
  if (!sink->collect) {
    if (has_pos)
      fprintf(stderr, "%.*s:%u:%u: %s: %s\n", (int)file_len, file, line, col,
              braze_severity_name(severity), message);
    else
      fprintf(stderr, "<unknown>: %s: %s\n", braze_severity_name(severity), message);
    return;
  }
  if (sink->count == sink->cap) {
    sink->cap = sink->cap ? sink->cap * 2 : 16;
    sink->items = realloc(sink->items, sink->cap * sizeof *sink->items);
  }
  BrazeDiag *d = &sink->items[sink->count++];
  d->severity = severity;
  d->file = has_pos ? strndup(file, file_len) : NULL;
  d->line = line;
  d->column = col;
  d->message = strdup(message);
}

static BrazeSeverity from_mlir(MlirDiagnosticSeverity s) {
  switch (s) {
  case MlirDiagnosticError: return BRAZE_DIAG_ERROR;
  case MlirDiagnosticWarning: return BRAZE_DIAG_WARNING;
  case MlirDiagnosticNote: return BRAZE_DIAG_NOTE;
  case MlirDiagnosticRemark: return BRAZE_DIAG_REMARK;
  }
  return BRAZE_DIAG_ERROR;
}

static void add_mlir_diagnostic(BrazeDiagSink *sink, MlirDiagnostic diag) {
  BrazeStr text = {0};
  mlirDiagnosticPrint(diag, braze_str_callback, &text);
  sink_add(sink, mlirDiagnosticGetLocation(diag), from_mlir(mlirDiagnosticGetSeverity(diag)),
           braze_str_cstr(&text));
  braze_str_free(&text);
  for (intptr_t i = 0, n = mlirDiagnosticGetNumNotes(diag); i < n; ++i)
    add_mlir_diagnostic(sink, mlirDiagnosticGetNote(diag, i));
}

static MlirLogicalResult handle_mlir_diagnostic(MlirDiagnostic diag, void *user_data) {
  add_mlir_diagnostic((BrazeDiagSink *)user_data, diag);
  return mlirLogicalResultSuccess();
}

void braze_diag_attach(MlirContext ctx, BrazeDiagSink *sink) {
  braze_diag_detach(ctx);
  for (int i = 0; i < MAX_CONTEXTS; ++i) {
    if (attached[i].sink)
      continue;
    attached[i].ctx = ctx;
    attached[i].sink = sink;
    attached[i].handler = mlirContextAttachDiagnosticHandler(ctx, handle_mlir_diagnostic, sink, NULL);
    return;
  }
  fputs("braze: too many contexts with diagnostic sinks\n", stderr);
  abort();
}

BrazeDiagSink *braze_diag_sink(MlirContext ctx) {
  for (int i = 0; i < MAX_CONTEXTS; ++i)
    if (attached[i].sink && mlirContextEqual(attached[i].ctx, ctx))
      return attached[i].sink;
  return NULL;
}

void braze_diag_detach(MlirContext ctx) {
  for (int i = 0; i < MAX_CONTEXTS; ++i) {
    if (!attached[i].sink || !mlirContextEqual(attached[i].ctx, ctx))
      continue;
    mlirContextDetachDiagnosticHandler(ctx, attached[i].handler);
    attached[i].sink = NULL;
  }
}

void braze_diag_sink_clear(BrazeDiagSink *sink) {
  for (size_t i = 0; i < sink->count; ++i) {
    free(sink->items[i].file);
    free(sink->items[i].message);
  }
  free(sink->items);
  sink->items = NULL;
  sink->count = sink->cap = 0;
  sink->num_errors = 0;
}

void braze_emit(MlirLocation loc, BrazeSeverity severity, const char *fmt, ...) {
  BrazeStr text = {0};
  va_list ap;
  va_start(ap, fmt);
  braze_str_vprintf(&text, fmt, ap);
  va_end(ap);
  BrazeDiagSink *sink = braze_diag_sink(mlirLocationGetContext(loc));
  if (sink)
    sink_add(sink, loc, severity, braze_str_cstr(&text));
  else if (severity == BRAZE_DIAG_ERROR)
    mlirEmitError(loc, braze_str_cstr(&text)); /* MLIR's handlers see errors */
  else {
    BrazeDiagSink printer = {.collect = false}; /* prints file:line:col: severity: msg */
    sink_add(&printer, loc, severity, braze_str_cstr(&text));
  }
  braze_str_free(&text);
}
