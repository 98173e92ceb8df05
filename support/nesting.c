#include "support/nesting.h"

#include "support/diag.h"

bool braze_nesting_ok(MlirContext ctx, const char *text, size_t len, const char *source_name) {
  int depth = 0;
  unsigned line = 1, col = 1;
  for (size_t i = 0; i < len; ++i, ++col) {
    char ch = text[i];
    if (ch == '\n') {
      ++line;
      col = 0;
    } else if (ch == '"') { /* a string literal, with backslash escapes */
      for (++i, ++col; i < len && text[i] != '"'; ++i, ++col) {
        if (text[i] == '\n') {
          ++line;
          col = 0;
        } else if (text[i] == '\\' && i + 1 < len) {
          ++i;
          ++col;
        }
      }
    } else if (ch == '/' && i + 1 < len && text[i + 1] == '/') {
      while (i + 1 < len && text[i + 1] != '\n')
        ++i;
    } else if (ch == '(' || ch == '[' || ch == '{' || ch == '<') {
      if (++depth > BRAZE_MAX_NESTING) {
        MlirLocation loc = mlirLocationFileLineColGet(ctx, mlirStringRefCreateFromCString(source_name), line, col);
        braze_emit_error(loc, "nesting deeper than %d levels of brackets, braces, parentheses and angle brackets; "
                              "braze reads IR nested at most %d deep", BRAZE_MAX_NESTING, BRAZE_MAX_NESTING);
        return false;
      }
    } else if (ch == ')' || ch == ']' || ch == '}' || (ch == '>' && !(i > 0 && text[i - 1] == '-'))) {
      depth -= depth > 0;
    }
  }
  return true;
}
