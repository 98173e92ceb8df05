/* Host tensors: the values the reference interpreter computes on and the tools
 * (`braze run/check/bench`) read, generate, compare and save.
 *
 * A BrazeHostTensor holds every element as a double, whatever its element type;
 * the value is always one the element type can represent (braze_dtype_round is
 * applied on every store). Doubles hold i64/u64 values exactly only up to 2^53 (and
 * beyond at the multiples of their spacing, e.g. 2^63 + 2^11 k below 2^64).
 * Layout: row-major (C order), `data` has braze_tensor_numel() elements (at least
 * one slot is allocated for rank 0). */
#ifndef BRAZE_SUPPORT_TENSOR_H
#define BRAZE_SUPPORT_TENSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlir-c/IR.h"

/* The values are stable (tools and runtimes may store them): append, never reorder. */
typedef enum {
  BRAZE_DTYPE_F32,
  BRAZE_DTYPE_F16,
  BRAZE_DTYPE_BF16,
  BRAZE_DTYPE_I32,
  BRAZE_DTYPE_I64,
  BRAZE_DTYPE_I1,
  BRAZE_DTYPE_F64,
  BRAZE_DTYPE_I8,
  BRAZE_DTYPE_U8,
  BRAZE_DTYPE_I16,
  BRAZE_DTYPE_U16,
  BRAZE_DTYPE_U32,
  BRAZE_DTYPE_U64,
} BrazeDType;

/* Highest rank a host tensor holds (same bound as BRAZE_MAX_RANK in graph.h). */
enum { BRAZE_TENSOR_MAX_RANK = 8 };

typedef struct {
  BrazeDType dtype;
  int rank;
  int64_t shape[BRAZE_TENSOR_MAX_RANK];
  double *data; /* owned; freed by braze_tensor_free */
} BrazeHostTensor;

/* "f32", "f16", "bf16", "i32", "i64", "i1", "f64", "i8", "ui8", "i16", "ui16", "ui32", "ui64"
 * (the MLIR element type names; unsigned types are MLIR's `uiN`). */
const char *braze_dtype_str(BrazeDType dtype);
/* Parse one of the names above; false for anything else. */
bool braze_dtype_parse(const char *name, BrazeDType *out);
bool braze_dtype_is_float(BrazeDType dtype);
/* Integer dtypes other than i1: their bit width (8, 16, 32, 64); 0 for floats and i1. */
int braze_dtype_int_bits(BrazeDType dtype);
bool braze_dtype_is_unsigned(BrazeDType dtype);
/* Bytes per element in the native encoding (float, double, uint16_t bits, intN_t,
 * uintN_t, one byte 0/1 for i1): what the compiled ABI and .npy files use. */
size_t braze_dtype_size(BrazeDType dtype);
/* The dtype of an MLIR element type; false for unsupported types. */
bool braze_dtype_from_mlir(MlirType element, BrazeDType *out);

/* Round an exact value to the nearest value of `dtype` (stored back as a double):
 * f64 is the identity; f32/f16/bf16 round to nearest even (overflow gives +-inf, NaN stays NaN);
 * i8/i16/i32/i64 truncate toward zero then wrap as two's complement; ui8..ui64 truncate
 * then wrap modulo 2^bits into [0, 2^bits) (ui64: a value that rounds to 2^64 in double
 * becomes the largest double below it); i1 wraps modulo 2.
 * Callers wanting C-style `x != 0` conversion to i1 (cast) do that first. */
double braze_dtype_round(double value, BrazeDType dtype);

/* The binary16 / bfloat16 bit pattern of a value (rounded to nearest even) and back. */
uint16_t braze_f16_bits(double value);
double braze_f16_value(uint16_t bits);
uint16_t braze_bf16_bits(double value);
double braze_bf16_value(uint16_t bits);

/* Element count (1 for rank 0). */
int64_t braze_tensor_numel(const BrazeHostTensor *t);
/* Set dtype/shape and allocate zeroed data. Returns false (nothing allocated) for a
 * rank above BRAZE_TENSOR_MAX_RANK, a negative dim, or a size overflow. */
bool braze_tensor_init(BrazeHostTensor *t, BrazeDType dtype, int rank, const int64_t *shape);
/* Init from a ranked tensor type; false for unsupported element types or shapes. */
bool braze_tensor_init_from_type(BrazeHostTensor *t, MlirType tensor_type);
/* Why braze_tensor_init_from_type refused `tensor_type`, as a phrase for a message
 * ("is tensor<?x4xf32>, not a static tensor", "has element type i3, ...", "has rank 9
 * ...", "needs N bytes of host memory (one double an element), which could not be
 * allocated"), written into buf. */
void braze_tensor_type_refusal(MlirType tensor_type, char *buf, size_t size);
void braze_tensor_free(BrazeHostTensor *t);
/* Free `n` tensors and the array itself (NULL is fine). */
void braze_tensors_free(BrazeHostTensor *ts, size_t n);
/* Deep copy; false on allocation failure. */
bool braze_tensor_copy(BrazeHostTensor *dst, const BrazeHostTensor *src);
/* Whether `t` has exactly the dtype and shape of `tensor_type`. */
bool braze_tensor_matches_type(const BrazeHostTensor *t, MlirType tensor_type);
/* "4x8xf32" (MLIR tensor-type style; "f32" for rank 0) into buf. */
void braze_tensor_type_str(const BrazeHostTensor *t, char *buf, size_t size);

/* Native encoding (see braze_dtype_size) to and from the double storage. `raw`
 * holds numel * braze_dtype_size(dtype) bytes, little-endian host order. i64/ui64
 * values beyond 2^53 take the nearest double on unpack; one that became 2^63 (i64) or
 * 2^64 (ui64) packs as the largest value of its type. */
void braze_tensor_pack(const BrazeHostTensor *t, void *raw);
void braze_tensor_unpack(BrazeHostTensor *t, const void *raw);

#endif
