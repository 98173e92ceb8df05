/* The reference interpreter: conv and conv_transpose straight from their definitions
 * (docs/dialect-graph.md "Convolutions"), in double precision:
 *   conv:           y[n, oc, o] = sum_{c, k} x[n, g Cg + c, o s + k d - pb] w[oc, c, k]
 *   conv_transpose: y[n, g OCg + oc, i s + k d - pb] += x[n, g Cg + c, i] w[g Cg + c, oc, k]
 * with g the group, Cg = C / groups, OCg = OC / groups, and o, i, k, s, d, pb vectors
 * over the spatial dims (positions outside the input read as 0, outside the result
 * are dropped). The result's spatial sizes come from its type; the attributes are read
 * here and checked against the shapes (no code shared with the passes). */
#include <string.h>

#include "dialects/graph/graph.h"
#include "reference/internal.h"

enum { MAX_SPATIAL = BRAZE_TENSOR_MAX_RANK - 2 };

typedef struct {
  int n; /* spatial dims */
  int64_t groups, cg, ocg;
  int64_t s[MAX_SPATIAL], d[MAX_SPATIAL], pb[MAX_SPATIAL], pe[MAX_SPATIAL], op[MAX_SPATIAL];
} Attrs;

static bool read_array(MlirOperation op, const char *name, int64_t *out, int want, int64_t min) {
  int64_t buf[2 * MAX_SPATIAL + 1];
  intptr_t got = braze_attr_i64_array(op, name, buf, sizeof buf / sizeof *buf);
  if (got != want)
    return ref_fail(op, "expected attribute '%s' with %d entries", name, want);
  for (int i = 0; i < want; ++i) {
    if (buf[i] < min)
      return ref_fail(op, "attribute '%s' entry %d is %lld, below %lld", name, i, (long long)buf[i], (long long)min);
    out[i] = buf[i];
  }
  return true;
}

/* Attributes and shapes: x [N, C, ...], w [OC, C/g, ...] (transpose: [C, OC/g, ...]),
 * result [N, OC, ...] of x's element type. */
static bool read_attrs(MlirOperation op, const BrazeHostTensor *x, const BrazeHostTensor *w,
                       const BrazeHostTensor *y, bool transpose, Attrs *a) {
  if (!ref_require_float(op, x, "the input") || !ref_require_dtype(op, w, x->dtype, "the weight") ||
      !ref_require_dtype(op, y, x->dtype, "the result"))
    return false;
  if (x->rank < 3 || w->rank != x->rank || y->rank != x->rank || y->shape[0] != x->shape[0])
    return ref_fail(op, "expected [N, C, spatial...] operands of one rank, got %s, %s -> %s", ref_type_str(x),
                    ref_type_str(w), ref_type_str(y));
  a->n = x->rank - 2;
  int64_t pads[2 * MAX_SPATIAL];
  if (!read_array(op, "strides", a->s, a->n, 1) || !read_array(op, "dilations", a->d, a->n, 1) ||
      !read_array(op, "pads", pads, 2 * a->n, 0))
    return false;
  memset(a->op, 0, sizeof a->op);
  if (transpose && !read_array(op, "output_padding", a->op, a->n, 0))
    return false;
  for (int i = 0; i < a->n; ++i) {
    a->pb[i] = pads[i];
    a->pe[i] = pads[a->n + i];
  }
  if (!braze_attr_i64(op, "groups", &a->groups) || a->groups < 1 || x->shape[1] % a->groups || y->shape[1] % a->groups)
    return ref_fail(op, "expected groups >= 1 dividing the channels of %s and %s", ref_type_str(x), ref_type_str(y));
  a->cg = x->shape[1] / a->groups;
  a->ocg = y->shape[1] / a->groups;
  bool channels_ok = transpose ? w->shape[0] == x->shape[1] && w->shape[1] == a->ocg
                               : w->shape[0] == y->shape[1] && w->shape[1] == a->cg;
  if (!channels_ok)
    return ref_fail(op, "the weight %s does not fit the input %s and result %s", ref_type_str(w), ref_type_str(x),
                    ref_type_str(y));
  for (int i = 0; i < a->n; ++i) {
    int64_t span = a->d[i] * (w->shape[2 + i] - 1) + 1, in = x->shape[2 + i], out = y->shape[2 + i];
    int64_t want = transpose ? (in - 1) * a->s[i] + span - a->pb[i] - a->pe[i] + a->op[i]
                             : (in + a->pb[i] + a->pe[i] - span) / a->s[i] + 1;
    if (out != want || (!transpose && in + a->pb[i] + a->pe[i] < span))
      return ref_fail(op, "spatial dim %d of the result is %lld; the attributes give %lld", i, (long long)out,
                      (long long)want);
  }
  return true;
}

/* The element offset of spatial position `pos` in a tensor whose spatial dims start
 * at `base` (an offset of [n, c, 0...]); -1 when outside. */
static int64_t spatial_offset(const BrazeHostTensor *t, int64_t base, int n, const int64_t *pos) {
  int64_t off = 0;
  for (int i = 0; i < n; ++i) {
    if (pos[i] < 0 || pos[i] >= t->shape[2 + i])
      return -1;
    off = off * t->shape[2 + i] + pos[i];
  }
  return base + off;
}

static int64_t spatial_count(const BrazeHostTensor *t) {
  int64_t count = 1;
  for (int i = 2; i < t->rank; ++i)
    count *= t->shape[i];
  return count;
}

/* Row-major spatial index i of tensor t into pos[]. */
static void unflatten(const BrazeHostTensor *t, int n, int64_t i, int64_t *pos) {
  for (int k = n; k-- > 0;) {
    pos[k] = i % t->shape[2 + k];
    i /= t->shape[2 + k];
  }
}

/* One (input position, kernel offset) pair's partner position: conv reads the input
 * at o s + k d - pb; conv_transpose writes the result at i s + k d - pb. */
static void partner(const Attrs *a, const int64_t *at, const int64_t *k, int64_t *pos) {
  for (int i = 0; i < a->n; ++i)
    pos[i] = at[i] * a->s[i] + k[i] * a->d[i] - a->pb[i];
}

static bool run(MlirOperation op, const BrazeHostTensor *const *args, BrazeHostTensor *y, bool transpose) {
  const BrazeHostTensor *x = args[0], *w = args[1];
  Attrs a;
  if (!read_attrs(op, x, w, y, transpose, &a))
    return false;
  /* conv walks result positions (reading x); conv_transpose walks input positions
   * (scattering into y). */
  const BrazeHostTensor *walk = transpose ? x : y, *other = transpose ? y : x;
  int64_t walk_count = spatial_count(walk), kernel_count = spatial_count(w);
  int64_t pos[MAX_SPATIAL], at[MAX_SPATIAL], k[MAX_SPATIAL];
  for (int64_t b = 0; b < x->shape[0]; ++b)
    for (int64_t g = 0; g < a.groups; ++g)
      for (int64_t oc = 0; oc < a.ocg; ++oc)
        for (int64_t c = 0; c < a.cg; ++c) {
          int64_t xc = g * a.cg + c, yc = g * a.ocg + oc;
          int64_t w_base = (transpose ? xc * a.ocg + oc : yc * a.cg + c) * kernel_count;
          int64_t walk_base = (b * walk->shape[1] + (transpose ? xc : yc)) * walk_count;
          int64_t other_base = (b * other->shape[1] + (transpose ? yc : xc)) * spatial_count(other);
          for (int64_t p = 0; p < walk_count; ++p) {
            unflatten(walk, a.n, p, at);
            for (int64_t q = 0; q < kernel_count; ++q) {
              unflatten(w, a.n, q, k);
              partner(&a, at, k, pos);
              int64_t o = spatial_offset(other, other_base, a.n, pos);
              if (o < 0)
                continue;
              double prod = w->data[w_base + q] * (transpose ? x->data[walk_base + p] : x->data[o]);
              if (transpose)
                y->data[o] += prod;
              else
                y->data[walk_base + p] += prod;
            }
          }
        }
  return true;
}

bool ref_conv(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result) {
  (void)n_args;
  return run(op, args, result, false);
}

bool ref_conv_transpose(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result) {
  (void)n_args;
  return run(op, args, result, true);
}
