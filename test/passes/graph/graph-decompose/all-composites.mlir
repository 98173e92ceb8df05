// After graph-decompose no composite op is left, except the ones named in keep=.
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose | FileCheck %s --check-prefix=ALL \
// RUN:   --implicit-check-not='"graph.softmax"' --implicit-check-not='"graph.log_softmax"' \
// RUN:   --implicit-check-not='"graph.layer_norm"' --implicit-check-not='"graph.rms_norm"' \
// RUN:   --implicit-check-not='"graph.batch_norm"' --implicit-check-not='"graph.gelu"' \
// RUN:   --implicit-check-not='"graph.silu"' --implicit-check-not='"graph.linear"' \
// RUN:   --implicit-check-not='"graph.reduce_var"'
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose{keep=softmax,layer_norm})' \
// RUN:   | FileCheck %s --check-prefix=KEEP \
// RUN:   --implicit-check-not='"graph.log_softmax"' --implicit-check-not='"graph.rms_norm"' \
// RUN:   --implicit-check-not='"graph.batch_norm"' --implicit-check-not='"graph.gelu"' \
// RUN:   --implicit-check-not='"graph.silu"' --implicit-check-not='"graph.linear"' \
// RUN:   --implicit-check-not='"graph.reduce_var"'
// The driver-flag spelling of the same options.
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose=keep=softmax,layer_norm | FileCheck %s --check-prefix=KEEP \
// RUN:   --implicit-check-not='"graph.gelu"'

// ALL-LABEL: func.func @all
// ALL: "graph.reduce_max"
// ALL: "graph.reduce_mean"
// ALL: "graph.rsqrt"
// ALL: "graph.matmul"
// ALL: "graph.erf"
// ALL: "graph.tanh"
// ALL: "graph.sigmoid"
// ALL: return

// KEEP-LABEL: func.func @all
// KEEP: "graph.softmax"(%arg0) {dim = 1 : i64}
// KEEP: "graph.reduce_max"
// KEEP: "graph.layer_norm"(%arg0, %arg1, %arg1) {axis = 1 : i64, eps = 9.99999974E-6 : f32}
// KEEP: return
func.func @all(%x: tensor<4x8xf32>, %w8: tensor<8xf32>, %w: tensor<8x8xf32>, %x4: tensor<2x4x3x3xf32>, %c4: tensor<4xf32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<2x4x3x3xf32>,
        tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>) {
  %0 = "graph.softmax"(%x) {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = "graph.log_softmax"(%x) {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = "graph.layer_norm"(%x, %w8, %w8) {axis = 1 : i64, eps = 1.0e-05 : f32} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %3 = "graph.rms_norm"(%x, %w8) {axis = 1 : i64, eps = 1.0e-05 : f32} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %4 = "graph.batch_norm"(%x4, %c4, %c4, %c4, %c4) {eps = 1.0e-05 : f32} : (tensor<2x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x3x3xf32>
  %5 = "graph.linear"(%x, %w, %w8) : (tensor<4x8xf32>, tensor<8x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %6 = "graph.gelu"(%x) {approximate = "none"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %7 = "graph.gelu"(%x) {approximate = "tanh"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %8 = "graph.silu"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %9 = "graph.reduce_var"(%x) {dims = array<i64: 1>, keepdim = false, correction = 1 : i64} : (tensor<4x8xf32>) -> tensor<4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<2x4x3x3xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>
}

// A composite whose result is unused is erased, not expanded.
// ALL-LABEL: func.func @dead
// ALL-NEXT: return %arg0
func.func @dead(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = "graph.softmax"(%x) {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %x : tensor<4x8xf32>
}
