/* The CUDA host side's constants: a memref.global's initializer as the raw
 * little-endian bytes the library embeds (targets/cuda/host.c uploads them at load). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "targets/cuda/cuda-target.h"

/* The elements of a dense_resource constant (an ONNX initializer's blob) into data,
 * `size` bytes each, through the typed getters (the C API gives no raw blob). */
static bool resource_bytes(MlirAttribute init, MlirType elem, int64_t n, size_t size, unsigned char *data) {
  bool is_float = mlirTypeIsAFloat(elem), unsigned_int = mlirTypeIsAInteger(elem) && mlirIntegerTypeIsUnsigned(elem);
  bool i1 = mlirTypeIsAInteger(elem) && mlirIntegerTypeGetWidth(elem) == 1;
  for (int64_t i = 0; i < n; ++i) {
    unsigned char *to = data + (size_t)i * size;
    if (i1) {
      *to = mlirDenseBoolResourceElementsAttrGetValue(init, i);
    } else if (is_float && size == 4) {
      float v = mlirDenseFloatResourceElementsAttrGetValue(init, i);
      memcpy(to, &v, 4);
    } else if (is_float && size == 8) {
      double v = mlirDenseDoubleResourceElementsAttrGetValue(init, i);
      memcpy(to, &v, 8);
    } else if (size == 2) { /* bf16, f16 and 16-bit integers: the bits */
      uint16_t v = is_float || unsigned_int ? mlirDenseUInt16ResourceElementsAttrGetValue(init, i)
                                            : (uint16_t)mlirDenseInt16ResourceElementsAttrGetValue(init, i);
      memcpy(to, &v, 2);
    } else if (size == 1) {
      uint8_t v = unsigned_int ? mlirDenseUInt8ResourceElementsAttrGetValue(init, i)
                               : (uint8_t)mlirDenseInt8ResourceElementsAttrGetValue(init, i);
      *to = v;
    } else if (size == 4) {
      uint32_t v = unsigned_int ? mlirDenseUInt32ResourceElementsAttrGetValue(init, i)
                                : (uint32_t)mlirDenseInt32ResourceElementsAttrGetValue(init, i);
      memcpy(to, &v, 4);
    } else if (size == 8) {
      uint64_t v = unsigned_int ? mlirDenseUInt64ResourceElementsAttrGetValue(init, i)
                                : (uint64_t)mlirDenseInt64ResourceElementsAttrGetValue(init, i);
      memcpy(to, &v, 8);
    } else {
      return false;
    }
  }
  return true;
}

bool braze_cuda_constant_bytes(MlirOperation global, unsigned char **data, size_t *len) {
  MlirAttribute init = mlirOperationGetAttributeByName(global, braze_ref("initial_value"));
  MlirType t = mlirAttributeGetType(init);
  MlirType elem = mlirShapedTypeGetElementType(t);
  int64_t n = mlirElementsAttrGetNumElements(init);
  bool i1 = mlirTypeIsAInteger(elem) && mlirIntegerTypeGetWidth(elem) == 1;
  int64_t bits = i1 ? 8 : mlirTypeIsAInteger(elem) ? mlirIntegerTypeGetWidth(elem) : mlirFloatTypeGetWidth(elem);
  size_t size = (size_t)(bits / 8);
  if (bits % 8 || size == 0)
    return false;
  *len = (size_t)n * size;
  *data = malloc(*len ? *len : 1);
  if (mlirAttributeIsADenseResourceElements(init))
    return resource_bytes(init, elem, n, size, *data);
  const unsigned char *raw = mlirDenseElementsAttrGetRawData(init);
  bool splat = mlirDenseElementsAttrIsSplat(init);
  for (int64_t i = 0; i < n; ++i) {
    if (i1)
      (*data)[i] = mlirDenseElementsAttrGetBoolValue(init, splat ? 0 : i);
    else
      memcpy(*data + (size_t)i * size, raw + (splat ? 0 : (size_t)i * size), size);
  }
  return true;
}
