/* Building blocks for ONNX ops imported as compositions of graph ops: a value
 * with its type, and builders that compute result types (broadcasting) and pass
 * failures on (a null value: the error is already reported), so a composition
 * reads as the formula it implements. */
#ifndef BRAZE_IMPORT_ONNX_COMPOSE_H
#define BRAZE_IMPORT_ONNX_COMPOSE_H

#include "import/onnx-internal.h"

typedef struct {
  MlirValue v; /* null after an error */
  OnnxType t;
} OcVal;

static inline bool oc_ok(OcVal x) { return !mlirValueIsNull(x.v); }
/* Input i of the current node (materialized). */
OcVal oc_input(OnnxImporter *im, size_t i);
OcVal oc_scalar(OnnxImporter *im, int32_t dtype, double value);
OcVal oc_unary(OnnxImporter *im, const char *op, OcVal x);
/* add sub mul div max min pow: broadcast, the element type of a (b must match). */
OcVal oc_binary(OnnxImporter *im, const char *op, OcVal a, OcVal b);
/* b a scalar of a's element type. */
OcVal oc_binary_s(OnnxImporter *im, const char *op, OcVal a, double b);
OcVal oc_cmp(OnnxImporter *im, const char *pred, OcVal a, OcVal b);
OcVal oc_cmp_s(OnnxImporter *im, const char *pred, OcVal a, double b);
OcVal oc_select(OnnxImporter *im, OcVal cond, OcVal a, OcVal b);
OcVal oc_cast(OnnxImporter *im, OcVal x, int32_t dtype);
/* reduce_sum/mean/max/min over sorted non-negative `axes`. */
OcVal oc_reduce(OnnxImporter *im, const char *op, OcVal x, const int64_t *axes, size_t n, bool keepdim);
OcVal oc_reshape(OnnxImporter *im, OcVal x, const int64_t *dims, size_t rank);
OcVal oc_broadcast_to(OnnxImporter *im, OcVal x, const OnnxType *to);
OcVal oc_slice(OnnxImporter *im, OcVal x, size_t axis, int64_t start, int64_t limit, int64_t step);
OcVal oc_concat(OnnxImporter *im, OcVal a, OcVal b, size_t axis);
/* Constants a composition builds (masks, iotas, count maps) are limited to this
 * many elements; larger ones are refused (oc_const_size_ok reports the error). */
enum { OC_CONST_LIMIT = 1 << 24 };
bool oc_const_size_ok(OnnxImporter *im, int64_t count, const char *what);
/* A constant of `type` from int64 values (converted to the element type). */
OcVal oc_const_ints(OnnxImporter *im, const OnnxType *type, const int64_t *values);
/* 0, 1, ..., dims[axis]-1 along `axis` of a tensor of `rank` dims that are 1
 * elsewhere (an iota that broadcasts against a tensor of shape dims). */
OcVal oc_iota(OnnxImporter *im, int32_t dtype, const int64_t *dims, size_t rank, size_t axis);
/* floor(x) for float x: exact (values of magnitude >= 2^23, inf and NaN are
 * already integral or unordered and pass through). */
OcVal oc_floor(OnnxImporter *im, OcVal x);
bool oc_output(OnnxImporter *im, size_t i, OcVal x);

#endif
