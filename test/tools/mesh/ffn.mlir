// Megatron's FFN (W1 column split, W2 row split: one all_reduce) simulated on meshes
// of 1, 2 and 4 devices and on a 2x2 mesh with the batch split over dp too, each
// checked against the unpartitioned reference; `braze run --mesh` outputs agree with
// the unpartitioned run to rtol 1e-4, atol 1e-3 (each rank's partial product is
// rounded to f32 before the all_reduce sums them).
// RUN: braze check %s --mesh=tp:1 | FileCheck %s --check-prefixes=CHECK,ONE
// RUN: braze check %s --mesh=tp:2 | FileCheck %s --check-prefixes=CHECK,TWO
// RUN: braze check %s --mesh=tp:4 | FileCheck %s --check-prefixes=CHECK,FOUR
// RUN: braze check %s --mesh=func | FileCheck %s --check-prefixes=CHECK,FUNC
// RUN: braze check %s --mesh=dp:2,tp:2 | FileCheck %s --check-prefixes=CHECK,GRID
// The function's other axis (dp) stays in the mesh at size 1 when mesh= omits it:
// ONE: simulated on mesh tp=1 x dp=1 (1 device)
// TWO: simulated on mesh tp=2 x dp=1 (2 devices)
// FOUR: simulated on mesh tp=4 x dp=1 (4 devices)
// FUNC: simulated on mesh dp=1 x tp=2 (2 devices)
// GRID: simulated on mesh dp=2 x tp=2 (4 devices)
// CHECK-NEXT: PASS @ffn out0 8x64xf32
// CHECK-NEXT: check passed
// RUN: rm -rf %t && mkdir -p %t/ref %t/tp4 %t/grid
// RUN: braze run %s --save-outputs %t/ref --quiet
// RUN: braze run %s --mesh=tp:4 --save-outputs %t/tp4 --quiet
// RUN: braze run %s --mesh=dp:2,tp:2 --print 3 --save-outputs %t/grid | FileCheck %s --check-prefix=SIM
// RUN: %python %braze_src/test/passes/graph/graph-decompose/Inputs/compare_outputs.py %t/ref %t/tp4 1e-4 1e-3 | FileCheck %s --check-prefix=SAME
// RUN: %python %braze_src/test/passes/graph/graph-decompose/Inputs/compare_outputs.py %t/ref %t/grid 1e-4 1e-3 | FileCheck %s --check-prefix=SAME
// SIM: @ffn: 1 output
// SIM-NEXT: simulated on mesh dp=2 x tp=2 (4 devices)
// SIM-NEXT: out0: tensor<8x64xf32>
// SAME: ok out0.npy float32[8, 64]
func.func @ffn(%x: tensor<8x64xf32> {braze.sharding = [["dp"], []]},
               %w1: tensor<64x256xf32> {braze.sharding = [[], ["tp"]]},
               %b1: tensor<256xf32> {braze.sharding = [["tp"]]},
               %w2: tensor<256x64xf32> {braze.sharding = [["tp"], []]})
    -> (tensor<8x64xf32> {braze.sharding = [["dp"], []]}) attributes {braze.mesh = [["dp", 1], ["tp", 2]]} {
  %h = "graph.matmul"(%x, %w1) : (tensor<8x64xf32>, tensor<64x256xf32>) -> tensor<8x256xf32>
  %hb = "graph.add"(%h, %b1) : (tensor<8x256xf32>, tensor<256xf32>) -> tensor<8x256xf32>
  %g = "graph.gelu"(%hb) {approximate = "tanh"} : (tensor<8x256xf32>) -> tensor<8x256xf32>
  %y = "graph.matmul"(%g, %w2) : (tensor<8x256xf32>, tensor<256x64xf32>) -> tensor<8x64xf32>
  %r = "graph.add"(%y, %x) : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}
