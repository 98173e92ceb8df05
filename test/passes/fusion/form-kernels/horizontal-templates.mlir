// horizontal-templates (off by default): two matmuls reading the same A at the same map,
// neither reading the other's result, may share a tem group (W6's gate and up
// projections; their silu-mul epilogue joins too), so one kernel computes both products
// from one pass over A (cpu-codegen's matmul template, `products=2`). Matmuls of
// different A, and a matmul consuming another's result, stay apart (two-contractions).
// RUN: braze-opt --cpu=x86-64-v4 %s --form-kernels="report horizontal-templates" 2>%t.on | FileCheck %s --check-prefix=ON-IR
// RUN: FileCheck %s --check-prefix=ON --input-file=%t.on
// RUN: braze-opt --cpu=x86-64-v4 %s --form-kernels=report -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF

// ON: #0 ~ #1 (matmul ~ matmul) horizontal {{.*}} fused step=
// ON: (matmul ~ matmul) horizontal {{.*}} refused reason=two-contractions
// ON: mul -> matmul) vertical {{.*}} refused reason=two-contractions
// ON-IR: func.func private @cpu_tem_fused_matmul_sigmoid_mul_0(
// ON-IR-COUNT-2: braze.ops = ["matmul"]
// ON-IR: braze.ops = ["sigmoid", "mul", "mul"]
// ON-IR: return
// OFF: #0 ~ #1 (matmul ~ matmul) horizontal {{.*}} refused reason=two-contractions

#mk = affine_map<(d0, d1, d2) -> (d0, d2)>
#kn = affine_map<(d0, d1, d2) -> (d2, d1)>
#mn = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @ffn(%h: tensor<8x16xf32>, %wg: tensor<16x32xf32>, %wu: tensor<16x32xf32>, %x2: tensor<8x16xf32>, %wd: tensor<32x16xf32>) -> (tensor<8x16xf32>, tensor<8x32xf32>) {
  %z = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %a = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]} ins(%h, %wg : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f : tensor<8x32xf32>) attrs = {braze.ops = ["matmul"]} {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  %u = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]} ins(%h, %wu : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f : tensor<8x32xf32>) attrs = {braze.ops = ["matmul"]} {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  // another A: stays apart even with the option
  %v = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x2, %wu : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f : tensor<8x32xf32>) attrs = {braze.ops = ["matmul"]} {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  %e2 = tensor.empty() : tensor<8x32xf32>
  %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %u : tensor<8x32xf32>, tensor<8x32xf32>) outs(%e2 : tensor<8x32xf32>) attrs = {braze.ops = ["sigmoid", "mul", "mul"]} {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %n = arith.negf %x : f32
    %ex = math.exp %n : f32
    %d = arith.addf %ex, %one : f32
    %sg = arith.divf %one, %d : f32
    %sx = arith.mulf %x, %sg : f32
    %r = arith.mulf %sx, %y : f32
    linalg.yield %r : f32
  } -> tensor<8x32xf32>
  %e3 = tensor.empty() : tensor<8x16xf32>
  %f3 = linalg.fill ins(%z : f32) outs(%e3 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %d = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]} ins(%p, %wd : tensor<8x32xf32>, tensor<32x16xf32>) outs(%f3 : tensor<8x16xf32>) attrs = {braze.ops = ["matmul"]} {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %d, %v : tensor<8x16xf32>, tensor<8x32xf32>
}
