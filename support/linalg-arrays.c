#include "support/linalg-arrays.h"

#include <ctype.h>
#include <string.h>

#include "support/diag.h"

static bool is_ident_start(char ch) { return isalpha((unsigned char)ch) || ch == '_'; }

/* MLIR's bare identifiers: letters, digits, '_', '$' and '.' after the first. */
static bool is_ident_char(char ch) { return isalnum((unsigned char)ch) || ch == '_' || ch == '$' || ch == '.'; }

/* Past white space and // comments from text[i]. */
static size_t skip_blank(const char *text, size_t len, size_t i) {
  for (;;) {
    while (i < len && isspace((unsigned char)text[i]))
      ++i;
    if (!(i + 1 < len && text[i] == '/' && text[i + 1] == '/'))
      return i;
    while (i < len && text[i] != '\n')
      ++i;
  }
}

/* Past the string literal opening at text[i] (backslash escapes). */
static size_t skip_string(const char *text, size_t len, size_t i) {
  for (++i; i < len && text[i] != '"'; ++i)
    if (text[i] == '\\' && i + 1 < len)
      ++i;
  return i < len ? i + 1 : len;
}

static bool word_at(const char *text, size_t len, size_t i, const char *word) {
  size_t n = strlen(word);
  return i + n <= len && memcmp(text + i, word, n) == 0 && (i + n == len || !is_ident_char(text[i + n]));
}

/* One element at text[i]: an optionally negative decimal or hex integer, true or
 * false, ending where an identifier could not go on. Past it, or 0 when not one. */
static size_t element_end(const char *text, size_t len, size_t i) {
  if (word_at(text, len, i, "true"))
    return i + 4;
  if (word_at(text, len, i, "false"))
    return i + 5;
  if (i < len && text[i] == '-')
    i = skip_blank(text, len, i + 1);
  size_t start = i;
  if (i + 2 < len && text[i] == '0' && text[i + 1] == 'x' && isxdigit((unsigned char)text[i + 2]))
    for (i += 2; i < len && isxdigit((unsigned char)text[i]);)
      ++i;
  else
    while (i < len && isdigit((unsigned char)text[i]))
      ++i;
  if (i == start || (i < len && is_ident_char(text[i])))
    return 0;
  return i;
}

/* Whether text[i...] (just past the keyword) is `= [e, e, ...]` or holds no '='
 * (then the parser fails on its own, before the list). */
static bool list_ok(const char *text, size_t len, size_t i) {
  i = skip_blank(text, len, i);
  if (i == len || text[i] != '=')
    return true;
  i = skip_blank(text, len, i + 1);
  if (i == len || text[i] != '[')
    return false;
  i = skip_blank(text, len, i + 1);
  if (i < len && text[i] == ']')
    return true;
  for (;;) {
    size_t end = element_end(text, len, i);
    if (!end)
      return false;
    i = skip_blank(text, len, end);
    if (i < len && text[i] == ']')
      return true;
    if (i == len || text[i] != ',')
      return false;
    i = skip_blank(text, len, i + 1);
  }
}

static void report(MlirContext ctx, const char *text, size_t at, size_t word_len, const char *source_name) {
  unsigned line = 1, col = 1;
  for (size_t i = 0; i < at; ++i, ++col)
    if (text[i] == '\n') {
      ++line;
      col = 0;
    }
  MlirLocation loc = mlirLocationFileLineColGet(ctx, mlirStringRefCreateFromCString(source_name), line, col);
  braze_emit_error(loc, "expected a list of integers in brackets after '%.*s =', like [0, 1] (braze checks it "
                        "before MLIR's linalg parser, which crashes on a malformed one)", (int)word_len, text + at);
}

bool braze_linalg_arrays_ok(MlirContext ctx, const char *text, size_t len, const char *source_name) {
  char last = 0; /* the last character outside blanks and comments ('"' for a string) */
  for (size_t i = 0; i < len;) {
    char ch = text[i];
    if (ch == '"') {
      i = skip_string(text, len, i);
      last = '"';
    } else if (isspace((unsigned char)ch) || (ch == '/' && i + 1 < len && text[i + 1] == '/')) {
      i = skip_blank(text, len, i);
    } else if (is_ident_start(ch)) {
      size_t end = i;
      while (end < len && is_ident_char(text[end]))
        ++end;
      bool keyword = word_at(text, len, i, "dimensions") || word_at(text, len, i, "permutation");
      if (keyword && last == ')' && !list_ok(text, len, end)) {
        report(ctx, text, i, end - i, source_name);
        return false;
      }
      last = text[end - 1];
      i = end;
    } else {
      last = ch;
      ++i;
    }
  }
  return true;
}
