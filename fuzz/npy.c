/* Fuzz target: .npy bytes -> the reader (both '<u2' readings). A file it accepts must
 * survive a round trip: encoding what was read and reading that back gives the same
 * dtype, shape and bytes as a second encoding (the first may canonicalize NaN
 * payloads and i1 bytes). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/npy.h"

static void round_trip(const BrazeHostTensor *t) {
  BrazeStr once = {0}, twice = {0}, error = {0};
  braze_npy_encode(t, &once);
  BrazeHostTensor back;
  if (!braze_npy_parse_as(once.data, once.len, "encoded", t->dtype == BRAZE_DTYPE_U16 ? BRAZE_DTYPE_U16 : BRAZE_DTYPE_BF16,
                          &back, &error)) {
    fprintf(stderr, "fuzz: an encoded tensor does not read back: %s\n", braze_str_cstr(&error));
    abort();
  }
  braze_npy_encode(&back, &twice);
  if (back.dtype != t->dtype || back.rank != t->rank || memcmp(back.shape, t->shape, sizeof t->shape) != 0) {
    fprintf(stderr, "fuzz: dtype or shape changed in a round trip\n");
    abort();
  }
  BrazeStr third = {0};
  BrazeHostTensor again;
  if (!braze_npy_parse_as(twice.data, twice.len, "encoded", back.dtype == BRAZE_DTYPE_U16 ? BRAZE_DTYPE_U16 : BRAZE_DTYPE_BF16,
                          &again, &error))
    abort();
  braze_npy_encode(&again, &third);
  if (third.len != twice.len || memcmp(third.data, twice.data, twice.len) != 0) {
    fprintf(stderr, "fuzz: encode(read(x)) is not stable\n");
    abort();
  }
  braze_tensor_free(&back);
  braze_tensor_free(&again);
  braze_str_free(&once);
  braze_str_free(&twice);
  braze_str_free(&third);
  braze_str_free(&error);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const BrazeDType u2[2] = {BRAZE_DTYPE_BF16, BRAZE_DTYPE_U16};
  for (int i = 0; i < 2; ++i) {
    BrazeHostTensor t;
    BrazeStr error = {0};
    if (braze_npy_parse_as((const char *)data, size, "fuzz.npy", u2[i], &t, &error)) {
      round_trip(&t);
      braze_tensor_free(&t);
    } else if (!error.len || t.data) {
      fprintf(stderr, "fuzz: a refused .npy file left no message or data behind\n");
      abort();
    }
    braze_str_free(&error);
  }
  return 0;
}
