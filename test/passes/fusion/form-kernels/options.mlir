// The switches of form-kernels on one graph: a row sum, a pointwise sibling that
// shares its input (horizontal), and an epilogue that divides by the sum.
// RUN: braze-opt --cpu=x86-64-v4 %s --form-kernels=report 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: braze-opt --cpu=x86-64-v4 %s '--form-kernels=no-horizontal report' 2>&1 | FileCheck %s --check-prefix=NOHOR
// RUN: braze-opt --cpu=x86-64-v4 %s '--form-kernels=no-epilogue report' 2>&1 | FileCheck %s --check-prefix=NOEPI
// RUN: braze-opt --cpu=x86-64-v4 %s '--form-kernels=disable report' 2>&1 | FileCheck %s --check-prefix=DISABLE
// RUN: braze-opt --cpu=x86-64-v4 %s '--pass-pipeline=builtin.module(form-kernels{max-ops=1 report})' 2>&1 | FileCheck %s --check-prefix=MAXOPS
// RUN: braze-opt --cpu=x86-64-v4 %s --form-kernels=target=cuda | FileCheck %s --check-prefix=CUDA

// DEFAULT: #0 ~ #1 (reduce_sum ~ neg) horizontal score=128 fused step=2
// DEFAULT: #0 -> #2 (reduce_sum -> div) reduction-epilogue score=144 fused step=1
// DEFAULT: #1 ~ #2 (neg ~ div) horizontal score=128 fused step=2
// DEFAULT: kernels:
// DEFAULT-NEXT: cpu_per_fused_reduce_sum_neg_div_0 per nodes=#0,#1,#2
// DEFAULT: func.func @f(
// DEFAULT-NEXT: %[[K:.*]]:2 = call @cpu_per_fused_reduce_sum_neg_div_0(%arg0) : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
// DEFAULT-NEXT: return %[[K]]#0, %[[K]]#1

// NOHOR: #0 ~ #1 (reduce_sum ~ neg) horizontal score=128 refused reason=horizontal-disabled
// NOHOR: #0 -> #2 (reduce_sum -> div) reduction-epilogue score=144 fused step=1
// NOHOR: #1 ~ #2 (neg ~ div) horizontal score=128 refused reason=horizontal-disabled
// NOHOR: kernels:
// NOHOR-NEXT: cpu_per_fused_reduce_sum_div_0 per nodes=#0,#2
// NOHOR-NEXT: cpu_poi_fused_neg_1 poi nodes=#1

// NOEPI: #0 ~ #1 (reduce_sum ~ neg) horizontal score=128 fused step=1
// NOEPI: #0 -> #2 (reduce_sum -> div) reduction-epilogue score=144 refused reason=epilogue-disabled
// NOEPI: #1 ~ #2 (neg ~ div) horizontal score=128 refused reason=epilogue-disabled
// NOEPI: kernels:
// NOEPI-NEXT: cpu_per_fused_reduce_sum_neg_0 per nodes=#0,#1
// NOEPI-NEXT: cpu_poi_fused_div_1 poi nodes=#2

// DISABLE: #0 ~ #1 (reduce_sum ~ neg) horizontal score=128 refused reason=disabled
// DISABLE: #0 -> #2 (reduce_sum -> div) reduction-epilogue score=144 refused reason=disabled
// DISABLE: #1 ~ #2 (neg ~ div) horizontal score=128 refused reason=disabled
// DISABLE: steps:
// DISABLE-NEXT: kernels:
// DISABLE-NEXT: cpu_per_fused_reduce_sum_0 per nodes=#0
// DISABLE-NEXT: cpu_poi_fused_neg_1 poi nodes=#1
// DISABLE-NEXT: cpu_poi_fused_div_2 poi nodes=#2
// DISABLE: call @cpu_per_fused_reduce_sum_0(%arg0)
// DISABLE-NEXT: call @cpu_poi_fused_neg_1(%arg0)
// DISABLE-NEXT: call @cpu_poi_fused_div_2(%arg0, %{{.*}})

// MAXOPS: #0 ~ #1 (reduce_sum ~ neg) horizontal score=128 refused reason=max-ops
// MAXOPS: #0 -> #2 (reduce_sum -> div) reduction-epilogue score=144 refused reason=max-ops
// MAXOPS: #1 ~ #2 (neg ~ div) horizontal score=128 refused reason=max-ops

// CUDA: func.func private @cuda_per_fused_reduce_sum_neg_div_0(
// CUDA: call @cuda_per_fused_reduce_sum_neg_div_0
func.func @f(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e4 = tensor.empty() : tensor<4xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%f4 : tensor<4xf32>) attrs = {braze.ops = ["reduce_sum"]} {
  ^bb0(%p: f32, %acc: f32):
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) attrs = {braze.ops = ["neg"]} {
  ^bb0(%p: f32, %o: f32):
    %r = arith.negf %p : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<4x8xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) attrs = {braze.ops = ["div"]} {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.divf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %n, %d : tensor<4x8xf32>, tensor<4x8xf32>
}
