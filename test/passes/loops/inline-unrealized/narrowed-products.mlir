// Two bf16 products summed (a residual add of two convs' products: ResNet's downsampling
// block): each product's f32 accumulator is narrowed by its own cast generic (and bias
// add). Only one product can take the sum as its kernel's epilogue, so the first one's
// narrowing (cast, bias) is realized, to become its own contraction's epilogue: the
// other kernel then reads a bf16 tensor, not an f32 accumulator. The second one's
// narrowing is inlined into the sum as before. Two products of one A (a gate/up pair,
// which form-kernels puts in one kernel) and f32 products are left as they were.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --graph-to-loops --inline-unrealized=remarks 2>&1 | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --graph-to-loops --inline-unrealized | mlir-opt --split-input-file --verify-each -o /dev/null

// CHECK: narrowed-products.mlir:[[@LINE+7]]:9: remark: realized: its contraction's epilogue: the consumer reads another contraction's
// CHECK-NOT: realized: its contraction's epilogue
// CHECK-LABEL: func.func @residual(
// CHECK: %[[PB:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %arg4 : tensor<16x8xf32>, tensor<8xbf16>) outs(%{{.*}} : tensor<16x8xbf16>)
// CHECK: linalg.generic {{.*}} ins(%[[PB]], %{{.*}} : tensor<16x8xbf16>, tensor<16x8xf32>) outs(%{{.*}} : tensor<16x8xbf16>)
func.func @residual(%a: tensor<16x32xbf16>, %w: tensor<32x8xbf16>, %c: tensor<16x64xbf16>, %v: tensor<64x8xbf16>, %b: tensor<8xbf16>) -> tensor<16x8xbf16> {
  %p = "graph.matmul"(%a, %w) : (tensor<16x32xbf16>, tensor<32x8xbf16>) -> tensor<16x8xbf16>
  %pb = "graph.add"(%p, %b) : (tensor<16x8xbf16>, tensor<8xbf16>) -> tensor<16x8xbf16>
  %q = "graph.matmul"(%c, %v) : (tensor<16x64xbf16>, tensor<64x8xbf16>) -> tensor<16x8xbf16>
  %s = "graph.add"(%pb, %q) : (tensor<16x8xbf16>, tensor<16x8xbf16>) -> tensor<16x8xbf16>
  %r = "graph.relu"(%s) : (tensor<16x8xbf16>) -> tensor<16x8xbf16>
  return %r : tensor<16x8xbf16>
}

// -----

// One A: both casts inlined into the product of the two (the pair's epilogue).
// CHECK-LABEL: func.func @same_a(
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<16x8xf32>, tensor<16x8xf32>) outs(%{{.*}} : tensor<16x8xbf16>)
func.func @same_a(%a: tensor<16x32xbf16>, %w: tensor<32x8xbf16>, %v: tensor<32x8xbf16>) -> tensor<16x8xbf16> {
  %p = "graph.matmul"(%a, %w) : (tensor<16x32xbf16>, tensor<32x8xbf16>) -> tensor<16x8xbf16>
  %q = "graph.matmul"(%a, %v) : (tensor<16x32xbf16>, tensor<32x8xbf16>) -> tensor<16x8xbf16>
  %s = "graph.mul"(%p, %q) : (tensor<16x8xbf16>, tensor<16x8xbf16>) -> tensor<16x8xbf16>
  return %s : tensor<16x8xbf16>
}

// -----

// f32: no cast to realize (the products are the contractions' own results).
// CHECK-LABEL: func.func @f32(
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %arg4, %{{.*}} : tensor<16x8xf32>, tensor<8xf32>, tensor<16x8xf32>)
func.func @f32(%a: tensor<16x32xf32>, %w: tensor<32x8xf32>, %c: tensor<16x64xf32>, %v: tensor<64x8xf32>, %b: tensor<8xf32>) -> tensor<16x8xf32> {
  %p = "graph.matmul"(%a, %w) : (tensor<16x32xf32>, tensor<32x8xf32>) -> tensor<16x8xf32>
  %pb = "graph.add"(%p, %b) : (tensor<16x8xf32>, tensor<8xf32>) -> tensor<16x8xf32>
  %q = "graph.matmul"(%c, %v) : (tensor<16x64xf32>, tensor<64x8xf32>) -> tensor<16x8xf32>
  %s = "graph.add"(%pb, %q) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  return %s : tensor<16x8xf32>
}
