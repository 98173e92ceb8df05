/* Fuzz target (differential): the input bytes drive a generator of small f32 graph
 * functions (pointwise, broadcasting, reductions, softmax, matmul, transpose,
 * layer_norm, cmp/select, reshape, slice, concat, broadcast_to); each is compiled
 * for the CPU (a byte picks cpu-default, cpu-no-fusion or cpu-no-epilogue), loaded,
 * run on seeded random inputs and compared with the reference interpreter.
 *
 * A finding is a crash, a generated graph the verifier refuses (the generator only
 * writes valid graphs), a compile or run failure, or an output whose error passes
 * the bound: err = max |a - b| / max(|b|, 1e-2 * max |b|) over the output (braze
 * check's metric) above 1e-3. Inputs whose reference outputs hold a non-finite value
 * or one above 1e18 in magnitude are not compared (overflow thresholds differ
 * between libm and the compiled approximations). A cliff is a finding too: a compiled
 * call (the second one, past OpenMP's start) more than 100x slower than the reference
 * interpreter on the same input, and slower than 50 ms (below that, a call's fixed
 * costs can be 100 interpreted small ops). Issue 41's log_softmax over a middle dim ran
 * 3 minutes against the interpreter's 0.1 s. */
#include <math.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "braze/runtime.h"
#include "fuzz/harness.h"
#include "reference/reference.h"
#include "support/context.h"
#include "support/tensor.h"
#include "targets/target.h"

enum { MAX_VALUES = 24, MAX_OPS = 10, MAX_ARGS = 12, MAX_RANK = 4 };
static const double bound = 1e-3;
static const double cliff_ratio = 100.0, cliff_floor_s = 0.05;

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct {
  int rank;
  int64_t dims[MAX_RANK];
} Shape;

typedef struct {
  const uint8_t *data;
  size_t size, pos;
  BrazeStr body, args;
  Shape vals[MAX_VALUES];
  char names[MAX_VALUES][8];
  bool hidden[MAX_VALUES]; /* i1 values and large ones: never an operand */
  int n_vals, n_args, n_ssa;
} Gen;

static unsigned take(Gen *g, unsigned n) {
  unsigned v = g->pos < g->size ? g->data[g->pos++] : 0;
  return n ? v % n : 0;
}

static void type_str(const Shape *s, BrazeStr *out) {
  braze_str_puts(out, "tensor<");
  for (int i = 0; i < s->rank; ++i)
    braze_str_printf(out, "%lldx", (long long)s->dims[i]);
  braze_str_puts(out, "f32>");
}

static int64_t numel(const Shape *s) {
  int64_t n = 1;
  for (int i = 0; i < s->rank; ++i)
    n *= s->dims[i];
  return n;
}

static int64_t pick_dim(Gen *g) {
  static const int64_t dims[] = {1, 2, 3, 4, 5, 7, 8, 16, 17, 33};
  return dims[take(g, sizeof dims / sizeof *dims)];
}

static Shape random_shape(Gen *g) {
  Shape s = {1 + (int)take(g, 3), {0}};
  for (int i = 0; i < s.rank; ++i)
    s.dims[i] = pick_dim(g);
  return s;
}

/* A new function argument of shape `s`; its value index, or -1 when full. */
static int add_arg(Gen *g, const Shape *s) {
  if (g->n_vals == MAX_VALUES || g->n_args == MAX_ARGS)
    return -1;
  int v = g->n_vals++;
  g->vals[v] = *s;
  snprintf(g->names[v], sizeof g->names[v], "a%d", g->n_args);
  braze_str_printf(&g->args, "%s%%a%d: ", g->n_args ? ", " : "", g->n_args);
  type_str(s, &g->args);
  g->n_args++;
  return v;
}

/* Start `%N = "graph.OP"(` for a new value of shape `s`; -1 when full. */
static int begin_op(Gen *g, const Shape *s, const char *op) {
  if (g->n_vals == MAX_VALUES)
    return -1;
  int v = g->n_vals++;
  g->vals[v] = *s;
  snprintf(g->names[v], sizeof g->names[v], "%d", g->n_ssa++);
  braze_str_printf(&g->body, "  %%%s = \"graph.%s\"(", g->names[v], op);
  return v;
}

static void operands(Gen *g, const int *ins, int n) {
  for (int i = 0; i < n; ++i)
    braze_str_printf(&g->body, "%s%%%s", i ? ", " : "", g->names[ins[i]]);
  braze_str_puts(&g->body, ")");
}

static void signature(Gen *g, const int *ins, int n, int result) {
  braze_str_puts(&g->body, " : (");
  for (int i = 0; i < n; ++i) {
    if (i)
      braze_str_puts(&g->body, ", ");
    type_str(&g->vals[ins[i]], &g->body);
  }
  braze_str_puts(&g->body, ") -> ");
  type_str(&g->vals[result], &g->body);
  braze_str_puts(&g->body, "\n");
}

static int emit_simple(Gen *g, const char *op, const int *ins, int n, const Shape *s, const char *attrs) {
  int v = begin_op(g, s, op);
  if (v < 0)
    return -1;
  operands(g, ins, n);
  if (attrs && *attrs)
    braze_str_printf(&g->body, " {%s}", attrs);
  signature(g, ins, n, v);
  return v;
}

static int emit_unary(Gen *g, int x) {
  static const char *const ops[] = {"neg", "abs", "relu", "tanh", "sigmoid", "sin", "cos", "silu", "erf", "exp", "gelu"};
  const char *op = ops[take(g, sizeof ops / sizeof *ops)];
  const char *attrs = strcmp(op, "gelu") == 0 ? (take(g, 2) ? "approximate = \"none\"" : "approximate = \"tanh\"") : "";
  return emit_simple(g, op, &x, 1, &g->vals[x], attrs);
}

/* sqrt, log, rsqrt of |x| (no domain errors). */
static int emit_positive_unary(Gen *g, int x) {
  static const char *const ops[] = {"sqrt", "log", "rsqrt"};
  int a = emit_simple(g, "abs", &x, 1, &g->vals[x], "");
  return a < 0 ? -1 : emit_simple(g, ops[take(g, 3)], &a, 1, &g->vals[x], "");
}

/* A shape numpy-broadcastable against `s`: leading dims dropped, some dims set to 1. */
static Shape broadcast_variant(Gen *g, const Shape *s) {
  Shape b = *s;
  int drop = (int)take(g, (unsigned)s->rank);
  b.rank = s->rank - drop;
  memmove(b.dims, s->dims + drop, (size_t)b.rank * sizeof *b.dims);
  for (int i = 0; i < b.rank; ++i)
    if (take(g, 3) == 0)
      b.dims[i] = 1;
  return b;
}

static Shape broadcast(const Shape *a, const Shape *b) {
  Shape r = a->rank >= b->rank ? *a : *b;
  for (int i = 0; i < r.rank; ++i) {
    int ia = a->rank - r.rank + i, ib = b->rank - r.rank + i;
    int64_t da = ia >= 0 ? a->dims[ia] : 1, db = ib >= 0 ? b->dims[ib] : 1;
    r.dims[i] = da == 1 ? db : da;
  }
  return r;
}

static int emit_binary(Gen *g, int x) {
  static const char *const ops[] = {"add", "sub", "mul", "max", "min", "div"};
  Shape bs = broadcast_variant(g, &g->vals[x]);
  int y = add_arg(g, &bs);
  if (y < 0)
    return -1;
  int ins[2] = {x, y};
  if (take(g, 2)) {
    ins[0] = y;
    ins[1] = x;
  }
  Shape r = broadcast(&g->vals[ins[0]], &g->vals[ins[1]]);
  return emit_simple(g, ops[take(g, 6)], ins, 2, &r, "");
}

static int emit_reduce(Gen *g, int x) {
  static const char *const ops[] = {"reduce_sum", "reduce_max", "reduce_min", "reduce_mean", "reduce_var"};
  const Shape *s = &g->vals[x];
  unsigned mask = 1 + take(g, (1u << s->rank) - 1);
  bool keepdim = take(g, 2);
  const char *op = ops[take(g, 5)];
  Shape r = {0, {0}};
  BrazeStr attrs = {0};
  braze_str_puts(&attrs, "dims = array<i64: ");
  int64_t reduced = 1;
  bool first = true;
  for (int i = 0; i < s->rank; ++i) {
    if (mask & (1u << i)) {
      braze_str_printf(&attrs, "%s%d", first ? "" : ", ", i);
      first = false;
      reduced *= s->dims[i];
      if (keepdim)
        r.dims[r.rank++] = 1;
    } else {
      r.dims[r.rank++] = s->dims[i];
    }
  }
  braze_str_printf(&attrs, ">, keepdim = %s", keepdim ? "true" : "false");
  if (strcmp(op, "reduce_var") == 0)
    braze_str_printf(&attrs, ", correction = %d : i64", reduced > 1 ? (int)take(g, 2) : 0);
  int v = emit_simple(g, op, &x, 1, &r, braze_str_cstr(&attrs));
  braze_str_free(&attrs);
  return v;
}

static int emit_softmax(Gen *g, int x) {
  char attrs[32];
  snprintf(attrs, sizeof attrs, "dim = %u : i64", take(g, (unsigned)g->vals[x].rank));
  return emit_simple(g, take(g, 2) ? "softmax" : "log_softmax", &x, 1, &g->vals[x], attrs);
}

static int emit_matmul(Gen *g, int x) {
  Shape a = g->vals[x];
  if (a.rank < 2)
    return -1;
  int64_t k = a.dims[a.rank - 1], n = pick_dim(g);
  Shape b = a, r = a;
  if (a.rank == 2 && take(g, 2)) {
    b.dims[0] = k;
    b.dims[1] = n;
  } else {
    b.dims[b.rank - 2] = k;
    b.dims[b.rank - 1] = n;
    if (b.rank == 3 && take(g, 2))
      b.dims[0] = 1; /* broadcast batch */
    if (a.rank == 2) {
      b.rank = 3;
      b.dims[0] = pick_dim(g);
      b.dims[1] = k;
      b.dims[2] = n;
    }
  }
  int y = add_arg(g, &b);
  if (y < 0)
    return -1;
  int ins[2] = {x, y};
  if (a.rank == 2 && b.rank == 2) {
    r.dims[1] = n;
    return emit_simple(g, "matmul", ins, 2, &r, "");
  }
  Shape ba = {a.rank - 2, {0}}, bb = {b.rank - 2, {0}};
  memcpy(ba.dims, a.dims, sizeof(int64_t) * (size_t)ba.rank);
  memcpy(bb.dims, b.dims, sizeof(int64_t) * (size_t)bb.rank);
  r = broadcast(&ba, &bb);
  r.dims[r.rank++] = a.dims[a.rank - 2];
  r.dims[r.rank++] = n;
  return emit_simple(g, "batch_matmul", ins, 2, &r, "");
}

static int emit_transpose(Gen *g, int x) {
  const Shape *s = &g->vals[x];
  int perm[MAX_RANK];
  for (int i = 0; i < s->rank; ++i)
    perm[i] = i;
  for (int i = s->rank - 1; i > 0; --i) {
    int j = (int)take(g, (unsigned)i + 1), t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  Shape r = *s;
  BrazeStr attrs = {0};
  braze_str_puts(&attrs, "perm = array<i64: ");
  for (int i = 0; i < s->rank; ++i) {
    r.dims[i] = s->dims[perm[i]];
    braze_str_printf(&attrs, "%s%d", i ? ", " : "", perm[i]);
  }
  braze_str_puts(&attrs, ">");
  int v = emit_simple(g, "transpose", &x, 1, &r, braze_str_cstr(&attrs));
  braze_str_free(&attrs);
  return v;
}

static int emit_layer_norm(Gen *g, int x) {
  const Shape *s = &g->vals[x];
  int axis = (int)take(g, (unsigned)s->rank);
  Shape w = {s->rank - axis, {0}};
  memcpy(w.dims, s->dims + axis, sizeof(int64_t) * (size_t)w.rank);
  int wv = add_arg(g, &w), bv = wv < 0 ? -1 : add_arg(g, &w);
  if (bv < 0)
    return -1;
  int ins[3] = {x, wv, bv};
  char attrs[48];
  snprintf(attrs, sizeof attrs, "axis = %d : i64, eps = 1.0e-05 : f32", axis);
  return emit_simple(g, "layer_norm", ins, 3, &g->vals[x], attrs);
}

static int emit_select(Gen *g, int x) {
  static const char *const preds[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  if (g->n_vals + 3 > MAX_VALUES)
    return -1;
  int y = add_arg(g, &g->vals[x]);
  if (y < 0)
    return -1;
  int c = g->n_vals++;
  g->vals[c] = g->vals[x];
  g->hidden[c] = true;
  snprintf(g->names[c], sizeof g->names[c], "%d", g->n_ssa++);
  braze_str_printf(&g->body, "  %%%s = \"graph.cmp\"(%%%s, %%%s) {predicate = \"%s\"} : (", g->names[c], g->names[x],
                   g->names[y], preds[take(g, 6)]);
  type_str(&g->vals[x], &g->body);
  braze_str_puts(&g->body, ", ");
  type_str(&g->vals[x], &g->body);
  braze_str_puts(&g->body, ") -> ");
  BrazeStr t = {0};
  type_str(&g->vals[x], &t);
  braze_str_printf(&g->body, "%.*si1>\n", (int)t.len - 4, t.data);
  braze_str_free(&t);
  int v = begin_op(g, &g->vals[x], "select");
  if (v < 0)
    return -1;
  braze_str_printf(&g->body, "%%%s, %%%s, %%%s) : (", g->names[c], g->names[take(g, 2) ? x : y], g->names[y]);
  BrazeStr ct = {0};
  type_str(&g->vals[x], &ct);
  braze_str_printf(&g->body, "%.*si1>, ", (int)ct.len - 4, ct.data);
  braze_str_free(&ct);
  type_str(&g->vals[x], &g->body);
  braze_str_puts(&g->body, ", ");
  type_str(&g->vals[x], &g->body);
  braze_str_puts(&g->body, ") -> ");
  type_str(&g->vals[x], &g->body);
  braze_str_puts(&g->body, "\n");
  return v;
}

static int emit_reshape(Gen *g, int x) {
  const Shape *s = &g->vals[x];
  Shape r = {0, {0}};
  if (s->rank == 1 || take(g, 2)) { /* split or keep: [n] -> [1, n] or flatten the first two */
    r.rank = s->rank == MAX_RANK ? 1 : s->rank + 1;
    if (r.rank == 1)
      r.dims[0] = numel(s);
    else {
      r.dims[0] = 1;
      memcpy(r.dims + 1, s->dims, sizeof(int64_t) * (size_t)s->rank);
    }
  } else {
    r.rank = s->rank - 1;
    r.dims[0] = s->dims[0] * s->dims[1];
    memcpy(r.dims + 1, s->dims + 2, sizeof(int64_t) * (size_t)(s->rank - 2));
  }
  return emit_simple(g, "reshape", &x, 1, &r, "");
}

static int emit_slice(Gen *g, int x) {
  const Shape *s = &g->vals[x];
  Shape r = *s;
  BrazeStr starts = {0}, limits = {0}, strides = {0}, attrs = {0};
  for (int i = 0; i < s->rank; ++i) {
    int64_t start = (int64_t)take(g, (unsigned)s->dims[i]);
    int64_t limit = start + 1 + (int64_t)take(g, (unsigned)(s->dims[i] - start));
    int64_t stride = 1 + (int64_t)take(g, 3);
    r.dims[i] = (limit - start + stride - 1) / stride;
    braze_str_printf(&starts, "%s%lld", i ? ", " : "", (long long)start);
    braze_str_printf(&limits, "%s%lld", i ? ", " : "", (long long)limit);
    braze_str_printf(&strides, "%s%lld", i ? ", " : "", (long long)stride);
  }
  braze_str_printf(&attrs, "starts = array<i64: %s>, limits = array<i64: %s>, strides = array<i64: %s>",
                   braze_str_cstr(&starts), braze_str_cstr(&limits), braze_str_cstr(&strides));
  int v = emit_simple(g, "slice", &x, 1, &r, braze_str_cstr(&attrs));
  braze_str_free(&starts);
  braze_str_free(&limits);
  braze_str_free(&strides);
  braze_str_free(&attrs);
  return v;
}

static int emit_concat(Gen *g, int x) {
  const Shape *s = &g->vals[x];
  int dim = (int)take(g, (unsigned)s->rank);
  Shape o = *s;
  o.dims[dim] = pick_dim(g);
  int y = add_arg(g, &o);
  if (y < 0)
    return -1;
  Shape r = *s;
  r.dims[dim] += o.dims[dim];
  int ins[2] = {x, y};
  char attrs[32];
  snprintf(attrs, sizeof attrs, "dim = %d : i64", dim);
  return emit_simple(g, "concat", ins, 2, &r, attrs);
}

static int emit_broadcast_to(Gen *g, int x) {
  const Shape *s = &g->vals[x];
  if (s->rank == MAX_RANK)
    return -1;
  Shape r = {s->rank + 1, {0}};
  r.dims[0] = pick_dim(g);
  memcpy(r.dims + 1, s->dims, sizeof(int64_t) * (size_t)s->rank);
  for (int i = 1; i < r.rank; ++i)
    if (r.dims[i] == 1)
      r.dims[i] = pick_dim(g);
  return emit_simple(g, "broadcast_to", &x, 1, &r, "");
}

typedef int (*Emitter)(Gen *g, int x);
static const Emitter emitters[] = {emit_unary,     emit_unary,      emit_positive_unary, emit_binary,
                                   emit_binary,    emit_reduce,     emit_softmax,        emit_matmul,
                                   emit_transpose, emit_layer_norm, emit_select,         emit_reshape,
                                   emit_slice,     emit_concat,     emit_broadcast_to};

static const Emitter rank0_emitters[] = {emit_unary, emit_positive_unary, emit_binary, emit_broadcast_to};

/* An operand: the last value, or any earlier one that is f32 and small. */
static int pick_operand(Gen *g, int last) {
  if (take(g, 2))
    return last;
  int x = (int)take(g, (unsigned)g->n_vals);
  return g->hidden[x] ? last : x;
}

/* The function text; NULL when the bytes run out before any op. */
static char *generate(Gen *g) {
  Shape first = random_shape(g);
  add_arg(g, &first);
  int last = 0, n_ops = 1 + (int)take(g, MAX_OPS);
  for (int i = 0; i < n_ops; ++i) {
    int x = pick_operand(g, last);
    Emitter emit = g->vals[x].rank == 0 ? rank0_emitters[take(g, sizeof rank0_emitters / sizeof *rank0_emitters)]
                                        : emitters[take(g, sizeof emitters / sizeof *emitters)];
    int v = emit(g, x);
    if (v < 0)
      continue;
    if (numel(&g->vals[v]) > 40000)
      g->hidden[v] = true;
    else
      last = v;
  }
  if (last == 0)
    return NULL;
  int second = take(g, 3) == 0 ? (int)take(g, (unsigned)g->n_vals) : -1;
  if (second == last || (second >= 0 && g->hidden[second]))
    second = -1;
  BrazeStr text = {0}, results = {0}, ret = {0};
  type_str(&g->vals[last], &results);
  braze_str_printf(&ret, "%%%s", g->names[last]);
  if (second >= 0) {
    braze_str_puts(&results, ", ");
    type_str(&g->vals[second], &results);
    braze_str_printf(&ret, ", %%%s", g->names[second]);
  }
  braze_str_printf(&text, "func.func @f(%s) -> (%s) {\n%s  return %s : %s\n}\n", braze_str_cstr(&g->args),
                   braze_str_cstr(&results), braze_str_cstr(&g->body), braze_str_cstr(&ret), braze_str_cstr(&results));
  braze_str_free(&results);
  braze_str_free(&ret);
  return text.data;
}

/* ---- running ---- */

static double normal(uint64_t *state) {
  uint64_t z[2];
  for (int i = 0; i < 2; ++i) {
    uint64_t x = (*state += 0x9E3779B97F4A7C15ull);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    z[i] = x ^ (x >> 31);
  }
  double u1 = (double)(z[0] >> 11) * 0x1p-53, u2 = (double)(z[1] >> 11) * 0x1p-53;
  return braze_dtype_round(sqrt(-2.0 * log(1.0 - u1)) * cos(6.28318530717958647692 * u2), BRAZE_DTYPE_F32);
}

static void finding(const char *text, const char *what) {
  fprintf(stderr, "fuzz differential: %s\n--- the generated function ---\n%s", what, text);
  abort();
}

/* Compile `module` to scratch/lib.so and call @f; false (after a finding) never returns. */
static BrazeHostTensor *run_compiled(MlirOperation module, const char *pipeline, const char *text,
                                     const BrazeHostTensor *inputs, size_t n_in, size_t *n_out, double *call_s) {
  /* A new name each time: dlopen returns an already loaded library of the same path,
   * and one that uses OpenMP stays loaded after dlclose. */
  static unsigned counter;
  char so[4200];
  snprintf(so, sizeof so, "%s/lib%u.so", fz_scratch_dir(), counter++);
  BrazeEmitOptions emit = {.kind = BRAZE_EMIT_SHARED, .output = so, .source_name = "fuzz.mlir"};
  BrazeStr error = {0};
  if (!braze_target_compile(braze_target_lookup("cpu"), module, pipeline, &emit, &error) || fz_errors()) {
    fprintf(stderr, "%s\n", braze_str_cstr(&error));
    finding(text, "the compile failed");
  }
  braze_str_free(&error);
  char err[1024];
  BrazeLibrary *lib = braze_library_open(so, err, sizeof err);
  unlink(so);
  if (!lib)
    finding(text, err);
  const BrazeEntry *e = braze_library_entry(lib, "f");
  if (!e || (size_t)e->num_inputs != n_in)
    finding(text, "the library has no entry f taking the generated arguments");
  size_t n = (size_t)(e->num_inputs + e->num_outputs);
  void **buffers = calloc(n, sizeof *buffers);
  for (size_t i = 0; i < n; ++i) {
    buffers[i] = malloc(e->args[i].bytes + 1);
    if (i < n_in)
      braze_tensor_pack(&inputs[i], buffers[i]);
  }
  if (braze_entry_call(e, buffers) != 0)
    finding(text, "the compiled entry returned an error status");
  double t0 = now_s(); /* the second call: the inputs are unchanged (outputs are separate buffers) */
  if (braze_entry_call(e, buffers) != 0)
    finding(text, "the compiled entry returned an error status on its second call");
  *call_s = now_s() - t0;
  BrazeHostTensor *outs = calloc((size_t)e->num_outputs, sizeof *outs);
  for (int o = 0; o < e->num_outputs; ++o) {
    const BrazeArgInfo *a = &e->args[e->num_inputs + o];
    if (!braze_tensor_init(&outs[o], (BrazeDType)a->dtype, a->rank, a->dims))
      abort();
    braze_tensor_unpack(&outs[o], buffers[e->num_inputs + o]);
  }
  *n_out = (size_t)e->num_outputs;
  for (size_t i = 0; i < n; ++i)
    free(buffers[i]);
  free(buffers);
  braze_library_close(lib);
  return outs;
}

static bool comparable(const BrazeHostTensor *t) {
  for (int64_t i = 0; i < braze_tensor_numel(t); ++i)
    if (!isfinite(t->data[i]) || fabs(t->data[i]) > 1e18)
      return false;
  return true;
}

static double error_of(const BrazeHostTensor *got, const BrazeHostTensor *want) {
  double scale = 0.0, err = 0.0;
  int64_t n = braze_tensor_numel(want);
  for (int64_t i = 0; i < n; ++i)
    scale = fmax(scale, fabs(want->data[i]));
  double floor_denom = scale > 0 ? 1e-2 * scale : 1e-30;
  for (int64_t i = 0; i < n; ++i) {
    double a = got->data[i], b = want->data[i];
    double e = isnan(a) ? INFINITY : fabs(a - b) / fmax(fabs(b), floor_denom);
    err = fmax(err, e);
  }
  return err;
}

static void check(const char *text, uint64_t seed, const char *pipeline) {
  MlirOperation module = fz_load(text, strlen(text), "fuzz.mlir");
  if (mlirOperationIsNull(module))
    finding(text, "the graph verifier refused a generated function");
  MlirOperation oracle = mlirOperationClone(module);
  MlirOperation func = mlirBlockGetFirstOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(oracle, 0)));
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  size_t n_in = (size_t)mlirBlockGetNumArguments(entry);
  BrazeHostTensor *inputs = calloc(n_in, sizeof *inputs);
  for (size_t i = 0; i < n_in; ++i) {
    if (!braze_tensor_init_from_type(&inputs[i], mlirValueGetType(mlirBlockGetArgument(entry, (intptr_t)i))))
      abort();
    for (int64_t k = 0; k < braze_tensor_numel(&inputs[i]); ++k)
      inputs[i].data[k] = normal(&seed);
  }
  BrazeHostTensor *want = NULL;
  size_t n_want = 0, n_got = 0;
  double t0 = now_s();
  if (!braze_reference_run(func, inputs, n_in, &want, &n_want))
    finding(text, "the reference interpreter failed");
  double reference_s = now_s() - t0, call_s = 0;
  BrazeHostTensor *got = run_compiled(module, pipeline, text, inputs, n_in, &n_got, &call_s);
  if (call_s > cliff_floor_s && call_s > cliff_ratio * reference_s) {
    char what[160];
    snprintf(what, sizeof what, "a cliff: the compiled call takes %.3g s, %.0fx the reference interpreter's %.3g s",
             call_s, call_s / reference_s, reference_s);
    finding(text, what);
  }
  if (n_got != n_want)
    finding(text, "the compiled code and the reference give different output counts");
  for (size_t o = 0; o < n_want; ++o) {
    if (!comparable(&want[o]))
      continue;
    double err = error_of(&got[o], &want[o]);
    if (!(err <= bound)) {
      char what[128];
      snprintf(what, sizeof what, "output %zu differs from the reference: error %.3g > %.0e", o, err, bound);
      finding(text, what);
    }
  }
  braze_tensors_free(inputs, n_in);
  braze_tensors_free(want, n_want);
  braze_tensors_free(got, n_got);
  mlirOperationDestroy(oracle);
  mlirOperationDestroy(module);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char *pipelines[3];
  if (!pipelines[0]) {
    pipelines[0] = fz_pipeline("cpu-default");
    pipelines[1] = fz_pipeline("cpu-no-fusion");
    pipelines[2] = fz_pipeline("cpu-no-epilogue");
  }
  Gen g = {.data = data, .size = size};
  const char *pipeline = pipelines[take(&g, 3)];
  uint64_t seed = take(&g, 256);
  char *text = generate(&g);
  if (text)
    check(text, seed, pipeline);
  free(text);
  braze_str_free(&g.body);
  braze_str_free(&g.args);
  fz_done();
  return 0;
}
