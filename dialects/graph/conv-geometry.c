/* graph.conv / graph.conv_transpose geometry (see conv-geometry.h). */
#include "dialects/graph/conv-geometry.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static bool fail(char *why, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(char *why, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, n, fmt, ap);
  va_end(ap);
  return false;
}

/* Strides, dilations and pads above this are refused: the size arithmetic stays far
 * from int64 overflow (no real model comes near). */
#define MAX_ATTR_VALUE ((int64_t)1 << 31)

/* An i64 array attribute of exactly `want` entries, each in [min, MAX_ATTR_VALUE]. */
static bool array_attr(MlirOperation op, const char *name, int64_t *out, int want, int64_t min, char *why, size_t n) {
  int64_t buf[2 * BRAZE_CONV_MAX_SPATIAL + 1];
  intptr_t got = braze_attr_i64_array(op, name, buf, sizeof buf / sizeof *buf);
  if (got < 0)
    return fail(why, n, "expects an array<i64> attribute '%s'", name);
  if (got != want)
    return fail(why, n, "attribute '%s' has %lld entries; expected %d (one per spatial dim%s)", name, (long long)got,
                want, want > 0 && strcmp(name, "pads") == 0 ? ", begins then ends" : "");
  for (int i = 0; i < want; ++i) {
    if (buf[i] < min || buf[i] > MAX_ATTR_VALUE)
      return fail(why, n, "attribute '%s' entry %d is %lld; expected %lld to 2^31", name, i, (long long)buf[i],
                  (long long)min);
    out[i] = buf[i];
  }
  return true;
}

static bool read_attrs(MlirOperation op, BrazeConvGeometry *g, char *why, size_t n) {
  int64_t pads[2 * BRAZE_CONV_MAX_SPATIAL];
  if (!array_attr(op, "strides", g->stride, g->n, 1, why, n) || !array_attr(op, "dilations", g->dilation, g->n, 1, why, n) ||
      !array_attr(op, "pads", pads, 2 * g->n, 0, why, n))
    return false;
  for (int i = 0; i < g->n; ++i) {
    g->pad_begin[i] = pads[i];
    g->pad_end[i] = pads[g->n + i];
    g->output_padding[i] = 0;
  }
  if (g->transpose && !array_attr(op, "output_padding", g->output_padding, g->n, 0, why, n))
    return false;
  MlirAttribute groups = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("groups"));
  if (mlirAttributeIsNull(groups) || !braze_attr_i64(op, "groups", &g->groups))
    return fail(why, n, "expects an integer attribute 'groups'");
  if (g->groups < 1)
    return fail(why, n, "groups is %lld; expected >= 1", (long long)g->groups);
  return true;
}

/* Channels: x [N, C, ...], conv w [OC, C/groups, ...], conv_transpose w [C, OC/groups, ...]. */
static bool read_channels(const int64_t *x, const int64_t *w, BrazeConvGeometry *g, char *why, size_t n) {
  g->batch = x[0];
  g->in_channels = x[1];
  if (g->in_channels % g->groups != 0)
    return fail(why, n, "input channels (%lld) are not a multiple of groups (%lld)", (long long)g->in_channels,
                (long long)g->groups);
  if (!g->transpose) {
    if (w[0] % g->groups != 0)
      return fail(why, n, "weight dim 0 (output channels, %lld) is not a multiple of groups (%lld)", (long long)w[0],
                  (long long)g->groups);
    if (w[1] != g->in_channels / g->groups)
      return fail(why, n, "weight dim 1 is %lld; expected input channels / groups = %lld", (long long)w[1],
                  (long long)(g->in_channels / g->groups));
    g->out_channels = w[0];
    return true;
  }
  if (w[0] != g->in_channels)
    return fail(why, n, "weight dim 0 is %lld; expected the input channels %lld", (long long)w[0],
                (long long)g->in_channels);
  g->out_channels = w[1] * g->groups;
  return true;
}

static bool spatial_sizes(BrazeConvGeometry *g, char *why, size_t n) {
  for (int i = 0; i < g->n; ++i) {
    int64_t span = g->dilation[i] * (g->kernel[i] - 1) + 1;
    if (g->transpose) {
      g->out[i] = (g->in[i] - 1) * g->stride[i] + span - g->pad_begin[i] - g->pad_end[i] + g->output_padding[i];
    } else {
      int64_t padded = g->in[i] + g->pad_begin[i] + g->pad_end[i];
      if (padded < span)
        return fail(why, n, "spatial dim %d: the kernel (%lld with dilation) is larger than the padded input (%lld)",
                    i, (long long)span, (long long)padded);
      g->out[i] = (padded - span) / g->stride[i] + 1;
    }
    if (g->out[i] < 1)
      return fail(why, n, "spatial dim %d: the result would have size %lld", i, (long long)g->out[i]);
  }
  return true;
}

bool braze_conv_geometry(MlirOperation op, const int64_t *x, intptr_t x_rank, const int64_t *w, intptr_t w_rank,
                         BrazeConvGeometry *g, char *why, size_t why_size) {
  memset(g, 0, sizeof *g);
  const char *m = braze_graph_op_mnemonic(op);
  g->transpose = m && strcmp(m, "conv_transpose") == 0;
  if (x_rank < 3 || x_rank > BRAZE_MAX_RANK)
    return fail(why, why_size, "input has rank %lld; expected [N, C, spatial...] of rank 3 to %d", (long long)x_rank,
                BRAZE_MAX_RANK);
  if (w_rank != x_rank)
    return fail(why, why_size, "weight has rank %lld; expected the input's rank %lld", (long long)w_rank,
                (long long)x_rank);
  g->n = (int)x_rank - 2;
  for (int i = 0; i < g->n; ++i) {
    g->in[i] = x[2 + i];
    g->kernel[i] = w[2 + i];
    if (g->kernel[i] < 1)
      return fail(why, why_size, "weight spatial dim %d is empty", i);
  }
  return read_attrs(op, g, why, why_size) && read_channels(x, w, g, why, why_size) && spatial_sizes(g, why, why_size);
}

intptr_t braze_conv_result_shape(const BrazeConvGeometry *g, int64_t *dims) {
  dims[0] = g->batch;
  dims[1] = g->out_channels;
  for (int i = 0; i < g->n; ++i)
    dims[2 + i] = g->out[i];
  return g->n + 2;
}
