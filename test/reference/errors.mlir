// What the interpreter refuses, each with file:line:col and exit status 1.
// RUN: not braze run %s --func div_zero 2>&1 | FileCheck %s --check-prefix=DIV
// RUN: rm -rf %t.out && not braze run %s --func div_zero --save-outputs %t.out 2>/dev/null && not ls %t.out
// RUN: not braze run %s --func cast_nan 2>&1 | FileCheck %s --check-prefix=CAST
// RUN: not braze run %s --func other_dialect 2>&1 | FileCheck %s --check-prefix=OTHER
// RUN: not braze run %s --func linalg_kernel 2>&1 | FileCheck %s --check-prefix=KERNEL
// RUN: not braze run %s --func calls_bad 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: not braze run %s --func missing_blob 2>&1 | FileCheck %s --check-prefix=BLOB
// RUN: not braze run %s --func recursive 2>&1 | FileCheck %s --check-prefix=RECURSE
// RUN: not braze run %s --func i16 2>&1 | FileCheck %s --check-prefix=I16

func.func @div_zero() -> tensor<2xi32> {
  %a = "graph.constant"() {value = dense<[4, 5]> : tensor<2xi32>} : () -> tensor<2xi32>
  %b = "graph.constant"() {value = dense<[2, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  // DIV: errors.mlir:[[@LINE+1]]:8: error: reference: graph.div: integer division by zero at result element 1
  %0 = "graph.div"(%a, %b) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

func.func @cast_nan() -> tensor<2xi32> {
  %z = "graph.constant"() {value = dense<[1.0, 0.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %n = "graph.div"(%z, %z) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  // CAST: errors.mlir:[[@LINE+1]]:8: error: reference: graph.cast: element 1 ({{-?}}nan) cannot be converted to i32 (NaN or out of range)
  %0 = "graph.cast"(%n) : (tensor<2xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

func.func @other_dialect(%x: tensor<3xf32>) -> tensor<3xf32> {
  // OTHER: errors.mlir:[[@LINE+1]]:8: error: reference: unsupported op 'tensor.empty'
  %e = tensor.empty() : tensor<3xf32>
  %0 = "graph.add"(%x, %e) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

func.func private @add_one(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %c : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @linalg_kernel(%x: tensor<4xf32>) -> tensor<4xf32> {
  // KERNEL: errors.mlir:[[@LINE+1]]:8: error: reference: func.call: unsupported: user kernel @add_one is not written in the graph dialect ('arith.constant' at {{.*}}errors.mlir:{{[0-9]+}}:8); the reference interpreter evaluates only graph-dialect callees
  %0 = func.call @add_one(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func private @bad_callee(%x: tensor<2xi64>) -> tensor<2xi64> {
  %z = "graph.constant"() {value = dense<0> : tensor<2xi64>} : () -> tensor<2xi64>
  // NESTED: errors.mlir:[[@LINE+1]]:8: error: reference: graph.div: integer division by zero at result element 0
  %0 = "graph.div"(%x, %z) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}
func.func @calls_bad(%x: tensor<2xi64>) -> tensor<2xi64> {
  // NESTED: errors.mlir:[[@LINE+1]]:8: note: called from here (@bad_callee)
  %0 = func.call @bad_callee(%x) : (tensor<2xi64>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

func.func @missing_blob() -> tensor<2xf32> {
  // BLOB: errors.mlir:[[@LINE+1]]:8: error: reference: graph.constant: dense_resource<nowhere> has no blob in the module's dialect_resources section
  %c = "graph.constant"() {value = dense_resource<nowhere> : tensor<2xf32>} : () -> tensor<2xf32>
  return %c : tensor<2xf32>
}

func.func @recursive(%x: tensor<2xf32>) -> tensor<2xf32> {
  // RECURSE: errors.mlir:[[@LINE+1]]:8: error: reference: func.call: calls nested deeper than 64 (recursive call of @recursive?)
  %0 = func.call @recursive(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// I16: braze run: argument 0 of @i16 is tensor<2xsi16>; expected an element type of f32, f64, f16, bf16, i8, i16, i32, i64, ui8, ui16, ui32, ui64 or i1
func.func @i16(%x: tensor<2xsi16>) -> tensor<2xsi16> {
  return %x : tensor<2xsi16>
}
