// --split-input-file: each chunk is its own module, outputs are joined with
// "// -----", and diagnostics keep the whole file's line numbers.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file | FileCheck %s
// RUN: not braze-opt --cpu=x86-64-v4 %S/Inputs/split-one-bad.mlir --split-input-file 2>&1 | FileCheck %s --check-prefix=LINES
// Without the flag the file is one module (three functions).
// RUN: braze-opt --cpu=x86-64-v4 %s | FileCheck %s --check-prefix=WHOLE

// CHECK: module {
// CHECK-NEXT: func.func @first
// CHECK: // -----
// CHECK-NEXT: module {
// CHECK-NEXT: func.func @second
// CHECK: // -----
// CHECK-NEXT: module {
// CHECK-NEXT: func.func @third
// CHECK-NOT: // -----

// The bad chunk starts on line 8; its error is reported at the file's line 9.
// LINES: {{.*}}split-one-bad.mlir:9:8: error: 'graph.add' op operand shapes [4, 8] and [3] are not broadcast-compatible

// WHOLE: module {
// WHOLE-NEXT: func.func @first
// WHOLE-NOT: // -----
// WHOLE: func.func @second
// WHOLE: func.func @third

func.func @first(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----
func.func @second(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
// -----

func.func @third(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
