/* A minimal harness for braze's unit tests (test/unit/<name>.c, one executable each).
 * CHECK records a failure and goes on; each test case prints "PASS: name" or
 * "FAIL: name" so the lit file can check that every case ran. */
#ifndef BRAZE_TEST_UNIT_CHECK_H
#define BRAZE_TEST_UNIT_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_case_failures, check_total_failures;

#define CHECK(cond)                                                                      \
  do {                                                                                   \
    if (!(cond)) {                                                                       \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);           \
      check_case_failures++;                                                             \
    }                                                                                    \
  } while (0)

/* Strings equal (NULL-safe); prints both on failure. */
#define CHECK_STR(got, want)                                                             \
  do {                                                                                   \
    const char *check_got_ = (got), *check_want_ = (want);                               \
    if (!check_got_ || !check_want_ || strcmp(check_got_, check_want_) != 0) {           \
      fprintf(stderr, "%s:%d: CHECK_STR failed: got \"%s\", want \"%s\"\n", __FILE__,    \
              __LINE__, check_got_ ? check_got_ : "(null)", check_want_);                \
      check_case_failures++;                                                             \
    }                                                                                    \
  } while (0)

/* `needle` occurs in `haystack`. */
#define CHECK_CONTAINS(haystack, needle)                                                 \
  do {                                                                                   \
    const char *check_h_ = (haystack);                                                   \
    if (!check_h_ || !strstr(check_h_, (needle))) {                                      \
      fprintf(stderr, "%s:%d: CHECK_CONTAINS failed: \"%s\" not in \"%s\"\n", __FILE__,  \
              __LINE__, (needle), check_h_ ? check_h_ : "(null)");                       \
      check_case_failures++;                                                             \
    }                                                                                    \
  } while (0)

#define RUN_CASE(fn)                                                                     \
  do {                                                                                   \
    check_case_failures = 0;                                                             \
    fn();                                                                                \
    printf("%s: %s\n", check_case_failures ? "FAIL" : "PASS", #fn);                      \
    fflush(stdout); /* keep order with stderr when both go to one pipe */                \
    check_total_failures += check_case_failures;                                         \
  } while (0)

static inline int check_finish(void) {
  printf(check_total_failures ? "FAILED (%d checks)\n" : "ALL PASSED\n", check_total_failures);
  return check_total_failures ? 1 : 0;
}

#endif
