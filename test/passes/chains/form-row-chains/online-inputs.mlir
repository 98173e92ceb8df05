// form-row-chains on targets other than cpu (passes/chains/online-inputs.c): the pointwise
// kernels making an online chain's q, k and v run as one kernel with a result each. A
// fused qkv projection split, reshaped and transposed (GPT-2's, ViT's): q's transpose
// kernel and the two heads copies form-row-chains made for k and v become
// @cuda_poi_fused_inputs_0 with three results, its one argument the projection (read
// once per element it is read at); `no-merge-inputs` keeps the three. Left out, with the
// reason (kernel-level input below): a kernel whose innermost loop walks an input's outer
// dim (cuda-codegen's tiled transpose takes it alone) and one whose result an op reads
// before the last producer's call; the rest still merge (the second chain's inputs,
// one of them shared with the first chain: the merged call stands where the last
// producer's was, before both chains).
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda},form-row-chains{target=cuda})' | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda},form-row-chains{target=cuda no-merge-inputs})' | FileCheck %s --check-prefix=OFF
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda},form-row-chains{target=cuda remarks})' -o /dev/null

// CHECK-LABEL: func.func private @cuda_poi_fused_inputs_0(%arg0: tensor<2x16x96xf32>) -> (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>)
// CHECK-SAME: kernel.kind = "poi", kernel.ops = ["transpose", "copy", "copy"]
// CHECK-COUNT-3: linalg.generic
// CHECK: return %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>
// CHECK-LABEL: func.func @fused_qkv(
// CHECK-NEXT: %[[P:.*]] = call @cuda_tem_fused_batch_matmul_0(%arg0, %arg1)
// CHECK-NEXT: %[[I:.*]]:3 = call @cuda_poi_fused_inputs_0(%[[P]])
// CHECK-NEXT: call @cuda_chain_fused_batch_matmul_mul_softmax_0(%[[I]]#0, %[[I]]#1, %[[I]]#2)
// OFF-LABEL: func.func @fused_qkv(
// OFF: call @cuda_tem_fused_batch_matmul_0(
// OFF-NEXT: call @cuda_poi_fused_transpose_1(
// OFF-NEXT: call @cuda_poi_fused_heads_0(
// OFF-NEXT: call @cuda_poi_fused_heads_1(
// OFF-NEXT: call @cuda_chain_
func.func @fused_qkv(%x: tensor<2x16x32xf32>, %w: tensor<32x96xf32>) -> tensor<2x4x16x8xf32> {
  %qkv = "graph.batch_matmul"(%x, %w) : (tensor<2x16x32xf32>, tensor<32x96xf32>) -> tensor<2x16x96xf32>
  %q0 = "graph.slice"(%qkv) {starts = array<i64: 0, 0, 0>, limits = array<i64: 2, 16, 32>, strides = array<i64: 1, 1, 1>} : (tensor<2x16x96xf32>) -> tensor<2x16x32xf32>
  %k0 = "graph.slice"(%qkv) {starts = array<i64: 0, 0, 32>, limits = array<i64: 2, 16, 64>, strides = array<i64: 1, 1, 1>} : (tensor<2x16x96xf32>) -> tensor<2x16x32xf32>
  %v0 = "graph.slice"(%qkv) {starts = array<i64: 0, 0, 64>, limits = array<i64: 2, 16, 96>, strides = array<i64: 1, 1, 1>} : (tensor<2x16x96xf32>) -> tensor<2x16x32xf32>
  %q1 = "graph.reshape"(%q0) : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
  %k1 = "graph.reshape"(%k0) : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
  %v1 = "graph.reshape"(%v0) : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
  %q = "graph.transpose"(%q1) {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
  %k = "graph.transpose"(%k1) {perm = array<i64: 0, 2, 3, 1>} : (tensor<2x16x4x8xf32>) -> tensor<2x4x8x16xf32>
  %v = "graph.transpose"(%v1) {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
  // expected-remark@+3 {{form-row-chains: 2 copy kernel(s) put heads read through views in [batch..., rows, head dim] layout for the online form}}
  // expected-remark@+2 {{form-row-chains: 3 kernels as @cuda_chain_fused_batch_matmul_mul_softmax_0 in the online form: blocks of 128 rows, 128 keys per step, scale 0.353553}}
  // expected-remark@+1 {{form-row-chains: 3 kernels making @cuda_chain_fused_batch_matmul_mul_softmax_0's inputs as one kernel @cuda_poi_fused_inputs_0 with 3 results: @cuda_poi_fused_transpose_1, @cuda_poi_fused_heads_0, @cuda_poi_fused_heads_1}}
  %s = "graph.batch_matmul"(%q, %k) : (tensor<2x4x16x8xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x16x16xf32>
  %c = "graph.constant"() {value = dense<0.35355339> : tensor<f32>} : () -> tensor<f32>
  %ss = "graph.mul"(%s, %c) : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16x16xf32>
  %p = "graph.softmax"(%ss) {dim = 3 : i64} : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
  return %y : tensor<2x4x16x8xf32>
}

// -----

// (kernel level)
// CHECK-LABEL: func.func @refusals(
// CHECK-NEXT: %[[Q:.*]] = call @cuda_poi_neg_0(%arg0)
// CHECK-NEXT: %[[K:.*]] = call @cuda_poi_transpose_1(%arg1)
// CHECK-NEXT: call @cuda_poi_exp_2(%[[Q]])
// CHECK-NEXT: %[[M:.*]]:2 = call @cuda_poi_fused_inputs_0(%arg3, %arg2)
// CHECK-NEXT: call @cuda_chain_3(%[[Q]], %[[K]], %[[M]]#1)
// CHECK-NEXT: call @cuda_chain_3(%[[M]]#0, %[[M]]#1, %[[M]]#1)
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
module {
  func.func private @cuda_poi_neg_0(%a: tensor<8x16xf32>) -> tensor<8x16xf32> attributes {kernel.kind = "poi", kernel.ops = ["neg"]} {
    %e = tensor.empty() : tensor<8x16xf32>
    %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
    ^bb0(%x: f32, %o: f32):
      %n = arith.negf %x : f32
      linalg.yield %n : f32
    } -> tensor<8x16xf32>
    return %r : tensor<8x16xf32>
  }
  func.func private @cuda_poi_transpose_1(%a: tensor<16x8xf32>) -> tensor<8x16xf32> attributes {kernel.kind = "poi", kernel.ops = ["transpose"]} {
    %e = tensor.empty() : tensor<8x16xf32>
    %r = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<16x8xf32>) outs(%e : tensor<8x16xf32>) {
    ^bb0(%x: f32, %o: f32):
      linalg.yield %x : f32
    } -> tensor<8x16xf32>
    return %r : tensor<8x16xf32>
  }
  func.func private @cuda_poi_exp_2(%a: tensor<8x16xf32>) -> tensor<8x16xf32> attributes {kernel.kind = "poi", kernel.ops = ["exp"]} {
    %e = tensor.empty() : tensor<8x16xf32>
    %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
    ^bb0(%x: f32, %o: f32):
      %n = math.exp %x : f32
      linalg.yield %n : f32
    } -> tensor<8x16xf32>
    return %r : tensor<8x16xf32>
  }
  func.func private @cuda_chain_3(%q: tensor<8x16xf32>, %k: tensor<8x16xf32>, %v: tensor<8x16xf32>) -> tensor<8x16xf32> attributes {kernel.kind = "chain", kernel.online = {key_block = 128 : i64, scale = 1.0 : f32}} {
    return %q : tensor<8x16xf32>
  }
  func.func @refusals(%a: tensor<8x16xf32>, %b: tensor<16x8xf32>, %c: tensor<8x16xf32>, %d: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
    // expected-remark@+1 {{form-row-chains: this input of an online chain stays its own kernel: its result is read before the last input's kernel}}
    %q = call @cuda_poi_neg_0(%a) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %k = call @cuda_poi_transpose_1(%b) : (tensor<16x8xf32>) -> tensor<8x16xf32>
    %r = call @cuda_poi_exp_2(%q) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %v = call @cuda_poi_exp_2(%c) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %w = call @cuda_poi_neg_0(%d) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    // expected-remark@+1 {{form-row-chains: argument 1 of the online chain stays its own kernel: reads-an-input-transposed (the tiled transpose takes it alone)}}
    %y = call @cuda_chain_3(%q, %k, %v) : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    // expected-remark@+1 {{form-row-chains: 2 kernels making @cuda_chain_3's inputs as one kernel @cuda_poi_fused_inputs_0 with 2 results: @cuda_poi_neg_0, @cuda_poi_exp_2}}
    %z = call @cuda_chain_3(%w, %v, %v) : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    return %y, %r : tensor<8x16xf32>, tensor<8x16xf32>
  }
}
