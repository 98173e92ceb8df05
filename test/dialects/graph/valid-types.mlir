// The element types the graph dialect accepts besides f32 (decision 0010): i16 and
// the unsigned ui8 ui16 ui32 ui64 through arithmetic, compares, reductions, selects,
// views and casts between every pair; the verifier passes and the module prints back.
// RUN: braze-opt --cpu=x86-64-v4 %s | FileCheck %s
// CHECK-LABEL: func.func @ints
// CHECK: "graph.div"{{.*}}(tensor<4x3xui8>, tensor<3xui8>) -> tensor<4x3xui8>
// CHECK: "graph.reduce_max"{{.*}}-> tensor<4xui16>
// CHECK: "graph.cmp"{{.*}}(tensor<4x3xui32>, tensor<4x3xui32>) -> tensor<4x3xi1>
// CHECK: "graph.select"{{.*}}-> tensor<4x3xui64>
// CHECK: "graph.transpose"{{.*}}-> tensor<3x4xi16>
// CHECK: "graph.cast"{{.*}}(tensor<4x3xui64>) -> tensor<4x3xf64>
// CHECK: "graph.cast"{{.*}}(tensor<4x3xf32>) -> tensor<4x3xui8>
// CHECK: "graph.cast"{{.*}}(tensor<4x3xi16>) -> tensor<4x3xui32>
// CHECK: "graph.constant"{{.*}}dense<18446744073709549568> : tensor<ui64>

func.func @ints(%a: tensor<4x3xui8>, %b: tensor<3xui8>, %c: tensor<4x3xui16>, %d: tensor<4x3xui32>,
                %e: tensor<4x3xui64>, %f: tensor<4x3xi16>, %g: tensor<4x3xf32>)
    -> (tensor<4x3xui8>, tensor<4xui16>, tensor<4x3xui64>, tensor<3x4xi16>, tensor<4x3xf64>, tensor<4x3xui8>,
        tensor<4x3xui32>, tensor<4x3xui64>) {
  %0 = "graph.div"(%a, %b) : (tensor<4x3xui8>, tensor<3xui8>) -> tensor<4x3xui8>
  %1 = "graph.reduce_max"(%c) {dims = array<i64: 1>, keepdim = false} : (tensor<4x3xui16>) -> tensor<4xui16>
  %2 = "graph.cmp"(%d, %d) {predicate = "lt"} : (tensor<4x3xui32>, tensor<4x3xui32>) -> tensor<4x3xi1>
  %3 = "graph.select"(%2, %e, %e) : (tensor<4x3xi1>, tensor<4x3xui64>, tensor<4x3xui64>) -> tensor<4x3xui64>
  %4 = "graph.transpose"(%f) {perm = array<i64: 1, 0>} : (tensor<4x3xi16>) -> tensor<3x4xi16>
  %5 = "graph.cast"(%e) : (tensor<4x3xui64>) -> tensor<4x3xf64>
  %6 = "graph.cast"(%g) : (tensor<4x3xf32>) -> tensor<4x3xui8>
  %7 = "graph.cast"(%f) : (tensor<4x3xi16>) -> tensor<4x3xui32>
  %big = "graph.constant"() {value = dense<18446744073709549568> : tensor<ui64>} : () -> tensor<ui64>
  %8 = "graph.max"(%3, %big) : (tensor<4x3xui64>, tensor<ui64>) -> tensor<4x3xui64>
  return %0, %1, %3, %4, %5, %6, %7, %8 : tensor<4x3xui8>, tensor<4xui16>, tensor<4x3xui64>, tensor<3x4xi16>,
      tensor<4x3xf64>, tensor<4x3xui8>, tensor<4x3xui32>, tensor<4x3xui64>
}
