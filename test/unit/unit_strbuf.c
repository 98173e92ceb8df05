/* Unit tests for support/strbuf.{h,c}. */
#include <stdlib.h>
#include <string.h>

#include "support/strbuf.h"
#include "test/unit/check.h"

static void empty_string_is_never_null(void) {
  BrazeStr s = {0};
  CHECK_STR(braze_str_cstr(&s), "");
  CHECK(s.len == 0);
  braze_str_clear(&s); /* clearing a never-used string is fine */
  CHECK_STR(braze_str_cstr(&s), "");
  braze_str_free(&s);
  CHECK(s.data == NULL && s.len == 0 && s.cap == 0);
}

static void append_and_puts(void) {
  BrazeStr s = {0};
  braze_str_append(&s, "abcdef", 3);
  braze_str_puts(&s, "-x");
  braze_str_append(&s, "ignored", 0);
  CHECK_STR(braze_str_cstr(&s), "abc-x");
  CHECK(s.len == 5);
  CHECK(s.cap > s.len); /* room for the NUL */
  braze_str_free(&s);
}

static void zero_length_append_terminates(void) {
  BrazeStr s = {0};
  braze_str_append(&s, "", 0);
  CHECK(s.data != NULL);
  CHECK_STR(braze_str_cstr(&s), "");
  braze_str_free(&s);
}

static void printf_formats_and_grows(void) {
  BrazeStr s = {0};
  braze_str_printf(&s, "%d-%s-%.2f", 42, "x", 1.5);
  CHECK_STR(braze_str_cstr(&s), "42-x-1.50");
  /* Grow well past the first allocation, many times. */
  for (int i = 0; i < 1000; ++i)
    braze_str_printf(&s, "%04d", i);
  CHECK(s.len == strlen("42-x-1.50") + 4000);
  CHECK(strncmp(s.data + s.len - 4, "0999", 4) == 0);
  CHECK(strlen(s.data) == s.len);
  braze_str_free(&s);
}

static void long_single_append(void) {
  enum { N = 100000 };
  char *big = malloc(N);
  memset(big, 'q', N);
  BrazeStr s = {0};
  braze_str_puts(&s, "<");
  braze_str_append(&s, big, N);
  braze_str_puts(&s, ">");
  CHECK(s.len == N + 2);
  CHECK(s.data[0] == '<' && s.data[N] == 'q' && s.data[N + 1] == '>' && s.data[N + 2] == '\0');
  free(big);
  braze_str_free(&s);
}

static void clear_keeps_buffer(void) {
  BrazeStr s = {0};
  braze_str_puts(&s, "hello");
  size_t cap = s.cap;
  braze_str_clear(&s);
  CHECK(s.len == 0 && s.cap == cap);
  CHECK_STR(braze_str_cstr(&s), "");
  braze_str_puts(&s, "again");
  CHECK_STR(braze_str_cstr(&s), "again");
  braze_str_free(&s);
}

static void callback_appends_pieces(void) {
  BrazeStr s = {0};
  MlirStringRef a = {"tensor<", 7}, b = {"4xf32>trailing", 6};
  braze_str_callback(a, &s);
  braze_str_callback(b, &s);
  CHECK_STR(braze_str_cstr(&s), "tensor<4xf32>");
  braze_str_free(&s);
}

static void embedded_nul_is_kept(void) {
  BrazeStr s = {0};
  braze_str_append(&s, "a\0b", 3);
  CHECK(s.len == 3);
  CHECK(memcmp(s.data, "a\0b", 4) == 0);
  braze_str_free(&s);
}

int main(void) {
  RUN_CASE(empty_string_is_never_null);
  RUN_CASE(append_and_puts);
  RUN_CASE(zero_length_append_terminates);
  RUN_CASE(printf_formats_and_grows);
  RUN_CASE(long_single_append);
  RUN_CASE(clear_keeps_buffer);
  RUN_CASE(callback_appends_pieces);
  RUN_CASE(embedded_nul_is_kept);
  return check_finish();
}
