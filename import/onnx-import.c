/* ONNX import: reads the model with protobuf-c, checks the opset, turns graph
 * inputs/initializers into function arguments/constants, converts the nodes in
 * order (one converter per op type, import/onnx-ops-*.c; the node being converted:
 * import/onnx-node.c, its errors: import/onnx-errors.c) and returns a verified module. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/graph/graph.h"
#include "import/onnx-internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/diag.h"
#include "support/npy.h"
#include "support/strbuf.h"
#include "support/tensor.h"

enum { MIN_OPSET = 1, MAX_OPSET = 21 };

/* ---- the model ---- */

static bool check_opset(OnnxImporter *im) {
  const Onnx__ModelProto *m = im->model;
  im->opset = -1;
  for (size_t i = 0; i < m->n_opset_import; ++i) {
    const char *domain = onnx_str_or_empty(m->opset_import[i]->domain);
    if (!domain[0] || strcmp(domain, "ai.onnx") == 0)
      im->opset = m->opset_import[i]->has_version ? m->opset_import[i]->version : 0;
  }
  if (im->opset < 0)
    return onnx_file_error(im, "the model imports no opset of the default ONNX domain");
  if (im->opset < MIN_OPSET || im->opset > MAX_OPSET)
    return onnx_file_error(im, "the model uses ONNX opset %lld; braze imports opsets %d to %d",
                           (long long)im->opset, MIN_OPSET, MAX_OPSET);
  if (!m->graph)
    return onnx_file_error(im, "the model has no graph");
  return true;
}

static const BrazeOnnxShape *find_override(const BrazeOnnxOptions *opts, const char *name) {
  for (size_t i = 0; opts && i < opts->num_shapes; ++i)
    if (strcmp(opts->shapes[i].name, name) == 0)
      return &opts->shapes[i];
  return NULL;
}

/* The static type of a graph input or output; `dynamic_ok` accepts unknown dims
 * (outputs, whose shapes braze computes) and reports them as -1. */
static bool value_info_type(OnnxImporter *im, const Onnx__ValueInfoProto *vi, const char *what,
                            bool dynamic_ok, OnnxType *out, bool *has_shape) {
  const char *name = onnx_str_or_empty(vi->name);
  const Onnx__TypeProto *tp = vi->type;
  if (!tp || tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || !tp->tensor_type)
    return onnx_file_error(im, "%s '%s' is not a tensor", what, name);
  const Onnx__TypeProto__Tensor *tt = tp->tensor_type;
  out->dtype = tt->has_elem_type ? tt->elem_type : 0;
  if (mlirTypeIsNull(onnx_element_type(im->ctx, out->dtype)))
    return onnx_file_error(im, "%s '%s' has element type %s, which braze does not support", what, name,
                           onnx_dtype_name(out->dtype));
  *has_shape = tt->shape != NULL;
  out->rank = tt->shape ? tt->shape->n_dim : 0;
  if (out->rank > ONNX_MAX_RANK)
    return onnx_file_error(im, "%s '%s' has rank %zu (braze supports up to %d)", what, name, out->rank,
                           ONNX_MAX_RANK);
  for (size_t i = 0; i < out->rank; ++i) {
    const Onnx__TensorShapeProto__Dimension *d = tt->shape->dim[i];
    bool known = d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE && d->dim_value > 0;
    out->dims[i] = known ? d->dim_value : -1;
    if (known && d->dim_value > ONNX_MAX_ELEMENTS)
      return onnx_file_error(im, "%s '%s' has a too large dimension (dim %zu)", what, name, i);
    if (known || dynamic_ok)
      continue;
    if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM)
      return onnx_file_error(im, "%s '%s' has a dynamic dimension '%s' (dim %zu); give it a static "
                             "shape with --shape %s=DxDx...", what, name, d->dim_param, i, name);
    return onnx_file_error(im, "%s '%s' has an unknown or zero dimension (dim %zu); give it a static "
                           "shape with --shape %s=DxDx...", what, name, i, name);
  }
  return true;
}

static bool input_type(OnnxImporter *im, const Onnx__ValueInfoProto *vi, const BrazeOnnxOptions *opts,
                       OnnxType *out) {
  const BrazeOnnxShape *o = find_override(opts, onnx_str_or_empty(vi->name));
  bool has_shape = false;
  if (!value_info_type(im, vi, "graph input", o != NULL, out, &has_shape))
    return false;
  if (!o) {
    if (!has_shape)
      return onnx_file_error(im, "graph input '%s' has no shape; give it one with --shape %s=DxDx...",
                             vi->name, vi->name);
    char what[300];
    snprintf(what, sizeof what, "graph input '%s'", vi->name);
    return onnx_check_size(im, out, what);
  }
  if (has_shape && o->rank != out->rank)
    return onnx_file_error(im, "--shape %s gives rank %zu, the model declares rank %zu", o->name, o->rank,
                           out->rank);
  for (size_t i = 0; i < o->rank; ++i) {
    if (has_shape && out->dims[i] > 0 && out->dims[i] != o->dims[i])
      return onnx_file_error(im, "--shape %s: dim %zu is %lld in the model, not %lld", o->name, i,
                             (long long)out->dims[i], (long long)o->dims[i]);
    out->dims[i] = o->dims[i];
  }
  out->rank = o->rank;
  char what[200];
  snprintf(what, sizeof what, "graph input '%s'", o->name);
  return onnx_check_size(im, out, what);
}

static MlirLocation named_loc(OnnxImporter *im, const char *name, unsigned col) {
  return mlirLocationNameGet(im->ctx, braze_ref(name), onnx_file_loc(im, col));
}

static bool define_initializers(OnnxImporter *im) {
  const Onnx__GraphProto *g = im->model->graph;
  for (size_t i = 0; i < g->n_initializer; ++i) {
    const Onnx__TensorProto *t = g->initializer[i];
    const char *name = onnx_str_or_empty(t->name);
    char what[300];
    snprintf(what, sizeof what, "initializer '%s'", name);
    OnnxType type;
    OnnxData data;
    if (!onnx_decode_tensor(im, t, what, &type, &data))
      return false;
    im->loc = named_loc(im, name, 0);
    if (!onnx_define_constant(im, name, &type, &data))
      return false;
  }
  return true;
}

/* Every --shape names a graph input that is not an initializer. */
static bool check_override_names(OnnxImporter *im, const BrazeOnnxOptions *opts) {
  const Onnx__GraphProto *g = im->model->graph;
  for (size_t i = 0; opts && i < opts->num_shapes; ++i) {
    const char *name = opts->shapes[i].name;
    OnnxValue *v = onnx_lookup(im, name);
    bool is_input = false;
    for (size_t j = 0; j < g->n_input; ++j)
      is_input |= strcmp(onnx_str_or_empty(g->input[j]->name), name) == 0;
    if (!is_input || (v && v->is_const))
      return onnx_file_error(im, "--shape %s: the model has no graph input of that name%s", name,
                             v ? " (it is an initializer)" : "");
  }
  return true;
}

/* An ONNX element type as a host-tensor dtype (for --bind's .npy data): through the
 * graph-dialect element type braze imports it as. */
static bool host_dtype(OnnxImporter *im, int32_t onnx, BrazeDType *out) {
  MlirType element = onnx_element_type(im->ctx, onnx);
  return !mlirTypeIsNull(element) && braze_dtype_from_mlir(element, out);
}

static const Onnx__ValueInfoProto *graph_input(OnnxImporter *im, const char *name) {
  const Onnx__GraphProto *g = im->model->graph;
  for (size_t j = 0; j < g->n_input; ++j)
    if (strcmp(onnx_str_or_empty(g->input[j]->name), name) == 0)
      return g->input[j];
  return NULL;
}

/* The .npy data of --bind must have the input's element type and its static dims. */
static bool check_binding(OnnxImporter *im, const BrazeOnnxBinding *b, const OnnxType *declared,
                          const BrazeHostTensor *t, BrazeDType want) {
  if (t->dtype != want)
    return onnx_file_error(im, "--bind %s: %s holds %s, the input is %s", b->name, b->npy_path,
                           braze_dtype_str(t->dtype), onnx_dtype_name(declared->dtype));
  bool fits = (size_t)t->rank == declared->rank;
  for (size_t d = 0; fits && d < declared->rank; ++d)
    fits = declared->dims[d] <= 0 || declared->dims[d] == t->shape[d];
  if (!fits)
    return onnx_file_error(im, "--bind %s: the shape of %s does not match the input's", b->name, b->npy_path);
  return true;
}

/* --bind NAME=FILE.npy: the graph input becomes a constant holding the file's data. */
static bool bind_input(OnnxImporter *im, const BrazeOnnxBinding *b) {
  const Onnx__ValueInfoProto *vi = graph_input(im, b->name);
  OnnxValue *existing = onnx_lookup(im, b->name);
  if (!vi || (existing && existing->is_const))
    return onnx_file_error(im, "--bind %s: the model has no graph input of that name%s", b->name,
                           existing ? " (it is an initializer)" : "");
  OnnxType type;
  bool has_shape = false;
  BrazeDType want;
  if (!value_info_type(im, vi, "graph input", true, &type, &has_shape))
    return false;
  if (!host_dtype(im, type.dtype, &want))
    return onnx_file_error(im, "--bind %s: inputs of %s cannot be bound", b->name, onnx_dtype_name(type.dtype));
  BrazeHostTensor t = {0};
  BrazeStr error = {0};
  bool ok = braze_npy_read_as(b->npy_path, want == BRAZE_DTYPE_U16 ? BRAZE_DTYPE_U16 : BRAZE_DTYPE_BF16, &t, &error);
  if (!ok)
    onnx_file_error(im, "--bind %s: %s", b->name, braze_str_cstr(&error));
  ok = ok && check_binding(im, b, &type, &t, want);
  if (ok) {
    type.rank = (size_t)t.rank;
    for (int d = 0; d < t.rank; ++d)
      type.dims[d] = t.shape[d];
    size_t nbytes = (size_t)braze_tensor_numel(&t) * braze_dtype_size(t.dtype);
    void *raw = malloc(nbytes + 1);
    braze_tensor_pack(&t, raw);
    OnnxData data = {raw, nbytes, raw};
    im->loc = named_loc(im, b->name, 0);
    ok = onnx_define_constant(im, b->name, &type, &data);
  }
  braze_tensor_free(&t);
  braze_str_free(&error);
  return ok;
}

static bool bind_inputs(OnnxImporter *im, const BrazeOnnxOptions *opts) {
  for (size_t i = 0; opts && i < opts->num_bindings; ++i)
    if (!bind_input(im, &opts->bindings[i]))
      return false;
  return true;
}

/* Graph inputs that are not initializers become the block's arguments. (An
 * initializer listed as an input too, the pre-IR-4 convention for defaults, stays a
 * constant.) */
static bool define_inputs(OnnxImporter *im, const BrazeOnnxOptions *opts, MlirRegion region) {
  const Onnx__GraphProto *g = im->model->graph;
  size_t n = 0;
  OnnxType *types = calloc(g->n_input + 1, sizeof *types);
  MlirType *mtypes = calloc(g->n_input + 1, sizeof *mtypes);
  MlirLocation *locs = calloc(g->n_input + 1, sizeof *locs);
  const char **names = calloc(g->n_input + 1, sizeof *names);
  bool ok = check_override_names(im, opts);
  for (size_t i = 0; i < g->n_input && ok; ++i) {
    const char *name = onnx_str_or_empty(g->input[i]->name);
    OnnxValue *existing = onnx_lookup(im, name);
    if (existing && existing->is_const)
      continue;
    if (!(ok = input_type(im, g->input[i], opts, &types[n])))
      break;
    mtypes[n] = onnx_tensor_type(im->ctx, &types[n]);
    locs[n] = named_loc(im, name, 0);
    names[n++] = name;
  }
  if (ok) {
    im->body = mlirBlockCreate((intptr_t)n, mtypes, locs);
    mlirRegionAppendOwnedBlock(region, im->body);
    for (size_t i = 0; i < n && ok; ++i) {
      OnnxValue *v = onnx_define_value(im, names[i], &types[i]);
      ok = v != NULL;
      if (v)
        v->value = mlirBlockGetArgument(im->body, (intptr_t)i);
    }
  }
  free(types);
  free(mtypes);
  free(locs);
  free(names);
  return ok;
}

const OnnxOpEntry *onnx_find_op(const char *op_type) {
  const OnnxOpEntry *tables[] = {onnx_elementwise_ops, onnx_reduce_ops,     onnx_shape_ops,
                                 onnx_matmul_ops,      onnx_fold_ops,       onnx_activation_ops,
                                 onnx_misc_ops,        onnx_index_ops,      onnx_layout_ops,
                                 onnx_pool_ops,        onnx_scatter_ops,    onnx_contract_ops,
                                 onnx_conv_ops};
  for (size_t t = 0; t < sizeof tables / sizeof *tables; ++t)
    for (const OnnxOpEntry *e = tables[t]; e->op_type; ++e)
      if (strcmp(e->op_type, op_type) == 0)
        return e;
  return NULL;
}

/* Outputs a converter did not produce (optional extra outputs such as
 * LayerNormalization's Mean) are recorded so a consumer gets a clear error. */
static bool mark_unproduced_outputs(OnnxImporter *im) {
  for (size_t j = 0; j < im->node->n_output; ++j) {
    const char *name = im->node->output[j];
    if (!name || !name[0] || onnx_lookup(im, name))
      continue;
    OnnxType none = {0};
    OnnxValue *v = onnx_define_value(im, name, &none);
    if (!v)
      return false;
    v->unsupported_by = im->node;
    v->unsupported_index = j;
  }
  return true;
}

static bool convert_node(OnnxImporter *im, size_t index) {
  const Onnx__NodeProto *node = im->model->graph->node[index];
  im->node = node;
  im->node_index = index;
  /* Location: NameLoc(node name) around model.onnx:0:(index + 1); unnamed nodes
   * are called OpType_index. Column 0 is left to the graph itself. */
  char label[160];
  const char *name = node->name && node->name[0] ? node->name : NULL;
  if (!name)
    snprintf(label, sizeof label, "%s_%zu", onnx_str_or_empty(node->op_type), index);
  im->loc = named_loc(im, name ? name : label, (unsigned)index + 1);
  const char *domain = onnx_str_or_empty(node->domain);
  if (domain[0] && strcmp(domain, "ai.onnx") != 0)
    return onnx_node_error(im, "op domain '%s' is not supported (only the default ONNX domain)", domain);
  const char *op_type = onnx_str_or_empty(node->op_type);
  const OnnxOpEntry *entry = onnx_find_op(op_type);
  if (!entry)
    return onnx_node_error(im, "unsupported op type '%s'", op_type);
  if (node->n_output == 0) /* every ONNX op has at least one output */
    return onnx_node_error(im, "the node has no outputs");
  if (im->opset < entry->min_opset)
    return onnx_node_error(im, "%s as of opset %lld is not supported (braze imports %s from opset %d)",
                           op_type, (long long)im->opset, op_type, entry->min_opset);
  bool folded = false;
  if (!onnx_try_fold(im, &folded))
    return false;
  return (folded || entry->convert(im)) && mark_unproduced_outputs(im);
}

/* Check a computed output type against the declared one (when declared). */
static bool check_output(OnnxImporter *im, const Onnx__ValueInfoProto *vi, const OnnxValue *v) {
  OnnxType declared;
  bool has_shape = false;
  if (!value_info_type(im, vi, "graph output", true, &declared, &has_shape))
    return false;
  bool same = declared.dtype == v->type.dtype && (!has_shape || declared.rank == v->type.rank);
  for (size_t i = 0; same && has_shape && i < declared.rank; ++i)
    same = declared.dims[i] < 0 || declared.dims[i] == v->type.dims[i];
  if (same)
    return true;
  char a[128], b[128];
  return onnx_file_error(im, "graph output '%s' is declared as %s but computes %s", vi->name,
                         has_shape ? onnx_type_str(&declared, a, sizeof a) : onnx_dtype_name(declared.dtype),
                         onnx_type_str(&v->type, b, sizeof b));
}

/* func.return of the graph outputs; fills the result types. */
static bool build_return(OnnxImporter *im, MlirType *result_types) {
  const Onnx__GraphProto *g = im->model->graph;
  MlirValue *results = calloc(g->n_output + 1, sizeof *results);
  bool ok = true;
  im->node = NULL;
  for (size_t i = 0; i < g->n_output && ok; ++i) {
    const char *name = onnx_str_or_empty(g->output[i]->name);
    OnnxValue *v = onnx_lookup(im, name);
    if (!v || v->unsupported_by) {
      ok = onnx_file_error(im, "graph output '%s' is not computed by any imported node", name);
      break;
    }
    ok = check_output(im, g->output[i], v);
    im->loc = named_loc(im, name, 0);
    results[i] = onnx_materialize(im, v);
    result_types[i] = onnx_tensor_type(im->ctx, &v->type);
    ok = ok && !mlirValueIsNull(results[i]); /* a constant that cannot be materialized said why */
  }
  if (ok) {
    MlirOperationState st = mlirOperationStateGet(braze_ref("func.return"), onnx_file_loc(im, 0));
    mlirOperationStateAddOperands(&st, (intptr_t)g->n_output, results);
    mlirBlockAppendOwnedOperation(im->body, mlirOperationCreate(&st));
  }
  free(results);
  return ok;
}

/* The function is named after the graph, as a C identifier (it names the compiled
 * entry point); "model" when the graph has no usable name. */
static void function_name(const char *graph_name, char *out, size_t n) {
  size_t j = 0;
  for (size_t i = 0; graph_name[i] && j + 1 < n; ++i) {
    char c = graph_name[i];
    bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (j == 0 && c >= '0' && c <= '9')
      out[j++] = '_';
    out[j++] = alnum ? c : '_';
  }
  out[j] = '\0';
  if (!j)
    snprintf(out, n, "model");
}

static MlirOperation build_function(OnnxImporter *im, MlirRegion region, const MlirType *results,
                                    size_t num_results) {
  intptr_t nargs = mlirBlockGetNumArguments(im->body);
  MlirType *args = calloc((size_t)nargs + 1, sizeof *args);
  for (intptr_t i = 0; i < nargs; ++i)
    args[i] = mlirValueGetType(mlirBlockGetArgument(im->body, i));
  MlirType fn_type = mlirFunctionTypeGet(im->ctx, nargs, args, (intptr_t)num_results, results);
  free(args);
  char name[256];
  function_name(onnx_str_or_empty(im->model->graph->name), name, sizeof name);
  MlirNamedAttribute attrs[2] = {
      mlirNamedAttributeGet(mlirIdentifierGet(im->ctx, braze_ref("sym_name")),
                            mlirStringAttrGet(im->ctx, braze_ref(name))),
      mlirNamedAttributeGet(mlirIdentifierGet(im->ctx, braze_ref("function_type")),
                            mlirTypeAttrGet(fn_type)),
  };
  MlirOperationState st = mlirOperationStateGet(braze_ref("func.func"), onnx_file_loc(im, 0));
  mlirOperationStateAddAttributes(&st, 2, attrs);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  return mlirOperationCreate(&st);
}

static bool import_graph(OnnxImporter *im, const BrazeOnnxOptions *opts, MlirModule *out) {
  MlirRegion region = mlirRegionCreate();
  bool ok = define_initializers(im) && bind_inputs(im, opts) && define_inputs(im, opts, region);
  for (size_t i = 0; ok && i < im->model->graph->n_node; ++i)
    ok = convert_node(im, i);
  size_t n_out = im->model->graph->n_output;
  MlirType *results = calloc(n_out + 1, sizeof *results);
  ok = ok && build_return(im, results);
  if (!ok) {
    free(results);
    mlirRegionDestroy(region);
    return false;
  }
  MlirOperation fn = build_function(im, region, results, n_out);
  free(results);
  MlirModule module = mlirModuleCreateEmpty(onnx_file_loc(im, 0));
  mlirBlockAppendOwnedOperation(mlirModuleGetBody(module), fn);
  MlirOperation op = mlirModuleGetOperation(module);
  if (!mlirOperationVerify(op) || !braze_graph_verify(op)) {
    mlirModuleDestroy(module);
    im->node = NULL;
    return onnx_file_error(im, "internal error: the imported module does not verify");
  }
  *out = module;
  return true;
}

bool braze_onnx_import_bytes(MlirContext ctx, const void *bytes, size_t len, const char *name,
                             const BrazeOnnxOptions *opts, MlirModule *out) {
  OnnxImporter im = {.ctx = ctx, .path = name};
  im.loc = onnx_file_loc(&im, 0);
  OnnxWireStats wire;
  onnx_wire_scan(bytes, len, &wire);
  if (wire.depth > ONNX_MAX_MESSAGE_DEPTH)
    return onnx_file_error(&im, "the model nests messages (graphs in attributes, ...) deeper than %d levels; "
                                "braze reads at most %d", ONNX_MAX_MESSAGE_DEPTH, ONNX_MAX_MESSAGE_DEPTH);
  if (wire.nodes > BRAZE_ONNX_MAX_NODES || wire.tensors > BRAZE_ONNX_MAX_NODES)
    return onnx_file_error(&im, "the model has %zu nodes and %zu tensors; braze imports at most %d of each",
                           wire.nodes, wire.tensors, BRAZE_ONNX_MAX_NODES);
  im.model = onnx__model_proto__unpack(NULL, len, (const uint8_t *)bytes);
  if (!im.model)
    return onnx_file_error(&im, "not a valid ONNX model (the protobuf is truncated or corrupted)");
  bool ok = check_opset(&im) && import_graph(&im, opts, out);
  onnx_values_free(&im);
  onnx__model_proto__free_unpacked(im.model, NULL);
  return ok;
}

bool braze_onnx_import_with(MlirContext ctx, const char *path, const BrazeOnnxOptions *opts,
                            MlirModule *out) {
  size_t len = 0;
  char *bytes = braze_read_file(path, &len);
  if (!bytes) {
    int err = errno;
    OnnxImporter im = {.ctx = ctx, .path = path};
    im.loc = onnx_file_loc(&im, 0);
    return onnx_file_error(&im, "cannot read the model: %s", strerror(err));
  }
  bool ok = braze_onnx_import_bytes(ctx, bytes, len, path, opts, out);
  free(bytes);
  return ok;
}

bool braze_onnx_import(MlirContext ctx, const char *path, MlirModule *out) {
  return braze_onnx_import_with(ctx, path, NULL, out);
}

bool braze_onnx_parse_shape(const char *spec, BrazeOnnxShape *out) {
  const char *eq = strrchr(spec, '=');
  if (!eq || eq == spec || (size_t)(eq - spec) >= sizeof out->name)
    return false;
  memset(out, 0, sizeof *out);
  memcpy(out->name, spec, (size_t)(eq - spec));
  const char *p = eq + 1;
  while (*p) {
    if (out->rank == BRAZE_ONNX_MAX_RANK || *p < '0' || *p > '9')
      return false;
    char *end;
    errno = 0;
    long long d = strtoll(p, &end, 10);
    if (errno || d <= 0 || (*end && *end != 'x') || (*end == 'x' && !end[1]))
      return false;
    out->dims[out->rank++] = d;
    p = *end ? end + 1 : end;
  }
  return true;
}

bool braze_onnx_is_model_path(const char *path) {
  size_t n = strlen(path);
  return n > 5 && strcmp(path + n - 5, ".onnx") == 0;
}

/* The module's `{-# dialect_resources ... #-}` section (large constants), or nothing.
 * Printed from a non-local-scope print without locations, where the section ends
 * the text and "\n{-#" cannot occur earlier (no locations, sanitized keys). */
static void append_resources(MlirOperation op, BrazeStr *out) {
  BrazeStr full = {0};
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  mlirOperationPrintWithFlags(op, flags, braze_str_callback, &full);
  mlirOpPrintingFlagsDestroy(flags);
  const char *text = braze_str_cstr(&full), *section = NULL;
  for (const char *p = strstr(text, "\n{-#"); p; p = strstr(p + 1, "\n{-#"))
    section = p;
  if (section)
    braze_str_puts(out, section + 1);
  braze_str_free(&full);
}

bool braze_onnx_print_module(MlirModule module, char **text, size_t *len) {
  BrazeStr s = {0};
  MlirOperation op = mlirModuleGetOperation(module);
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  mlirOpPrintingFlagsEnableDebugInfo(flags, /*enable=*/true, /*prettyForm=*/false);
  /* Local scope prints each location inline (one line per op says which ONNX node
   * it came from) instead of #loc aliases before the module, which braze's parser
   * does not accept; but it leaves out the resources, appended separately. */
  mlirOpPrintingFlagsUseLocalScope(flags);
  mlirOperationPrintWithFlags(op, flags, braze_str_callback, &s);
  mlirOpPrintingFlagsDestroy(flags);
  braze_str_puts(&s, "\n");
  append_resources(op, &s);
  *text = s.data;
  *len = s.len;
  return s.data != NULL;
}
