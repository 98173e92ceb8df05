// Every pointwise op compiled for the CPU and compared with the reference interpreter
// on seeded random inputs: unary, binary with numpy broadcasting (including from rank
// 0), compare + select, cast; odd sizes (1, 7, 1000x37).
// RUN: braze check %s --seed 3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS @unary out0 1000x37xf32
// CHECK: PASS @unary out9 1000x37xf32
// CHECK: PASS @gelus out1 7xf32
// CHECK: PASS @binary out6 1000x37xf32
// CHECK: PASS @scalar_bcast out0 1000x37xf32
// CHECK: PASS @scalar_bcast out1 f32
// CHECK: PASS @outer_bcast out0 7x1000xf32
// CHECK: PASS @size_one out0 1x1xf32
// CHECK: PASS @cmp_select out5 1000x37xi1
// CHECK: PASS @cmp_select out6 1000x37xf32
// CHECK: PASS @casts out2 1000x37xf32
// CHECK: check passed

func.func @unary(%x: tensor<1000x37xf32>) -> (tensor<1000x37xf32>, tensor<1000x37xf32>, tensor<1000x37xf32>,
    tensor<1000x37xf32>, tensor<1000x37xf32>, tensor<1000x37xf32>, tensor<1000x37xf32>, tensor<1000x37xf32>,
    tensor<1000x37xf32>, tensor<1000x37xf32>) {
  %neg = "graph.neg"(%x) : (tensor<1000x37xf32>) -> tensor<1000x37xf32>
  %abs = "graph.abs"(%x) : (tensor<1000x37xf32>) -> tensor<1000x37xf32>
  %exp = "graph.exp"(%x) : (tensor<1000x37xf32>) -> tensor<1000x37xf32>
  %log = "graph.log"(%abs) : (tensor<1000x37xf32>) -> tensor<1000x37xf32>
  %sqrt = "graph.sqrt"(%abs) : (tensor<1000x37xf32>) -> tensor<1000x37xf32>
  %rsqrt = "graph.rsqrt"(%abs) : (tensor<1000x37xf32>) -> tensor<1000x37xf32>
  %tanh = "graph.tanh"(%x) : (tensor<1000x37xf32>) -> tensor<1000x37xf32>
  %sig = "graph.sigmoid"(%x) : (tensor<1000x37xf32>) -> tensor<1000x37xf32>
  %relu = "graph.relu"(%x) : (tensor<1000x37xf32>) -> tensor<1000x37xf32>
  %erf = "graph.erf"(%x) : (tensor<1000x37xf32>) -> tensor<1000x37xf32>
  return %neg, %abs, %exp, %log, %sqrt, %rsqrt, %tanh, %sig, %relu, %erf : tensor<1000x37xf32>, tensor<1000x37xf32>,
      tensor<1000x37xf32>, tensor<1000x37xf32>, tensor<1000x37xf32>, tensor<1000x37xf32>, tensor<1000x37xf32>,
      tensor<1000x37xf32>, tensor<1000x37xf32>, tensor<1000x37xf32>
}

func.func @gelus(%x: tensor<7xf32>) -> (tensor<7xf32>, tensor<7xf32>, tensor<7xf32>) {
  %a = "graph.gelu"(%x) {approximate = "none"} : (tensor<7xf32>) -> tensor<7xf32>
  %b = "graph.gelu"(%x) {approximate = "tanh"} : (tensor<7xf32>) -> tensor<7xf32>
  %c = "graph.silu"(%x) : (tensor<7xf32>) -> tensor<7xf32>
  return %a, %b, %c : tensor<7xf32>, tensor<7xf32>, tensor<7xf32>
}

func.func @binary(%a: tensor<1000x37xf32>, %b: tensor<37xf32>, %c: tensor<1000x1xf32>)
    -> (tensor<1000x37xf32>, tensor<1000x37xf32>, tensor<1000x37xf32>, tensor<1000x37xf32>, tensor<1000x37xf32>,
        tensor<1000x37xf32>, tensor<1000x37xf32>) {
  %add = "graph.add"(%a, %b) : (tensor<1000x37xf32>, tensor<37xf32>) -> tensor<1000x37xf32>
  %sub = "graph.sub"(%a, %c) : (tensor<1000x37xf32>, tensor<1000x1xf32>) -> tensor<1000x37xf32>
  %mul = "graph.mul"(%b, %c) : (tensor<37xf32>, tensor<1000x1xf32>) -> tensor<1000x37xf32>
  %div = "graph.div"(%a, %b) : (tensor<1000x37xf32>, tensor<37xf32>) -> tensor<1000x37xf32>
  %max = "graph.max"(%a, %c) : (tensor<1000x37xf32>, tensor<1000x1xf32>) -> tensor<1000x37xf32>
  %min = "graph.min"(%a, %b) : (tensor<1000x37xf32>, tensor<37xf32>) -> tensor<1000x37xf32>
  %abs = "graph.abs"(%a) : (tensor<1000x37xf32>) -> tensor<1000x37xf32>
  %pow = "graph.pow"(%abs, %b) : (tensor<1000x37xf32>, tensor<37xf32>) -> tensor<1000x37xf32>
  return %add, %sub, %mul, %div, %max, %min, %pow : tensor<1000x37xf32>, tensor<1000x37xf32>, tensor<1000x37xf32>,
      tensor<1000x37xf32>, tensor<1000x37xf32>, tensor<1000x37xf32>, tensor<1000x37xf32>
}

// Broadcast from rank 0, and a rank-0 result.
func.func @scalar_bcast(%s: tensor<f32>, %x: tensor<1000x37xf32>, %t: tensor<f32>) -> (tensor<1000x37xf32>, tensor<f32>) {
  %0 = "graph.mul"(%s, %x) : (tensor<f32>, tensor<1000x37xf32>) -> tensor<1000x37xf32>
  %1 = "graph.add"(%s, %t) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %0, %1 : tensor<1000x37xf32>, tensor<f32>
}

// Both operands broadcast: [7,1] x [1000] -> [7,1000].
func.func @outer_bcast(%a: tensor<7x1xf32>, %b: tensor<1000xf32>) -> tensor<7x1000xf32> {
  %0 = "graph.sub"(%a, %b) : (tensor<7x1xf32>, tensor<1000xf32>) -> tensor<7x1000xf32>
  return %0 : tensor<7x1000xf32>
}

func.func @size_one(%a: tensor<1x1xf32>, %b: tensor<1xf32>) -> tensor<1x1xf32> {
  %0 = "graph.add"(%a, %b) : (tensor<1x1xf32>, tensor<1xf32>) -> tensor<1x1xf32>
  %1 = "graph.exp"(%0) : (tensor<1x1xf32>) -> tensor<1x1xf32>
  return %1 : tensor<1x1xf32>
}

func.func @cmp_select(%a: tensor<1000x37xf32>, %b: tensor<37xf32>)
    -> (tensor<1000x37xi1>, tensor<1000x37xi1>, tensor<1000x37xi1>, tensor<1000x37xi1>, tensor<1000x37xi1>,
        tensor<1000x37xi1>, tensor<1000x37xf32>) {
  %eq = "graph.cmp"(%a, %a) {predicate = "eq"} : (tensor<1000x37xf32>, tensor<1000x37xf32>) -> tensor<1000x37xi1>
  %ne = "graph.cmp"(%a, %b) {predicate = "ne"} : (tensor<1000x37xf32>, tensor<37xf32>) -> tensor<1000x37xi1>
  %lt = "graph.cmp"(%a, %b) {predicate = "lt"} : (tensor<1000x37xf32>, tensor<37xf32>) -> tensor<1000x37xi1>
  %le = "graph.cmp"(%a, %b) {predicate = "le"} : (tensor<1000x37xf32>, tensor<37xf32>) -> tensor<1000x37xi1>
  %gt = "graph.cmp"(%a, %b) {predicate = "gt"} : (tensor<1000x37xf32>, tensor<37xf32>) -> tensor<1000x37xi1>
  %ge = "graph.cmp"(%a, %b) {predicate = "ge"} : (tensor<1000x37xf32>, tensor<37xf32>) -> tensor<1000x37xi1>
  %sel = "graph.select"(%gt, %a, %b) : (tensor<1000x37xi1>, tensor<1000x37xf32>, tensor<37xf32>) -> tensor<1000x37xf32>
  return %eq, %ne, %lt, %le, %gt, %ge, %sel : tensor<1000x37xi1>, tensor<1000x37xi1>, tensor<1000x37xi1>,
      tensor<1000x37xi1>, tensor<1000x37xi1>, tensor<1000x37xi1>, tensor<1000x37xf32>
}

func.func @casts(%a: tensor<1000x37xf32>, %i: tensor<1000x37xi32>)
    -> (tensor<1000x37xi32>, tensor<1000x37xi1>, tensor<1000x37xf32>, tensor<1000x37xi64>) {
  %s = "graph.mul"(%a, %a) : (tensor<1000x37xf32>, tensor<1000x37xf32>) -> tensor<1000x37xf32>
  %0 = "graph.cast"(%s) : (tensor<1000x37xf32>) -> tensor<1000x37xi32>
  %1 = "graph.cast"(%i) : (tensor<1000x37xi32>) -> tensor<1000x37xi1>
  %2 = "graph.cast"(%i) : (tensor<1000x37xi32>) -> tensor<1000x37xf32>
  %3 = "graph.cast"(%i) : (tensor<1000x37xi32>) -> tensor<1000x37xi64>
  return %0, %1, %2, %3 : tensor<1000x37xi32>, tensor<1000x37xi1>, tensor<1000x37xf32>, tensor<1000x37xi64>
}
