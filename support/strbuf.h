/* A growable string for building diagnostics, reports and IR text. */
#ifndef BRAZE_SUPPORT_STRBUF_H
#define BRAZE_SUPPORT_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct BrazeStr {
  char *data; /* always NUL-terminated once anything was appended */
  size_t len;
  size_t cap;
} BrazeStr;

void braze_str_append(BrazeStr *s, const char *text, size_t n);
void braze_str_puts(BrazeStr *s, const char *text);
void braze_str_printf(BrazeStr *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void braze_str_vprintf(BrazeStr *s, const char *fmt, va_list ap);
/* The contents, "" when empty (never NULL). */
const char *braze_str_cstr(const BrazeStr *s);
void braze_str_clear(BrazeStr *s);
void braze_str_free(BrazeStr *s);

/* An MlirStringCallback that appends to the BrazeStr passed as user data. */
#include "mlir-c/Support.h"
void braze_str_callback(MlirStringRef piece, void *user_data);

#endif
