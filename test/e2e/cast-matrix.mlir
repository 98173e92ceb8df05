// Cast between every pair of the 13 element types (decision 0010), compiled for the
// CPU and checked against the reference (exact for integers). Each function takes a
// ui8 input (random 1..16) or an i16 one (-8..8), casts it to its source type, then
// to all 13 types. From i16, negative values wrap into the unsigned types (int->int;
// not ui64: 2^64 - 8 is not a double, so the reference cannot hold it) and
// float sources skip the unsigned targets (a negative float -> unsigned cast is an
// interpreter error). Generated; the list of pairs is the file.
// RUN: braze check %s --seed 7 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK-COUNT-253: PASS
// CHECK: check passed
//
// f64 -> bf16 is rounded once (graph-to-loops: round to odd into f32, then to nearest
// even; LLVM's own lowering calls __truncdfbf2, which libgcc 12 lacks): values just
// above a tie (1 + 2^-8 + 2^-50) round up, exact ties to even, overflow to inf, a
// subnormal stays. Compiled and reference bits agree.
// RUN: rm -rf %t && mkdir -p %t
// RUN: braze run %s --func f64_to_bf16 --target=cpu --save-outputs %t/cpu --quiet
// RUN: braze run %s --func f64_to_bf16 --save-outputs %t/ref --quiet
// RUN: %python %S/Inputs/print_npy.py %t/cpu | FileCheck %s --check-prefix=BF16
// RUN: %python %S/Inputs/print_npy.py %t/ref | FileCheck %s --check-prefix=BF16
// BF16: out0 uint16 [16257, 16256, 16258, 49025, 32640, 33]
// (Negative values cast to ui64, 2^64 - 8 ..., are checked through the C ABI in
// test/targets/cpu/abi-unsigned.mlir: `braze run` writes .npy files from doubles.)


func.func @f64_to_bf16() -> tensor<6xbf16> {
  %x = "graph.constant"() {value = dense<[1.0039062500000009, 1.00390625, 1.01171875, -1.0039062500000009, 1.0e300, 3.0e-39]> : tensor<6xf64>} : () -> tensor<6xf64>
  %0 = "graph.cast"(%x) : (tensor<6xf64>) -> tensor<6xbf16>
  return %0 : tensor<6xbf16>
}


func.func @from_f32(%x: tensor<8xui8>) -> (tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xui64>, tensor<8xi1>) {
  %v = "graph.cast"(%x) : (tensor<8xui8>) -> tensor<8xf32>
  %c1 = "graph.cast"(%v) : (tensor<8xf32>) -> tensor<8xf64>
  %c2 = "graph.cast"(%v) : (tensor<8xf32>) -> tensor<8xf16>
  %c3 = "graph.cast"(%v) : (tensor<8xf32>) -> tensor<8xbf16>
  %c4 = "graph.cast"(%v) : (tensor<8xf32>) -> tensor<8xi8>
  %c5 = "graph.cast"(%v) : (tensor<8xf32>) -> tensor<8xi16>
  %c6 = "graph.cast"(%v) : (tensor<8xf32>) -> tensor<8xi32>
  %c7 = "graph.cast"(%v) : (tensor<8xf32>) -> tensor<8xi64>
  %c8 = "graph.cast"(%v) : (tensor<8xf32>) -> tensor<8xui8>
  %c9 = "graph.cast"(%v) : (tensor<8xf32>) -> tensor<8xui16>
  %c10 = "graph.cast"(%v) : (tensor<8xf32>) -> tensor<8xui32>
  %c11 = "graph.cast"(%v) : (tensor<8xf32>) -> tensor<8xui64>
  %c12 = "graph.cast"(%v) : (tensor<8xf32>) -> tensor<8xi1>
  return %v, %c1, %c2, %c3, %c4, %c5, %c6, %c7, %c8, %c9, %c10, %c11, %c12 : tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xui64>, tensor<8xi1>
}

func.func @from_f64(%x: tensor<8xui8>) -> (tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xui64>, tensor<8xi1>) {
  %v = "graph.cast"(%x) : (tensor<8xui8>) -> tensor<8xf64>
  %c0 = "graph.cast"(%v) : (tensor<8xf64>) -> tensor<8xf32>
  %c2 = "graph.cast"(%v) : (tensor<8xf64>) -> tensor<8xf16>
  %c3 = "graph.cast"(%v) : (tensor<8xf64>) -> tensor<8xbf16>
  %c4 = "graph.cast"(%v) : (tensor<8xf64>) -> tensor<8xi8>
  %c5 = "graph.cast"(%v) : (tensor<8xf64>) -> tensor<8xi16>
  %c6 = "graph.cast"(%v) : (tensor<8xf64>) -> tensor<8xi32>
  %c7 = "graph.cast"(%v) : (tensor<8xf64>) -> tensor<8xi64>
  %c8 = "graph.cast"(%v) : (tensor<8xf64>) -> tensor<8xui8>
  %c9 = "graph.cast"(%v) : (tensor<8xf64>) -> tensor<8xui16>
  %c10 = "graph.cast"(%v) : (tensor<8xf64>) -> tensor<8xui32>
  %c11 = "graph.cast"(%v) : (tensor<8xf64>) -> tensor<8xui64>
  %c12 = "graph.cast"(%v) : (tensor<8xf64>) -> tensor<8xi1>
  return %c0, %v, %c2, %c3, %c4, %c5, %c6, %c7, %c8, %c9, %c10, %c11, %c12 : tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xui64>, tensor<8xi1>
}

func.func @from_f16(%x: tensor<8xui8>) -> (tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xui64>, tensor<8xi1>) {
  %v = "graph.cast"(%x) : (tensor<8xui8>) -> tensor<8xf16>
  %c0 = "graph.cast"(%v) : (tensor<8xf16>) -> tensor<8xf32>
  %c1 = "graph.cast"(%v) : (tensor<8xf16>) -> tensor<8xf64>
  %c3 = "graph.cast"(%v) : (tensor<8xf16>) -> tensor<8xbf16>
  %c4 = "graph.cast"(%v) : (tensor<8xf16>) -> tensor<8xi8>
  %c5 = "graph.cast"(%v) : (tensor<8xf16>) -> tensor<8xi16>
  %c6 = "graph.cast"(%v) : (tensor<8xf16>) -> tensor<8xi32>
  %c7 = "graph.cast"(%v) : (tensor<8xf16>) -> tensor<8xi64>
  %c8 = "graph.cast"(%v) : (tensor<8xf16>) -> tensor<8xui8>
  %c9 = "graph.cast"(%v) : (tensor<8xf16>) -> tensor<8xui16>
  %c10 = "graph.cast"(%v) : (tensor<8xf16>) -> tensor<8xui32>
  %c11 = "graph.cast"(%v) : (tensor<8xf16>) -> tensor<8xui64>
  %c12 = "graph.cast"(%v) : (tensor<8xf16>) -> tensor<8xi1>
  return %c0, %c1, %v, %c3, %c4, %c5, %c6, %c7, %c8, %c9, %c10, %c11, %c12 : tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xui64>, tensor<8xi1>
}

func.func @from_bf16(%x: tensor<8xui8>) -> (tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xui64>, tensor<8xi1>) {
  %v = "graph.cast"(%x) : (tensor<8xui8>) -> tensor<8xbf16>
  %c0 = "graph.cast"(%v) : (tensor<8xbf16>) -> tensor<8xf32>
  %c1 = "graph.cast"(%v) : (tensor<8xbf16>) -> tensor<8xf64>
  %c2 = "graph.cast"(%v) : (tensor<8xbf16>) -> tensor<8xf16>
  %c4 = "graph.cast"(%v) : (tensor<8xbf16>) -> tensor<8xi8>
  %c5 = "graph.cast"(%v) : (tensor<8xbf16>) -> tensor<8xi16>
  %c6 = "graph.cast"(%v) : (tensor<8xbf16>) -> tensor<8xi32>
  %c7 = "graph.cast"(%v) : (tensor<8xbf16>) -> tensor<8xi64>
  %c8 = "graph.cast"(%v) : (tensor<8xbf16>) -> tensor<8xui8>
  %c9 = "graph.cast"(%v) : (tensor<8xbf16>) -> tensor<8xui16>
  %c10 = "graph.cast"(%v) : (tensor<8xbf16>) -> tensor<8xui32>
  %c11 = "graph.cast"(%v) : (tensor<8xbf16>) -> tensor<8xui64>
  %c12 = "graph.cast"(%v) : (tensor<8xbf16>) -> tensor<8xi1>
  return %c0, %c1, %c2, %v, %c4, %c5, %c6, %c7, %c8, %c9, %c10, %c11, %c12 : tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xui64>, tensor<8xi1>
}

func.func @from_i8(%x: tensor<8xui8>) -> (tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xui64>, tensor<8xi1>) {
  %v = "graph.cast"(%x) : (tensor<8xui8>) -> tensor<8xi8>
  %c0 = "graph.cast"(%v) : (tensor<8xi8>) -> tensor<8xf32>
  %c1 = "graph.cast"(%v) : (tensor<8xi8>) -> tensor<8xf64>
  %c2 = "graph.cast"(%v) : (tensor<8xi8>) -> tensor<8xf16>
  %c3 = "graph.cast"(%v) : (tensor<8xi8>) -> tensor<8xbf16>
  %c5 = "graph.cast"(%v) : (tensor<8xi8>) -> tensor<8xi16>
  %c6 = "graph.cast"(%v) : (tensor<8xi8>) -> tensor<8xi32>
  %c7 = "graph.cast"(%v) : (tensor<8xi8>) -> tensor<8xi64>
  %c8 = "graph.cast"(%v) : (tensor<8xi8>) -> tensor<8xui8>
  %c9 = "graph.cast"(%v) : (tensor<8xi8>) -> tensor<8xui16>
  %c10 = "graph.cast"(%v) : (tensor<8xi8>) -> tensor<8xui32>
  %c11 = "graph.cast"(%v) : (tensor<8xi8>) -> tensor<8xui64>
  %c12 = "graph.cast"(%v) : (tensor<8xi8>) -> tensor<8xi1>
  return %c0, %c1, %c2, %c3, %v, %c5, %c6, %c7, %c8, %c9, %c10, %c11, %c12 : tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xui64>, tensor<8xi1>
}

func.func @from_i16(%x: tensor<8xui8>) -> (tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xui64>, tensor<8xi1>) {
  %v = "graph.cast"(%x) : (tensor<8xui8>) -> tensor<8xi16>
  %c0 = "graph.cast"(%v) : (tensor<8xi16>) -> tensor<8xf32>
  %c1 = "graph.cast"(%v) : (tensor<8xi16>) -> tensor<8xf64>
  %c2 = "graph.cast"(%v) : (tensor<8xi16>) -> tensor<8xf16>
  %c3 = "graph.cast"(%v) : (tensor<8xi16>) -> tensor<8xbf16>
  %c4 = "graph.cast"(%v) : (tensor<8xi16>) -> tensor<8xi8>
  %c6 = "graph.cast"(%v) : (tensor<8xi16>) -> tensor<8xi32>
  %c7 = "graph.cast"(%v) : (tensor<8xi16>) -> tensor<8xi64>
  %c8 = "graph.cast"(%v) : (tensor<8xi16>) -> tensor<8xui8>
  %c9 = "graph.cast"(%v) : (tensor<8xi16>) -> tensor<8xui16>
  %c10 = "graph.cast"(%v) : (tensor<8xi16>) -> tensor<8xui32>
  %c11 = "graph.cast"(%v) : (tensor<8xi16>) -> tensor<8xui64>
  %c12 = "graph.cast"(%v) : (tensor<8xi16>) -> tensor<8xi1>
  return %c0, %c1, %c2, %c3, %c4, %v, %c6, %c7, %c8, %c9, %c10, %c11, %c12 : tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xui64>, tensor<8xi1>
}

func.func @from_i32(%x: tensor<8xui8>) -> (tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xui64>, tensor<8xi1>) {
  %v = "graph.cast"(%x) : (tensor<8xui8>) -> tensor<8xi32>
  %c0 = "graph.cast"(%v) : (tensor<8xi32>) -> tensor<8xf32>
  %c1 = "graph.cast"(%v) : (tensor<8xi32>) -> tensor<8xf64>
  %c2 = "graph.cast"(%v) : (tensor<8xi32>) -> tensor<8xf16>
  %c3 = "graph.cast"(%v) : (tensor<8xi32>) -> tensor<8xbf16>
  %c4 = "graph.cast"(%v) : (tensor<8xi32>) -> tensor<8xi8>
  %c5 = "graph.cast"(%v) : (tensor<8xi32>) -> tensor<8xi16>
  %c7 = "graph.cast"(%v) : (tensor<8xi32>) -> tensor<8xi64>
  %c8 = "graph.cast"(%v) : (tensor<8xi32>) -> tensor<8xui8>
  %c9 = "graph.cast"(%v) : (tensor<8xi32>) -> tensor<8xui16>
  %c10 = "graph.cast"(%v) : (tensor<8xi32>) -> tensor<8xui32>
  %c11 = "graph.cast"(%v) : (tensor<8xi32>) -> tensor<8xui64>
  %c12 = "graph.cast"(%v) : (tensor<8xi32>) -> tensor<8xi1>
  return %c0, %c1, %c2, %c3, %c4, %c5, %v, %c7, %c8, %c9, %c10, %c11, %c12 : tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xui64>, tensor<8xi1>
}

func.func @from_i64(%x: tensor<8xui8>) -> (tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xui64>, tensor<8xi1>) {
  %v = "graph.cast"(%x) : (tensor<8xui8>) -> tensor<8xi64>
  %c0 = "graph.cast"(%v) : (tensor<8xi64>) -> tensor<8xf32>
  %c1 = "graph.cast"(%v) : (tensor<8xi64>) -> tensor<8xf64>
  %c2 = "graph.cast"(%v) : (tensor<8xi64>) -> tensor<8xf16>
  %c3 = "graph.cast"(%v) : (tensor<8xi64>) -> tensor<8xbf16>
  %c4 = "graph.cast"(%v) : (tensor<8xi64>) -> tensor<8xi8>
  %c5 = "graph.cast"(%v) : (tensor<8xi64>) -> tensor<8xi16>
  %c6 = "graph.cast"(%v) : (tensor<8xi64>) -> tensor<8xi32>
  %c8 = "graph.cast"(%v) : (tensor<8xi64>) -> tensor<8xui8>
  %c9 = "graph.cast"(%v) : (tensor<8xi64>) -> tensor<8xui16>
  %c10 = "graph.cast"(%v) : (tensor<8xi64>) -> tensor<8xui32>
  %c11 = "graph.cast"(%v) : (tensor<8xi64>) -> tensor<8xui64>
  %c12 = "graph.cast"(%v) : (tensor<8xi64>) -> tensor<8xi1>
  return %c0, %c1, %c2, %c3, %c4, %c5, %c6, %v, %c8, %c9, %c10, %c11, %c12 : tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xui64>, tensor<8xi1>
}

func.func @from_ui8(%x: tensor<8xui8>) -> (tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xui64>, tensor<8xi1>) {
  %c0 = "graph.cast"(%x) : (tensor<8xui8>) -> tensor<8xf32>
  %c1 = "graph.cast"(%x) : (tensor<8xui8>) -> tensor<8xf64>
  %c2 = "graph.cast"(%x) : (tensor<8xui8>) -> tensor<8xf16>
  %c3 = "graph.cast"(%x) : (tensor<8xui8>) -> tensor<8xbf16>
  %c4 = "graph.cast"(%x) : (tensor<8xui8>) -> tensor<8xi8>
  %c5 = "graph.cast"(%x) : (tensor<8xui8>) -> tensor<8xi16>
  %c6 = "graph.cast"(%x) : (tensor<8xui8>) -> tensor<8xi32>
  %c7 = "graph.cast"(%x) : (tensor<8xui8>) -> tensor<8xi64>
  %c9 = "graph.cast"(%x) : (tensor<8xui8>) -> tensor<8xui16>
  %c10 = "graph.cast"(%x) : (tensor<8xui8>) -> tensor<8xui32>
  %c11 = "graph.cast"(%x) : (tensor<8xui8>) -> tensor<8xui64>
  %c12 = "graph.cast"(%x) : (tensor<8xui8>) -> tensor<8xi1>
  return %c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7, %x, %c9, %c10, %c11, %c12 : tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xui64>, tensor<8xi1>
}

func.func @from_ui16(%x: tensor<8xui8>) -> (tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xui64>, tensor<8xi1>) {
  %v = "graph.cast"(%x) : (tensor<8xui8>) -> tensor<8xui16>
  %c0 = "graph.cast"(%v) : (tensor<8xui16>) -> tensor<8xf32>
  %c1 = "graph.cast"(%v) : (tensor<8xui16>) -> tensor<8xf64>
  %c2 = "graph.cast"(%v) : (tensor<8xui16>) -> tensor<8xf16>
  %c3 = "graph.cast"(%v) : (tensor<8xui16>) -> tensor<8xbf16>
  %c4 = "graph.cast"(%v) : (tensor<8xui16>) -> tensor<8xi8>
  %c5 = "graph.cast"(%v) : (tensor<8xui16>) -> tensor<8xi16>
  %c6 = "graph.cast"(%v) : (tensor<8xui16>) -> tensor<8xi32>
  %c7 = "graph.cast"(%v) : (tensor<8xui16>) -> tensor<8xi64>
  %c8 = "graph.cast"(%v) : (tensor<8xui16>) -> tensor<8xui8>
  %c10 = "graph.cast"(%v) : (tensor<8xui16>) -> tensor<8xui32>
  %c11 = "graph.cast"(%v) : (tensor<8xui16>) -> tensor<8xui64>
  %c12 = "graph.cast"(%v) : (tensor<8xui16>) -> tensor<8xi1>
  return %c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7, %c8, %v, %c10, %c11, %c12 : tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xui64>, tensor<8xi1>
}

func.func @from_ui32(%x: tensor<8xui8>) -> (tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xui64>, tensor<8xi1>) {
  %v = "graph.cast"(%x) : (tensor<8xui8>) -> tensor<8xui32>
  %c0 = "graph.cast"(%v) : (tensor<8xui32>) -> tensor<8xf32>
  %c1 = "graph.cast"(%v) : (tensor<8xui32>) -> tensor<8xf64>
  %c2 = "graph.cast"(%v) : (tensor<8xui32>) -> tensor<8xf16>
  %c3 = "graph.cast"(%v) : (tensor<8xui32>) -> tensor<8xbf16>
  %c4 = "graph.cast"(%v) : (tensor<8xui32>) -> tensor<8xi8>
  %c5 = "graph.cast"(%v) : (tensor<8xui32>) -> tensor<8xi16>
  %c6 = "graph.cast"(%v) : (tensor<8xui32>) -> tensor<8xi32>
  %c7 = "graph.cast"(%v) : (tensor<8xui32>) -> tensor<8xi64>
  %c8 = "graph.cast"(%v) : (tensor<8xui32>) -> tensor<8xui8>
  %c9 = "graph.cast"(%v) : (tensor<8xui32>) -> tensor<8xui16>
  %c11 = "graph.cast"(%v) : (tensor<8xui32>) -> tensor<8xui64>
  %c12 = "graph.cast"(%v) : (tensor<8xui32>) -> tensor<8xi1>
  return %c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7, %c8, %c9, %v, %c11, %c12 : tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xui64>, tensor<8xi1>
}

func.func @from_ui64(%x: tensor<8xui8>) -> (tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xui64>, tensor<8xi1>) {
  %v = "graph.cast"(%x) : (tensor<8xui8>) -> tensor<8xui64>
  %c0 = "graph.cast"(%v) : (tensor<8xui64>) -> tensor<8xf32>
  %c1 = "graph.cast"(%v) : (tensor<8xui64>) -> tensor<8xf64>
  %c2 = "graph.cast"(%v) : (tensor<8xui64>) -> tensor<8xf16>
  %c3 = "graph.cast"(%v) : (tensor<8xui64>) -> tensor<8xbf16>
  %c4 = "graph.cast"(%v) : (tensor<8xui64>) -> tensor<8xi8>
  %c5 = "graph.cast"(%v) : (tensor<8xui64>) -> tensor<8xi16>
  %c6 = "graph.cast"(%v) : (tensor<8xui64>) -> tensor<8xi32>
  %c7 = "graph.cast"(%v) : (tensor<8xui64>) -> tensor<8xi64>
  %c8 = "graph.cast"(%v) : (tensor<8xui64>) -> tensor<8xui8>
  %c9 = "graph.cast"(%v) : (tensor<8xui64>) -> tensor<8xui16>
  %c10 = "graph.cast"(%v) : (tensor<8xui64>) -> tensor<8xui32>
  %c12 = "graph.cast"(%v) : (tensor<8xui64>) -> tensor<8xi1>
  return %c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7, %c8, %c9, %c10, %v, %c12 : tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xui64>, tensor<8xi1>
}

func.func @from_i1(%x: tensor<8xui8>) -> (tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xui64>, tensor<8xi1>) {
  %v = "graph.cast"(%x) : (tensor<8xui8>) -> tensor<8xi1>
  %c0 = "graph.cast"(%v) : (tensor<8xi1>) -> tensor<8xf32>
  %c1 = "graph.cast"(%v) : (tensor<8xi1>) -> tensor<8xf64>
  %c2 = "graph.cast"(%v) : (tensor<8xi1>) -> tensor<8xf16>
  %c3 = "graph.cast"(%v) : (tensor<8xi1>) -> tensor<8xbf16>
  %c4 = "graph.cast"(%v) : (tensor<8xi1>) -> tensor<8xi8>
  %c5 = "graph.cast"(%v) : (tensor<8xi1>) -> tensor<8xi16>
  %c6 = "graph.cast"(%v) : (tensor<8xi1>) -> tensor<8xi32>
  %c7 = "graph.cast"(%v) : (tensor<8xi1>) -> tensor<8xi64>
  %c8 = "graph.cast"(%v) : (tensor<8xi1>) -> tensor<8xui8>
  %c9 = "graph.cast"(%v) : (tensor<8xi1>) -> tensor<8xui16>
  %c10 = "graph.cast"(%v) : (tensor<8xi1>) -> tensor<8xui32>
  %c11 = "graph.cast"(%v) : (tensor<8xi1>) -> tensor<8xui64>
  return %c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7, %c8, %c9, %c10, %c11, %v : tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xui64>, tensor<8xi1>
}

func.func @signed_f32(%x: tensor<8xi16>) -> (tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xi1>) {
  %v = "graph.cast"(%x) : (tensor<8xi16>) -> tensor<8xf32>
  %c1 = "graph.cast"(%v) : (tensor<8xf32>) -> tensor<8xf64>
  %c2 = "graph.cast"(%v) : (tensor<8xf32>) -> tensor<8xf16>
  %c3 = "graph.cast"(%v) : (tensor<8xf32>) -> tensor<8xbf16>
  %c4 = "graph.cast"(%v) : (tensor<8xf32>) -> tensor<8xi8>
  %c5 = "graph.cast"(%v) : (tensor<8xf32>) -> tensor<8xi16>
  %c6 = "graph.cast"(%v) : (tensor<8xf32>) -> tensor<8xi32>
  %c7 = "graph.cast"(%v) : (tensor<8xf32>) -> tensor<8xi64>
  %c8 = "graph.cast"(%v) : (tensor<8xf32>) -> tensor<8xi1>
  return %v, %c1, %c2, %c3, %c4, %c5, %c6, %c7, %c8 : tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xi1>
}

func.func @signed_f64(%x: tensor<8xi16>) -> (tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xi1>) {
  %v = "graph.cast"(%x) : (tensor<8xi16>) -> tensor<8xf64>
  %c0 = "graph.cast"(%v) : (tensor<8xf64>) -> tensor<8xf32>
  %c2 = "graph.cast"(%v) : (tensor<8xf64>) -> tensor<8xf16>
  %c3 = "graph.cast"(%v) : (tensor<8xf64>) -> tensor<8xbf16>
  %c4 = "graph.cast"(%v) : (tensor<8xf64>) -> tensor<8xi8>
  %c5 = "graph.cast"(%v) : (tensor<8xf64>) -> tensor<8xi16>
  %c6 = "graph.cast"(%v) : (tensor<8xf64>) -> tensor<8xi32>
  %c7 = "graph.cast"(%v) : (tensor<8xf64>) -> tensor<8xi64>
  %c8 = "graph.cast"(%v) : (tensor<8xf64>) -> tensor<8xi1>
  return %c0, %v, %c2, %c3, %c4, %c5, %c6, %c7, %c8 : tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xi1>
}

func.func @signed_f16(%x: tensor<8xi16>) -> (tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xi1>) {
  %v = "graph.cast"(%x) : (tensor<8xi16>) -> tensor<8xf16>
  %c0 = "graph.cast"(%v) : (tensor<8xf16>) -> tensor<8xf32>
  %c1 = "graph.cast"(%v) : (tensor<8xf16>) -> tensor<8xf64>
  %c3 = "graph.cast"(%v) : (tensor<8xf16>) -> tensor<8xbf16>
  %c4 = "graph.cast"(%v) : (tensor<8xf16>) -> tensor<8xi8>
  %c5 = "graph.cast"(%v) : (tensor<8xf16>) -> tensor<8xi16>
  %c6 = "graph.cast"(%v) : (tensor<8xf16>) -> tensor<8xi32>
  %c7 = "graph.cast"(%v) : (tensor<8xf16>) -> tensor<8xi64>
  %c8 = "graph.cast"(%v) : (tensor<8xf16>) -> tensor<8xi1>
  return %c0, %c1, %v, %c3, %c4, %c5, %c6, %c7, %c8 : tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xi1>
}

func.func @signed_bf16(%x: tensor<8xi16>) -> (tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xi1>) {
  %v = "graph.cast"(%x) : (tensor<8xi16>) -> tensor<8xbf16>
  %c0 = "graph.cast"(%v) : (tensor<8xbf16>) -> tensor<8xf32>
  %c1 = "graph.cast"(%v) : (tensor<8xbf16>) -> tensor<8xf64>
  %c2 = "graph.cast"(%v) : (tensor<8xbf16>) -> tensor<8xf16>
  %c4 = "graph.cast"(%v) : (tensor<8xbf16>) -> tensor<8xi8>
  %c5 = "graph.cast"(%v) : (tensor<8xbf16>) -> tensor<8xi16>
  %c6 = "graph.cast"(%v) : (tensor<8xbf16>) -> tensor<8xi32>
  %c7 = "graph.cast"(%v) : (tensor<8xbf16>) -> tensor<8xi64>
  %c8 = "graph.cast"(%v) : (tensor<8xbf16>) -> tensor<8xi1>
  return %c0, %c1, %c2, %v, %c4, %c5, %c6, %c7, %c8 : tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xi1>
}

func.func @signed_i8(%x: tensor<8xi16>) -> (tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xi1>) {
  %v = "graph.cast"(%x) : (tensor<8xi16>) -> tensor<8xi8>
  %c0 = "graph.cast"(%v) : (tensor<8xi8>) -> tensor<8xf32>
  %c1 = "graph.cast"(%v) : (tensor<8xi8>) -> tensor<8xf64>
  %c2 = "graph.cast"(%v) : (tensor<8xi8>) -> tensor<8xf16>
  %c3 = "graph.cast"(%v) : (tensor<8xi8>) -> tensor<8xbf16>
  %c5 = "graph.cast"(%v) : (tensor<8xi8>) -> tensor<8xi16>
  %c6 = "graph.cast"(%v) : (tensor<8xi8>) -> tensor<8xi32>
  %c7 = "graph.cast"(%v) : (tensor<8xi8>) -> tensor<8xi64>
  %c8 = "graph.cast"(%v) : (tensor<8xi8>) -> tensor<8xui8>
  %c9 = "graph.cast"(%v) : (tensor<8xi8>) -> tensor<8xui16>
  %c10 = "graph.cast"(%v) : (tensor<8xi8>) -> tensor<8xui32>
  %c12 = "graph.cast"(%v) : (tensor<8xi8>) -> tensor<8xi1>
  return %c0, %c1, %c2, %c3, %v, %c5, %c6, %c7, %c8, %c9, %c10, %c12 : tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xi1>
}

func.func @signed_i16(%x: tensor<8xi16>) -> (tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xi1>) {
  %c0 = "graph.cast"(%x) : (tensor<8xi16>) -> tensor<8xf32>
  %c1 = "graph.cast"(%x) : (tensor<8xi16>) -> tensor<8xf64>
  %c2 = "graph.cast"(%x) : (tensor<8xi16>) -> tensor<8xf16>
  %c3 = "graph.cast"(%x) : (tensor<8xi16>) -> tensor<8xbf16>
  %c4 = "graph.cast"(%x) : (tensor<8xi16>) -> tensor<8xi8>
  %c6 = "graph.cast"(%x) : (tensor<8xi16>) -> tensor<8xi32>
  %c7 = "graph.cast"(%x) : (tensor<8xi16>) -> tensor<8xi64>
  %c8 = "graph.cast"(%x) : (tensor<8xi16>) -> tensor<8xui8>
  %c9 = "graph.cast"(%x) : (tensor<8xi16>) -> tensor<8xui16>
  %c10 = "graph.cast"(%x) : (tensor<8xi16>) -> tensor<8xui32>
  %c12 = "graph.cast"(%x) : (tensor<8xi16>) -> tensor<8xi1>
  return %c0, %c1, %c2, %c3, %c4, %x, %c6, %c7, %c8, %c9, %c10, %c12 : tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xi1>
}

func.func @signed_i32(%x: tensor<8xi16>) -> (tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xi1>) {
  %v = "graph.cast"(%x) : (tensor<8xi16>) -> tensor<8xi32>
  %c0 = "graph.cast"(%v) : (tensor<8xi32>) -> tensor<8xf32>
  %c1 = "graph.cast"(%v) : (tensor<8xi32>) -> tensor<8xf64>
  %c2 = "graph.cast"(%v) : (tensor<8xi32>) -> tensor<8xf16>
  %c3 = "graph.cast"(%v) : (tensor<8xi32>) -> tensor<8xbf16>
  %c4 = "graph.cast"(%v) : (tensor<8xi32>) -> tensor<8xi8>
  %c5 = "graph.cast"(%v) : (tensor<8xi32>) -> tensor<8xi16>
  %c7 = "graph.cast"(%v) : (tensor<8xi32>) -> tensor<8xi64>
  %c8 = "graph.cast"(%v) : (tensor<8xi32>) -> tensor<8xui8>
  %c9 = "graph.cast"(%v) : (tensor<8xi32>) -> tensor<8xui16>
  %c10 = "graph.cast"(%v) : (tensor<8xi32>) -> tensor<8xui32>
  %c12 = "graph.cast"(%v) : (tensor<8xi32>) -> tensor<8xi1>
  return %c0, %c1, %c2, %c3, %c4, %c5, %v, %c7, %c8, %c9, %c10, %c12 : tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xi1>
}

func.func @signed_i64(%x: tensor<8xi16>) -> (tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xi1>) {
  %v = "graph.cast"(%x) : (tensor<8xi16>) -> tensor<8xi64>
  %c0 = "graph.cast"(%v) : (tensor<8xi64>) -> tensor<8xf32>
  %c1 = "graph.cast"(%v) : (tensor<8xi64>) -> tensor<8xf64>
  %c2 = "graph.cast"(%v) : (tensor<8xi64>) -> tensor<8xf16>
  %c3 = "graph.cast"(%v) : (tensor<8xi64>) -> tensor<8xbf16>
  %c4 = "graph.cast"(%v) : (tensor<8xi64>) -> tensor<8xi8>
  %c5 = "graph.cast"(%v) : (tensor<8xi64>) -> tensor<8xi16>
  %c6 = "graph.cast"(%v) : (tensor<8xi64>) -> tensor<8xi32>
  %c8 = "graph.cast"(%v) : (tensor<8xi64>) -> tensor<8xui8>
  %c9 = "graph.cast"(%v) : (tensor<8xi64>) -> tensor<8xui16>
  %c10 = "graph.cast"(%v) : (tensor<8xi64>) -> tensor<8xui32>
  %c12 = "graph.cast"(%v) : (tensor<8xi64>) -> tensor<8xi1>
  return %c0, %c1, %c2, %c3, %c4, %c5, %c6, %v, %c8, %c9, %c10, %c12 : tensor<8xf32>, tensor<8xf64>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xi16>, tensor<8xi32>, tensor<8xi64>, tensor<8xui8>, tensor<8xui16>, tensor<8xui32>, tensor<8xi1>
}
