/* Shape expressions over symbolic dims and the function's symbol table
 * (dialects/graph/symbols.h). */
#include "dialects/graph/symbols.h"

#include <stdio.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "support/context.h"
#include "support/diag.h"

static int cmp_powers(const BrazeSymTerm *a, const BrazeSymTerm *b) {
  for (int i = 0; i < BRAZE_MAX_SYMBOLS; ++i)
    if (a->exp[i] != b->exp[i])
      return a->exp[i] < b->exp[i] ? -1 : 1;
  return 0;
}

/* Add `term` into `e`, keeping the canonical form. */
static bool add_term(BrazeSymExpr *e, const BrazeSymTerm *term) {
  if (term->coeff == 0)
    return true;
  int i = 0;
  while (i < e->nterms && cmp_powers(&e->t[i], term) < 0)
    ++i;
  if (i < e->nterms && cmp_powers(&e->t[i], term) == 0) {
    if (__builtin_add_overflow(e->t[i].coeff, term->coeff, &e->t[i].coeff))
      return false;
    if (e->t[i].coeff == 0) {
      memmove(&e->t[i], &e->t[i + 1], (size_t)(e->nterms - i - 1) * sizeof e->t[0]);
      --e->nterms;
    }
    return true;
  }
  if (e->nterms == BRAZE_SYM_MAX_TERMS)
    return false;
  memmove(&e->t[i + 1], &e->t[i], (size_t)(e->nterms - i) * sizeof e->t[0]);
  e->t[i] = *term;
  ++e->nterms;
  return true;
}

BrazeSymExpr braze_sym_const(int64_t c) {
  BrazeSymExpr e = {0};
  BrazeSymTerm t = {.coeff = c};
  add_term(&e, &t);
  return e;
}

BrazeSymExpr braze_sym_var(int index) {
  BrazeSymExpr e = {0};
  BrazeSymTerm t = {.coeff = 1};
  t.exp[index] = 1;
  add_term(&e, &t);
  return e;
}

bool braze_sym_add(const BrazeSymExpr *a, const BrazeSymExpr *b, BrazeSymExpr *out) {
  BrazeSymExpr r = *a;
  for (int i = 0; i < b->nterms; ++i)
    if (!add_term(&r, &b->t[i]))
      return false;
  *out = r;
  return true;
}

bool braze_sym_mul(const BrazeSymExpr *a, const BrazeSymExpr *b, BrazeSymExpr *out) {
  BrazeSymExpr r = {0};
  for (int i = 0; i < a->nterms; ++i)
    for (int j = 0; j < b->nterms; ++j) {
      BrazeSymTerm t;
      if (__builtin_mul_overflow(a->t[i].coeff, b->t[j].coeff, &t.coeff))
        return false;
      for (int k = 0; k < BRAZE_MAX_SYMBOLS; ++k) {
        unsigned p = (unsigned)a->t[i].exp[k] + b->t[j].exp[k];
        if (p > 255)
          return false;
        t.exp[k] = (uint8_t)p;
      }
      if (!add_term(&r, &t))
        return false;
    }
  *out = r;
  return true;
}

bool braze_sym_div_const(const BrazeSymExpr *a, int64_t c, BrazeSymExpr *out) {
  if (c == 0)
    return false;
  BrazeSymExpr r = *a;
  for (int i = 0; i < r.nterms; ++i) {
    if (r.t[i].coeff % c != 0)
      return false;
    r.t[i].coeff /= c;
  }
  *out = r;
  return true;
}

bool braze_sym_equal(const BrazeSymExpr *a, const BrazeSymExpr *b) {
  if (a->nterms != b->nterms)
    return false;
  for (int i = 0; i < a->nterms; ++i)
    if (a->t[i].coeff != b->t[i].coeff || cmp_powers(&a->t[i], &b->t[i]) != 0)
      return false;
  return true;
}

static bool term_is_const(const BrazeSymTerm *t) {
  for (int k = 0; k < BRAZE_MAX_SYMBOLS; ++k)
    if (t->exp[k])
      return false;
  return true;
}

bool braze_sym_is_const(const BrazeSymExpr *a, int64_t *value) {
  if (a->nterms == 0) {
    *value = 0;
    return true;
  }
  if (a->nterms == 1 && term_is_const(&a->t[0])) {
    *value = a->t[0].coeff;
    return true;
  }
  return false;
}

int braze_sym_as_var(const BrazeSymExpr *a) {
  if (a->nterms != 1 || a->t[0].coeff != 1)
    return -1;
  int found = -1;
  for (int k = 0; k < BRAZE_MAX_SYMBOLS; ++k) {
    if (a->t[0].exp[k] == 0)
      continue;
    if (a->t[0].exp[k] != 1 || found >= 0)
      return -1;
    found = k;
  }
  return found;
}

bool braze_sym_uses(const BrazeSymExpr *a, int index) {
  for (int i = 0; i < a->nterms; ++i)
    if (a->t[i].exp[index])
      return true;
  return false;
}

static const char *sym_name(const BrazeSymTable *table, int k, char *buf, size_t len) {
  if (table && k < table->count)
    return table->sym[k].name;
  snprintf(buf, len, "$%d", k);
  return buf;
}

void braze_sym_print(const BrazeSymExpr *a, const BrazeSymTable *table, BrazeStr *out) {
  if (a->nterms == 0) {
    braze_str_puts(out, "0");
    return;
  }
  /* highest powers first: s0*256 + 8 */
  for (int i = a->nterms - 1; i >= 0; --i) {
    const BrazeSymTerm *t = &a->t[i];
    int64_t c = t->coeff;
    if (i != a->nterms - 1) {
      braze_str_puts(out, c < 0 ? " - " : " + ");
      c = c < 0 ? -c : c;
    }
    bool any = false;
    for (int k = 0; k < BRAZE_MAX_SYMBOLS; ++k)
      for (int p = 0; p < t->exp[k]; ++p) {
        char buf[16];
        braze_str_printf(out, "%s%s", any ? "*" : (c == -1 ? "-" : ""), sym_name(table, k, buf, sizeof buf));
        any = true;
      }
    if (!any)
      braze_str_printf(out, "%lld", (long long)c);
    else if (c != 1 && c != -1)
      braze_str_printf(out, "*%lld", (long long)c);
  }
}

void braze_sym_shape_print(const BrazeSymShape *s, const BrazeSymTable *table, BrazeStr *out) {
  braze_str_puts(out, "[");
  for (intptr_t d = 0; d < s->rank; ++d) {
    if (d)
      braze_str_puts(out, ", ");
    braze_sym_print(&s->dim[d], table, out);
  }
  braze_str_puts(out, "]");
}

bool braze_sym_eval(const BrazeSymExpr *a, const int64_t *values, int64_t *out) {
  int64_t sum = 0;
  for (int i = 0; i < a->nterms; ++i) {
    int64_t v = a->t[i].coeff;
    for (int k = 0; k < BRAZE_MAX_SYMBOLS; ++k)
      for (int p = 0; p < a->t[i].exp[k]; ++p)
        if (__builtin_mul_overflow(v, values[k], &v))
          return false;
    if (__builtin_add_overflow(sum, v, &sum))
      return false;
  }
  *out = sum;
  return true;
}

/* ---- the table ---- */

bool braze_func_has_symbols(MlirOperation func) {
  return !mlirAttributeIsNull(mlirOperationGetAttributeByName(func, braze_ref(BRAZE_SYMBOLS_ATTR)));
}

int braze_sym_lookup(const BrazeSymTable *table, const char *name, size_t len) {
  for (int i = 0; i < table->count; ++i)
    if (strlen(table->sym[i].name) == len && memcmp(table->sym[i].name, name, len) == 0)
      return i;
  return -1;
}

static bool valid_name(MlirStringRef s) {
  if (s.length == 0 || s.length >= BRAZE_SYM_NAME_MAX)
    return false;
  for (size_t i = 0; i < s.length; ++i) {
    char c = s.data[i];
    bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    if (!alpha && !(i > 0 && c >= '0' && c <= '9'))
      return false;
  }
  return true;
}

bool braze_sym_table_read(MlirOperation func, BrazeSymTable *table) {
  memset(table, 0, sizeof *table);
  MlirAttribute attr = mlirOperationGetAttributeByName(func, braze_ref(BRAZE_SYMBOLS_ATTR));
  if (mlirAttributeIsNull(attr))
    return true;
  MlirLocation loc = mlirOperationGetLocation(func);
  if (!mlirAttributeIsADictionary(attr)) {
    braze_emit_error(loc, "'func.func' op " BRAZE_SYMBOLS_ATTR " must be a dictionary {NAME = array<i64: min, max[, div]>}");
    return false;
  }
  intptr_t n = mlirDictionaryAttrGetNumElements(attr);
  if (n == 0 || n > BRAZE_MAX_SYMBOLS) {
    braze_emit_error(loc, "'func.func' op " BRAZE_SYMBOLS_ATTR " declares %lld symbols; expected 1 to %d", (long long)n,
                     BRAZE_MAX_SYMBOLS);
    return false;
  }
  for (intptr_t i = 0; i < n; ++i) {
    MlirNamedAttribute e = mlirDictionaryAttrGetElement(attr, i);
    MlirStringRef name = mlirIdentifierStr(e.name);
    if (!valid_name(name)) {
      braze_emit_error(loc, "'func.func' op symbol '%.*s' is not an identifier (letters, digits, _; under %d chars)",
                       (int)name.length, name.data, BRAZE_SYM_NAME_MAX);
      return false;
    }
    BrazeSymbol *s = &table->sym[table->count];
    memcpy(s->name, name.data, name.length);
    s->name[name.length] = 0;
    intptr_t k = mlirAttributeIsADenseI64Array(e.attribute) ? mlirDenseArrayGetNumElements(e.attribute) : 0;
    if (k != 2 && k != 3) {
      braze_emit_error(loc, "'func.func' op symbol %s: expected array<i64: min, max> or array<i64: min, max, div>",
                       s->name);
      return false;
    }
    s->min = mlirDenseI64ArrayGetElement(e.attribute, 0);
    s->max = mlirDenseI64ArrayGetElement(e.attribute, 1);
    s->div = k == 3 ? mlirDenseI64ArrayGetElement(e.attribute, 2) : 1;
    if (s->min < 1 || s->max < s->min || s->div < 1 || s->max > ((int64_t)1 << 40)) {
      braze_emit_error(loc, "'func.func' op symbol %s: expected 1 <= min (%lld) <= max (%lld) <= 2^40 and div (%lld) >= 1",
                       s->name, (long long)s->min, (long long)s->max, (long long)s->div);
      return false;
    }
    if ((s->max / s->div) * s->div < s->min) {
      braze_emit_error(loc, "'func.func' op symbol %s: no multiple of %lld lies in [%lld, %lld]", s->name,
                       (long long)s->div, (long long)s->min, (long long)s->max);
      return false;
    }
    table->count++;
  }
  return true;
}

void braze_sym_describe(const BrazeSymTable *table, int i, BrazeStr *out) {
  const BrazeSymbol *s = &table->sym[i];
  braze_str_printf(out, "%s in [%lld, %lld]", s->name, (long long)s->min, (long long)s->max);
  if (s->div > 1)
    braze_str_printf(out, ", a multiple of %lld", (long long)s->div);
}

bool braze_sym_check_value(const BrazeSymTable *table, int i, int64_t value, BrazeStr *why) {
  const BrazeSymbol *s = &table->sym[i];
  if (value >= s->min && value <= s->max && value % s->div == 0)
    return true;
  braze_str_printf(why, "%s = %lld is %s (", s->name, (long long)value,
                   value < s->min || value > s->max ? "out of bounds" : "not a multiple of the divisor");
  braze_sym_describe(table, i, why);
  braze_str_puts(why, ")");
  return false;
}
