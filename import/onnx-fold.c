/* Import-time folding. Shapes are static in braze, so the shape arithmetic that
 * exporters emit (Shape -> Gather -> Unsqueeze -> Concat -> Reshape, Range,
 * ConstantOfShape, Equal/Where on shapes) is computed here and never reaches the
 * graph dialect. Folding is exact: integer/bool arithmetic, selections, and f32
 * arithmetic computed in double and rounded once (exact for + - * /). f16/bf16
 * values are only moved, never computed. Sin/Cos/Tan import only here, on
 * constants. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "import/onnx-compose.h"
#include "import/onnx-internal.h"

enum {
  DT_FLOAT = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT,
  DT_DOUBLE = ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE,
  DT_INT32 = ONNX__TENSOR_PROTO__DATA_TYPE__INT32,
  DT_INT64 = ONNX__TENSOR_PROTO__DATA_TYPE__INT64,
  DT_BOOL = ONNX__TENSOR_PROTO__DATA_TYPE__BOOL,
};

/* Data movement of float constants (Expand, Transpose) folds only this small: left
 * in the graph it costs nothing, folded it could multiply the constant data. */
enum { FOLD_FLOAT_LIMIT = 16 };

static bool is_int_like(int32_t dtype) { return dtype == DT_INT32 || dtype == DT_INT64 || dtype == DT_BOOL; }

/* Element i of constant data as a double (f32, f64, ints, bool). */
static double get_f(const OnnxValue *v, int64_t i) {
  const unsigned char *p = v->data.data;
  switch (v->type.dtype) {
  case DT_FLOAT: { float x; memcpy(&x, p + 4 * i, 4); return x; }
  case DT_DOUBLE: { double x; memcpy(&x, p + 8 * i, 8); return x; }
  case ONNX__TENSOR_PROTO__DATA_TYPE__INT8: { int8_t x; memcpy(&x, p + i, 1); return x; }
  case ONNX__TENSOR_PROTO__DATA_TYPE__UINT8: return p[i];
  case ONNX__TENSOR_PROTO__DATA_TYPE__INT16: { int16_t x; memcpy(&x, p + 2 * i, 2); return x; }
  case ONNX__TENSOR_PROTO__DATA_TYPE__UINT16: { uint16_t x; memcpy(&x, p + 2 * i, 2); return x; }
  case ONNX__TENSOR_PROTO__DATA_TYPE__UINT32: { uint32_t x; memcpy(&x, p + 4 * i, 4); return x; }
  case ONNX__TENSOR_PROTO__DATA_TYPE__UINT64: { uint64_t x; memcpy(&x, p + 8 * i, 8); return (double)x; }
  case DT_INT32: { int32_t x; memcpy(&x, p + 4 * i, 4); return x; }
  case DT_INT64: { int64_t x; memcpy(&x, p + 8 * i, 8); return (double)x; }
  default: return p[i] != 0;
  }
}

/* A float as int64 without undefined behaviour: NaN is 0, values beyond the range
 * saturate (callers that care check the range themselves, as Cast does). */
static int64_t saturate_i64(double f) {
  if (isnan(f))
    return 0;
  if (f >= 0x1p63)
    return INT64_MAX;
  if (f < -0x1p63)
    return INT64_MIN;
  return (int64_t)f;
}

static int64_t get_i(const OnnxValue *v, int64_t i) {
  const unsigned char *p = v->data.data;
  switch (v->type.dtype) {
  case DT_INT32: { int32_t x; memcpy(&x, p + 4 * i, 4); return x; }
  case DT_INT64: { int64_t x; memcpy(&x, p + 8 * i, 8); return x; }
  case DT_BOOL: return p[i] != 0;
  default: return saturate_i64(get_f(v, i));
  }
}

static void put(unsigned char *out, int32_t dtype, int64_t i, int64_t iv, double fv) {
  switch (dtype) {
  case DT_FLOAT: { float x = (float)fv; memcpy(out + 4 * i, &x, 4); break; }
  case DT_INT32: { int32_t x = (int32_t)iv; memcpy(out + 4 * i, &x, 4); break; }
  case DT_INT64: memcpy(out + 8 * i, &iv, 8); break;
  default: out[i] = iv != 0; break;
  }
}

bool onnx_fold_size_ok(int32_t dtype, int64_t count) {
  return count <= (is_int_like(dtype) ? ONNX_FOLD_LIMIT : FOLD_FLOAT_LIMIT);
}

bool onnx_all_inputs_const(OnnxImporter *im) {
  for (size_t i = 0; i < im->node->n_input; ++i) {
    if (!onnx_has_input(im->node, i))
      continue;
    OnnxValue *v = onnx_lookup(im, im->node->input[i]);
    if (!v || !v->is_const || v->unsupported_by)
      return false;
  }
  return true;
}

bool onnx_define_const_output(OnnxImporter *im, size_t i, const OnnxType *type, const OnnxValue *src,
                              const int64_t *index) {
  if (i >= im->node->n_output || !im->node->output[i][0])
    return true;
  size_t size = onnx_dtype_size(type->dtype);
  int64_t n = onnx_num_elements(type);
  unsigned char *out = malloc((size_t)n * size + 1);
  const unsigned char *in = src->data.data;
  if (index)
    for (int64_t k = 0; k < n; ++k)
      memcpy(out + k * size, in + index[k] * size, size);
  else if (n)
    memcpy(out, in, (size_t)n * size);
  OnnxData data = {.data = out, .nbytes = (size_t)n * size, .owned = out};
  return onnx_define_constant(im, im->node->output[i], type, &data);
}

int64_t *onnx_broadcast_index(const OnnxType *src, const OnnxType *to) {
  int64_t n = onnx_num_elements(to);
  int64_t *index = malloc(((size_t)n + 1) * sizeof *index);
  size_t lead = to->rank - src->rank;
  for (int64_t k = 0; k < n; ++k) {
    int64_t rem = k, at = 0, stride = 1;
    for (size_t d = to->rank; d-- > 0;) {
      int64_t coord = rem % to->dims[d];
      rem /= to->dims[d];
      if (d < lead)
        continue;
      int64_t sd = src->dims[d - lead];
      at += (sd == 1 ? 0 : coord) * stride;
      stride *= sd;
    }
    index[k] = at;
  }
  return index;
}

/* ---- elementwise folding ---- */

typedef enum { K_ARITH, K_CMP, K_UNARY, K_LOGIC, K_WHERE, K_CAST } FoldKind;

typedef struct {
  const char *op;
  FoldKind kind;
} FoldOp;

static const FoldOp fold_ops_table[] = {
    {"Add", K_ARITH},   {"Sub", K_ARITH},       {"Mul", K_ARITH},  {"Div", K_ARITH},
    {"Mod", K_ARITH},   {"Max", K_ARITH},       {"Min", K_ARITH},  {"Equal", K_CMP},
    {"Less", K_CMP},    {"Greater", K_CMP},     {"LessOrEqual", K_CMP}, {"GreaterOrEqual", K_CMP},
    {"Neg", K_UNARY},   {"Abs", K_UNARY},       {"Not", K_UNARY},  {"And", K_LOGIC},
    {"Or", K_LOGIC},    {"Xor", K_LOGIC},       {"Where", K_WHERE}, {"Cast", K_CAST},
};

static double arith_f(const char *op, double a, double b) {
  switch (op[0]) {
  case 'A': return a + b;
  case 'S': return a - b;
  case 'D': return a / b;
  case 'M': return op[1] == 'u' ? a * b : op[1] == 'a' ? (a > b ? a : b) : op[1] == 'i' ? (a < b ? a : b)
                                                                           : fmod(a, b);
  default: return 0;
  }
}

/* Integer arithmetic; *ok false for division by zero (left to the graph). Mod is
 * ONNX's fmod=0 form: the sign of the divisor. */
static int64_t arith_i(const char *op, int64_t a, int64_t b, bool *ok) {
  switch (op[0]) {
  case 'A': return (int64_t)((uint64_t)a + (uint64_t)b);
  case 'S': return (int64_t)((uint64_t)a - (uint64_t)b);
  case 'D':
    if (b == 0 || (a == INT64_MIN && b == -1))
      return *ok = false, 0;
    return a / b;
  case 'M':
    if (op[1] == 'u')
      return (int64_t)((uint64_t)a * (uint64_t)b);
    if (op[1] == 'a')
      return a > b ? a : b;
    if (op[1] == 'i')
      return a < b ? a : b;
    if (b == 0 || (a == INT64_MIN && b == -1))
      return *ok = false, 0;
    {
      int64_t r = a % b;
      return r != 0 && ((r < 0) != (b < 0)) ? r + b : r;
    }
  default: return 0;
  }
}

static bool cmp_f(const char *op, double a, double b) {
  if (strcmp(op, "Equal") == 0)
    return a == b;
  if (strcmp(op, "Less") == 0)
    return a < b;
  if (strcmp(op, "Greater") == 0)
    return a > b;
  if (strcmp(op, "LessOrEqual") == 0)
    return a <= b;
  return a >= b;
}

static bool foldable_dtype(int32_t dtype) { return is_int_like(dtype) || dtype == DT_FLOAT; }

/* Inputs the folds read exactly (get_i of ui32/ui64/i16/ui16/ui8 would go through a
 * double, and unsigned semantics differ): the others stay graph ops. */
static bool readable_dtype(int32_t dtype) {
  return foldable_dtype(dtype) || dtype == DT_DOUBLE || dtype == ONNX__TENSOR_PROTO__DATA_TYPE__INT8;
}

/* The operands of an elementwise fold, their broadcast type and per-operand
 * source indices. */
typedef struct {
  OnnxValue *in[3];
  size_t n;
  OnnxType out;
  int64_t *index[3];
} FoldArgs;

static void free_args(FoldArgs *a) {
  for (size_t i = 0; i < a->n; ++i)
    free(a->index[i]);
}

static bool gather_args(OnnxImporter *im, FoldArgs *a, bool *ok_to_fold) {
  a->n = onnx_num_inputs(im->node);
  *ok_to_fold = a->n >= 1 && a->n <= 3;
  for (size_t i = 0; i < a->n && *ok_to_fold; ++i) {
    a->in[i] = onnx_input(im, i);
    if (!a->in[i])
      return false;
    *ok_to_fold = foldable_dtype(a->in[i]->type.dtype);
  }
  if (!*ok_to_fold)
    return true;
  a->out = a->in[0]->type;
  for (size_t i = 1; i < a->n; ++i) {
    OnnxType r = a->out;
    if (!onnx_broadcast(im, &r, &a->in[i]->type, &a->out))
      return false;
  }
  /* Every input is a constant, so the result is one too (exact: f32 + - * / in
   * double rounded once equal the f32 operations); folding it lets constant-only
   * imports (Sin/Cos tables) see it. */
  if (onnx_num_elements(&a->out) > ONNX_FOLD_LIMIT) {
    *ok_to_fold = false;
    return true;
  }
  for (size_t i = 0; i < a->n; ++i)
    a->index[i] = onnx_broadcast_index(&a->in[i]->type, &a->out);
  return true;
}

static bool fold_elementwise(OnnxImporter *im, FoldKind kind, bool *done) {
  const char *op = im->node->op_type;
  FoldArgs a = {0};
  bool ok_to_fold = false;
  if (!gather_args(im, &a, &ok_to_fold))
    return false;
  if (!ok_to_fold)
    return true;
  int32_t in_dtype = a.in[0]->type.dtype;
  int32_t out_dtype = in_dtype;
  if (kind == K_CMP)
    out_dtype = DT_BOOL;
  if (kind == K_WHERE)
    out_dtype = a.n == 3 ? a.in[1]->type.dtype : in_dtype;
  if (kind == K_CAST)
    out_dtype = (int32_t)onnx_attr_int(im->node, "to", 0);
  bool same_types = true;
  for (size_t i = 1; i < a.n; ++i)
    same_types &= kind == K_WHERE ? i == 1 || a.in[i]->type.dtype == a.in[1]->type.dtype
                                  : a.in[i]->type.dtype == in_dtype;
  /* Arithmetic on f32 folds only where double-then-round equals f32 arithmetic. */
  bool is_mod = strcmp(op, "Mod") == 0;
  bool exact = !is_mod || (is_int_like(in_dtype) && onnx_attr_int(im->node, "fmod", 0) == 0);
  bool expected_arity = kind == K_WHERE ? a.n == 3 : kind == K_UNARY || kind == K_CAST ? a.n == 1
                        : kind == K_ARITH && (op[1] == 'a' || op[1] == 'i') ? true : a.n == 2;
  bool bool_ok = kind == K_LOGIC || kind == K_WHERE || kind == K_CAST || kind == K_CMP ||
                 strcmp(op, "Not") == 0 || in_dtype != DT_BOOL;
  bool logic_ok = (kind != K_LOGIC && strcmp(op, "Not") != 0) || in_dtype == DT_BOOL;
  if (!same_types || !exact || !expected_arity || !bool_ok || !logic_ok || !foldable_dtype(out_dtype) ||
      !readable_dtype(in_dtype) || (a.n == 3 && !readable_dtype(a.in[1]->type.dtype)) ||
      (kind == K_WHERE && in_dtype != DT_BOOL)) {
    free_args(&a);
    return true;
  }
  int64_t n = onnx_num_elements(&a.out);
  size_t size = onnx_dtype_size(out_dtype);
  unsigned char *out = malloc((size_t)n * size + 1);
  bool ok = true;
  bool as_int = is_int_like(in_dtype);
  for (int64_t k = 0; k < n && ok; ++k) {
    const OnnxValue *x = a.in[0];
    int64_t xi = a.index[0][k];
    int64_t iv = 0;
    double fv = 0;
    switch (kind) {
    case K_ARITH: {
      const OnnxValue *y = a.n > 1 ? a.in[1] : a.in[0];
      int64_t yi = a.n > 1 ? a.index[1][k] : xi;
      if (as_int)
        iv = arith_i(op, get_i(x, xi), get_i(y, yi), &ok);
      else
        fv = arith_f(op, get_f(x, xi), get_f(y, yi));
      for (size_t j = 2; j < a.n && ok; ++j) /* variadic Max/Min */
        if (as_int)
          iv = arith_i(op, iv, get_i(a.in[j], a.index[j][k]), &ok);
        else
          fv = arith_f(op, fv, get_f(a.in[j], a.index[j][k]));
      break;
    }
    case K_CMP:
      if (as_int) { /* int64 beyond 2^53 does not survive a double */
        int64_t p = get_i(x, xi), q = get_i(a.in[1], a.index[1][k]);
        iv = cmp_f(op, (double)((p > q) - (p < q)), 0.0);
      } else {
        iv = cmp_f(op, get_f(x, xi), get_f(a.in[1], a.index[1][k]));
      }
      break;
    case K_UNARY:
      if (op[0] == 'N' && op[1] == 'o')
        iv = !get_i(x, xi);
      else if (as_int) { /* in uint64: -INT64_MIN wraps instead of overflowing */
        uint64_t v = (uint64_t)get_i(x, xi);
        iv = (int64_t)(op[0] == 'N' || (int64_t)v < 0 ? 0 - v : v);
      }
      else
        fv = op[0] == 'N' ? -get_f(x, xi) : fabs(get_f(x, xi));
      break;
    case K_LOGIC: {
      int64_t p = get_i(x, xi), q = get_i(a.in[1], a.index[1][k]);
      iv = op[0] == 'A' ? (p && q) : op[0] == 'O' ? (p || q) : (!p != !q);
      break;
    }
    case K_WHERE: {
      const OnnxValue *pick = get_i(x, xi) ? a.in[1] : a.in[2];
      int64_t at = get_i(x, xi) ? a.index[1][k] : a.index[2][k];
      iv = get_i(pick, at);
      fv = get_f(pick, at);
      break;
    }
    case K_CAST:
      iv = get_i(x, xi);
      fv = get_f(x, xi);
      /* f32 -> int: ONNX truncates; values outside int64 are left to the graph. */
      if (!as_int && out_dtype != DT_FLOAT && !(fabs(fv) < 9.2e18))
        ok = false;
      if (!as_int && out_dtype != DT_FLOAT)
        iv = out_dtype == DT_BOOL ? fv != 0 : (int64_t)fv;
      if (as_int && out_dtype == DT_FLOAT)
        fv = (double)iv;
      break;
    }
    put(out, out_dtype, k, iv, fv);
  }
  free_args(&a);
  if (!ok) {
    free(out);
    return true;
  }
  OnnxType t = a.out;
  t.dtype = out_dtype;
  OnnxData data = {.data = out, .nbytes = (size_t)n * size, .owned = out};
  *done = true;
  if (im->node->n_output < 1 || !im->node->output[0][0]) {
    onnx_data_free(&data);
    return true;
  }
  return onnx_define_constant(im, im->node->output[0], &t, &data);
}

bool onnx_try_fold(OnnxImporter *im, bool *done) {
  *done = false;
  const char *op = im->node->op_type;
  if (!onnx_all_inputs_const(im) || onnx_num_inputs(im->node) == 0)
    return true;
  for (size_t i = 0; i < sizeof fold_ops_table / sizeof *fold_ops_table; ++i)
    if (strcmp(fold_ops_table[i].op, op) == 0)
      return fold_elementwise(im, fold_ops_table[i].kind, done);
  return true;
}

/* ---- ops that only exist as shape arithmetic: always folded ---- */

/* Shape: the input's static dims (start/end from opset 15). */
static bool convert_shape(OnnxImporter *im) {
  OnnxValue *in = onnx_input(im, 0);
  if (!in)
    return false;
  int64_t rank = (int64_t)in->type.rank;
  int64_t start = onnx_attr_int(im->node, "start", 0), end = onnx_attr_int(im->node, "end", rank);
  start = start < 0 ? (start + rank < 0 ? 0 : start + rank) : (start > rank ? rank : start);
  end = end < 0 ? (end + rank < 0 ? 0 : end + rank) : (end > rank ? rank : end);
  int64_t n = end > start ? end - start : 0;
  OnnxType t = {.dtype = DT_INT64, .rank = 1, .dims = {n}};
  int64_t *out = malloc(((size_t)n + 1) * 8);
  memcpy(out, in->type.dims + start, (size_t)n * 8);
  OnnxData data = {.data = out, .nbytes = (size_t)n * 8, .owned = out};
  return onnx_define_constant(im, im->node->output[0], &t, &data);
}

static bool define_i64_scalar(OnnxImporter *im, int64_t value) {
  int64_t *out = malloc(8);
  *out = value;
  OnnxType t = {.dtype = DT_INT64, .rank = 0};
  OnnxData data = {.data = out, .nbytes = 8, .owned = out};
  return onnx_define_constant(im, im->node->output[0], &t, &data);
}

static bool convert_size(OnnxImporter *im) {
  OnnxValue *in = onnx_input(im, 0);
  return in && define_i64_scalar(im, onnx_num_elements(&in->type));
}

/* ConstantOfShape: a splat of `value` (default f32 0) with the constant shape. */
static bool convert_constant_of_shape(OnnxImporter *im) {
  OnnxType t = {0};
  size_t n = 0;
  if (!onnx_const_input_ints(im, 0, "the shape input", t.dims, ONNX_MAX_RANK, &n))
    return false;
  t.rank = n;
  for (size_t i = 0; i < n; ++i)
    if (t.dims[i] <= 0)
      return onnx_node_error(im, "shape entry %zu is %lld (zero-size tensors are not supported)", i,
                             (long long)t.dims[i]);
  if (!onnx_check_size(im, &t, "the result"))
    return false;
  unsigned char value[8] = {0};
  t.dtype = DT_FLOAT;
  const Onnx__AttributeProto *a = onnx_attr(im->node, "value");
  if (a && a->t) {
    OnnxType vt;
    OnnxData vd;
    if (!onnx_decode_tensor(im, a->t, "the value", &vt, &vd))
      return false;
    bool one = onnx_num_elements(&vt) == 1 && vd.nbytes <= sizeof value;
    if (one)
      memcpy(value, vd.data, vd.nbytes);
    onnx_data_free(&vd);
    if (!one)
      return onnx_node_error(im, "the value must hold one element");
    t.dtype = vt.dtype;
  }
  size_t size = onnx_dtype_size(t.dtype);
  int64_t count = onnx_num_elements(&t);
  if (count > ONNX_FOLD_LIMIT) { /* too large to keep as data: a splat in the graph */
    double v = 0;
    OnnxValue tmp = {.type = {.dtype = t.dtype}, .data = {.data = value, .nbytes = size}};
    if (t.dtype == DT_FLOAT || t.dtype == DT_DOUBLE || t.dtype == ONNX__TENSOR_PROTO__DATA_TYPE__INT8 ||
        is_int_like(t.dtype) || t.dtype == ONNX__TENSOR_PROTO__DATA_TYPE__INT16 ||
        t.dtype == ONNX__TENSOR_PROTO__DATA_TYPE__UINT8 || t.dtype == ONNX__TENSOR_PROTO__DATA_TYPE__UINT16 ||
        t.dtype == ONNX__TENSOR_PROTO__DATA_TYPE__UINT32)
      v = get_f(&tmp, 0);
    else if (memcmp(value, (unsigned char[8]){0}, size) != 0)
      return onnx_node_error(im, "a large non-zero %s fill is not supported", onnx_dtype_name(t.dtype));
    return onnx_set_output(im, 0, onnx_build_splat(im, &t, v), &t);
  }
  unsigned char *out = malloc((size_t)count * size + 1);
  for (int64_t k = 0; k < count; ++k)
    memcpy(out + k * size, value, size);
  OnnxData data = {.data = out, .nbytes = (size_t)count * size, .owned = out};
  return onnx_define_constant(im, im->node->output[0], &t, &data);
}

/* Range(start, limit, delta): max(ceil((limit - start) / delta), 0) elements
 * start + i * delta; the three inputs must be constants (static shapes). */
static bool convert_range(OnnxImporter *im) {
  OnnxValue *v[3];
  for (size_t i = 0; i < 3; ++i) {
    if (!(v[i] = onnx_input(im, i)))
      return false;
    if (!v[i]->is_const)
      return onnx_node_error(im, "the %s input ('%s') must be a constant (the result's size depends on it)",
                             i == 0 ? "start" : i == 1 ? "limit" : "delta", v[i]->name);
    if (onnx_num_elements(&v[i]->type) != 1 || !foldable_dtype(v[i]->type.dtype) ||
        v[i]->type.dtype == DT_BOOL || v[i]->type.dtype != v[0]->type.dtype)
      return onnx_node_error(im, "start, limit and delta must be scalars of one numeric type");
  }
  int32_t dtype = v[0]->type.dtype;
  bool as_int = dtype != DT_FLOAT;
  double start = get_f(v[0], 0), limit = get_f(v[1], 0), delta = get_f(v[2], 0);
  if (delta == 0)
    return onnx_node_error(im, "delta is 0");
  double count_f = ceil((limit - start) / delta);
  if (as_int) {
    int64_t s = get_i(v[0], 0), l = get_i(v[1], 0), d = get_i(v[2], 0);
    __int128 span = (__int128)l - s; /* no overflow for any int64 start/limit */
    count_f = (double)(span / d + (span % d != 0 && (span > 0) == (d > 0)));
  }
  if (!(count_f >= 1))
    return onnx_node_error(im, "the range is empty (zero-size tensors are not supported)");
  if (count_f > ONNX_FOLD_LIMIT)
    return onnx_node_error(im, "the range has %.0f elements (at most %d)", count_f, ONNX_FOLD_LIMIT);
  int64_t n = (int64_t)count_f;
  OnnxType t = {.dtype = dtype, .rank = 1, .dims = {n}};
  size_t size = onnx_dtype_size(dtype);
  unsigned char *out = malloc((size_t)n * size + 1);
  for (int64_t i = 0; i < n; ++i)
    put(out, dtype, i, (int64_t)((uint64_t)get_i(v[0], 0) + (uint64_t)i * (uint64_t)get_i(v[2], 0)),
        (double)(float)(start + (double)i * delta));
  OnnxData data = {.data = out, .nbytes = (size_t)n * size, .owned = out};
  return onnx_define_constant(im, im->node->output[0], &t, &data);
}

/* Sin, Cos, Tan: graph.sin / graph.cos (Tan = sin / cos); on constant f32 data
 * (rotary-embedding tables) computed at import in double and rounded once. */
static bool fold_trig(OnnxImporter *im, OnnxValue *in) {
  const char *op = im->node->op_type;
  int64_t n = onnx_num_elements(&in->type);
  float *out = malloc((size_t)n * 4 + 1);
  for (int64_t i = 0; i < n; ++i) {
    double x = get_f(in, i);
    out[i] = (float)(op[0] == 'S' ? sin(x) : op[0] == 'C' ? cos(x) : tan(x));
  }
  OnnxData data = {.data = out, .nbytes = (size_t)n * 4, .owned = out};
  if (im->node->n_output < 1 || !im->node->output[0][0]) {
    onnx_data_free(&data);
    return true;
  }
  return onnx_define_constant(im, im->node->output[0], &in->type, &data);
}

static bool convert_trig(OnnxImporter *im) {
  OnnxValue *in = onnx_input(im, 0);
  if (!in)
    return false;
  if (in->is_const && in->type.dtype == DT_FLOAT && onnx_num_elements(&in->type) <= ONNX_FOLD_LIMIT)
    return fold_trig(im, in);
  OcVal x = oc_input(im, 0);
  if (!oc_ok(x) || !onnx_require_float(im, &x.t, "the input"))
    return false;
  const char *op = im->node->op_type;
  if (op[0] == 'T')
    return oc_output(im, 0, oc_binary(im, "div", oc_unary(im, "sin", x), oc_unary(im, "cos", x)));
  return oc_output(im, 0, oc_unary(im, op[0] == 'S' ? "sin" : "cos", x));
}

const OnnxOpEntry onnx_fold_ops[] = {
    {"Sin", convert_trig, 7},
    {"Cos", convert_trig, 7},
    {"Tan", convert_trig, 7},
    {"Shape", convert_shape, 0},
    {"Size", convert_size, 0},
    {"ConstantOfShape", convert_constant_of_shape, 9},
    {"Range", convert_range, 11},
    {NULL, NULL, 0},
};
