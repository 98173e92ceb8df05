// form-row-chains' online form (target other than cpu): q @ k^T, the softmax and @ v
// become one chain kernel that runs the keys in blocks of key-block with a running max
// (%mx), a running sum (%ln) and a partial output rescaled by exp(m - m') (%an),
// normalized once after the loop. The softmax may be two kernels (bf16: the row max,
// then exp, sum and quotient) or one (f32); the scale may be a mul or a div.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda},form-row-chains{target=cuda})' | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda},form-row-chains{target=cuda remarks})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda},form-row-chains{target=cuda no-online})' | FileCheck %s --check-prefix=OFF
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels,form-row-chains)' | FileCheck %s --check-prefix=CPU
// RUN: not braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(form-row-chains{online=some})' 2>&1 | FileCheck %s --check-prefix=BAD

// REMARK: online.mlir:[[@LINE+21]]:8: remark: form-row-chains: 4 kernels as @cuda_chain_{{.*}}_0 in the online form: blocks of 128 rows, 128 keys per step, scale 0.125
// CHECK-LABEL: func.func private @cuda_chain_
// CHECK-SAME: (%{{.*}}: tensor<4x256x64xbf16>, %{{.*}}: tensor<4x256x64xbf16>, %{{.*}}: tensor<4x256x64xbf16>) -> tensor<4x256x64xbf16>
// CHECK-SAME: kernel.kind = "chain", kernel.online = {key_block = 128 : i64, scale = 1.250000e-01 : f32}
// CHECK: scf.forall (%[[B:.*]], %[[M:.*]]) = (0, 0) to (4, 256) step (1, 128)
// CHECK: tensor.extract_slice %arg0[%[[B]], %[[M]], 0] [1, 128, 64] [1, 1, 1] : tensor<4x256x64xbf16> to tensor<1x128x64xbf16>
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[MAX:.*]] = %{{.*}}, %[[SUM:.*]] = %{{.*}}, %[[ACC:.*]] = %{{.*}}) -> (tensor<1x128x1xf32>, tensor<1x128x1xf32>, tensor<1x128x64xf32>)
// CHECK: tensor.extract_slice %arg1[%[[B]], %[[J]], 0] [1, 128, 64]
// CHECK: arith.maximumf
// CHECK: math.exp
// CHECK: scf.yield
// CHECK: arith.divf
// CHECK-LABEL: func.func @mul_two_kernel_softmax(
// CHECK-NEXT: call @cuda_chain_{{.*}}(%arg0, %arg1, %arg2)
// CHECK-NEXT: return
// OFF-LABEL: func.func @mul_two_kernel_softmax(
// OFF-COUNT-4: call @cuda_
// CPU-LABEL: func.func @mul_two_kernel_softmax(
// CPU-NOT: kernel.online
func.func @mul_two_kernel_softmax(%q: tensor<4x256x64xbf16>, %k: tensor<4x256x64xbf16>, %v: tensor<4x256x64xbf16>) -> tensor<4x256x64xbf16> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<4x256x64xbf16>) -> tensor<4x64x256xbf16>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<4x256x64xbf16>, tensor<4x64x256xbf16>) -> tensor<4x256x256xbf16>
  %c = "graph.constant"() {value = dense<0.125> : tensor<bf16>} : () -> tensor<bf16>
  %ss = "graph.mul"(%s, %c) : (tensor<4x256x256xbf16>, tensor<bf16>) -> tensor<4x256x256xbf16>
  %p = "graph.softmax"(%ss) {dim = 2 : i64} : (tensor<4x256x256xbf16>) -> tensor<4x256x256xbf16>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<4x256x256xbf16>, tensor<4x256x64xbf16>) -> tensor<4x256x64xbf16>
  return %y : tensor<4x256x64xbf16>
}

// -----

// Blocks that do not divide the rows or the keys: the last ones take dynamic sizes.
// REMARK: online.mlir:[[@LINE+8]]:8: remark: form-row-chains: 3 kernels as @cuda_chain_fused_batch_matmul_div_softmax_0 in the online form: blocks of 128 rows, 128 keys per step, scale 0.25
// CHECK: scale = 2.500000e-01 : f32
// CHECK: %[[MR:.*]] = affine.min #{{.*}}(%{{.*}})
// CHECK: tensor.extract_slice %arg0[%{{.*}}, %{{.*}}, 0] [1, %[[MR]], 16] [1, 1, 1] : tensor<2x200x16xf32> to tensor<1x?x16xf32>
// CHECK: %[[NR:.*]] = affine.min
// CHECK: tensor.extract_slice %arg2[%{{.*}}, %{{.*}}, 0] [1, %[[NR]], 16]
func.func @div_one_kernel_softmax_tail(%q: tensor<2x200x16xf32>, %k: tensor<2x200x16xf32>, %v: tensor<2x200x16xf32>) -> tensor<2x200x16xf32> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<2x200x16xf32>) -> tensor<2x16x200xf32>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<2x200x16xf32>, tensor<2x16x200xf32>) -> tensor<2x200x200xf32>
  %c = "graph.constant"() {value = dense<4.0> : tensor<f32>} : () -> tensor<f32>
  %ss = "graph.div"(%s, %c) : (tensor<2x200x200xf32>, tensor<f32>) -> tensor<2x200x200xf32>
  %p = "graph.softmax"(%ss) {dim = 2 : i64} : (tensor<2x200x200xf32>) -> tensor<2x200x200xf32>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<2x200x200xf32>, tensor<2x200x16xf32>) -> tensor<2x200x16xf32>
  return %y : tensor<2x200x16xf32>
}

// BAD: form-row-chains: online must be 'all', 'half' or 'cuda', not 'some'

// -----

// A causal mask (a constant keep-mask whose row i keeps keys j <= i + 1): kernel.online
// records the offset, the key loop ends at the row block's last row + 1, and each score
// past the diagonal is selected to -inf.
// REMARK: online.mlir:[[@LINE+11]]:8: remark: form-row-chains: 4 kernels as @cuda_chain_{{.*}} in the online form: blocks of 128 rows, 128 keys per step, scale 0.125, causal
// CHECK-LABEL: func.func private @cuda_chain_fused_batch_matmul_batch_matmul_mul_select_softmax_0
// CHECK-SAME: kernel.online = {causal = 1 : i64, key_block = 128 : i64, scale = 1.250000e-01 : f32}
// CHECK: affine.min
// CHECK: %[[KEND:.*]] = affine.min #{{.*}}(%{{.*}})
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %[[KEND]] step
// CHECK: linalg.index 1 : index
// CHECK: arith.cmpi sle
// CHECK: arith.select
func.func @causal(%q: tensor<2x8x64xbf16>, %k: tensor<2x8x64xbf16>, %v: tensor<2x8x64xbf16>) -> tensor<2x8x64xbf16> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<2x8x64xbf16>) -> tensor<2x64x8xbf16>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<2x8x64xbf16>, tensor<2x64x8xbf16>) -> tensor<2x8x8xbf16>
  %c = "graph.constant"() {value = dense<0.125> : tensor<bf16>} : () -> tensor<bf16>
  %ss = "graph.mul"(%s, %c) : (tensor<2x8x8xbf16>, tensor<bf16>) -> tensor<2x8x8xbf16>
  %m = "graph.constant"() {value = dense<[[true,true,false,false,false,false,false,false],[true,true,true,false,false,false,false,false],[true,true,true,true,false,false,false,false],[true,true,true,true,true,false,false,false],[true,true,true,true,true,true,false,false],[true,true,true,true,true,true,true,false],[true,true,true,true,true,true,true,true],[true,true,true,true,true,true,true,true]]> : tensor<8x8xi1>} : () -> tensor<8x8xi1>
  %ninf = "graph.constant"() {value = dense<0xFF80> : tensor<bf16>} : () -> tensor<bf16>
  %sm = "graph.select"(%m, %ss, %ninf) : (tensor<8x8xi1>, tensor<2x8x8xbf16>, tensor<bf16>) -> tensor<2x8x8xbf16>
  %p = "graph.softmax"(%sm) {dim = 2 : i64} : (tensor<2x8x8xbf16>) -> tensor<2x8x8xbf16>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<2x8x8xbf16>, tensor<2x8x64xbf16>) -> tensor<2x8x64xbf16>
  return %y : tensor<2x8x64xbf16>
}

// -----

// Heads sharing k and v (extent 1 in the head dim): every head's block slices the one k, v.
// CHECK-LABEL: func.func private @cuda_chain_fused_batch_matmul_batch_matmul_softmax_0(%arg0: tensor<2x3x130x64xbf16>, %arg1: tensor<2x1x130x64xbf16>, %arg2: tensor<2x1x130x64xbf16>)
// CHECK: scf.forall (%[[B:.*]], %[[H:.*]], %{{.*}}) = (0, 0, 0) to (2, 3, 130)
// CHECK: tensor.extract_slice %arg1[%[[B]], 0, %{{.*}}, 0] [1, 1, %{{.*}}, 64]
func.func @kv_shared(%q: tensor<2x3x130x64xbf16>, %k: tensor<2x1x130x64xbf16>, %v: tensor<2x1x130x64xbf16>) -> tensor<2x3x130x64xbf16> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x1x130x64xbf16>) -> tensor<2x1x64x130xbf16>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<2x3x130x64xbf16>, tensor<2x1x64x130xbf16>) -> tensor<2x3x130x130xbf16>
  %p = "graph.softmax"(%s) {dim = 3 : i64} : (tensor<2x3x130x130xbf16>) -> tensor<2x3x130x130xbf16>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<2x3x130x130xbf16>, tensor<2x1x130x64xbf16>) -> tensor<2x3x130x64xbf16>
  return %y : tensor<2x3x130x64xbf16>
}

// -----

// A bias added to the scaled scores (a padding mask: one row per batch, broadcast over
// the query rows): the chain's fourth argument, sliced per key block, added in both the
// running max and the exponentials.
// CHECK-LABEL: func.func private @cuda_chain_fused_batch_matmul_batch_matmul_mul_add_softmax_0(%arg0: tensor<4x256x64xbf16>, %arg1: tensor<4x256x64xbf16>, %arg2: tensor<4x256x64xbf16>, %arg3: tensor<4x1x256xbf16>)
// CHECK-SAME: kernel.online = {bias = array<i64: 0, -1, 2>, key_block = 128 : i64
// CHECK: scf.for %[[J:arg[0-9]+]] =
// CHECK: %[[BB:.*]] = tensor.extract_slice %arg3[%{{.*}}, 0, %[[J]]] [1, 1, 128] [1, 1, 1] : tensor<4x1x256xbf16> to tensor<1x1x128xbf16>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[BB]] : tensor<1x128x128xf32>, tensor<1x1x128xbf16>)
// CHECK: arith.extf
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK-LABEL: func.func @key_bias(
// CHECK: call @cuda_chain_fused_batch_matmul_batch_matmul_mul_add_softmax_0(%arg0, %arg1, %arg2, %arg3)
func.func @key_bias(%q: tensor<4x256x64xbf16>, %k: tensor<4x256x64xbf16>, %v: tensor<4x256x64xbf16>, %b: tensor<4x1x256xbf16>) -> tensor<4x256x64xbf16> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<4x256x64xbf16>) -> tensor<4x64x256xbf16>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<4x256x64xbf16>, tensor<4x64x256xbf16>) -> tensor<4x256x256xbf16>
  %c = "graph.constant"() {value = dense<0.125> : tensor<bf16>} : () -> tensor<bf16>
  %ss = "graph.mul"(%s, %c) : (tensor<4x256x256xbf16>, tensor<bf16>) -> tensor<4x256x256xbf16>
  %sb = "graph.add"(%ss, %b) : (tensor<4x256x256xbf16>, tensor<4x1x256xbf16>) -> tensor<4x256x256xbf16>
  %p = "graph.softmax"(%sb) {dim = 2 : i64} : (tensor<4x256x256xbf16>) -> tensor<4x256x256xbf16>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<4x256x256xbf16>, tensor<4x256x64xbf16>) -> tensor<4x256x64xbf16>
  return %y : tensor<4x256x64xbf16>
}
