// rms_norm: a sum of squares (x*x is not a contraction: one operand) in a register,
// then the scaled row.
// RUN: braze-opt --cpu=x86-64-v4 %s --cpu-codegen=align-peel=false | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --cpu-codegen --math-approx -o %t.mlir
// RUN: sh %S/Inputs/lower.sh %t.mlir %S/Inputs/kernels_main.c %t.exe -DKIND_rms_norm -DR=33 -DC=70
// RUN: %t.exe | FileCheck %s --check-prefix=NUM

// CHECK-LABEL: func.func private @cpu_red_fused_rms_norm_0
// CHECK: scf.parallel (%[[I:.*]]) = (%c0) to (%c33) step (%c1) {
// CHECK-NEXT: %[[SS:.*]] = scf.for %[[J:.*]] = %c0 to %c70 step %c1 iter_args(%[[A:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT: %[[V:.*]] = memref.load %arg0[%[[I]], %[[J]]]
// CHECK-NEXT: %[[Q:.*]] = arith.mulf %[[V]], %[[V]] fastmath<reassoc,contract> : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[Q]], %[[A]] fastmath<reassoc,contract> : f32
// CHECK-NEXT: scf.yield %[[S]] : f32
// CHECK: scf.for
// CHECK: arith.mulf %[[SS]]
// CHECK: scf.reduce
// NUM: kernel: OK

func.func private @cpu_red_fused_rms_norm_0(%x: tensor<33x70xf32>, %w: tensor<70xf32>) -> tensor<33x70xf32> attributes {kernel.kind = "red", kernel.ops = ["rms_norm"]} {
  %v1 = arith.constant 0.0 : f32
  %v2 = tensor.empty() : tensor<33x1xf32>
  %v3 = linalg.fill ins(%v1 : f32) outs(%v2 : tensor<33x1xf32>) -> tensor<33x1xf32>
  %v4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<33x70xf32>) outs(%v3 : tensor<33x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %q = arith.mulf %a0, %a0 : f32
    %r = arith.addf %q, %acc : f32
    linalg.yield %r : f32
  } -> tensor<33x1xf32>
  %v5 = tensor.empty() : tensor<33x70xf32>
  %v6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %v4, %w : tensor<33x70xf32>, tensor<33x1xf32>, tensor<70xf32>) outs(%v5 : tensor<33x70xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
    %n = arith.constant 0.014285714285714285 : f32
    %m = arith.mulf %a1, %n : f32
    %eps = arith.constant 1.0e-06 : f32
    %me = arith.addf %m, %eps : f32
    %rs = math.rsqrt %me : f32
    %y = arith.mulf %a0, %rs : f32
    %r = arith.mulf %y, %a2 : f32
    linalg.yield %r : f32
  } -> tensor<33x70xf32>
  return %v6 : tensor<33x70xf32>
}
func.func @rms_norm(%x: tensor<33x70xf32>, %w: tensor<70xf32>) -> tensor<33x70xf32> {
  %0 = call @cpu_red_fused_rms_norm_0(%x, %w) : (tensor<33x70xf32>, tensor<70xf32>) -> tensor<33x70xf32>
  return %0 : tensor<33x70xf32>
}
