// softmax as form-kernels outlines it (max, exp, sum, div in one red kernel):
// one scf.parallel over rows; both reductions in iter_args registers; the exp row
// in a per-row buffer; then numerically against a double reference.
// RUN: braze-opt --cpu=x86-64-v4 %s --cpu-codegen="remarks align-peel=false" 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: braze-opt --cpu=x86-64-v4 %s --cpu-codegen=reassoc=false | FileCheck %s --check-prefix=NOREASSOC
// RUN: braze-opt --cpu=x86-64-v4 %s --cpu-codegen --math-approx -o %t.mlir
// RUN: sh %S/Inputs/lower.sh %t.mlir %S/Inputs/softmax_main.c %t.exe
// RUN: %t.exe | FileCheck %s --check-prefix=NUM

// CHECK-LABEL: func.func private @cpu_red_fused_reduce_max_sub_exp_reduce_sum_div_0
// CHECK-SAME: (%[[X:.*]]: memref<37x100xf32>, %[[Y:.*]]: memref<37x100xf32>)
// CHECK-SAME: braze.num_inputs = 1 : i64, braze.num_outputs = 1 : i64, kernel.kind = "red"
// CHECK: scf.parallel (%[[I:.*]]) = (%c0) to (%c37) step (%c1) {
// CHECK-NEXT: %[[ROW:.*]] = memref.alloca() {alignment = 64 : i64} : memref<100xf32>
// CHECK-NEXT: %[[MAX:.*]] = scf.for %[[J:.*]] = %c0 to %c100 step %c1 iter_args(%[[A:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT: %[[V:.*]] = memref.load %[[X]][%[[I]], %[[J]]] : memref<37x100xf32>
// CHECK-NEXT: %[[M:.*]] = arith.maximumf %[[V]], %[[A]] fastmath<reassoc,nsz,contract> : f32
// CHECK-NEXT: scf.yield %[[M]] : f32
// CHECK: scf.for %[[J:.*]] = %c0 to %c100 step %c1 {
// CHECK: arith.subf %{{.*}}, %[[MAX]] : f32
// CHECK: math.exp
// CHECK: memref.store %{{.*}}, %[[ROW]][%[[J]]] : memref<100xf32>
// CHECK: %[[SUM:.*]] = scf.for {{.*}} -> (f32) {
// CHECK: memref.load %[[ROW]]
// CHECK: arith.addf {{.*}} fastmath<reassoc,contract> : f32
// CHECK: scf.for
// CHECK: arith.divf %{{.*}}, %[[SUM]] : f32
// CHECK: memref.store %{{.*}}, %[[Y]][%[[I]], %{{.*}}] : memref<37x100xf32>
// CHECK: scf.reduce
// CHECK: return
// CHECK-LABEL: func.func @softmax
// CHECK-SAME: (%[[IN:.*]]: memref<37x100xf32>, %[[OUT:.*]]: memref<37x100xf32>) attributes {braze.entry, braze.num_inputs = 1 : i64, braze.num_outputs = 1 : i64}
// CHECK-NEXT: call @cpu_red_fused_reduce_max_sub_exp_reduce_sum_div_0(%[[IN]], %[[OUT]]) : (memref<37x100xf32>, memref<37x100xf32>) -> ()
// CHECK-NEXT: return

// REMARK: remark: cpu-codegen: kernel @cpu_red_fused_reduce_max_sub_exp_reduce_sum_div_0: 1 phase(s); [0] parallel 37, 4 item(s); 2 register reduction(s), 1 row buffer(s), 0 kernel buffer(s)
// REMARK: remark: cpu-codegen: entry @softmax: peak intermediate bytes 0 in 0 buffer(s), workspace 0 bytes, 1 kernel call(s)
// NOREASSOC-NOT: fastmath
// NUM: softmax: OK

func.func private @cpu_red_fused_reduce_max_sub_exp_reduce_sum_div_0(%x: tensor<37x100xf32>) -> tensor<37x100xf32>
    attributes {kernel.kind = "red", kernel.ops = ["reduce_max", "sub", "exp", "reduce_sum", "div"]} {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<37x1xf32>
  %f0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<37x1xf32>) -> tensor<37x1xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<37x100xf32>) outs(%f0 : tensor<37x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<37x1xf32>
  %e1 = tensor.empty() : tensor<37x100xf32>
  %exp = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<37x100xf32>, tensor<37x1xf32>) outs(%e1 : tensor<37x100xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %s = arith.subf %a, %m : f32
    %e = math.exp %s : f32
    linalg.yield %e : f32
  } -> tensor<37x100xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x1xf32>) -> tensor<37x1xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<37x100xf32>) outs(%f1 : tensor<37x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<37x1xf32>
  %div = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<37x100xf32>, tensor<37x1xf32>) outs(%e1 : tensor<37x100xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %d = arith.divf %a, %s : f32
    linalg.yield %d : f32
  } -> tensor<37x100xf32>
  return %div : tensor<37x100xf32>
}
func.func @softmax(%x: tensor<37x100xf32>) -> tensor<37x100xf32> {
  %0 = call @cpu_red_fused_reduce_max_sub_exp_reduce_sum_div_0(%x) : (tensor<37x100xf32>) -> tensor<37x100xf32>
  return %0 : tensor<37x100xf32>
}
