/* Symbolic dims of the graph dialect (docs/decisions/0029-symbolic-dims.md).
 *
 * A function declares its symbols with bounds and binds each `?` dim of each argument
 * to one of them:
 *   func.func @f(%x: tensor<?x256xf32> {graph.dims = ["s0"]}) -> tensor<?x256xf32>
 *       attributes {graph.symbols = {s0 = array<i64: 1, 4096, 8>}}   (min, max[, div])
 * Every other `?` (op results, function results) is inferred by the ops' shape rules as
 * a shape expression over the symbols: a polynomial with integer coefficients
 * (s0*256, s0 + s1, 4*s0*s1), kept in a canonical form so equal expressions compare
 * equal. The verifier checks that each `?` dim is symbolic and each static dim is the
 * constant the rules give; `braze_sym_specialize` writes concrete sizes into the types. */
#ifndef BRAZE_DIALECTS_GRAPH_SYMBOLS_H
#define BRAZE_DIALECTS_GRAPH_SYMBOLS_H

#include <stdbool.h>
#include <stdint.h>

#include "dialects/graph/graph.h"
#include "mlir-c/IR.h"
#include "support/ptrmap.h"
#include "support/strbuf.h"

enum { BRAZE_MAX_SYMBOLS = 8, BRAZE_SYM_MAX_TERMS = 8, BRAZE_SYM_NAME_MAX = 32 };

#define BRAZE_SYMBOLS_ATTR "graph.symbols" /* on the func: {NAME = array<i64: min, max[, div]>} */
#define BRAZE_DIMS_ATTR "graph.dims"       /* on an argument: ["NAME", ...], one per `?` dim */

typedef struct {
  int64_t coeff;
  uint8_t exp[BRAZE_MAX_SYMBOLS]; /* the power of each symbol */
} BrazeSymTerm;

/* sum of terms; canonical: no zero coefficients, no two terms with the same powers,
 * terms sorted by their powers. The empty sum is 0. */
typedef struct {
  int nterms;
  BrazeSymTerm t[BRAZE_SYM_MAX_TERMS];
} BrazeSymExpr;

typedef struct {
  char name[BRAZE_SYM_NAME_MAX];
  int64_t min, max, div;
} BrazeSymbol;

typedef struct {
  int count;
  BrazeSymbol sym[BRAZE_MAX_SYMBOLS];
} BrazeSymTable;

typedef struct {
  intptr_t rank;
  BrazeSymExpr dim[BRAZE_MAX_RANK];
} BrazeSymShape;

/* ---- expressions (symbols.c) ---- */
BrazeSymExpr braze_sym_const(int64_t c);
BrazeSymExpr braze_sym_var(int index);
/* False when the result has more than BRAZE_SYM_MAX_TERMS terms or overflows. */
bool braze_sym_add(const BrazeSymExpr *a, const BrazeSymExpr *b, BrazeSymExpr *out);
bool braze_sym_mul(const BrazeSymExpr *a, const BrazeSymExpr *b, BrazeSymExpr *out);
/* a / c for a constant c dividing every coefficient; false otherwise. */
bool braze_sym_div_const(const BrazeSymExpr *a, int64_t c, BrazeSymExpr *out);
bool braze_sym_equal(const BrazeSymExpr *a, const BrazeSymExpr *b);
bool braze_sym_is_const(const BrazeSymExpr *a, int64_t *value);
/* The index of the symbol when `a` is exactly one symbol (coefficient 1, power 1), else -1. */
int braze_sym_as_var(const BrazeSymExpr *a);
/* Whether symbol `index` occurs in `a`. */
bool braze_sym_uses(const BrazeSymExpr *a, int index);
/* "s0*256 + s1" */
void braze_sym_print(const BrazeSymExpr *a, const BrazeSymTable *table, BrazeStr *out);
/* "[s0, 256]" */
void braze_sym_shape_print(const BrazeSymShape *s, const BrazeSymTable *table, BrazeStr *out);
/* The value at `values` (one per symbol); false on overflow. */
bool braze_sym_eval(const BrazeSymExpr *a, const int64_t *values, int64_t *out);

/* ---- the table (symbols.c) ---- */
/* Whether `func` declares symbols (the graph.symbols attribute). */
bool braze_func_has_symbols(MlirOperation func);
/* Read graph.symbols; an error at the function for a malformed one. An absent
 * attribute gives an empty table. */
bool braze_sym_table_read(MlirOperation func, BrazeSymTable *table);
int braze_sym_lookup(const BrazeSymTable *table, const char *name, size_t len);
/* Whether `value` is in symbol i's range and a multiple of its divisor; else false
 * with the reason ("s0 = 9 is not a multiple of 8 (s0 in [8, 4096], a multiple of 8)"). */
bool braze_sym_check_value(const BrazeSymTable *table, int i, int64_t value, BrazeStr *why);
/* "s0 in [1, 4096], a multiple of 8" */
void braze_sym_describe(const BrazeSymTable *table, int i, BrazeStr *out);

/* ---- inference (symbols-infer.c) ---- */
typedef struct {
  BrazeSymTable table;
  BrazePtrMap index; /* value.ptr -> shapes[] slot */
  BrazeSymShape *shapes;
  MlirValue *values; /* the value of each slot */
  int count, cap;
} BrazeSymShapes;

/* Infer the symbolic shape of every value in `func` (arguments from their graph.dims,
 * op results by the ops' rules) and check them against the types. Emits one error
 * per violation at the op's (or function's) location; false if any. */
bool braze_sym_infer(MlirOperation func, BrazeSymShapes *out);
const BrazeSymShape *braze_sym_shape_of(const BrazeSymShapes *s, MlirValue v);
void braze_sym_shapes_free(BrazeSymShapes *s);

/* ---- specialization (symbols-specialize.c) ---- */
/* Write concrete sizes (`values`, one per symbol of the function's table) into every
 * type of `func` and drop graph.symbols / graph.dims: a static function. The values
 * are checked against the bounds first (an error at the function otherwise). */
bool braze_sym_specialize(MlirOperation func, const int64_t *values);
/* Derive the symbols' values from concrete argument shapes (dims[i]: argument i's,
 * rank BRAZE_MAX_RANK rows): every `?` dim bound to a symbol gives its value, all
 * occurrences must agree and be in bounds. False with the reason in *why. */
bool braze_sym_bind_shapes(MlirOperation func, const BrazeSymTable *table, int num_args, const int64_t *ranks,
                           const int64_t *dims, int64_t *values, BrazeStr *why);
/* Parse "s0=7,s1=3" into values for `table` (every symbol must be given). */
bool braze_sym_parse_values(const BrazeSymTable *table, const char *text, int64_t *values, BrazeStr *why);

#endif
