/* Unit tests for pass options (passes/registry.c): braze_options_parse,
 * braze_option_find/flag/int/list_has and braze_options_check. */
#include <string.h>

#include "passes/passes.h"
#include "test/unit/check.h"

static BrazePassOptions parse_ok(const char *text) {
  BrazePassOptions opts;
  BrazeStr error = {0};
  bool ok = braze_options_parse(text, strlen(text), &opts, &error);
  CHECK(ok);
  CHECK(error.len == 0);
  braze_str_free(&error);
  return opts;
}

static void parses_keys_values_and_flags(void) {
  BrazePassOptions opts = parse_ok("max-ops=64  disable=a,b\tno-horizontal ");
  CHECK(opts.count == 3);
  if (opts.count == 3) {
    CHECK_STR(opts.items[0].key, "max-ops");
    CHECK_STR(opts.items[0].value, "64");
    CHECK_STR(opts.items[1].key, "disable");
    CHECK_STR(opts.items[1].value, "a,b");
    CHECK_STR(opts.items[2].key, "no-horizontal");
    CHECK(opts.items[2].value == NULL);
  }
  braze_options_free(&opts);
  CHECK(opts.count == 0 && opts.items == NULL);
}

static void parses_only_the_given_length(void) {
  const char *text = "a=1 b=2";
  BrazePassOptions opts;
  BrazeStr error = {0};
  CHECK(braze_options_parse(text, 3, &opts, &error));
  CHECK(opts.count == 1 && braze_option_find(&opts, "b") == NULL);
  braze_options_free(&opts);
  braze_str_free(&error);
}

static void empty_text_has_no_options(void) {
  BrazePassOptions opts = parse_ok("   ");
  CHECK(opts.count == 0);
  CHECK(braze_option_find(&opts, "x") == NULL);
  CHECK(!braze_option_flag(&opts, "x"));
  braze_options_free(&opts);
  CHECK(braze_option_find(NULL, "x") == NULL);
}

static void empty_value_is_kept(void) {
  BrazePassOptions opts = parse_ok("k=");
  CHECK(opts.count == 1);
  if (opts.count == 1)
    CHECK_STR(opts.items[0].value, "");
  braze_options_free(&opts);
}

static void nameless_option_is_an_error(void) {
  BrazePassOptions opts;
  BrazeStr error = {0};
  CHECK(!braze_options_parse("ok=1 =5", 7, &opts, &error));
  CHECK_STR(braze_str_cstr(&error), "option '=5' has no name");
  CHECK(opts.count == 0 && opts.items == NULL); /* nothing leaks on error */
  braze_str_free(&error);
}

static void flags(void) {
  BrazePassOptions opts = parse_ok("bare on=true one=1 off=false zero=0 other=yes");
  CHECK(braze_option_flag(&opts, "bare"));
  CHECK(braze_option_flag(&opts, "on"));
  CHECK(braze_option_flag(&opts, "one"));
  CHECK(!braze_option_flag(&opts, "off"));
  CHECK(!braze_option_flag(&opts, "zero"));
  CHECK(!braze_option_flag(&opts, "other"));
  CHECK(!braze_option_flag(&opts, "absent"));
  braze_options_free(&opts);
}

static void integers(void) {
  BrazePassOptions opts = parse_ok("n=64 neg=-3 bad=12x empty= bare top=1099511627775 over=1099511627776 "
                                    "under=-1099511627776 huge=99999999999999999999");
  BrazeStr error = {0};
  long long v = 0;
  CHECK(braze_option_int(&opts, "n", 7, &v, &error) && v == 64);
  CHECK(braze_option_int(&opts, "neg", 7, &v, &error) && v == -3);
  CHECK(braze_option_int(&opts, "absent", 7, &v, &error) && v == 7);
  CHECK(error.len == 0);
  CHECK(!braze_option_int(&opts, "bad", 7, &v, &error));
  CHECK_STR(braze_str_cstr(&error), "option 'bad' expects an integer, got '12x'");
  braze_str_clear(&error);
  CHECK(!braze_option_int(&opts, "empty", 7, &v, &error));
  CHECK_CONTAINS(braze_str_cstr(&error), "option 'empty' expects an integer, got ''");
  braze_str_clear(&error);
  CHECK(!braze_option_int(&opts, "bare", 7, &v, &error));
  CHECK_CONTAINS(braze_str_cstr(&error), "option 'bare' expects an integer");
  braze_str_clear(&error);
  /* Magnitudes from 2^40 on are refused (found by fuzz/pipeline-text.c: a saturated
   * strtoll overflowed a pass's arithmetic). */
  CHECK(braze_option_int(&opts, "top", 7, &v, &error) && v == 1099511627775LL);
  CHECK(!braze_option_int(&opts, "over", 7, &v, &error));
  CHECK_STR(braze_str_cstr(&error), "option 'over' is out of range: '1099511627776' (integer options are below 2^40 in magnitude)");
  braze_str_clear(&error);
  CHECK(!braze_option_int(&opts, "under", 7, &v, &error));
  CHECK_CONTAINS(braze_str_cstr(&error), "option 'under' is out of range");
  braze_str_clear(&error);
  CHECK(!braze_option_int(&opts, "huge", 7, &v, &error));
  CHECK_CONTAINS(braze_str_cstr(&error), "option 'huge' is out of range");
  braze_str_free(&error);
  braze_options_free(&opts);
}

static void lists(void) {
  BrazePassOptions opts = parse_ok("disable=gelu,softmax,ab single=x bare");
  CHECK(braze_option_list_has(&opts, "disable", "gelu"));
  CHECK(braze_option_list_has(&opts, "disable", "softmax"));
  CHECK(braze_option_list_has(&opts, "disable", "ab"));
  CHECK(!braze_option_list_has(&opts, "disable", "a"));   /* no prefix matches */
  CHECK(!braze_option_list_has(&opts, "disable", "abc")); /* no overlong matches */
  CHECK(!braze_option_list_has(&opts, "disable", "gelu,softmax"));
  CHECK(braze_option_list_has(&opts, "single", "x"));
  CHECK(!braze_option_list_has(&opts, "bare", "bare"));
  CHECK(!braze_option_list_has(&opts, "absent", "x"));
  braze_options_free(&opts);
}

static void check_rejects_unknown_keys(void) {
  static const char *const allowed[] = {"max-ops", "no-horizontal", NULL};
  BrazePassOptions good = parse_ok("max-ops=3 no-horizontal");
  BrazePassOptions bad = parse_ok("max-ops=3 max-op=4");
  BrazeStr error = {0};
  CHECK(braze_options_check(&good, "form-kernels", allowed, &error));
  CHECK(error.len == 0);
  CHECK(!braze_options_check(&bad, "form-kernels", allowed, &error));
  CHECK_STR(braze_str_cstr(&error), "pass 'form-kernels' has no option 'max-op' (options: max-ops no-horizontal)");
  braze_str_free(&error);
  braze_options_free(&good);
  braze_options_free(&bad);
}

int main(void) {
  RUN_CASE(parses_keys_values_and_flags);
  RUN_CASE(parses_only_the_given_length);
  RUN_CASE(empty_text_has_no_options);
  RUN_CASE(empty_value_is_kept);
  RUN_CASE(nameless_option_is_an_error);
  RUN_CASE(flags);
  RUN_CASE(integers);
  RUN_CASE(lists);
  RUN_CASE(check_rejects_unknown_keys);
  return check_finish();
}
