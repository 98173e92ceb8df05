/* Indexed writes and N-d gathers as compositions, by the one-hot masks of
 * import/onnx-ops-index.c: ScatterElements/Scatter and ScatterND (reduction none or add:
 * each data position takes the sum of the updates aimed at it where any is, so
 * duplicate indices, undefined for "none" in ONNX, add up), and GatherND
 * (batch_dims 0): the index tuples flattened to one linear index over the
 * leading data dims, which graph.gather reads along the flattened axis. */
#include <string.h>

#include "import/onnx-compose.h"

enum {
  DT_BOOL = ONNX__TENSOR_PROTO__DATA_TYPE__BOOL,
  DT_INT32 = ONNX__TENSOR_PROTO__DATA_TYPE__INT32,
  DT_INT64 = ONNX__TENSOR_PROTO__DATA_TYPE__INT64,
};

static const OcVal oc_none = {{NULL}, {0}};

static OcVal wrap(OnnxImporter *im, OcVal idx, int64_t k) {
  return oc_select(im, oc_cmp_s(im, "lt", idx, 0), oc_binary_s(im, "add", idx, (double)k), idx);
}

/* Whether any mask element along `axis` is set (keepdim false). */
static OcVal any_along(OnnxImporter *im, OcVal mask, int64_t axis) {
  OcVal ones = oc_select(im, mask, oc_scalar(im, DT_INT32, 1), oc_scalar(im, DT_INT32, 0));
  return oc_cmp_s(im, "gt", oc_reduce(im, "reduce_max", ones, &axis, 1, false), 0);
}

/* Reduction "none" (the default) or "add"; others refused. Sets *add. */
static bool scatter_reduction(OnnxImporter *im, bool *add) {
  char reduction_buf[32];
  const char *reduction = onnx_attr_string(im->node, "reduction", "none", reduction_buf, sizeof reduction_buf);
  *add = strcmp(reduction, "add") == 0;
  if (!*add && strcmp(reduction, "none") != 0 && reduction[0])
    return onnx_node_error(im, "reduction '%s' is not supported (none, add)", reduction);
  return true;
}

/* value/hit of a smaller shape than the data (ScatterElements' indices may be
 * smaller off the axis) padded at the end of each dim with 0 / false. */
static OcVal pad_to(OnnxImporter *im, OcVal x, const OnnxType *to, double fill) {
  for (size_t d = 0; d < to->rank && oc_ok(x); ++d) {
    if (x.t.dims[d] == to->dims[d])
      continue;
    OnnxType t = x.t;
    t.dims[d] = to->dims[d] - x.t.dims[d];
    x = oc_concat(im, x, (OcVal){onnx_build_splat(im, &t, fill), t}, d);
  }
  return x;
}

static OcVal combine(OnnxImporter *im, bool add, OcVal hit, OcVal value, OcVal data) {
  return add ? oc_binary(im, "add", data, value) : oc_select(im, hit, value, data);
}

/* ScatterElements: rank r + 1 tensors [S with the axis dim K, J] where J = the
 * indices' extent along the axis (moved last). */
static bool convert_scatter_elements(OnnxImporter *im) {
  OcVal data = oc_input(im, 0), idx = oc_input(im, 1), upd = oc_input(im, 2);
  bool add = false;
  if (!oc_ok(data) || !oc_ok(idx) || !oc_ok(upd) || !scatter_reduction(im, &add))
    return false;
  size_t r = data.t.rank;
  int64_t axis;
  if (!onnx_norm_axis(im, onnx_attr_int(im->node, "axis", 0), r, "axis", &axis))
    return false;
  if (data.t.dtype == DT_BOOL || (idx.t.dtype != DT_INT64 && idx.t.dtype != DT_INT32) || idx.t.rank != r ||
      !onnx_same_shape(&idx.t, &upd.t) || upd.t.dtype != data.t.dtype || r + 1 > ONNX_MAX_RANK)
    return onnx_node_error(im, "expects numeric data, integer indices of the data's rank and updates of the "
                               "indices' shape and the data's type");
  for (size_t d = 0; d < r; ++d)
    if ((int64_t)d != axis && idx.t.dims[d] > data.t.dims[d])
      return onnx_node_error(im, "indices dim %zu exceeds the data's", d);
  int64_t k = data.t.dims[axis], perm[ONNX_MAX_RANK], expanded[ONNX_MAX_RANK];
  for (size_t d = 0, p = 0; d < r; ++d)
    if ((int64_t)d != axis)
      perm[p++] = (int64_t)d;
  perm[r - 1] = axis;
  for (size_t d = 0; d < r; ++d)
    expanded[d] = (int64_t)d == axis ? 1 : idx.t.dims[d];
  expanded[r] = idx.t.dims[axis];
  OcVal moved_idx = idx, moved_upd = upd;
  if (axis + 1 != (int64_t)r) {
    moved_idx.v = onnx_build_transpose(im, idx.v, &idx.t, perm, &moved_idx.t);
    moved_upd.v = onnx_build_transpose(im, upd.v, &upd.t, perm, &moved_upd.t);
  }
  OcVal idx_e = oc_reshape(im, wrap(im, moved_idx, k), expanded, r + 1);
  OcVal upd_e = oc_reshape(im, moved_upd, expanded, r + 1);
  int64_t iota_dims[ONNX_MAX_RANK];
  for (size_t d = 0; d <= r; ++d)
    iota_dims[d] = (int64_t)d == axis ? k : 1;
  OcVal mask = oc_cmp(im, "eq", idx_e, oc_iota(im, idx.t.dtype, iota_dims, r + 1, (size_t)axis));
  int64_t last = (int64_t)r;
  OcVal value = oc_reduce(im, "reduce_sum", oc_select(im, mask, upd_e, oc_scalar(im, data.t.dtype, 0)), &last, 1,
                          false);
  OcVal hit = any_along(im, mask, last);
  value = pad_to(im, value, &data.t, 0);
  hit = pad_to(im, hit, &data.t, 0);
  return oc_output(im, 0, combine(im, add, hit, value, data));
}

/* The linear index over the first q data dims of index tuples [U..., q], as [M]. */
static OcVal linear_index(OnnxImporter *im, OcVal idx, const OnnxType *data, size_t q, int64_t m) {
  OcVal lin = oc_none;
  int64_t stride = 1;
  size_t last = idx.t.rank - 1;
  for (size_t i = q; i-- > 0;) {
    OcVal part = wrap(im, oc_slice(im, idx, last, (int64_t)i, (int64_t)i + 1, 1), data->dims[i]);
    part = oc_binary_s(im, "mul", part, (double)stride);
    lin = oc_ok(lin) ? oc_binary(im, "add", lin, part) : part;
    stride *= data->dims[i];
  }
  return oc_reshape(im, lin, &m, 1);
}

/* Shared checks and sizes of ScatterND/GatherND: q = the tuple length, L = the
 * product of the first q data dims, M = the number of tuples. */
static bool nd_sizes(OnnxImporter *im, OcVal data, OcVal idx, size_t *q, int64_t *l, int64_t *m) {
  if (idx.t.dtype != DT_INT64 || idx.t.rank < 1)
    return onnx_node_error(im, "indices must be an int64 tensor of rank >= 1");
  if (data.t.dtype == DT_BOOL)
    return onnx_node_error(im, "boolean data is not supported");
  *q = (size_t)idx.t.dims[idx.t.rank - 1];
  if (*q < 1 || *q > data.t.rank)
    return onnx_node_error(im, "index tuples of length %zu for data of rank %zu", *q, data.t.rank);
  if (2 + data.t.rank - *q > ONNX_MAX_RANK)
    return onnx_node_error(im, "data of rank %zu is not supported here", data.t.rank);
  *l = 1;
  *m = 1;
  for (size_t d = 0; d < *q; ++d)
    *l *= data.t.dims[d];
  for (size_t d = 0; d + 1 < idx.t.rank; ++d)
    *m *= idx.t.dims[d];
  return true;
}

/* [lead..., rest of the data dims after q]. */
static size_t nd_shape(const OnnxType *data, size_t q, const int64_t *lead, size_t n_lead, int64_t *out) {
  size_t rank = 0;
  for (size_t i = 0; i < n_lead; ++i)
    out[rank++] = lead[i];
  for (size_t d = q; d < data->rank; ++d)
    out[rank++] = data->dims[d];
  return rank;
}

static bool convert_scatter_nd(OnnxImporter *im) {
  OcVal data = oc_input(im, 0), idx = oc_input(im, 1), upd = oc_input(im, 2);
  bool add = false;
  size_t q;
  int64_t l, m;
  if (!oc_ok(data) || !oc_ok(idx) || !oc_ok(upd) || !scatter_reduction(im, &add) || !nd_sizes(im, data, idx, &q, &l, &m))
    return false;
  int64_t s_data[ONNX_MAX_RANK], s_upd[ONNX_MAX_RANK], s_lin[ONNX_MAX_RANK], s_iota[ONNX_MAX_RANK];
  size_t rank_data = nd_shape(&data.t, q, &l, 1, s_data);
  int64_t lead[2] = {1, m};
  size_t rank = nd_shape(&data.t, q, lead, 2, s_upd);
  if (onnx_num_elements(&upd.t) != m * onnx_num_elements(&data.t) / l || upd.t.dtype != data.t.dtype)
    return onnx_node_error(im, "the updates do not match the indices and the data");
  for (size_t d = 0; d < rank; ++d) {
    s_lin[d] = d == 1 ? m : 1;
    s_iota[d] = d == 0 ? l : 1;
  }
  OcVal lin = oc_reshape(im, linear_index(im, idx, &data.t, q, m), s_lin, rank);
  OcVal mask = oc_cmp(im, "eq", lin, oc_iota(im, DT_INT64, s_iota, rank, 0));
  OcVal upd_f = oc_reshape(im, upd, s_upd, rank);
  int64_t axis = 1;
  OcVal value = oc_reduce(im, "reduce_sum", oc_select(im, mask, upd_f, oc_scalar(im, data.t.dtype, 0)), &axis, 1,
                          false);
  OcVal hit = any_along(im, mask, axis);
  OcVal data_f = oc_reshape(im, data, s_data, rank_data);
  return oc_output(im, 0, oc_reshape(im, combine(im, add, hit, value, data_f), data.t.dims, data.t.rank));
}

static bool convert_gather_nd(OnnxImporter *im) {
  OcVal data = oc_input(im, 0), idx = oc_input(im, 1);
  size_t q;
  int64_t l, m;
  if (!oc_ok(data) || !oc_ok(idx) || !nd_sizes(im, data, idx, &q, &l, &m))
    return false;
  if (onnx_attr_int(im->node, "batch_dims", 0) != 0)
    return onnx_node_error(im, "batch_dims other than 0 are not supported");
  int64_t s_data[ONNX_MAX_RANK], s_out[ONNX_MAX_RANK];
  size_t rank = nd_shape(&data.t, q, &l, 1, s_data);
  size_t rank_out = nd_shape(&data.t, q, idx.t.dims, idx.t.rank - 1, s_out);
  if (rank_out > ONNX_MAX_RANK)
    return onnx_node_error(im, "the result would have rank %zu", rank_out);
  OcVal lin = linear_index(im, idx, &data.t, q, m), flat = oc_reshape(im, data, s_data, rank);
  if (!oc_ok(lin) || !oc_ok(flat))
    return false;
  OnnxType gathered = flat.t;
  gathered.dims[0] = m;
  OnnxNamedAttr attr = {"axis", onnx_i64_attr(im, 0)};
  MlirValue operands[2] = {flat.v, lin.v};
  OcVal picked = {onnx_build(im, "gather", &gathered, operands, 2, &attr, 1), gathered};
  return oc_output(im, 0, oc_reshape(im, picked, s_out, rank_out));
}

const OnnxOpEntry onnx_scatter_ops[] = {
    {"ScatterElements", convert_scatter_elements, 11},
    {"Scatter", convert_scatter_elements, 9},
    {"ScatterND", convert_scatter_nd, 11},
    {"GatherND", convert_gather_nd, 11},
    {NULL, NULL, 0},
};
