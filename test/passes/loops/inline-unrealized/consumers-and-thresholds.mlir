// A producer with several consumers is inlined into each (recomputed there) and
// erased; reads-threshold and opcount-threshold realize it instead; disable
// realizes everything. Remarks say which and why.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --graph-to-loops --inline-unrealized=remarks --verify-diagnostics | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %S/Inputs/five-reads.mlir --graph-to-loops --inline-unrealized=remarks 2>&1 | FileCheck %s --check-prefix=READS4
// RUN: braze-opt --cpu=x86-64-v4 %S/Inputs/five-reads.mlir --graph-to-loops --inline-unrealized='remarks reads-threshold=5' 2>&1 | FileCheck %s --check-prefix=READS5
// RUN: braze-opt --cpu=x86-64-v4 %S/Inputs/five-reads.mlir --graph-to-loops --inline-unrealized='remarks reads-threshold=5 opcount-threshold=1' 2>&1 | FileCheck %s --check-prefix=OPS1
// RUN: braze-opt --cpu=x86-64-v4 %S/Inputs/five-reads.mlir --graph-to-loops --inline-unrealized='remarks disable' 2>&1 | FileCheck %s --check-prefix=DISABLE
// RUN: not braze-opt --cpu=x86-64-v4 %s --inline-unrealized=reads-threshold=x 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: not braze-opt --cpu=x86-64-v4 %s --inline-unrealized=bogus 2>&1 | FileCheck %s --check-prefix=BADKEY

// CHECK-LABEL: func.func @two_consumers(
// CHECK-NOT: braze.ops = ["exp"]
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg1 : {{.*}}braze.ops = ["exp", "add"]
// CHECK-NEXT: ^bb0
// CHECK-NEXT: math.exp
// CHECK-NEXT: arith.addf
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg1 : {{.*}}braze.ops = ["exp", "mul"]
// CHECK-NEXT: ^bb0
// CHECK-NEXT: math.exp
// CHECK-NEXT: arith.mulf
func.func @two_consumers(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  // expected-remark@+1 {{inlined into 2 consumers}}
  %0 = "graph.exp"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  // expected-remark@+1 {{realized: function result}}
  %1 = "graph.add"(%0, %y) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  // expected-remark@+1 {{realized: function result}}
  %2 = "graph.mul"(%0, %y) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %1, %2 : tensor<8xf32>, tensor<8xf32>
}

// -----

// One consumer reading the producer through two different maps gets two clones.
// CHECK-DAG: #[[T:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @two_maps(
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[T]], #[[ID]]]{{.*}} ins(%arg0, %arg0 : {{.*}}braze.ops = ["exp", "add"]
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[E1:.*]] = math.exp %[[A]]
// CHECK-NEXT: %[[E2:.*]] = math.exp %[[B]]
// CHECK-NEXT: arith.addf %[[E1]], %[[E2]]
func.func @two_maps(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-remark@+1 {{inlined into 1 consumer}}
  %0 = "graph.exp"(%x) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %t = "graph.transpose"(%0) {perm = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  // expected-remark@+1 {{realized: function result}}
  %1 = "graph.add"(%0, %t) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}

// exp (line 3) is inlined into neg (line 4), which then has five reads and 2 ops.
// READS4: five-reads.mlir:3:8: remark: inlined into 1 consumer
// READS4: five-reads.mlir:4:8: remark: realized: 5 reads > reads-threshold=4
// READS4-COUNT-5: remark: realized: function result
// READS4: linalg.generic {{.*}}braze.ops = ["exp", "neg"]
// READS4-COUNT-5: braze.ops = ["add"]

// READS5: five-reads.mlir:4:8: remark: inlined into 5 consumers
// READS5-NOT: braze.ops = ["exp", "neg"]
// READS5-COUNT-5: braze.ops = ["exp", "neg", "add"]

// OPS1: five-reads.mlir:3:8: remark: inlined into 1 consumer
// OPS1: five-reads.mlir:4:8: remark: realized: 2 ops > opcount-threshold=1
// OPS1: braze.ops = ["exp", "neg"]

// DISABLE: five-reads.mlir:3:8: remark: realized: inlining disabled
// DISABLE: five-reads.mlir:4:8: remark: realized: inlining disabled
// DISABLE: braze.ops = ["exp"]
// DISABLE: braze.ops = ["neg"]

// BADOPT: option 'reads-threshold' expects an integer, got 'x'
// BADKEY: pass 'inline-unrealized' has no option 'bogus'
