// softmax at loop level (after graph-to-loops + inline-unrealized: sub and exp
// inlined into one generic) becomes one `red` kernel: the max reduction, its
// epilogue, the sum reduction (exp as prologue) and the div epilogue.
// RUN: braze-opt --cpu=x86-64-v4 %s --form-kernels | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --form-kernels | braze-opt --cpu=x86-64-v4 --form-kernels | FileCheck %s

// CHECK-LABEL: func.func private @cpu_per_fused_reduce_max_sub_exp_reduce_sum_div_0(
// CHECK-SAME: %[[X:.*]]: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-SAME: attributes {kernel.kind = "per", kernel.ops = ["reduce_max", "sub", "exp", "reduce_sum", "div"], kernel.score = 416 : i64}
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x1xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%[[NINF]] : f32) outs(%[[E]] : tensor<4x1xf32>)
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<4x8xf32>) outs(%[[F]] : tensor<4x1xf32>) attrs = {braze.ops = ["reduce_max"]}
// CHECK: %[[EXP:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[MAX]] : {{.*}}) {{.*}} {braze.ops = ["sub", "exp"]}
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[EXP]] : {{.*}}) {{.*}} {braze.ops = ["reduce_sum"]}
// CHECK: %[[DIV:.*]] = linalg.generic {{.*}} ins(%[[EXP]], %[[SUM]] : {{.*}}) {{.*}} {braze.ops = ["div"]}
// CHECK: return %[[DIV]] : tensor<4x8xf32>
// CHECK-LABEL: func.func @softmax(
// CHECK-SAME: %[[A:.*]]: tensor<4x8xf32>)
// CHECK-NEXT: %[[R:.*]] = call @cpu_per_fused_reduce_max_sub_exp_reduce_sum_div_0(%[[A]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[R]]
// CHECK-NOT: func.func
func.func @softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x1xf32>
  %f0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%f0 : tensor<4x1xf32>) attrs = {braze.ops = ["reduce_max"]} {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<4x1xf32>
  %e1 = tensor.empty() : tensor<4x8xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e1 : tensor<4x8xf32>) attrs = {braze.ops = ["sub", "exp"]} {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    %e = math.exp %s : f32
    linalg.yield %e : f32
  } -> tensor<4x8xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<4x8xf32>) outs(%f1 : tensor<4x1xf32>) attrs = {braze.ops = ["reduce_sum"]} {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4x1xf32>
  %div = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sum : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e1 : tensor<4x8xf32>) attrs = {braze.ops = ["div"]} {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.divf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<4x8xf32>
  return %div : tensor<4x8xf32>
}
