/* Evaluating affine expressions on integers: see support/affine-eval.h. */
#include "support/affine-eval.h"

#include <stdlib.h>

struct BrazeAffineNode {
  enum { N_DIM, N_CONST, N_ADD, N_MUL, N_FLOORDIV, N_MOD, N_CEILDIV } kind;
  int64_t value; /* dim position or constant */
  int lhs, rhs;
};

static int flatten(BrazeAffineProgram *p, MlirAffineExpr x) {
  struct BrazeAffineNode n = {0};
  if (mlirAffineExprIsADim(x)) {
    n.kind = N_DIM;
    n.value = mlirAffineDimExprGetPosition(x);
  } else if (mlirAffineExprIsAConstant(x)) {
    n.kind = N_CONST;
    n.value = mlirAffineConstantExprGetValue(x);
  } else {
    n.lhs = flatten(p, mlirAffineBinaryOpExprGetLHS(x));
    n.rhs = flatten(p, mlirAffineBinaryOpExprGetRHS(x));
    if (n.lhs < 0 || n.rhs < 0)
      return -1;
    n.kind = mlirAffineExprIsAAdd(x)        ? N_ADD
             : mlirAffineExprIsAMul(x)      ? N_MUL
             : mlirAffineExprIsAFloorDiv(x) ? N_FLOORDIV
             : mlirAffineExprIsAMod(x)      ? N_MOD
                                            : N_CEILDIV;
  }
  if (p->count == p->cap) {
    int cap = p->cap ? 2 * p->cap : 32;
    struct BrazeAffineNode *grown = realloc(p->nodes, (size_t)cap * sizeof *grown);
    if (!grown)
      return -1;
    p->nodes = grown;
    p->cap = cap;
  }
  p->nodes[p->count] = n;
  return p->count++;
}

bool braze_affine_compile(BrazeAffineProgram *p, MlirAffineExpr e) {
  if (flatten(p, e) < 0)
    return false;
  p->scratch = malloc((size_t)(p->count ? p->count : 1) * sizeof *p->scratch);
  return p->scratch != NULL;
}

/* Affine floordiv (rounds toward -inf; the divisor of an affine map is a positive constant). */
static int64_t floor_div(int64_t l, int64_t r) {
  if (r <= 0)
    return 0;
  int64_t q = l / r;
  return q * r > l ? q - 1 : q;
}

int64_t braze_affine_run(const BrazeAffineProgram *p, const int64_t *dims) {
  int64_t *v = p->scratch;
  for (int i = 0; i < p->count; ++i) {
    const struct BrazeAffineNode *n = &p->nodes[i];
    bool leaf = n->kind == N_DIM || n->kind == N_CONST;
    int64_t l = leaf ? 0 : v[n->lhs], r = leaf ? 0 : v[n->rhs];
    switch (n->kind) {
    case N_DIM: v[i] = dims[n->value]; break;
    case N_CONST: v[i] = n->value; break;
    case N_ADD: v[i] = l + r; break;
    case N_MUL: v[i] = l * r; break;
    case N_FLOORDIV: v[i] = floor_div(l, r); break;
    case N_MOD: v[i] = r > 0 ? l - floor_div(l, r) * r : 0; break;
    default: v[i] = r > 0 ? -floor_div(-l, r) : 0; break; /* ceildiv */
    }
  }
  return p->count ? v[p->count - 1] : 0;
}

void braze_affine_program_free(BrazeAffineProgram *p) {
  free(p->nodes);
  free(p->scratch);
  *p = (BrazeAffineProgram){0};
}
