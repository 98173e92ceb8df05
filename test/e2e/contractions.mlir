// Matmul, batch_matmul (broadcast batch dims) and linear, odd sizes (1, 7, 37).
// RUN: braze check %s --seed 7 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS @matmul_odd out0 7x1xf32
// CHECK: PASS @matmul_row out0 1x37xf32
// CHECK: PASS @batch_bcast out0 3x7x5xf32
// CHECK: PASS @linear_relu out0 1000x7xf32
// CHECK: check passed

func.func @matmul_odd(%a: tensor<7x37xf32>, %b: tensor<37x1xf32>) -> tensor<7x1xf32> {
  %0 = "graph.matmul"(%a, %b) : (tensor<7x37xf32>, tensor<37x1xf32>) -> tensor<7x1xf32>
  return %0 : tensor<7x1xf32>
}

func.func @matmul_row(%a: tensor<1x7xf32>, %b: tensor<7x37xf32>) -> tensor<1x37xf32> {
  %0 = "graph.matmul"(%a, %b) : (tensor<1x7xf32>, tensor<7x37xf32>) -> tensor<1x37xf32>
  return %0 : tensor<1x37xf32>
}

func.func @batch_bcast(%a: tensor<3x7x37xf32>, %b: tensor<37x5xf32>) -> tensor<3x7x5xf32> {
  %0 = "graph.batch_matmul"(%a, %b) : (tensor<3x7x37xf32>, tensor<37x5xf32>) -> tensor<3x7x5xf32>
  return %0 : tensor<3x7x5xf32>
}

// A matmul template with a pointwise epilogue (bias + relu).
func.func @linear_relu(%x: tensor<1000x37xf32>, %w: tensor<7x37xf32>, %b: tensor<7xf32>) -> tensor<1000x7xf32> {
  %0 = "graph.linear"(%x, %w, %b) : (tensor<1000x37xf32>, tensor<7x37xf32>, tensor<7xf32>) -> tensor<1000x7xf32>
  %1 = "graph.relu"(%0) : (tensor<1000x7xf32>) -> tensor<1000x7xf32>
  return %1 : tensor<1000x7xf32>
}
