// Shape ops and constants.
// RUN: %python %S/compare.py %s | FileCheck %s
// CHECK: checked 17 functions

// NUMPY @transpose2: x.T
func.func @transpose2(%x: tensor<3x5xf32>) -> tensor<5x3xf32> {
  %0 = "graph.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<3x5xf32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}
// NUMPY @transpose5: np.transpose(x, (3, 0, 4, 1, 2))
func.func @transpose5(%x: tensor<2x3x4x5x6xf32>) -> tensor<5x2x6x3x4xf32> {
  %0 = "graph.transpose"(%x) {perm = array<i64: 3, 0, 4, 1, 2>} : (tensor<2x3x4x5x6xf32>) -> tensor<5x2x6x3x4xf32>
  return %0 : tensor<5x2x6x3x4xf32>
}
// NUMPY @broadcast_to: np.broadcast_to(x, (2, 3, 4))
func.func @broadcast_to(%x: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  %0 = "graph.broadcast_to"(%x) : (tensor<3x1xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}
// NUMPY @broadcast_scalar: np.broadcast_to(x, (2, 2))
func.func @broadcast_scalar(%x: tensor<f32>) -> tensor<2x2xf32> {
  %0 = "graph.broadcast_to"(%x) : (tensor<f32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
// NUMPY @reshape: x.reshape(4, 6)
func.func @reshape(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %0 = "graph.reshape"(%x) : (tensor<2x3x4xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}
// Reshape of a transposed tensor is row-major over the transposed values.
// NUMPY @reshape_after_transpose: x.T.reshape(12)
func.func @reshape_after_transpose(%x: tensor<3x4xf32>) -> tensor<12xf32> {
  %t = "graph.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %0 = "graph.reshape"(%t) : (tensor<4x3xf32>) -> tensor<12xf32>
  return %0 : tensor<12xf32>
}
// NUMPY @reshape_scalar: (x.reshape(()), x.reshape(()).reshape(1, 1, 1))
func.func @reshape_scalar(%x: tensor<1x1xf32>) -> (tensor<f32>, tensor<1x1x1xf32>) {
  %0 = "graph.reshape"(%x) : (tensor<1x1xf32>) -> tensor<f32>
  %1 = "graph.reshape"(%0) : (tensor<f32>) -> tensor<1x1x1xf32>
  return %0, %1 : tensor<f32>, tensor<1x1x1xf32>
}
// NUMPY @slice: x[1:5:2, 0:3:1]
func.func @slice(%x: tensor<6x4xf32>) -> tensor<2x3xf32> {
  %0 = "graph.slice"(%x) {starts = array<i64: 1, 0>, limits = array<i64: 5, 3>, strides = array<i64: 2, 1>} : (tensor<6x4xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// Strides that do not divide the extent, and an empty slice.
// NUMPY @slice_ragged: (x[0:7:3, 2:3:1, 1:4:2], x[2:2:1, :, :])
func.func @slice_ragged(%x: tensor<7x3x4xf32>) -> (tensor<3x1x2xf32>, tensor<0x3x4xf32>) {
  %0 = "graph.slice"(%x) {starts = array<i64: 0, 2, 1>, limits = array<i64: 7, 3, 4>, strides = array<i64: 3, 1, 2>} : (tensor<7x3x4xf32>) -> tensor<3x1x2xf32>
  %1 = "graph.slice"(%x) {starts = array<i64: 2, 0, 0>, limits = array<i64: 2, 3, 4>, strides = array<i64: 1, 1, 1>} : (tensor<7x3x4xf32>) -> tensor<0x3x4xf32>
  return %0, %1 : tensor<3x1x2xf32>, tensor<0x3x4xf32>
}
// NUMPY @concat0: np.concatenate([a, b], axis=0)
func.func @concat0(%a: tensor<2x3xf32>, %b: tensor<5x3xf32>) -> tensor<7x3xf32> {
  %0 = "graph.concat"(%a, %b) {dim = 0 : i64} : (tensor<2x3xf32>, tensor<5x3xf32>) -> tensor<7x3xf32>
  return %0 : tensor<7x3xf32>
}
// Three inputs: a left-nested chain of binary concats.
// NUMPY @concat_middle3: np.concatenate([a, b, c], axis=1)
func.func @concat_middle3(%a: tensor<2x2x3xf32>, %b: tensor<2x1x3xf32>, %c: tensor<2x4x3xf32>) -> tensor<2x7x3xf32> {
  %0 = "graph.concat"(%a, %b) {dim = 1 : i64} : (tensor<2x2x3xf32>, tensor<2x1x3xf32>) -> tensor<2x3x3xf32>
  %1 = "graph.concat"(%0, %c) {dim = 1 : i64} : (tensor<2x3x3xf32>, tensor<2x4x3xf32>) -> tensor<2x7x3xf32>
  return %1 : tensor<2x7x3xf32>
}
// Concat of two slices of one input, of different sizes.
// NUMPY @concat_slices: np.concatenate([x[0:1], x[1:4]], axis=0)
func.func @concat_slices(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %a = "graph.slice"(%x) {starts = array<i64: 0, 0>, limits = array<i64: 1, 3>, strides = array<i64: 1, 1>} : (tensor<4x3xf32>) -> tensor<1x3xf32>
  %b = "graph.slice"(%x) {starts = array<i64: 1, 0>, limits = array<i64: 4, 3>, strides = array<i64: 1, 1>} : (tensor<4x3xf32>) -> tensor<3x3xf32>
  %0 = "graph.concat"(%a, %b) {dim = 0 : i64} : (tensor<1x3xf32>, tensor<3x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
// Constants: elements, splat, rank 0, ints, bools.
// NUMPY @constants: (x + np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), x * 2.5, np.array(7, dtype=np.int64), np.array([5, -3, 2]), np.array([True, False, True]))
func.func @constants(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<i64>, tensor<3xi32>, tensor<3xi1>) {
  %c = "graph.constant"() {value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %0 = "graph.add"(%x, %c) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %s = "graph.constant"() {value = dense<2.5> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %1 = "graph.mul"(%x, %s) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = "graph.constant"() {value = dense<7> : tensor<i64>} : () -> tensor<i64>
  %3 = "graph.constant"() {value = dense<[5, -3, 2]> : tensor<3xi32>} : () -> tensor<3xi32>
  %4 = "graph.constant"() {value = dense<[true, false, true]> : tensor<3xi1>} : () -> tensor<3xi1>
  return %0, %1, %2, %3, %4 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<i64>, tensor<3xi32>, tensor<3xi1>
}
// 16-bit float constants (elements and splat).
// NUMPY @constants16: (np.array([1.5, -2.0, 65504.0]), np.array([0.5, 0.5]))
func.func @constants16() -> (tensor<3xf16>, tensor<2xbf16>) {
  %0 = "graph.constant"() {value = dense<[1.5, -2.0, 65504.0]> : tensor<3xf16>} : () -> tensor<3xf16>
  %1 = "graph.constant"() {value = dense<0.5> : tensor<2xbf16>} : () -> tensor<2xbf16>
  return %0, %1 : tensor<3xf16>, tensor<2xbf16>
}
// A function result that is an argument, returned twice.
// NUMPY @identity: (x, x)
func.func @identity(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  return %x, %x : tensor<3xf32>, tensor<3xf32>
}
// The sliding windows of a channels-last tensor: [B, S, C] -> [B, O, K, C] with stride
// 2 and dilation 2 (O = (9 - 2 (3 - 1) - 1) / 2 + 1 = 3), and 2-D with unit steps.
// NUMPY @window1d: np.stack([np.stack([x[:, o * 2 + k * 2, :] for k in range(3)], 1) for o in range(3)], 1)
func.func @window1d(%x: tensor<2x9x3xf32>) -> tensor<2x3x3x3xf32> {
  %0 = "graph.window"(%x) {kernel = array<i64: 3>, strides = array<i64: 2>, dilations = array<i64: 2>} : (tensor<2x9x3xf32>) -> tensor<2x3x3x3xf32>
  return %0 : tensor<2x3x3x3xf32>
}
// NUMPY @window2d: np.lib.stride_tricks.sliding_window_view(x, (2, 3), axis=(1, 2)).transpose(0, 1, 2, 4, 5, 3)
func.func @window2d(%x: tensor<1x4x5x2xf32>) -> tensor<1x3x3x2x3x2xf32> {
  %0 = "graph.window"(%x) {kernel = array<i64: 2, 3>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x4x5x2xf32>) -> tensor<1x3x3x2x3x2xf32>
  return %0 : tensor<1x3x3x2x3x2xf32>
}
