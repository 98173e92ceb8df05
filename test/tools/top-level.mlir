// Files of several top-level ops are wrapped in a module like mlir-opt does, with
// alias definitions and file-level metadata kept outside the wrapper and every
// location unchanged.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --verify-diagnostics | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --verify-diagnostics | braze-opt --cpu=x86-64-v4 --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @aliased
// CHECK-SAME: tensor<4xf32>
// CHECK: func.func @second
!t = tensor<4xf32>
func.func @aliased(%a: !t) -> !t {
  return %a : !t
}
func.func @second(%a: !t) -> !t {
  return %a : !t
}

// -----

// A resource-backed constant: the dialect_resources block stays at file level.
// CHECK-LABEL: func.func @resource
// CHECK: "graph.constant"() {value = dense_resource<blob1> : tensor<2xf32>}
// CHECK: {-#
// CHECK: blob1
func.func @resource() -> tensor<2xf32> {
  %0 = "graph.constant"() {value = dense_resource<blob1> : tensor<2xf32>} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F00000040"
    }
  }
#-}

// -----

// Locations after aliases keep their lines and columns.
#map = affine_map<(d0) ->
                  (d0)>
func.func @located(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "graph.exp"(%x) : (tensor<4xi32>) -> tensor<4xi32> // expected-error {{'graph.exp' op}}
  return %0 : tensor<4xi32>
}
