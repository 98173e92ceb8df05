/* Unit tests for support/json.{h,c}: what braze writes, jansson (the plan reader)
 * reads back unchanged. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "support/json.h"
#include "test/unit/check.h"

static void plain_string_is_quoted(void) {
  BrazeStr s = {0};
  braze_json_cstr(&s, "mlp/matmul#0");
  CHECK_STR(braze_str_cstr(&s), "\"mlp/matmul#0\"");
  braze_str_free(&s);
}

static void quotes_backslashes_and_controls_are_escaped(void) {
  BrazeStr s = {0};
  braze_json_cstr(&s, "a\"b\\c\nd\te\x01");
  CHECK_STR(braze_str_cstr(&s), "\"a\\\"b\\\\c\\u000ad\\u0009e\\u0001\"");
  braze_str_free(&s);
}

static void embedded_nul_is_escaped(void) {
  BrazeStr s = {0};
  braze_json_string(&s, "a\0b", 3);
  CHECK_STR(braze_str_cstr(&s), "\"a\\u0000b\"");
  braze_str_free(&s);
}

/* Every byte string that is valid UTF-8 reads back as itself. */
static void jansson_reads_back_what_is_written(void) {
  static const char *const cases[] = {"", "Exp_0", "Div \"q\"", "back\\slash", "tab\there", "line\nbreak",
                                      "\x1f", "caf\xc3\xa9 \xe2\x86\x92", NULL};
  for (size_t i = 0; cases[i]; ++i) {
    BrazeStr s = {0};
    braze_json_cstr(&s, cases[i]);
    json_error_t err;
    json_t *v = json_loads(braze_str_cstr(&s), JSON_DECODE_ANY, &err);
    CHECK(v != NULL && json_is_string(v));
    if (v && json_is_string(v))
      CHECK_STR(json_string_value(v), cases[i]);
    json_decref(v);
    braze_str_free(&s);
  }
}

int main(void) {
  RUN_CASE(plain_string_is_quoted);
  RUN_CASE(quotes_backslashes_and_controls_are_escaped);
  RUN_CASE(embedded_nul_is_escaped);
  RUN_CASE(jansson_reads_back_what_is_written);
  return check_finish();
}
