/* The online form of an attention chain, as IR text (see passes/chains/online.h).
 *
 * For q [b, M, D], k [b, N, D], v [b, N, Dv], blocks of R query rows and B keys:
 *
 *   scf.forall (%i0, %im) = (0, 0) to (b, M) step (1, R) shared_outs(%out) {
 *     %q = tensor.extract_slice %arg0[%i0, %im, 0] [1, R, D] [1, 1, 1]
 *     %r:3 = scf.for %j = 0 to N step B iter_args(%m = -inf, %l = 0, %acc = 0) {
 *       %s  = q . k[j : j + B]^T                      (contraction over D, f32)
 *       %mx = max(%m, max_n scale * %s)               (the running max)
 *       %p  = exp(scale * %s - %mx)
 *       %al = exp(%m - %mx)                           (how much the old max overstated)
 *       %ln = %l * %al + sum_n %p                     (the running sum)
 *       %an = %acc * %al + %p . v[j : j + B]          (the rescaled partial output)
 *       scf.yield %mx, %ln, %an
 *     }
 *     %y = %r#2 / %r#1                                (normalized once)
 *   }
 *
 * Blocks that do not divide M or N take the last rows or keys with dynamic sizes
 * (affine.min). The probabilities are rounded to q's element type before the second
 * contraction (what the kernels did: the graph's softmax result has that type). */
#include <stdio.h>
#include <math.h>
#include <string.h>

#include "mlir-c/BuiltinTypes.h"
#include "passes/chains/online.h"

typedef enum { T_Q, T_K, T_V, T_S, T_P, T_ROW, T_ACC, T_Y, T_B } BlockKind;

typedef struct {
  BrazeStr *s;
  const OnlineChain *oc;
  int64_t rows, keys;  /* block sizes */
  bool dyn_m, dyn_n;   /* the last block is partial */
  const char *elem;    /* q, k, v's element type */
  const char *out;     /* the result's element type */
  const char *bias;    /* the bias's element type, or NULL without one */
  int nl;              /* loops of an elementwise generic: nb + 2 */
} Printer;

static const char *type_name(MlirType t) {
  if (mlirTypeIsAInteger(t))
    return "i1"; /* a boolean mask (OnlineBiasSelect) */
  return mlirTypeIsABF16(t) ? "bf16" : mlirTypeIsAF16(t) ? "f16" : mlirTypeIsAF32(t) ? "f32" : "f64";
}

/* An f32 attribute's value as MLIR prints it: infinities in hex. */
static void print_f32(BrazeStr *s, double x) {
  if (isinf(x))
    braze_str_puts(s, x < 0 ? "0xFF800000" : "0x7F800000");
  else
    braze_str_printf(s, "%.9e", x);
}

/* An f32 value's bits (the graph's constants are f32: exact). */
static unsigned f32_bits(double x) {
  float f = (float)x;
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

/* The bias's block: one element of each batch dim and broadcast dim, the block's rows and
 * keys for the dims read by m and n. */
static void print_bias_block(Printer *p) {
  const OnlineChain *oc = p->oc;
  braze_str_puts(p->s, "tensor<");
  for (int r = 0; r < oc->bias_rank; ++r) {
    int d = oc->bias_dims[r];
    if (d == oc->nb)
      p->dyn_m ? braze_str_puts(p->s, "?x") : braze_str_printf(p->s, "%lldx", (long long)p->rows);
    else if (d == oc->nb + 1)
      p->dyn_n ? braze_str_puts(p->s, "?x") : braze_str_printf(p->s, "%lldx", (long long)p->keys);
    else
      braze_str_puts(p->s, "1x");
  }
  braze_str_printf(p->s, "%s>", p->bias);
}

static void print_block_type(Printer *p, BlockKind k) {
  if (k == T_B) {
    print_bias_block(p);
    return;
  }
  braze_str_puts(p->s, "tensor<");
  for (int i = 0; i < p->oc->nb; ++i)
    braze_str_puts(p->s, "1x");
  bool keys_first = k == T_K || k == T_V; /* the block's first non-batch dim: keys or rows */
  if (keys_first ? p->dyn_n : p->dyn_m)
    braze_str_puts(p->s, "?");
  else
    braze_str_printf(p->s, "%lld", (long long)(keys_first ? p->keys : p->rows));
  switch (k) {
  case T_Q: case T_K: braze_str_printf(p->s, "x%lldx%s>", (long long)p->oc->d, p->elem); break;
  case T_V: braze_str_printf(p->s, "x%lldx%s>", (long long)p->oc->dv, p->elem); break;
  case T_S: case T_P:
    if (p->dyn_n)
      braze_str_puts(p->s, "x?");
    else
      braze_str_printf(p->s, "x%lld", (long long)p->keys);
    braze_str_printf(p->s, "x%s>", k == T_S ? "f32" : p->elem);
    break;
  case T_ROW: braze_str_puts(p->s, "x1xf32>"); break;
  case T_ACC: braze_str_printf(p->s, "x%lldxf32>", (long long)p->oc->dv); break;
  case T_Y: braze_str_printf(p->s, "x%lldx%s>", (long long)p->oc->dv, p->out); break;
  case T_B: break;
  }
}

static void print_type(BrazeStr *s, MlirType t) { mlirTypePrint(t, braze_str_callback, s); }

/* `%name = tensor.empty(dynamic sizes) : type` */
static void print_empty(Printer *p, const char *indent, const char *name, BlockKind k) {
  braze_str_printf(p->s, "%s%%%s = tensor.empty(", indent, name);
  bool rows = k != T_K && k != T_V, keys = k == T_K || k == T_V || k == T_S || k == T_P;
  const char *sep = "";
  if (rows && p->dyn_m)
    braze_str_puts(p->s, "%mr"), sep = ", ";
  if (keys && p->dyn_n)
    braze_str_printf(p->s, "%s%%nr", sep);
  braze_str_puts(p->s, ") : ");
  print_block_type(p, k);
  braze_str_puts(p->s, "\n");
}

/* affine_map<(d0, ..) -> (dims)>, a dim < 0 printing as 0. */
static void print_map(BrazeStr *s, int loops, const int *dims, int n) {
  braze_str_puts(s, "affine_map<(");
  for (int i = 0; i < loops; ++i)
    braze_str_printf(s, "%sd%d", i ? ", " : "", i);
  braze_str_puts(s, ") -> (");
  for (int i = 0; i < n; ++i)
    dims[i] < 0 ? braze_str_printf(s, "%s0", i ? ", " : "") : braze_str_printf(s, "%sd%d", i ? ", " : "", dims[i]);
  braze_str_puts(s, ")>");
}

/* Maps of an elementwise or row-reduction generic over nl loops: 'i' the identity,
 * 'r' the row (last dim 0). */
static void print_maps(Printer *p, const char *spec, bool reduces) {
  int id[ONLINE_MAX_BATCH + 3], row[ONLINE_MAX_BATCH + 3];
  for (int i = 0; i < p->nl; ++i)
    id[i] = row[i] = i;
  row[p->nl - 1] = -1;
  braze_str_puts(p->s, "{indexing_maps = [");
  int bias[ONLINE_MAX_BATCH + 3];
  for (int r = 0; r < p->oc->bias_rank; ++r)
    bias[r] = p->oc->bias_dims[r];
  for (const char *c = spec; *c; ++c) {
    braze_str_puts(p->s, c == spec ? "" : ", ");
    if (*c == 'b') /* the bias: its dims read by the same loops (batch..., m, n) */
      print_map(p->s, p->nl, bias, p->oc->bias_rank);
    else
      print_map(p->s, p->nl, *c == 'i' ? id : row, p->nl);
  }
  braze_str_puts(p->s, "], iterator_types = [");
  for (int i = 0; i < p->nl; ++i)
    braze_str_printf(p->s, "%s\"%s\"", i ? ", " : "", i == p->nl - 1 && reduces ? "reduction" : "parallel");
  braze_str_puts(p->s, "]}");
}

/* A contraction over nl + 1 loops (batch..., m, x, red): A reads (m, red), B reads
 * (b_first, b_second) of (x, red), the result (m, x). */
static void print_contraction_maps(Printer *p, bool b_keys_first) {
  int n = p->nl + 1, nb = p->oc->nb, a[ONLINE_MAX_BATCH + 3], b[ONLINE_MAX_BATCH + 3], o[ONLINE_MAX_BATCH + 3];
  for (int i = 0; i < nb; ++i)
    a[i] = b[i] = o[i] = i;
  a[nb] = nb, a[nb + 1] = nb + 2;
  b[nb] = b_keys_first ? nb + 2 : nb + 1, b[nb + 1] = b_keys_first ? nb + 1 : nb + 2;
  o[nb] = nb, o[nb + 1] = nb + 1;
  braze_str_puts(p->s, "{indexing_maps = [");
  print_map(p->s, n, a, p->nl);
  braze_str_puts(p->s, ", ");
  print_map(p->s, n, b, p->nl);
  braze_str_puts(p->s, ", ");
  print_map(p->s, n, o, p->nl);
  braze_str_puts(p->s, "], iterator_types = [");
  for (int i = 0; i < n; ++i)
    braze_str_puts(p->s, i == n - 1 ? "\"reduction\"" : "\"parallel\", ");
  braze_str_puts(p->s, "]}");
}

static void print_ins(Printer *p, const char *names, const BlockKind *kinds, int n) {
  braze_str_printf(p->s, " ins(%s : ", names);
  for (int i = 0; i < n; ++i) {
    braze_str_puts(p->s, i ? ", " : "");
    print_block_type(p, kinds[i]);
  }
  braze_str_puts(p->s, ")");
}

static void print_outs(Printer *p, const char *name, BlockKind k) {
  braze_str_printf(p->s, " outs(%%%s : ", name);
  print_block_type(p, k);
  braze_str_puts(p->s, ") {\n");
}

static void print_end(Printer *p, const char *yield, BlockKind k) {
  braze_str_printf(p->s, "        linalg.yield %%%s : f32\n      } -> ", yield);
  print_block_type(p, k);
  braze_str_puts(p->s, "\n");
}

/* q . k^T or p . v, accumulating in f32 from element type `in`. */
static void print_contraction(Printer *p, const char *res, const char *ins, const BlockKind *kinds, const char *init,
                              BlockKind out, bool b_keys_first, const char *in) {
  braze_str_printf(p->s, "      %%%s = linalg.generic ", res);
  print_contraction_maps(p, b_keys_first);
  print_ins(p, ins, kinds, 2);
  print_outs(p, init, out);
  braze_str_printf(p->s, "      ^bb0(%%a: %s, %%b: %s, %%o: f32):\n", in, in);
  bool widen = strcmp(in, "f32") != 0;
  if (widen)
    braze_str_printf(p->s, "        %%a1 = arith.extf %%a : %s to f32\n        %%b1 = arith.extf %%b : %s to f32\n", in, in);
  braze_str_printf(p->s, "        %%ab = arith.mulf %s, %s : f32\n        %%y = arith.addf %%o, %%ab : f32\n",
                   widen ? "%a1" : "%a", widen ? "%b1" : "%b");
  print_end(p, "y", out);
}

static void print_slice(Printer *p, const char *name, int arg, const char *row_iv, BlockKind k, MlirValue source) {
  braze_str_printf(p->s, "%s%%%s = tensor.extract_slice %%arg%d[", k == T_Q ? "    " : "      ", name, arg);
  for (int i = 0; i < p->oc->nb; ++i) /* k and v broadcast over a batch dim (their one slice) or grouped */
    if (k != T_Q && p->oc->kv_group[i] == 0)
      braze_str_puts(p->s, "0, ");
    else if (k != T_Q && p->oc->kv_group[i] > 1)
      braze_str_printf(p->s, "%%gi%d, ", i);
    else
      braze_str_printf(p->s, "%%i%d, ", i);
  bool keys = k != T_Q;
  braze_str_printf(p->s, "%s, 0] [", row_iv);
  for (int i = 0; i < p->oc->nb; ++i)
    braze_str_puts(p->s, "1, ");
  if (keys ? p->dyn_n : p->dyn_m)
    braze_str_puts(p->s, keys ? "%nr" : "%mr");
  else
    braze_str_printf(p->s, "%lld", (long long)(keys ? p->keys : p->rows));
  braze_str_printf(p->s, ", %lld] [", (long long)(k == T_V ? p->oc->dv : p->oc->d));
  for (int i = 0; i < p->oc->nb + 2; ++i)
    braze_str_puts(p->s, i ? ", 1" : "1");
  braze_str_puts(p->s, "] : ");
  print_type(p->s, mlirValueGetType(source));
  braze_str_puts(p->s, " to ");
  print_block_type(p, k);
  braze_str_puts(p->s, "\n");
}

/* In a generic whose block argument %b is the bias: %xs + %b as %xb; the name of the
 * biased score. */
static const char *print_bias_add(Printer *p) {
  if (!p->bias)
    return "%xs";
  if (p->oc->bias_select.on) {
    braze_str_puts(p->s, "        %bf = arith.select %b, %btrue, %bfalse : f32\n        %xb = arith.addf %xs, %bf : f32\n");
    return "%xb";
  }
  const char *b = "%b";
  if (strcmp(p->bias, "f32") != 0) {
    braze_str_printf(p->s, "        %%be = arith.extf %%b : %s to f32\n", p->bias);
    b = "%be";
  }
  if (p->oc->bias_affine.on) { /* (x + shift) * mul of the argument's element (online-bias.c) */
    braze_str_printf(p->s, "        %%bsh = arith.addf %s, %%bshift : f32\n        %%bf = arith.mulf %%bsh, %%bmul : f32\n", b);
    b = "%bf";
  }
  braze_str_printf(p->s, "        %%xb = arith.addf %%xs, %s : f32\n", b);
  return "%xb";
}

/* In a generic over a block of scores: %xs (the scaled score) kept where the key is at
 * most the row + the causal offset, else -inf; the kept score's name. */
static const char *print_causal_keep(Printer *p) {
  const char *x = print_bias_add(p);
  if (!p->oc->causal)
    return x;
  braze_str_printf(p->s, "        %%ri = linalg.index %d : index\n        %%ci = linalg.index %d : index\n"
                         "        %%rg = arith.addi %%im, %%ri : index\n        %%cg = arith.addi %%j, %%ci : index\n"
                         "        %%rl = arith.addi %%rg, %%coff : index\n        %%keep = arith.cmpi sle, %%cg, %%rl : index\n"
                         "        %%xk = arith.select %%keep, %s, %%ninf : f32\n",
                   p->oc->nb, p->oc->nb + 1, x);
  return "%xk";
}

/* %bb: the bias's block at (batch ivs, %im, %j). */
static void print_bias_slice(Printer *p) {
  const OnlineChain *oc = p->oc;
  braze_str_puts(p->s, "      %bb = tensor.extract_slice %arg3[");
  for (int r = 0; r < oc->bias_rank; ++r) {
    int d = oc->bias_dims[r];
    braze_str_puts(p->s, r ? ", " : "");
    if (d < 0)
      braze_str_puts(p->s, "0");
    else if (d == oc->nb)
      braze_str_puts(p->s, "%im");
    else if (d == oc->nb + 1)
      braze_str_puts(p->s, "%j");
    else
      braze_str_printf(p->s, "%%i%d", d);
  }
  braze_str_puts(p->s, "] [");
  for (int r = 0; r < oc->bias_rank; ++r) {
    int d = oc->bias_dims[r];
    braze_str_puts(p->s, r ? ", " : "");
    if (d == oc->nb)
      p->dyn_m ? braze_str_puts(p->s, "%mr") : braze_str_printf(p->s, "%lld", (long long)p->rows);
    else if (d == oc->nb + 1)
      p->dyn_n ? braze_str_puts(p->s, "%nr") : braze_str_printf(p->s, "%lld", (long long)p->keys);
    else
      braze_str_puts(p->s, "1");
  }
  braze_str_puts(p->s, "] [");
  for (int r = 0; r < oc->bias_rank; ++r)
    braze_str_puts(p->s, r ? ", 1" : "1");
  braze_str_puts(p->s, "] : ");
  print_type(p->s, mlirValueGetType(oc->bias));
  braze_str_puts(p->s, " to ");
  print_bias_block(p);
  braze_str_puts(p->s, "\n");
}

/* One loop over key blocks: `result`:3 = scf.for %j = lb to ub step `step` with the
 * running max, sum and output starting from init[0..2]. */
static void print_key_step(Printer *p, const char *result, const char *lb, const char *ub, const char *step,
                           const char *const init[3]) {
  const OnlineChain *oc = p->oc;
  braze_str_printf(p->s, "    %s:3 = scf.for %%j = %s to %s step %s iter_args(%%m = %s, %%l = %s, %%acc = %s) -> (",
                   result, lb, ub, step, init[0], init[1], init[2]);
  print_block_type(p, T_ROW);
  braze_str_puts(p->s, ", ");
  print_block_type(p, T_ROW);
  braze_str_puts(p->s, ", ");
  print_block_type(p, T_ACC);
  braze_str_puts(p->s, ") {\n");
  if (p->dyn_n)
    braze_str_printf(p->s, "      %%nr = affine.min affine_map<(d0) -> (%lld, %lld - d0)>(%%j)\n", (long long)p->keys,
                     (long long)oc->n);
  print_slice(p, "k", 1, "%j", T_K, oc->k);
  print_slice(p, "v", 2, "%j", T_V, oc->v);
  if (p->bias)
    print_bias_slice(p);
  print_empty(p, "      ", "se", T_S);
  braze_str_puts(p->s, "      %sz = linalg.fill ins(%zero : f32) outs(%se : ");
  print_block_type(p, T_S);
  braze_str_puts(p->s, ") -> ");
  print_block_type(p, T_S);
  braze_str_puts(p->s, "\n");
  BlockKind qk[2] = {T_Q, T_K}, sr[2] = {T_S, T_ROW}, rr[2] = {T_ROW, T_ROW}, s1[1] = {T_S}, pv[2] = {T_P, T_V},
            acc[3] = {T_ACC, T_ROW, T_ACC};
  print_contraction(p, "s", "%q, %k", qk, "sz", T_S, false, p->elem);
  BlockKind sb[2] = {T_S, T_B}, srb[3] = {T_S, T_ROW, T_B};
  braze_str_puts(p->s, "      %mx = linalg.generic ");
  print_maps(p, p->bias ? "ibr" : "ir", true);
  print_ins(p, p->bias ? "%s, %bb" : "%s", p->bias ? sb : s1, p->bias ? 2 : 1);
  print_outs(p, "m", T_ROW);
  if (p->bias)
    braze_str_printf(p->s, "      ^bb0(%%x: f32, %%b: %s, %%o: f32):\n", p->bias);
  else
    braze_str_puts(p->s, "      ^bb0(%x: f32, %o: f32):\n");
  braze_str_puts(p->s, "        %xs = arith.mulf %x, %scale : f32\n");
  braze_str_printf(p->s, "        %%y = arith.maximumf %s, %%o : f32\n", print_causal_keep(p));
  print_end(p, "y", T_ROW);
  braze_str_puts(p->s, "      %p = linalg.generic ");
  print_maps(p, p->bias ? "irbi" : "iri", false);
  print_ins(p, p->bias ? "%s, %mx, %bb" : "%s, %mx", p->bias ? srb : sr, p->bias ? 3 : 2);
  print_outs(p, "se", T_S);
  if (p->bias)
    braze_str_printf(p->s, "      ^bb0(%%x: f32, %%xm: f32, %%b: %s, %%o: f32):\n", p->bias);
  else
    braze_str_puts(p->s, "      ^bb0(%x: f32, %xm: f32, %o: f32):\n");
  braze_str_puts(p->s, "        %xs = arith.mulf %x, %scale : f32\n");
  braze_str_printf(p->s, "        %%t = arith.subf %s, %%xm : f32\n        %%y = math.exp %%t : f32\n", print_causal_keep(p));
  print_end(p, "y", T_S);
  braze_str_puts(p->s, "      %al = linalg.generic ");
  print_maps(p, "iii", false);
  print_ins(p, "%m, %mx", rr, 2);
  print_outs(p, "re", T_ROW);
  braze_str_puts(p->s, "      ^bb0(%x: f32, %xm: f32, %o: f32):\n        %t = arith.subf %x, %xm : f32\n"
                       "        %y = math.exp %t : f32\n");
  print_end(p, "y", T_ROW);
  braze_str_puts(p->s, "      %ls = linalg.generic ");
  print_maps(p, "iii", false);
  print_ins(p, "%l, %al", rr, 2);
  print_outs(p, "re", T_ROW);
  braze_str_puts(p->s, "      ^bb0(%x: f32, %a: f32, %o: f32):\n        %y = arith.mulf %x, %a : f32\n");
  print_end(p, "y", T_ROW);
  braze_str_puts(p->s, "      %ln = linalg.generic ");
  print_maps(p, "ir", true);
  print_ins(p, "%p", s1, 1);
  print_outs(p, "ls", T_ROW);
  braze_str_puts(p->s, "      ^bb0(%x: f32, %o: f32):\n        %y = arith.addf %x, %o : f32\n");
  print_end(p, "y", T_ROW);
  const char *probs = "%p";
  if (strcmp(p->elem, "f32") != 0) { /* the probabilities in q's element type */
    print_empty(p, "      ", "pe", T_P);
    braze_str_puts(p->s, "      %pc = linalg.generic ");
    print_maps(p, "ii", false);
    print_ins(p, "%p", s1, 1);
    print_outs(p, "pe", T_P);
    braze_str_printf(p->s, "      ^bb0(%%x: f32, %%o: %s):\n        %%y = arith.truncf %%x : f32 to %s\n"
                           "        linalg.yield %%y : %s\n      } -> ", p->elem, p->elem, p->elem);
    print_block_type(p, T_P);
    braze_str_puts(p->s, "\n");
    probs = "%pc";
  }
  braze_str_puts(p->s, "      %pz = linalg.fill ins(%zero : f32) outs(%ae : ");
  print_block_type(p, T_ACC);
  braze_str_puts(p->s, ") -> ");
  print_block_type(p, T_ACC);
  braze_str_puts(p->s, "\n");
  char pv_ins[16];
  snprintf(pv_ins, sizeof pv_ins, "%s, %%v", probs);
  print_contraction(p, "pv", pv_ins, pv, "pz", T_ACC, true, p->elem);
  braze_str_puts(p->s, "      %an = linalg.generic ");
  print_maps(p, "irii", false);
  print_ins(p, "%acc, %al, %pv", acc, 3);
  print_outs(p, "ae", T_ACC);
  braze_str_puts(p->s, "      ^bb0(%x: f32, %a: f32, %y0: f32, %o: f32):\n        %xa = arith.mulf %x, %a : f32\n"
                       "        %y = arith.addf %xa, %y0 : f32\n");
  print_end(p, "y", T_ACC);
  braze_str_puts(p->s, "      scf.yield %mx, %ln, %an : ");
  print_block_type(p, T_ROW);
  braze_str_puts(p->s, ", ");
  print_block_type(p, T_ROW);
  braze_str_puts(p->s, ", ");
  print_block_type(p, T_ACC);
  braze_str_puts(p->s, "\n    }\n");
}

static void print_normalize(Printer *p) {
  BlockKind ar[2] = {T_ACC, T_ROW};
  print_empty(p, "    ", "ye", T_Y);
  braze_str_puts(p->s, "    %y = linalg.generic ");
  print_maps(p, "iri", false);
  print_ins(p, "%r#2, %r#1", ar, 2);
  print_outs(p, "ye", T_Y);
  braze_str_printf(p->s, "      ^bb0(%%x: f32, %%l: f32, %%o: %s):\n        %%qt = arith.divf %%x, %%l : f32\n", p->out);
  if (strcmp(p->out, "f32") != 0)
    braze_str_printf(p->s, "        %%y = arith.truncf %%qt : f32 to %s\n        linalg.yield %%y : %s\n", p->out, p->out);
  else
    braze_str_puts(p->s, "        linalg.yield %qt : f32\n");
  braze_str_puts(p->s, "      } -> ");
  print_block_type(p, T_Y);
  braze_str_puts(p->s, "\n");
}

static void print_ivs(BrazeStr *s, int nb, const char *last) {
  for (int i = 0; i < nb; ++i)
    braze_str_printf(s, "%%i%d, ", i);
  braze_str_puts(s, last);
}

/* The key loops: one over all keys (the last block partial where key_block does not
 * divide them), or, with a static tail, one over the whole blocks and one step over the
 * tail. With a causal mask both end at the row block's last row + offset: whole blocks
 * above the diagonal are skipped. */
static void print_key_loops(Printer *p, int64_t tail) {
  const OnlineChain *oc = p->oc;
  int64_t reach = p->rows + oc->causal_offset, whole = oc->n - tail;
  if (oc->causal)
    braze_str_printf(p->s, "    %%kend = affine.min affine_map<(d0) -> (%lld, d0 + %lld)>(%%im)\n", (long long)oc->n,
                     (long long)reach);
  static const char *const fills[3] = {"%m0", "%l0", "%a0"}, *const whole_blocks[3] = {"%rw#0", "%rw#1", "%rw#2"};
  if (tail == 0) {
    print_key_step(p, "%r", "%c0", oc->causal ? "%kend" : "%cn", "%cb", fills);
    return;
  }
  if (oc->causal)
    braze_str_printf(p->s, "    %%kw = affine.min affine_map<(d0) -> (%lld, d0 + %lld)>(%%im)\n", (long long)whole,
                     (long long)reach);
  print_key_step(p, "%rw", "%c0", oc->causal ? "%kw" : "%cw", "%cb", fills);
  int64_t keys = p->keys;
  p->keys = tail;
  print_key_step(p, "%r", "%cw", oc->causal ? "%kend" : "%cn", "%ct", whole_blocks);
  p->keys = keys;
}

void online_print(BrazeStr *s, const OnlineChain *oc, const char *name, int64_t rows, int64_t key_block,
                  bool static_tail, const char *ops, int64_t score) {
  int64_t tail = static_tail ? oc->n % key_block : 0;
  Printer p = {.s = s, .oc = oc, .rows = rows, .keys = key_block, .dyn_m = oc->m % rows != 0,
               .dyn_n = !static_tail && oc->n % key_block != 0, .elem = type_name(oc->elem),
               .out = type_name(mlirShapedTypeGetElementType(oc->result)), .nl = oc->nb + 2,
               .bias = mlirValueIsNull(oc->bias) ? NULL : type_name(mlirShapedTypeGetElementType(mlirValueGetType(oc->bias)))};
  braze_str_printf(s, "func.func private @%s(%%arg0: ", name);
  print_type(s, mlirValueGetType(oc->q));
  braze_str_puts(s, ", %arg1: ");
  print_type(s, mlirValueGetType(oc->k));
  braze_str_puts(s, ", %arg2: ");
  print_type(s, mlirValueGetType(oc->v));
  if (!mlirValueIsNull(oc->bias)) {
    braze_str_puts(s, ", %arg3: ");
    print_type(s, mlirValueGetType(oc->bias));
  }
  braze_str_puts(s, ") -> ");
  print_type(s, oc->result);
  braze_str_puts(s, " attributes {kernel.kind = \"chain\", kernel.online = {");
  if (!mlirValueIsNull(oc->bias)) { /* the loop each bias dim reads (-1: broadcast) */
    braze_str_puts(s, "bias = array<i64: ");
    for (int r = 0; r < oc->bias_rank; ++r)
      braze_str_printf(s, "%s%d", r ? ", " : "", oc->bias_dims[r]);
    braze_str_puts(s, ">, ");
    if (oc->bias_select.on) { /* the bias is mask ? bias_true : bias_false */
      braze_str_puts(s, "bias_false = ");
      print_f32(s, oc->bias_select.when_false);
      braze_str_puts(s, " : f32, bias_true = ");
      print_f32(s, oc->bias_select.when_true);
      braze_str_puts(s, " : f32, ");
    }
    if (oc->bias_affine.on) /* the bias is (x + bias_shift) * bias_mul of the argument's x */
      braze_str_printf(s, "bias_mul = 0x%08X : f32, bias_shift = 0x%08X : f32, ", f32_bits(oc->bias_affine.mul),
                       f32_bits(oc->bias_affine.shift));
  }
  if (oc->causal)
    braze_str_printf(s, "causal = %lld : i64, ", (long long)oc->causal_offset);
  braze_str_printf(s, "key_block = %lld : i64, scale = %.9e : f32}, kernel.ops = %s, kernel.rows = %lld : i64, "
                      "kernel.score = %lld : i64} {\n",
                   (long long)key_block, oc->scale, ops, (long long)rows, (long long)score);
  if (oc->causal)
    braze_str_printf(s, "  %%coff = arith.constant %lld : index\n", (long long)oc->causal_offset);
  braze_str_puts(s, "  %zero = arith.constant 0.000000e+00 : f32\n  %ninf = arith.constant 0xFF800000 : f32\n");
  if (!mlirValueIsNull(oc->bias) && oc->bias_affine.on)
    braze_str_printf(s, "  %%bshift = arith.constant 0x%08X : f32\n  %%bmul = arith.constant 0x%08X : f32\n",
                     f32_bits(oc->bias_affine.shift), f32_bits(oc->bias_affine.mul));
  if (!mlirValueIsNull(oc->bias) && oc->bias_select.on) {
    braze_str_puts(s, "  %btrue = arith.constant ");
    print_f32(s, oc->bias_select.when_true);
    braze_str_puts(s, " : f32\n  %bfalse = arith.constant ");
    print_f32(s, oc->bias_select.when_false);
    braze_str_puts(s, " : f32\n");
  }
  braze_str_printf(s, "  %%scale = arith.constant %.9e : f32\n  %%c0 = arith.constant 0 : index\n"
                      "  %%cn = arith.constant %lld : index\n  %%cb = arith.constant %lld : index\n",
                   oc->scale, (long long)oc->n, (long long)key_block);
  if (tail)
    braze_str_printf(s, "  %%cw = arith.constant %lld : index\n  %%ct = arith.constant %lld : index\n",
                     (long long)(oc->n - tail), (long long)tail);
  braze_str_puts(s, "  %empty = tensor.empty() : ");
  print_type(s, oc->result);
  braze_str_puts(s, "\n  %res = scf.forall (");
  print_ivs(s, oc->nb, "%im) = (");
  for (int i = 0; i <= oc->nb; ++i)
    braze_str_puts(s, i ? ", 0" : "0");
  braze_str_puts(s, ") to (");
  for (int i = 0; i < oc->nb; ++i)
    braze_str_printf(s, "%lld, ", (long long)oc->batch[i]);
  braze_str_printf(s, "%lld) step (", (long long)oc->m);
  for (int i = 0; i < oc->nb; ++i)
    braze_str_puts(s, "1, ");
  braze_str_printf(s, "%lld) shared_outs(%%out = %%empty) -> (", (long long)rows);
  print_type(s, oc->result);
  braze_str_puts(s, ") {\n");
  if (p.dyn_m)
    braze_str_printf(s, "    %%mr = affine.min affine_map<(d0) -> (%lld, %lld - d0)>(%%im)\n", (long long)rows,
                     (long long)oc->m);
  for (int i = 0; i < oc->nb; ++i) /* grouped-query heads: k and v's batch index %gi = %i / g */
    if (oc->kv_group[i] > 1)
      braze_str_printf(s, "    %%gi%d = affine.apply affine_map<(d0) -> (d0 floordiv %lld)>(%%i%d)\n", i,
                       (long long)oc->kv_group[i], i);
  print_slice(&p, "q", 0, "%im", T_Q, oc->q);
  print_empty(&p, "    ", "re", T_ROW);
  braze_str_puts(s, "    %m0 = linalg.fill ins(%ninf : f32) outs(%re : ");
  print_block_type(&p, T_ROW);
  braze_str_puts(s, ") -> ");
  print_block_type(&p, T_ROW);
  braze_str_puts(s, "\n    %l0 = linalg.fill ins(%zero : f32) outs(%re : ");
  print_block_type(&p, T_ROW);
  braze_str_puts(s, ") -> ");
  print_block_type(&p, T_ROW);
  braze_str_puts(s, "\n");
  print_empty(&p, "    ", "ae", T_ACC);
  braze_str_puts(s, "    %a0 = linalg.fill ins(%zero : f32) outs(%ae : ");
  print_block_type(&p, T_ACC);
  braze_str_puts(s, ") -> ");
  print_block_type(&p, T_ACC);
  braze_str_puts(s, "\n");
  print_key_loops(&p, tail);
  print_normalize(&p);
  braze_str_puts(s, "    scf.forall.in_parallel {\n      tensor.parallel_insert_slice %y into %out[");
  print_ivs(s, oc->nb, "%im, 0] [");
  for (int i = 0; i < oc->nb; ++i)
    braze_str_puts(s, "1, ");
  if (p.dyn_m)
    braze_str_puts(s, "%mr");
  else
    braze_str_printf(s, "%lld", (long long)rows);
  braze_str_printf(s, ", %lld] [", (long long)oc->dv);
  for (int i = 0; i < oc->nb + 2; ++i)
    braze_str_puts(s, i ? ", 1" : "1");
  braze_str_puts(s, "] : ");
  print_block_type(&p, T_Y);
  braze_str_puts(s, " into ");
  print_type(s, oc->result);
  braze_str_puts(s, "\n    }\n  }\n  return %res : ");
  print_type(s, oc->result);
  braze_str_puts(s, "\n}\n");
}
