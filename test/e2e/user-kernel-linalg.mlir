// A user kernel written in linalg (a linalg.generic on tensors), called with
// func.call between graph ops, with arguments of different types: it parses and
// verifies, graph-to-loops passes the call through unchanged (its body untouched),
// and form-kernels makes the call an `ext` kernel that fuses with nothing.
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-verify --graph-to-loops --inline-unrealized --form-kernels | FileCheck %s
// RUN: not braze run %s --func model 2>&1 | FileCheck %s --check-prefix=REF

// CHECK-LABEL: func.func private @bias_scale(
// CHECK: linalg.generic
// CHECK-NOT: braze.ops
// CHECK: arith.mulf
// CHECK-LABEL: func.func private @cpu_ext_fused_bias_scale_{{[0-9]+}}(
// CHECK-SAME: tensor<6x8xf32>, %{{.*}}: tensor<8xf32>) -> tensor<6x8xf32>
// CHECK-SAME: kernel.kind = "ext"
// CHECK-NEXT: call @bias_scale(
// CHECK-LABEL: func.func @model(
// CHECK-NEXT: %[[E:.*]] = call @cpu_poi_fused_exp_
// CHECK-NEXT: %[[K:.*]] = call @cpu_ext_fused_bias_scale_{{[0-9]+}}(%[[E]], %arg1)
// CHECK-NEXT: call @cpu_poi_fused_neg_{{[0-9]+}}(%[[K]])

// The reference interpreter evaluates only graph-dialect callees: a clear error at the call.
// REF: user-kernel-linalg.mlir:39:8: error: reference: func.call: unsupported: user kernel @bias_scale is not written in the graph dialect ('tensor.empty' at

func.func private @bias_scale(%x: tensor<6x8xf32>, %b: tensor<8xf32>) -> tensor<6x8xf32> {
  %e = tensor.empty() : tensor<6x8xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<6x8xf32>, tensor<8xf32>) outs(%e : tensor<6x8xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    %m = arith.mulf %s, %in : f32
    linalg.yield %m : f32
  } -> tensor<6x8xf32>
  return %0 : tensor<6x8xf32>
}

func.func @model(%x: tensor<6x8xf32>, %b: tensor<8xf32>) -> tensor<6x8xf32> {
  %0 = "graph.exp"(%x) : (tensor<6x8xf32>) -> tensor<6x8xf32>
  %1 = func.call @bias_scale(%0, %b) : (tensor<6x8xf32>, tensor<8xf32>) -> tensor<6x8xf32>
  %2 = "graph.neg"(%1) : (tensor<6x8xf32>) -> tensor<6x8xf32>
  return %2 : tensor<6x8xf32>
}
