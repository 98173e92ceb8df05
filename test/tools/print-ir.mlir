// --mlir-print-ir-before/after(-all) print the IR to stderr around braze and
// upstream passes, nested or not; stdout still holds the final IR.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,func.func(cse))' --mlir-print-ir-after-all 2>&1 >/dev/null | FileCheck %s --check-prefix=AFTER-ALL
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,func.func(cse))' --mlir-print-ir-before-all 2>&1 >/dev/null | FileCheck %s --check-prefix=BEFORE-ALL
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-verify --canonicalize --mlir-print-ir-before=graph-verify 2>&1 >/dev/null | FileCheck %s --check-prefix=BEFORE-BRAZE
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-verify --canonicalize --cse --mlir-print-ir-after=canonicalize,cse 2>&1 >/dev/null | FileCheck %s --check-prefix=AFTER-LIST
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-verify --mlir-print-ir-after-all 2>/dev/null | FileCheck %s --check-prefix=STDOUT

// AFTER-ALL: // -----// IR Dump After graph-verify //----- //
// AFTER-ALL-NEXT: module {
// AFTER-ALL: %[[C:.*]] = arith.constant 1.000000e+00 : f32
// AFTER-ALL: %{{.*}} = arith.constant 1.000000e+00 : f32
// AFTER-ALL: // -----// IR Dump After cse //----- //
// AFTER-ALL-NEXT: func.func @f
// AFTER-ALL: arith.constant 1.000000e+00 : f32
// AFTER-ALL-NOT: arith.constant
// AFTER-ALL: return

// BEFORE-ALL: // -----// IR Dump Before graph-verify //----- //
// BEFORE-ALL-NEXT: module {
// BEFORE-ALL: // -----// IR Dump Before cse //----- //
// BEFORE-ALL-NEXT: func.func @f

// BEFORE-BRAZE: // -----// IR Dump Before graph-verify //----- //
// BEFORE-BRAZE-NOT: IR Dump

// AFTER-LIST-NOT: After graph-verify
// AFTER-LIST: // -----// IR Dump After canonicalize //----- //
// AFTER-LIST: // -----// IR Dump After cse //----- //

// STDOUT-NOT: IR Dump
// STDOUT: module {
// STDOUT: func.func @f
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> (tensor<4x8xf32>, f32, f32) {
  %c = arith.constant 1.0 : f32
  %d = arith.constant 1.0 : f32
  %0 = "graph.add"(%a, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0, %c, %d : tensor<4x8xf32>, f32, f32
}
