/* form-row-chains internals: the online-softmax rewrite of an attention chain
 * (passes/chains/online.c).
 *
 * An attention chain is four kernels of the graph function, found from their bodies:
 *
 *   %s = call @scores(%q, %k)      a contraction over the head dim: s[b, m, n] = q[b, m, :] . k[b, n, :]
 *   %x = call @rowmax(%s)          max over n of f(s), f a scaling (mul or div by a constant,
 *                                  roundings to the graph's element type)
 *   %p = call @probs(%s, %x)       e = exp(f(s) - x), then e / sum over n of e
 *                                  (or %p = call @probs(%s) with the row max inside)
 *   %y = call @output(%p, %v)      a contraction over the keys: y[b, m, :] = p[b, m, :] . v[b, :, :]
 *
 * and the probabilities %p used by %y alone. f may keep the scores by a constant mask
 * (select(mask[m, n], f(s), -inf)) when the mask is causal: row i keeps keys j <= i + c,
 * and add a bias tensor read by (batch..., m, n), any of them broadcast (0), n last. k and v
 * may share a batch dim of q: extent 1 (broadcast), or q's extent / g read by index / g
 * (grouped-query heads, repeat_kv's expand + reshape). The rewrite runs the keys in blocks with a
 * running max and sum per row and a rescaled partial output, normalized once at the end
 * (the flash-attention recurrence), so no row of scores is ever whole: see
 * online_print for the IR. */
#ifndef BRAZE_PASSES_CHAINS_ONLINE_H
#define BRAZE_PASSES_CHAINS_ONLINE_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/IR.h"
#include "support/strbuf.h"

enum { ONLINE_MAX_BATCH = 4 };

/* A bias computed from a boolean mask in the kernels: mask ? when_true : when_false
 * (select(m, 0, -inf) from mask-to-bias), the chain's fourth argument then the i1 mask. */
typedef struct {
  bool on;
  double when_true, when_false;
} OnlineBiasSelect;

/* A bias computed from a small input in the kernels: (x + shift) * mul of the bias
 * argument's element x (BERT's (1 - mask) * finfo.min, a [batch, keys] mask broadcast
 * over heads and queries: shift -1, mul -finfo.min), evaluated per score by the chain
 * instead of materialized (passes/chains/online-bias.c). */
typedef struct {
  bool on;
  double shift, mul;
} OnlineBiasAffine;

typedef struct {
  MlirOperation calls[4];   /* scores, rowmax (null: inside probs), probs, output: the graph function's calls */
  MlirOperation kernels[4]; /* their kernels */
  MlirValue q, k, v;        /* the chain's arguments */
  double scale;             /* f(s) = scale * s */
  int nb;                   /* batch dims */
  int64_t batch[ONLINE_MAX_BATCH];
  int64_t kv_group[ONLINE_MAX_BATCH]; /* how batch dim i of k and v is read: 1 as q's, 0 broadcast
                             * (extent 1), g > 1 as q's index / g (grouped-query heads) */
  int64_t m, n, d, dv;      /* query rows, keys, head dims of q/k and of v */
  MlirType elem;            /* the element type of q, k and v */
  MlirType result;          /* the chain's result type (the output kernel's) */
  MlirAttribute mask;       /* the constant keep-mask the scores are selected by, or null */
  MlirValue bias;           /* a tensor added to the scaled scores (an additive mask, a
                             * position bias), or null: the chain's fourth argument */
  int bias_rank;
  int8_t bias_dims[ONLINE_MAX_BATCH + 2]; /* the loop (batch..., m, n) each bias dim reads, -1: 0 */
  OnlineBiasSelect bias_select; /* on: the bias argument is an i1 mask, the bias its select */
  OnlineBiasAffine bias_affine; /* on: the bias is (x + shift) * mul of the argument's x */
  bool bias_relayout;       /* the bias is a constant read by a permutation of the loops (T5's
                             * [queries, keys, heads]): online_bias_relayout lays it out in
                             * loop order before the chain is built */
  bool bias_in_kernel;      /* the bias is a constant inside the kernels (form-kernels clones small
                             * ones): online_bias_relayout puts it in the graph function */
  bool bias_relaid;         /* online_bias_relayout made the graph function's constant */
  bool causal;              /* the mask keeps keys j <= i + causal_offset of query i */
  int64_t causal_offset;
  bool plausible;           /* the calls have an attention chain's shape, its softmax an exp:
                             * a refusal is worth a remark */
} OnlineChain;

typedef MlirOperation (*OnlineCallee)(void *user, MlirOperation call);

/* The refusals of a contraction that reads q or k (v) through a view: form-row-chains
 * then gives that kernel copies in the plain layout (passes/chains/heads.h) and tries
 * again. */
#define ONLINE_QK_VIEW "q-or-k-read-through-a-view"
#define ONLINE_V_VIEW "v-read-through-a-view"
/* k stored [batch..., head dim, keys]: form-row-chains copies it with the keys first
 * (HEADS_ONLINE_REDUCTION_LAST) and tries again. */
#define ONLINE_K_TRANSPOSED \
  "k-stored-transposed (q.k^T's k is [batch, head dim, keys] in memory; the online form reads k by keys)"

/* Whether the calls starting at `scores` form an attention chain; NULL and `oc` filled
 * when they do, else the named reason (a static string for remarks). `callee` maps a
 * func.call to its kernel. */
const char *online_match(MlirOperation scores, OnlineCallee callee, void *user, OnlineChain *oc);

/* The chain kernel's text: `func.func private @name(q, k, v) -> result` in the online
 * form, `rows` query rows and `key_block` keys per step; `ops` is the kernel.ops
 * attribute and `score` the bytes it saves. Where key_block does not divide the keys,
 * the last block takes the rest with dynamic sizes, or, with `static_tail` (static
 * block kernels: the cpu target), a second loop of one step of the remaining keys. */
void online_print(BrazeStr *s, const OnlineChain *oc, const char *name, int64_t rows, int64_t key_block,
                  bool static_tail, const char *ops, int64_t score);

/* ---- passes/chains/online-bias.c: the scores' addend ---- */

/* The bias side `v` of f(s) + bias in generic g (s its input s_in): the input it reads
 * and how, or -1. A body argument (the bias tensor's element, through casts); select(m,
 * t, f) of an i1 body argument m and two constants (a boolean mask read at run time, as
 * mask-to-bias writes where: passes/graph/simplify-attention.c): *sel on; an affine
 * function (x + shift) * mul of one float body argument x by constants (spelled x * c,
 * x + c, x - c, c - x, -x, (x +- c) * c', (c - x) * c', through casts): *aff on; of an
 * i1 argument converted to float: its two values, *sel on. */
int online_bias_operand(MlirOperation g, MlirValue v, int s_in, OnlineBiasSelect *sel, OnlineBiasAffine *aff);

/* Whether a bias read by `dims` (the loop of each bias dim, -1: 0) with the keys not
 * innermost may be laid out at compile time: `bias` is a dense bf16/f16/f32 constant (or
 * an f32 dense_resource, as the importer stores large ones) and each loop is read once. */
bool online_bias_can_relayout(MlirValue bias, const int8_t *dims, int rank, int loops);

/* With oc->bias_relayout or bias_in_kernel (once: bias_relaid): the bias constant in the
 * graph function, before the scores' call (laid out in loop order: its dims those read
 * by loops, ascending, broadcast dims dropped), and oc's bias, rank and dims switched to
 * it. False when the constant cannot be made. */
bool online_bias_relayout(OnlineChain *oc);
/* Whether `v` is a dense constant; whether two biases are the same (one value, or
 * constants of one value). */
bool online_bias_is_constant(MlirValue v);
bool online_bias_same(MlirValue a, MlirValue b);

/* Helpers online.c and online-bias.c share. */
MlirOperation online_def_op(MlirValue v);
MlirValue online_strip_casts(MlirValue v);
bool online_constant_of(MlirValue v, double *x);
/* The body argument of g that `v` is, through casts, or -1. */
int online_body_arg_of(MlirOperation g, MlirValue v);

/* Bytes of the intermediates the rewrite keeps out of memory (scores, row maxima,
 * probabilities: each written once and read back). */
int64_t online_saved_bytes(const OnlineChain *oc);

#endif
