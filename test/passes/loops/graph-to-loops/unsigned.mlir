// Unsigned tensors (decision 0010): graph-to-loops stores them signless (signature,
// block arguments, results, constants keep their bits: 250 prints as -6) and picks
// the unsigned arith ops from the graph-level types: divui, cmpi ult, maxui, extui,
// uitofp, fptoui; abs is the identity; reduce_min starts from all ones (-1) and
// combines with minui. add/sub/mul are sign-agnostic.
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-to-loops | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-to-loops | mlir-opt --verify-each -o /dev/null

// CHECK-LABEL: func.func @unsigned(
// CHECK-SAME: %[[A:.*]]: tensor<4xi8>, %{{.*}}: tensor<4xi8>, %{{.*}}: tensor<4xf32>, %{{.*}}: tensor<4x8xi32>)
// CHECK-SAME: -> (tensor<4xi8>, tensor<4xi1>, tensor<4xi8>, tensor<4xi8>, tensor<4xf32>, tensor<4xi8>, tensor<4xi64>, tensor<4xi32>, tensor<4xi8>)
// CHECK: arith.constant dense<[-6, 1, 2, 3]> : tensor<4xi8>
// CHECK: arith.divui %{{.*}} : i8
// CHECK: arith.cmpi ult, %{{.*}} : i8
// CHECK: arith.maxui %{{.*}} : i8
// CHECK: braze.ops = ["abs"]
// CHECK-NEXT: ^bb0(%[[IN:.*]]: i8, %{{.*}}: i8):
// CHECK-NEXT: linalg.yield %[[IN]] : i8
// CHECK: arith.uitofp %{{.*}} : i8 to f32
// CHECK: arith.fptoui %{{.*}} : f32 to i8
// CHECK: arith.extui %{{.*}} : i8 to i64
// CHECK: %[[ONES:.*]] = arith.constant -1 : i32
// CHECK: linalg.fill ins(%[[ONES]] : i32)
// CHECK: arith.minui %{{.*}} : i32
// CHECK: arith.constant -56 : i8
// CHECK-NEXT: arith.addi %{{.*}} : i8
// CHECK-NOT: ui8
// CHECK-NOT: ui32

func.func @unsigned(%a: tensor<4xui8>, %b: tensor<4xui8>, %f: tensor<4xf32>, %w: tensor<4x8xui32>)
    -> (tensor<4xui8>, tensor<4xi1>, tensor<4xui8>, tensor<4xui8>, tensor<4xf32>, tensor<4xui8>, tensor<4xi64>, tensor<4xui32>, tensor<4xui8>) {
  %c = "graph.constant"() {value = dense<[250, 1, 2, 3]> : tensor<4xui8>} : () -> tensor<4xui8>
  %0 = "graph.div"(%a, %c) : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %1 = "graph.cmp"(%a, %b) {predicate = "lt"} : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  %2 = "graph.max"(%a, %b) : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %3 = "graph.abs"(%a) : (tensor<4xui8>) -> tensor<4xui8>
  %4 = "graph.cast"(%a) : (tensor<4xui8>) -> tensor<4xf32>
  %5 = "graph.cast"(%f) : (tensor<4xf32>) -> tensor<4xui8>
  %6 = "graph.cast"(%a) : (tensor<4xui8>) -> tensor<4xi64>
  %7 = "graph.reduce_min"(%w) {dims = array<i64: 1>, keepdim = false} : (tensor<4x8xui32>) -> tensor<4xui32>
  %s = "graph.constant"() {value = dense<200> : tensor<ui8>} : () -> tensor<ui8>
  %8 = "graph.add"(%a, %s) : (tensor<4xui8>, tensor<ui8>) -> tensor<4xui8>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<4xui8>, tensor<4xi1>, tensor<4xui8>, tensor<4xui8>, tensor<4xf32>, tensor<4xui8>, tensor<4xi64>, tensor<4xui32>, tensor<4xui8>
}
