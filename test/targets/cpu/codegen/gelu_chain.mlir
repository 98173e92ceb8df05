// W1's pointwise chain y = gelu(x * s + b) with s, b broadcast over rows (maps
// (d0, d1) -> (d1)): parallel over rows, a contiguous inner loop; after
// math-approx no libm call is left and the loop vectorizes.
// RUN: braze-opt --cpu=x86-64-v4 %s --cpu-codegen=align-peel=false | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --cpu-codegen --math-approx -o %t.mlir
// RUN: FileCheck %s --check-prefix=APPROX --input-file=%t.mlir
// RUN: sh %S/Inputs/lower.sh %t.mlir %S/Inputs/kernels_main.c %t.exe -DKIND_gelu_chain -DR=33 -DC=70
// RUN: %t.exe | FileCheck %s --check-prefix=NUM

// CHECK-LABEL: func.func private @cpu_poi_fused_gelu_chain_0
// CHECK-SAME: (%[[X:.*]]: memref<33x70xf32>, %[[S:.*]]: memref<70xf32>, %[[B:.*]]: memref<70xf32>, %[[Y:.*]]: memref<33x70xf32>)
// CHECK: scf.parallel (%[[I:.*]]) = (%c0) to (%c33) step (%c1) {
// CHECK-NEXT: scf.for %[[J:.*]] = %c0 to %c70 step %c1 {
// CHECK-NEXT: memref.load %[[X]][%[[I]], %[[J]]]
// CHECK-NEXT: memref.load %[[S]][%[[J]]]
// CHECK-NEXT: memref.load %[[B]][%[[J]]]
// CHECK: math.erf
// CHECK: memref.store %{{.*}}, %[[Y]][%[[I]], %[[J]]]
// APPROX-NOT: math.erf
// NUM: kernel: OK

func.func private @cpu_poi_fused_gelu_chain_0(%x: tensor<33x70xf32>, %s: tensor<70xf32>, %b: tensor<70xf32>) -> tensor<33x70xf32> attributes {kernel.kind = "poi", kernel.ops = ["gelu_chain"]} {
  %v1 = tensor.empty() : tensor<33x70xf32>
  %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s, %b : tensor<33x70xf32>, tensor<70xf32>, tensor<70xf32>) outs(%v1 : tensor<33x70xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %t = arith.addf %m, %a2 : f32
    %h = arith.constant 0.5 : f32
    %is2 = arith.constant 0.707106769 : f32
    %one = arith.constant 1.0 : f32
    %u = arith.mulf %t, %is2 : f32
    %e = math.erf %u : f32
    %e1 = arith.addf %e, %one : f32
    %th = arith.mulf %t, %h : f32
    %r = arith.mulf %th, %e1 : f32
    linalg.yield %r : f32
  } -> tensor<33x70xf32>
  return %v2 : tensor<33x70xf32>
}
func.func @gelu_chain(%x: tensor<33x70xf32>, %s: tensor<70xf32>, %b: tensor<70xf32>) -> tensor<33x70xf32> {
  %0 = call @cpu_poi_fused_gelu_chain_0(%x, %s, %b) : (tensor<33x70xf32>, tensor<70xf32>, tensor<70xf32>) -> tensor<33x70xf32>
  return %0 : tensor<33x70xf32>
}
