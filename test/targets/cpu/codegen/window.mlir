// Window reductions (pooling: [n, oh, ow, kh, kw, c] reduced over kh, kw; the
// innermost dim parallel, at most 64 elements reduced per output element): each
// output element's accumulator stays in registers. The channel loop runs outside in
// steps of up to 4 vectors of `lanes` (8 here: the 2 full vectors of 20 channels in
// one step, no loop left), the window's loops inside it carry one vector per step's
// vector in iter_args (the gather's index and mask computed once for all of them),
// one vector.store per output vector; the channels past the last full vector
// (20 = 2 x 8 + 4) the same on scalars. The padding's gather-select (a
// pointwise producer read only by the reduction, at the element it computes) is
// computed inside the window loop: no row buffer. Its mask and index stay scalars
// (they do not depend on the channel); the gathered row is a vector load, the
// select takes the scalar mask. Before: the producer into a 3x3x20 alloca, the
// output initialized, then a load-max-store of the output per window position.
// On NCHW (the channels not contiguous) the window loops still run inside the channel
// loop with a scalar accumulator. A reduction over more than 64 elements per output
// (a column max over 100 rows) keeps the memory form: row after row, contiguous.
// Numerics: test/e2e/window-reductions.mlir.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(func.func(graph-to-loops,inline-unrealized),form-kernels,cpu-codegen{lanes=8 remarks},canonicalize,cse)' 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks

// CHECK-LABEL: func.func private @cpu_per_fused_reshape_gather_select_window_reduce_max_0(
// CHECK-SAME: %[[MASK:.*]]: memref<121x1xi1>, %[[IDX:.*]]: memref<121xi32>, %[[X:.*]]: memref<2x9x9x20xf32>, %[[Y:.*]]: memref<2x5x5x20xf32>)
// CHECK-NOT: memref.alloca
// CHECK: scf.parallel (%[[N:.*]], %[[OH:.*]], %[[OW:.*]]) = (%c0, %c0, %c0) to (%c2, %c5, %c5)
// CHECK-NEXT: %[[ACC:.*]]:2 = scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args(%[[A0:.*]] = %[[NEGINF:.*]], %[[A1:.*]] = %[[NEGINF]]) -> (vector<8xf32>, vector<8xf32>) {
// CHECK-NEXT: %[[INNER:.*]]:2 = scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args(%[[B0:.*]] = %[[A0]], %[[B1:.*]] = %[[A1]]) -> (vector<8xf32>, vector<8xf32>) {
// CHECK: %[[M:.*]] = memref.load %[[MASK]]
// CHECK: %[[I:.*]] = memref.load %[[IDX]]
// CHECK: %[[ROW0:.*]] = vector.load %[[X]][%[[N]], %[[H:.*]], %[[W:.*]], %c0] : memref<2x9x9x20xf32>, vector<8xf32>
// CHECK-NEXT: %[[SEL0:.*]] = arith.select %[[M]], %[[ROW0]], %[[NEGINF]] : vector<8xf32>
// CHECK-NEXT: %[[MAX0:.*]] = arith.maximumf %[[SEL0]], %[[B0]] fastmath<reassoc,nsz,contract> : vector<8xf32>
// CHECK-NEXT: %[[ROW1:.*]] = vector.load %[[X]][%[[N]], %[[H]], %[[W]], %c8] : memref<2x9x9x20xf32>, vector<8xf32>
// CHECK-NEXT: %[[SEL1:.*]] = arith.select %[[M]], %[[ROW1]], %[[NEGINF]] : vector<8xf32>
// CHECK-NEXT: %[[MAX1:.*]] = arith.maximumf %[[SEL1]], %[[B1]] fastmath<reassoc,nsz,contract> : vector<8xf32>
// CHECK-NEXT: scf.yield %[[MAX0]], %[[MAX1]] : vector<8xf32>, vector<8xf32>
// CHECK: scf.yield %[[INNER]]#0, %[[INNER]]#1 : vector<8xf32>, vector<8xf32>
// CHECK: vector.store %[[ACC]]#0, %[[Y]][%[[N]], %[[OH]], %[[OW]], %c0] : memref<2x5x5x20xf32>, vector<8xf32>
// CHECK-NEXT: vector.store %[[ACC]]#1, %[[Y]][%[[N]], %[[OH]], %[[OW]], %c8] : memref<2x5x5x20xf32>, vector<8xf32>
// CHECK: scf.for %[[CS:.*]] = %c16 to %c20 step %c1 {
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (f32)
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (f32)
// CHECK: memref.load %[[X]][%[[N]], %{{.*}}, %{{.*}}, %[[CS]]] : memref<2x9x9x20xf32>
// CHECK: arith.maximumf {{.*}} : f32
// CHECK: memref.store %{{.*}}, %[[Y]][%[[N]], %[[OH]], %[[OW]], %[[CS]]]
// REMARK: kernel @cpu_per_fused_reshape_gather_select_window_reduce_max_0: 1 phase(s); [0] parallel 2x5x5, 2 item(s); 0 register reduction(s), 0 row buffer(s), 0 kernel buffer(s); 1 value(s) computed inside a window reduction
func.func @max_pool_nhwc(%x: tensor<2x9x9x20xf32>) -> tensor<2x5x5x20xf32> {
  %1 = "graph.reshape"(%x) : (tensor<2x9x9x20xf32>) -> tensor<2x81x20xf32>
  %2 = "graph.constant"() {value = dense<"0x0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001000000020000000300000004000000050000000600000007000000080000000000000000000000090000000A0000000B0000000C0000000D0000000E0000000F0000001000000011000000000000000000000012000000130000001400000015000000160000001700000018000000190000001A00000000000000000000001B0000001C0000001D0000001E0000001F0000002000000021000000220000002300000000000000000000002400000025000000260000002700000028000000290000002A0000002B0000002C00000000000000000000002D0000002E0000002F0000003000000031000000320000003300000034000000350000000000000000000000360000003700000038000000390000003A0000003B0000003C0000003D0000003E00000000000000000000003F0000004000000041000000420000004300000044000000450000004600000047000000000000000000000048000000490000004A0000004B0000004C0000004D0000004E0000004F00000050000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"> : tensor<121xi32>} : () -> tensor<121xi32>
  %3 = "graph.constant"() {value = dense<"0x00F09FFFFCE73FFFF9CF7FFEF31F0000"> : tensor<121x1xi1>} : () -> tensor<121x1xi1>
  %4 = "graph.gather"(%1, %2) {axis = 1 : i64} : (tensor<2x81x20xf32>, tensor<121xi32>) -> tensor<2x121x20xf32>
  %5 = "graph.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %6 = "graph.select"(%3, %4, %5) : (tensor<121x1xi1>, tensor<2x121x20xf32>, tensor<f32>) -> tensor<2x121x20xf32>
  %7 = "graph.reshape"(%6) : (tensor<2x121x20xf32>) -> tensor<2x11x11x20xf32>
  %8 = "graph.window"(%7) {dilations = array<i64: 1, 1>, kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<2x11x11x20xf32>) -> tensor<2x5x5x3x3x20xf32>
  %9 = "graph.reduce_max"(%8) {dims = array<i64: 3, 4>, keepdim = false} : (tensor<2x5x5x3x3x20xf32>) -> tensor<2x5x5x20xf32>
  return %9 : tensor<2x5x5x20xf32>
}

// CHECK-LABEL: func.func private @cpu_per_fused_window_reduce_max_1(
// CHECK-SAME: %[[X:.*]]: memref<2x20x9x9xf32>, %[[Y:.*]]: memref<2x4x4x20xf32>)
// CHECK-NOT: vector
// CHECK: scf.for %[[C:.*]] = %c0 to %c20 step %c1 {
// CHECK-NEXT: scf.for {{.*}} iter_args({{.*}}) -> (f32)
// CHECK-NEXT: scf.for {{.*}} iter_args({{.*}}) -> (f32)
// CHECK: memref.load %[[X]][%{{.*}}, %[[C]], %{{.*}}, %{{.*}}] : memref<2x20x9x9xf32>
// CHECK: memref.store %{{.*}}, %[[Y]][%{{.*}}, %{{.*}}, %{{.*}}, %[[C]]]
// REMARK: kernel @cpu_per_fused_window_reduce_max_1: 1 phase(s); [0] parallel 2x4x4, 2 item(s); 0 register reduction(s), 0 row buffer(s), 0 kernel buffer(s); 1 value(s) computed inside a window reduction
// CHECK-LABEL: func.func @max_pool_nchw
func.func @max_pool_nchw(%x: tensor<2x20x9x9xf32>) -> tensor<2x20x4x4xf32> {
  %0 = "graph.transpose"(%x) {perm = array<i64: 0, 2, 3, 1>} : (tensor<2x20x9x9xf32>) -> tensor<2x9x9x20xf32>
  %8 = "graph.window"(%0) {dilations = array<i64: 1, 1>, kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<2x9x9x20xf32>) -> tensor<2x4x4x3x3x20xf32>
  %9 = "graph.reduce_max"(%8) {dims = array<i64: 3, 4>, keepdim = false} : (tensor<2x4x4x3x3x20xf32>) -> tensor<2x4x4x20xf32>
  %10 = "graph.transpose"(%9) {perm = array<i64: 0, 3, 1, 2>} : (tensor<2x4x4x20xf32>) -> tensor<2x20x4x4xf32>
  return %10 : tensor<2x20x4x4xf32>
}

// CHECK-LABEL: func.func private @cpu_per_fused_reduce_max_3(
// CHECK-SAME: %[[X:.*]]: memref<100x37xf32>, %[[Y:.*]]: memref<37xf32>)
// CHECK-NOT: iter_args
// CHECK: memref.store %{{.*}}, %[[Y]]
// CHECK: scf.for %[[R:.*]] = %c0 to %c100 step %c1 {
// CHECK-NEXT: scf.for %[[C:.*]] = %c0 to %c37 step %c1 {
// CHECK-NEXT: memref.load %[[X]][%[[R]], %[[C]]]
// CHECK-NEXT: memref.load %[[Y]][%[[C]]]
// CHECK-NEXT: arith.maximumf
// CHECK-NEXT: memref.store %{{.*}}, %[[Y]][%[[C]]]
// REMARK: kernel @cpu_per_fused_reduce_max_3: 1 phase(s); [0] sequential, 1 item(s); 0 register reduction(s), 0 row buffer(s), 0 kernel buffer(s){{$}}
func.func @column_max(%x: tensor<100x37xf32>) -> tensor<37xf32> {
  %m = "graph.reduce_max"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<100x37xf32>) -> tensor<37xf32>
  return %m : tensor<37xf32>
}
