// A pipeline string mixing a braze pass with upstream ones, nested and not.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,func.func(canonicalize,cse))' | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-verify --canonicalize --cse | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,func.func(cse))' --mlir-print-ir-before=cse 2>&1 >/dev/null | FileCheck %s --check-prefix=BEFORE
// RUN: not braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(no-such-pass)' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify{bogus=1})' 2>&1 | FileCheck %s --check-prefix=BADOPT

// CHECK-LABEL: func.func @f
// CHECK-NEXT: %[[A:.*]] = "graph.add"(%arg0, %arg1)
// CHECK-NEXT: return %[[A]]
// BEFORE: // -----// IR Dump Before cse //----- //
// BEFORE-NEXT: func.func @f
// BAD: unknown pass or bad pipeline element 'no-such-pass'
// BADOPT: pass 'graph-verify' takes no options
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %c = arith.constant 1.0 : f32
  %0 = "graph.add"(%a, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
