// layer_norm (sum, scale, centered sum of squares, normalize) in one red kernel:
// three register reductions per row (the mean is a register too: a pointwise op on
// one element per row), x read three times from a row that stays in cache.
// RUN: braze-opt --cpu=x86-64-v4 %s --cpu-codegen="remarks align-peel=false" 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: braze-opt --cpu=x86-64-v4 %s --cpu-codegen --math-approx -o %t.mlir
// RUN: sh %S/Inputs/lower.sh %t.mlir %S/Inputs/kernels_main.c %t.exe -DKIND_layer_norm -DR=33 -DC=70
// RUN: %t.exe | FileCheck %s --check-prefix=NUM

// CHECK-LABEL: func.func private @cpu_red_fused_layer_norm_0
// CHECK: scf.parallel (%[[I:.*]]) = (%c0) to (%c33) step (%c1) {
// CHECK-NOT: memref.alloca
// CHECK: %[[SUM:.*]] = scf.for {{.*}} iter_args({{.*}}) -> (f32)
// CHECK: %[[MEAN:.*]] = arith.mulf %[[SUM]], %{{.*}} : f32
// CHECK: %[[VAR:.*]] = scf.for {{.*}} iter_args({{.*}}) -> (f32)
// CHECK: arith.subf %{{.*}}, %[[MEAN]] fastmath<reassoc,contract> : f32
// CHECK: scf.for %[[J:.*]] = %c0 to %c70 step %c1 {
// CHECK-DAG: memref.load %arg0[%[[I]], %[[J]]] : memref<33x70xf32>
// CHECK-DAG: memref.load %arg1[%[[J]]] : memref<70xf32>
// CHECK-DAG: memref.load %arg2[%[[J]]] : memref<70xf32>
// CHECK: arith.mulf %[[VAR]], %{{.*}} : f32
// CHECK: math.rsqrt
// CHECK: memref.store %{{.*}}, %arg3[%[[I]], %[[J]]] : memref<33x70xf32>
// REMARK: 1 phase(s); [0] parallel 33, 4 item(s); 3 register reduction(s), 0 row buffer(s), 0 kernel buffer(s)
// NUM: kernel: OK

func.func private @cpu_red_fused_layer_norm_0(%x: tensor<33x70xf32>, %w: tensor<70xf32>, %b: tensor<70xf32>) -> tensor<33x70xf32> attributes {kernel.kind = "red", kernel.ops = ["layer_norm"]} {
  %v1 = arith.constant 0.0 : f32
  %v2 = tensor.empty() : tensor<33x1xf32>
  %v3 = linalg.fill ins(%v1 : f32) outs(%v2 : tensor<33x1xf32>) -> tensor<33x1xf32>
  %v4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<33x70xf32>) outs(%v3 : tensor<33x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<33x1xf32>
  %v5 = tensor.empty() : tensor<33x1xf32>
  %v6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v4 : tensor<33x1xf32>) outs(%v5 : tensor<33x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %n = arith.constant 0.014285714285714285 : f32
    %r = arith.mulf %a0, %n : f32
    linalg.yield %r : f32
  } -> tensor<33x1xf32>
  %v7 = arith.constant 0.0 : f32
  %v8 = tensor.empty() : tensor<33x1xf32>
  %v9 = linalg.fill ins(%v7 : f32) outs(%v8 : tensor<33x1xf32>) -> tensor<33x1xf32>
  %v10 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x, %v6 : tensor<33x70xf32>, tensor<33x1xf32>) outs(%v9 : tensor<33x1xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %d = arith.subf %a0, %a1 : f32
    %q = arith.mulf %d, %d : f32
    %r = arith.addf %q, %acc : f32
    linalg.yield %r : f32
  } -> tensor<33x1xf32>
  %v11 = tensor.empty() : tensor<33x70xf32>
  %v12 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %v6, %v10, %w, %b : tensor<33x70xf32>, tensor<33x1xf32>, tensor<33x1xf32>, tensor<70xf32>, tensor<70xf32>) outs(%v11 : tensor<33x70xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %a4: f32, %acc: f32):
    %d = arith.subf %a0, %a1 : f32
    %n = arith.constant 0.014285714285714285 : f32
    %v = arith.mulf %a2, %n : f32
    %eps = arith.constant 1.0e-05 : f32
    %ve = arith.addf %v, %eps : f32
    %rs = math.rsqrt %ve : f32
    %y = arith.mulf %d, %rs : f32
    %yw = arith.mulf %y, %a3 : f32
    %r = arith.addf %yw, %a4 : f32
    linalg.yield %r : f32
  } -> tensor<33x70xf32>
  return %v12 : tensor<33x70xf32>
}
func.func @layer_norm(%x: tensor<33x70xf32>, %w: tensor<70xf32>, %b: tensor<70xf32>) -> tensor<33x70xf32> {
  %0 = call @cpu_red_fused_layer_norm_0(%x, %w, %b) : (tensor<33x70xf32>, tensor<70xf32>, tensor<70xf32>) -> tensor<33x70xf32>
  return %0 : tensor<33x70xf32>
}
