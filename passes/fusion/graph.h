/* The fusion graph of form-kernels: nodes (realized loop-level ops), their data
 * edges, fusion groups, can_fuse with named refusal reasons, scores, and the greedy
 * scheduler that merges groups in score order (Inductor's Scheduler.can_fuse /
 * score_fusion / fuse_nodes, over MLIR ops). docs/passes.md#form-kernels has the rules. */
#ifndef BRAZE_PASSES_FUSION_GRAPH_H
#define BRAZE_PASSES_FUSION_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlir-c/AffineMap.h"
#include "mlir-c/IR.h"
#include "support/ptrmap.h"

typedef enum {
  FK_NODE_GENERIC, /* linalg.generic */
  FK_NODE_INSERT,  /* tensor.insert_slice (concat) */
  FK_NODE_CALL,    /* func.call of a user kernel: an extern (ext) node */
  FK_NODE_OPAQUE,  /* any other op with operands: kept in the graph function, never fused */
} FkNodeClass;

/* One value a node reads: an operand, or a value its regions capture. */
typedef struct {
  MlirValue value;
  int producer;      /* node index, or -1 (function argument, constant, support op) */
  bool support;      /* produced by a clonable support op (empty, fill, small constant) */
  bool has_map;      /* map: node loops -> tensor indices of the read */
  MlirAffineMap map;
  int64_t bytes;
} FkRead;

/* One result of a node. */
typedef struct {
  MlirValue value;
  bool has_map; /* map: node loops -> tensor indices of the write */
  MlirAffineMap map;
  int64_t bytes;
  int *users;   /* consumer node indices (deduplicated) */
  size_t num_users;
  bool escapes; /* also used by the return or another non-node op */
} FkResult;

typedef struct {
  MlirOperation op;
  FkNodeClass cls;
  char **ops; /* graph op mnemonics (braze.ops, or a default) */
  char **origins; /* per op: the op the user wrote (braze.origins: a composite), or the op */
  size_t num_ops;
  int rank;       /* loops; -1 when the loop ranges are unknown (dynamic) */
  int64_t *space; /* loop ranges */
  bool *reduced;  /* per loop: a reduction iterator */
  bool has_red;
  bool contraction; /* matmul / batch_matmul */
  FkRead *reads;
  size_t num_reads;
  FkResult *results;
  size_t num_results;
  int group;
  int *align; /* node loop -> loop of its group; -1: a unit loop (index 0) */
} FkNode;

typedef enum { FK_CAT_VERTICAL, FK_CAT_EPILOGUE, FK_CAT_HORIZONTAL } FkCategory;

typedef enum {
  FK_OK,
  FK_DISABLED,
  FK_NOT_FUSABLE,
  FK_EXTERN,
  FK_TWO_CONTRACTIONS,
  FK_CONTRACTION_CONCAT, /* a matmul and a concat: the template stores the product's tiles only */
  FK_SEPARATE_COLLECTIVES, /* unlinked groups that each feed a collective: each collective waits for its own */
  FK_MATMUL_EPILOGUE_DISABLED,
  FK_SPACE_MISMATCH,
  FK_HORIZONTAL_DISABLED,
  FK_EPILOGUE_DISABLED,
  FK_INDEXING_MISMATCH,
  FK_MAX_OPS,
  FK_CYCLE,
  FK_NOT_ADJACENT,
  FK_NOT_IN_PLAN, /* a fusion plan puts the two groups in different kernels */
  FK_FORBIDDEN,   /* a fusion plan's forbid list names a pair across the two groups */
} FkReason;

typedef struct {
  bool alive;
  int *members; /* node indices, ascending */
  size_t num_members;
  int rank; /* the group's loops: the full space of its reductions, or its pointwise space */
  int64_t *space;
  bool *reduced;
  bool has_red, has_contraction, has_ext, opaque;
  int contractions; /* contraction nodes in the group (horizontal templates: at most 2) */
  bool sealed;      /* a concat chain of inserts over different spaces: fuses with nothing else */
  bool has_insert;  /* a concat's insert: its kernel writes another tensor's rows */
  size_t num_ops;  /* graph ops in the group (max-ops counts these) */
  int64_t score;   /* bytes saved by the fusions that built the group */
  unsigned version; /* bumped on every merge into the group (verdict cache) */
} FkGroup;

/* A pair of nodes that could fuse: a data edge or a shared input. */
typedef struct {
  int a, b; /* node indices, a < b */
  FkCategory category; /* as first evaluated */
  int64_t score;       /* as first evaluated (both nodes alone) */
  int step;            /* fusion step that put them in one group, or 0 */
  FkReason reason;     /* final refusal reason when step == 0 */
} FkCandidate;

typedef struct {
  int a, b; /* representative nodes of the two groups (lowest indices) */
  FkCategory category;
  int64_t score;
} FkStep;

typedef struct {
  bool disable, no_horizontal, no_epilogue, epilogue_templates;
  bool horizontal_templates; /* two contractions reading one A may share a tem group */
  bool horizontal_half_only; /* ... only when A is f16 or bf16 (horizontal-templates=half) */
  bool pad_templates;        /* a zero pad read as a template's A joins its kernel (pad-prologue.c) */
  long long pad_max_percent; /* ... when its padding is at most this share of its positions */
  long long pad_channels;    /* ... and its channels a multiple of this (the CUDA template's 64-channel boxes) */
  long long max_ops;
  long long persistent_max; /* a reduction over at most this many elements is `per` */
} FkRules;

/* Scratch of the cycle check's searches, allocated once per graph: a search per
 * option would otherwise allocate and clear per-group arrays (quadratic). */
typedef struct {
  unsigned *mark;  /* per group: == epoch when visited by the current search */
  unsigned epoch;
  int *stack;
} FkSearch;

/* What a fusion plan (passes/fusion/plan.c) imposes on the scheduler; all empty without one. */
enum { FK_PLAN_FREE = -1 };
typedef struct {
  int *label;       /* per node, or NULL: groups fuse only when their first nodes' labels
                       are equal (FK_PLAN_FREE: ops the plan leaves to the greedy search) */
  int (*forbid)[2]; /* node pairs whose groups never fuse */
  size_t num_forbid;
  bool *absorb;     /* per node, or NULL: a zero pad the plan lists in the kernel of the
                       contraction that reads it as A; scheduled alone, then absorbed by
                       fk_absorb_pads as pad-templates would */
} FkConstraints;

typedef struct {
  MlirOperation func;
  FkNode *nodes;
  size_t num_nodes;
  FkGroup *groups; /* indexed like nodes: group g starts as node g */
  FkCandidate *cands;
  size_t num_cands;
  /* The candidates of node n are cands[node_cands[k]] for k in
   * [node_cand_start[n], node_cand_start[n + 1]): the scheduler's neighbour lists. */
  size_t *node_cand_start;
  int *node_cands;
  FkStep *steps;
  size_t num_steps;
  FkRules rules;
  FkSearch *search;
  BrazePtrMap node_index; /* node op.ptr -> node index (as built; outlining nulls ops) */
  FkConstraints plan;     /* owned; freed by fk_graph_free */
} FkGraph;

/* Build the graph of `func` (a func.func with a body). */
void fk_graph_build(FkGraph *g, MlirOperation func, const FkRules *rules);
void fk_graph_free(FkGraph *g);

/* Fuse greedily in score order until no legal fusion is left; fills steps and the
 * candidates' outcomes. */
void fk_schedule(FkGraph *g);

/* The verdict for fusing the groups of nodes a and b now. */
typedef struct {
  FkReason reason;
  FkCategory category;
  int64_t score;
} FkVerdict;
FkVerdict fk_can_fuse_nodes(const FkGraph *g, int a, int b);

/* pad-templates (passes/fusion/pad-prologue.c): after fk_schedule, each zero pad alone
 * in its group and read only as a template contraction's A moves into that group.
 * by_rule: form-kernels{pad-templates} is on (the target reads A with the padding
 * implicit). Without a plan every pad the rule accepts moves; with one (plan_path),
 * the pads the plan lists in their contraction's kernel (g->plan.absorb) move, and of
 * the unlisted ones only plan-mode=complete's free ones, by the rule. `remarks`: one
 * remark per gather read as A, absorbed or not and why. False, with errors at the pad,
 * when the plan lists a pad in its contraction's kernel that cannot move there. */
bool fk_absorb_pads(FkGraph *g, bool by_rule, const char *plan_path, bool remarks);
/* The zero-pad candidate contraction node c reads as A (its operand 0 produced by a
 * generic that computes a gather), or -1. */
int fk_pad_read_as_a(const FkGraph *g, int c);
/* base's members become the sorted union with other's, whose nodes move to base's group
 * (other is left empty; the caller updates the groups' other fields: rules.c's merge). */
void fk_merge_members(FkGraph *g, FkGroup *base, FkGroup *other);

/* tensor.empty, small constants (scalars, splats, <= 64 elements) and linalg.fill of
 * those: not nodes; cloned into each kernel that uses them. */
bool fk_is_support_op(MlirOperation op);

const char *fk_reason_name(FkReason r);
const char *fk_category_name(FkCategory c);
/* "poi", "red", "per", "tem", "ext" for group g; NULL for opaque groups (not outlined).
 * `per` (persistent): a reduction group whose reduced extent is at most
 * rules.persistent_max elements, so a row stays in registers or L1 across the
 * kernel's passes over it (Inductor's persistent reductions); `red` otherwise. */
const char *fk_group_kind(const FkGraph *g, int group);
/* Nodes of group g in program order; returns the count (caller frees *out). */
size_t fk_group_nodes(const FkGraph *g, int group, int **out);

#endif
