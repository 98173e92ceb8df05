// Composite ops (decomposed by graph-decompose, fused by form-kernels) vs the reference,
// which evaluates them from their definitions. Softmax also over the non-last dim.
// RUN: braze check %s --seed 11 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS @softmaxes out2 1000x37xf32
// CHECK: PASS @norms out2 7x37x5xf32
// CHECK: check passed

func.func @softmaxes(%x: tensor<1000x37xf32>) -> (tensor<1000x37xf32>, tensor<1000x37xf32>, tensor<1000x37xf32>) {
  %0 = "graph.softmax"(%x) {dim = 1 : i64} : (tensor<1000x37xf32>) -> tensor<1000x37xf32>
  %1 = "graph.softmax"(%x) {dim = 0 : i64} : (tensor<1000x37xf32>) -> tensor<1000x37xf32>
  %2 = "graph.log_softmax"(%x) {dim = 1 : i64} : (tensor<1000x37xf32>) -> tensor<1000x37xf32>
  return %0, %1, %2 : tensor<1000x37xf32>, tensor<1000x37xf32>, tensor<1000x37xf32>
}

func.func @norms(%x: tensor<7x37x5xf32>, %w: tensor<37x5xf32>, %b: tensor<37x5xf32>, %w5: tensor<5xf32>,
                 %s: tensor<37xf32>, %bb: tensor<37xf32>, %m: tensor<37xf32>, %v: tensor<37xf32>)
    -> (tensor<7x37x5xf32>, tensor<7x37x5xf32>, tensor<7x37x5xf32>) {
  %0 = "graph.layer_norm"(%x, %w, %b) {axis = 1 : i64, eps = 1.0e-05 : f32} : (tensor<7x37x5xf32>, tensor<37x5xf32>, tensor<37x5xf32>) -> tensor<7x37x5xf32>
  %1 = "graph.rms_norm"(%x, %w5) {axis = 2 : i64, eps = 1.0e-06 : f32} : (tensor<7x37x5xf32>, tensor<5xf32>) -> tensor<7x37x5xf32>
  %va = "graph.abs"(%v) : (tensor<37xf32>) -> tensor<37xf32>
  %2 = "graph.batch_norm"(%x, %s, %bb, %m, %va) {eps = 1.0e-05 : f32} : (tensor<7x37x5xf32>, tensor<37xf32>, tensor<37xf32>, tensor<37xf32>, tensor<37xf32>) -> tensor<7x37x5xf32>
  return %0, %1, %2 : tensor<7x37x5xf32>, tensor<7x37x5xf32>, tensor<7x37x5xf32>
}
