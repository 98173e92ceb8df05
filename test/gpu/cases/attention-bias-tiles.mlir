// Biases that reach the flash kernel in tiles through shared memory (TMA boxes beside K
// and V, targets/cuda/matmul/flash.c): a bf16 bias per batch and head at head dim 128
// (the largest shared-memory plan), an f16 bias shared by the heads with a partial last
// query tile, and an i1 mask per batch broadcast over the heads (a byte per value).
// gpu-metric: norm (run.py: the kernel keeps scores and probabilities in f32).
// RUN: braze compile %s --target=cuda -o %t.so
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda},form-row-chains{target=cuda online=half},cuda-codegen{remarks bias-tiles=1})' -o /dev/null 2>&1 | FileCheck %s
// CHECK-COUNT-3: remark: cuda-codegen: kernel @cuda_chain_{{.*}}: flash kernel (online chain){{.*}}, the bias in tiles by TMA
func.func @bias_per_head_d128(%q: tensor<2x3x256x128xbf16>, %k: tensor<2x3x256x128xbf16>, %v: tensor<2x3x256x128xbf16>, %b: tensor<2x3x256x256xbf16>) -> tensor<2x3x256x128xbf16> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x3x256x128xbf16>) -> tensor<2x3x128x256xbf16>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<2x3x256x128xbf16>, tensor<2x3x128x256xbf16>) -> tensor<2x3x256x256xbf16>
  %c = "graph.constant"() {value = dense<0.088388> : tensor<bf16>} : () -> tensor<bf16>
  %ss = "graph.mul"(%s, %c) : (tensor<2x3x256x256xbf16>, tensor<bf16>) -> tensor<2x3x256x256xbf16>
  %sb = "graph.add"(%ss, %b) : (tensor<2x3x256x256xbf16>, tensor<2x3x256x256xbf16>) -> tensor<2x3x256x256xbf16>
  %p = "graph.softmax"(%sb) {dim = 3 : i64} : (tensor<2x3x256x256xbf16>) -> tensor<2x3x256x256xbf16>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<2x3x256x256xbf16>, tensor<2x3x256x128xbf16>) -> tensor<2x3x256x128xbf16>
  return %y : tensor<2x3x256x128xbf16>
}
func.func @bias_shared_f16_rows_tail(%q: tensor<3x200x64xf16>, %k: tensor<3x384x64xf16>, %v: tensor<3x384x64xf16>, %b: tensor<200x384xf16>) -> tensor<3x200x64xf16> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<3x384x64xf16>) -> tensor<3x64x384xf16>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<3x200x64xf16>, tensor<3x64x384xf16>) -> tensor<3x200x384xf16>
  %c = "graph.constant"() {value = dense<0.125> : tensor<f16>} : () -> tensor<f16>
  %ss = "graph.mul"(%s, %c) : (tensor<3x200x384xf16>, tensor<f16>) -> tensor<3x200x384xf16>
  %sb = "graph.add"(%ss, %b) : (tensor<3x200x384xf16>, tensor<200x384xf16>) -> tensor<3x200x384xf16>
  %p = "graph.softmax"(%sb) {dim = 2 : i64} : (tensor<3x200x384xf16>) -> tensor<3x200x384xf16>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<3x200x384xf16>, tensor<3x384x64xf16>) -> tensor<3x200x64xf16>
  return %y : tensor<3x200x64xf16>
}
func.func @mask_per_batch(%q: tensor<2x4x384x64xbf16>, %k: tensor<2x4x256x64xbf16>, %v: tensor<2x4x256x64xbf16>, %m: tensor<2x1x384x256xi1>) -> tensor<2x4x384x64xbf16> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x4x256x64xbf16>) -> tensor<2x4x64x256xbf16>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<2x4x384x64xbf16>, tensor<2x4x64x256xbf16>) -> tensor<2x4x384x256xbf16>
  %c = "graph.constant"() {value = dense<0.125> : tensor<bf16>} : () -> tensor<bf16>
  %ss = "graph.mul"(%s, %c) : (tensor<2x4x384x256xbf16>, tensor<bf16>) -> tensor<2x4x384x256xbf16>
  %fill = "graph.constant"() {value = dense<-3.389530e+38> : tensor<bf16>} : () -> tensor<bf16>
  %sm = "graph.select"(%m, %ss, %fill) : (tensor<2x1x384x256xi1>, tensor<2x4x384x256xbf16>, tensor<bf16>) -> tensor<2x4x384x256xbf16>
  %p = "graph.softmax"(%sm) {dim = 3 : i64} : (tensor<2x4x384x256xbf16>) -> tensor<2x4x384x256xbf16>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<2x4x384x256xbf16>, tensor<2x4x256x64xbf16>) -> tensor<2x4x384x64xbf16>
  return %y : tensor<2x4x384x64xbf16>
}
