// form-row-chains' online form with a bias the graph computes (passes/chains/online-bias.c):
// - BERT's additive mask bias, (1 - mask) * c from a [batch, keys] float mask broadcast
//   over heads and queries: the mask itself is the chain's fourth argument and the chain
//   evaluates (x + shift) * mul per score (kernel.online bias_shift, bias_mul; c - x is
//   -(x - c) exactly, so shift -1 and mul -c); (mask - 1) * 10000 alike;
// - an i1 mask cast to float then scaled: its two values, the select form;
// - T5's constant position bias stored [queries, keys, heads] and read transposed: laid
//   out [heads, queries, keys] at compile time, a plain bias of the chain (also from a
//   dense_resource constant, as the importer stores large ones);
// refused, with the reason: a bias that is no affine function of one input, and a bias
// computed at run time whose keys are not its innermost dim.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda},form-row-chains{target=cuda})' | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda},form-row-chains{target=cuda remarks})' -o /dev/null

// CHECK-LABEL: func.func private @cuda_chain_
// CHECK-SAME: %arg3: tensor<2x256xf32>
// CHECK-SAME: kernel.online = {bias = array<i64: 0, 3>, bias_mul = 3.40282347E+38 : f32, bias_shift = -1.000000e+00 : f32, key_block = 128 : i64, scale = 1.250000e-01 : f32}
// CHECK: %[[SH:.*]] = arith.constant -1.000000e+00 : f32
// CHECK: %[[MU:.*]] = arith.constant 3.40282347E+38 : f32
// CHECK: tensor.extract_slice %arg3[%{{.*}}, %{{.*}}] [1, 128] [1, 1] : tensor<2x256xf32> to tensor<1x128xf32>
// CHECK: ^bb0(%{{.*}}: f32, %[[X:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[A:.*]] = arith.addf %[[X]], %[[SH]] : f32
// CHECK: arith.mulf %[[A]], %[[MU]] : f32
// CHECK-LABEL: func.func @bert_mask(
// CHECK-NEXT: call @cuda_chain_{{.*}}(%arg0, %arg1, %arg2, %arg3)
// CHECK-NEXT: return
func.func @bert_mask(%q: tensor<2x4x256x64xf32>, %k: tensor<2x4x256x64xf32>, %v: tensor<2x4x256x64xf32>, %mask: tensor<2x256xf32>) -> tensor<2x4x256x64xf32> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x4x256x64xf32>) -> tensor<2x4x64x256xf32>
  // expected-remark@+1 {{form-row-chains: 3 kernels as @cuda_chain_fused_batch_matmul_sub_mul_add_softmax_0 in the online form: blocks of 128 rows, 128 keys per step, scale 0.125, the bias computed from its input per score}}
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<2x4x256x64xf32>, tensor<2x4x64x256xf32>) -> tensor<2x4x256x256xf32>
  %c = "graph.constant"() {value = dense<0.125> : tensor<f32>} : () -> tensor<f32>
  %ss = "graph.mul"(%s, %c) : (tensor<2x4x256x256xf32>, tensor<f32>) -> tensor<2x4x256x256xf32>
  %m4 = "graph.reshape"(%mask) : (tensor<2x256xf32>) -> tensor<2x1x1x256xf32>
  %one = "graph.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %inv = "graph.sub"(%one, %m4) : (tensor<f32>, tensor<2x1x1x256xf32>) -> tensor<2x1x1x256xf32>
  %min = "graph.constant"() {value = dense<-3.40282347e+38> : tensor<f32>} : () -> tensor<f32>
  %bias = "graph.mul"(%inv, %min) : (tensor<2x1x1x256xf32>, tensor<f32>) -> tensor<2x1x1x256xf32>
  %sb = "graph.add"(%ss, %bias) : (tensor<2x4x256x256xf32>, tensor<2x1x1x256xf32>) -> tensor<2x4x256x256xf32>
  %p = "graph.softmax"(%sb) {dim = 3 : i64} : (tensor<2x4x256x256xf32>) -> tensor<2x4x256x256xf32>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<2x4x256x256xf32>, tensor<2x4x256x64xf32>) -> tensor<2x4x256x64xf32>
  return %y : tensor<2x4x256x64xf32>
}

// -----

// (mask - 1) * 10000 in bf16 from a [batch, 1, queries, keys] mask: shift -1, mul 10000
// (9984 in bf16),
// the mask read by batch, row and key (a two-kernel softmax: both read it alike).
// CHECK-LABEL: func.func private @cuda_chain_
// CHECK-SAME: %arg3: tensor<2x1x256x256xbf16>
// CHECK-SAME: kernel.online = {bias = array<i64: 0, -1, 2, 3>, bias_mul = 9.984000e+03 : f32, bias_shift = -1.000000e+00 : f32
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK-LABEL: func.func @mask_minus_one(
// CHECK-NEXT: call @cuda_chain_{{.*}}(%arg0, %arg1, %arg2, %arg3)
func.func @mask_minus_one(%q: tensor<2x4x256x64xbf16>, %k: tensor<2x4x256x64xbf16>, %v: tensor<2x4x256x64xbf16>, %mask: tensor<2x1x256x256xbf16>) -> tensor<2x4x256x64xbf16> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x4x256x64xbf16>) -> tensor<2x4x64x256xbf16>
  // expected-remark@+1 {{form-row-chains: 4 kernels as @cuda_chain_fused_batch_matmul_sub_mul_batch_matmul_add_softmax_0 in the online form: blocks of 128 rows, 128 keys per step, scale 0.125, the bias computed from its input per score}}
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<2x4x256x64xbf16>, tensor<2x4x64x256xbf16>) -> tensor<2x4x256x256xbf16>
  %c = "graph.constant"() {value = dense<0.125> : tensor<bf16>} : () -> tensor<bf16>
  %ss = "graph.mul"(%s, %c) : (tensor<2x4x256x256xbf16>, tensor<bf16>) -> tensor<2x4x256x256xbf16>
  %one = "graph.constant"() {value = dense<1.0> : tensor<bf16>} : () -> tensor<bf16>
  %inv = "graph.sub"(%mask, %one) : (tensor<2x1x256x256xbf16>, tensor<bf16>) -> tensor<2x1x256x256xbf16>
  %big = "graph.constant"() {value = dense<10000.0> : tensor<bf16>} : () -> tensor<bf16>
  %bias = "graph.mul"(%inv, %big) : (tensor<2x1x256x256xbf16>, tensor<bf16>) -> tensor<2x1x256x256xbf16>
  %sb = "graph.add"(%ss, %bias) : (tensor<2x4x256x256xbf16>, tensor<2x1x256x256xbf16>) -> tensor<2x4x256x256xbf16>
  %p = "graph.softmax"(%sb) {dim = 3 : i64} : (tensor<2x4x256x256xbf16>) -> tensor<2x4x256x256xbf16>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<2x4x256x256xbf16>, tensor<2x4x256x64xbf16>) -> tensor<2x4x256x64xbf16>
  return %y : tensor<2x4x256x64xbf16>
}

// -----

// An i1 mask cast to float, (1 - m) * finfo.min: the select form with the two values
// computed in f32 (true: 0, false: finfo.min).
// CHECK-LABEL: func.func private @cuda_chain_
// CHECK-SAME: %arg3: tensor<2x1x1x256xi1>
// CHECK-SAME: kernel.online = {bias = array<i64: 0, -1, -1, 3>, bias_false = -3.40282347E+38 : f32, bias_true = 0.000000e+00 : f32
func.func @bool_mask(%q: tensor<2x4x256x64xf32>, %k: tensor<2x4x256x64xf32>, %v: tensor<2x4x256x64xf32>, %mask: tensor<2x1x1x256xi1>) -> tensor<2x4x256x64xf32> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x4x256x64xf32>) -> tensor<2x4x64x256xf32>
  // expected-remark@+1 {{form-row-chains: 3 kernels as @cuda_chain_fused_batch_matmul_cast_sub_mul_add_softmax_0 in the online form: blocks of 128 rows, 128 keys per step, scale 1}}
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<2x4x256x64xf32>, tensor<2x4x64x256xf32>) -> tensor<2x4x256x256xf32>
  %mf = "graph.cast"(%mask) : (tensor<2x1x1x256xi1>) -> tensor<2x1x1x256xf32>
  %one = "graph.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %inv = "graph.sub"(%one, %mf) : (tensor<f32>, tensor<2x1x1x256xf32>) -> tensor<2x1x1x256xf32>
  %min = "graph.constant"() {value = dense<-3.40282347e+38> : tensor<f32>} : () -> tensor<f32>
  %bias = "graph.mul"(%inv, %min) : (tensor<2x1x1x256xf32>, tensor<f32>) -> tensor<2x1x1x256xf32>
  %sb = "graph.add"(%s, %bias) : (tensor<2x4x256x256xf32>, tensor<2x1x1x256xf32>) -> tensor<2x4x256x256xf32>
  %p = "graph.softmax"(%sb) {dim = 3 : i64} : (tensor<2x4x256x256xf32>) -> tensor<2x4x256x256xf32>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<2x4x256x256xf32>, tensor<2x4x256x64xf32>) -> tensor<2x4x256x64xf32>
  return %y : tensor<2x4x256x64xf32>
}

// -----

// T5: a constant bias [queries, keys, heads] read as [heads, queries, keys]: a new
// constant [heads, queries, keys] (element (h, i, j) = the old (i, j, h)), read plainly.
// CHECK-LABEL: func.func private @cuda_chain_
// CHECK-SAME: %arg3: tensor<2x4x8xf32>
// CHECK-SAME: kernel.online = {bias = array<i64: 0, 1, 2>, key_block = 128 : i64, scale = 1.000000e+00 : f32}
// CHECK-LABEL: func.func @position_bias(
// CHECK: %[[B:.*]] = arith.constant dense<{{\[\[\[}}0.000000e+00, 2.000000e+00, 4.000000e+00, 6.000000e+00, 8.000000e+00, 1.000000e+01, 1.200000e+01, 1.400000e+01], [1.600000e+01, {{.*}}]], {{\[\[}}1.000000e+00, 3.000000e+00, {{.*}}]]]> : tensor<2x4x8xf32>
// CHECK-NEXT: call @cuda_chain_{{.*}}(%arg0, %arg1, %arg2, %[[B]])
func.func @position_bias(%q: tensor<2x4x64xf32>, %k: tensor<2x8x64xf32>, %v: tensor<2x8x64xf32>) -> tensor<2x4x64xf32> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<2x8x64xf32>) -> tensor<2x64x8xf32>
  // expected-remark@+1 {{form-row-chains: 3 kernels as @cuda_chain_fused_batch_matmul_add_softmax_0 in the online form: blocks of 128 rows, 128 keys per step, scale 1, the constant bias laid out in loop order}}
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<2x4x64xf32>, tensor<2x64x8xf32>) -> tensor<2x4x8xf32>
  %rel = "graph.constant"() {value = dense<[[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0], [8.0, 9.0], [10.0, 11.0], [12.0, 13.0], [14.0, 15.0]], [[16.0, 17.0], [18.0, 19.0], [20.0, 21.0], [22.0, 23.0], [24.0, 25.0], [26.0, 27.0], [28.0, 29.0], [30.0, 31.0]], [[32.0, 33.0], [34.0, 35.0], [36.0, 37.0], [38.0, 39.0], [40.0, 41.0], [42.0, 43.0], [44.0, 45.0], [46.0, 47.0]], [[48.0, 49.0], [50.0, 51.0], [52.0, 53.0], [54.0, 55.0], [56.0, 57.0], [58.0, 59.0], [60.0, 61.0], [62.0, 63.0]]]> : tensor<4x8x2xf32>} : () -> tensor<4x8x2xf32>
  %b = "graph.transpose"(%rel) {perm = array<i64: 2, 0, 1>} : (tensor<4x8x2xf32>) -> tensor<2x4x8xf32>
  %sb = "graph.add"(%s, %b) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %p = "graph.softmax"(%sb) {dim = 2 : i64} : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<2x4x8xf32>, tensor<2x8x64xf32>) -> tensor<2x4x64xf32>
  return %y : tensor<2x4x64xf32>
}

// -----

// The same bias as a dense_resource (the ONNX importer's large constants): read by value.
// CHECK-LABEL: func.func @position_bias_resource(
// CHECK: %[[B:.*]] = arith.constant dense<{{\[\[\[}}0.000000e+00, 2.000000e+00, 4.000000e+00, {{.*}}]]]> : tensor<2x4x8xf32>
// CHECK-NEXT: call @cuda_chain_{{.*}}(%arg0, %arg1, %arg2, %[[B]])
func.func @position_bias_resource(%q: tensor<2x4x64xf32>, %k: tensor<2x8x64xf32>, %v: tensor<2x8x64xf32>) -> tensor<2x4x64xf32> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<2x8x64xf32>) -> tensor<2x64x8xf32>
  // expected-remark@+1 {{form-row-chains: 3 kernels as @cuda_chain_fused_batch_matmul_add_softmax_0 in the online form: blocks of 128 rows, 128 keys per step, scale 1, the constant bias laid out in loop order}}
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<2x4x64xf32>, tensor<2x64x8xf32>) -> tensor<2x4x8xf32>
  %rel = "graph.constant"() {value = dense_resource<rel_bias> : tensor<4x8x2xf32>} : () -> tensor<4x8x2xf32>
  %b = "graph.transpose"(%rel) {perm = array<i64: 2, 0, 1>} : (tensor<4x8x2xf32>) -> tensor<2x4x8xf32>
  %sb = "graph.add"(%s, %b) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %p = "graph.softmax"(%sb) {dim = 2 : i64} : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<2x4x8xf32>, tensor<2x8x64xf32>) -> tensor<2x4x64xf32>
  return %y : tensor<2x4x64xf32>
}

{-#
  dialect_resources: {
    builtin: {
      rel_bias: "0x04000000000000000000803F0000004000004040000080400000A0400000C0400000E0400000004100001041000020410000304100004041000050410000604100007041000080410000884100009041000098410000A0410000A8410000B0410000B8410000C0410000C8410000D0410000D8410000E0410000E8410000F0410000F84100000042000004420000084200000C4200001042000014420000184200001C4200002042000024420000284200002C4200003042000034420000384200003C4200004042000044420000484200004C4200005042000054420000584200005C4200006042000064420000684200006C4200007042000074420000784200007C42"
    }
  }
#-}

// -----

// Refused: a bias that is no affine function of one input (mask * mask).
func.func @bias_not_affine(%q: tensor<2x4x256x64xf32>, %k: tensor<2x4x256x64xf32>, %v: tensor<2x4x256x64xf32>, %mask: tensor<2x1x1x256xf32>) -> tensor<2x4x256x64xf32> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x4x256x64xf32>) -> tensor<2x4x64x256xf32>
  // expected-remark@+1 {{form-row-chains: no online chain from this call: scores-not-a-scale-a-bias-and-a-causal-mask}}
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<2x4x256x64xf32>, tensor<2x4x64x256xf32>) -> tensor<2x4x256x256xf32>
  %sq = "graph.mul"(%mask, %mask) : (tensor<2x1x1x256xf32>, tensor<2x1x1x256xf32>) -> tensor<2x1x1x256xf32>
  %sb = "graph.add"(%s, %sq) : (tensor<2x4x256x256xf32>, tensor<2x1x1x256xf32>) -> tensor<2x4x256x256xf32>
  %p = "graph.softmax"(%sb) {dim = 3 : i64} : (tensor<2x4x256x256xf32>) -> tensor<2x4x256x256xf32>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<2x4x256x256xf32>, tensor<2x4x256x64xf32>) -> tensor<2x4x256x64xf32>
  return %y : tensor<2x4x256x64xf32>
}

// -----

// Refused: a bias computed at run time read transposed (keys not innermost) is not laid
// out (only constants are).
func.func @runtime_bias_transposed(%q: tensor<2x4x64xf32>, %k: tensor<2x8x64xf32>, %v: tensor<2x8x64xf32>, %rel: tensor<4x8x2xf32>) -> tensor<2x4x64xf32> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<2x8x64xf32>) -> tensor<2x64x8xf32>
  // expected-remark@+1 {{form-row-chains: no online chain from this call: bias-keys-not-innermost (and not a float constant read by a permutation of the loops)}}
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<2x4x64xf32>, tensor<2x64x8xf32>) -> tensor<2x4x8xf32>
  %b = "graph.transpose"(%rel) {perm = array<i64: 2, 0, 1>} : (tensor<4x8x2xf32>) -> tensor<2x4x8xf32>
  %sb = "graph.add"(%s, %b) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %p = "graph.softmax"(%sb) {dim = 2 : i64} : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<2x4x8xf32>, tensor<2x8x64xf32>) -> tensor<2x4x64xf32>
  return %y : tensor<2x4x64xf32>
}
