// Attention chains on the GPU: one flash kernel each (form-row-chains{target=cuda} puts
// them in the online form, targets/cuda/matmul/flash.c runs it), against the reference.
// Key and query blocks that divide S and ones that leave a tail, head dims 64 and 128,
// bf16 and f16, the scale spelled as mul and as div, two batch dims, heads sharing k and
// v, biases added to the scores, S = 1.
// gpu-metric: norm (run.py: the kernel keeps scores and probabilities in f32, where the
// graph's types, and so the reference, round them to bf16/f16). Used by
// test/gpu/prepare.sh and checked here: each chain becomes one flash kernel (S = 1 folds
// to a copy of v).
// RUN: braze compile %s --target=cuda -o %t.so
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda},form-row-chains{target=cuda online=half},cuda-codegen{remarks})' -o /dev/null 2>&1 | FileCheck %s
// CHECK-COUNT-6: remark: cuda-codegen: kernel @cuda_chain_{{.*}}: flash kernel (online chain)
func.func @attn_d64(%q: tensor<4x256x64xbf16>, %k: tensor<4x256x64xbf16>, %v: tensor<4x256x64xbf16>) -> tensor<4x256x64xbf16> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<4x256x64xbf16>) -> tensor<4x64x256xbf16>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<4x256x64xbf16>, tensor<4x64x256xbf16>) -> tensor<4x256x256xbf16>
  %c = "graph.constant"() {value = dense<0.125> : tensor<bf16>} : () -> tensor<bf16>
  %ss = "graph.mul"(%s, %c) : (tensor<4x256x256xbf16>, tensor<bf16>) -> tensor<4x256x256xbf16>
  %p = "graph.softmax"(%ss) {dim = 2 : i64} : (tensor<4x256x256xbf16>) -> tensor<4x256x256xbf16>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<4x256x256xbf16>, tensor<4x256x64xbf16>) -> tensor<4x256x64xbf16>
  return %y : tensor<4x256x64xbf16>
}

func.func @attn_tail_d128(%q: tensor<3x200x128xbf16>, %k: tensor<3x200x128xbf16>, %v: tensor<3x200x128xbf16>) -> tensor<3x200x128xbf16> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<3x200x128xbf16>) -> tensor<3x128x200xbf16>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<3x200x128xbf16>, tensor<3x128x200xbf16>) -> tensor<3x200x200xbf16>
  %c = "graph.constant"() {value = dense<11.3137085> : tensor<bf16>} : () -> tensor<bf16>
  %ss = "graph.div"(%s, %c) : (tensor<3x200x200xbf16>, tensor<bf16>) -> tensor<3x200x200xbf16>
  %p = "graph.softmax"(%ss) {dim = 2 : i64} : (tensor<3x200x200xbf16>) -> tensor<3x200x200xbf16>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<3x200x200xbf16>, tensor<3x200x128xbf16>) -> tensor<3x200x128xbf16>
  return %y : tensor<3x200x128xbf16>
}

func.func @attn_heads_f16(%q: tensor<2x3x130x64xf16>, %k: tensor<2x3x130x64xf16>, %v: tensor<2x3x130x64xf16>) -> tensor<2x3x130x64xf16> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x3x130x64xf16>) -> tensor<2x3x64x130xf16>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<2x3x130x64xf16>, tensor<2x3x64x130xf16>) -> tensor<2x3x130x130xf16>
  %c = "graph.constant"() {value = dense<0.125> : tensor<f16>} : () -> tensor<f16>
  %ss = "graph.mul"(%s, %c) : (tensor<2x3x130x130xf16>, tensor<f16>) -> tensor<2x3x130x130xf16>
  %p = "graph.softmax"(%ss) {dim = 3 : i64} : (tensor<2x3x130x130xf16>) -> tensor<2x3x130x130xf16>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<2x3x130x130xf16>, tensor<2x3x130x64xf16>) -> tensor<2x3x130x64xf16>
  return %y : tensor<2x3x130x64xf16>
}

func.func @attn_one_key(%q: tensor<2x1x64xbf16>, %k: tensor<2x1x64xbf16>, %v: tensor<2x1x64xbf16>) -> tensor<2x1x64xbf16> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<2x1x64xbf16>) -> tensor<2x64x1xbf16>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<2x1x64xbf16>, tensor<2x64x1xbf16>) -> tensor<2x1x1xbf16>
  %c = "graph.constant"() {value = dense<0.125> : tensor<bf16>} : () -> tensor<bf16>
  %ss = "graph.mul"(%s, %c) : (tensor<2x1x1xbf16>, tensor<bf16>) -> tensor<2x1x1xbf16>
  %p = "graph.softmax"(%ss) {dim = 2 : i64} : (tensor<2x1x1xbf16>) -> tensor<2x1x1xbf16>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<2x1x1xbf16>, tensor<2x1x64xbf16>) -> tensor<2x1x64xbf16>
  return %y : tensor<2x1x64xbf16>
}

// Heads sharing k and v (extent 1 in the head dim: each head's block reads the one k, v).
func.func @attn_kv_shared(%q: tensor<2x3x130x64xbf16>, %k: tensor<2x1x130x64xbf16>, %v: tensor<2x1x130x64xbf16>) -> tensor<2x3x130x64xbf16> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x1x130x64xbf16>) -> tensor<2x1x64x130xbf16>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<2x3x130x64xbf16>, tensor<2x1x64x130xbf16>) -> tensor<2x3x130x130xbf16>
  %c = "graph.constant"() {value = dense<0.125> : tensor<bf16>} : () -> tensor<bf16>
  %ss = "graph.mul"(%s, %c) : (tensor<2x3x130x130xbf16>, tensor<bf16>) -> tensor<2x3x130x130xbf16>
  %p = "graph.softmax"(%ss) {dim = 3 : i64} : (tensor<2x3x130x130xbf16>) -> tensor<2x3x130x130xbf16>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<2x3x130x130xbf16>, tensor<2x1x130x64xbf16>) -> tensor<2x3x130x64xbf16>
  return %y : tensor<2x3x130x64xbf16>
}

// A bias added to the scaled scores: a padding mask per batch and key (broadcast over
// the rows), and an [S, S] f32 position bias with row and key tails, D = 128.
func.func @attn_key_bias(%q: tensor<4x256x64xbf16>, %k: tensor<4x256x64xbf16>, %v: tensor<4x256x64xbf16>, %b: tensor<4x1x256xbf16>) -> tensor<4x256x64xbf16> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<4x256x64xbf16>) -> tensor<4x64x256xbf16>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<4x256x64xbf16>, tensor<4x64x256xbf16>) -> tensor<4x256x256xbf16>
  %c = "graph.constant"() {value = dense<0.125> : tensor<bf16>} : () -> tensor<bf16>
  %ss = "graph.mul"(%s, %c) : (tensor<4x256x256xbf16>, tensor<bf16>) -> tensor<4x256x256xbf16>
  %sb = "graph.add"(%ss, %b) : (tensor<4x256x256xbf16>, tensor<4x1x256xbf16>) -> tensor<4x256x256xbf16>
  %p = "graph.softmax"(%sb) {dim = 2 : i64} : (tensor<4x256x256xbf16>) -> tensor<4x256x256xbf16>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<4x256x256xbf16>, tensor<4x256x64xbf16>) -> tensor<4x256x64xbf16>
  return %y : tensor<4x256x64xbf16>
}

func.func @attn_position_bias(%q: tensor<3x200x128xbf16>, %k: tensor<3x200x128xbf16>, %v: tensor<3x200x128xbf16>, %b: tensor<200x200xbf16>) -> tensor<3x200x128xbf16> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<3x200x128xbf16>) -> tensor<3x128x200xbf16>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<3x200x128xbf16>, tensor<3x128x200xbf16>) -> tensor<3x200x200xbf16>
  %c = "graph.constant"() {value = dense<0.088388> : tensor<bf16>} : () -> tensor<bf16>
  %ss = "graph.mul"(%s, %c) : (tensor<3x200x200xbf16>, tensor<bf16>) -> tensor<3x200x200xbf16>
  %sb = "graph.add"(%b, %ss) : (tensor<200x200xbf16>, tensor<3x200x200xbf16>) -> tensor<3x200x200xbf16>
  %p = "graph.softmax"(%sb) {dim = 2 : i64} : (tensor<3x200x200xbf16>) -> tensor<3x200x200xbf16>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<3x200x200xbf16>, tensor<3x200x128xbf16>) -> tensor<3x200x128xbf16>
  return %y : tensor<3x200x128xbf16>
}
