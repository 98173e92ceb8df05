// A user kernel is a func.call of a func.func in the module, called between graph
// ops, with arguments of different types. The reference interpreter evaluates only
// callees written in graph ops, so this one is (user-kernel-linalg.mlir has a
// linalg callee, checked structurally).
// XFAIL: *
// Known gap (reported): form-kernels makes each call an `ext` kernel, but
// cpu-codegen refuses func.call inside kernels ("unsupported op 'func.call'"), so
// no user kernel compiles for the CPU yet. Remove the XFAIL when it does.
// RUN: braze check %s --seed 7 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS @model out0 6x8xf32
// CHECK: PASS @twice out0 6x8xf32

func.func private @bias_tanh(%x: tensor<6x8xf32>, %b: tensor<8xf32>) -> tensor<6x8xf32> {
  %0 = "graph.add"(%x, %b) : (tensor<6x8xf32>, tensor<8xf32>) -> tensor<6x8xf32>
  %1 = "graph.tanh"(%0) : (tensor<6x8xf32>) -> tensor<6x8xf32>
  return %1 : tensor<6x8xf32>
}

func.func @model(%x: tensor<6x8xf32>, %b: tensor<8xf32>) -> tensor<6x8xf32> {
  %0 = "graph.exp"(%x) : (tensor<6x8xf32>) -> tensor<6x8xf32>
  %1 = func.call @bias_tanh(%0, %b) : (tensor<6x8xf32>, tensor<8xf32>) -> tensor<6x8xf32>
  %2 = "graph.mul"(%1, %x) : (tensor<6x8xf32>, tensor<6x8xf32>) -> tensor<6x8xf32>
  return %2 : tensor<6x8xf32>
}

// The same kernel twice, once on a transposed (view) operand.
func.func @twice(%x: tensor<8x6xf32>, %b: tensor<8xf32>) -> tensor<6x8xf32> {
  %t = "graph.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<8x6xf32>) -> tensor<6x8xf32>
  %0 = func.call @bias_tanh(%t, %b) : (tensor<6x8xf32>, tensor<8xf32>) -> tensor<6x8xf32>
  %1 = func.call @bias_tanh(%0, %b) : (tensor<6x8xf32>, tensor<8xf32>) -> tensor<6x8xf32>
  return %1 : tensor<6x8xf32>
}
