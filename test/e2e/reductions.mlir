// Reductions compiled for the CPU vs the reference: last dim, non-last dims (dim 0 of
// 1000x37, the middle of rank 3), several dims, keepdim, all dims to rank 0, size 1.
// RUN: braze check %s --seed 5 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS @last_dim out4 1000xf32
// CHECK: PASS @first_dim out4 1x37xf32
// CHECK: PASS @middle_dim out1 7x1x5xf32
// CHECK: PASS @multi_dims out0 37xf32
// CHECK: PASS @all_dims out1 f32
// CHECK: PASS @size_one out0 7x1xf32
// CHECK: check passed

func.func @last_dim(%x: tensor<1000x37xf32>) -> (tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>) {
  %0 = "graph.reduce_sum"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<1000x37xf32>) -> tensor<1000xf32>
  %1 = "graph.reduce_mean"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<1000x37xf32>) -> tensor<1000xf32>
  %2 = "graph.reduce_max"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<1000x37xf32>) -> tensor<1000xf32>
  %3 = "graph.reduce_min"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<1000x37xf32>) -> tensor<1000xf32>
  %4 = "graph.reduce_var"(%x) {dims = array<i64: 1>, keepdim = false, correction = 1 : i64} : (tensor<1000x37xf32>) -> tensor<1000xf32>
  return %0, %1, %2, %3, %4 : tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>
}

func.func @first_dim(%x: tensor<1000x37xf32>) -> (tensor<37xf32>, tensor<37xf32>, tensor<37xf32>, tensor<37xf32>, tensor<1x37xf32>) {
  %0 = "graph.reduce_sum"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<1000x37xf32>) -> tensor<37xf32>
  %1 = "graph.reduce_mean"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<1000x37xf32>) -> tensor<37xf32>
  %2 = "graph.reduce_max"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<1000x37xf32>) -> tensor<37xf32>
  %3 = "graph.reduce_min"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<1000x37xf32>) -> tensor<37xf32>
  %4 = "graph.reduce_var"(%x) {dims = array<i64: 0>, keepdim = true, correction = 0 : i64} : (tensor<1000x37xf32>) -> tensor<1x37xf32>
  return %0, %1, %2, %3, %4 : tensor<37xf32>, tensor<37xf32>, tensor<37xf32>, tensor<37xf32>, tensor<1x37xf32>
}

func.func @middle_dim(%x: tensor<7x37x5xf32>) -> (tensor<7x5xf32>, tensor<7x1x5xf32>) {
  %0 = "graph.reduce_sum"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<7x37x5xf32>) -> tensor<7x5xf32>
  %1 = "graph.reduce_max"(%x) {dims = array<i64: 1>, keepdim = true} : (tensor<7x37x5xf32>) -> tensor<7x1x5xf32>
  return %0, %1 : tensor<7x5xf32>, tensor<7x1x5xf32>
}

func.func @multi_dims(%x: tensor<7x37x5xf32>) -> tensor<37xf32> {
  %0 = "graph.reduce_mean"(%x) {dims = array<i64: 2, 0>, keepdim = false} : (tensor<7x37x5xf32>) -> tensor<37xf32>
  return %0 : tensor<37xf32>
}

func.func @all_dims(%x: tensor<1000x37xf32>) -> (tensor<1x1xf32>, tensor<f32>) {
  %0 = "graph.reduce_sum"(%x) {dims = array<i64: 0, 1>, keepdim = true} : (tensor<1000x37xf32>) -> tensor<1x1xf32>
  %1 = "graph.reduce_max"(%x) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<1000x37xf32>) -> tensor<f32>
  return %0, %1 : tensor<1x1xf32>, tensor<f32>
}

func.func @size_one(%x: tensor<7x1xf32>) -> tensor<7x1xf32> {
  %0 = "graph.reduce_sum"(%x) {dims = array<i64: 1>, keepdim = true} : (tensor<7x1xf32>) -> tensor<7x1xf32>
  return %0 : tensor<7x1xf32>
}
