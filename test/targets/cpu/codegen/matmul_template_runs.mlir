// Runs of A (targets/cpu/matmul/a-runs.c, decision 0019): a tem kernel whose A is read
// through a window map (a conv's implicit GEMM: k split into kernel row, kernel column
// and channel by floordiv/mod) gets its k loop split into runs of R k values along
// which A's address grows by one for every row: one address per row and run, then A
// read as a collapsed 1-D memref at address + j. Here A [6, 6, 4] (a padded
// channels-last 6x6 input, 4 channels), M = 16 output positions of a 3x3 window, K = 36:
// a window row is KW C = 12 contiguous floats, so R = 12. A window of single-channel
// rows (C = 1: runs of KW = 3 < 4) and a map whose k steps are not unit (a transposed
// read) keep the plain k loop, the remark says why. Numerics of this path: test/e2e/conv-window.mlir.
// RUN: braze-opt --cpu=x86-64-v4 %s --cpu-codegen="remarks lanes=16" 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks

#win = affine_map<(d0, d1, d2) -> (d0 floordiv 4 + d2 floordiv 12, d0 mod 4 + (d2 floordiv 4) mod 3, d2 mod 4)>
#win1 = affine_map<(d0, d1, d2) -> (d0 floordiv 4 + d2 floordiv 3, d0 mod 4 + d2 mod 3)>
#km = affine_map<(d0, d1, d2) -> (d2, d0)>
#kn = affine_map<(d0, d1, d2) -> (d2, d1)>
#mn = affine_map<(d0, d1, d2) -> (d0, d1)>

// CHECK-LABEL: func.func private @window_runs(
// CHECK-SAME: braze.template = "gemm mr=6 nr=32 mc={{[0-9]+}} vw=16 a-run=12 b=packed-per-panel"
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %arg0 {{\[\[}}0, 1, 2]] : memref<6x6x4xf32> into memref<144xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args(
// CHECK: scf.for %[[J:.*]] = %c0 to %c12 step %c1 iter_args(
// CHECK: %[[K:.*]] = arith.addi %{{.*}}, %[[J]] : index
// CHECK-NEXT: vector.load %{{.*}}[%[[K]], %c0]
// CHECK: %[[AT:.*]] = arith.addi %{{.*}}, %[[J]] : index
// CHECK-NEXT: memref.load %[[FLAT]][%[[AT]]] : memref<144xf32>
// REMARK: kernel @window_runs: matmul template gemm mr=6 nr=32 mc={{[0-9]+}} vw=16 a-run=12 b=packed-per-panel, 16x8x36
func.func private @window_runs(%a: tensor<6x6x4xf32>, %b: tensor<36x8xf32>) -> tensor<16x8xf32> attributes {kernel.kind = "tem", kernel.ops = ["matmul"]} {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %r = linalg.generic {indexing_maps = [#win, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<6x6x4xf32>, tensor<36x8xf32>) outs(%f : tensor<16x8xf32>) attrs = {braze.ops = ["matmul"]} {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  } -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// CHECK-LABEL: func.func private @short_runs(
// CHECK-SAME: braze.template = "gemm mr=6 nr=32 mc={{[0-9]+}} vw=16 b=packed-per-panel"
// CHECK-NOT: memref.collapse_shape
// CHECK: return
// REMARK: kernel @short_runs: matmul template gemm {{.*}}, 16x8x9, 1 panel(s), epilogue of 0 generic(s), A read per k through its map (no run of 4 or more k values contiguous in memory)
func.func private @short_runs(%a: tensor<6x6xf32>, %b: tensor<9x8xf32>) -> tensor<16x8xf32> attributes {kernel.kind = "tem", kernel.ops = ["matmul"]} {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %r = linalg.generic {indexing_maps = [#win1, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<6x6xf32>, tensor<9x8xf32>) outs(%f : tensor<16x8xf32>) attrs = {braze.ops = ["matmul"]} {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  } -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// A transposed A (k strides by M): no run at all.
// REMARK: kernel @transposed_a: matmul template gemm {{.*}}, A read per k through its map (no run of 4 or more k values contiguous in memory)
func.func private @transposed_a(%a: tensor<12x16xf32>, %b: tensor<12x8xf32>) -> tensor<16x8xf32> attributes {kernel.kind = "tem", kernel.ops = ["matmul"]} {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %r = linalg.generic {indexing_maps = [#km, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<12x16xf32>, tensor<12x8xf32>) outs(%f : tensor<16x8xf32>) attrs = {braze.ops = ["matmul"]} {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  } -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}
