// Ops of unknown dialects are refused unless --allow-unregistered-dialect.
// RUN: not braze-opt --cpu=x86-64-v4 %s 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: braze-opt --cpu=x86-64-v4 %s --allow-unregistered-dialect | braze-opt --cpu=x86-64-v4 --allow-unregistered-dialect | FileCheck %s

// REFUSED: unregistered.mlir:[[# @LINE + 5]]:22: error: operation being parsed with an unregistered dialect
// CHECK-LABEL: func.func @f
// CHECK: %[[T:.*]] = "mydialect.op"(%arg0) {note = "kept"} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: "graph.exp"(%[[T]])
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mydialect.op"(%a) {note = "kept"} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "graph.exp"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
