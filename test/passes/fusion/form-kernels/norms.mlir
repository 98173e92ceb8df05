// layer_norm, rms_norm and a gelu chain at loop level (post inline-unrealized forms)
// each become one kernel. The pointwise ops over the rows ([4, 1] with keepdim, [4]
// without) join the reduction kernel through its outer space.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --form-kernels=report 2>%t.report | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.report

// CHECK-LABEL: func.func private @cpu_per_fused_reduce_mean_sub_mul_add_rsqrt_0(
// CHECK-SAME: %{{.*}}: tensor<4x8xf32>, %{{.*}}: tensor<8xf32>, %{{.*}}: tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-SAME: kernel.kind = "per"
// CHECK-SAME: kernel.ops = ["reduce_mean", "reduce_mean", "sub", "mul", "reduce_mean", "reduce_mean", "add", "rsqrt", "mul", "mul", "add"]
// CHECK-LABEL: func.func @layer_norm(
// CHECK-NEXT: call @cpu_per_fused_reduce_mean_sub_mul_add_rsqrt_0(%arg0, %arg1, %arg2)
// CHECK-NEXT: return
// REPORT-LABEL: form-kernels report @layer_norm
// REPORT: #3 reduce_mean,add,rsqrt poi 4x1
// REPORT: kernels:
// REPORT-NEXT: cpu_per_fused_reduce_mean_sub_mul_add_rsqrt_0 per nodes=#0,#1,#2,#3,#4
func.func @layer_norm(%x: tensor<4x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%f : tensor<4x1xf32>) attrs = {braze.ops = ["reduce_mean"]} {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4x1xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %xc = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e2 : tensor<4x8xf32>) attrs = {braze.ops = ["reduce_mean", "sub"]} {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %n = arith.constant 0.125 : f32
    %m = arith.mulf %s, %n : f32
    %d = arith.subf %a, %m : f32
    linalg.yield %d : f32
  } -> tensor<4x8xf32>
  %var = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]}
      ins(%xc : tensor<4x8xf32>) outs(%f : tensor<4x1xf32>) attrs = {braze.ops = ["mul", "reduce_mean"]} {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4x1xf32>
  %rstd = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%var : tensor<4x1xf32>) outs(%e1 : tensor<4x1xf32>) attrs = {braze.ops = ["reduce_mean", "add", "rsqrt"]} {
  ^bb0(%v: f32, %o: f32):
    %n = arith.constant 0.125 : f32
    %eps = arith.constant 1.0e-05 : f32
    %m = arith.mulf %v, %n : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%xc, %rstd, %w, %b : tensor<4x8xf32>, tensor<4x1xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<4x8xf32>) attrs = {braze.ops = ["mul", "mul", "add"]} {
  ^bb0(%a: f32, %r: f32, %wv: f32, %bv: f32, %o: f32):
    %n = arith.mulf %a, %r : f32
    %s = arith.mulf %n, %wv : f32
    %t = arith.addf %s, %bv : f32
    linalg.yield %t : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func private @cpu_per_fused_mul_reduce_mean_add_rsqrt_0(
// CHECK-SAME: %{{.*}}: tensor<4x8xf32>, %{{.*}}: tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-SAME: kernel.kind = "per"
// CHECK-LABEL: func.func @rms_norm(
// CHECK-NEXT: call @cpu_per_fused_mul_reduce_mean_add_rsqrt_0(%arg0, %arg1)
// CHECK-NEXT: return
// REPORT-LABEL: form-kernels report @rms_norm
// REPORT: #1 reduce_mean,add,rsqrt poi 4
// REPORT: kernels:
// REPORT-NEXT: cpu_per_fused_mul_reduce_mean_add_rsqrt_0 per nodes=#0,#1,#2
func.func @rms_norm(%x: tensor<4x8xf32>, %w: tensor<8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%f : tensor<4xf32>) attrs = {braze.ops = ["mul", "reduce_mean"]} {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%ss : tensor<4xf32>) outs(%e1 : tensor<4xf32>) attrs = {braze.ops = ["reduce_mean", "add", "rsqrt"]} {
  ^bb0(%v: f32, %o: f32):
    %n = arith.constant 0.125 : f32
    %eps = arith.constant 1.0e-06 : f32
    %m = arith.mulf %v, %n : f32
    %a = arith.addf %m, %eps : f32
    %q = math.rsqrt %a : f32
    linalg.yield %q : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %r, %w : tensor<4x8xf32>, tensor<4xf32>, tensor<8xf32>) outs(%e2 : tensor<4x8xf32>) attrs = {braze.ops = ["mul", "mul"]} {
  ^bb0(%a: f32, %q: f32, %wv: f32, %o: f32):
    %n = arith.mulf %a, %q : f32
    %s = arith.mulf %n, %wv : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// gelu after inlining is one generic: one pointwise kernel, named after its ops.
// CHECK-LABEL: func.func private @cpu_poi_fused_div_erf_add_mul_0(
// CHECK-SAME: %{{.*}}: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-SAME: attributes {kernel.kind = "poi", kernel.ops = ["div", "erf", "add", "mul", "mul"], kernel.score = 0 : i64}
// CHECK: %[[C:.*]] = arith.constant 1.41421354 : f32
// CHECK: linalg.generic
// CHECK: arith.divf %{{.*}}, %[[C]]
// CHECK-LABEL: func.func @gelu(
// CHECK-NEXT: call @cpu_poi_fused_div_erf_add_mul_0(%arg0)
// CHECK-NEXT: return
// REPORT-LABEL: form-kernels report @gelu
// REPORT-NEXT: nodes:
// REPORT-NEXT: #0 div,erf,add,mul,mul poi 4x8
// REPORT-NEXT: candidates:
// REPORT-NEXT: steps:
// REPORT-NEXT: kernels:
// REPORT-NEXT: cpu_poi_fused_div_erf_add_mul_0 poi nodes=#0 ops=div,erf,add,mul,mul score=0
func.func @gelu(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %sqrt2 = arith.constant 1.41421354 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) attrs = {braze.ops = ["div", "erf", "add", "mul", "mul"]} {
  ^bb0(%a: f32, %o: f32):
    %d = arith.divf %a, %sqrt2 : f32
    %r = math.erf %d : f32
    %p = arith.addf %r, %one : f32
    %m = arith.mulf %a, %p : f32
    %h = arith.mulf %m, %half : f32
    linalg.yield %h : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
