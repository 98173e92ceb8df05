// Window reductions (pooling) on the CPU, checked against the reference interpreter
// on random inputs: cpu-codegen keeps each output element's accumulator in registers,
// the window's loops inside the channel loop, vectors of 16 channels where the reads
// are contiguous along them (targets/cpu/codegen/window.c), and the padding's
// gather-select computed inside the window loop (test/targets/cpu/codegen/window.mlir
// shows the loops). Max pool channels-last with its padding as the ONNX importer
// writes it (20 channels: one vector and 4 scalar channels), the same on NCHW (the
// channels not contiguous: scalars), a 2x2 average, a dilated max, a global mean
// (a 7x7 window).
// RUN: braze check %s --seed 7 | FileCheck %s
// RUN: braze check %s --seed 7 --pipeline=%S/../targets/cpu/codegen/Inputs/cpu-lanes8.pipeline | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS  @max_pool_nhwc out0 2x5x5x20xf32
// CHECK: PASS  @max_pool_nchw out0 2x20x5x5xf32
// CHECK: PASS  @avg_pool out0 1x4x4x32xf32
// CHECK: PASS  @dilated_max out0 1x3x3x24xf32
// CHECK: PASS  @global_mean out0 2x48xf32

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

func.func @max_pool_nchw(%x: tensor<2x20x9x9xf32>) -> tensor<2x20x5x5xf32> {
  %0 = "graph.transpose"(%x) {perm = array<i64: 0, 2, 3, 1>} : (tensor<2x20x9x9xf32>) -> tensor<2x9x9x20xf32>
  %1 = "graph.reshape"(%0) : (tensor<2x9x9x20xf32>) -> tensor<2x81x20xf32>
  %2 = "graph.constant"() {value = dense<"0x0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001000000020000000300000004000000050000000600000007000000080000000000000000000000090000000A0000000B0000000C0000000D0000000E0000000F0000001000000011000000000000000000000012000000130000001400000015000000160000001700000018000000190000001A00000000000000000000001B0000001C0000001D0000001E0000001F0000002000000021000000220000002300000000000000000000002400000025000000260000002700000028000000290000002A0000002B0000002C00000000000000000000002D0000002E0000002F0000003000000031000000320000003300000034000000350000000000000000000000360000003700000038000000390000003A0000003B0000003C0000003D0000003E00000000000000000000003F0000004000000041000000420000004300000044000000450000004600000047000000000000000000000048000000490000004A0000004B0000004C0000004D0000004E0000004F00000050000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"> : tensor<121xi32>} : () -> tensor<121xi32>
  %3 = "graph.constant"() {value = dense<"0x00F09FFFFCE73FFFF9CF7FFEF31F0000"> : tensor<121x1xi1>} : () -> tensor<121x1xi1>
  %4 = "graph.gather"(%1, %2) {axis = 1 : i64} : (tensor<2x81x20xf32>, tensor<121xi32>) -> tensor<2x121x20xf32>
  %5 = "graph.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %6 = "graph.select"(%3, %4, %5) : (tensor<121x1xi1>, tensor<2x121x20xf32>, tensor<f32>) -> tensor<2x121x20xf32>
  %7 = "graph.reshape"(%6) : (tensor<2x121x20xf32>) -> tensor<2x11x11x20xf32>
  %8 = "graph.window"(%7) {dilations = array<i64: 1, 1>, kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<2x11x11x20xf32>) -> tensor<2x5x5x3x3x20xf32>
  %9 = "graph.reduce_max"(%8) {dims = array<i64: 3, 4>, keepdim = false} : (tensor<2x5x5x3x3x20xf32>) -> tensor<2x5x5x20xf32>
  %10 = "graph.transpose"(%9) {perm = array<i64: 0, 3, 1, 2>} : (tensor<2x5x5x20xf32>) -> tensor<2x20x5x5xf32>
  return %10 : tensor<2x20x5x5xf32>
}

func.func @avg_pool(%x: tensor<1x8x8x32xf32>) -> tensor<1x4x4x32xf32> {
  %w = "graph.window"(%x) {dilations = array<i64: 1, 1>, kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x8x32xf32>) -> tensor<1x4x4x2x2x32xf32>
  %s = "graph.reduce_sum"(%w) {dims = array<i64: 3, 4>, keepdim = false} : (tensor<1x4x4x2x2x32xf32>) -> tensor<1x4x4x32xf32>
  %q = "graph.constant"() {value = dense<0.25> : tensor<f32>} : () -> tensor<f32>
  %y = "graph.mul"(%s, %q) : (tensor<1x4x4x32xf32>, tensor<f32>) -> tensor<1x4x4x32xf32>
  return %y : tensor<1x4x4x32xf32>
}

func.func @dilated_max(%x: tensor<1x9x9x24xf32>) -> tensor<1x3x3x24xf32> {
  %e = "graph.exp"(%x) : (tensor<1x9x9x24xf32>) -> tensor<1x9x9x24xf32>
  %w = "graph.window"(%e) {dilations = array<i64: 2, 2>, kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x9x9x24xf32>) -> tensor<1x3x3x3x3x24xf32>
  %m = "graph.reduce_max"(%w) {dims = array<i64: 3, 4>, keepdim = false} : (tensor<1x3x3x3x3x24xf32>) -> tensor<1x3x3x24xf32>
  return %m : tensor<1x3x3x24xf32>
}

func.func @global_mean(%x: tensor<2x7x7x48xf32>) -> tensor<2x48xf32> {
  %r = "graph.relu"(%x) : (tensor<2x7x7x48xf32>) -> tensor<2x7x7x48xf32>
  %m = "graph.reduce_mean"(%r) {dims = array<i64: 1, 2>, keepdim = false} : (tensor<2x7x7x48xf32>) -> tensor<2x48xf32>
  return %m : tensor<2x48xf32>
}
