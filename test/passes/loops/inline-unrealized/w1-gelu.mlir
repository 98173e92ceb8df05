// W1: gelu(x * s + b). After graph-decompose the gelu is mul/erf/add/mul/mul; after
// inlining the whole chain is ONE linalg.generic reading x, s and b.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --graph-to-loops --inline-unrealized | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --graph-to-loops --inline-unrealized | mlir-opt --split-input-file --verify-each -o /dev/null
// The composite form through graph-decompose gives one generic too.
// RUN: braze-opt --cpu=x86-64-v4 %S/Inputs/w1-composite.mlir --graph-decompose --graph-to-loops --inline-unrealized | FileCheck %s --check-prefix=COMPOSITE

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @W1(
// CHECK-SAME: %[[X:.*]]: tensor<64x32xf32>, %[[S:.*]]: tensor<32xf32>, %[[B:.*]]: tensor<32xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<64x32xf32>
// CHECK-NEXT: %[[Y:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%[[X]], %[[S]], %[[B]] : tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>) outs(%[[E]] : tensor<64x32xf32>)
// CHECK-SAME: braze.ops = ["mul", "add", "mul", "erf", "add", "mul", "add", "mul", "mul"]
// CHECK-NEXT: ^bb0(%[[VX:.*]]: f32, %[[VS:.*]]: f32, %[[VB:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[VX]], %[[VS]] : f32
// CHECK-NEXT: %[[A:.*]] = arith.addf %[[M]], %[[VB]] : f32
// CHECK-NEXT: %[[R2:.*]] = arith.constant 0.707106769 : f32
// CHECK-NEXT: %[[T:.*]] = arith.mulf %[[A]], %[[R2]] : f32
// CHECK-NEXT: %[[ERF:.*]] = math.erf %[[T]] : f32
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[P:.*]] = arith.addf %[[ERF]], %[[ONE]] : f32
// The add is read twice (x and x/sqrt(2)): it is recomputed in each place.
// CHECK-NEXT: %[[M2:.*]] = arith.mulf %[[VX]], %[[VS]] : f32
// CHECK-NEXT: %[[A2:.*]] = arith.addf %[[M2]], %[[VB]] : f32
// CHECK-NEXT: %[[Q:.*]] = arith.mulf %[[A2]], %[[P]] : f32
// CHECK-NEXT: %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %[[R:.*]] = arith.mulf %[[Q]], %[[HALF]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
// CHECK-NEXT: } -> tensor<64x32xf32>
// CHECK-NEXT: return %[[Y]]
// CHECK-NOT: linalg.generic
// COMPOSITE-COUNT-1: linalg.generic
// COMPOSITE-NOT: linalg.generic
// COMPOSITE: math.erf
// COMPOSITE: return
func.func @W1(%x: tensor<64x32xf32>, %s: tensor<32xf32>, %b: tensor<32xf32>) -> tensor<64x32xf32> {
  %0 = "graph.mul"(%x, %s) : (tensor<64x32xf32>, tensor<32xf32>) -> tensor<64x32xf32>
  %1 = "graph.add"(%0, %b) : (tensor<64x32xf32>, tensor<32xf32>) -> tensor<64x32xf32>
  // gelu(y) = y * (1 + erf(y * 1/sqrt(2))) * 0.5, as graph-decompose writes it
  %r2 = "graph.constant"() {value = dense<0.707106769> : tensor<f32>} : () -> tensor<f32>
  %2 = "graph.mul"(%1, %r2) : (tensor<64x32xf32>, tensor<f32>) -> tensor<64x32xf32>
  %3 = "graph.erf"(%2) : (tensor<64x32xf32>) -> tensor<64x32xf32>
  %one = "graph.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %4 = "graph.add"(%3, %one) : (tensor<64x32xf32>, tensor<f32>) -> tensor<64x32xf32>
  %5 = "graph.mul"(%1, %4) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
  %half = "graph.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %6 = "graph.mul"(%5, %half) : (tensor<64x32xf32>, tensor<f32>) -> tensor<64x32xf32>
  return %6 : tensor<64x32xf32>
}
