// End-to-end numerics of the loop-level lowering: each function is compiled for the
// CPU (default pipeline: graph-to-loops, inline-unrealized, form-kernels, cpu-codegen)
// and compared with the reference interpreter on seeded random inputs. Covers views
// composed into maps (transpose, slice with stride, mixed reshape, broadcast_to),
// integer ops, cmp/select/cast, keepdim reductions, batch broadcasting, f16/bf16
// accumulation in f32, and inlined prologues/epilogues (with inlining off too).
// RUN: braze check %s | FileCheck %s
// RUN: braze check %s --pipeline=cpu-no-inline | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: check passed

func.func @views(%x: tensor<6x8xf32>, %v: tensor<8xf32>, %y: tensor<2x6xf32>) -> (tensor<8x6xf32>, tensor<2x3xf32>, tensor<3x4xf32>, tensor<4x6x8xf32>, tensor<48xf32>) {
  %t = "graph.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<6x8xf32>) -> tensor<8x6xf32>
  %e = "graph.exp"(%t) : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %s = "graph.slice"(%t) {starts = array<i64: 1, 2>, limits = array<i64: 5, 5>, strides = array<i64: 2, 1>} : (tensor<8x6xf32>) -> tensor<2x3xf32>
  %sn = "graph.neg"(%s) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %r = "graph.reshape"(%y) : (tensor<2x6xf32>) -> tensor<3x4xf32>
  %ra = "graph.tanh"(%r) : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %b = "graph.broadcast_to"(%v) : (tensor<8xf32>) -> tensor<4x6x8xf32>
  %bx = "graph.mul"(%b, %x) : (tensor<4x6x8xf32>, tensor<6x8xf32>) -> tensor<4x6x8xf32>
  %f = "graph.reshape"(%x) : (tensor<6x8xf32>) -> tensor<48xf32>
  return %e, %sn, %ra, %bx, %f : tensor<8x6xf32>, tensor<2x3xf32>, tensor<3x4xf32>, tensor<4x6x8xf32>, tensor<48xf32>
}
func.func @ints(%a: tensor<4x8xi32>, %b: tensor<8xi32>, %f: tensor<4x8xf32>) -> (tensor<4x8xi32>, tensor<4xi32>, tensor<1x8xi32>, tensor<4x8xf32>, tensor<4x8xi32>) {
  %0 = "graph.sub"(%a, %b) : (tensor<4x8xi32>, tensor<8xi32>) -> tensor<4x8xi32>
  %1 = "graph.abs"(%0) : (tensor<4x8xi32>) -> tensor<4x8xi32>
  %2 = "graph.max"(%1, %b) : (tensor<4x8xi32>, tensor<8xi32>) -> tensor<4x8xi32>
  %3 = "graph.reduce_sum"(%2) {dims = array<i64: 1>, keepdim = false} : (tensor<4x8xi32>) -> tensor<4xi32>
  %4 = "graph.reduce_min"(%0) {dims = array<i64: 0>, keepdim = true} : (tensor<4x8xi32>) -> tensor<1x8xi32>
  %c = "graph.cmp"(%0, %b) {predicate = "le"} : (tensor<4x8xi32>, tensor<8xi32>) -> tensor<4x8xi1>
  %af = "graph.cast"(%a) : (tensor<4x8xi32>) -> tensor<4x8xf32>
  %5 = "graph.select"(%c, %af, %f) : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %6 = "graph.cast"(%c) : (tensor<4x8xi1>) -> tensor<4x8xi32>
  return %2, %3, %4, %5, %6 : tensor<4x8xi32>, tensor<4xi32>, tensor<1x8xi32>, tensor<4x8xf32>, tensor<4x8xi32>
}
func.func @red(%x: tensor<3x5x7xf32>, %a: tensor<2x1x4x8xf32>, %b: tensor<3x8x5xf32>) -> (tensor<1x5x1xf32>, tensor<f32>, tensor<3x7xf32>, tensor<2x3x4x5xf32>, tensor<3x5x7xf32>) {
  %0 = "graph.reduce_max"(%x) {dims = array<i64: 0, 2>, keepdim = true} : (tensor<3x5x7xf32>) -> tensor<1x5x1xf32>
  %1 = "graph.reduce_mean"(%x) {dims = array<i64: 0, 1, 2>, keepdim = false} : (tensor<3x5x7xf32>) -> tensor<f32>
  %2 = "graph.reduce_min"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<3x5x7xf32>) -> tensor<3x7xf32>
  %3 = "graph.batch_matmul"(%a, %b) : (tensor<2x1x4x8xf32>, tensor<3x8x5xf32>) -> tensor<2x3x4x5xf32>
  %4 = "graph.sub"(%x, %0) : (tensor<3x5x7xf32>, tensor<1x5x1xf32>) -> tensor<3x5x7xf32>
  %5 = "graph.sigmoid"(%4) : (tensor<3x5x7xf32>) -> tensor<3x5x7xf32>
  %6 = "graph.div"(%5, %1) : (tensor<3x5x7xf32>, tensor<f32>) -> tensor<3x5x7xf32>
  return %0, %1, %2, %3, %6 : tensor<1x5x1xf32>, tensor<f32>, tensor<3x7xf32>, tensor<2x3x4x5xf32>, tensor<3x5x7xf32>
}
func.func @f16(%x: tensor<16x512xf16>) -> (tensor<16xf16>, tensor<16xbf16>, tensor<16x512xf16>) {
  %0 = "graph.reduce_sum"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<16x512xf16>) -> tensor<16xf16>
  %b = "graph.cast"(%x) : (tensor<16x512xf16>) -> tensor<16x512xbf16>
  %1 = "graph.reduce_mean"(%b) {dims = array<i64: 1>, keepdim = false} : (tensor<16x512xbf16>) -> tensor<16xbf16>
  %2 = "graph.exp"(%x) : (tensor<16x512xf16>) -> tensor<16x512xf16>
  return %0, %1, %2 : tensor<16xf16>, tensor<16xbf16>, tensor<16x512xf16>
}
func.func @mm(%a: tensor<16x256xf16>, %b: tensor<256x32xf16>) -> tensor<16x32xf16> {
  %0 = "graph.matmul"(%a, %b) : (tensor<16x256xf16>, tensor<256x32xf16>) -> tensor<16x32xf16>
  %1 = "graph.relu"(%0) : (tensor<16x32xf16>) -> tensor<16x32xf16>
  return %1 : tensor<16x32xf16>
}
func.func @norms(%x: tensor<16x64xf32>, %w: tensor<64xf32>, %b: tensor<64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>) {
  %0 = "graph.rms_norm"(%x, %w) {axis = 1 : i64, eps = 1.0e-06 : f32} : (tensor<16x64xf32>, tensor<64xf32>) -> tensor<16x64xf32>
  %1 = "graph.softmax"(%x) {dim = 1 : i64} : (tensor<16x64xf32>) -> tensor<16x64xf32>
  %m = "graph.mul"(%x, %w) : (tensor<16x64xf32>, tensor<64xf32>) -> tensor<16x64xf32>
  %a = "graph.add"(%m, %b) : (tensor<16x64xf32>, tensor<64xf32>) -> tensor<16x64xf32>
  %2 = "graph.gelu"(%a) {approximate = "none"} : (tensor<16x64xf32>) -> tensor<16x64xf32>
  return %0, %1, %2 : tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>
}
