// W5's linear + gelu as a template kernel, with the loop nests (matmul=loops): the
// contraction runs i-k-j (parallel over rows, the reduction loop outside, the output
// row innermost and contiguous) into a zero-initialized per-row accumulator; the
// epilogue reads it in the same iteration. The A element is loaded once per k,
// outside the j loop. The matmul template (the default) is checked numerically on the
// same kernel (matmul_template.mlir shows its structure).
// RUN: braze-opt --cpu=x86-64-v4 %s --cpu-codegen="remarks align-peel=false matmul=loops" 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: braze-opt --cpu=x86-64-v4 %s --cpu-codegen=matmul=loops --math-approx -o %t.mlir
// RUN: sh %S/Inputs/lower.sh %t.mlir %S/Inputs/kernels_main.c %t.exe -DKIND_linear_gelu -DR=20 -DC=70 -DKD=45
// RUN: %t.exe | FileCheck %s --check-prefix=NUM
// RUN: braze-opt --cpu=x86-64-v4 %s --cpu-codegen --math-approx -o %t.tem.mlir
// RUN: sh %S/Inputs/lower.sh %t.tem.mlir %S/Inputs/kernels_main.c %t.tem.exe -DKIND_linear_gelu -DR=20 -DC=70 -DKD=45
// RUN: %t.tem.exe | FileCheck %s --check-prefix=NUM

// CHECK-LABEL: func.func private @cpu_tem_fused_linear_gelu_0
// CHECK-SAME: (%[[A:.*]]: memref<20x45xf32>, %[[B:.*]]: memref<45x70xf32>, %[[BIAS:.*]]: memref<70xf32>, %[[Y:.*]]: memref<20x70xf32>)
// CHECK: scf.parallel (%[[I:.*]]) = (%c0) to (%c20) step (%c1) {
// CHECK-NEXT: %[[ACC:.*]] = memref.alloca() {alignment = 64 : i64} : memref<70xf32>
// CHECK-NEXT: scf.for %[[J0:.*]] = %c0 to %c70 step %c1 {
// CHECK-NEXT: memref.store %{{.*}}, %[[ACC]][%[[J0]]]
// CHECK: scf.for %[[K:.*]] = %c0 to %c45 step %c1 {
// CHECK-NEXT: %[[AV:.*]] = memref.load %[[A]][%[[I]], %[[K]]]
// CHECK-NEXT: scf.for %[[J:.*]] = %c0 to %c70 step %c1 {
// CHECK-NEXT: %[[BV:.*]] = memref.load %[[B]][%[[K]], %[[J]]]
// CHECK-NEXT: %[[CV:.*]] = memref.load %[[ACC]][%[[J]]]
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[AV]], %[[BV]] fastmath<reassoc,contract> : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[CV]], %[[P]] fastmath<reassoc,contract> : f32
// CHECK-NEXT: memref.store %[[S]], %[[ACC]][%[[J]]]
// CHECK: scf.for %[[J2:.*]] = %c0 to %c70 step %c1 {
// CHECK-NEXT: memref.load %[[ACC]][%[[J2]]]
// CHECK-NEXT: memref.load %[[BIAS]][%[[J2]]]
// CHECK: memref.store %{{.*}}, %[[Y]][%[[I]], %[[J2]]]
// REMARK: [0] parallel 20, 2 item(s); 0 register reduction(s), 1 row buffer(s), 0 kernel buffer(s)
// NUM: kernel: OK

func.func private @cpu_tem_fused_linear_gelu_0(%x: tensor<20x45xf32>, %w: tensor<45x70xf32>, %b: tensor<70xf32>) -> tensor<20x70xf32> attributes {kernel.kind = "tem", kernel.ops = ["linear_gelu"]} {
  %v1 = arith.constant 0.0 : f32
  %v2 = tensor.empty() : tensor<20x70xf32>
  %v3 = linalg.fill ins(%v1 : f32) outs(%v2 : tensor<20x70xf32>) -> tensor<20x70xf32>
  %v4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<20x45xf32>, tensor<45x70xf32>) outs(%v3 : tensor<20x70xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %p = arith.mulf %a0, %a1 : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<20x70xf32>
  %v5 = tensor.empty() : tensor<20x70xf32>
  %v6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v4, %b : tensor<20x70xf32>, tensor<70xf32>) outs(%v5 : tensor<20x70xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %t = arith.addf %a0, %a1 : f32
    %h = arith.constant 0.5 : f32
    %is2 = arith.constant 0.707106769 : f32
    %one = arith.constant 1.0 : f32
    %u = arith.mulf %t, %is2 : f32
    %e = math.erf %u : f32
    %e1 = arith.addf %e, %one : f32
    %th = arith.mulf %t, %h : f32
    %r = arith.mulf %th, %e1 : f32
    linalg.yield %r : f32
  } -> tensor<20x70xf32>
  return %v6 : tensor<20x70xf32>
}
func.func @linear_gelu(%x: tensor<20x45xf32>, %w: tensor<45x70xf32>, %b: tensor<70xf32>) -> tensor<20x70xf32> {
  %0 = call @cpu_tem_fused_linear_gelu_0(%x, %w, %b) : (tensor<20x45xf32>, tensor<45x70xf32>, tensor<70xf32>) -> tensor<20x70xf32>
  return %0 : tensor<20x70xf32>
}
