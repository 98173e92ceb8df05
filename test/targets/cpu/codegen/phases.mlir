// A kernel whose ops share no outer space: several phases in sequence. A value
// read by a later phase lives in a kernel buffer (memref.alloc, freed at the end);
// concat is copies into the result; a column reduction (reduced dim outermost, 6
// rows: a window reduction, targets/cpu/codegen/window.c) keeps a vector of columns
// in registers over the rows (test/targets/cpu/codegen/window.mlir: the memory form
// of longer columns).
// RUN: braze-opt --cpu=x86-64-v4 %s --cpu-codegen="remarks lanes=16" 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: braze-opt --cpu=x86-64-v4 %s --cpu-codegen -o %t.mlir
// RUN: sh %S/Inputs/lower.sh %t.mlir %S/Inputs/phases_main.c %t.exe
// RUN: %t.exe | FileCheck %s --check-prefix=NUM

// CHECK-LABEL: func.func private @k_mix
// CHECK-SAME: (%[[X:.*]]: memref<6x7xf32>, %[[Y:.*]]: memref<6x9xf32>, %[[CAT:.*]]: memref<6x16xf32>, %[[CS:.*]]: memref<16xf32>)
// CHECK: %[[T:.*]] = memref.alloc() {alignment = 64 : i64} : memref<6x9xf32>
// CHECK: scf.parallel (%[[I:.*]]) = (%c0) to (%c6) step (%c1) {
// CHECK: memref.store %{{.*}}, %[[T]][%[[I]], %{{.*}}] : memref<6x9xf32>
// CHECK: scf.parallel (%[[I1:.*]]) = (%c0) to (%c6) step (%c1) {
// CHECK-NEXT: scf.for %[[J1:.*]] = %c0 to %c7 step %c1 {
// CHECK-NEXT: %[[V:.*]] = memref.load %[[X]][%[[I1]], %[[J1]]]
// CHECK-NEXT: memref.store %[[V]], %[[CAT]][%[[I1]], %[[J1]]]
// CHECK: scf.parallel (%[[I2:.*]]) = (%c0) to (%c6) step (%c1) {
// CHECK-NEXT: scf.for %[[J2:.*]] = %c0 to %c9 step %c1 {
// CHECK-NEXT: %[[V2:.*]] = memref.load %[[T]][%[[I2]], %[[J2]]]
// CHECK-NEXT: %[[OFF:.*]] = arith.addi %c7, %[[J2]] : index
// CHECK-NEXT: memref.store %[[V2]], %[[CAT]][%[[I2]], %[[OFF]]]
// CHECK: scf.for %[[C:.*]] = %c0 to %c16 step %c16 {
// CHECK-NEXT: %[[ZERO:.*]] = vector.broadcast %{{.*}} : f32 to vector<16xf32>
// CHECK-NEXT: %[[SUM:.*]] = scf.for %[[R:.*]] = %c0 to %c6 step %c1 iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (vector<16xf32>) {
// CHECK-NEXT: %[[ROW:.*]] = vector.load %[[CAT]][%[[R]], %[[C]]] : memref<6x16xf32>, vector<16xf32>
// CHECK-NEXT: %[[ADD:.*]] = arith.addf %[[ROW]], %[[ACC]] fastmath<reassoc,contract> : vector<16xf32>
// CHECK-NEXT: scf.yield %[[ADD]]
// CHECK: vector.store %[[SUM]], %[[CS]][%[[C]]] : memref<16xf32>, vector<16xf32>
// CHECK: memref.dealloc %[[T]] : memref<6x9xf32>
// CHECK-NEXT: return

// REMARK: kernel @k_mix: 4 phase(s); [0] parallel 6, 1 item(s); [1] sequential, 1 item(s); [2] sequential, 1 item(s); [3] sequential, 1 item(s); 0 register reduction(s), 0 row buffer(s), 1 kernel buffer(s)
// NUM: phases: OK

func.func private @k_mix(%x: tensor<6x7xf32>, %y: tensor<6x9xf32>) -> (tensor<6x16xf32>, tensor<16xf32>) attributes {kernel.kind = "red", kernel.ops = ["mul", "concat", "reduce_sum"]} {
  %e = tensor.empty() : tensor<6x9xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<6x9xf32>) outs(%e : tensor<6x9xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 2.0 : f32
    %m = arith.mulf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<6x9xf32>
  %ec = tensor.empty() : tensor<6x16xf32>
  %c0 = tensor.insert_slice %x into %ec[0, 0] [6, 7] [1, 1] : tensor<6x7xf32> into tensor<6x16xf32>
  %c1 = tensor.insert_slice %t into %c0[0, 7] [6, 9] [1, 1] : tensor<6x9xf32> into tensor<6x16xf32>
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%es : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
      ins(%c1 : tensor<6x16xf32>) outs(%f : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  return %c1, %s : tensor<6x16xf32>, tensor<16xf32>
}
func.func @g(%x: tensor<6x7xf32>, %y: tensor<6x9xf32>) -> (tensor<6x16xf32>, tensor<16xf32>) {
  %0:2 = call @k_mix(%x, %y) : (tensor<6x7xf32>, tensor<6x9xf32>) -> (tensor<6x16xf32>, tensor<16xf32>)
  return %0#0, %0#1 : tensor<6x16xf32>, tensor<16xf32>
}
