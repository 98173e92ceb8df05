/* Unit tests for support/tensor.{h,c}: rounding to every element type, 16-bit float
 * encodings, packing, and support/npy.{h,c}: encode/parse round trips and refusals. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "support/npy.h"
#include "support/tensor.h"
#include "test/unit/check.h"

static void f16_rounds_to_nearest_even(void) {
  const double ulp1 = ldexp(1.0, -10); /* f16 ulp at 1.0 */
  CHECK(braze_dtype_round(1.0 + ulp1 / 2, BRAZE_DTYPE_F16) == 1.0);              /* tie -> even (down) */
  CHECK(braze_dtype_round(1.0 + 3 * ulp1 / 2, BRAZE_DTYPE_F16) == 1.0 + 2 * ulp1); /* tie -> even (up) */
  CHECK(braze_dtype_round(1.0 + ulp1 / 2 + 1e-9, BRAZE_DTYPE_F16) == 1.0 + ulp1);
  CHECK(braze_dtype_round(65519.0, BRAZE_DTYPE_F16) == 65504.0);
  CHECK(isinf(braze_dtype_round(65520.0, BRAZE_DTYPE_F16)));      /* halfway to 2^16 rounds to inf */
  CHECK(braze_dtype_round(-65520.0, BRAZE_DTYPE_F16) == -INFINITY);
  CHECK(braze_dtype_round(ldexp(1.0, -25), BRAZE_DTYPE_F16) == 0.0);               /* subnormal tie -> 0 */
  CHECK(braze_dtype_round(3 * ldexp(1.0, -25), BRAZE_DTYPE_F16) == ldexp(1.0, -23)); /* tie -> even */
  CHECK(braze_dtype_round(0.1, BRAZE_DTYPE_F16) == 0.0999755859375);
  CHECK(isnan(braze_dtype_round(NAN, BRAZE_DTYPE_F16)));
  CHECK(signbit(braze_dtype_round(-0.0, BRAZE_DTYPE_F16)));
}

static void bf16_and_f32_round(void) {
  const double ulp1 = ldexp(1.0, -7);
  CHECK(braze_dtype_round(1.0 + ulp1 / 2, BRAZE_DTYPE_BF16) == 1.0);
  CHECK(braze_dtype_round(1.0 + 3 * ulp1 / 2, BRAZE_DTYPE_BF16) == 1.0 + 2 * ulp1);
  CHECK(braze_dtype_round(0x1.fe8p127, BRAZE_DTYPE_BF16) == 0x1.fep127); /* below halfway: largest bf16 */
  CHECK(isinf(braze_dtype_round(0x1.ffp127, BRAZE_DTYPE_BF16))); /* halfway past the largest bf16 */
  CHECK(braze_dtype_round(0.1, BRAZE_DTYPE_F32) == (double)0.1f);
  CHECK(braze_dtype_round(1.0 + ldexp(1.0, -24), BRAZE_DTYPE_F32) == 1.0);
  /* f64 is the host tensors' own precision: nothing rounds. */
  CHECK(braze_dtype_round(0.1, BRAZE_DTYPE_F64) == 0.1);
  CHECK(braze_dtype_round(1.0 + ldexp(1.0, -52), BRAZE_DTYPE_F64) == 1.0 + ldexp(1.0, -52));
  CHECK(braze_dtype_is_float(BRAZE_DTYPE_F64) && braze_dtype_size(BRAZE_DTYPE_F64) == 8);
}

static void ints_wrap_and_truncate(void) {
  CHECK(braze_dtype_round(2147483648.0, BRAZE_DTYPE_I32) == -2147483648.0);
  CHECK(braze_dtype_round(-2147483649.0, BRAZE_DTYPE_I32) == 2147483647.0);
  CHECK(braze_dtype_round(4294967301.0, BRAZE_DTYPE_I32) == 5.0);
  CHECK(braze_dtype_round(3.7, BRAZE_DTYPE_I32) == 3.0);
  CHECK(braze_dtype_round(-3.7, BRAZE_DTYPE_I64) == -3.0);
  CHECK(braze_dtype_round(0x1p63, BRAZE_DTYPE_I64) == -0x1p63);
  CHECK(braze_dtype_round(2.0, BRAZE_DTYPE_I1) == 0.0);
  CHECK(braze_dtype_round(3.0, BRAZE_DTYPE_I1) == 1.0);
  CHECK(braze_dtype_round(-1.0, BRAZE_DTYPE_I1) == 1.0);
  CHECK(!signbit(braze_dtype_round(-0.5, BRAZE_DTYPE_I32)));
  CHECK(braze_dtype_round(128.0, BRAZE_DTYPE_I8) == -128.0);
  CHECK(braze_dtype_round(-129.0, BRAZE_DTYPE_I8) == 127.0);
  CHECK(braze_dtype_round(300.9, BRAZE_DTYPE_I8) == 44.0);
}

static void f16_bits_round_trip_every_pattern(void) {
  int bad = 0;
  for (unsigned b = 0; b < 65536; ++b) {
    double v = braze_f16_value((uint16_t)b);
    if (isnan(v))
      continue;
    bad += braze_f16_bits(v) != b;
    bad += braze_dtype_round(v, BRAZE_DTYPE_F16) != v;
  }
  CHECK(bad == 0);
  CHECK(braze_f16_bits(1.0) == 0x3C00);
  CHECK(braze_f16_bits(-2.0) == 0xC000);
  CHECK(braze_f16_bits(65504.0) == 0x7BFF);
  CHECK(braze_f16_bits(INFINITY) == 0x7C00);
  CHECK(braze_f16_value(0x0001) == ldexp(1.0, -24));
  CHECK((braze_f16_bits(NAN) & 0x7C00) == 0x7C00 && (braze_f16_bits(NAN) & 0x3FF) != 0);
}

static void bf16_bits_round_trip_every_pattern(void) {
  int bad = 0;
  for (unsigned b = 0; b < 65536; ++b) {
    double v = braze_bf16_value((uint16_t)b);
    if (!isnan(v))
      bad += braze_bf16_bits(v) != b;
  }
  CHECK(bad == 0);
  CHECK(braze_bf16_bits(1.0) == 0x3F80);
  CHECK(braze_bf16_bits(-0.5) == 0xBF00);
  CHECK(braze_bf16_value(0x0001) == ldexp(1.0, -133));
}

static void pack_unpack_all_dtypes(void) {
  const double values[] = {1.5, -2.0, 0.0, 7.0};
  for (int d = BRAZE_DTYPE_F32; d <= BRAZE_DTYPE_I8; ++d) { /* I8: the last code */
    BrazeHostTensor t, u;
    int64_t shape[1] = {4};
    CHECK(braze_tensor_init(&t, (BrazeDType)d, 1, shape));
    CHECK(braze_tensor_init(&u, (BrazeDType)d, 1, shape));
    for (int i = 0; i < 4; ++i)
      t.data[i] = braze_dtype_round(values[i], (BrazeDType)d);
    unsigned char raw[64];
    braze_tensor_pack(&t, raw);
    braze_tensor_unpack(&u, raw);
    CHECK(memcmp(t.data, u.data, 4 * sizeof(double)) == 0);
    braze_tensor_free(&t);
    braze_tensor_free(&u);
  }
}

static void init_refuses_bad_shapes(void) {
  BrazeHostTensor t;
  int64_t neg[2] = {2, -1}, huge[2] = {INT64_MAX / 2, 4};
  int64_t nine[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  CHECK(!braze_tensor_init(&t, BRAZE_DTYPE_F32, 2, neg) && t.data == NULL);
  CHECK(!braze_tensor_init(&t, BRAZE_DTYPE_F32, 2, huge) && t.data == NULL);
  CHECK(!braze_tensor_init(&t, BRAZE_DTYPE_F32, 9, nine));
  CHECK(braze_tensor_init(&t, BRAZE_DTYPE_I64, 0, NULL) && braze_tensor_numel(&t) == 1);
  char buf[32];
  braze_tensor_type_str(&t, buf, sizeof buf);
  CHECK_STR(buf, "i64");
  braze_tensor_free(&t);
}

static void npy_round_trip(void) {
  for (int d = BRAZE_DTYPE_F32; d <= BRAZE_DTYPE_I8; ++d) { /* I8: the last code */
    BrazeHostTensor t, back;
    int64_t shape[3] = {2, 1, 3};
    braze_tensor_init(&t, (BrazeDType)d, 3, shape);
    for (int i = 0; i < 6; ++i)
      t.data[i] = braze_dtype_round(i * 0.75 - 2, (BrazeDType)d);
    BrazeStr image = {0}, error = {0};
    braze_npy_encode(&t, &image);
    CHECK((image.len - 6 * braze_dtype_size((BrazeDType)d)) % 64 == 0); /* header padded to 64 */
    CHECK(braze_npy_parse(image.data, image.len, "mem", &back, &error));
    CHECK(back.dtype == t.dtype && back.rank == 3 && back.shape[0] == 2 && back.shape[2] == 3);
    CHECK(back.data && memcmp(back.data, t.data, 6 * sizeof(double)) == 0);
    braze_str_free(&image);
    braze_str_free(&error);
    braze_tensor_free(&t);
    braze_tensor_free(&back);
  }
}

/* A hand-written version 2.0 file of a rank-0 f32. */
static void npy_version2_rank0(void) {
  const char header[] = "{'descr': '<f4', 'fortran_order': False, 'shape': (), }";
  char bytes[128] = "\x93NUMPY\x02\x00";
  size_t hlen = sizeof header - 1;
  bytes[8] = (char)hlen;
  memcpy(bytes + 12, header, hlen);
  float v = 3.25f;
  memcpy(bytes + 12 + hlen, &v, 4);
  BrazeHostTensor t;
  BrazeStr error = {0};
  CHECK(braze_npy_parse(bytes, 12 + hlen + 4, "v2", &t, &error));
  CHECK(t.rank == 0 && t.data && t.data[0] == 3.25);
  braze_tensor_free(&t);
  braze_str_free(&error);
}

static void expect_refusal(const char *bytes, size_t len, const char *message) {
  BrazeHostTensor t;
  BrazeStr error = {0};
  CHECK(!braze_npy_parse(bytes, len, "bad.npy", &t, &error));
  CHECK(t.data == NULL);
  CHECK_CONTAINS(braze_str_cstr(&error), message);
  braze_str_free(&error);
}

/* A version 1.0 image with the given header dict and `data_len` data bytes. */
static void refuse_with_header(const char *dict, size_t data_len, const char *message) {
  char bytes[256] = "\x93NUMPY\x01\x00";
  size_t hlen = strlen(dict);
  bytes[8] = (char)hlen;
  bytes[9] = 0;
  memcpy(bytes + 10, dict, hlen);
  memset(bytes + 10 + hlen, 0, data_len);
  expect_refusal(bytes, 10 + hlen + data_len, message);
}

static void npy_refusals(void) {
  expect_refusal("hello", 5, "bad.npy: not a .npy file (bad magic)");
  expect_refusal("\x93NUMPY\x01\x00\x7f\x00{}", 12, "truncated .npy file (incomplete header)");
  expect_refusal("\x93NUMPY\x09\x00\x02\x00{}", 12, "unsupported .npy format version 9.0");
  refuse_with_header("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", 8, "unsupported .npy dtype '<c8'");
  refuse_with_header("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }", 4, "unsupported .npy dtype '>f4'");
  refuse_with_header("{'descr': '<f4', 'fortran_order': True, 'shape': (1,), }", 4,
                     "fortran-order .npy arrays are not supported");
  refuse_with_header("{'descr': '<f4', 'fortran_order': False, }", 4, "no 'shape' tuple");
  refuse_with_header("{'descr': '<f4', 'shape': (1,), }", 4, "no 'fortran_order' flag");
  refuse_with_header("{'fortran_order': False, 'shape': (1,), }", 4, "no 'descr' string");
  refuse_with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }", 0, "bad .npy shape");
  refuse_with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,1), }", 4, "bad .npy shape");
  refuse_with_header("{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }", 5,
                     "truncated .npy data: expected 8 bytes for the shape in the header, found 5");
  refuse_with_header("{'descr': '|b1', 'fortran_order': False, 'shape': (2, 2), }", 6,
                     "trailing bytes after .npy data: expected 4 bytes");
  /* Huge shapes in a corrupt header are refused before anything is allocated. */
  refuse_with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (1000000000000,), }", 4,
                     "truncated .npy data: expected 4000000000000 bytes");
  refuse_with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 4), }", 4,
                     ".npy shape too large");
}

int main(void) {
  RUN_CASE(f16_rounds_to_nearest_even);
  RUN_CASE(bf16_and_f32_round);
  RUN_CASE(ints_wrap_and_truncate);
  RUN_CASE(f16_bits_round_trip_every_pattern);
  RUN_CASE(bf16_bits_round_trip_every_pattern);
  RUN_CASE(pack_unpack_all_dtypes);
  RUN_CASE(init_refuses_bad_shapes);
  RUN_CASE(npy_round_trip);
  RUN_CASE(npy_version2_rank0);
  RUN_CASE(npy_refusals);
  return check_finish();
}
