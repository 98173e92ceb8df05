// A contraction whose batch dims are 1 ([1, 1, M, N]: a conv's product with one image
// and one group) takes its pointwise consumer as its epilogue: a unit loop counts as
// index 0 on both sides of the edge (it used to be refused as indexing-mismatch).
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-to-loops --inline-unrealized --form-kernels=report 2>&1 -o /dev/null | FileCheck %s
// CHECK: #0 -> #1 (batch_matmul -> relu) reduction-epilogue score={{[0-9]+}} fused
// CHECK: cpu_tem_fused_batch_matmul_relu_0 tem nodes=#0,#1
func.func @f(%a: tensor<4x36xf32>, %b: tensor<1x1x36x36xf32>) -> tensor<1x1x4x36xf32> {
  %c = "graph.batch_matmul"(%a, %b) : (tensor<4x36xf32>, tensor<1x1x36x36xf32>) -> tensor<1x1x4x36xf32>
  %r = "graph.relu"(%c) : (tensor<1x1x4x36xf32>) -> tensor<1x1x4x36xf32>
  return %r : tensor<1x1x4x36xf32>
}
