/* ONNX import, the node being converted: its inputs (looked up in the value table,
 * materialized as graph values) and its outputs (defined in the table). Used by the
 * converters and the folding; it uses only the value table and the errors below it. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/onnx-internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "support/context.h"
#include "support/diag.h"
#include "support/strbuf.h"

/* ---- node inputs and outputs ---- */

size_t onnx_num_inputs(const Onnx__NodeProto *node) {
  size_t n = node->n_input;
  while (n > 0 && !(node->input[n - 1] && node->input[n - 1][0]))
    --n;
  return n;
}

bool onnx_has_input(const Onnx__NodeProto *node, size_t i) {
  return i < node->n_input && node->input[i] && node->input[i][0];
}

OnnxValue *onnx_input(OnnxImporter *im, size_t i) {
  if (!onnx_has_input(im->node, i)) {
    onnx_node_error(im, "input #%zu is missing", i);
    return NULL;
  }
  const char *name = im->node->input[i];
  OnnxValue *v = onnx_lookup(im, name);
  if (!v) {
    /* Made by this node or a later one: the nodes are not in topological order (which
     * ONNX requires), or they form a cycle. */
    const Onnx__GraphProto *g = im->model->graph;
    for (size_t k = im->node_index; k < g->n_node; ++k)
      for (size_t o = 0; o < g->node[k]->n_output; ++o)
        if (g->node[k]->output[o] && strcmp(g->node[k]->output[o], name) == 0) {
          char label[160];
          onnx_node_error(im, "input '%s' is output #%zu of node %s (%s), which is not earlier: the graph's nodes "
                              "are not in topological order or form a cycle", name, o,
                          onnx_node_label(g->node[k], k, label, sizeof label), onnx_str_or_empty(g->node[k]->op_type));
          return NULL;
        }
    onnx_node_error(im, "input '%s' is not a graph input, an initializer or an earlier node's output",
                    name);
    return NULL;
  }
  if (v->unsupported_by) {
    char label[160];
    onnx_node_error(im, "input '%s' is output #%zu of node %s (%s), which braze does not import", name,
                    v->unsupported_index,
                    onnx_node_label(v->unsupported_by, 0, label, sizeof label),
                    onnx_str_or_empty(v->unsupported_by->op_type));
    return NULL;
  }
  return v;
}

MlirValue onnx_operand(OnnxImporter *im, size_t i, OnnxType *type) {
  OnnxValue *v = onnx_input(im, i);
  if (!v)
    return (MlirValue){NULL};
  if (type)
    *type = v->type;
  return onnx_materialize(im, v);
}

bool onnx_set_output(OnnxImporter *im, size_t i, MlirValue value, const OnnxType *type) {
  if (mlirValueIsNull(value))
    return false;
  if (!onnx_check_size(im, type, "the result"))
    return false;
  if (i >= im->node->n_output || !im->node->output[i][0])
    return true; /* an optional output nobody names */
  OnnxValue *v = onnx_define_value(im, im->node->output[i], type);
  if (!v)
    return false;
  v->value = value;
  return true;
}

bool onnx_alias_output(OnnxImporter *im, size_t i, OnnxValue *src) {
  if (i >= im->node->n_output || !im->node->output[i][0])
    return true;
  OnnxValue copy = *src; /* copied before the table may move */
  OnnxValue *v = onnx_define_value(im, im->node->output[i], &copy.type);
  if (!v)
    return false;
  v->value = copy.value;
  v->is_const = copy.is_const;
  v->data = (OnnxData){.data = copy.data.data, .nbytes = copy.data.nbytes}; /* borrowed */
  v->loc = copy.loc;
  return true;
}

bool onnx_const_input_ints(OnnxImporter *im, size_t i, const char *what, int64_t *out, size_t max,
                           size_t *count) {
  OnnxValue *v = onnx_input(im, i);
  return v && onnx_const_ints(im, v, what, out, max, count);
}
