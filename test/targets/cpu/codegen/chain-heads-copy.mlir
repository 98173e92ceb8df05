// cpu-codegen on a chain whose first block kernel reads attention's heads back as rows
// (issue 41): transpose [H, S, Dh] -> [S, H, Dh], reshape to [S, H * Dh], the
// out-projection, residual, layer norm and an FFN, as exporters write an encoder. A row
// block of the heads is a [H, rows, Dh] subview, strided<[S * Dh, Dh, 1]>: not dense.
// The template reads A in runs of Dh values through a collapse of A to one dim, which
// a strided block cannot take ('memref.collapse_shape' op ... collapsing non-contiguous
// dims, before this test), so the chain copies the block into the iteration's scratch
// and the template keeps its dense A. A subview that is dense (the residual's rows) or an
// argument read only through indices keeps its strided type.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{horizontal-templates pad-templates},form-row-chains{rows=8},cpu-codegen)' | FileCheck %s
// The default pipeline (its own block size) for the host, and blocks of 8 rows for
// x86-64-v3, against the reference.
// RUN: braze check %s --seed 1 | FileCheck %s --check-prefix=RESULT
// RUN: braze check %s --cpu=x86-64-v3 --seed 2 --pipeline=%braze_src/test/e2e/Inputs/cpu-row-chains-rows8.pipeline | FileCheck %s --check-prefix=RESULT

// CHECK-LABEL: func.func private @cpu_tem_fused_linear_0_rows(%arg0: memref<4x8x16xf32>,
// CHECK: memref.collapse_shape %arg0 {{\[}}[0, 1, 2]] : memref<4x8x16xf32> into memref<512xf32>
// CHECK-LABEL: func.func private @cpu_chain_fused_linear_linear_add_layer_norm_linear_relu_0(
// CHECK: scf.parallel
// CHECK: %[[HEADS:.*]] = memref.subview %arg0[0, %{{.*}}, 0] [4, 8, 16] [1, 1, 1] : memref<4x32x16xf32> to memref<4x8x16xf32, strided<[512, 16, 1], offset: ?>>
// CHECK: %[[RES:.*]] = memref.subview %arg2[%{{.*}}, 0] [8, 64] [1, 1] : memref<32x64xf32> to memref<8x64xf32, strided<[64, 1], offset: ?>>
// CHECK: %[[DENSE:.*]] = memref.alloca() {alignment = 64 : i64} : memref<4x8x16xf32>
// CHECK: scf.for %[[H:.*]] = %c0 to %c4
// CHECK: scf.for %[[M:.*]] = %c0 to %c8
// CHECK: scf.for %[[D:.*]] = %c0 to %c16
// CHECK: %[[X:.*]] = memref.load %[[HEADS]][%[[H]], %[[M]], %[[D]]]
// CHECK: memref.store %[[X]], %[[DENSE]][%[[H]], %[[M]], %[[D]]] : memref<4x8x16xf32>
// CHECK: func.call @cpu_tem_fused_linear_0_rows(%[[DENSE]], %arg1, %{{.*}}) : (memref<4x8x16xf32>,
// CHECK: func.call @cpu_per_fused_linear_add_layer_norm_1_rows(%[[RES]], {{.*}} : (memref<8x64xf32, strided<[64, 1], offset: ?>>,

// RESULT: PASS  @out_proj
// RESULT: check passed

func.func @out_proj(%a: tensor<4x32x16xf32>, %w: tensor<64x64xf32>, %b: tensor<64xf32>, %x: tensor<32x64xf32>,
                    %g: tensor<64xf32>, %beta: tensor<64xf32>, %w1: tensor<128x64xf32>, %b1: tensor<128xf32>,
                    %w2: tensor<64x128xf32>, %b2: tensor<64xf32>) -> tensor<32x64xf32> {
  %t = "graph.transpose"(%a) {perm = array<i64: 1, 0, 2>} : (tensor<4x32x16xf32>) -> tensor<32x4x16xf32>
  %r = "graph.reshape"(%t) : (tensor<32x4x16xf32>) -> tensor<32x64xf32>
  %p = "graph.linear"(%r, %w, %b) : (tensor<32x64xf32>, tensor<64x64xf32>, tensor<64xf32>) -> tensor<32x64xf32>
  %s = "graph.add"(%x, %p) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  %n = "graph.layer_norm"(%s, %g, %beta) {axis = 1 : i64, eps = 1.0e-5 : f32} : (tensor<32x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<32x64xf32>
  %h = "graph.linear"(%n, %w1, %b1) : (tensor<32x64xf32>, tensor<128x64xf32>, tensor<128xf32>) -> tensor<32x128xf32>
  %hr = "graph.relu"(%h) : (tensor<32x128xf32>) -> tensor<32x128xf32>
  %f = "graph.linear"(%hr, %w2, %b2) : (tensor<32x128xf32>, tensor<64x128xf32>, tensor<64xf32>) -> tensor<32x64xf32>
  %y = "graph.add"(%s, %f) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  return %y : tensor<32x64xf32>
}
