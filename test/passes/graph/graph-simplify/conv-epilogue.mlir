// conv-epilogue: pointwise ops after a conv's product move below the view
// reshape(transpose(y, [0, 1, 3, 2])) that graph-decompose puts after it, so they run
// in the product's space [N, G, P, OCg]: a per-channel bias (viewed [G, 1, OCg]), relu,
// and a residual of the same form (read as its product) or of the result's type
// (viewed through the inverse view). Refused: a reshape of
// another form, an operand that broadcasts along a spatial dim, disable=conv-epilogue.
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-simplify | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-simplify=disable=conv-epilogue | FileCheck %s --check-prefix=OFF

// CHECK-LABEL: func.func @chain
// CHECK-NEXT: %[[B:.*]] = "graph.reshape"(%arg2) : (tensor<8x1x1xf32>) -> tensor<1x1x8xf32>
// CHECK-NEXT: %[[A:.*]] = "graph.add"(%arg0, %[[B]]) : (tensor<2x1x16x8xf32>, tensor<1x1x8xf32>) -> tensor<2x1x16x8xf32>
// CHECK-NEXT: %[[R1:.*]] = "graph.reshape"(%arg1) : (tensor<2x8x4x4xf32>) -> tensor<2x1x8x16xf32>
// CHECK-NEXT: %[[R:.*]] = "graph.transpose"(%[[R1]]) {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x1x8x16xf32>) -> tensor<2x1x16x8xf32>
// CHECK-NEXT: %[[S:.*]] = "graph.add"(%[[A]], %[[R]]) : (tensor<2x1x16x8xf32>, tensor<2x1x16x8xf32>) -> tensor<2x1x16x8xf32>
// CHECK-NEXT: %[[U:.*]] = "graph.relu"(%[[S]]) : (tensor<2x1x16x8xf32>) -> tensor<2x1x16x8xf32>
// CHECK-NEXT: %[[T:.*]] = "graph.transpose"(%[[U]]) {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x1x16x8xf32>) -> tensor<2x1x8x16xf32>
// CHECK-NEXT: %[[Y:.*]] = "graph.reshape"(%[[T]]) : (tensor<2x1x8x16xf32>) -> tensor<2x8x4x4xf32>
// CHECK-NEXT: return %[[Y]]
// OFF-LABEL: func.func @chain
// OFF: "graph.add"({{.*}}) : (tensor<2x8x4x4xf32>, tensor<8x1x1xf32>) -> tensor<2x8x4x4xf32>
func.func @chain(%y: tensor<2x1x16x8xf32>, %res: tensor<2x8x4x4xf32>, %b: tensor<8x1x1xf32>) -> tensor<2x8x4x4xf32> {
  %t = "graph.transpose"(%y) {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x1x16x8xf32>) -> tensor<2x1x8x16xf32>
  %c = "graph.reshape"(%t) : (tensor<2x1x8x16xf32>) -> tensor<2x8x4x4xf32>
  %a = "graph.add"(%c, %b) : (tensor<2x8x4x4xf32>, tensor<8x1x1xf32>) -> tensor<2x8x4x4xf32>
  %s = "graph.add"(%a, %res) : (tensor<2x8x4x4xf32>, tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32>
  %r = "graph.relu"(%s) : (tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32>
  return %r : tensor<2x8x4x4xf32>
}

// Not the conv form (a reshape without the transpose), and a bias that varies along a
// spatial dim: left alone.
// CHECK-LABEL: func.func @refused
// CHECK: "graph.reshape"(%arg0) : (tensor<2x1x8x16xf32>) -> tensor<2x8x4x4xf32>
// CHECK: "graph.add"({{.*}}) : (tensor<2x8x4x4xf32>, tensor<8x1x1xf32>) -> tensor<2x8x4x4xf32>
// CHECK: "graph.add"({{.*}}) : (tensor<2x8x4x4xf32>, tensor<4x1xf32>) -> tensor<2x8x4x4xf32>
func.func @refused(%y: tensor<2x1x8x16xf32>, %b: tensor<8x1x1xf32>, %b2: tensor<4x1xf32>, %z: tensor<2x1x16x8xf32>) -> (tensor<2x8x4x4xf32>, tensor<2x8x4x4xf32>) {
  %c = "graph.reshape"(%y) : (tensor<2x1x8x16xf32>) -> tensor<2x8x4x4xf32>
  %a = "graph.add"(%c, %b) : (tensor<2x8x4x4xf32>, tensor<8x1x1xf32>) -> tensor<2x8x4x4xf32>
  %t = "graph.transpose"(%z) {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x1x16x8xf32>) -> tensor<2x1x8x16xf32>
  %c2 = "graph.reshape"(%t) : (tensor<2x1x8x16xf32>) -> tensor<2x8x4x4xf32>
  %a2 = "graph.add"(%c2, %b2) : (tensor<2x8x4x4xf32>, tensor<4x1xf32>) -> tensor<2x8x4x4xf32>
  return %a, %a2 : tensor<2x8x4x4xf32>, tensor<2x8x4x4xf32>
}
