/* Graph verifier rules for pointwise ops: unary, cast, gelu, binary, cmp, select. */
#include <string.h>

#include "dialects/graph/verify-internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

bool gv_verify_same_type_unary(const GvOp *v) { return gv_result_is(v, &v->in[0], "operand"); }

bool gv_verify_cast(const GvOp *v) {
  return gv_result_shape_is(v, v->in[0].dims, v->in[0].rank, "cast keeps the operand shape");
}

/* A string attribute's text, or NULL (with *len 0) when absent or not a string. */
static const char *string_attr(const GvOp *v, const char *name, size_t *len) {
  const char *data = NULL;
  *len = 0;
  return braze_attr_str(v->op, name, &data, len) ? data : NULL;
}

static bool text_is(const char *data, size_t len, const char *word) {
  return len == strlen(word) && memcmp(data, word, len) == 0;
}

bool gv_verify_gelu(const GvOp *v) {
  size_t len;
  const char *approx = string_attr(v, "approximate", &len);
  if (!approx)
    return gv_fail(v, "expects a string attribute 'approximate' (\"none\" or \"tanh\")");
  if (!text_is(approx, len, "none") && !text_is(approx, len, "tanh"))
    return gv_fail(v, "approximate must be \"none\" or \"tanh\", got \"%.*s\"", (int)len, approx);
  return gv_result_is(v, &v->in[0], "operand");
}

/* The broadcast of the first `n` inputs into `out`; emits the error when incompatible. */
static bool broadcast_inputs(const GvOp *v, intptr_t first, intptr_t n, int64_t *out, intptr_t *rank) {
  *rank = v->in[first].rank;
  memcpy(out, v->in[first].dims, sizeof v->in[first].dims);
  for (intptr_t i = first + 1; i < first + n; ++i) {
    int64_t next[BRAZE_MAX_RANK];
    intptr_t next_rank;
    if (!braze_broadcast_shapes(out, *rank, v->in[i].dims, v->in[i].rank, next, &next_rank)) {
      if (n == 2)
        return gv_fail(v, "operand shapes %s and %s are not broadcast-compatible",
                       gv_shape(&v->in[first]).s, gv_shape(&v->in[i]).s);
      return gv_fail(v, "operand shapes %s, %s and %s are not broadcast-compatible",
                     gv_shape(&v->in[first]).s, gv_shape(&v->in[first + 1]).s,
                     gv_shape(&v->in[first + 2]).s);
    }
    memcpy(out, next, sizeof next);
    *rank = next_rank;
  }
  return true;
}

bool gv_verify_binary(const GvOp *v) {
  int64_t shape[BRAZE_MAX_RANK];
  intptr_t rank;
  return gv_same_elt(v, &v->in[0], "lhs", &v->in[1], "rhs") &&
         gv_same_elt(v, &v->in[0], "operand", &v->res, "result") &&
         broadcast_inputs(v, 0, 2, shape, &rank) &&
         gv_result_shape_is(v, shape, rank, "the broadcast of the operand shapes");
}

/* bitwise_and/or/xor/not: the binary or unary rules, on integers (i1 included). */
static bool integer_operand(const GvOp *v) {
  if (mlirTypeIsAInteger(v->in[0].elt))
    return true;
  return gv_fail(v, "operand #0 has element type %s; expected an integer type (i1, i8..i64, ui8..ui64)",
                 gv_type(v->in[0].elt).s);
}

bool gv_verify_bitwise(const GvOp *v) {
  return integer_operand(v) && (v->num_inputs == 1 ? gv_verify_same_type_unary(v) : gv_verify_binary(v));
}

static bool valid_predicate(const char *p, size_t len) {
  static const char *const predicates[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  for (size_t i = 0; i < sizeof predicates / sizeof *predicates; ++i)
    if (text_is(p, len, predicates[i]))
      return true;
  return false;
}

bool gv_verify_cmp(const GvOp *v) {
  size_t len;
  const char *pred = string_attr(v, "predicate", &len);
  if (!pred)
    return gv_fail(v, "expects a string attribute 'predicate' (eq, ne, lt, le, gt or ge)");
  if (!valid_predicate(pred, len))
    return gv_fail(v, "predicate must be one of eq, ne, lt, le, gt, ge; got \"%.*s\"", (int)len, pred);
  if (!gv_is_i1(v->res.elt))
    return gv_fail(v, "result element type must be i1, got %s", gv_type(v->res.elt).s);
  int64_t shape[BRAZE_MAX_RANK];
  intptr_t rank;
  return gv_same_elt(v, &v->in[0], "lhs", &v->in[1], "rhs") && broadcast_inputs(v, 0, 2, shape, &rank) &&
         gv_result_shape_is(v, shape, rank, "the broadcast of the operand shapes");
}

bool gv_verify_select(const GvOp *v) {
  if (!gv_is_i1(v->in[0].elt))
    return gv_fail(v, "condition element type must be i1, got %s", gv_type(v->in[0].elt).s);
  int64_t shape[BRAZE_MAX_RANK];
  intptr_t rank;
  return gv_same_elt(v, &v->in[1], "on_true", &v->in[2], "on_false") &&
         gv_same_elt(v, &v->in[1], "on_true", &v->res, "result") &&
         broadcast_inputs(v, 0, 3, shape, &rank) &&
         gv_result_shape_is(v, shape, rank, "the broadcast of the operand shapes");
}
