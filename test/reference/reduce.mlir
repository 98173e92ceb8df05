// Reductions over one, several, non-last and all dims, keepdim, size-1 dims, rank 0 and 5.
// RUN: %python %S/compare.py %s | FileCheck %s
// CHECK: checked 13 functions

// NUMPY @sum_last: np.sum(x, axis=1)
func.func @sum_last(%x: tensor<3x5xf32>) -> tensor<3xf32> {
  %0 = "graph.reduce_sum"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<3x5xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
// NUMPY @sum_first_keep: np.sum(x, axis=0, keepdims=True)
func.func @sum_first_keep(%x: tensor<3x5xf32>) -> tensor<1x5xf32> {
  %0 = "graph.reduce_sum"(%x) {dims = array<i64: 0>, keepdim = true} : (tensor<3x5xf32>) -> tensor<1x5xf32>
  return %0 : tensor<1x5xf32>
}
// Several non-adjacent dims, listed out of order.
// NUMPY @sum_multi: np.sum(x, axis=(0, 2))
func.func @sum_multi(%x: tensor<2x3x4x5xf32>) -> tensor<3x5xf32> {
  %0 = "graph.reduce_sum"(%x) {dims = array<i64: 2, 0>, keepdim = false} : (tensor<2x3x4x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}
// NUMPY @mean_middle_keep: np.mean(x, axis=1, keepdims=True)
func.func @mean_middle_keep(%x: tensor<2x6x3xf32>) -> tensor<2x1x3xf32> {
  %0 = "graph.reduce_mean"(%x) {dims = array<i64: 1>, keepdim = true} : (tensor<2x6x3xf32>) -> tensor<2x1x3xf32>
  return %0 : tensor<2x1x3xf32>
}
// All dims without keepdim gives rank 0.
// NUMPY @max_all: np.max(x)
func.func @max_all(%x: tensor<4x3xf32>) -> tensor<f32> {
  %0 = "graph.reduce_max"(%x) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<4x3xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}
// All dims with keepdim.
// NUMPY @min_all_keep: np.min(x, axis=(0, 1), keepdims=True)
func.func @min_all_keep(%x: tensor<4x3xf32>) -> tensor<1x1xf32> {
  %0 = "graph.reduce_min"(%x) {dims = array<i64: 0, 1>, keepdim = true} : (tensor<4x3xf32>) -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}
// Reducing a size-1 dim.
// NUMPY @max_size1: np.max(x, axis=1)
func.func @max_size1(%x: tensor<4x1x3xf32>) -> tensor<4x3xf32> {
  %0 = "graph.reduce_max"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<4x1x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
// Biased and unbiased variance.
// NUMPY @var0: np.var(x, axis=1)
func.func @var0(%x: tensor<3x7xf32>) -> tensor<3xf32> {
  %0 = "graph.reduce_var"(%x) {dims = array<i64: 1>, keepdim = false, correction = 0 : i64} : (tensor<3x7xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
// NUMPY @var1_multi: np.var(x, axis=(0, 2), ddof=1, keepdims=True)
func.func @var1_multi(%x: tensor<3x2x4xf32>) -> tensor<1x2x1xf32> {
  %0 = "graph.reduce_var"(%x) {dims = array<i64: 0, 2>, keepdim = true, correction = 1 : i64} : (tensor<3x2x4xf32>) -> tensor<1x2x1xf32>
  return %0 : tensor<1x2x1xf32>
}
// Rank 5, reducing dims 1 and 3.
// NUMPY @sum_rank5: np.sum(x, axis=(1, 3))
func.func @sum_rank5(%x: tensor<2x3x2x4x3xf32>) -> tensor<2x2x3xf32> {
  %0 = "graph.reduce_sum"(%x) {dims = array<i64: 1, 3>, keepdim = false} : (tensor<2x3x2x4x3xf32>) -> tensor<2x2x3xf32>
  return %0 : tensor<2x2x3xf32>
}
// Rank 1 to rank 0.
// NUMPY @mean_vec: np.mean(x)
func.func @mean_vec(%x: tensor<9xf32>) -> tensor<f32> {
  %0 = "graph.reduce_mean"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<9xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}
// Integer reductions.
// NUMPY @int_reduce: (np.sum(x, axis=0), np.max(x, axis=1), np.min(x, axis=(0, 1)))
func.func @int_reduce(%x: tensor<4x3xi32>) -> (tensor<3xi32>, tensor<4xi32>, tensor<i32>) {
  %0 = "graph.reduce_sum"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<4x3xi32>) -> tensor<3xi32>
  %1 = "graph.reduce_max"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<4x3xi32>) -> tensor<4xi32>
  %2 = "graph.reduce_min"(%x) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<4x3xi32>) -> tensor<i32>
  return %0, %1, %2 : tensor<3xi32>, tensor<4xi32>, tensor<i32>
}
// A reduction feeding a broadcast (x - mean(x)).
// NUMPY @center: x - np.mean(x, axis=1, keepdims=True)
func.func @center(%x: tensor<3x8xf32>) -> tensor<3x8xf32> {
  %m = "graph.reduce_mean"(%x) {dims = array<i64: 1>, keepdim = true} : (tensor<3x8xf32>) -> tensor<3x1xf32>
  %0 = "graph.sub"(%x, %m) : (tensor<3x8xf32>, tensor<3x1xf32>) -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}
