// graph-decompose{conv-winograd=N} (decision 0025): a 2-D f32 3x3 conv with unit strides
// and dilations, one group, a constant weight and at least N channels in and out becomes
// Winograd F(2x2, 3x3): the zero-padded channels-last input (padded up to whole 2x2
// tiles: 4x4 -> 6x6 here) viewed as the 4x4 patches of its tiles by a window {4x4,
// strides 2x2}, the input transform B^T d B as two matrices applied along the patch
// dims (term slots: gathers at constant indices, a sign constant where the signs of a
// slot differ), the 16 products [T, C] x [C, K] as one batch_matmul with U = G g G^T
// computed at compile time, and the output transform A^T M A with M viewed as
// [N, TH, 4, TW, 4, K] so that its result is the tiles' 2x2 blocks in place.
// A weight of ones gives U[xi 4 + nu] = r[xi] r[nu], r = G's row sums (1, 1.5, 0.5, 1).
// Every conv the rule leaves is the implicit GEMM, with a remark saying why; off (0)
// by default; a negative N is an error.
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose=conv-winograd=1 | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(func.func(graph-decompose{conv-winograd=4 remarks}))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose | FileCheck %s --check-prefix=OFF
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(func.func(graph-decompose{conv-winograd=4 conv-winograd-tile=4}))' | FileCheck %s --check-prefix=TILE4
// RUN: not braze-opt --cpu=x86-64-v4 %s --graph-decompose=conv-winograd=-1 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(func.func(graph-decompose{conv-winograd=4 conv-winograd-tile=3}))' 2>&1 | FileCheck %s --check-prefix=BAD-TILE
// BAD: graph-decompose: conv-winograd must be 0 (off) or a channel count, got -1
// BAD-TILE: graph-decompose: conv-winograd-tile must be 2 or 4, got 3
// OFF-NOT: graph.batch_matmul{{.*}}tensor<16x

// CHECK-LABEL: func.func @tiny
// CHECK: %[[XP:.*]] = "graph.reshape"(%{{.*}}) : (tensor<1x36x1xf32>) -> tensor<1x6x6x1xf32>
// CHECK-NEXT: %[[WIN:.*]] = "graph.window"(%[[XP]]) {dilations = array<i64: 1, 1>, kernel = array<i64: 4, 4>, strides = array<i64: 2, 2>} : (tensor<1x6x6x1xf32>) -> tensor<1x2x2x4x4x1xf32>
// CHECK-NEXT: %[[D:.*]] = "graph.transpose"(%[[WIN]]) {perm = array<i64: 3, 4, 0, 1, 2, 5>} : (tensor<1x2x2x4x4x1xf32>) -> tensor<4x4x1x2x2x1xf32>
// B^T along i: rows (d0 - d2, d1 + d2, d2 - d1, d1 - d3): the +1 terms, then the others times their signs
// CHECK-NEXT: %[[I0:.*]] = "graph.constant"() {value = dense<[0, 1, 2, 1]> : tensor<4xi32>}
// CHECK-NEXT: %[[P0:.*]] = "graph.gather"(%[[D]], %[[I0]]) {axis = 0 : i64}
// CHECK-NEXT: %[[I1:.*]] = "graph.constant"() {value = dense<[2, 2, 1, 3]> : tensor<4xi32>}
// CHECK-NEXT: %[[P1:.*]] = "graph.gather"(%[[D]], %[[I1]]) {axis = 0 : i64}
// CHECK-NEXT: %[[S:.*]] = "graph.constant"() {value = dense<{{.*}}-1.000000e+00{{.*}}1.000000e+00{{.*}}-1.000000e+00{{.*}}-1.000000e+00{{.*}}> : tensor<4x1x1x1x1x1xf32>}
// CHECK-NEXT: %[[T:.*]] = "graph.mul"(%[[P1]], %[[S]])
// CHECK-NEXT: %[[E:.*]] = "graph.add"(%[[P0]], %[[T]]) : (tensor<4x4x1x2x2x1xf32>, tensor<4x4x1x2x2x1xf32>) -> tensor<4x4x1x2x2x1xf32>
// then along j
// CHECK: "graph.gather"(%[[E]], %{{.*}}) {axis = 1 : i64}
// CHECK: %[[V6:.*]] = "graph.add"
// CHECK-NEXT: %[[V:.*]] = "graph.reshape"(%[[V6]]) : (tensor<4x4x1x2x2x1xf32>) -> tensor<16x4x1xf32>
// CHECK-NEXT: %[[U:.*]] = "graph.constant"() {value = dense<{{.}}{{.}}[1.000000e+00]], {{.}}[1.500000e+00]], {{.}}[5.000000e-01]], {{.}}[1.000000e+00]], {{.}}[1.500000e+00]], {{.}}[2.250000e+00]], {{.}}[7.500000e-01]], {{.}}[1.500000e+00]], {{.}}[5.000000e-01]], {{.}}[7.500000e-01]], {{.}}[2.500000e-01]], {{.}}[5.000000e-01]], {{.}}[1.000000e+00]], {{.}}[1.500000e+00]], {{.}}[5.000000e-01]], {{.}}[1.000000e+00]]]> : tensor<16x1x1xf32>}
// CHECK-NEXT: %[[M:.*]] = "graph.batch_matmul"(%[[V]], %[[U]]) : (tensor<16x4x1xf32>, tensor<16x1x1xf32>) -> tensor<16x4x1xf32>
// CHECK-NEXT: %[[M6:.*]] = "graph.reshape"(%[[M]]) : (tensor<16x4x1xf32>) -> tensor<4x4x1x2x2x1xf32>
// CHECK-NEXT: %[[MV:.*]] = "graph.transpose"(%[[M6]]) {perm = array<i64: 2, 3, 0, 4, 1, 5>} : (tensor<4x4x1x2x2x1xf32>) -> tensor<1x2x4x2x4x1xf32>
// A^T M A in one sum: A^T's rows (m0 + m1 + m2, m1 - m2 - m3) have three slots, so nine
// terms, each a gather along xi then along nu, times the product of the two slots' signs
// CHECK-NEXT: "graph.constant"() {value = dense<[0, 1]> : tensor<2xi32>}
// CHECK-NEXT: %[[G0:.*]] = "graph.gather"(%[[MV]], %{{.*}}) {axis = 2 : i64} : (tensor<1x2x4x2x4x1xf32>, tensor<2xi32>) -> tensor<1x2x2x2x4x1xf32>
// CHECK-NEXT: "graph.constant"() {value = dense<[0, 1]> : tensor<2xi32>}
// CHECK-NEXT: "graph.gather"(%[[G0]], %{{.*}}) {axis = 4 : i64} : (tensor<1x2x2x2x4x1xf32>, tensor<2xi32>) -> tensor<1x2x2x2x2x1xf32>
// CHECK-NEXT: "graph.constant"() {value = dense<[1, 2]> : tensor<2xi32>}
// CHECK-NEXT: "graph.gather"(%[[G0]], %{{.*}}) {axis = 4 : i64}
// CHECK-NEXT: "graph.constant"() {value = dense<{{.*}}1.000000e+00{{.*}}-1.000000e+00{{.*}}1.000000e+00{{.*}}-1.000000e+00{{.*}}> : tensor<1x1x2x1x2x1xf32>}
// CHECK-COUNT-8: "graph.add"{{.*}} -> tensor<1x2x2x2x2x1xf32>
// CHECK: %[[Y:.*]] = "graph.reshape"(%{{.*}}) : (tensor<1x2x2x2x2x1xf32>) -> tensor<1x4x4x1xf32>
// CHECK-NEXT: %[[R:.*]] = "graph.transpose"(%[[Y]]) {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x4x4x1xf32>) -> tensor<1x1x4x4xf32>
// CHECK-NEXT: return %[[R]]
// REMARK: conv-winograd.mlir:[[@LINE+3]]:{{.*}} remark: graph-decompose: conv not Winograd: 1 channels in or out, fewer than conv-winograd=4
func.func @tiny(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {
  %w = "graph.constant"() {value = dense<1.0> : tensor<1x1x3x3xf32>} : () -> tensor<1x1x3x3xf32>
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x4x4xf32>
  return %y : tensor<1x1x4x4xf32>
}

// An odd result (5x3, no padding) is computed on whole tiles (3x2 of them: the input
// padded at the end to 8x6) and cropped.
// conv-winograd-tile=4: F(4x4, 3x3), 6x6 patches at strides of 4 (2x1 tiles of the 5x3
// result: the input padded to 10x6), 36 products, B^T's rows up to 4 nonzeros (the
// first slot the 1s, the others with their coefficients).
// TILE4-LABEL: func.func @odd_cropped
// TILE4: "graph.window"{{.*}}kernel = array<i64: 6, 6>, strides = array<i64: 4, 4>} : (tensor<2x10x6x4xf32>) -> tensor<2x2x1x6x6x4xf32>
// TILE4: "graph.constant"() {value = dense<[4, 3, 4, 4, 4, 5]> : tensor<6xi32>}
// TILE4: "graph.batch_matmul"{{.*}} : (tensor<36x4x4xf32>, tensor<36x4x6xf32>) -> tensor<36x4x6xf32>
// TILE4: "graph.reshape"{{.*}} : (tensor<2x2x4x1x4x6xf32>) -> tensor<2x8x4x6xf32>
// TILE4: "graph.slice"{{.*}}limits = array<i64: 2, 5, 3, 6>
// CHECK-LABEL: func.func @odd_cropped
// CHECK: "graph.window"{{.*}} : (tensor<2x8x6x4xf32>) -> tensor<2x3x2x4x4x4xf32>
// CHECK: "graph.batch_matmul"{{.*}} : (tensor<16x12x4xf32>, tensor<16x4x6xf32>) -> tensor<16x12x6xf32>
// CHECK: %[[Y:.*]] = "graph.reshape"{{.*}} : (tensor<2x3x2x2x2x6xf32>) -> tensor<2x6x4x6xf32>
// CHECK-NEXT: %[[C:.*]] = "graph.slice"(%[[Y]]) {limits = array<i64: 2, 5, 3, 6>, starts = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}
// CHECK-NEXT: "graph.transpose"(%[[C]]) {perm = array<i64: 0, 3, 1, 2>} : (tensor<2x5x3x6xf32>) -> tensor<2x6x5x3xf32>
// REMARK: conv-winograd.mlir:[[@LINE+3]]:{{.*}} remark: graph-decompose: conv as Winograd F(2x2, 3x3) (conv-winograd=4): 16 products, the weight transformed at compile time
func.func @odd_cropped(%x: tensor<2x4x7x5xf32>) -> tensor<2x6x5x3xf32> {
  %w = "graph.constant"() {value = dense<0.5> : tensor<6x4x3x3xf32>} : () -> tensor<6x4x3x3xf32>
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x4x7x5xf32>, tensor<6x4x3x3xf32>) -> tensor<2x6x5x3xf32>
  return %y : tensor<2x6x5x3xf32>
}

// What the rule refuses: each conv below is the implicit GEMM (a window, no 4x4 one);
// the driver visits them last to first.
// CHECK-LABEL: func.func @refused
// CHECK-NOT: kernel = array<i64: 4, 4>
// CHECK: return
func.func @refused(%x: tensor<1x4x8x8xf32>, %wr: tensor<4x4x3x3xf32>, %h: tensor<1x4x8x8xbf16>, %x1: tensor<1x4x8xf32>) -> (tensor<1x4x4x4xf32>, tensor<1x4x6x6xf32>, tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>, tensor<1x4x8x8xbf16>, tensor<1x4x8xf32>) {
  %w = "graph.constant"() {value = dense<0.5> : tensor<4x4x3x3xf32>} : () -> tensor<4x4x3x3xf32>
  %w1 = "graph.constant"() {value = dense<0.5> : tensor<4x4x1x1xf32>} : () -> tensor<4x4x1x1xf32>
  %wg = "graph.constant"() {value = dense<0.5> : tensor<4x2x3x3xf32>} : () -> tensor<4x2x3x3xf32>
  %wh = "graph.constant"() {value = dense<0.5> : tensor<4x4x3x3xbf16>} : () -> tensor<4x4x3x3xbf16>
  %w3 = "graph.constant"() {value = dense<0.5> : tensor<4x4x3xf32>} : () -> tensor<4x4x3xf32>
  // REMARK-DAG: conv-winograd.mlir:[[@LINE+1]]:{{.*}} remark: graph-decompose: conv not Winograd: strides or dilations other than 1
  %s = "graph.conv"(%x, %w) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x4x4xf32>
  // REMARK-DAG: conv-winograd.mlir:[[@LINE+1]]:{{.*}} remark: graph-decompose: conv not Winograd: strides or dilations other than 1
  %d = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 2, 2>, groups = 1 : i64} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32>
  // REMARK-DAG: conv-winograd.mlir:[[@LINE+1]]:{{.*}} remark: graph-decompose: conv not Winograd: a 1x1 kernel (takes 3x3)
  %p = "graph.conv"(%x, %w1) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x8x8xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x8x8xf32>
  // REMARK-DAG: conv-winograd.mlir:[[@LINE+1]]:{{.*}} remark: graph-decompose: conv not Winograd: 2 groups (takes 1)
  %g = "graph.conv"(%x, %wg) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x8x8xf32>
  // REMARK-DAG: conv-winograd.mlir:[[@LINE+1]]:{{.*}} remark: graph-decompose: conv not Winograd: the weight is not a constant (U = G g G^T is computed at compile time)
  %r = "graph.conv"(%x, %wr) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  // REMARK-DAG: conv-winograd.mlir:[[@LINE+1]]:{{.*}} remark: graph-decompose: conv not Winograd: not f32 (the transforms' rounding is for f32)
  %b = "graph.conv"(%h, %wh) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x8x8xbf16>, tensor<4x4x3x3xbf16>) -> tensor<1x4x8x8xbf16>
  // REMARK-DAG: conv-winograd.mlir:[[@LINE+1]]:{{.*}} remark: graph-decompose: conv not Winograd: 1 spatial dims (Winograd F(2x2, 3x3) takes 2)
  %o = "graph.conv"(%x1, %w3) {strides = array<i64: 1>, pads = array<i64: 1, 1>, dilations = array<i64: 1>, groups = 1 : i64} : (tensor<1x4x8xf32>, tensor<4x4x3xf32>) -> tensor<1x4x8xf32>
  return %s, %d, %p, %g, %r, %b, %o : tensor<1x4x4x4xf32>, tensor<1x4x6x6xf32>, tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>, tensor<1x4x8x8xbf16>, tensor<1x4x8xf32>
}

// No padding and an even result, but 8194 x 8194 positions: Winograd's channels-last
// copy (made even without padding) would need a position table past 2^26 entries, so
// the rule refuses; the implicit GEMM reads that input through a view, no table.
// CHECK-LABEL: func.func @huge_unpadded
// CHECK-NOT: kernel = array<i64: 4, 4>
// CHECK: return
func.func @huge_unpadded(%x: tensor<1x4x8194x8194xf32>) -> tensor<1x4x8192x8192xf32> {
  %w = "graph.constant"() {value = dense<0.5> : tensor<4x4x3x3xf32>} : () -> tensor<4x4x3x3xf32>
  // REMARK: conv-winograd.mlir:[[@LINE+1]]:{{.*}} remark: graph-decompose: conv not Winograd: the padding position table (more than 67108864 entries) is above the limit
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x8194x8194xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8192x8192xf32>
  return %y : tensor<1x4x8192x8192xf32>
}
