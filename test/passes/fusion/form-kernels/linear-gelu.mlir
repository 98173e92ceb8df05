// linear + gelu: the matmul is a `tem` group; its pointwise epilogue (bias add and
// the inlined gelu) fuses into it with epilogue-templates (the default).
// RUN: braze-opt --cpu=x86-64-v4 %s --form-kernels="report epilogue-templates=false" 2>%t.off | FileCheck %s --check-prefix=OFF
// RUN: FileCheck %s --check-prefix=OFF-REPORT < %t.off
// RUN: braze-opt --cpu=x86-64-v4 %s --form-kernels=epilogue-templates | FileCheck %s --check-prefix=TEM
// RUN: braze-opt --cpu=x86-64-v4 %s --form-kernels | FileCheck %s --check-prefix=TEM

// OFF-LABEL: func.func private @cpu_tem_fused_matmul_0(
// OFF-SAME: %{{.*}}: tensor<4x16xf32>, %{{.*}}: tensor<8x16xf32>) -> tensor<4x8xf32>
// OFF-SAME: attributes {kernel.kind = "tem", kernel.ops = ["matmul"], kernel.score = 0 : i64}
// OFF: linalg.fill
// OFF: linalg.generic
// OFF-LABEL: func.func private @cpu_poi_fused_add_div_erf_mul_1(
// OFF-SAME: %{{.*}}: tensor<4x8xf32>, %{{.*}}: tensor<8xf32>) -> tensor<4x8xf32>
// OFF-SAME: kernel.kind = "poi"
// OFF-LABEL: func.func @linear_gelu(
// OFF-SAME: %[[X:.*]]: tensor<4x16xf32>, %[[W:.*]]: tensor<8x16xf32>, %[[B:.*]]: tensor<8xf32>)
// OFF-NEXT: %[[MM:.*]] = call @cpu_tem_fused_matmul_0(%[[X]], %[[W]])
// OFF-NEXT: %[[Y:.*]] = call @cpu_poi_fused_add_div_erf_mul_1(%[[MM]], %[[B]])
// OFF-NEXT: return %[[Y]]
// OFF-REPORT: #0 matmul tem 4x8x16 reduce=2
// OFF-REPORT: #0 -> #1 (matmul -> add,div,erf,add,mul,mul) reduction-epilogue score=128 refused reason=matmul-epilogue-disabled

// TEM-LABEL: func.func private @cpu_tem_fused_matmul_add_div_erf_mul_0(
// TEM-SAME: %{{.*}}: tensor<4x16xf32>, %{{.*}}: tensor<8x16xf32>, %{{.*}}: tensor<8xf32>) -> tensor<4x8xf32>
// TEM-SAME: attributes {kernel.kind = "tem", kernel.ops = ["matmul", "add", "div", "erf", "add", "mul", "mul"], kernel.score = 128 : i64}
// TEM-LABEL: func.func @linear_gelu(
// TEM-NEXT: call @cpu_tem_fused_matmul_add_div_erf_mul_0(%arg0, %arg1, %arg2)
// TEM-NEXT: return
func.func @linear_gelu(%x: tensor<4x16xf32>, %w: tensor<8x16xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %mm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<4x16xf32>, tensor<8x16xf32>) outs(%f : tensor<4x8xf32>) attrs = {braze.ops = ["matmul"]} {
  ^bb0(%a: f32, %bb: f32, %acc: f32):
    %p = arith.mulf %a, %bb : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) attrs = {braze.ops = ["add", "div", "erf", "add", "mul", "mul"]} {
  ^bb0(%m: f32, %bv: f32, %o: f32):
    %sqrt2 = arith.constant 1.41421354 : f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %a = arith.addf %m, %bv : f32
    %d = arith.divf %a, %sqrt2 : f32
    %r = math.erf %d : f32
    %p = arith.addf %r, %one : f32
    %q = arith.mulf %a, %p : f32
    %h = arith.mulf %q, %half : f32
    linalg.yield %h : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
