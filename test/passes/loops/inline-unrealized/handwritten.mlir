// inline-unrealized on hand-written loop-level IR: a producer writing through a
// permuted output map is inlined through the inverse permutation; a producer whose
// body reads its init is realized; generics without braze.ops are fine.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --inline-unrealized=remarks --verify-diagnostics | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --inline-unrealized | mlir-opt --split-input-file --verify-each -o /dev/null

// p[j, i] = exp(x[i, j]) (loops over x's shape, transposed write); c = p + y.
// Consumer loops (a, b) read p[a, b] = exp(x[b, a]).
// CHECK-DAG: #[[T:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @permuted_output(
// CHECK: linalg.generic {indexing_maps = [#[[T]], #[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8x4xf32>)
// CHECK-NOT: braze.ops
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[E:.*]] = math.exp %[[X]] : f32
// CHECK-NEXT: arith.addf %[[E]], %[[Y]] : f32
// CHECK-NOT: linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>
func.func @permuted_output(%x: tensor<4x8xf32>, %y: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %e0 = tensor.empty() : tensor<8x4xf32>
  // expected-remark@+1 {{inlined into 1 consumer}}
  %p = linalg.generic {indexing_maps = [#id, #t], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e0 : tensor<8x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<8x4xf32>
  %e1 = tensor.empty() : tensor<8x4xf32>
  // expected-remark@+1 {{realized: function result}}
  %c = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p, %y : tensor<8x4xf32>, tensor<8x4xf32>) outs(%e1 : tensor<8x4xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.addf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<8x4xf32>
  return %c : tensor<8x4xf32>
}

// -----

// A producer that accumulates into its init cannot be recomputed elsewhere.
// CHECK-LABEL: func.func @reads_init(
// CHECK: %[[P:.*]] = linalg.generic
// CHECK: linalg.generic {{.*}} ins(%[[P]] :
#id1 = affine_map<(d0) -> (d0)>
func.func @reads_init(%x: tensor<8xf32>, %acc: tensor<8xf32>) -> tensor<8xf32> {
  // expected-remark@+1 {{realized: body reads its output}}
  %p = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%acc : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  // expected-remark@+1 {{realized: function result}}
  %c = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%p : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %0 = math.exp %a : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  return %c : tensor<8xf32>
}
