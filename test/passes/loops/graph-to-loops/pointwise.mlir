// Pointwise ops become all-parallel linalg.generics over the result shape, writing
// into a tensor.empty. Broadcast operands read through maps: missing leading dims
// are dropped, stretched size-1 dims read at 0. Splat constants become scalars.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --graph-to-loops | FileCheck %s
// The output is valid upstream IR: mlir-opt parses and verifies every function.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --graph-to-loops | mlir-opt --split-input-file --verify-each -o /dev/null

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[SCALAR:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @broadcasting(
// CHECK-SAME: %[[X:.*]]: tensor<4x8xf32>, %[[S:.*]]: tensor<8xf32>, %[[C:.*]]: tensor<4x1xf32>, %[[K:.*]]: tensor<f32>)
// CHECK: %[[E0:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK: %[[MUL:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%[[X]], %[[S]] : tensor<4x8xf32>, tensor<8xf32>) outs(%[[E0]] : tensor<4x8xf32>)
// CHECK-SAME: braze.ops = ["mul"]
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT: linalg.yield %[[M]] : f32
// CHECK: %[[ADD:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[COL]], #[[ID]]]
// CHECK-SAME: ins(%[[MUL]], %[[C]] :
// CHECK: arith.addf
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[SCALAR]], #[[ID]]]
// CHECK-SAME: ins(%[[ADD]], %[[K]] :
// CHECK: arith.subf
// CHECK: return
func.func @broadcasting(%x: tensor<4x8xf32>, %s: tensor<8xf32>, %c: tensor<4x1xf32>, %k: tensor<f32>) -> tensor<4x8xf32> {
  %0 = "graph.mul"(%x, %s) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %1 = "graph.add"(%0, %c) : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %2 = "graph.sub"(%1, %k) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// A splat constant operand is a scalar arith.constant in the body, not an input;
// the graph.constant is gone once nothing reads the tensor.
// CHECK-LABEL: func.func @splat_scalar(
// CHECK-NOT: arith.constant dense
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["parallel"]} ins(%arg0 : tensor<8xf32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[H:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: arith.mulf %[[A]], %[[H]] : f32
func.func @splat_scalar(%x: tensor<8xf32>) -> tensor<8xf32> {
  %h = "graph.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %0 = "graph.mul"(%x, %h) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// The same tensor read twice through the same map is one input.
// CHECK-LABEL: func.func @square(
// CHECK: linalg.generic {{.*}} ins(%arg0 : tensor<8xf32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: arith.mulf %[[A]], %[[A]] : f32
func.func @square(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "graph.mul"(%x, %x) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Unary float ops: one generic each, with these bodies.
// CHECK-LABEL: func.func @unary_float(
// CHECK: braze.ops = ["neg"]
// CHECK: arith.negf
// CHECK: braze.ops = ["abs"]
// CHECK: math.absf
// CHECK: braze.ops = ["exp"]
// CHECK: math.exp
// CHECK: braze.ops = ["log"]
// CHECK: math.log
// CHECK: braze.ops = ["sqrt"]
// CHECK: math.sqrt
// CHECK: braze.ops = ["rsqrt"]
// CHECK: math.rsqrt
// CHECK: braze.ops = ["tanh"]
// CHECK: math.tanh
// CHECK: braze.ops = ["erf"]
// CHECK: math.erf
// CHECK: braze.ops = ["sigmoid"]
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[N:.*]] = arith.negf %[[X]] : f32
// CHECK-NEXT: %[[E:.*]] = math.exp %[[N]] : f32
// CHECK-NEXT: %[[D:.*]] = arith.addf %[[ONE]], %[[E]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.divf %[[ONE]], %[[D]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK: braze.ops = ["relu"]
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: arith.maximumf %[[X]], %[[Z]] : f32
func.func @unary_float(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "graph.neg"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = "graph.abs"(%0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = "graph.exp"(%1) : (tensor<8xf32>) -> tensor<8xf32>
  %3 = "graph.log"(%2) : (tensor<8xf32>) -> tensor<8xf32>
  %4 = "graph.sqrt"(%3) : (tensor<8xf32>) -> tensor<8xf32>
  %5 = "graph.rsqrt"(%4) : (tensor<8xf32>) -> tensor<8xf32>
  %6 = "graph.tanh"(%5) : (tensor<8xf32>) -> tensor<8xf32>
  %7 = "graph.erf"(%6) : (tensor<8xf32>) -> tensor<8xf32>
  %8 = "graph.sigmoid"(%7) : (tensor<8xf32>) -> tensor<8xf32>
  %9 = "graph.relu"(%8) : (tensor<8xf32>) -> tensor<8xf32>
  return %9 : tensor<8xf32>
}

// -----

// Binary float ops; max/min propagate NaN (maximumf/minimumf).
// CHECK-LABEL: func.func @binary_float(
// CHECK: arith.addf
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK: arith.divf
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// CHECK: math.powf
func.func @binary_float(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "graph.add"(%x, %y) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %1 = "graph.sub"(%0, %y) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %2 = "graph.mul"(%1, %y) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %3 = "graph.div"(%2, %y) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %4 = "graph.max"(%3, %y) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %5 = "graph.min"(%4, %y) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %6 = "graph.pow"(%5, %y) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %6 : tensor<8xf32>
}

// -----

// Integer ops: signed arithmetic, neg as 0 - x, relu as maxsi with 0.
// CHECK-LABEL: func.func @integer(
// CHECK: arith.addi
// CHECK: arith.divsi
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT: arith.subi %[[Z]], %{{.*}} : i32
// CHECK: math.absi
// CHECK: %[[Z2:.*]] = arith.constant 0 : i32
// CHECK-NEXT: arith.maxsi %{{.*}}, %[[Z2]] : i32
func.func @integer(%x: tensor<8xi32>, %y: tensor<8xi32>) -> tensor<8xi32> {
  %0 = "graph.add"(%x, %y) : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
  %1 = "graph.div"(%0, %y) : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
  %2 = "graph.max"(%1, %y) : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
  %3 = "graph.min"(%2, %y) : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
  %4 = "graph.neg"(%3) : (tensor<8xi32>) -> tensor<8xi32>
  %5 = "graph.abs"(%4) : (tensor<8xi32>) -> tensor<8xi32>
  %6 = "graph.relu"(%5) : (tensor<8xi32>) -> tensor<8xi32>
  return %6 : tensor<8xi32>
}

// -----

// Compares: ordered float predicates except ne (une); signed integer predicates,
// unsigned for i1 (false < true). select is arith.select.
// CHECK-LABEL: func.func @compare_select(
// CHECK: arith.cmpf oeq
// CHECK: arith.cmpf une
// CHECK: arith.cmpf olt
// CHECK: arith.cmpf ole
// CHECK: arith.cmpf ogt
// CHECK: arith.cmpf oge
// CHECK: arith.cmpi slt, %{{.*}}, %{{.*}} : i32
// CHECK: arith.cmpi ne, %{{.*}}, %{{.*}} : i32
// CHECK: arith.cmpi ult, %{{.*}}, %{{.*}} : i1
// CHECK: braze.ops = ["select"]
// CHECK-NEXT: ^bb0(%[[C:.*]]: i1, %[[T:.*]]: f32, %[[F:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: arith.select %[[C]], %[[T]], %[[F]] : f32
func.func @compare_select(%x: tensor<8xf32>, %y: tensor<8xf32>, %i: tensor<8xi32>, %j: tensor<8xi32>)
    -> (tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xf32>) {
  %0 = "graph.cmp"(%x, %y) {predicate = "eq"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  %1 = "graph.cmp"(%x, %y) {predicate = "ne"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  %2 = "graph.cmp"(%x, %y) {predicate = "lt"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  %3 = "graph.cmp"(%x, %y) {predicate = "le"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  %4 = "graph.cmp"(%x, %y) {predicate = "gt"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  %5 = "graph.cmp"(%x, %y) {predicate = "ge"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  %6 = "graph.cmp"(%i, %j) {predicate = "lt"} : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
  %7 = "graph.cmp"(%i, %j) {predicate = "ne"} : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
  %8 = "graph.cmp"(%0, %1) {predicate = "lt"} : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
  %9 = "graph.select"(%2, %x, %y) : (tensor<8xi1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xf32>
}

// -----

// select broadcasts its three operands.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @select_broadcast(
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[COL]], #[[ID]]]
// CHECK-SAME: ins(%arg0, %arg1, %arg2 : tensor<4x8xi1>, tensor<8xf32>, tensor<4x1xf32>)
func.func @select_broadcast(%c: tensor<4x8xi1>, %t: tensor<8xf32>, %f: tensor<4x1xf32>) -> tensor<4x8xf32> {
  %0 = "graph.select"(%c, %t, %f) : (tensor<4x8xi1>, tensor<8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Casts between every kind of element type.
// CHECK-LABEL: func.func @casts(
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT: arith.truncf %{{.*}} : f32 to bf16
// CHECK: arith.fptosi %{{.*}} : f32 to i32
// CHECK: arith.sitofp %{{.*}} : i32 to f32
// CHECK: arith.extsi %{{.*}} : i32 to i64
// CHECK: arith.trunci %{{.*}} : i64 to i32
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: arith.cmpf une, %{{.*}}, %[[Z]] : f32
// CHECK: %[[ZI:.*]] = arith.constant 0 : i32
// CHECK-NEXT: arith.cmpi ne, %{{.*}}, %[[ZI]] : i32
// CHECK: arith.uitofp %{{.*}} : i1 to f32
// CHECK: arith.extui %{{.*}} : i1 to i32
func.func @casts(%h: tensor<8xf16>, %f: tensor<8xf32>, %i: tensor<8xi32>, %l: tensor<8xi64>, %b: tensor<8xi1>)
    -> (tensor<8xf32>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi32>, tensor<8xf32>, tensor<8xi64>, tensor<8xi32>, tensor<8xi1>, tensor<8xi1>, tensor<8xf32>, tensor<8xi32>) {
  %0 = "graph.cast"(%h) : (tensor<8xf16>) -> tensor<8xf32>
  %1 = "graph.cast"(%f) : (tensor<8xf32>) -> tensor<8xf16>
  %2 = "graph.cast"(%h) : (tensor<8xf16>) -> tensor<8xbf16>
  %3 = "graph.cast"(%f) : (tensor<8xf32>) -> tensor<8xi32>
  %4 = "graph.cast"(%i) : (tensor<8xi32>) -> tensor<8xf32>
  %5 = "graph.cast"(%i) : (tensor<8xi32>) -> tensor<8xi64>
  %6 = "graph.cast"(%l) : (tensor<8xi64>) -> tensor<8xi32>
  %7 = "graph.cast"(%f) : (tensor<8xf32>) -> tensor<8xi1>
  %8 = "graph.cast"(%i) : (tensor<8xi32>) -> tensor<8xi1>
  %9 = "graph.cast"(%b) : (tensor<8xi1>) -> tensor<8xf32>
  %10 = "graph.cast"(%b) : (tensor<8xi1>) -> tensor<8xi32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : tensor<8xf32>, tensor<8xf16>, tensor<8xbf16>, tensor<8xi32>, tensor<8xf32>, tensor<8xi64>, tensor<8xi32>, tensor<8xi1>, tensor<8xi1>, tensor<8xf32>, tensor<8xi32>
}
