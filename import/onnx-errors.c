/* ONNX import, errors: every message names the node being converted (its index, name
 * and op type) or the model file. At the bottom of the importer: it calls nothing
 * else of it, so the converters, the value table and the model walk all can use it. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/onnx-internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "support/context.h"
#include "support/diag.h"
#include "support/strbuf.h"

/* ---- errors ---- */

const char *onnx_node_label(const Onnx__NodeProto *node, size_t index, char *buf, size_t n) {
  if (node->name && node->name[0])
    snprintf(buf, n, "'%s'", node->name);
  else
    snprintf(buf, n, "#%zu", index);
  return buf;
}

MlirLocation onnx_file_loc(OnnxImporter *im, unsigned col) {
  return mlirLocationFileLineColGet(im->ctx, braze_ref(im->path), 0, col);
}

static void node_error_message(OnnxImporter *im, const char *message) {
  char label[160];
  braze_emit_error(im->loc, "node %s (%s): %s", onnx_node_label(im->node, im->node_index, label, sizeof label),
                   onnx_str_or_empty(im->node->op_type), message);
}

bool onnx_node_error(OnnxImporter *im, const char *fmt, ...) {
  BrazeStr msg = {0};
  va_list ap;
  va_start(ap, fmt);
  braze_str_vprintf(&msg, fmt, ap);
  va_end(ap);
  node_error_message(im, braze_str_cstr(&msg));
  braze_str_free(&msg);
  return false;
}

bool onnx_file_error(OnnxImporter *im, const char *fmt, ...) {
  BrazeStr msg = {0};
  va_list ap;
  va_start(ap, fmt);
  braze_str_vprintf(&msg, fmt, ap);
  va_end(ap);
  if (im->node) /* inside a node (e.g. a Constant's tensor): name the node */
    node_error_message(im, braze_str_cstr(&msg));
  else
    braze_emit_error(onnx_file_loc(im, 0), "%s", braze_str_cstr(&msg));
  braze_str_free(&msg);
  return false;
}
