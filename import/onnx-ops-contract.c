/* TopK (constant k) and Einsum as compositions.
 *
 * TopK: k rounds of "the first position holding the max (min) of what is not taken
 * yet", each a reduce, a compare and a masked reduce over an iota; the values and
 * indices of the rounds are concatenated in order (sorted, ties to the lower index,
 * as ONNX specifies). k is limited to 64.
 *
 * Einsum (one or two operands, no ellipsis, no repeated letter within a term): each
 * operand is transposed to a common letter order (the output's letters, then the
 * summed ones) with 1s for the letters it lacks, the two are multiplied with
 * broadcasting and the summed letters reduced. General, but it materializes the
 * product over every letter: contractions the size of real matmuls belong in
 * MatMul. */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "import/onnx-compose.h"

enum { DT_BOOL = ONNX__TENSOR_PROTO__DATA_TYPE__BOOL, DT_INT64 = ONNX__TENSOR_PROTO__DATA_TYPE__INT64 };
enum { MAX_TOPK = 64 };

static bool topk_k(OnnxImporter *im, int64_t *k) {
  if (im->opset < 10) {
    const Onnx__AttributeProto *a = onnx_attr(im->node, "k");
    if (!a || !a->has_i)
      return onnx_node_error(im, "attribute 'k' is missing");
    *k = a->i;
    return true;
  }
  size_t n = 0;
  OnnxValue *kv = onnx_input(im, 1);
  if (!kv)
    return false;
  OnnxValue flat = *kv; /* [1] or a scalar */
  flat.type.dims[0] = onnx_num_elements(&kv->type);
  flat.type.rank = 1;
  if (!kv->is_const)
    return onnx_node_error(im, "k ('%s') must be a constant (the result's size depends on it)", kv->name);
  return onnx_const_ints(im, &flat, "k", k, 1, &n);
}

/* The smallest (or largest) value of an integer type, exactly, as a rank-0 constant. */
static OcVal int_extreme(OnnxImporter *im, int32_t dtype, bool max) {
  bool i32 = dtype == ONNX__TENSOR_PROTO__DATA_TYPE__INT32;
  int64_t v = max ? (i32 ? INT32_MAX : INT64_MAX) : (i32 ? INT32_MIN : INT64_MIN);
  OnnxType t = {.dtype = dtype, .rank = 0};
  return oc_const_ints(im, &t, &v);
}

static bool convert_topk(OnnxImporter *im) {
  OcVal x = oc_input(im, 0);
  int64_t k, axis;
  if (!oc_ok(x) || !topk_k(im, &k))
    return false;
  if (x.t.rank == 0 || x.t.dtype == DT_BOOL)
    return onnx_node_error(im, "the input must be a numeric tensor of rank >= 1");
  if (!onnx_norm_axis(im, onnx_attr_int(im->node, "axis", -1), x.t.rank, "axis", &axis))
    return false;
  if (k < 1 || k > x.t.dims[axis] || k > MAX_TOPK)
    return onnx_node_error(im, "k = %lld must be in 1..min(%lld, %d)", (long long)k, (long long)x.t.dims[axis],
                           MAX_TOPK);
  bool largest = onnx_attr_int(im->node, "largest", 1) != 0;
  const char *extreme = largest ? "reduce_max" : "reduce_min";
  int64_t n = x.t.dims[axis];
  OcVal iota = oc_iota(im, DT_INT64, x.t.dims, x.t.rank, (size_t)axis);
  OcVal taken = oc_cmp_s(im, "lt", iota, -1.0); /* all false */
  bool is_float = onnx_dtype_is_float(x.t.dtype);
  OcVal fill = is_float ? oc_scalar(im, x.t.dtype, largest ? -INFINITY : INFINITY) : int_extreme(im, x.t.dtype, !largest);
  OcVal values = {{NULL}, {0}}, indices = {{NULL}, {0}};
  for (int64_t i = 0; i < k && oc_ok(x); ++i) {
    OcVal m = oc_reduce(im, extreme, oc_select(im, taken, fill, x), &axis, 1, true);
    OcVal hit = oc_cmp(im, "eq", x, m);
    if (is_float) /* NaN is the extreme (it propagates through the max) */
      hit = oc_select(im, oc_cmp(im, "ne", x, x), oc_scalar(im, DT_BOOL, 1), hit);
    hit = oc_select(im, taken, oc_scalar(im, DT_BOOL, 0), hit);
    OcVal pos = oc_reduce(im, "reduce_min", oc_select(im, hit, iota, oc_scalar(im, DT_INT64, (double)n)), &axis, 1,
                          true);
    OcVal value = oc_reduce(im, extreme, oc_select(im, oc_cmp(im, "eq", iota, pos), x, fill), &axis, 1, true);
    taken = oc_select(im, oc_cmp(im, "eq", iota, pos), oc_scalar(im, DT_BOOL, 1), taken);
    values = i == 0 ? value : oc_concat(im, values, value, (size_t)axis);
    indices = i == 0 ? pos : oc_concat(im, indices, pos, (size_t)axis);
  }
  return oc_output(im, 0, values) && oc_output(im, 1, indices);
}

/* ---- Einsum ---- */

typedef struct {
  char terms[2][ONNX_MAX_RANK + 1];
  size_t num_terms;
  char out[ONNX_MAX_RANK + 1];
} EinsumSpec;

/* Letters of one term into `to` (at most ONNX_MAX_RANK, no repeats); false on a
 * character that is not a letter. */
static bool parse_term(const char **p, const char *stop, char *to) {
  size_t n = 0;
  for (; *p < stop && **p != ',' && **p != '-'; ++*p) {
    if (isspace((unsigned char)**p))
      continue;
    if (!isalpha((unsigned char)**p) || n == ONNX_MAX_RANK || strchr(to, **p))
      return false;
    to[n++] = **p;
    to[n] = '\0';
  }
  return true;
}

static bool parse_einsum(const char *eq, EinsumSpec *s) {
  memset(s, 0, sizeof *s);
  const char *arrow = strstr(eq, "->"), *end = eq + strlen(eq), *p = eq;
  const char *lhs_end = arrow ? arrow : end;
  while (p < lhs_end) {
    if (s->num_terms == 2 || !parse_term(&p, lhs_end, s->terms[s->num_terms++]))
      return false;
    if (p < lhs_end && *p == ',')
      ++p;
    else if (p < lhs_end)
      return false;
  }
  if (arrow) {
    p = arrow + 2;
    return parse_term(&p, end, s->out) && p == end;
  }
  /* implicit output: the letters used once, in alphabetical order */
  for (char c = 'A'; c <= 'z'; ++c) {
    int uses = 0;
    for (size_t t = 0; t < s->num_terms; ++t)
      uses += strchr(s->terms[t], c) != NULL && isalpha((unsigned char)c);
    if (uses == 1)
      s->out[strlen(s->out)] = c;
  }
  return true;
}

/* x permuted by perm (identity: x itself). */
static OcVal einsum_permute(OnnxImporter *im, OcVal x, const int64_t *perm, size_t n) {
  bool identity = true;
  for (size_t i = 0; i < n; ++i)
    identity &= perm[i] == (int64_t)i;
  if (identity)
    return x;
  OcVal r = x;
  r.v = onnx_build_transpose(im, x.v, &x.t, perm, &r.t);
  return r;
}

/* Operand t summed over its letters in neither the other operand nor the output (they
 * go from its term too). */
static OcVal einsum_sum_own(OnnxImporter *im, OcVal x, char *term, const char *other, const char *out) {
  int64_t axes[ONNX_MAX_RANK];
  size_t n = 0, kept = 0;
  for (size_t i = 0; term[i]; ++i)
    if (!strchr(other, term[i]) && !strchr(out, term[i]))
      axes[n++] = (int64_t)i;
    else
      term[kept++] = term[i];
  term[kept] = 0;
  return n ? oc_reduce(im, "reduce_sum", x, axes, n, false) : x;
}

/* A two-operand contraction as a batch_matmul: letters in both operands and the output
 * are batch dims, in one operand and the output rows (a) or columns (b), in both but
 * not the output the contracted dims: a -> [batch..., M, K], b -> [batch..., K, N], the
 * product [batch..., M, N] reshaped and permuted to the output (the layout attention's
 * matcher and the matmul templates take; PyTorch's einsum does the same). Every output
 * letter is in an operand (checked before); false after an error. */
static bool einsum_as_matmul(OnnxImporter *im, const EinsumSpec *spec, OcVal a, OcVal b) {
  char ta[ONNX_MAX_RANK + 1], tb[ONNX_MAX_RANK + 1];
  strcpy(ta, spec->terms[0]);
  strcpy(tb, spec->terms[1]);
  const char *out = spec->out;
  a = einsum_sum_own(im, a, ta, tb, out);
  b = einsum_sum_own(im, b, tb, ta, out);
  if (!oc_ok(a) || !oc_ok(b))
    return false;
  char batch[ONNX_MAX_RANK + 1] = {0}, rows[ONNX_MAX_RANK + 1] = {0}, cols[ONNX_MAX_RANK + 1] = {0},
       sums[ONNX_MAX_RANK + 1] = {0};
  size_t nb = 0, nm = 0, nn = 0, nk = 0;
  for (const char *c = out; *c; ++c)
    if (strchr(ta, *c) && strchr(tb, *c))
      batch[nb++] = *c;
    else if (strchr(ta, *c))
      rows[nm++] = *c;
    else if (strchr(tb, *c))
      cols[nn++] = *c;
    else
      return false;
  for (const char *c = ta; *c; ++c)
    if (strchr(tb, *c) && !strchr(out, *c))
      sums[nk++] = *c;
  int64_t pa[ONNX_MAX_RANK], pb[ONNX_MAX_RANK], ra[ONNX_MAX_RANK], rb[ONNX_MAX_RANK], rr[ONNX_MAX_RANK];
  int64_t m = 1, n = 1, k = 1;
  size_t ia = 0, ib = 0;
  for (size_t i = 0; i < nb; ++i) {
    pa[ia++] = strchr(ta, batch[i]) - ta;
    pb[ib++] = strchr(tb, batch[i]) - tb;
    int64_t da = a.t.dims[pa[ia - 1]], db = b.t.dims[pb[ib - 1]];
    if (da != db)
      return onnx_node_error(im, "letter '%c' has sizes %lld and %lld", batch[i], (long long)da, (long long)db);
    ra[i] = rb[i] = rr[i] = da;
  }
  for (size_t i = 0; i < nm; ++i)
    m *= a.t.dims[pa[ia++] = strchr(ta, rows[i]) - ta];
  for (size_t i = 0; i < nk; ++i) {
    pa[ia++] = strchr(ta, sums[i]) - ta;
    pb[nb + i] = strchr(tb, sums[i]) - tb;
    if (a.t.dims[pa[ia - 1]] != b.t.dims[pb[nb + i]])
      return onnx_node_error(im, "letter '%c' has sizes %lld and %lld", sums[i], (long long)a.t.dims[pa[ia - 1]],
                             (long long)b.t.dims[pb[nb + i]]);
    k *= a.t.dims[pa[ia - 1]];
  }
  ib = nb + nk;
  for (size_t i = 0; i < nn; ++i)
    n *= b.t.dims[pb[ib++] = strchr(tb, cols[i]) - tb];
  ra[nb] = m, ra[nb + 1] = k, rb[nb] = k, rb[nb + 1] = n;
  OcVal am = oc_reshape(im, einsum_permute(im, a, pa, ia), ra, nb + 2);
  OcVal bm = oc_reshape(im, einsum_permute(im, b, pb, ib), rb, nb + 2);
  if (!oc_ok(am) || !oc_ok(bm))
    return false;
  OcVal y = {{NULL}, {.dtype = a.t.dtype, .rank = nb + 2}};
  memcpy(y.t.dims, ra, nb * sizeof *ra);
  y.t.dims[nb] = m, y.t.dims[nb + 1] = n;
  y.v = onnx_build_binary(im, nb ? "batch_matmul" : "matmul", am.v, bm.v, &y.t);
  /* [batch..., rows..., cols...], then the output's order */
  char got[ONNX_MAX_RANK + 1] = {0};
  size_t ng = 0;
  for (size_t i = 0; i < nb; ++i)
    got[ng] = batch[i], rr[ng++] = ra[i];
  for (size_t i = 0; i < nm; ++i)
    got[ng] = rows[i], rr[ng++] = a.t.dims[strchr(ta, rows[i]) - ta];
  for (size_t i = 0; i < nn; ++i)
    got[ng] = cols[i], rr[ng++] = b.t.dims[strchr(tb, cols[i]) - tb];
  int64_t po[ONNX_MAX_RANK];
  for (size_t i = 0; i < ng; ++i)
    po[i] = strchr(got, out[i]) - got;
  return oc_output(im, 0, einsum_permute(im, oc_reshape(im, y, rr, ng), po, ng));
}

static bool convert_einsum(OnnxImporter *im) {
  char eq_buf[128];
  const char *eq = onnx_attr_string(im->node, "equation", "", eq_buf, sizeof eq_buf);
  EinsumSpec s;
  if (!parse_einsum(eq, &s) || s.num_terms != onnx_num_inputs(im->node) || s.num_terms == 0)
    return onnx_node_error(im, "equation '%s' is not supported (one or two operands of distinct letters, "
                               "no ellipsis)", eq);
  /* letter order: the output's, then the summed ones */
  char order[2 * ONNX_MAX_RANK + 1] = {0};
  strcpy(order, s.out);
  for (size_t t = 0; t < s.num_terms; ++t)
    for (const char *c = s.terms[t]; *c; ++c)
      if (!strchr(order, *c))
        order[strlen(order)] = *c;
  size_t rank = strlen(order), out_rank = strlen(s.out);
  for (const char *c = s.out; *c; ++c)
    if (!strchr(s.terms[0], *c) && (s.num_terms < 2 || !strchr(s.terms[1], *c)))
      return onnx_node_error(im, "output letter '%c' is in no operand", *c);
  if (rank > ONNX_MAX_RANK)
    return onnx_node_error(im, "equation '%s' has %zu letters (at most %d)", eq, rank, ONNX_MAX_RANK);
  if (s.num_terms == 2) { /* a contraction: a batch_matmul when something is contracted */
    OcVal a = oc_input(im, 0), b = oc_input(im, 1);
    if (!oc_ok(a) || !oc_ok(b))
      return false;
    bool contracts = false;
    for (const char *c = s.terms[0]; *c; ++c)
      contracts |= strchr(s.terms[1], *c) && !strchr(s.out, *c);
    bool fp = a.t.dtype == b.t.dtype && onnx_dtype_is_float(a.t.dtype);
    if (contracts && fp && a.t.rank == strlen(s.terms[0]) && b.t.rank == strlen(s.terms[1]))
      return einsum_as_matmul(im, &s, a, b);
  }
  int64_t dims[ONNX_MAX_RANK] = {0};
  OcVal acc = {{NULL}, {0}};
  for (size_t t = 0; t < s.num_terms; ++t) {
    OcVal x = oc_input(im, t);
    if (!oc_ok(x))
      return false;
    if (x.t.rank != strlen(s.terms[t]) || x.t.dtype == DT_BOOL)
      return onnx_node_error(im, "operand %zu has rank %zu, its term '%s' %zu letters", t, x.t.rank, s.terms[t],
                             strlen(s.terms[t]));
    int64_t perm[ONNX_MAX_RANK], shape[ONNX_MAX_RANK];
    size_t np = 0;
    for (size_t l = 0; l < rank; ++l) {
      const char *at = strchr(s.terms[t], order[l]);
      shape[l] = at ? x.t.dims[at - s.terms[t]] : 1;
      if (at)
        perm[np++] = at - s.terms[t];
      if (at && dims[l] && dims[l] != shape[l])
        return onnx_node_error(im, "letter '%c' has sizes %lld and %lld", order[l], (long long)dims[l],
                               (long long)shape[l]);
      if (at)
        dims[l] = shape[l];
    }
    OcVal moved = x;
    bool identity = true;
    for (size_t i = 0; i < np; ++i)
      identity &= perm[i] == (int64_t)i;
    if (!identity)
      moved.v = onnx_build_transpose(im, x.v, &x.t, perm, &moved.t);
    OcVal full = oc_reshape(im, moved, shape, rank);
    acc = t == 0 ? full : oc_binary(im, "mul", acc, full);
  }
  int64_t summed[ONNX_MAX_RANK];
  size_t ns = 0;
  for (size_t l = out_rank; l < rank; ++l)
    summed[ns++] = (int64_t)l;
  /* every letter is in some operand, so the product has the full shape */
  return oc_output(im, 0, ns ? oc_reduce(im, "reduce_sum", acc, summed, ns, false) : acc);
}

const OnnxOpEntry onnx_contract_ops[] = {
    {"TopK", convert_topk, 1},
    {"Einsum", convert_einsum, 12},
    {NULL, NULL, 0},
};
