// neg-neg, mul-minus-one, sub-of-neg and cast-chain: exact identities on signs and
// casts (passes/graph/simplify-signs.c). Each spelling below is how a model may be
// written; the attention matcher reads the scores only through scales and casts.
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-simplify | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-simplify=remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-simplify='disable=neg-neg,mul-minus-one,sub-of-neg,cast-chain' | FileCheck %s --check-prefix=OFF

// REMARK: signs.mlir:[[@LINE+7]]:8: remark: graph-simplify: neg-neg
// CHECK-LABEL: func.func @neg_neg
// CHECK-NEXT: return %arg0
// OFF-LABEL: func.func @neg_neg
// OFF-COUNT-2: graph.neg
func.func @neg_neg(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = "graph.neg"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = "graph.neg"(%0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// x * -1 twice: two negations, then none.
// REMARK: signs.mlir:[[@LINE+6]]:8: remark: graph-simplify: mul-minus-one
// CHECK-LABEL: func.func @mul_minus_one_twice
// CHECK-NEXT: return %arg0
func.func @mul_minus_one_twice(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %m = "graph.constant"() {value = dense<-1.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "graph.mul"(%x, %m) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %1 = "graph.mul"(%m, %0) : (tensor<f32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// Signed integers too; a -1 that broadcasts x, and an unsigned -1 (its all-ones
// value), are no negation.
// CHECK-LABEL: func.func @mul_minus_one_kinds
// CHECK-NEXT: %[[N:.*]] = "graph.neg"(%arg0) : (tensor<8xi32>) -> tensor<8xi32>
// CHECK: %[[B:.*]] = "graph.mul"(%arg1, %{{.*}}) : (tensor<8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: %[[U:.*]] = "graph.mul"(%arg2, %{{.*}}) : (tensor<8xui8>, tensor<ui8>) -> tensor<8xui8>
// CHECK-NEXT: return %[[N]], %[[B]], %[[U]]
func.func @mul_minus_one_kinds(%i: tensor<8xi32>, %x: tensor<8xf32>, %u: tensor<8xui8>) -> (tensor<8xi32>, tensor<4x8xf32>, tensor<8xui8>) {
  %mi = "graph.constant"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %0 = "graph.mul"(%i, %mi) : (tensor<8xi32>, tensor<i32>) -> tensor<8xi32>
  %mb = "graph.constant"() {value = dense<-1.0> : tensor<4x8xf32>} : () -> tensor<4x8xf32>
  %1 = "graph.mul"(%x, %mb) : (tensor<8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %mu = "graph.constant"() {value = dense<255> : tensor<ui8>} : () -> tensor<ui8>
  %2 = "graph.mul"(%u, %mu) : (tensor<8xui8>, tensor<ui8>) -> tensor<8xui8>
  return %0, %1, %2 : tensor<8xi32>, tensor<4x8xf32>, tensor<8xui8>
}

// a - (-b) -> a + b; a + (-b) and (-b) + a -> a - b (one sub after cse).
// CHECK-LABEL: func.func @sub_of_neg
// CHECK-NEXT: %[[A:.*]] = "graph.add"(%arg0, %arg1) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[S:.*]] = "graph.sub"(%arg0, %arg1) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[A]], %[[S]], %[[S]]
func.func @sub_of_neg(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %n = "graph.neg"(%b) : (tensor<8xf32>) -> tensor<8xf32>
  %0 = "graph.sub"(%a, %n) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %1 = "graph.add"(%a, %n) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %2 = "graph.add"(%n, %a) : (tensor<8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0, %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// bf16 -> f32 -> bf16 is x; bf16 -> f32 -> f16 is one cast bf16 -> f16 (the f32 step
// is exact); i8 -> i32 -> i8 is x; ui8 -> i16 -> f32 is ui8 -> f32.
// REMARK-DAG: signs.mlir:[[@LINE+9]]:8: remark: graph-simplify: cast-chain
// CHECK-LABEL: func.func @cast_chain
// CHECK-NEXT: %[[H:.*]] = "graph.cast"(%arg0) : (tensor<8xbf16>) -> tensor<8xf16>
// CHECK-NEXT: %[[F:.*]] = "graph.cast"(%arg2) : (tensor<8xui8>) -> tensor<8xf32>
// CHECK-NEXT: return %arg0, %[[H]], %arg1, %[[F]]
// OFF-LABEL: func.func @cast_chain
// OFF-COUNT-8: graph.cast
func.func @cast_chain(%x: tensor<8xbf16>, %i: tensor<8xi8>, %u: tensor<8xui8>) -> (tensor<8xbf16>, tensor<8xf16>, tensor<8xi8>, tensor<8xf32>) {
  %w = "graph.cast"(%x) : (tensor<8xbf16>) -> tensor<8xf32>
  %0 = "graph.cast"(%w) : (tensor<8xf32>) -> tensor<8xbf16>
  %w2 = "graph.cast"(%x) : (tensor<8xbf16>) -> tensor<8xf32>
  %1 = "graph.cast"(%w2) : (tensor<8xf32>) -> tensor<8xf16>
  %wi = "graph.cast"(%i) : (tensor<8xi8>) -> tensor<8xi32>
  %2 = "graph.cast"(%wi) : (tensor<8xi32>) -> tensor<8xi8>
  %wu = "graph.cast"(%u) : (tensor<8xui8>) -> tensor<8xi16>
  %3 = "graph.cast"(%wu) : (tensor<8xi16>) -> tensor<8xf32>
  return %0, %1, %2, %3 : tensor<8xbf16>, tensor<8xf16>, tensor<8xi8>, tensor<8xf32>
}

// Negative: a chain through a narrower type rounds (f32 -> bf16 -> f32), bf16 and f16
// do not hold each other, and a signed source does not fit an unsigned type.
// CHECK-LABEL: func.func @cast_chain_rounds
// CHECK-COUNT-6: graph.cast
// CHECK-NEXT: return
func.func @cast_chain_rounds(%x: tensor<8xf32>, %h: tensor<8xf16>, %i: tensor<8xi8>) -> (tensor<8xf32>, tensor<8xf16>, tensor<8xi8>) {
  %n = "graph.cast"(%x) : (tensor<8xf32>) -> tensor<8xbf16>
  %0 = "graph.cast"(%n) : (tensor<8xbf16>) -> tensor<8xf32>
  %b = "graph.cast"(%h) : (tensor<8xf16>) -> tensor<8xbf16>
  %1 = "graph.cast"(%b) : (tensor<8xbf16>) -> tensor<8xf16>
  %u = "graph.cast"(%i) : (tensor<8xi8>) -> tensor<8xui16>
  %2 = "graph.cast"(%u) : (tensor<8xui16>) -> tensor<8xi8>
  return %0, %1, %2 : tensor<8xf32>, tensor<8xf16>, tensor<8xi8>
}
