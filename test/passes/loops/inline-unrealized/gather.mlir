// Indexed reads (gather): a gather generic is inlined into its pointwise consumers
// like any all-parallel producer (its linalg.index values computed from the
// consumer's loops through the composed map: divui/remui under a reshape), and a
// pointwise producer of the gathered data is inlined at the tensor.extract: its
// inputs are read by tensor.extract at the gathered position through their maps, so
// it is computed only for the rows gathered (unless the gather reads more elements
// than the producer has: then it is realized). A reduction's result stays realized.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --graph-to-loops --inline-unrealized=remarks --verify-diagnostics | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --graph-to-loops --inline-unrealized | mlir-opt --split-input-file --verify-each -o /dev/null

// embedding * scale + position: one generic.
// CHECK-LABEL: func.func @embedding(
// CHECK: linalg.generic {{.*}} ins(%arg1, %arg2, %arg3 : tensor<4x6xi64>, tensor<16xf32>, tensor<6x16xf32>) {{.*}}braze.ops = ["gather", "mul", "add"]
// CHECK-NEXT: ^bb0(%[[I:.*]]: i64, %[[S:.*]]: f32, %[[P:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[COL:.*]] = linalg.index 2 : index
// CHECK: %[[AT:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK-NEXT: %[[E:.*]] = tensor.extract %arg0[%[[AT]], %[[COL]]] : tensor<50x16xf32>
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[E]], %[[S]] : f32
// CHECK-NEXT: %[[A:.*]] = arith.addf %[[M]], %[[P]] : f32
// CHECK-NEXT: linalg.yield %[[A]] : f32
// CHECK-NOT: linalg.generic
func.func @embedding(%table: tensor<50x16xf32>, %ids: tensor<4x6xi64>, %scale: tensor<16xf32>, %pos: tensor<6x16xf32>) -> tensor<4x6x16xf32> {
  // expected-remark@+1 {{inlined into 1 consumer}}
  %e = "graph.gather"(%table, %ids) {axis = 0 : i64} : (tensor<50x16xf32>, tensor<4x6xi64>) -> tensor<4x6x16xf32>
  // expected-remark@+1 {{inlined into 1 consumer}}
  %s = "graph.mul"(%e, %scale) : (tensor<4x6x16xf32>, tensor<16xf32>) -> tensor<4x6x16xf32>
  // expected-remark@+1 {{realized: function result}}
  %r = "graph.add"(%s, %pos) : (tensor<4x6x16xf32>, tensor<6x16xf32>) -> tensor<4x6x16xf32>
  return %r : tensor<4x6x16xf32>
}

// -----

// tanh(table * scale) gathered: computed at the gathered row only.
// CHECK-LABEL: func.func @of_pointwise(
// CHECK: linalg.generic {{.*}} ins(%arg1 : tensor<8xi32>) {{.*}}braze.ops = ["mul", "tanh", "gather"]
// CHECK: %[[AT:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK-NEXT: %[[COL:.*]] = linalg.index 1 : index
// CHECK-NEXT: %[[T:.*]] = tensor.extract %arg0[%[[AT]], %[[COL]]] : tensor<50x16xf32>
// CHECK-NEXT: %[[S:.*]] = tensor.extract %arg2[%[[COL]]] : tensor<16xf32>
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[T]], %[[S]] : f32
// CHECK-NEXT: %[[H:.*]] = math.tanh %[[M]] : f32
// CHECK-NEXT: linalg.yield %[[H]] : f32
// CHECK-NOT: linalg.generic
func.func @of_pointwise(%table: tensor<50x16xf32>, %ids: tensor<8xi32>, %scale: tensor<16xf32>) -> tensor<8x16xf32> {
  // expected-remark@+1 {{inlined into 1 consumer}}
  %s = "graph.mul"(%table, %scale) : (tensor<50x16xf32>, tensor<16xf32>) -> tensor<50x16xf32>
  // expected-remark@+1 {{inlined into 1 consumer}}
  %t = "graph.tanh"(%s) : (tensor<50x16xf32>) -> tensor<50x16xf32>
  // expected-remark@+1 {{realized: function result}}
  %e = "graph.gather"(%t, %ids) {axis = 0 : i64} : (tensor<50x16xf32>, tensor<8xi32>) -> tensor<8x16xf32>
  return %e : tensor<8x16xf32>
}

// -----

// Read through a reshape: the gather's column index is the consumer's d1 mod 8.
// CHECK-LABEL: func.func @reshaped(
// CHECK: linalg.generic {{.*}}braze.ops = ["gather", "add"]
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: %[[D1:.*]] = linalg.index 1 : index
// CHECK-NEXT: %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT: %[[COL:.*]] = arith.remui %[[D1]], %[[C8]] : index
// CHECK: tensor.extract %arg0[%{{.*}}, %[[COL]]] : tensor<9x8xf32>
func.func @reshaped(%x: tensor<9x8xf32>, %i: tensor<3x7xi64>, %b: tensor<56xf32>) -> tensor<3x56xf32> {
  // expected-remark@+1 {{inlined into 1 consumer}}
  %g = "graph.gather"(%x, %i) {axis = 0 : i64} : (tensor<9x8xf32>, tensor<3x7xi64>) -> tensor<3x7x8xf32>
  %r = "graph.reshape"(%g) : (tensor<3x7x8xf32>) -> tensor<3x56xf32>
  // expected-remark@+1 {{realized: function result}}
  %y = "graph.add"(%r, %b) : (tensor<3x56xf32>, tensor<56xf32>) -> tensor<3x56xf32>
  return %y : tensor<3x56xf32>
}

// -----

// The gathered data is a reduction: realized, read by tensor.extract.
// CHECK-LABEL: func.func @reduction_data(
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}}braze.ops = ["reduce_sum"]
// CHECK: linalg.generic {{.*}}braze.ops = ["gather"]
// CHECK: tensor.extract %[[SUM]][%{{.*}}, %{{.*}}] : tensor<10x8xf32>
func.func @reduction_data(%x: tensor<10x8x3xf32>, %i: tensor<6xi64>) -> tensor<6x8xf32> {
  // expected-remark@+1 {{realized: reduction}}
  %s = "graph.reduce_sum"(%x) {dims = array<i64: 2>, keepdim = false} : (tensor<10x8x3xf32>) -> tensor<10x8xf32>
  // expected-remark@+1 {{realized: function result}}
  %g = "graph.gather"(%s, %i) {axis = 0 : i64} : (tensor<10x8xf32>, tensor<6xi64>) -> tensor<6x8xf32>
  return %g : tensor<6x8xf32>
}

// -----

// A data producer read by more gathers than reads-threshold (4) is realized.
// CHECK-LABEL: func.func @many_reads(
// CHECK: %[[EXP:.*]] = linalg.generic {{.*}}braze.ops = ["exp"]
// CHECK-COUNT-5: tensor.extract %[[EXP]]
func.func @many_reads(%x: tensor<10x4xf32>, %i: tensor<3xi64>) -> (tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) {
  // expected-remark@+1 {{realized: 5 reads > reads-threshold=4}}
  %e = "graph.exp"(%x) : (tensor<10x4xf32>) -> tensor<10x4xf32>
  // expected-remark@+1 {{realized: function result}}
  %0 = "graph.gather"(%e, %i) {axis = 0 : i64} : (tensor<10x4xf32>, tensor<3xi64>) -> tensor<3x4xf32>
  // expected-remark@+1 {{realized: function result}}
  %1 = "graph.gather"(%e, %i) {axis = 0 : i64} : (tensor<10x4xf32>, tensor<3xi64>) -> tensor<3x4xf32>
  // expected-remark@+1 {{realized: function result}}
  %2 = "graph.gather"(%e, %i) {axis = 0 : i64} : (tensor<10x4xf32>, tensor<3xi64>) -> tensor<3x4xf32>
  // expected-remark@+1 {{realized: function result}}
  %3 = "graph.gather"(%e, %i) {axis = 0 : i64} : (tensor<10x4xf32>, tensor<3xi64>) -> tensor<3x4xf32>
  // expected-remark@+1 {{realized: function result}}
  %4 = "graph.gather"(%e, %i) {axis = 0 : i64} : (tensor<10x4xf32>, tensor<3xi64>) -> tensor<3x4xf32>
  return %0, %1, %2, %3, %4 : tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>
}

// -----

// A gather reading more elements (40 x 8) than its data's producer has (10 x 8): the
// producer is realized rather than computed once per gathered element.
// CHECK-LABEL: func.func @more_reads_than_elements(
// CHECK: %[[EXP:.*]] = linalg.generic {{.*}}braze.ops = ["exp"]
// CHECK: linalg.generic {{.*}}braze.ops = ["gather"]
// CHECK: tensor.extract %[[EXP]]
func.func @more_reads_than_elements(%x: tensor<10x8xf32>, %i: tensor<40xi64>) -> tensor<40x8xf32> {
  // expected-remark@+1 {{realized: indexed read of 320 elements > its 80}}
  %e = "graph.exp"(%x) : (tensor<10x8xf32>) -> tensor<10x8xf32>
  // expected-remark@+1 {{realized: function result}}
  %g = "graph.gather"(%e, %i) {axis = 0 : i64} : (tensor<10x8xf32>, tensor<40xi64>) -> tensor<40x8xf32>
  return %g : tensor<40x8xf32>
}
