// Every graph op parses, passes the verifier, prints, and the printed form parses again.
// RUN: braze-opt --cpu=x86-64-v4 %s | braze-opt --cpu=x86-64-v4 | FileCheck %s

// CHECK-LABEL: func.func @unary
// CHECK: "graph.neg"(%{{.*}}) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: "graph.abs"(%{{.*}}) : (tensor<4x8xi32>) -> tensor<4x8xi32>
// CHECK: "graph.exp"
// CHECK: "graph.log"
// CHECK: "graph.sqrt"
// CHECK: "graph.rsqrt"
// CHECK: "graph.tanh"
// CHECK: "graph.sigmoid"
// CHECK: "graph.relu"(%{{.*}}) : (tensor<4x8xi64>) -> tensor<4x8xi64>
// CHECK: "graph.erf"(%{{.*}}) : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
// CHECK: "graph.sin"(%{{.*}}) : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
// CHECK: "graph.cos"(%{{.*}}) : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
// CHECK: "graph.silu"(%{{.*}}) : (tensor<4x8xf16>) -> tensor<4x8xf16>
// CHECK: "graph.gelu"(%{{.*}}) {approximate = "none"}
// CHECK: "graph.gelu"(%{{.*}}) {approximate = "tanh"}
// CHECK: "graph.cast"(%{{.*}}) : (tensor<4x8xf32>) -> tensor<4x8xi1>
// CHECK: "graph.cast"(%{{.*}}) : (tensor<4x8xi32>) -> tensor<4x8xbf16>
func.func @unary(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>, %l: tensor<4x8xi64>, %h: tensor<4x8xf16>,
                 %b: tensor<4x8xbf16>) -> tensor<4x8xf32> {
  %0 = "graph.neg"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = "graph.abs"(%i) : (tensor<4x8xi32>) -> tensor<4x8xi32>
  %2 = "graph.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = "graph.log"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %4 = "graph.sqrt"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %5 = "graph.rsqrt"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %6 = "graph.tanh"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %7 = "graph.sigmoid"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %8 = "graph.relu"(%l) : (tensor<4x8xi64>) -> tensor<4x8xi64>
  %9 = "graph.erf"(%b) : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %sin = "graph.sin"(%b) : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %cos = "graph.cos"(%b) : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %10 = "graph.silu"(%h) : (tensor<4x8xf16>) -> tensor<4x8xf16>
  %11 = "graph.gelu"(%x) {approximate = "none"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %12 = "graph.gelu"(%x) {approximate = "tanh"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %13 = "graph.cast"(%x) : (tensor<4x8xf32>) -> tensor<4x8xi1>
  %14 = "graph.cast"(%i) : (tensor<4x8xi32>) -> tensor<4x8xbf16>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @binary
// CHECK: "graph.add"(%{{.*}}, %{{.*}}) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK: "graph.sub"(%{{.*}}, %{{.*}}) : (tensor<4x1xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
// CHECK: "graph.mul"
// CHECK: "graph.div"(%{{.*}}, %{{.*}}) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
// CHECK: "graph.max"
// CHECK: "graph.min"
// CHECK: "graph.pow"
// CHECK: "graph.cmp"(%{{.*}}, %{{.*}}) {predicate = "lt"} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xi1>
// CHECK: "graph.cmp"(%{{.*}}, %{{.*}}) {predicate = "ne"} : (tensor<4x8xi32>, tensor<i32>) -> tensor<4x8xi1>
// CHECK: "graph.select"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<4x8xi1>, tensor<8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
func.func @binary(%x: tensor<4x8xf32>, %r: tensor<8xf32>, %c: tensor<4x1xf32>, %t: tensor<1x8xf32>,
                  %i: tensor<4x8xi32>, %s: tensor<i32>) -> tensor<4x8xf32> {
  %0 = "graph.add"(%x, %r) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %1 = "graph.sub"(%c, %t) : (tensor<4x1xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  %2 = "graph.mul"(%x, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = "graph.div"(%i, %i) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
  %4 = "graph.max"(%x, %c) : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %5 = "graph.min"(%r, %x) : (tensor<8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %6 = "graph.pow"(%x, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %7 = "graph.cmp"(%x, %r) {predicate = "lt"} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xi1>
  %8 = "graph.cmp"(%i, %s) {predicate = "ne"} : (tensor<4x8xi32>, tensor<i32>) -> tensor<4x8xi1>
  %9 = "graph.select"(%7, %r, %c) : (tensor<4x8xi1>, tensor<8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  return %9 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @reductions
// CHECK: "graph.reduce_sum"(%{{.*}}) {dims = array<i64: 1>, keepdim = true} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
// CHECK: "graph.reduce_mean"(%{{.*}}) {dims = array<i64: 0, 2>, keepdim = false} : (tensor<2x3x4xf32>) -> tensor<3xf32>
// CHECK: "graph.reduce_max"(%{{.*}}) {dims = array<i64: 2, 0, 1>, keepdim = false} : (tensor<2x3x4xf32>) -> tensor<f32>
// CHECK: "graph.reduce_min"(%{{.*}}) {dims = array<i64: 0>, keepdim = false} : (tensor<2x3x4xi64>) -> tensor<3x4xi64>
// CHECK: "graph.reduce_var"(%{{.*}}) {correction = 1 : i64, dims = array<i64: 2>, keepdim = true} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
func.func @reductions(%x: tensor<2x3x4xf32>, %i: tensor<2x3x4xi64>) -> tensor<2x1x4xf32> {
  %0 = "graph.reduce_sum"(%x) {dims = array<i64: 1>, keepdim = true} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  %1 = "graph.reduce_mean"(%x) {dims = array<i64: 0, 2>, keepdim = false} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  %2 = "graph.reduce_max"(%x) {dims = array<i64: 2, 0, 1>, keepdim = false} : (tensor<2x3x4xf32>) -> tensor<f32>
  %3 = "graph.reduce_min"(%i) {dims = array<i64: 0>, keepdim = false} : (tensor<2x3x4xi64>) -> tensor<3x4xi64>
  %4 = "graph.reduce_var"(%x) {dims = array<i64: 2>, keepdim = true, correction = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
  return %0 : tensor<2x1x4xf32>
}

// CHECK-LABEL: func.func @composites
// CHECK: "graph.softmax"(%{{.*}}) {dim = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK: "graph.log_softmax"(%{{.*}}) {dim = 2 : i64}
// CHECK: "graph.layer_norm"(%{{.*}}, %{{.*}}, %{{.*}}) {axis = 1 : i64, eps = 9.99999974E-6 : f32} : (tensor<2x3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
// CHECK: "graph.rms_norm"(%{{.*}}, %{{.*}}) {axis = 2 : i64, eps = 9.99999997E-7 : f32} : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
// CHECK: "graph.batch_norm"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {eps = 1.000000e-03 : f32} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
// CHECK: "graph.linear"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<2x3x4xf32>, tensor<5x4xf32>, tensor<5xf32>) -> tensor<2x3x5xf32>
func.func @composites(%x: tensor<2x3x4xf32>, %w34: tensor<3x4xf32>, %w4: tensor<4xf32>, %c: tensor<3xf32>,
                      %w54: tensor<5x4xf32>, %b5: tensor<5xf32>) -> tensor<2x3x4xf32> {
  %0 = "graph.softmax"(%x) {dim = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %1 = "graph.log_softmax"(%x) {dim = 2 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %2 = "graph.layer_norm"(%x, %w34, %w34) {axis = 1 : i64, eps = 1.0e-05 : f32} : (tensor<2x3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
  %3 = "graph.rms_norm"(%x, %w4) {axis = 2 : i64, eps = 1.0e-06 : f32} : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  %4 = "graph.batch_norm"(%x, %c, %c, %c, %c) {eps = 1.0e-03 : f32} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  %5 = "graph.linear"(%x, %w54, %b5) : (tensor<2x3x4xf32>, tensor<5x4xf32>, tensor<5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x4xf32>
}

// CHECK-LABEL: func.func @contractions
// CHECK: "graph.matmul"(%{{.*}}, %{{.*}}) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK: "graph.batch_matmul"(%{{.*}}, %{{.*}}) : (tensor<2x1x4x8xf16>, tensor<3x8x16xf16>) -> tensor<2x3x4x16xf16>
// CHECK: "graph.batch_matmul"(%{{.*}}, %{{.*}}) : (tensor<4x8xf16>, tensor<3x8x16xf16>) -> tensor<3x4x16xf16>
func.func @contractions(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %ba: tensor<2x1x4x8xf16>,
                        %bb: tensor<3x8x16xf16>, %a2: tensor<4x8xf16>) -> tensor<4x16xf32> {
  %0 = "graph.matmul"(%a, %b) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %1 = "graph.batch_matmul"(%ba, %bb) : (tensor<2x1x4x8xf16>, tensor<3x8x16xf16>) -> tensor<2x3x4x16xf16>
  %2 = "graph.batch_matmul"(%a2, %bb) : (tensor<4x8xf16>, tensor<3x8x16xf16>) -> tensor<3x4x16xf16>
  return %0 : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @shapes
// CHECK: "graph.transpose"(%{{.*}}) {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK: "graph.broadcast_to"(%{{.*}}) : (tensor<3x1xf32>) -> tensor<2x3x4xf32>
// CHECK: "graph.reshape"(%{{.*}}) : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
// CHECK: "graph.slice"(%{{.*}}) {limits = array<i64: 2, 3, 4>, starts = array<i64: 0, 1, 0>, strides = array<i64: 1, 1, 3>} : (tensor<2x3x4xf32>) -> tensor<2x2x2xf32>
// CHECK: %[[C4:.*]] = "graph.concat"(%{{.*}}, %{{.*}}) {dim = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x6x4xf32>
// CHECK: "graph.concat"(%[[C4]], %{{.*}}) {dim = 1 : i64} : (tensor<2x6x4xf32>, tensor<2x3x4xf32>) -> tensor<2x9x4xf32>
// CHECK: "graph.concat"(%{{.*}}, %{{.*}}) {dim = 1 : i64} : (tensor<3x1xf32>, tensor<3x4xf32>) -> tensor<3x5xf32>
func.func @shapes(%x: tensor<2x3x4xf32>, %c: tensor<3x1xf32>) -> tensor<4x2x3xf32> {
  %0 = "graph.transpose"(%x) {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %1 = "graph.broadcast_to"(%c) : (tensor<3x1xf32>) -> tensor<2x3x4xf32>
  %2 = "graph.reshape"(%x) : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %3 = "graph.slice"(%x) {starts = array<i64: 0, 1, 0>, limits = array<i64: 2, 3, 4>, strides = array<i64: 1, 1, 3>} : (tensor<2x3x4xf32>) -> tensor<2x2x2xf32>
  %4 = "graph.concat"(%x, %x) {dim = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x6x4xf32>
  %5 = "graph.concat"(%4, %x) {dim = 1 : i64} : (tensor<2x6x4xf32>, tensor<2x3x4xf32>) -> tensor<2x9x4xf32>
  %6 = "graph.slice"(%x) {starts = array<i64: 0, 0, 0>, limits = array<i64: 1, 3, 4>, strides = array<i64: 1, 1, 1>} : (tensor<2x3x4xf32>) -> tensor<1x3x4xf32>
  %7 = "graph.reshape"(%6) : (tensor<1x3x4xf32>) -> tensor<3x4xf32>
  %8 = "graph.concat"(%c, %7) {dim = 1 : i64} : (tensor<3x1xf32>, tensor<3x4xf32>) -> tensor<3x5xf32>
  return %0 : tensor<4x2x3xf32>
}

// CHECK-LABEL: func.func @constants
// CHECK: "graph.constant"() {value = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>} : () -> tensor<2xf32>
// CHECK: "graph.constant"() {value = dense<7> : tensor<2x3xi32>} : () -> tensor<2x3xi32>
// CHECK: "graph.constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
func.func @constants() -> tensor<2xf32> {
  %0 = "graph.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %1 = "graph.constant"() {value = dense<7> : tensor<2x3xi32>} : () -> tensor<2x3xi32>
  %2 = "graph.constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  return %0 : tensor<2xf32>
}

// A user kernel is a func.call of a func.func in the module, its body any upstream
// dialect; its operands may differ in type.
// CHECK-LABEL: func.func @my_kernel
func.func @my_kernel(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %bb = linalg.broadcast ins(%b : tensor<8xf32>) outs(%e : tensor<4x8xf32>) dimensions = [0]
  %0 = arith.addf %a, %bb : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @user
// CHECK: %[[K:.*]] = call @my_kernel(%{{.*}}, %{{.*}}) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK: "graph.neg"(%[[K]])
func.func @user(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = func.call @my_kernel(%a, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %1 = "graph.neg"(%0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// Indexed reads: gather (ONNX Gather: data.shape[:axis] + indices.shape +
// data.shape[axis+1:], i32/i64 and rank-0 indices) and gather_elements (indices of
// the data's rank, larger than the data only along the axis).
// CHECK-LABEL: func.func @indexed_reads
// CHECK: "graph.gather"(%{{.*}}, %{{.*}}) {axis = 0 : i64} : (tensor<32x8xf32>, tensor<2x5xi64>) -> tensor<2x5x8xf32>
// CHECK: "graph.gather"(%{{.*}}, %{{.*}}) {axis = 1 : i64} : (tensor<32x8xf32>, tensor<i32>) -> tensor<32xf32>
// CHECK: "graph.gather_elements"(%{{.*}}, %{{.*}}) {axis = 0 : i64} : (tensor<32x8xf32>, tensor<40x3xi32>) -> tensor<40x3xf32>
func.func @indexed_reads(%t: tensor<32x8xf32>, %i: tensor<2x5xi64>, %s: tensor<i32>, %e: tensor<40x3xi32>)
    -> (tensor<2x5x8xf32>, tensor<32xf32>, tensor<40x3xf32>) {
  %0 = "graph.gather"(%t, %i) {axis = 0 : i64} : (tensor<32x8xf32>, tensor<2x5xi64>) -> tensor<2x5x8xf32>
  %1 = "graph.gather"(%t, %s) {axis = 1 : i64} : (tensor<32x8xf32>, tensor<i32>) -> tensor<32xf32>
  %2 = "graph.gather_elements"(%t, %e) {axis = 0 : i64} : (tensor<32x8xf32>, tensor<40x3xi32>) -> tensor<40x3xf32>
  return %0, %1, %2 : tensor<2x5x8xf32>, tensor<32xf32>, tensor<40x3xf32>
}
