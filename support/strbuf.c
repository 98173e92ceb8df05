#include "support/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void reserve(BrazeStr *s, size_t extra) {
  if (s->len + extra + 1 <= s->cap)
    return;
  size_t cap = s->cap ? s->cap : 64;
  while (cap < s->len + extra + 1)
    cap *= 2;
  char *grown = realloc(s->data, cap);
  if (!grown) {
    fputs("braze: out of memory\n", stderr);
    abort();
  }
  s->data = grown;
  s->cap = cap;
}

void braze_str_append(BrazeStr *s, const char *text, size_t n) {
  reserve(s, n);
  if (n)
    memcpy(s->data + s->len, text, n);
  s->len += n;
  s->data[s->len] = '\0';
}

void braze_str_puts(BrazeStr *s, const char *text) { braze_str_append(s, text, strlen(text)); }

void braze_str_vprintf(BrazeStr *s, const char *fmt, va_list ap) {
  va_list copy;
  va_copy(copy, ap);
  int n = vsnprintf(NULL, 0, fmt, copy);
  va_end(copy);
  if (n < 0)
    return;
  reserve(s, (size_t)n);
  vsnprintf(s->data + s->len, (size_t)n + 1, fmt, ap);
  s->len += (size_t)n;
}

void braze_str_printf(BrazeStr *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  braze_str_vprintf(s, fmt, ap);
  va_end(ap);
}

const char *braze_str_cstr(const BrazeStr *s) { return s->data ? s->data : ""; }

void braze_str_clear(BrazeStr *s) {
  s->len = 0;
  if (s->data)
    s->data[0] = '\0';
}

void braze_str_free(BrazeStr *s) {
  free(s->data);
  s->data = NULL;
  s->len = s->cap = 0;
}

void braze_str_callback(MlirStringRef piece, void *user_data) {
  braze_str_append((BrazeStr *)user_data, piece.data, piece.length);
}
