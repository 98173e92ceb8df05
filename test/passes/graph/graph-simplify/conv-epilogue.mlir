// conv-epilogue: pointwise ops after a conv's product move below the reshape that
// graph-decompose puts after it, so they run in the product's space [N, G, OCg, P]:
// a per-channel bias (viewed [G, OCg, 1]), relu, and a residual of the same form
// (read through its reshape) or of the result's shape (viewed). Refused: a reshape of
// another form, an operand that broadcasts along a spatial dim, disable=conv-epilogue.
// RUN: braze-opt %s --graph-simplify | FileCheck %s
// RUN: braze-opt %s --graph-simplify=disable=conv-epilogue | FileCheck %s --check-prefix=OFF

// CHECK-LABEL: func.func @chain
// CHECK-NEXT: %[[B:.*]] = "graph.reshape"(%arg2) : (tensor<8x1x1xf32>) -> tensor<1x8x1xf32>
// CHECK-NEXT: %[[A:.*]] = "graph.add"(%arg0, %[[B]]) : (tensor<2x1x8x16xf32>, tensor<1x8x1xf32>) -> tensor<2x1x8x16xf32>
// CHECK-NEXT: %[[R:.*]] = "graph.reshape"(%arg1) : (tensor<2x8x4x4xf32>) -> tensor<2x1x8x16xf32>
// CHECK: %[[S:.*]] = "graph.add"(%[[A]], %[[R]]) : (tensor<2x1x8x16xf32>, tensor<2x1x8x16xf32>) -> tensor<2x1x8x16xf32>
// CHECK: %[[U:.*]] = "graph.relu"(%[[S]]) : (tensor<2x1x8x16xf32>) -> tensor<2x1x8x16xf32>
// CHECK: %[[Y:.*]] = "graph.reshape"(%[[U]]) : (tensor<2x1x8x16xf32>) -> tensor<2x8x4x4xf32>
// CHECK: return %[[Y]]
// OFF-LABEL: func.func @chain
// OFF: "graph.reshape"(%arg0) : (tensor<2x1x8x16xf32>) -> tensor<2x8x4x4xf32>
// OFF: "graph.add"({{.*}}) : (tensor<2x8x4x4xf32>, tensor<8x1x1xf32>) -> tensor<2x8x4x4xf32>
func.func @chain(%y: tensor<2x1x8x16xf32>, %res: tensor<2x8x4x4xf32>, %b: tensor<8x1x1xf32>) -> tensor<2x8x4x4xf32> {
  %c = "graph.reshape"(%y) : (tensor<2x1x8x16xf32>) -> tensor<2x8x4x4xf32>
  %a = "graph.add"(%c, %b) : (tensor<2x8x4x4xf32>, tensor<8x1x1xf32>) -> tensor<2x8x4x4xf32>
  %s = "graph.add"(%a, %res) : (tensor<2x8x4x4xf32>, tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32>
  %r = "graph.relu"(%s) : (tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32>
  return %r : tensor<2x8x4x4xf32>
}

// Not the conv form (the reshape does not merge dims 1 and 2), and a bias that
// varies along a spatial dim: left alone.
// CHECK-LABEL: func.func @refused
// CHECK: "graph.reshape"(%arg0) : (tensor<2x8x16xf32>) -> tensor<2x8x4x4xf32>
// CHECK: "graph.add"({{.*}}) : (tensor<2x8x4x4xf32>, tensor<4x1xf32>) -> tensor<2x8x4x4xf32>
// CHECK: "graph.reshape"(%arg2) : (tensor<2x1x8x16xf32>) -> tensor<2x8x4x4xf32>
// CHECK: "graph.add"({{.*}}) : (tensor<2x8x4x4xf32>, tensor<4x1xf32>) -> tensor<2x8x4x4xf32>
func.func @refused(%y: tensor<2x8x16xf32>, %b: tensor<4x1xf32>, %z: tensor<2x1x8x16xf32>) -> (tensor<2x8x4x4xf32>, tensor<2x8x4x4xf32>) {
  %c = "graph.reshape"(%y) : (tensor<2x8x16xf32>) -> tensor<2x8x4x4xf32>
  %a = "graph.add"(%c, %b) : (tensor<2x8x4x4xf32>, tensor<4x1xf32>) -> tensor<2x8x4x4xf32>
  %c2 = "graph.reshape"(%z) : (tensor<2x1x8x16xf32>) -> tensor<2x8x4x4xf32>
  %a2 = "graph.add"(%c2, %b) : (tensor<2x8x4x4xf32>, tensor<4x1xf32>) -> tensor<2x8x4x4xf32>
  return %a, %a2 : tensor<2x8x4x4xf32>, tensor<2x8x4x4xf32>
}
