// The decomposed graph computes what the composites compute: the reference
// interpreter (which evaluates composites from their definitions, in double) gives
// the same outputs, on the same seeded inputs, before and after graph-decompose
// (with and without decompose-mean, and followed by graph-simplify), to within a
// few f32 ulps (every primitive rounds to f32).
// RUN: rm -rf %t && mkdir -p %t/before %t/after %t/mean %t/simplified
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose -o %t/decomposed.mlir
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose=decompose-mean -o %t/mean.mlir
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose --graph-simplify -o %t/simplified.mlir
// RUN: braze run %s --func all --seed 1 --save-outputs %t/before --quiet
// RUN: braze run %t/decomposed.mlir --func all --seed 1 --save-outputs %t/after --quiet
// RUN: braze run %t/mean.mlir --func all --seed 1 --save-outputs %t/mean --quiet
// RUN: braze run %t/simplified.mlir --func all --seed 1 --save-outputs %t/simplified --quiet
// RUN: %python %S/Inputs/compare_outputs.py %t/before %t/after 1e-5 1e-6 | FileCheck %s
// RUN: %python %S/Inputs/compare_outputs.py %t/before %t/mean 1e-5 1e-6 | FileCheck %s
// RUN: %python %S/Inputs/compare_outputs.py %t/before %t/simplified 1e-5 1e-6 | FileCheck %s
// The comparison can fail: the same module with layer_norm's eps changed is caught.
// RUN: sed '/graph.layer_norm/s/eps = 1.0e-05/eps = 1.0e-01/' %s > %t/perturbed.mlir
// RUN: braze run %t/perturbed.mlir --func all --seed 1 --save-outputs %t/perturbed --quiet
// RUN: not %python %S/Inputs/compare_outputs.py %t/before %t/perturbed 1e-5 1e-6 | FileCheck %s --check-prefix=BAD

// CHECK: ok out0.npy float32[4, 16]
// CHECK: ok out1.npy float32[4, 16]
// CHECK: ok out2.npy float32[4, 16]
// CHECK: ok out3.npy float32[4, 16]
// CHECK: ok out4.npy float32[2, 3, 4, 5]
// CHECK: ok out5.npy float32[2, 4, 8]
// CHECK: ok out6.npy float32[4, 16]
// CHECK: ok out7.npy float32[4, 16]
// CHECK: ok out8.npy float32[4, 16]
// CHECK: ok out9.npy float32[4]
// CHECK: ok out10.npy float32[4, 1]
// BAD: out2.npy: mismatch
func.func @all(%x: tensor<4x16xf32>, %w: tensor<16xf32>, %b: tensor<16xf32>, %x4: tensor<2x3x4x5xf32>,
               %c: tensor<3xf32>, %cb: tensor<3xf32>, %cm: tensor<3xf32>, %cv: tensor<3xf32>,
               %x3: tensor<2x4x16xf32>, %lw: tensor<8x16xf32>, %lb: tensor<8xf32>)
    -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<2x3x4x5xf32>,
        tensor<2x4x8xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4xf32>, tensor<4x1xf32>) {
  %0 = "graph.softmax"(%x) {dim = 1 : i64} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = "graph.log_softmax"(%x) {dim = 0 : i64} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %2 = "graph.layer_norm"(%x, %w, %b) {axis = 1 : i64, eps = 1.0e-05 : f32} : (tensor<4x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %3 = "graph.rms_norm"(%x, %w) {axis = 1 : i64, eps = 1.0e-06 : f32} : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  // Variances must be positive.
  %var = "graph.exp"(%cv) : (tensor<3xf32>) -> tensor<3xf32>
  %4 = "graph.batch_norm"(%x4, %c, %cb, %cm, %var) {eps = 1.0e-05 : f32} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x5xf32>
  %5 = "graph.linear"(%x3, %lw, %lb) : (tensor<2x4x16xf32>, tensor<8x16xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
  %6 = "graph.gelu"(%x) {approximate = "none"} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %7 = "graph.gelu"(%x) {approximate = "tanh"} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %8 = "graph.silu"(%x) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %9 = "graph.reduce_var"(%x) {dims = array<i64: 1>, keepdim = false, correction = 1 : i64} : (tensor<4x16xf32>) -> tensor<4xf32>
  %10 = "graph.reduce_mean"(%x) {dims = array<i64: 1>, keepdim = true} : (tensor<4x16xf32>) -> tensor<4x1xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<2x3x4x5xf32>, tensor<2x4x8xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4xf32>, tensor<4x1xf32>
}
