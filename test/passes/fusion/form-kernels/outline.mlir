// What outlining produces: kernel arguments in first-use order, results that
// escape the group, support ops cloned in, large constants passed in, and
// kernel indices counted across the module.
// RUN: braze-opt --cpu=x86-64-v4 %s --form-kernels | FileCheck %s

// An intermediate that is also a function result is a second kernel result.
// CHECK-LABEL: func.func private @cpu_poi_fused_exp_neg_0(
// CHECK-SAME: %[[X:.*]]: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
// CHECK-SAME: kernel.score = 0 : i64
// CHECK: %[[E:.*]] = tensor.empty() : tensor<8xf32>
// CHECK: %[[A:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<8xf32>) outs(%[[E]] : tensor<8xf32>)
// CHECK: %[[B:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<8xf32>) outs(%[[E]] : tensor<8xf32>)
// CHECK: return %[[A]], %[[B]] : tensor<8xf32>, tensor<8xf32>
// CHECK-LABEL: func.func @both(
// CHECK-NEXT: %[[K:.*]]:2 = call @cpu_poi_fused_exp_neg_0(%arg0)
// CHECK-NEXT: return %[[K]]#1, %[[K]]#0
func.func @both(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) attrs = {braze.ops = ["exp"]} {
  ^bb0(%p: f32, %o: f32):
    %r = math.exp %p : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) attrs = {braze.ops = ["neg"]} {
  ^bb0(%p: f32, %o: f32):
    %r = arith.negf %p : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %b, %a : tensor<8xf32>, tensor<8xf32>
}

// A small constant (and a splat) is cloned into the kernel; a large one stays in
// the graph function and is passed in. The index continues from @both.
// CHECK-LABEL: func.func private @cpu_poi_fused_add_mul_1(
// CHECK-SAME: %[[X:.*]]: tensor<80xf32>, %[[BIG:.*]]: tensor<80xf32>) -> tensor<80xf32>
// CHECK-DAG: arith.constant dense<2.000000e+00> : tensor<80xf32>
// CHECK-DAG: arith.constant 3.000000e+00 : f32
// CHECK-LABEL: func.func @consts(
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<[0.000000e+00, 1.000000e+00,
// CHECK-NEXT: call @cpu_poi_fused_add_mul_1(%arg0, %[[C]])
// CHECK-NEXT: return
func.func @consts(%x: tensor<80xf32>) -> tensor<80xf32> {
  %big = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0, 64.0, 65.0, 66.0, 67.0, 68.0, 69.0, 70.0, 71.0, 72.0, 73.0, 74.0, 75.0, 76.0, 77.0, 78.0, 79.0]> : tensor<80xf32>
  %two = arith.constant dense<2.0> : tensor<80xf32>
  %three = arith.constant 3.0 : f32
  %e = tensor.empty() : tensor<80xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x, %big : tensor<80xf32>, tensor<80xf32>) outs(%e : tensor<80xf32>) attrs = {braze.ops = ["add"]} {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<80xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a, %two : tensor<80xf32>, tensor<80xf32>) outs(%e : tensor<80xf32>) attrs = {braze.ops = ["mul"]} {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %r = arith.mulf %m, %three : f32
    linalg.yield %r : f32
  } -> tensor<80xf32>
  return %b : tensor<80xf32>
}

// concat: the insert_slice chain of one concat is one group from the start (each
// insert's destination is the previous insert, codegen writes all slices into one
// buffer); the inserts have equal spaces here, so the producers fuse in too.
// CHECK-LABEL: func.func private @cpu_poi_fused_exp_neg_concat_2(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>) -> tensor<8xf32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<8xf32>
// CHECK: %[[I0:.*]] = tensor.insert_slice %{{.*}} into %[[E]][0] [4] [1]
// CHECK: tensor.insert_slice %{{.*}} into %[[I0]][4] [4] [1]
// CHECK-LABEL: func.func @concat(
// CHECK-NEXT: %[[P:.*]] = call @cpu_poi_fused_exp_neg_concat_2(%arg0, %arg1)
// CHECK-NEXT: return %[[P]]
func.func @concat(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) attrs = {braze.ops = ["exp"]} {
  ^bb0(%p: f32, %o: f32):
    %r = math.exp %p : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%y : tensor<4xf32>) outs(%e : tensor<4xf32>) attrs = {braze.ops = ["neg"]} {
  ^bb0(%p: f32, %o: f32):
    %r = arith.negf %p : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %d = tensor.empty() : tensor<8xf32>
  %i0 = tensor.insert_slice %a into %d[0] [4] [1] : tensor<4xf32> into tensor<8xf32>
  %i1 = tensor.insert_slice %b into %i0[4] [4] [1] : tensor<4xf32> into tensor<8xf32>
  return %i1 : tensor<8xf32>
}

// concat of inputs of different sizes: the inserts' spaces differ, the chain is
// still one kernel, and fuses with nothing else (the producers stay apart).
// CHECK-LABEL: func.func private @cpu_poi_fused_concat_
// CHECK-SAME: (%{{.*}}: tensor<2xf32>, %{{.*}}: tensor<3xf32>) -> tensor<5xf32>
// CHECK: tensor.empty() : tensor<5xf32>
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0] [2] [1]
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[2] [3] [1]
// CHECK-LABEL: func.func @concat_sizes(
// CHECK: %[[A:.*]] = call @cpu_poi_fused_exp_
// CHECK: %[[R:.*]] = call @cpu_poi_fused_concat_{{[0-9]+}}(%[[A]], %arg1)
// CHECK-NEXT: return %[[R]]
func.func @concat_sizes(%x: tensor<2xf32>, %y: tensor<3xf32>) -> tensor<5xf32> {
  %e = tensor.empty() : tensor<2xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<2xf32>) outs(%e : tensor<2xf32>) attrs = {braze.ops = ["exp"]} {
  ^bb0(%p: f32, %o: f32):
    %r = math.exp %p : f32
    linalg.yield %r : f32
  } -> tensor<2xf32>
  %d = tensor.empty() : tensor<5xf32>
  %i0 = tensor.insert_slice %a into %d[0] [2] [1] : tensor<2xf32> into tensor<5xf32>
  %i1 = tensor.insert_slice %y into %i0[2] [3] [1] : tensor<3xf32> into tensor<5xf32>
  return %i1 : tensor<5xf32>
}
