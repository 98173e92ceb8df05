// A bf16 or f16 conv with a constant weight gets its product's B [G, KK Cg, OCg] as a
// constant, permuted at compile time bit for bit (as f32 weights already were), so no
// kernel lays the weight out per call: Wt[kk Cg + c][oc] = w[oc][c][kk]. With
// conv-half-k-align=8 a stem-like weight (C = 2, 2x7 taps: K = 28) is widened to 2x8
// taps (K = 32), the extra tap's rows zero. A weight that is not a constant stays the
// reshape/transpose view (laid out by a kernel per call).
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose{conv-half-k-align=8})' | FileCheck %s --check-prefix=WIDE

// CHECK-LABEL: func.func @bf16_constant(
// CHECK: %[[B:[0-9]+]] = "graph.constant"() {value = dense<{{\[}}[{{\[}}1.000000e+00, 5.000000e+00, 9.000000e+00], [3.000000e+00, 7.000000e+00, 1.100000e+01], [2.000000e+00, 6.000000e+00, 1.000000e+01], [4.000000e+00, 8.000000e+00, 1.200000e+01]]]> : tensor<1x4x3xbf16>}
// CHECK: "graph.batch_matmul"(%{{[0-9]+}}, %[[B]])
func.func @bf16_constant(%x: tensor<1x2x4x4xbf16>) -> tensor<1x3x4x3xbf16> {
  %w = "graph.constant"() {value = dense<[[[[1.0, 2.0]], [[3.0, 4.0]]], [[[5.0, 6.0]], [[7.0, 8.0]]], [[[9.0, 10.0]], [[11.0, 12.0]]]]> : tensor<3x2x1x2xbf16>} : () -> tensor<3x2x1x2xbf16>
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x2x4x4xbf16>, tensor<3x2x1x2xbf16>) -> tensor<1x3x4x3xbf16>
  return %y : tensor<1x3x4x3xbf16>
}

// f16, through a reshape of the constant, and values that are not small integers
// (bit-exact: 0.1 stays f16's 0.1, 9.997550e-02).
// CHECK-LABEL: func.func @f16_reshaped(
// CHECK: %[[B:[0-9]+]] = "graph.constant"() {value = dense<{{\[}}[{{\[}}9.997550e-02, -2.500000e+00], [3.000000e+00, 6.550400e+04]]]> : tensor<1x2x2xf16>}
// CHECK: "graph.batch_matmul"(%{{[0-9]+}}, %[[B]])
func.func @f16_reshaped(%x: tensor<1x2x3x3xf16>) -> tensor<1x2x3x3xf16> {
  %f = "graph.constant"() {value = dense<[0.1, 3.0, -2.5, 65504.0]> : tensor<4xf16>} : () -> tensor<4xf16>
  %w = "graph.reshape"(%f) : (tensor<4xf16>) -> tensor<2x2x1x1xf16>
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x2x3x3xf16>, tensor<2x2x1x1xf16>) -> tensor<1x2x3x3xf16>
  return %y : tensor<1x2x3x3xf16>
}

// A splat constant weight: the B constant is that value everywhere (a splat too).
// CHECK-LABEL: func.func @splat(
// CHECK: %[[B:[0-9]+]] = "graph.constant"() {value = dense<2.500000e-01> : tensor<1x8x4xbf16>}
// CHECK: "graph.batch_matmul"(%{{[0-9]+}}, %[[B]])
func.func @splat(%x: tensor<1x2x5x5xbf16>) -> tensor<1x4x4x4xbf16> {
  %w = "graph.constant"() {value = dense<0.25> : tensor<4x2x2x2xbf16>} : () -> tensor<4x2x2x2xbf16>
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x2x5x5xbf16>, tensor<4x2x2x2xbf16>) -> tensor<1x4x4x4xbf16>
  return %y : tensor<1x4x4x4xbf16>
}

// The stem's widened taps: w[0][c][kh][kw] = 14 c + 7 kh + kw + 1; rows kh 8 + kw' then c,
// the rows of kw' = 7 zero.
// WIDE-LABEL: func.func @widened(
// WIDE: %[[B:[0-9]+]] = "graph.constant"() {value = dense<{{\[}}[{{\[}}1.000000e+00], [1.500000e+01], [2.000000e+00], [1.600000e+01], [3.000000e+00], [1.700000e+01], [4.000000e+00], [1.800000e+01], [5.000000e+00], [1.900000e+01], [6.000000e+00], [2.000000e+01], [7.000000e+00], [2.100000e+01], [0.000000e+00], [0.000000e+00], [8.000000e+00], [2.200000e+01], [9.000000e+00], [2.300000e+01], [1.000000e+01], [2.400000e+01], [1.100000e+01], [2.500000e+01], [1.200000e+01], [2.600000e+01], [1.300000e+01], [2.700000e+01], [1.400000e+01], [2.800000e+01], [0.000000e+00], [0.000000e+00]]]> : tensor<1x32x1xbf16>}
// WIDE: "graph.batch_matmul"(%{{[0-9]+}}, %[[B]])
func.func @widened(%x: tensor<1x2x8x16xbf16>) -> tensor<1x1x7x10xbf16> {
  %w = "graph.constant"() {value = dense<[[[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0]], [[15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0], [22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0]]]]> : tensor<1x2x2x7xbf16>} : () -> tensor<1x2x2x7xbf16>
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x2x8x16xbf16>, tensor<1x2x2x7xbf16>) -> tensor<1x1x7x10xbf16>
  return %y : tensor<1x1x7x10xbf16>
}

// A weight that is an input: the view.
// CHECK-LABEL: func.func @input_weight(
// CHECK: %[[T:[0-9]+]] = "graph.transpose"(%{{[0-9]+}}) {perm = array<i64: 0, 3, 2, 1>} : (tensor<1x3x2x2xbf16>)
// CHECK: %[[B:[0-9]+]] = "graph.reshape"(%[[T]])
// CHECK: "graph.batch_matmul"(%{{[0-9]+}}, %[[B]])
func.func @input_weight(%x: tensor<1x2x4x4xbf16>, %w: tensor<3x2x1x2xbf16>) -> tensor<1x3x4x3xbf16> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x2x4x4xbf16>, tensor<3x2x1x2xbf16>) -> tensor<1x3x4x3xbf16>
  return %y : tensor<1x3x4x3xbf16>
}
