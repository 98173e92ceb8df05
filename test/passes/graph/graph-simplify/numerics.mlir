// graph-simplify preserves values: the reference interpreter gives the same outputs
// for a module before and after the pass. Folded constants are computed as the
// interpreter computes (double, rounded to the element type per op), so the
// comparison is exact (rtol = atol = 0).
// RUN: rm -rf %t && mkdir -p %t/before %t/after
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-simplify -o %t/simplified.mlir
// RUN: FileCheck %s --check-prefix=IR < %t/simplified.mlir
// RUN: braze run %s --func f --seed 3 --save-outputs %t/before --quiet
// RUN: braze run %t/simplified.mlir --func f --seed 3 --save-outputs %t/after --quiet
// RUN: %python %S/../graph-decompose/Inputs/compare_outputs.py %t/before %t/after 0 0 | FileCheck %s

// Everything but the ops reading %x / %y folded away.
// IR-LABEL: func.func @f
// IR-NOT: "graph.exp"
// IR-NOT: "graph.cmp"
// IR-NOT: "graph.cast"
// IR-NOT: "graph.select"
// IR: return

// CHECK-COUNT-10: ok out
func.func @f(%x: tensor<3x4xf32>, %y: tensor<4xf32>)
    -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi1>, tensor<2x3xi32>, tensor<4xi64>, tensor<4xi32>,
        tensor<3x4xf32>, tensor<4x3xf32>, tensor<3x4xf32>, tensor<2x3xf32>) {
  %a = "graph.constant"() {value = dense<[[0.5, -1.25, 3.0], [-0.0, 2.5, -7.75]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %b = "graph.constant"() {value = dense<[1.5, -2.0, 0.125]> : tensor<3xf32>} : () -> tensor<3xf32>
  %e = "graph.exp"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %t = "graph.tanh"(%e) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %s = "graph.sigmoid"(%b) : (tensor<3xf32>) -> tensor<3xf32>
  %m = "graph.mul"(%t, %s) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %r = "graph.rsqrt"(%e) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %er = "graph.erf"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %p = "graph.pow"(%e, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %0 = "graph.add"(%m, %r) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %00 = "graph.sub"(%0, %er) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %01 = "graph.div"(%00, %p) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // NaN from log of a negative number; max/min propagate it; compares see it.
  %l = "graph.log"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %mx = "graph.max"(%l, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = "graph.min"(%mx, %a) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = "graph.cmp"(%l, %b) {predicate = "ne"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %rl = "graph.relu"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %sc = "graph.mul"(%rl, %a) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = "graph.cast"(%sc) : (tensor<2x3xf32>) -> tensor<2x3xi32>
  %i = "graph.constant"() {value = dense<[9223372036854775807, -9, 7, -1]> : tensor<4xi64>} : () -> tensor<4xi64>
  %j = "graph.constant"() {value = dense<[1, 2, -2, 3]> : tensor<4xi64>} : () -> tensor<4xi64>
  %ij = "graph.add"(%i, %j) : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %4 = "graph.div"(%ij, %j) : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %n = "graph.neg"(%4) : (tensor<4xi64>) -> tensor<4xi64>
  %5 = "graph.cast"(%n) : (tensor<4xi64>) -> tensor<4xi32>
  // Rules on values that are not constants.
  %zero = "graph.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %one = "graph.constant"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %x0 = "graph.add"(%x, %zero) : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  %x1 = "graph.mul"(%x0, %one) : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %x2 = "graph.div"(%x1, %one) : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %6 = "graph.sub"(%x2, %zero) : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  %bx = "graph.broadcast_to"(%y) : (tensor<4xf32>) -> tensor<3x4xf32>
  %tx = "graph.transpose"(%bx) {perm = array<i64: 1, 0>} : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %r1 = "graph.reshape"(%tx) : (tensor<4x3xf32>) -> tensor<12xf32>
  %r2 = "graph.reshape"(%r1) : (tensor<12xf32>) -> tensor<2x6xf32>
  %r3 = "graph.reshape"(%r2) : (tensor<2x6xf32>) -> tensor<4x3xf32>
  %tt = "graph.transpose"(%r3) {perm = array<i64: 1, 0>} : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %7 = "graph.transpose"(%tt) {perm = array<i64: 1, 0>} : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %c = "graph.constant"() {value = dense<true> : tensor<4xi1>} : () -> tensor<4xi1>
  %8 = "graph.select"(%c, %y, %x) : (tensor<4xi1>, tensor<4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %cf = "graph.cmp"(%a, %a) {predicate = "lt"} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %9 = "graph.select"(%cf, %a, %01) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %01, %1, %2, %3, %4, %5, %6, %7, %8, %9 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi1>, tensor<2x3xi32>, tensor<4xi64>, tensor<4xi32>, tensor<3x4xf32>, tensor<4x3xf32>, tensor<3x4xf32>, tensor<2x3xf32>
}
