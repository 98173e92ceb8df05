// Row jamming (cpu-codegen row-jam=N, default 2 with 32 vector registers, 1 with 16:
// x86-64-v3, where two rows' registers spill; decision 0026): a phase whose rows reduce into
// registers takes N rows per parallel step; each reduction loop carries N
// accumulators (one per row, independent dependency chains) with the body cloned
// per row, and every other item runs once per row, each row with its own registers
// and row buffers. Softmax on 36 rows: 18 steps of 2 rows (9 of 4 with row-jam=4);
// 37 rows (softmax.mlir) do not divide and stay one per step.
// RUN: braze-opt --cpu=x86-64-v4 %s --cpu-codegen="remarks align-peel=false" 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: braze-opt --cpu=x86-64-v4 %s --cpu-codegen="row-jam=4 align-peel=false" | FileCheck %s --check-prefix=JAM4
// RUN: braze-opt --cpu=x86-64-v4 %s --cpu-codegen="row-jam=1 align-peel=false" | FileCheck %s --check-prefix=OFF
// RUN: braze-opt --cpu=x86-64-v3 %s --cpu-codegen="align-peel=false" | FileCheck %s --check-prefix=OFF
// RUN: not braze-opt --cpu=x86-64-v4 %s --cpu-codegen=row-jam=0 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not braze-opt --cpu=x86-64-v4 %s --cpu-codegen=row-jam=9 2>&1 | FileCheck %s --check-prefix=BAD
// Numerics, each row against a double reference (rows mixed up would fail):
// RUN: braze-opt --cpu=x86-64-v4 %s --cpu-codegen --math-approx -o %t.mlir
// RUN: sh %S/Inputs/lower.sh %t.mlir %S/Inputs/kernels_main.c %t.exe -DKIND_softmax -DR=36 -DC=100
// RUN: %t.exe | FileCheck %s --check-prefix=NUM
// RUN: braze-opt --cpu=x86-64-v4 %s --cpu-codegen=row-jam=4 --math-approx -o %t.4.mlir
// RUN: sh %S/Inputs/lower.sh %t.4.mlir %S/Inputs/kernels_main.c %t.4.exe -DKIND_softmax -DR=36 -DC=100
// RUN: %t.4.exe | FileCheck %s --check-prefix=NUM

// CHECK-LABEL: func.func private @cpu_red_fused_reduce_max_sub_exp_reduce_sum_div_0
// CHECK-SAME: (%[[X:.*]]: memref<36x100xf32>, %[[Y:.*]]: memref<36x100xf32>)
// CHECK: scf.parallel (%[[I:.*]]) = (%c0) to (%c18) step (%c1) {
// CHECK-NEXT: %[[R0:.*]] = arith.muli %[[I]], %c2 : index
// CHECK-NEXT: %[[R1:.*]] = arith.addi %[[R0]], %c1 : index
// CHECK-NEXT: %[[B0:.*]] = memref.alloca() {alignment = 64 : i64} : memref<100xf32>
// CHECK-NEXT: %[[B1:.*]] = memref.alloca() {alignment = 64 : i64} : memref<100xf32>
// CHECK-NEXT: %[[MAX:.*]]:2 = scf.for %[[J:.*]] = %c0 to %c100 step %c1 iter_args(%[[A0:.*]] = %{{.*}}, %[[A1:.*]] = %{{.*}}) -> (f32, f32) {
// CHECK-NEXT: %[[V0:.*]] = memref.load %[[X]][%[[R0]], %[[J]]]
// CHECK-NEXT: %[[V1:.*]] = memref.load %[[X]][%[[R1]], %[[J]]]
// CHECK-NEXT: %[[M0:.*]] = arith.maximumf %[[V0]], %[[A0]]
// CHECK-NEXT: %[[M1:.*]] = arith.maximumf %[[V1]], %[[A1]]
// CHECK-NEXT: scf.yield %[[M0]], %[[M1]] : f32, f32
// CHECK: arith.subf %{{.*}}, %[[MAX]]#0
// CHECK: memref.store %{{.*}}, %[[B0]]
// CHECK: arith.subf %{{.*}}, %[[MAX]]#1
// CHECK: memref.store %{{.*}}, %[[B1]]
// CHECK: %[[SUM:.*]]:2 = scf.for {{.*}} -> (f32, f32) {
// CHECK-DAG: memref.load %[[B0]]
// CHECK-DAG: memref.load %[[B1]]
// CHECK: arith.divf %{{.*}}, %[[SUM]]#0
// CHECK: memref.store %{{.*}}, %[[Y]][%[[R0]], %{{.*}}]
// CHECK: arith.divf %{{.*}}, %[[SUM]]#1
// CHECK: memref.store %{{.*}}, %[[Y]][%[[R1]], %{{.*}}]
// CHECK: scf.reduce

// REMARK: [0] parallel 36 (2 rows per step), 4 item(s); 2 register reduction(s), 1 row buffer(s)

// JAM4: scf.parallel (%{{.*}}) = (%c0) to (%c9) step (%c1) {
// JAM4-COUNT-4: memref.alloca()
// JAM4: scf.for {{.*}} -> (f32, f32, f32, f32) {

// OFF: scf.parallel (%{{.*}}) = (%c0) to (%c36) step (%c1) {
// OFF-NOT: arith.muli
// OFF: scf.for {{.*}} -> (f32) {

// BAD: option 'row-jam' expects 1 to 8, got

// NUM: kernel: OK

func.func private @cpu_red_fused_reduce_max_sub_exp_reduce_sum_div_0(%x: tensor<36x100xf32>) -> tensor<36x100xf32>
    attributes {kernel.kind = "red", kernel.ops = ["reduce_max", "sub", "exp", "reduce_sum", "div"]} {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<36x1xf32>
  %f0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<36x1xf32>) -> tensor<36x1xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<36x100xf32>) outs(%f0 : tensor<36x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<36x1xf32>
  %e1 = tensor.empty() : tensor<36x100xf32>
  %exp = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<36x100xf32>, tensor<36x1xf32>) outs(%e1 : tensor<36x100xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %s = arith.subf %a, %m : f32
    %e = math.exp %s : f32
    linalg.yield %e : f32
  } -> tensor<36x100xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<36x1xf32>) -> tensor<36x1xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<36x100xf32>) outs(%f1 : tensor<36x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<36x1xf32>
  %div = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<36x100xf32>, tensor<36x1xf32>) outs(%e1 : tensor<36x100xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %d = arith.divf %a, %s : f32
    linalg.yield %d : f32
  } -> tensor<36x100xf32>
  return %div : tensor<36x100xf32>
}
func.func @softmax(%x: tensor<36x100xf32>) -> tensor<36x100xf32> {
  %0 = call @cpu_red_fused_reduce_max_sub_exp_reduce_sum_div_0(%x) : (tensor<36x100xf32>) -> tensor<36x100xf32>
  return %0 : tensor<36x100xf32>
}
