// scale-out-of-batch-matmul, softmax-stabilize, mask-to-bias and select-keep-first: attention's
// equivalent spellings brought to the form attention's matcher takes
// (passes/graph/simplify-attention.c). The whole matrix of spellings, through
// form-row-chains on both targets: test/passes/chains/form-row-chains/spellings.mlir.
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-simplify | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-simplify='disable=scale-out-of-batch-matmul,softmax-stabilize,mask-to-bias,select-keep-first' | FileCheck %s --check-prefix=OFF

// The scale on q (a mul) and on k^T (a div by a [1, 1, 1] constant) moves to the
// product (one product after cse).
// CHECK-LABEL: func.func @scale_on_operands
// CHECK: %[[C:.*]] = "graph.constant"() {value = dense<1.250000e-01> : tensor<f32>}
// CHECK: %[[P:.*]] = "graph.batch_matmul"(%arg0, %arg1) : (tensor<2x8x4xf32>, tensor<2x4x8xf32>) -> tensor<2x8x8xf32>
// CHECK: %[[S:.*]] = "graph.mul"(%[[P]], %[[C]])
// CHECK: %[[D:.*]] = "graph.constant"() {value = dense<8.000000e+00> : tensor<1x1x1xf32>}
// CHECK: %[[S2:.*]] = "graph.div"(%[[P]], %[[D]])
// CHECK: return %[[S]], %[[S2]]
// OFF-LABEL: func.func @scale_on_operands
// OFF: "graph.mul"(%{{.*}}, %arg0)
// OFF: "graph.div"(%arg1,
func.func @scale_on_operands(%q: tensor<2x8x4xf32>, %kt: tensor<2x4x8xf32>) -> (tensor<2x8x8xf32>, tensor<2x8x8xf32>) {
  %c = "graph.constant"() {value = dense<0.125> : tensor<f32>} : () -> tensor<f32>
  %qs = "graph.mul"(%c, %q) : (tensor<f32>, tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %0 = "graph.batch_matmul"(%qs, %kt) : (tensor<2x8x4xf32>, tensor<2x4x8xf32>) -> tensor<2x8x8xf32>
  %d = "graph.constant"() {value = dense<8.0> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %ks = "graph.div"(%kt, %d) : (tensor<2x4x8xf32>, tensor<1x1x1xf32>) -> tensor<2x4x8xf32>
  %1 = "graph.batch_matmul"(%q, %ks) : (tensor<2x8x4xf32>, tensor<2x4x8xf32>) -> tensor<2x8x8xf32>
  return %0, %1 : tensor<2x8x8xf32>, tensor<2x8x8xf32>
}

// A scale under the transpose of k (k * c, then transposed; q scaled too, as implementations
// that split 1/sqrt(d) in two write it): both leave the product, the transpose rebuilt on k.
// CHECK-LABEL: func.func @scale_under_transpose
// CHECK: %[[T:.*]] = "graph.transpose"(%arg1) {perm = array<i64: 0, 2, 1>}
// CHECK: %[[P:.*]] = "graph.batch_matmul"(%arg0, %[[T]])
// CHECK: %[[S1:.*]] = "graph.mul"(%[[P]], %{{.*}})
// CHECK: "graph.mul"(%[[S1]], %{{.*}})
// OFF-LABEL: func.func @scale_under_transpose
// OFF: %[[KS:.*]] = "graph.mul"(%arg1,
// OFF: "graph.transpose"(%[[KS]])
func.func @scale_under_transpose(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>) -> tensor<2x8x8xf32> {
  %c = "graph.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %qs = "graph.mul"(%q, %c) : (tensor<2x8x4xf32>, tensor<f32>) -> tensor<2x8x4xf32>
  %ks = "graph.mul"(%k, %c) : (tensor<2x8x4xf32>, tensor<f32>) -> tensor<2x8x4xf32>
  %kt = "graph.transpose"(%ks) {perm = array<i64: 0, 2, 1>} : (tensor<2x8x4xf32>) -> tensor<2x4x8xf32>
  %0 = "graph.batch_matmul"(%qs, %kt) : (tensor<2x8x4xf32>, tensor<2x4x8xf32>) -> tensor<2x8x8xf32>
  return %0 : tensor<2x8x8xf32>
}

// Negative: the scaled q has another use (both forms would be computed), the scale is
// per element (not one value), and a constant divided by q is no scale.
// CHECK-LABEL: func.func @scale_stays
// CHECK: %[[QS:.*]] = "graph.mul"(%arg0, %{{.*}})
// CHECK: "graph.batch_matmul"(%[[QS]], %arg1)
// CHECK: %[[QV:.*]] = "graph.mul"(%arg0, %arg2)
// CHECK: "graph.batch_matmul"(%[[QV]], %arg1)
// CHECK: %[[QD:.*]] = "graph.div"(%{{.*}}, %arg0)
// CHECK: "graph.batch_matmul"(%[[QD]], %arg1)
func.func @scale_stays(%q: tensor<2x8x4xf32>, %kt: tensor<2x4x8xf32>, %w: tensor<2x8x4xf32>) -> (tensor<2x8x8xf32>, tensor<2x8x4xf32>, tensor<2x8x8xf32>, tensor<2x8x8xf32>) {
  %c = "graph.constant"() {value = dense<0.125> : tensor<f32>} : () -> tensor<f32>
  %qs = "graph.mul"(%q, %c) : (tensor<2x8x4xf32>, tensor<f32>) -> tensor<2x8x4xf32>
  %0 = "graph.batch_matmul"(%qs, %kt) : (tensor<2x8x4xf32>, tensor<2x4x8xf32>) -> tensor<2x8x8xf32>
  %qv = "graph.mul"(%q, %w) : (tensor<2x8x4xf32>, tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %1 = "graph.batch_matmul"(%qv, %kt) : (tensor<2x8x4xf32>, tensor<2x4x8xf32>) -> tensor<2x8x8xf32>
  %qd = "graph.div"(%c, %q) : (tensor<f32>, tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %2 = "graph.batch_matmul"(%qd, %kt) : (tensor<2x8x4xf32>, tensor<2x4x8xf32>) -> tensor<2x8x8xf32>
  return %0, %qs, %1, %2 : tensor<2x8x8xf32>, tensor<2x8x4xf32>, tensor<2x8x8xf32>, tensor<2x8x8xf32>
}

// exp(x) / sum(exp(x)) gets the row max: graph-decompose's softmax.
// CHECK-LABEL: func.func @softmax_without_max
// CHECK-NEXT: %[[M:.*]] = "graph.reduce_max"(%arg0) {dims = array<i64: 1>, keepdim = true}
// CHECK-NEXT: %[[S:.*]] = "graph.sub"(%arg0, %[[M]])
// CHECK-NEXT: %[[E:.*]] = "graph.exp"(%[[S]])
// CHECK-NEXT: %[[T:.*]] = "graph.reduce_sum"(%[[E]]) {dims = array<i64: 1>, keepdim = true}
// CHECK-NEXT: %[[P:.*]] = "graph.div"(%[[E]], %[[T]])
// CHECK-NEXT: return %[[P]]
func.func @softmax_without_max(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = "graph.exp"(%x) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %s = "graph.reduce_sum"(%e) {dims = array<i64: 1>, keepdim = true} : (tensor<4x16xf32>) -> tensor<4x1xf32>
  %p = "graph.div"(%e, %s) : (tensor<4x16xf32>, tensor<4x1xf32>) -> tensor<4x16xf32>
  return %p : tensor<4x16xf32>
}

// Negative: exp(x) returned too; a sum over another dim than the quotient's rows is
// still stabilized per its own dim (dim 0 here), and an exp already shifted by its max
// is left as it is.
// CHECK-LABEL: func.func @softmax_stays
// CHECK-NOT: graph.reduce_max
// CHECK: return
func.func @softmax_stays(%x: tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %e = "graph.exp"(%x) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %s = "graph.reduce_sum"(%e) {dims = array<i64: 1>, keepdim = true} : (tensor<4x16xf32>) -> tensor<4x1xf32>
  %p = "graph.div"(%e, %s) : (tensor<4x16xf32>, tensor<4x1xf32>) -> tensor<4x16xf32>
  return %p, %e : tensor<4x16xf32>, tensor<4x16xf32>
}

// A run-time boolean mask selecting -inf (or finfo.min, the inverted form too) before
// a softmax over the keys becomes an additive bias computed from the mask.
// CHECK-LABEL: func.func @mask_to_bias
// CHECK: %[[Z:.*]] = "graph.constant"() {value = dense<0.000000e+00> : tensor<f32>}
// CHECK: %[[B:.*]] = "graph.select"(%arg1, %[[Z]], %{{.*}}) : (tensor<8x8xi1>, tensor<f32>, tensor<f32>) -> tensor<8x8xf32>
// CHECK: %[[A:.*]] = "graph.add"(%arg0, %[[B]]) : (tensor<2x8x8xf32>, tensor<8x8xf32>) -> tensor<2x8x8xf32>
// CHECK: "graph.softmax"(%[[A]])
// CHECK: %[[B2:.*]] = "graph.select"(%arg1, %{{.*}}, %[[Z]]) : (tensor<8x8xi1>, tensor<f32>, tensor<f32>) -> tensor<8x8xf32>
// CHECK: "graph.add"(%arg0, %[[B2]])
// OFF-LABEL: func.func @mask_to_bias
// OFF: "graph.select"(%arg1, %arg0,
func.func @mask_to_bias(%s: tensor<2x8x8xf32>, %m: tensor<8x8xi1>) -> (tensor<2x8x8xf32>, tensor<2x8x8xf32>) {
  %ninf = "graph.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %x = "graph.select"(%m, %s, %ninf) : (tensor<8x8xi1>, tensor<2x8x8xf32>, tensor<f32>) -> tensor<2x8x8xf32>
  %p = "graph.softmax"(%x) {dim = 2 : i64} : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %min = "graph.constant"() {value = dense<-3.40282347E+38> : tensor<f32>} : () -> tensor<f32>
  %y = "graph.select"(%m, %min, %s) : (tensor<8x8xi1>, tensor<f32>, tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %p2 = "graph.softmax"(%y) {dim = 2 : i64} : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  return %p, %p2 : tensor<2x8x8xf32>, tensor<2x8x8xf32>
}

// Negative: a constant mask stays a select (the matcher's causal form), a fill above
// -1e4 is no mask, and a select read by anything but the softmax stays.
// CHECK-LABEL: func.func @mask_stays
// CHECK-NOT: graph.add
// CHECK: return
func.func @mask_stays(%s: tensor<2x2x2xf32>, %m: tensor<2x2xi1>) -> (tensor<2x2x2xf32>, tensor<2x2x2xf32>, tensor<2x2x2xf32>, tensor<2x2x2xf32>) {
  %ninf = "graph.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %tril = "graph.constant"() {value = dense<[[true, false], [true, true]]> : tensor<2x2xi1>} : () -> tensor<2x2xi1>
  %x = "graph.select"(%tril, %s, %ninf) : (tensor<2x2xi1>, tensor<2x2x2xf32>, tensor<f32>) -> tensor<2x2x2xf32>
  %p = "graph.softmax"(%x) {dim = 2 : i64} : (tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  %small = "graph.constant"() {value = dense<-100.0> : tensor<f32>} : () -> tensor<f32>
  %y = "graph.select"(%m, %s, %small) : (tensor<2x2xi1>, tensor<2x2x2xf32>, tensor<f32>) -> tensor<2x2x2xf32>
  %p2 = "graph.softmax"(%y) {dim = 2 : i64} : (tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  %z = "graph.select"(%m, %s, %ninf) : (tensor<2x2xi1>, tensor<2x2x2xf32>, tensor<f32>) -> tensor<2x2x2xf32>
  %p3 = "graph.softmax"(%z) {dim = 2 : i64} : (tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  return %p, %p2, %p3, %z : tensor<2x2x2xf32>, tensor<2x2x2xf32>, tensor<2x2x2xf32>, tensor<2x2x2xf32>
}

// select-keep-first: masked_fill(tril(ones) == 0, -inf) keeps the scores where a constant
// mask is false; the select is flipped to the keep-mask (the causal form the matcher
// reads). A mask computed at run time is left to mask-to-bias.
// CHECK-LABEL: func.func @select_keep_first
// CHECK: %[[K:.*]] = "graph.constant"() {value = dense<{{\[\[}}true, false], [true, true]]> : tensor<2x2xi1>}
// CHECK: "graph.select"(%[[K]], %arg0, %{{.*}}) : (tensor<2x2xi1>, tensor<2x2x2xf32>, tensor<f32>)
// OFF-LABEL: func.func @select_keep_first
// OFF: "graph.select"(%{{.*}}, %{{.*}}, %arg0)
func.func @select_keep_first(%s: tensor<2x2x2xf32>) -> tensor<2x2x2xf32> {
  %m = "graph.constant"() {value = dense<[[false, true], [false, false]]> : tensor<2x2xi1>} : () -> tensor<2x2xi1>
  %c = "graph.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %0 = "graph.select"(%m, %c, %s) : (tensor<2x2xi1>, tensor<f32>, tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  return %0 : tensor<2x2x2xf32>
}
