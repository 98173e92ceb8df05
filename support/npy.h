/* numpy .npy files (format versions 1.0, 2.0 and 3.0), C order, little-endian.
 *
 * dtype mapping (descr <-> BrazeDType):
 *   '<f4' f32   '<f8' f64   '<f2' f16   '<u2' bf16 (raw bfloat16 bits; numpy has no bfloat16)
 *   '<i4' i32   '<i8' i64   '|i1' i8   '<i2' i16   '|b1' i1
 *   '|u1' ui8   '<u2' ui16 (when the reader asks for it: braze_npy_read_as)   '<u4' ui32   '<u8' ui64
 * Anything else (fortran order, big-endian, other dtypes, truncated data, trailing
 * bytes, object arrays) is refused with a message naming the file and the problem. */
#ifndef BRAZE_SUPPORT_NPY_H
#define BRAZE_SUPPORT_NPY_H

#include <stdbool.h>
#include <stddef.h>

#include "support/strbuf.h"
#include "support/tensor.h"

/* Read `path` into `out` (initialized by the call). On failure `out` is left empty
 * (data NULL) and *error holds "PATH: what is wrong". */
bool braze_npy_read(const char *path, BrazeHostTensor *out, BrazeStr *error);

/* The same, with '<u2' data read as `u2` (BRAZE_DTYPE_BF16, the default, or
 * BRAZE_DTYPE_U16: numpy writes uint16 arrays as '<u2' too). */
bool braze_npy_read_as(const char *path, BrazeDType u2, BrazeHostTensor *out, BrazeStr *error);

/* Parse an in-memory .npy image; `name` is used in error messages. */
bool braze_npy_parse(const char *bytes, size_t len, const char *name, BrazeHostTensor *out, BrazeStr *error);
bool braze_npy_parse_as(const char *bytes, size_t len, const char *name, BrazeDType u2, BrazeHostTensor *out,
                        BrazeStr *error);

/* Serialize `t` as a version 1.0 .npy image appended to `out`. */
void braze_npy_encode(const BrazeHostTensor *t, BrazeStr *out);

/* Write `t` to `path` atomically (nothing is left behind on failure). */
bool braze_npy_write(const char *path, const BrazeHostTensor *t, BrazeStr *error);

#endif
