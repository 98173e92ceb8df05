// Indexed reads (graph.gather / graph.gather_elements) compiled for the CPU and
// checked against the reference on random inputs (integer indices in [-8, 8]: negative
// ones wrap, axes shorter than 9 clamp), under the default pipeline, without fusion
// and without inlining. The kernel dumps show the gathers fused with their pointwise
// producers (of the data: computed only at the gathered rows; of the indices) and
// consumers, and with a reduction consuming them.
// RUN: rm -rf %t && mkdir -p %t
// RUN: braze compile %s --pipeline=cpu-default -o %t/lib.so --dump-kernels=%t/fused
// RUN: ls %t/fused | grep 'mlir$' | FileCheck %s --check-prefix=FUSED
// RUN: braze check %s --seed 5 --pipeline=cpu-default | FileCheck %s
// RUN: braze check %s --seed 6 --pipeline=cpu-no-fusion | FileCheck %s
// RUN: braze check %s --seed 7 --pipeline=cpu-no-inline | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS @embedding out0 4x7x64xf32
// CHECK: PASS @gather_of_pointwise out0 4x7x64xf32
// CHECK: PASS @axes out0 3x2x5x4xf32
// CHECK: PASS @axes out1 3x9xf32
// CHECK: PASS @indices_computed out0 6x300xf32
// CHECK: PASS @transposed_table out0 5x16xf32
// CHECK: PASS @gather_reduce out0 5x3xf32
// CHECK: PASS @gather_reduce out1 4xf32
// CHECK: PASS @reduction_data out0 6x8xf32
// CHECK: PASS @embedding_matmul out0 12x24xf32
// CHECK: PASS @matmul_gathered_bias out0 12x24xf32
// CHECK: PASS @reshaped out0 3x56xf32
// CHECK: PASS @dtypes out0 6x5xf16
// CHECK: PASS @dtypes out1 6x5xi1
// CHECK: PASS @dtypes out2 4x5xi64
// CHECK: PASS @rank5 out0 2x3x4x2x3xf32
// CHECK: PASS @splat_idx out0 4x5xf32
// CHECK: PASS @splat_data out0 7x3xf32
// CHECK: PASS @const_data out0 7x3xf32
// CHECK: PASS @gather_of_gather out0 4x2x6xf32
// CHECK: check passed

// FUSED-DAG: cpu_poi_fused_gather_mul_add_{{[0-9]+}}.mlir
// FUSED-DAG: cpu_poi_fused_mul_tanh_gather_add_{{[0-9]+}}.mlir
// FUSED-DAG: cpu_poi_fused_add_gather_relu_{{[0-9]+}}.mlir
// FUSED-DAG: cpu_poi_fused_transpose_gather_{{[0-9]+}}.mlir
// FUSED-DAG: cpu_{{per|red}}_fused_gather_elements_reduce_sum_{{[0-9]+}}.mlir
// FUSED-DAG: cpu_poi_fused_gather_exp_{{[0-9]+}}.mlir

// An embedding: table rows at token ids, times a scale, plus positions.
func.func @embedding(%table: tensor<50x64xf32>, %ids: tensor<4x7xi64>, %scale: tensor<64xf32>, %pos: tensor<7x64xf32>) -> tensor<4x7x64xf32> {
  %e = "graph.gather"(%table, %ids) {axis = 0 : i64} : (tensor<50x64xf32>, tensor<4x7xi64>) -> tensor<4x7x64xf32>
  %s = "graph.mul"(%e, %scale) : (tensor<4x7x64xf32>, tensor<64xf32>) -> tensor<4x7x64xf32>
  %r = "graph.add"(%s, %pos) : (tensor<4x7x64xf32>, tensor<7x64xf32>) -> tensor<4x7x64xf32>
  return %r : tensor<4x7x64xf32>
}

// A gather of a pointwise expression: tanh(table * scale) computed at the gathered rows.
func.func @gather_of_pointwise(%table: tensor<50x64xf32>, %ids: tensor<4x7xi64>, %scale: tensor<64xf32>, %pos: tensor<7x64xf32>) -> tensor<4x7x64xf32> {
  %s = "graph.mul"(%table, %scale) : (tensor<50x64xf32>, tensor<64xf32>) -> tensor<50x64xf32>
  %t = "graph.tanh"(%s) : (tensor<50x64xf32>) -> tensor<50x64xf32>
  %e = "graph.gather"(%t, %ids) {axis = 0 : i64} : (tensor<50x64xf32>, tensor<4x7xi64>) -> tensor<4x7x64xf32>
  %r = "graph.add"(%e, %pos) : (tensor<4x7x64xf32>, tensor<7x64xf32>) -> tensor<4x7x64xf32>
  return %r : tensor<4x7x64xf32>
}

// Other axes: int32 indices of rank 2 along axis 1 (clamped: size 6), a scalar index.
func.func @axes(%x: tensor<3x6x4xf32>, %i: tensor<2x5xi32>, %y: tensor<3x9xf32>, %j: tensor<i64>) -> (tensor<3x2x5x4xf32>, tensor<3x9xf32>) {
  %0 = "graph.gather"(%x, %i) {axis = 1 : i64} : (tensor<3x6x4xf32>, tensor<2x5xi32>) -> tensor<3x2x5x4xf32>
  %1 = "graph.gather"(%y, %j) {axis = 1 : i64} : (tensor<3x9xf32>, tensor<i64>) -> tensor<3xf32>
  %c = "graph.reshape"(%1) : (tensor<3xf32>) -> tensor<3x1xf32>
  %2 = "graph.add"(%y, %c) : (tensor<3x9xf32>, tensor<3x1xf32>) -> tensor<3x9xf32>
  return %0, %2 : tensor<3x2x5x4xf32>, tensor<3x9xf32>
}

// Indices computed by a pointwise op (inlined into the gather); rows of 300 (>= 256:
// the alignment-peeled loops clone the indexed read too).
func.func @indices_computed(%x: tensor<20x300xf32>, %i: tensor<6xi64>, %off: tensor<i64>) -> tensor<6x300xf32> {
  %k = "graph.add"(%i, %off) : (tensor<6xi64>, tensor<i64>) -> tensor<6xi64>
  %g = "graph.gather"(%x, %k) {axis = 0 : i64} : (tensor<20x300xf32>, tensor<6xi64>) -> tensor<6x300xf32>
  %r = "graph.relu"(%g) : (tensor<6x300xf32>) -> tensor<6x300xf32>
  return %r : tensor<6x300xf32>
}

// The data is a view (transpose): its copy is inlined at the gathered positions.
func.func @transposed_table(%w: tensor<16x30xf32>, %i: tensor<5xi32>) -> tensor<5x16xf32> {
  %t = "graph.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<16x30xf32>) -> tensor<30x16xf32>
  %g = "graph.gather"(%t, %i) {axis = 0 : i64} : (tensor<30x16xf32>, tensor<5xi32>) -> tensor<5x16xf32>
  return %g : tensor<5x16xf32>
}

// gather_elements along axis 0 (indices smaller off the axis) and a reduction of a
// gather_elements along axis 1 (the gather is the reduction's prologue).
func.func @gather_reduce(%x: tensor<4x5xf32>, %i: tensor<5x3xi64>, %j: tensor<4x12xi32>) -> (tensor<5x3xf32>, tensor<4xf32>) {
  %0 = "graph.gather_elements"(%x, %i) {axis = 0 : i64} : (tensor<4x5xf32>, tensor<5x3xi64>) -> tensor<5x3xf32>
  %1 = "graph.gather_elements"(%x, %j) {axis = 1 : i64} : (tensor<4x5xf32>, tensor<4x12xi32>) -> tensor<4x12xf32>
  %2 = "graph.reduce_sum"(%1) {dims = array<i64: 1>, keepdim = false} : (tensor<4x12xf32>) -> tensor<4xf32>
  return %0, %2 : tensor<5x3xf32>, tensor<4xf32>
}

// The data is a reduction's result (realized: the gather reads it from memory).
func.func @reduction_data(%x: tensor<10x8x3xf32>, %i: tensor<6xi64>) -> tensor<6x8xf32> {
  %s = "graph.reduce_sum"(%x) {dims = array<i64: 2>, keepdim = false} : (tensor<10x8x3xf32>) -> tensor<10x8xf32>
  %g = "graph.gather"(%s, %i) {axis = 0 : i64} : (tensor<10x8xf32>, tensor<6xi64>) -> tensor<6x8xf32>
  %n = "graph.neg"(%g) : (tensor<6x8xf32>) -> tensor<6x8xf32>
  return %n : tensor<6x8xf32>
}

// Gathered rows feed a matmul (the gather is realized: read by a contraction).
func.func @embedding_matmul(%table: tensor<40x16xf32>, %ids: tensor<12xi64>, %w: tensor<16x24xf32>) -> tensor<12x24xf32> {
  %e = "graph.gather"(%table, %ids) {axis = 0 : i64} : (tensor<40x16xf32>, tensor<12xi64>) -> tensor<12x16xf32>
  %m = "graph.matmul"(%e, %w) : (tensor<12x16xf32>, tensor<16x24xf32>) -> tensor<12x24xf32>
  return %m : tensor<12x24xf32>
}

// A gathered bias in a matmul's epilogue (the CPU template refuses the epilogue,
// epilogue-body: the kernel runs as loops).
func.func @matmul_gathered_bias(%x: tensor<12x16xf32>, %w: tensor<16x24xf32>, %t: tensor<50x24xf32>, %ids: tensor<12xi64>) -> tensor<12x24xf32> {
  %m = "graph.matmul"(%x, %w) : (tensor<12x16xf32>, tensor<16x24xf32>) -> tensor<12x24xf32>
  %g = "graph.gather"(%t, %ids) {axis = 0 : i64} : (tensor<50x24xf32>, tensor<12xi64>) -> tensor<12x24xf32>
  %a = "graph.add"(%m, %g) : (tensor<12x24xf32>, tensor<12x24xf32>) -> tensor<12x24xf32>
  return %a : tensor<12x24xf32>
}

// A consumer reading the gather through a reshape (its loop indices are then
// floordiv/mod of the consumer's).
func.func @reshaped(%x: tensor<9x8xf32>, %i: tensor<3x7xi64>, %b: tensor<56xf32>) -> tensor<3x56xf32> {
  %g = "graph.gather"(%x, %i) {axis = 0 : i64} : (tensor<9x8xf32>, tensor<3x7xi64>) -> tensor<3x7x8xf32>
  %r = "graph.reshape"(%g) : (tensor<3x7x8xf32>) -> tensor<3x56xf32>
  %y = "graph.add"(%r, %b) : (tensor<3x56xf32>, tensor<56xf32>) -> tensor<3x56xf32>
  return %y : tensor<3x56xf32>
}

// Element types: f16, i1 and i64 data.
func.func @dtypes(%h: tensor<10x5xf16>, %m: tensor<10x5xi1>, %n: tensor<10x5xi64>, %i: tensor<6xi64>, %j: tensor<4x5xi32>)
    -> (tensor<6x5xf16>, tensor<6x5xi1>, tensor<4x5xi64>) {
  %0 = "graph.gather"(%h, %i) {axis = 0 : i64} : (tensor<10x5xf16>, tensor<6xi64>) -> tensor<6x5xf16>
  %1 = "graph.gather"(%m, %i) {axis = 0 : i64} : (tensor<10x5xi1>, tensor<6xi64>) -> tensor<6x5xi1>
  %2 = "graph.gather_elements"(%n, %j) {axis = 0 : i64} : (tensor<10x5xi64>, tensor<4x5xi32>) -> tensor<4x5xi64>
  return %0, %1, %2 : tensor<6x5xf16>, tensor<6x5xi1>, tensor<4x5xi64>
}

// gather_elements on rank-5 tensors (a rank the one-hot composition could not reach).
func.func @rank5(%x: tensor<2x3x5x2x3xf32>, %i: tensor<2x3x4x2x3xi64>) -> tensor<2x3x4x2x3xf32> {
  %0 = "graph.gather_elements"(%x, %i) {axis = 2 : i64} : (tensor<2x3x5x2x3xf32>, tensor<2x3x4x2x3xi64>) -> tensor<2x3x4x2x3xf32>
  return %0 : tensor<2x3x4x2x3xf32>
}

// Constant indices (a splat: a scalar in the body, the generic has no input), constant
// data (a splat: every read the same scalar; a small dense constant), and a gather of
// the exp of a gather (both indexed reads in one kernel).
func.func @splat_idx(%x: tensor<6x5xf32>) -> tensor<4x5xf32> {
  %i = "graph.constant"() {value = dense<-2> : tensor<4xi64>} : () -> tensor<4xi64>
  %g = "graph.gather"(%x, %i) {axis = 0 : i64} : (tensor<6x5xf32>, tensor<4xi64>) -> tensor<4x5xf32>
  return %g : tensor<4x5xf32>
}
func.func @splat_data(%i: tensor<7xi32>) -> tensor<7x3xf32> {
  %x = "graph.constant"() {value = dense<1.5> : tensor<9x3xf32>} : () -> tensor<9x3xf32>
  %g = "graph.gather"(%x, %i) {axis = 0 : i64} : (tensor<9x3xf32>, tensor<7xi32>) -> tensor<7x3xf32>
  return %g : tensor<7x3xf32>
}
func.func @const_data(%i: tensor<7xi32>, %y: tensor<7x3xf32>) -> tensor<7x3xf32> {
  %x = "graph.constant"() {value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]> : tensor<3x3xf32>} : () -> tensor<3x3xf32>
  %g = "graph.gather"(%x, %i) {axis = 1 : i64} : (tensor<3x3xf32>, tensor<7xi32>) -> tensor<3x7xf32>
  %t = "graph.transpose"(%g) {perm = array<i64: 1, 0>} : (tensor<3x7xf32>) -> tensor<7x3xf32>
  %a = "graph.add"(%t, %y) : (tensor<7x3xf32>, tensor<7x3xf32>) -> tensor<7x3xf32>
  return %a : tensor<7x3xf32>
}
func.func @gather_of_gather(%t: tensor<20x6xf32>, %a: tensor<9xi64>, %b: tensor<4x2xi32>) -> tensor<4x2x6xf32> {
  %g1 = "graph.gather"(%t, %a) {axis = 0 : i64} : (tensor<20x6xf32>, tensor<9xi64>) -> tensor<9x6xf32>
  %e = "graph.exp"(%g1) : (tensor<9x6xf32>) -> tensor<9x6xf32>
  %g2 = "graph.gather"(%e, %b) {axis = 0 : i64} : (tensor<9x6xf32>, tensor<4x2xi32>) -> tensor<4x2x6xf32>
  return %g2 : tensor<4x2x6xf32>
}
