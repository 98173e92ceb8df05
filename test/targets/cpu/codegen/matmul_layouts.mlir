// Loop order of a matmul by B's layout. Normal B (k,n): i-k-j, the output row
// accumulated in memory along contiguous j. Transposed B (linear: W is n x k, read
// through (m,n,k)->(n,k)): the i-k-j order would read B with stride K, so the
// contraction runs i-j-k, the reduction innermost as dot products in iter_args
// (fastmath reassoc: LLVM vectorizes them), 4 columns of the row at a time (one
// X load feeds 4 accumulators), then the remaining columns one at a time.
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-verify --graph-decompose --graph-simplify --graph-to-loops --inline-unrealized --form-kernels=epilogue-templates=false --cpu-codegen=matmul=loops | FileCheck %s
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

// CHECK-LABEL: func.func private @cpu_tem_fused_linear_1(
// CHECK-SAME: %[[X:.*]]: memref<9x37xf32>, %[[W:.*]]: memref<13x37xf32>
// CHECK: scf.parallel (%[[I:.*]]) = (%c0) to (%c9) step (%c1) {
// CHECK-NEXT: scf.for %[[JB:.*]] = %c0 to %c3 step %c1 {
// CHECK-NEXT: %[[J0:.*]] = arith.muli %[[JB]], %c4
// CHECK-NEXT: %[[J1:.*]] = arith.addi %[[J0]], %c1
// CHECK-NEXT: %[[J2:.*]] = arith.addi %[[J0]], %c2
// CHECK-NEXT: %[[J3:.*]] = arith.addi %[[J0]], %c3
// CHECK-NEXT: %[[R:.*]]:4 = scf.for %[[K:.*]] = %c0 to %c37 step %c1 iter_args(%[[A0:.*]] = %cst, %[[A1:.*]] = %cst, %[[A2:.*]] = %cst, %[[A3:.*]] = %cst) -> (f32, f32, f32, f32) {
// CHECK-NEXT: %[[XV:.*]] = memref.load %[[X]][%[[I]], %[[K]]]
// CHECK-NEXT: %[[W0:.*]] = memref.load %[[W]][%[[J0]], %[[K]]]
// CHECK-NEXT: %[[P0:.*]] = arith.mulf %[[XV]], %[[W0]] fastmath<reassoc,contract> : f32
// CHECK-NEXT: arith.addf %[[P0]], %[[A0]] fastmath<reassoc,contract> : f32
// CHECK-NEXT: memref.load %[[W]][%[[J1]], %[[K]]]
// CHECK-NOT: memref.load %[[X]]
// CHECK: memref.load %[[W]][%[[J3]], %[[K]]]
// CHECK: scf.yield
// CHECK: memref.store %[[R]]#0, %{{.*}}[%[[I]], %[[J0]]]
// CHECK: memref.store %[[R]]#3, %{{.*}}[%[[I]], %[[J3]]]
// Column 12, the remainder: one dot product.
// CHECK: scf.for %[[J:.*]] = %c12 to %c13 step %c1 {
// CHECK-NEXT: scf.for %[[K2:.*]] = %c0 to %c37 step %c1 iter_args(%{{.*}} = %cst) -> (f32) {
// CHECK-NEXT: memref.load %[[X]][%[[I]], %[[K2]]]
// CHECK-NEXT: memref.load %[[W]][%[[J]], %[[K2]]]

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
