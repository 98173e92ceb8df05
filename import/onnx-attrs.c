/* Node attributes and axis normalization. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/onnx-internal.h"

const Onnx__AttributeProto *onnx_attr(const Onnx__NodeProto *node, const char *name) {
  for (size_t i = 0; i < node->n_attribute; ++i) {
    const Onnx__AttributeProto *a = node->attribute[i];
    if (a->name && strcmp(a->name, name) == 0)
      return a;
  }
  return NULL;
}

int64_t onnx_attr_int(const Onnx__NodeProto *node, const char *name, int64_t dflt) {
  const Onnx__AttributeProto *a = onnx_attr(node, name);
  return a && a->has_i ? a->i : dflt;
}

float onnx_attr_float(const Onnx__NodeProto *node, const char *name, float dflt) {
  const Onnx__AttributeProto *a = onnx_attr(node, name);
  return a && a->has_f ? a->f : dflt;
}

const char *onnx_attr_string(const Onnx__NodeProto *node, const char *name, const char *dflt,
                             char *buf, size_t n) {
  const Onnx__AttributeProto *a = onnx_attr(node, name);
  if (!a || !a->has_s)
    return dflt;
  size_t len = a->s.len < n - 1 ? a->s.len : n - 1;
  if (len) /* an empty bytes field may have no data pointer */
    memcpy(buf, a->s.data, len);
  buf[len] = '\0';
  return buf;
}

bool onnx_attr_ints(OnnxImporter *im, const char *name, int64_t *out, size_t max, size_t *count,
                    bool *present) {
  const Onnx__AttributeProto *a = onnx_attr(im->node, name);
  *present = a != NULL;
  *count = 0;
  if (!a)
    return true;
  if (a->n_ints > max)
    return onnx_node_error(im, "attribute '%s' has %zu entries (at most %zu)", name, a->n_ints, max);
  if (a->n_ints) /* no ints: no array (memcpy from NULL is undefined even for 0 bytes) */
    memcpy(out, a->ints, a->n_ints * sizeof *out);
  *count = a->n_ints;
  return true;
}

bool onnx_attr_ints_exact(OnnxImporter *im, const char *name, int64_t *out, size_t want, int64_t dflt, bool *given) {
  enum { MOST = 2 * (ONNX_MAX_RANK - 2) }; /* a pads list: two per spatial dim */
  size_t n = 0;
  bool present = false;
  int64_t buf[MOST]; /* `out` may hold only `want` entries: read into room for the most */
  if (want > MOST)
    return onnx_node_error(im, "attribute '%s': %zu entries expected (at most %d)", name, want, MOST);
  if (!onnx_attr_ints(im, name, buf, MOST, &n, &present))
    return false;
  if (given)
    *given = present;
  if (!present) {
    for (size_t i = 0; i < want; ++i)
      out[i] = dflt;
    return true;
  }
  if (n != want)
    return onnx_node_error(im, "attribute '%s' has %zu entries, expected %zu", name, n, want);
  memcpy(out, buf, want * sizeof *out);
  return true;
}

bool onnx_norm_axis(OnnxImporter *im, int64_t axis, size_t rank, const char *what, int64_t *out) {
  int64_t r = (int64_t)rank;
  if (axis < -r || axis >= r)
    return onnx_node_error(im, "%s %lld is out of range for rank %zu", what, (long long)axis, rank);
  *out = axis < 0 ? axis + r : axis;
  return true;
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

bool onnx_norm_axes(OnnxImporter *im, int64_t *axes, size_t n, size_t rank, const char *what) {
  for (size_t i = 0; i < n; ++i)
    if (!onnx_norm_axis(im, axes[i], rank, what, &axes[i]))
      return false;
  qsort(axes, n, sizeof *axes, cmp_i64);
  for (size_t i = 1; i < n; ++i)
    if (axes[i] == axes[i - 1])
      return onnx_node_error(im, "%s repeat axis %lld", what, (long long)axes[i]);
  return true;
}
