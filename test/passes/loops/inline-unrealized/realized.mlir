// What is realized and why: reductions, contractions, producers read by a
// contraction, a user kernel call, a concat or the function's return.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --graph-to-loops --inline-unrealized=remarks --verify-diagnostics | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --graph-to-loops --inline-unrealized | mlir-opt --split-input-file --verify-each -o /dev/null

// A matmul's pointwise inputs stay realized (inlining would recompute them per k);
// its pointwise epilogue is not a producer of anything but the return.
// CHECK-LABEL: func.func @matmul_io(
// CHECK: braze.ops = ["exp"]
// CHECK: braze.ops = ["matmul"]
// CHECK: braze.ops = ["relu"]
func.func @matmul_io(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  // expected-remark@+1 {{realized: read by a contraction}}
  %0 = "graph.exp"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // expected-remark@+1 {{realized: contraction}}
  %1 = "graph.matmul"(%0, %b) : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  // expected-remark@+1 {{realized: function result}}
  %2 = "graph.relu"(%1) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %2 : tensor<4x4xf32>
}

// -----

// A reduction is realized; the pointwise op after it is inlined into the next one.
// CHECK-LABEL: func.func @reduction_then_pointwise(
// CHECK: braze.ops = ["reduce_sum"]
// CHECK: braze.ops = ["exp", "neg"]
func.func @reduction_then_pointwise(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-remark@+1 {{realized: reduction}}
  %0 = "graph.reduce_sum"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
  // expected-remark@+1 {{inlined into 1 consumer}}
  %1 = "graph.exp"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  // expected-remark@+1 {{realized: function result}}
  %2 = "graph.neg"(%1) : (tensor<4xf32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// user kernels and concats read real tensors.
// CHECK-LABEL: func.func @calls_and_concat(
// CHECK: %[[E:.*]] = linalg.generic {{.*}}braze.ops = ["exp"]
// CHECK: call @k(%[[E]])
// CHECK: %[[N:.*]] = linalg.generic {{.*}}braze.ops = ["neg"]
// CHECK: tensor.insert_slice %[[N]]
func.func private @k(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func @calls_and_concat(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<8xf32>) {
  // expected-remark@+1 {{realized: read by 'func.call'}}
  %0 = "graph.exp"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = func.call @k(%0) : (tensor<4xf32>) -> tensor<4xf32>
  // expected-remark@+1 {{realized: read by 'tensor.insert_slice'}}
  %2 = "graph.neg"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %3 = "graph.concat"(%2, %x) {dim = 0 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  return %1, %3 : tensor<4xf32>, tensor<8xf32>
}

// -----

// f16 matmul: the contraction (f32 accumulator) is realized; the all-parallel
// generic truncating it to f16 is a pointwise producer and is inlined into relu.
// CHECK-LABEL: func.func @matmul_f16(
// CHECK: %[[MM:.*]] = linalg.generic {{.*}}outs(%{{.*}} : tensor<4x4xf32>) attrs = {braze.ops = ["matmul"]}
// CHECK: linalg.generic {{.*}}ins(%[[MM]] : tensor<4x4xf32>) outs(%{{.*}} : tensor<4x4xf16>) attrs = {braze.ops = ["matmul", "relu"]}
// CHECK: arith.truncf
// CHECK: arith.maximumf
func.func @matmul_f16(%a: tensor<4x8xf16>, %b: tensor<8x4xf16>) -> tensor<4x4xf16> {
  // expected-remark@+2 {{realized: contraction}}
  // expected-remark@+1 {{inlined into 1 consumer}}
  %0 = "graph.matmul"(%a, %b) : (tensor<4x8xf16>, tensor<8x4xf16>) -> tensor<4x4xf16>
  // expected-remark@+1 {{realized: function result}}
  %1 = "graph.relu"(%0) : (tensor<4x4xf16>) -> tensor<4x4xf16>
  return %1 : tensor<4x4xf16>
}
