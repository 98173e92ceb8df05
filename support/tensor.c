#include "support/tensor.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinTypes.h"

static const char *const dtype_names[] = {"f32", "f16", "bf16", "i32", "i64", "i1", "f64",
                                                 "i8",  "ui8", "i16",  "ui16", "ui32", "ui64"};

const char *braze_dtype_str(BrazeDType dtype) { return dtype_names[dtype]; }

bool braze_dtype_parse(const char *name, BrazeDType *out) {
  for (size_t i = 0; i < sizeof dtype_names / sizeof *dtype_names; ++i) {
    if (strcmp(name, dtype_names[i]) == 0) {
      *out = (BrazeDType)i;
      return true;
    }
  }
  return false;
}

bool braze_dtype_is_float(BrazeDType dtype) {
  return dtype == BRAZE_DTYPE_F32 || dtype == BRAZE_DTYPE_F16 || dtype == BRAZE_DTYPE_BF16 ||
         dtype == BRAZE_DTYPE_F64;
}

int braze_dtype_int_bits(BrazeDType dtype) {
  switch (dtype) {
  case BRAZE_DTYPE_I8: case BRAZE_DTYPE_U8: return 8;
  case BRAZE_DTYPE_I16: case BRAZE_DTYPE_U16: return 16;
  case BRAZE_DTYPE_I32: case BRAZE_DTYPE_U32: return 32;
  case BRAZE_DTYPE_I64: case BRAZE_DTYPE_U64: return 64;
  default: return 0;
  }
}

bool braze_dtype_is_unsigned(BrazeDType dtype) {
  return dtype == BRAZE_DTYPE_U8 || dtype == BRAZE_DTYPE_U16 || dtype == BRAZE_DTYPE_U32 || dtype == BRAZE_DTYPE_U64;
}

size_t braze_dtype_size(BrazeDType dtype) {
  switch (dtype) {
  case BRAZE_DTYPE_F32: return 4;
  case BRAZE_DTYPE_F16: return 2;
  case BRAZE_DTYPE_BF16: return 2;
  case BRAZE_DTYPE_I32: return 4;
  case BRAZE_DTYPE_I64: return 8;
  case BRAZE_DTYPE_I1: return 1;
  case BRAZE_DTYPE_F64: return 8;
  case BRAZE_DTYPE_I8: case BRAZE_DTYPE_U8: return 1;
  case BRAZE_DTYPE_I16: case BRAZE_DTYPE_U16: return 2;
  case BRAZE_DTYPE_U32: return 4;
  case BRAZE_DTYPE_U64: return 8;
  }
  return 0;
}

bool braze_dtype_from_mlir(MlirType e, BrazeDType *out) {
  if (mlirTypeIsAF32(e))
    *out = BRAZE_DTYPE_F32;
  else if (mlirTypeIsAF64(e))
    *out = BRAZE_DTYPE_F64;
  else if (mlirTypeIsAF16(e))
    *out = BRAZE_DTYPE_F16;
  else if (mlirTypeIsABF16(e))
    *out = BRAZE_DTYPE_BF16;
  else if (!mlirTypeIsAInteger(e) || mlirIntegerTypeIsSigned(e))
    return false;
  else if (mlirIntegerTypeIsUnsigned(e)) {
    switch (mlirIntegerTypeGetWidth(e)) {
    case 8: *out = BRAZE_DTYPE_U8; return true;
    case 16: *out = BRAZE_DTYPE_U16; return true;
    case 32: *out = BRAZE_DTYPE_U32; return true;
    case 64: *out = BRAZE_DTYPE_U64; return true;
    default: return false;
    }
  } else {
    switch (mlirIntegerTypeGetWidth(e)) {
    case 1: *out = BRAZE_DTYPE_I1; return true;
    case 8: *out = BRAZE_DTYPE_I8; return true;
    case 16: *out = BRAZE_DTYPE_I16; return true;
    case 32: *out = BRAZE_DTYPE_I32; return true;
    case 64: *out = BRAZE_DTYPE_I64; return true;
    default: return false;
    }
  }
  return true;
}

/* Round |v| to a binary format with `precision` significand bits (implicit bit
 * included), smallest normal exponent `emin` and largest finite value `max_finite`;
 * round to nearest, ties to even (nearbyint in the default rounding mode). Scaling by
 * powers of two is exact, so the only rounding is nearbyint's. */
static double round_binary_format(double v, int precision, int emin, double max_finite) {
  if (isnan(v) || isinf(v) || v == 0.0)
    return v;
  int e2;
  frexp(fabs(v), &e2); /* |v| = m * 2^e2, m in [0.5, 1): exponent of |v| is e2 - 1 */
  int exponent = e2 - 1 < emin ? emin : e2 - 1;
  int ulp_exp = exponent - (precision - 1);
  double q = ldexp(nearbyint(ldexp(fabs(v), -ulp_exp)), ulp_exp);
  if (q > max_finite)
    q = INFINITY;
  return copysign(q, v);
}

static const double f16_max = 65504.0;
#define BF16_MAX (0x1.fep127)

/* Truncate toward zero, then wrap into [-2^(bits-1), 2^(bits-1)). */
static double wrap_signed(double v, int bits) {
  if (isnan(v) || isinf(v))
    return 0.0; /* callers reject these before storing; keep a defined value */
  double modulus = ldexp(1.0, bits), half = ldexp(1.0, bits - 1);
  double t = fmod(trunc(v), modulus);
  if (t < -half)
    t += modulus;
  else if (t >= half)
    t -= modulus;
  return t + 0.0; /* turn -0 into +0 */
}

/* Truncate toward zero, then wrap into [0, 2^bits). */
static double wrap_unsigned(double v, int bits) {
  if (isnan(v) || isinf(v))
    return 0.0;
  double modulus = ldexp(1.0, bits);
  double t = fmod(trunc(v), modulus);
  if (t < 0)
    t += modulus; /* may round up to 2^bits for 64 bits */
  return t >= modulus ? nextafter(modulus, 0.0) : t + 0.0;
}

double braze_dtype_round(double v, BrazeDType dtype) {
  switch (dtype) {
  case BRAZE_DTYPE_F32: return (double)(float)v;
  case BRAZE_DTYPE_F16: return round_binary_format(v, 11, -14, f16_max);
  case BRAZE_DTYPE_BF16: return round_binary_format(v, 8, -126, BF16_MAX);
  case BRAZE_DTYPE_I32: return wrap_signed(v, 32);
  case BRAZE_DTYPE_I64: return wrap_signed(v, 64);
  case BRAZE_DTYPE_I1: return fabs(wrap_signed(v, 1)); /* 0 or 1 (two's complement -1) */
  case BRAZE_DTYPE_F64: return v;
  case BRAZE_DTYPE_I8: return wrap_signed(v, 8);
  case BRAZE_DTYPE_I16: return wrap_signed(v, 16);
  case BRAZE_DTYPE_U8: return wrap_unsigned(v, 8);
  case BRAZE_DTYPE_U16: return wrap_unsigned(v, 16);
  case BRAZE_DTYPE_U32: return wrap_unsigned(v, 32);
  case BRAZE_DTYPE_U64: return wrap_unsigned(v, 64);
  }
  return v;
}

/* Bits of a value already rounded to a format with `mant_bits` stored significand
 * bits, `exp_bits` exponent bits. */
static uint16_t encode_small_float(double v, int mant_bits, int exp_bits) {
  int bias = (1 << (exp_bits - 1)) - 1;
  uint16_t sign = signbit(v) ? (uint16_t)(1u << 15) : 0;
  uint16_t exp_all_ones = (uint16_t)(((1u << exp_bits) - 1) << mant_bits);
  if (isnan(v))
    return (uint16_t)(sign | exp_all_ones | (1u << (mant_bits - 1)));
  if (isinf(v))
    return (uint16_t)(sign | exp_all_ones);
  double a = fabs(v);
  if (a == 0.0)
    return sign;
  int e2;
  frexp(a, &e2);
  int exponent = e2 - 1;
  if (exponent < 1 - bias) /* subnormal: a = mant * 2^(1 - bias - mant_bits) */
    return (uint16_t)(sign | (uint16_t)ldexp(a, bias - 1 + mant_bits));
  uint16_t mant = (uint16_t)(ldexp(a, mant_bits - exponent) - ldexp(1.0, mant_bits));
  return (uint16_t)(sign | (uint16_t)((exponent + bias) << mant_bits) | mant);
}

static double decode_small_float(uint16_t bits, int mant_bits, int exp_bits) {
  int bias = (1 << (exp_bits - 1)) - 1;
  unsigned exp_field = (bits >> mant_bits) & ((1u << exp_bits) - 1);
  unsigned mant = bits & ((1u << mant_bits) - 1);
  double sign = (bits & 0x8000) ? -1.0 : 1.0;
  if (exp_field == (1u << exp_bits) - 1)
    return mant ? NAN : sign * INFINITY;
  if (exp_field == 0)
    return sign * ldexp((double)mant, 1 - bias - mant_bits);
  return sign * ldexp((double)(mant | (1u << mant_bits)), (int)exp_field - bias - mant_bits);
}

uint16_t braze_f16_bits(double v) { return encode_small_float(braze_dtype_round(v, BRAZE_DTYPE_F16), 10, 5); }
double braze_f16_value(uint16_t bits) { return decode_small_float(bits, 10, 5); }
uint16_t braze_bf16_bits(double v) { return encode_small_float(braze_dtype_round(v, BRAZE_DTYPE_BF16), 7, 8); }
double braze_bf16_value(uint16_t bits) { return decode_small_float(bits, 7, 8); }

int64_t braze_tensor_numel(const BrazeHostTensor *t) {
  int64_t n = 1;
  for (int i = 0; i < t->rank; ++i)
    n *= t->shape[i];
  return n;
}

bool braze_tensor_init(BrazeHostTensor *t, BrazeDType dtype, int rank, const int64_t *shape) {
  memset(t, 0, sizeof *t);
  if (rank < 0 || rank > BRAZE_TENSOR_MAX_RANK)
    return false;
  int64_t n = 1;
  for (int i = 0; i < rank; ++i) {
    if (shape[i] < 0 || (shape[i] > 0 && n > INT64_MAX / 8 / shape[i]))
      return false;
    n *= shape[i];
  }
  t->data = calloc(n ? (size_t)n : 1, sizeof *t->data);
  if (!t->data)
    return false;
  t->dtype = dtype;
  t->rank = rank;
  for (int i = 0; i < rank; ++i)
    t->shape[i] = shape[i];
  return true;
}

bool braze_tensor_init_from_type(BrazeHostTensor *t, MlirType type) {
  memset(t, 0, sizeof *t);
  BrazeDType dtype;
  if (!mlirTypeIsARankedTensor(type) || !mlirShapedTypeHasStaticShape(type) ||
      !braze_dtype_from_mlir(mlirShapedTypeGetElementType(type), &dtype))
    return false;
  intptr_t rank = mlirShapedTypeGetRank(type);
  if (rank > BRAZE_TENSOR_MAX_RANK)
    return false;
  int64_t shape[BRAZE_TENSOR_MAX_RANK];
  for (intptr_t i = 0; i < rank; ++i)
    shape[i] = mlirShapedTypeGetDimSize(type, i);
  return braze_tensor_init(t, dtype, (int)rank, shape);
}

static void append_type(MlirStringRef piece, void *user_data) {
  char *buf = ((char **)user_data)[0];
  size_t size = (size_t)((char **)user_data)[1], used = strlen(buf);
  size_t n = piece.length < size - 1 - used ? piece.length : size - 1 - used;
  memcpy(buf + used, piece.data, n);
  buf[used + n] = '\0';
}

void braze_tensor_type_refusal(MlirType type, char *buf, size_t size) {
  char type_text[160] = "";
  void *sink[2] = {type_text, (void *)sizeof type_text};
  mlirTypePrint(type, append_type, sink);
  BrazeDType dtype;
  if (!mlirTypeIsARankedTensor(type) || !mlirShapedTypeHasStaticShape(type)) {
    snprintf(buf, size, "is %s, not a ranked tensor with a static shape", type_text);
    return;
  }
  if (!braze_dtype_from_mlir(mlirShapedTypeGetElementType(type), &dtype)) {
    snprintf(buf, size, "is %s; expected an element type of f32, f64, f16, bf16, i8, i16, i32, i64, ui8, ui16, ui32, "
             "ui64 or i1", type_text);
    return;
  }
  intptr_t rank = mlirShapedTypeGetRank(type);
  if (rank > BRAZE_TENSOR_MAX_RANK) {
    snprintf(buf, size, "is %s, of rank %lld; braze supports rank <= %d", type_text, (long long)rank,
             BRAZE_TENSOR_MAX_RANK);
    return;
  }
  double bytes = sizeof(double);
  for (intptr_t i = 0; i < rank; ++i)
    bytes *= (double)mlirShapedTypeGetDimSize(type, i);
  snprintf(buf, size, "is %s: %.0f bytes of host memory (one double an element), which could not be allocated",
           type_text, bytes);
}

void braze_tensor_free(BrazeHostTensor *t) {
  if (!t)
    return;
  free(t->data);
  t->data = NULL;
}

void braze_tensors_free(BrazeHostTensor *ts, size_t n) {
  if (!ts)
    return;
  for (size_t i = 0; i < n; ++i)
    braze_tensor_free(&ts[i]);
  free(ts);
}

bool braze_tensor_copy(BrazeHostTensor *dst, const BrazeHostTensor *src) {
  if (!braze_tensor_init(dst, src->dtype, src->rank, src->shape))
    return false;
  memcpy(dst->data, src->data, (size_t)braze_tensor_numel(src) * sizeof *src->data);
  return true;
}

bool braze_tensor_matches_type(const BrazeHostTensor *t, MlirType type) {
  BrazeDType dtype;
  if (!mlirTypeIsARankedTensor(type) || !braze_dtype_from_mlir(mlirShapedTypeGetElementType(type), &dtype))
    return false;
  if (dtype != t->dtype || mlirShapedTypeGetRank(type) != t->rank)
    return false;
  for (int i = 0; i < t->rank; ++i)
    if (mlirShapedTypeGetDimSize(type, i) != t->shape[i])
      return false;
  return true;
}

void braze_tensor_type_str(const BrazeHostTensor *t, char *buf, size_t size) {
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; i < t->rank && used < size; ++i)
    used += (size_t)snprintf(buf + used, size - used, "%lldx", (long long)t->shape[i]);
  if (used < size)
    snprintf(buf + used, size - used, "%s", braze_dtype_str(t->dtype));
}

/* i16 and the unsigned types: the wrapped value's low bytes (little-endian host). */
static void pack_int(double v, BrazeDType dtype, unsigned char *out) {
  if (dtype == BRAZE_DTYPE_U64 && v >= 0x1p64) { /* a ui64 above 2^64 - 2^11 unpacked as 2^64 */
    memset(out, 0xFF, 8);
    return;
  }
  double r = braze_dtype_round(v, dtype);
  uint64_t bits = braze_dtype_is_unsigned(dtype) ? (uint64_t)r : (uint64_t)(int64_t)r;
  memcpy(out, &bits, braze_dtype_size(dtype));
}

void braze_tensor_pack(const BrazeHostTensor *t, void *raw) {
  int64_t n = braze_tensor_numel(t);
  unsigned char *out = raw;
  for (int64_t i = 0; i < n; ++i) {
    double v = t->data[i];
    switch (t->dtype) {
    case BRAZE_DTYPE_F32: { float f = (float)v; memcpy(out + 4 * i, &f, 4); break; }
    case BRAZE_DTYPE_F16: { uint16_t b = braze_f16_bits(v); memcpy(out + 2 * i, &b, 2); break; }
    case BRAZE_DTYPE_BF16: { uint16_t b = braze_bf16_bits(v); memcpy(out + 2 * i, &b, 2); break; }
    case BRAZE_DTYPE_I32: { int32_t x = (int32_t)braze_dtype_round(v, BRAZE_DTYPE_I32); memcpy(out + 4 * i, &x, 4); break; }
    case BRAZE_DTYPE_I64: {
      /* 2^63 itself is not an int64; braze_dtype_round keeps values below it. */
      double r = braze_dtype_round(v, BRAZE_DTYPE_I64);
      int64_t x = r >= 0x1p63 ? INT64_MAX : (int64_t)r;
      memcpy(out + 8 * i, &x, 8);
      break;
    }
    case BRAZE_DTYPE_I1: out[i] = v != 0.0; break;
    case BRAZE_DTYPE_F64: memcpy(out + 8 * i, &v, 8); break;
    case BRAZE_DTYPE_I8: { int8_t x = (int8_t)braze_dtype_round(v, BRAZE_DTYPE_I8); memcpy(out + i, &x, 1); break; }
    case BRAZE_DTYPE_I16:
    case BRAZE_DTYPE_U8:
    case BRAZE_DTYPE_U16:
    case BRAZE_DTYPE_U32:
    case BRAZE_DTYPE_U64: pack_int(v, t->dtype, out + braze_dtype_size(t->dtype) * (size_t)i); break;
    }
  }
}

void braze_tensor_unpack(BrazeHostTensor *t, const void *raw) {
  int64_t n = braze_tensor_numel(t);
  const unsigned char *in = raw;
  for (int64_t i = 0; i < n; ++i) {
    double v = 0.0;
    switch (t->dtype) {
    case BRAZE_DTYPE_F32: { float f; memcpy(&f, in + 4 * i, 4); v = f; break; }
    case BRAZE_DTYPE_F16: { uint16_t b; memcpy(&b, in + 2 * i, 2); v = braze_f16_value(b); break; }
    case BRAZE_DTYPE_BF16: { uint16_t b; memcpy(&b, in + 2 * i, 2); v = braze_bf16_value(b); break; }
    case BRAZE_DTYPE_I32: { int32_t x; memcpy(&x, in + 4 * i, 4); v = x; break; }
    case BRAZE_DTYPE_I64: { int64_t x; memcpy(&x, in + 8 * i, 8); v = (double)x; break; }
    case BRAZE_DTYPE_I1: v = in[i] != 0; break;
    case BRAZE_DTYPE_F64: memcpy(&v, in + 8 * i, 8); break;
    case BRAZE_DTYPE_I8: { int8_t x; memcpy(&x, in + i, 1); v = x; break; }
    case BRAZE_DTYPE_I16: { int16_t x; memcpy(&x, in + 2 * i, 2); v = x; break; }
    case BRAZE_DTYPE_U8: { uint8_t x; memcpy(&x, in + i, 1); v = x; break; }
    case BRAZE_DTYPE_U16: { uint16_t x; memcpy(&x, in + 2 * i, 2); v = x; break; }
    case BRAZE_DTYPE_U32: { uint32_t x; memcpy(&x, in + 4 * i, 4); v = x; break; }
    case BRAZE_DTYPE_U64: { uint64_t x; memcpy(&x, in + 8 * i, 8); v = (double)x; break; }
    }
    t->data[i] = v;
  }
}
