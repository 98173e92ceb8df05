// const-fold: pointwise unary/binary/cmp/cast ops whose operands are all constants
// become one constant, when the result has at most fold-limit elements (default
// 64) and every type involved is f32, i32, i64 or i1. Values are computed in double
// (int64 for integers) and rounded to the result type, as the reference does.
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-simplify | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-simplify=fold-limit=2 | FileCheck %s --check-prefix=LIMIT

// CHECK-LABEL: func.func @fold_binary_broadcast
// CHECK-NEXT: %[[C:.*]] = "graph.constant"() {value = dense<{{\[}}[1.100000e+01, 2.200000e+01], [1.300000e+01, 2.400000e+01]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
// CHECK-NEXT: return %[[C]]
// LIMIT-LABEL: func.func @fold_binary_broadcast
// LIMIT: "graph.add"
func.func @fold_binary_broadcast() -> tensor<2x2xf32> {
  %a = "graph.constant"() {value = dense<[[1.0], [3.0]]> : tensor<2x1xf32>} : () -> tensor<2x1xf32>
  %b = "graph.constant"() {value = dense<[10.0, 21.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = "graph.add"(%a, %b) : (tensor<2x1xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// A chain folds all the way; splat results stay splats.
// CHECK-LABEL: func.func @fold_chain
// CHECK-NEXT: %[[C:.*]] = "graph.constant"() {value = dense<2.000000e+00> : tensor<2xf32>} : () -> tensor<2xf32>
// CHECK-NEXT: return %[[C]]
// LIMIT-LABEL: func.func @fold_chain
// LIMIT-NEXT: "graph.constant"() {value = dense<2.000000e+00> : tensor<2xf32>}
func.func @fold_chain() -> tensor<2xf32> {
  %a = "graph.constant"() {value = dense<4.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = "graph.sqrt"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "graph.neg"(%0) : (tensor<2xf32>) -> tensor<2xf32>
  %2 = "graph.abs"(%1) : (tensor<2xf32>) -> tensor<2xf32>
  return %2 : tensor<2xf32>
}

// f32 results are rounded once from the double result: exp(1) = 2.71828183.
// CHECK-LABEL: func.func @fold_exp
// CHECK-NEXT: "graph.constant"() {value = dense<2.71828175> : tensor<f32>}
func.func @fold_exp() -> tensor<f32> {
  %a = "graph.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "graph.exp"(%a) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// Integers wrap; division truncates toward zero; compares give i1; casts convert.
// CHECK-LABEL: func.func @fold_int
// CHECK-NEXT: %[[W:.*]] = "graph.constant"() {value = dense<-2147483648> : tensor<i32>}
// CHECK-NEXT: %[[D:.*]] = "graph.constant"() {value = dense<[-3, 3]> : tensor<2xi64>}
// CHECK-NEXT: %[[C:.*]] = "graph.constant"() {value = dense<[true, false]> : tensor<2xi1>}
// CHECK-NEXT: %[[F:.*]] = "graph.constant"() {value = dense<[-7.000000e+00, 7.000000e+00]> : tensor<2xf32>}
// CHECK-NEXT: %[[T:.*]] = "graph.constant"() {value = dense<[-2, 2]> : tensor<2xi32>}
// CHECK-NEXT: return %[[W]], %[[D]], %[[C]], %[[F]], %[[T]]
func.func @fold_int() -> (tensor<i32>, tensor<2xi64>, tensor<2xi1>, tensor<2xf32>, tensor<2xi32>) {
  %max = "graph.constant"() {value = dense<2147483647> : tensor<i32>} : () -> tensor<i32>
  %one = "graph.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %0 = "graph.add"(%max, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %a = "graph.constant"() {value = dense<[-7, 7]> : tensor<2xi64>} : () -> tensor<2xi64>
  %two = "graph.constant"() {value = dense<2> : tensor<2xi64>} : () -> tensor<2xi64>
  %1 = "graph.div"(%a, %two) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %2 = "graph.cmp"(%a, %two) {predicate = "lt"} : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi1>
  %3 = "graph.cast"(%a) : (tensor<2xi64>) -> tensor<2xf32>
  %h = "graph.constant"() {value = dense<[-2.5, 2.5]> : tensor<2xf32>} : () -> tensor<2xf32>
  %4 = "graph.cast"(%h) : (tensor<2xf32>) -> tensor<2xi32>
  return %0, %1, %2, %3, %4 : tensor<i32>, tensor<2xi64>, tensor<2xi1>, tensor<2xf32>, tensor<2xi32>
}

// Negative: f16 is not folded; integer division by zero is left for the runtime
// to report; an operand that is not a constant stops folding.
// CHECK-LABEL: func.func @no_fold
// CHECK: "graph.exp"
// CHECK: "graph.div"
// CHECK: "graph.mul"
// CHECK: return
func.func @no_fold(%x: tensor<2xf32>) -> (tensor<2xf16>, tensor<2xi32>, tensor<2xf32>) {
  %h = "graph.constant"() {value = dense<1.0> : tensor<2xf16>} : () -> tensor<2xf16>
  %0 = "graph.exp"(%h) : (tensor<2xf16>) -> tensor<2xf16>
  %a = "graph.constant"() {value = dense<[1, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %z = "graph.constant"() {value = dense<[1, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %1 = "graph.div"(%a, %z) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %c = "graph.constant"() {value = dense<3.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %2 = "graph.mul"(%x, %c) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0, %1, %2 : tensor<2xf16>, tensor<2xi32>, tensor<2xf32>
}
