// Loop order of a matmul by B's layout. Normal B (k,n): i-k-j, the output row
// accumulated in memory along contiguous j. Transposed B (linear: W is n x k, read
// through (m,n,k)->(n,k)): the i-k-j order would read B with stride K, so the
// contraction runs i-j-k, the reduction innermost as a dot product in iter_args
// (fastmath reassoc: LLVM vectorizes it).
// RUN: braze-opt %s --graph-verify --graph-decompose --graph-simplify --graph-to-loops --inline-unrealized --form-kernels --cpu-codegen | FileCheck %s
// RUN: braze check %s --seed 5 | FileCheck %s --check-prefix=NUM

// CHECK-LABEL: func.func private @cpu_tem_fused_matmul_0(
// CHECK-SAME: %[[A:.*]]: memref<9x37xf32>, %[[B:.*]]: memref<37x13xf32>, %[[Y:.*]]: memref<9x13xf32>)
// CHECK: scf.parallel (%[[I:.*]]) = (%c0) to (%c9) step (%c1) {
// CHECK: scf.for %[[K:.*]] = %c0 to %c37 step %c1 {
// CHECK-NEXT: memref.load %[[A]][%[[I]], %[[K]]]
// CHECK-NEXT: scf.for %[[J:.*]] = %c0 to %c13 step %c1 {
// CHECK-NEXT: memref.load %[[B]][%[[K]], %[[J]]]
// CHECK-NOT: iter_args
// CHECK: scf.reduce

// CHECK-LABEL: func.func private @cpu_tem_fused_matmul_1(
// CHECK-SAME: %[[X:.*]]: memref<9x37xf32>, %[[W:.*]]: memref<13x37xf32>
// CHECK: scf.parallel (%[[I:.*]]) = (%c0) to (%c9) step (%c1) {
// CHECK: scf.for %[[J:.*]] = %c0 to %c13 step %c1 {
// CHECK: scf.for %[[K:.*]] = %c0 to %c37 step %c1 iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK-DAG: memref.load %[[X]][%[[I]], %[[K]]]
// CHECK-DAG: memref.load %[[W]][%[[J]], %[[K]]]
// CHECK: arith.mulf {{.*}} fastmath<reassoc,contract> : f32
// CHECK-NEXT: arith.addf {{.*}} fastmath<reassoc,contract> : f32
// CHECK-NEXT: scf.yield

// NUM-NOT: FAIL
// NUM: PASS @matmul out0 9x13xf32
// NUM: PASS @linear out0 9x13xf32
// NUM: PASS @batch_linear out0 2x9x13xf32
// NUM: check passed

func.func @matmul(%a: tensor<9x37xf32>, %b: tensor<37x13xf32>) -> tensor<9x13xf32> {
  %0 = "graph.matmul"(%a, %b) : (tensor<9x37xf32>, tensor<37x13xf32>) -> tensor<9x13xf32>
  return %0 : tensor<9x13xf32>
}

func.func @linear(%x: tensor<9x37xf32>, %w: tensor<13x37xf32>, %b: tensor<13xf32>) -> tensor<9x13xf32> {
  %0 = "graph.linear"(%x, %w, %b) : (tensor<9x37xf32>, tensor<13x37xf32>, tensor<13xf32>) -> tensor<9x13xf32>
  return %0 : tensor<9x13xf32>
}

func.func @batch_linear(%x: tensor<2x9x37xf32>, %w: tensor<13x37xf32>, %b: tensor<13xf32>) -> tensor<2x9x13xf32> {
  %0 = "graph.linear"(%x, %w, %b) : (tensor<2x9x37xf32>, tensor<13x37xf32>, tensor<13xf32>) -> tensor<2x9x13xf32>
  return %0 : tensor<2x9x13xf32>
}
