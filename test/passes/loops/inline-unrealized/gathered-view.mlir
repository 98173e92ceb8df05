// A view that only gathers read (a conv's im2col reads the previous layer viewed
// [N, G, Cg L]): its copy is inlined at the tensor.extract whatever the gather's read
// count (a load either way), and a computing producer under it (the relu) is realized
// rather than inlined into the copy, where it would run once per gathered element.
// A computing producer gathered more often than it has elements stays realized.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --graph-to-loops --inline-unrealized=remarks --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @relu_reshape_gather(
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<4x16xf32>) {{.*}}braze.ops = ["relu"]
// CHECK: linalg.generic {{.*}} ins(%arg1 : tensor<128xi32>) {{.*}}braze.ops = ["reshape", "gather"]
// CHECK: tensor.extract %[[R]]
func.func @relu_reshape_gather(%x: tensor<4x16xf32>, %i: tensor<128xi32>) -> tensor<128xf32> {
  // expected-remark @+1 {{realized: read by a view that gathers read}}
  %r = "graph.relu"(%x) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  // expected-remark @+1 {{inlined into 1 consumer}}
  %v = "graph.reshape"(%r) : (tensor<4x16xf32>) -> tensor<64xf32>
  // expected-remark @+1 {{realized: function result}}
  %g = "graph.gather"(%v, %i) {axis = 0 : i64} : (tensor<64xf32>, tensor<128xi32>) -> tensor<128xf32>
  return %g : tensor<128xf32>
}

// -----

// CHECK-LABEL: func.func @computed_gathered_twice(
// CHECK: braze.ops = ["exp"]
func.func @computed_gathered_twice(%x: tensor<64xf32>, %i: tensor<128xi32>) -> tensor<128xf32> {
  // expected-remark @+1 {{realized: indexed read of 128 elements > its 64}}
  %e = "graph.exp"(%x) : (tensor<64xf32>) -> tensor<64xf32>
  // expected-remark @+1 {{realized: function result}}
  %g = "graph.gather"(%e, %i) {axis = 0 : i64} : (tensor<64xf32>, tensor<128xi32>) -> tensor<128xf32>
  return %g : tensor<128xf32>
}
