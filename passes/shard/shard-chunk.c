/* shard-chunk: split the rows (dim 0, the tokens) of the computation feeding each
 * all_reduce of a partitioned function into chunks, each ending in its own all_reduce,
 * so that chunk i's all_reduce can run while chunk i+1 computes (the CUDA entry runs a
 * collective followed by independent work on its second stream: decision 0018,
 * "overlap"; decision 0020 says why chunks and not a fused GEMM + reduce-scatter).
 *
 * The **cone** of an all_reduce is the set of ops, walked back from its operand, whose
 * result rows depend only on the same rows of their row operands, and whose results
 * are read only inside the cone: pointwise ops (unary, binary, cmp, select, gelu,
 * silu; an operand that broadcasts along the rows is shared), matmul (A's rows; B is
 * shared), rms_norm / layer_norm with axis >= 1 and softmax / log_softmax over a dim
 * other than 0 (the weights are shared). A value the cone reads at a row position
 * that comes from elsewhere (an argument, an op outside the cone) is sliced per chunk
 * (graph.slice); shared operands are read whole by every chunk. Each chunk is the cone
 * cloned on its rows plus its all_reduce, in order, before the original all_reduce.
 * The readers of the sum that are row-wise themselves (the residual add of an FFN) are
 * carried through per chunk, and one graph.concat along dim 0 after them puts the rows
 * back together: form-kernels fuses it with those readers (one kernel reading each
 * chunk where it lies), so nothing is copied; a concat read only by the function's
 * return is a copy of the result. Every op computes the same values on the same rows,
 * so results are bit-identical to the unchunked program's.
 *
 * Chunks of different sizes are carried through the readers in **pieces** of their
 * greatest common divisor of rows (row slices of the chunks' sums), so that the
 * concat's inserts all have one shape and fuse with the readers into one kernel.
 *
 * Options (docs/passes.md#shard-chunk):
 *   chunks=N      chunks per all_reduce (default 2; 1: the pass does nothing)
 *   last-share=P  the last chunk's share of the rows in percent (default 25; 0: even
 *                 chunks): its all_reduce is the one left exposed, so it is the smaller
 *                 (W6 on two H100s: 1.802 ms against 1.832 for even chunks)
 *   sizes=R,R,..  the rows of each chunk, in order (instead of chunks=): they must add
 *                 up to the rows of every all_reduce the pass splits
 *   align=R       chunk boundaries of chunks= at multiples of R rows (default 128, the
 *                 CUDA tensor-core template's tile rows)
 *   pieces=N      at most N pieces for the readers and the concat (default 16; 1: the
 *                 chunks stay whole, and a concat of unequal chunks is a copy)
 *   min-bytes=B   leave all_reduces of fewer bytes per rank whole (default 16777216:
 *                 a smaller one is bound by latency, and chunking it adds latency)
 *   remarks       a remark per all_reduce: its chunks, or why it is left whole
 * Left whole (a remark says why): an all_reduce of a rank-0 value, under min-bytes,
 * whose operand is an argument or an op with no row rule, whose operand is also read
 * elsewhere, or with too few rows for the chunks. An error: sizes= that do not add up
 * to an all_reduce's rows, bad options. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "dialects/graph/graph.h"
#include "passes/graph/builder.h"
#include "passes/shard/shard-passes.h"
#include "support/context.h"
#include "support/diag.h"
#include "support/oplist.h"

enum { MAX_CHUNKS = 64 };

typedef struct {
  long long chunks, align, min_bytes, pieces, last_share;
  long long sizes[MAX_CHUNKS];
  int num_sizes; /* 0: chunks= */
  bool remarks;
} Options;

static const char *const option_names[] = {"chunks", "sizes",  "align",   "min-bytes",
                                           "pieces", "last-share", "remarks", NULL};

static bool parse_sizes(const BrazeOption *o, Options *out, BrazeStr *error) {
  const char *s = o->value ? o->value : "";
  while (*s) {
    char *end = NULL;
    long long v = strtoll(s, &end, 10);
    if (end == s || v <= 0 || v >= BRAZE_OPTION_INT_MAX || (*end && *end != ',') || out->num_sizes == MAX_CHUNKS) {
      braze_str_printf(error, "shard-chunk: sizes expects 2 to %d positive row counts separated by commas, got '%s'",
                       MAX_CHUNKS, o->value ? o->value : "");
      return false;
    }
    out->sizes[out->num_sizes++] = v;
    s = *end ? end + 1 : end;
  }
  if (out->num_sizes >= 2)
    return true;
  braze_str_printf(error, "shard-chunk: sizes expects 2 to %d positive row counts separated by commas, got '%s'",
                   MAX_CHUNKS, o->value ? o->value : "");
  return false;
}

static void *create_state(const BrazePassOptions *opts, BrazeStr *error) {
  Options *o = calloc(1, sizeof *o);
  const BrazeOption *sizes = braze_option_find(opts, "sizes");
  bool ok = braze_options_check(opts, "shard-chunk", option_names, error) &&
            braze_option_int(opts, "chunks", 2, &o->chunks, error) &&
            braze_option_int(opts, "align", 128, &o->align, error) &&
            braze_option_int(opts, "min-bytes", 16 << 20, &o->min_bytes, error) &&
            braze_option_int(opts, "pieces", 16, &o->pieces, error) &&
            braze_option_int(opts, "last-share", 25, &o->last_share, error) &&
            braze_option_bool(opts, "remarks", false, &o->remarks, error) && (!sizes || parse_sizes(sizes, o, error));
  if (ok && (o->chunks < 1 || o->chunks > MAX_CHUNKS)) {
    braze_str_printf(error, "shard-chunk: chunks must be 1 to %d, got %lld", MAX_CHUNKS, o->chunks);
    ok = false;
  }
  if (ok && (o->pieces < 1 || o->pieces > MAX_CHUNKS)) {
    braze_str_printf(error, "shard-chunk: pieces must be 1 to %d, got %lld", MAX_CHUNKS, o->pieces);
    ok = false;
  }
  if (ok && (o->last_share < 0 || o->last_share > 99)) {
    braze_str_printf(error, "shard-chunk: last-share must be 0 (even chunks) to 99 percent, got %lld", o->last_share);
    ok = false;
  }
  if (ok && o->align < 1) {
    braze_str_printf(error, "shard-chunk: align must be at least 1, got %lld", o->align);
    ok = false;
  }
  if (ok)
    return o;
  free(o);
  return NULL;
}

static void destroy_state(void *state) { free(state); }

/* ---- the row rules ---- */

static int64_t rows_of(MlirValue v) {
  int64_t shape[BRAZE_MAX_RANK];
  return braze_shape(mlirValueGetType(v), shape) > 0 ? shape[0] : -1;
}

/* Whether `op` computes each row of its result from the same rows of its row operands
 * alone; then row[i] says which operands are read by rows (the others are shared). */
static bool row_rule(MlirOperation op, bool *row) {
  const char *m = braze_graph_op_mnemonic(op);
  intptr_t n = mlirOperationGetNumOperands(op);
  if (!m || mlirOperationGetNumResults(op) != 1 || n > BRAZE_MAX_RANK)
    return false;
  MlirType res = mlirValueGetType(mlirOperationGetResult(op, 0));
  intptr_t rank = braze_rank(res);
  int64_t rows = rows_of(mlirOperationGetResult(op, 0)), attr = 0;
  if (rank < 1 || rows < 2)
    return false;
  for (intptr_t i = 0; i < n; ++i)
    row[i] = false;
  switch (braze_graph_op_class(op)) {
  case GRAPH_UNARY:
  case GRAPH_BINARY:
  case GRAPH_CMP:
  case GRAPH_SELECT:
  pointwise:
    /* an operand of the result's rank with its rows is read by rows; one of lower rank,
     * or with one row, broadcasts along them and is shared */
    for (intptr_t i = 0; i < n; ++i) {
      MlirValue v = mlirOperationGetOperand(op, i);
      row[i] = braze_rank(mlirValueGetType(v)) == rank && rows_of(v) == rows;
    }
    return true;
  case GRAPH_CONTRACTION:
    if (strcmp(m, "matmul") || rank != 2 || n != 2)
      return false;
    row[0] = true;
    return true;
  case GRAPH_COMPOSITE:
    if (!strcmp(m, "gelu") || !strcmp(m, "silu"))
      goto pointwise;
    if ((!strcmp(m, "rms_norm") || !strcmp(m, "layer_norm")) && braze_attr_i64(op, "axis", &attr) &&
        (attr < 0 ? attr + rank : attr) >= 1) { /* normalizes over dims >= axis: not the rows */
      row[0] = true;
      return true;
    }
    if ((!strcmp(m, "softmax") || !strcmp(m, "log_softmax")) && braze_attr_i64(op, "dim", &attr) &&
        (attr < 0 ? attr + rank : attr) != 0) {
      row[0] = true;
      return true;
    }
    return false;
  default:
    return false;
  }
}

/* ---- the cone ---- */

typedef struct {
  BrazeOpList ops; /* in program order */
} Cone;

static bool cone_has(const Cone *c, MlirOperation op) {
  for (size_t i = 0; i < c->ops.count; ++i)
    if (mlirOperationEqual(c->ops.ops[i], op))
      return true;
  return false;
}

static MlirOperation producer(MlirValue v) {
  return mlirValueIsAOpResult(v) ? mlirOpResultGetOwner(v) : (MlirOperation){NULL};
}

/* Candidates: every op reached back from `start` through row operands of ops with a
 * row rule. */
static void collect(MlirOperation start, Cone *c) {
  BrazeOpList work = {0};
  braze_op_list_push(&work, start);
  while (work.count) {
    MlirOperation op = work.ops[--work.count];
    bool row[BRAZE_MAX_RANK];
    if (cone_has(c, op) || !row_rule(op, row))
      continue;
    braze_op_list_push(&c->ops, op);
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
      MlirOperation p = producer(mlirOperationGetOperand(op, i));
      if (row[i] && !mlirOperationIsNull(p) && mlirBlockEqual(mlirOperationGetBlock(p), mlirOperationGetBlock(op)))
        braze_op_list_push(&work, p);
    }
  }
  braze_op_list_free(&work);
}

/* Whether every use of op's result is a row operand of a cone op or `reduce`. */
static bool read_only_inside(const Cone *c, MlirOperation op, MlirOperation reduce) {
  for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, 0)); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    bool row[BRAZE_MAX_RANK];
    if (mlirOperationEqual(user, reduce))
      continue;
    if (!cone_has(c, user) || !row_rule(user, row) || !row[mlirOpOperandGetOperandNumber(u)])
      return false;
  }
  return true;
}

/* Drop candidates read outside the cone until none is (what they feed reads them
 * whole: they stay, and the cone slices their results). */
static void prune(Cone *c, MlirOperation reduce) {
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < c->ops.count; ++i)
      if (!read_only_inside(c, c->ops.ops[i], reduce)) {
        c->ops.ops[i] = c->ops.ops[--c->ops.count];
        changed = true;
        break;
      }
  }
}

/* The cone in program order. */
static void sort_by_block(Cone *c, MlirOperation reduce) {
  BrazeOpList sorted = {0};
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirOperationGetBlock(reduce)); !mlirOperationEqual(op, reduce);
       op = mlirOperationGetNextInBlock(op))
    if (cone_has(c, op))
      braze_op_list_push(&sorted, op);
  braze_op_list_free(&c->ops);
  c->ops = sorted;
}

/* ---- chunk boundaries ---- */

/* The rows of each chunk, or 0 chunks with `why` set. */
static int plan_chunks(const Options *o, int64_t rows, int64_t *sizes, BrazeStr *why) {
  if (o->num_sizes) {
    int64_t sum = 0;
    for (int i = 0; i < o->num_sizes; ++i)
      sum += sizes[i] = o->sizes[i];
    if (sum == rows)
      return o->num_sizes;
    braze_str_printf(why, "sizes= adds up to %lld rows, the all_reduce's operand has %lld", (long long)sum,
                     (long long)rows);
    return -1;
  }
  /* the last chunk's share of the rows (last-share=), the others split the rest evenly */
  int64_t last = o->last_share ? (rows * o->last_share / 100 + o->align / 2) / o->align * o->align : 0;
  int64_t body = rows - last, even = last ? o->chunks - 1 : o->chunks, at = 0;
  for (int i = 0; i < o->chunks; ++i) {
    int64_t end = i + 1 == o->chunks ? rows
                  : i < even        ? (body * (i + 1) / even + o->align / 2) / o->align * o->align
                                    : body;
    if (end <= at || end > rows) {
      braze_str_printf(why, "%lld rows do not make %lld chunks at multiples of align=%lld", (long long)rows,
                       o->chunks, o->align);
      return 0;
    }
    sizes[i] = end - at;
    at = end;
  }
  return (int)o->chunks;
}

/* ---- the rewrite ---- */

typedef struct {
  MlirOperation reduce;
  const Cone *cone;
  MlirValue *clones; /* per cone op: its clone's result in the chunk being built */
} Chunker;

static MlirType with_rows(MlirType t, int64_t rows) {
  int64_t shape[BRAZE_MAX_RANK];
  intptr_t rank = braze_shape(t, shape);
  shape[0] = rows;
  return mlirRankedTensorTypeGet(rank, shape, braze_element_type(t), mlirAttributeGetNull());
}

static MlirValue slice_rows(MlirOperation before, MlirValue v, int64_t start, int64_t rows) {
  int64_t shape[BRAZE_MAX_RANK], starts[BRAZE_MAX_RANK] = {0}, strides[BRAZE_MAX_RANK];
  intptr_t rank = braze_shape(mlirValueGetType(v), shape);
  for (intptr_t d = 0; d < rank; ++d)
    strides[d] = 1;
  starts[0] = start;
  shape[0] = start + rows;
  GraphBuilder b = braze_gb_before(before);
  MlirContext ctx = mlirOperationGetContext(before);
  MlirNamedAttribute attrs[3] = {braze_gb_attr_i64_array(ctx, "starts", starts, rank),
                                 braze_gb_attr_i64_array(ctx, "limits", shape, rank),
                                 braze_gb_attr_i64_array(ctx, "strides", strides, rank)};
  return mlirOperationGetResult(
      braze_gb_create(&b, "slice", &v, 1, with_rows(mlirValueGetType(v), rows), attrs, 3), 0);
}

static int cone_index(const Cone *c, MlirOperation op) {
  for (size_t i = 0; i < c->ops.count; ++i)
    if (mlirOperationEqual(c->ops.ops[i], op))
      return (int)i;
  return -1;
}

/* Rows [start, start + rows) of the cone, and their all_reduce, before the original. */
static MlirValue build_chunk(Chunker *k, int64_t start, int64_t rows) {
  for (size_t i = 0; i < k->cone->ops.count; ++i) {
    MlirOperation op = k->cone->ops.ops[i], copy = mlirOperationClone(op);
    bool row[BRAZE_MAX_RANK];
    row_rule(op, row);
    for (intptr_t j = 0; j < mlirOperationGetNumOperands(op); ++j) {
      if (!row[j])
        continue;
      MlirValue v = mlirOperationGetOperand(op, j);
      int at = mlirValueIsAOpResult(v) ? cone_index(k->cone, producer(v)) : -1;
      mlirOperationSetOperand(copy, j, at >= 0 ? k->clones[at] : slice_rows(k->reduce, v, start, rows));
    }
    MlirValue res = mlirOperationGetResult(copy, 0);
    mlirValueSetType(res, with_rows(mlirValueGetType(res), rows));
    mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(k->reduce), k->reduce, copy);
    k->clones[i] = res;
  }
  MlirOperation sum = mlirOperationClone(k->reduce);
  mlirOperationSetOperand(sum, 0, k->clones[k->cone->ops.count - 1]);
  MlirValue out = mlirOperationGetResult(sum, 0);
  mlirValueSetType(out, with_rows(mlirValueGetType(out), rows));
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(k->reduce), k->reduce, sum);
  return out;
}

/* The chunks' sums in order along dim 0: a left-nested chain of binary concats. */
static MlirValue concat_rows(MlirOperation before, const MlirValue *parts, int n) {
  MlirContext ctx = mlirOperationGetContext(before);
  MlirValue acc = parts[0];
  int64_t rows = rows_of(acc);
  for (int i = 1; i < n; ++i) {
    rows += rows_of(parts[i]);
    GraphBuilder b = braze_gb_before(before);
    MlirValue ops[2] = {acc, parts[i]};
    MlirNamedAttribute dim = mlirNamedAttributeGet(mlirIdentifierGet(ctx, braze_ref("dim")),
                                                   mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), 0));
    acc = mlirOperationGetResult(braze_gb_create(&b, "concat", ops, 2, with_rows(mlirValueGetType(acc), rows), &dim, 1),
                                 0);
  }
  return acc;
}

/* The one op that reads `v`, when it reads it only by rows (the residual add after
 * an FFN's all_reduce), or null. */
static MlirOperation row_reader(MlirValue v) {
  MlirOpOperand first = mlirValueGetFirstUse(v);
  bool row[BRAZE_MAX_RANK];
  if (mlirOpOperandIsNull(first) || !row_rule(mlirOpOperandGetOwner(first), row))
    return (MlirOperation){NULL};
  MlirOperation user = mlirOpOperandGetOwner(first);
  for (MlirOpOperand u = first; !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
    if (!mlirOperationEqual(mlirOpOperandGetOwner(u), user) || !row[mlirOpOperandGetOperandNumber(u)])
      return (MlirOperation){NULL};
  return user;
}

/* Carry the chunks through `user`, which reads `v` by rows: one clone per chunk, right
 * before it, on the chunk's value and rows of its other row operands. */
static void carry_through(MlirOperation user, MlirValue v, MlirValue *parts, const int64_t *sizes, int n) {
  bool row[BRAZE_MAX_RANK];
  row_rule(user, row);
  int64_t start = 0;
  for (int i = 0; i < n; ++i) {
    MlirOperation copy = mlirOperationClone(user);
    for (intptr_t j = 0; j < mlirOperationGetNumOperands(user); ++j) {
      MlirValue w = mlirOperationGetOperand(user, j);
      if (row[j])
        mlirOperationSetOperand(copy, j, mlirValueEqual(w, v) ? parts[i] : slice_rows(user, w, start, sizes[i]));
    }
    MlirValue res = mlirOperationGetResult(copy, 0);
    mlirValueSetType(res, with_rows(mlirValueGetType(res), sizes[i]));
    mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(user), user, copy);
    parts[i] = res;
    start += sizes[i];
  }
}

static int64_t gcd64(int64_t a, int64_t b) {
  while (b) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* Chunks of different sizes: the readers carried before the concat work on pieces of
 * the sizes' greatest common divisor, so that every insert of the concat has one shape
 * and form-kernels fuses the readers with it (a concat of pieces of different shapes
 * is a kernel of its own: a copy of the whole result). The pieces are row slices of
 * the chunks' sums, made before `before`; at most max_pieces of them, else the chunks
 * stay whole. Returns how many values parts and sizes now hold. */
static int split_into_pieces(MlirOperation before, MlirValue *parts, int64_t *sizes, int n, long long max_pieces) {
  int64_t g = sizes[0], rows = 0;
  for (int i = 0; i < n; ++i) {
    g = gcd64(g, sizes[i]);
    rows += sizes[i];
  }
  if (rows / g == n || rows / g > max_pieces)
    return n;
  MlirValue pieces[MAX_CHUNKS];
  int m = 0;
  for (int i = 0; i < n; ++i)
    for (int64_t at = 0; at < sizes[i]; at += g)
      pieces[m++] = sizes[i] == g ? parts[i] : slice_rows(before, parts[i], at, g);
  for (int j = 0; j < m; ++j) {
    parts[j] = pieces[j];
    sizes[j] = g;
  }
  return m;
}

/* Returns how many row-wise readers of the sum the chunks were carried through; *pieces
 * how many pieces the concat puts together. */
static int rewrite(MlirOperation reduce, const Cone *cone, const int64_t *chunk_rows, int n, long long max_pieces,
                   int *pieces) {
  MlirValue parts[MAX_CHUNKS];
  int64_t sizes[MAX_CHUNKS];
  memcpy(sizes, chunk_rows, (size_t)n * sizeof *sizes);
  Chunker k = {reduce, cone, calloc(cone->ops.count, sizeof(MlirValue))};
  int64_t start = 0;
  for (int i = 0; i < n; ++i) {
    parts[i] = build_chunk(&k, start, sizes[i]);
    start += sizes[i];
  }
  free(k.clones);
  /* the concat goes after the last reader the chunks pass through, so that form-kernels
   * sees each chunk's reader on its own rows (a reader of the whole concat iterates over
   * another space and is not fused with it) */
  BrazeOpList carried = {0};
  MlirValue v = mlirOperationGetResult(reduce, 0);
  if (!mlirOperationIsNull(row_reader(v)))
    n = split_into_pieces(reduce, parts, sizes, n, max_pieces);
  *pieces = n;
  for (MlirOperation u = row_reader(v); !mlirOperationIsNull(u); u = row_reader(v)) {
    carry_through(u, v, parts, sizes, n);
    braze_op_list_push(&carried, u);
    v = mlirOperationGetResult(u, 0);
  }
  MlirOperation last = carried.count ? carried.ops[carried.count - 1] : reduce;
  MlirValue whole = concat_rows(last, parts, n);
  mlirValueReplaceAllUsesOfWith(v, whole);
  for (size_t i = carried.count; i-- > 0;) /* users first */
    mlirOperationDestroy(carried.ops[i]);
  int num_carried = (int)carried.count;
  braze_op_list_free(&carried);
  mlirOperationDestroy(reduce);
  for (size_t i = cone->ops.count; i-- > 0;) /* users first: each read only inside */
    mlirOperationDestroy(cone->ops.ops[i]);
  return num_carried;
}

/* ---- driving ---- */

static const char *op_name(MlirOperation op, char *buf, size_t len) {
  MlirStringRef s = mlirIdentifierStr(mlirOperationGetName(op));
  snprintf(buf, len, "%.*s", (int)s.length, s.data);
  return buf;
}

static void remark_chunks(MlirLocation loc, const Cone *cone, const int64_t *sizes, int n, int64_t bytes,
                          int carried, int pieces) {
  BrazeStr rows = {0};
  for (int i = 0; i < n; ++i)
    braze_str_printf(&rows, "%s%lld", i ? ", " : "", (long long)sizes[i]);
  braze_emit_remark(loc,
                    "shard-chunk: all_reduce of %lld bytes per rank in %d chunks of rows [%s]: %zu op(s) each, "
                    "then its own all_reduce; carried through %d reader(s) in %d piece(s) before the concat",
                    (long long)bytes, n, braze_str_cstr(&rows), cone->ops.count, carried, pieces);
  braze_str_free(&rows);
}

/* Why the all_reduce is left whole, or NULL; fills the cone when not. */
static const char *refusal(MlirOperation reduce, const Options *o, Cone *cone, int64_t *bytes, char *buf, size_t len) {
  MlirValue x = mlirOperationGetOperand(reduce, 0);
  int64_t elements = 0;
  if (braze_rank(mlirValueGetType(x)) < 1)
    return "a rank-0 value has no rows to split";
  braze_tensor_size(mlirValueGetType(x), &elements, bytes);
  if (*bytes < o->min_bytes) {
    snprintf(buf, len, "%lld bytes per rank, under min-bytes=%lld", (long long)*bytes, o->min_bytes);
    return buf;
  }
  MlirOperation p = producer(x);
  bool row[BRAZE_MAX_RANK];
  if (mlirOperationIsNull(p))
    return "its operand is a function argument: no computation to overlap";
  if (!row_rule(p, row)) {
    char name[64];
    snprintf(buf, len, "its operand is made by %s, which has no row rule: no computation to overlap",
             op_name(p, name, sizeof name));
    return buf;
  }
  collect(p, cone);
  prune(cone, reduce);
  if (!cone_has(cone, p))
    return "its operand is also read elsewhere, whole";
  sort_by_block(cone, reduce);
  return NULL;
}

/* Split one all_reduce; false after an error. */
static bool chunk_reduce(MlirOperation reduce, const Options *o) {
  Cone cone = {0};
  int64_t bytes = 0, sizes[MAX_CHUNKS];
  char buf[160];
  BrazeStr why = {0};
  const char *no = refusal(reduce, o, &cone, &bytes, buf, sizeof buf);
  int n = no ? 0 : plan_chunks(o, rows_of(mlirOperationGetOperand(reduce, 0)), sizes, &why);
  bool ok = n >= 0;
  if (n < 0)
    braze_emit_error(mlirOperationGetLocation(reduce), "shard-chunk: %s", braze_str_cstr(&why));
  else if (n == 0 && o->remarks)
    braze_emit_remark(mlirOperationGetLocation(reduce), "shard-chunk: all_reduce left whole: %s",
                      no ? no : braze_str_cstr(&why));
  else if (n > 0) {
    MlirLocation loc = mlirOperationGetLocation(reduce);
    int pieces = 0, carried = rewrite(reduce, &cone, sizes, n, o->pieces, &pieces);
    if (o->remarks)
      remark_chunks(loc, &cone, sizes, n, bytes, carried, pieces);
  }
  braze_str_free(&why);
  braze_op_list_free(&cone.ops);
  return ok;
}

static bool is_all_reduce(MlirOperation op) { return braze_op_is(op, "graph.all_reduce"); }

static bool run(MlirOperation func, void *state) {
  const Options *o = state;
  if (o->chunks == 1 && !o->num_sizes)
    return true;
  BrazeOpList reduces = {0};
  braze_op_list_collect(func, is_all_reduce, &reduces);
  bool ok = true;
  for (size_t i = 0; i < reduces.count; ++i)
    ok = chunk_reduce(reduces.ops[i], o) && ok;
  braze_op_list_free(&reduces);
  return ok;
}

const BrazePassInfo braze_pass_shard_chunk = {
    .argument = "shard-chunk",
    .summary = "Split the rows of the computation feeding each all_reduce into chunks, each with its own "
               "all_reduce, so that collectives overlap the next chunk's compute",
    .options_help = "    chunks=N             chunks per all_reduce (default 2; 1: off)\n"
                    "    last-share=P         the last chunk's share of the rows in percent (default 25; 0: even)\n"
                    "    sizes=R,R,...        the rows of each chunk, in order (instead of chunks=)\n"
                    "    align=R              chunk boundaries at multiples of R rows (default 128)\n"
                    "    min-bytes=B          leave all_reduces under B bytes per rank whole (default 16777216)\n"
                    "    pieces=N             at most N equal pieces for the readers and the concat (default 16)\n"
                    "    remarks              a remark per all_reduce: its chunks, or why it is left whole\n",
    .anchor = "func.func",
    .create_state = create_state,
    .destroy_state = destroy_state,
    .run = run,
};
