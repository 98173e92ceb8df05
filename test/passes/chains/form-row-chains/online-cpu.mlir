// form-row-chains' online form on the cpu target: the chain kernel keeps its loops (row
// blocks, then key blocks with the running max, sum and output as iter_args) and its
// generics become block kernels it calls: the scores (a tem kernel, q . k^T), the
// running max, exp, rescale factor and sum (a per kernel reading the last step's max
// and sum), the rescaled accumulation acc * alpha + p . v (a tem kernel with that
// epilogue), and the normalization after the loop. Blocks divide their extents: rows
// by the largest divisor up to 128 keeping min-blocks blocks, keys by the largest
// divisor up to key-block. Attention with fewer keys than online-min-keys (2048 on cpu)
// keeps whole rows (no online remark: the whole-row chain's is the decision).
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels,form-row-chains{online-min-keys=1 key-block=64})' | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels,form-row-chains{online-min-keys=1 key-block=64 remarks})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels,form-row-chains{remarks})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels,form-row-chains{online-min-keys=1 key-block=64 no-online})' | FileCheck %s --check-prefix=OFF
// RUN: not braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(form-row-chains{online-min-keys=-1})' 2>&1 | FileCheck %s --check-prefix=BAD
// cpu-codegen's lowering of the key loop: fills as store loops, two buffers per iter_arg
// carried by the scf.for and swapped in its yield, the block kernels called
// destination-passing (the next step's buffers as the max's, the sum's and the
// accumulation's destinations), the normalization writing the result's subview.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels,form-row-chains{online-min-keys=1 key-block=64},cpu-codegen)' | FileCheck %s --check-prefix=LOWER

// REMARK: online-cpu.mlir:[[@LINE+62]]:8: remark: form-row-chains: 3 kernels as @cpu_chain_fused_batch_matmul_mul_softmax_0 in the online form: blocks of 128 rows, 64 keys per step, scale 0.125, its generics as block kernels
// DEFAULT: online-cpu.mlir:[[@LINE+61]]:8: remark: form-row-chains: 3 kernels as @cpu_chain_fused_batch_matmul_mul_softmax_0: blocks of
// CHECK-LABEL: func.func private @cpu_chain_fused_batch_matmul_mul_softmax_0_key0(
// CHECK-SAME: %{{.*}}: tensor<1x128x64xf32>, %{{.*}}: tensor<1x64x64xf32>) -> tensor<1x128x64xf32>
// CHECK-SAME: kernel.kind = "tem", kernel.ops = ["batch_matmul"]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK-LABEL: func.func private @cpu_chain_fused_batch_matmul_mul_softmax_0_key1(
// CHECK-SAME: %[[S:.*]]: tensor<1x128x64xf32>, %[[M:.*]]: tensor<1x128x1xf32>, %[[L:.*]]: tensor<1x128x1xf32>) -> (tensor<1x128x1xf32>, tensor<1x128x64xf32>, tensor<1x128x1xf32>, tensor<1x128x1xf32>)
// CHECK-SAME: kernel.kind = "per"
// CHECK: %[[MX:.*]] = linalg.generic {{.*}} ins(%[[S]] : tensor<1x128x64xf32>) outs(%[[M]] : tensor<1x128x1xf32>)
// CHECK: arith.maximumf
// CHECK: math.exp
// CHECK: linalg.generic {{.*}} ins(%[[M]], %[[MX]] :
// CHECK: math.exp
// CHECK: return %[[MX]],
// CHECK-LABEL: func.func private @cpu_chain_fused_batch_matmul_mul_softmax_0_key2(
// CHECK-SAME: kernel.kind = "tem", kernel.ops = ["batch_matmul", "map"]
// CHECK-LABEL: func.func private @cpu_chain_fused_batch_matmul_mul_softmax_0_end0(
// CHECK-SAME: kernel.kind = "per"
// CHECK: arith.divf
// CHECK-LABEL: func.func private @cpu_chain_fused_batch_matmul_mul_softmax_0(
// CHECK-SAME: kernel.kind = "chain", kernel.online = {key_block = 64 : i64, scale = 1.250000e-01 : f32}
// CHECK: scf.forall (%[[B:.*]], %[[R:.*]]) = (0, 0) to (4, 256) step (1, 128)
// CHECK: %[[Q:.*]] = tensor.extract_slice %arg0[%[[B]], %[[R]], 0] [1, 128, 64]
// CHECK: %[[M0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x128x1xf32>)
// CHECK: %[[L0:.*]] = linalg.fill
// CHECK: %[[A0:.*]] = linalg.fill
// CHECK: %[[RES:.*]]:3 = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[MI:.*]] = %[[M0]], %[[LI:.*]] = %[[L0]], %[[AI:.*]] = %[[A0]])
// CHECK: %[[K:.*]] = tensor.extract_slice %arg1[%[[B]], %[[J]], 0] [1, 64, 64]
// CHECK: %[[V:.*]] = tensor.extract_slice %arg2[%[[B]], %[[J]], 0] [1, 64, 64]
// CHECK: %[[SC:.*]] = func.call @cpu_chain_fused_batch_matmul_mul_softmax_0_key0(%[[Q]], %[[K]])
// CHECK: %[[U:.*]]:4 = func.call @cpu_chain_fused_batch_matmul_mul_softmax_0_key1(%[[SC]], %[[MI]], %[[LI]])
// CHECK: %[[AN:.*]] = func.call @cpu_chain_fused_batch_matmul_mul_softmax_0_key2(%[[U]]#1, %[[V]], %[[AI]], %[[U]]#2)
// CHECK: scf.yield %[[U]]#0, %[[U]]#3, %[[AN]]
// CHECK: func.call @cpu_chain_fused_batch_matmul_mul_softmax_0_end0(%[[RES]]#2, %[[RES]]#1)
// CHECK: tensor.parallel_insert_slice
// CHECK-LABEL: func.func @attention(
// CHECK-NEXT: call @cpu_chain_fused_batch_matmul_mul_softmax_0(%arg0, %arg1, %arg2)
// LOWER-LABEL: func.func private @cpu_chain_fused_batch_matmul_mul_softmax_0(
// LOWER: scf.parallel (%[[B:.*]], %[[R:.*]]) =
// LOWER: %[[Q:.*]] = memref.subview %arg0
// LOWER: %[[M0:.*]] = memref.alloca() {alignment = 64 : i64} : memref<1x128x1xf32>
// LOWER: memref.store %{{.*}}, %[[M0]]
// LOWER: %[[L0:.*]] = memref.alloca() {alignment = 64 : i64} : memref<1x128x1xf32>
// LOWER: %[[A0:.*]] = memref.alloca() {alignment = 64 : i64} : memref<1x128x64xf32>
// LOWER: %[[M1:.*]] = memref.alloca() {alignment = 64 : i64} : memref<1x128x1xf32>
// LOWER: %[[L1:.*]] = memref.alloca() {alignment = 64 : i64} : memref<1x128x1xf32>
// LOWER: %[[A1:.*]] = memref.alloca() {alignment = 64 : i64} : memref<1x128x64xf32>
// LOWER: %[[RES:.*]]:6 = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[MC:.*]] = %[[M0]], %[[LC:.*]] = %[[L0]], %[[AC:.*]] = %[[A0]], %[[MN:.*]] = %[[M1]], %[[LN:.*]] = %[[L1]], %[[AN:.*]] = %[[A1]])
// LOWER: %[[K:.*]] = memref.subview %arg1[%[[B]], %[[J]], 0] [1, 64, 64]
// LOWER: func.call @cpu_chain_fused_batch_matmul_mul_softmax_0_key0(%[[Q]], %[[K]], %[[S:.*]]) :
// LOWER: func.call @cpu_chain_fused_batch_matmul_mul_softmax_0_key1(%[[S]], %[[MC]], %[[LC]], %[[MN]], %[[P:.*]], %[[AL:.*]], %[[LN]]) :
// LOWER: func.call @cpu_chain_fused_batch_matmul_mul_softmax_0_key2(%[[P]], %{{.*}}, %[[AC]], %[[AL]], %[[AN]]) :
// LOWER: scf.yield %[[MN]], %[[LN]], %[[AN]], %[[MC]], %[[LC]], %[[AC]]
// LOWER: %[[Y:.*]] = memref.subview %arg3
// LOWER: func.call @cpu_chain_fused_batch_matmul_mul_softmax_0_end0(%[[RES]]#2, %[[RES]]#1, %[[Y]])
// OFF-LABEL: func.func @attention(
// OFF-NEXT: call @cpu_chain_fused_batch_matmul_mul_softmax_0(
// OFF-NOT: kernel.online
// BAD: form-row-chains: rows, online-min-keys and window-channels must be >= 0
func.func @attention(%q: tensor<4x256x64xf32>, %k: tensor<4x256x64xf32>, %v: tensor<4x256x64xf32>) -> tensor<4x256x64xf32> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<4x256x64xf32>) -> tensor<4x64x256xf32>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<4x256x64xf32>, tensor<4x64x256xf32>) -> tensor<4x256x256xf32>
  %c = "graph.constant"() {value = dense<0.125> : tensor<f32>} : () -> tensor<f32>
  %ss = "graph.mul"(%s, %c) : (tensor<4x256x256xf32>, tensor<f32>) -> tensor<4x256x256xf32>
  %p = "graph.softmax"(%ss) {dim = 2 : i64} : (tensor<4x256x256xf32>) -> tensor<4x256x256xf32>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<4x256x256xf32>, tensor<4x256x64xf32>) -> tensor<4x256x64xf32>
  return %y : tensor<4x256x64xf32>
}

// -----

// A causal mask (row i keeps keys j <= i): the per kernel takes the row block's and the
// key block's offsets as index arguments (its generics compare them), and the key loop
// ends at the block's last row.
// CHECK-LABEL: func.func private @cpu_chain_{{.*}}_key1(
// CHECK-SAME: %{{.*}}: tensor<1x16x16xf32>, %{{.*}}: tensor<1x16x1xf32>, %{{.*}}: index, %{{.*}}: index, %{{.*}}: tensor<1x16x1xf32>)
// CHECK: arith.cmpi sle
// CHECK: arith.select
// CHECK-LABEL: func.func private @cpu_chain_fused_batch_matmul_mul_select_softmax_0(
// CHECK-SAME: kernel.online = {causal = 0 : i64, key_block = 16 : i64
// CHECK: scf.forall (%[[B:.*]], %[[R:.*]]) =
// CHECK: %[[END:.*]] = affine.min #{{.*}}(%[[R]])
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[END]] step
// CHECK: func.call @cpu_chain_{{.*}}_key1(%{{.*}}, %{{.*}}, %[[R]], %[[J]], %{{.*}})
func.func @causal(%q: tensor<2x16x8xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x16x8xf32>) -> tensor<2x16x8xf32> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<2x16x8xf32>) -> tensor<2x8x16xf32>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<2x16x8xf32>, tensor<2x8x16xf32>) -> tensor<2x16x16xf32>
  %c = "graph.constant"() {value = dense<0.35355339> : tensor<f32>} : () -> tensor<f32>
  %ss = "graph.mul"(%s, %c) : (tensor<2x16x16xf32>, tensor<f32>) -> tensor<2x16x16xf32>
  %m = "graph.constant"() {value = dense<[[true,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false],[true,true,false,false,false,false,false,false,false,false,false,false,false,false,false,false],[true,true,true,false,false,false,false,false,false,false,false,false,false,false,false,false],[true,true,true,true,false,false,false,false,false,false,false,false,false,false,false,false],[true,true,true,true,true,false,false,false,false,false,false,false,false,false,false,false],[true,true,true,true,true,true,false,false,false,false,false,false,false,false,false,false],[true,true,true,true,true,true,true,false,false,false,false,false,false,false,false,false],[true,true,true,true,true,true,true,true,false,false,false,false,false,false,false,false],[true,true,true,true,true,true,true,true,true,false,false,false,false,false,false,false],[true,true,true,true,true,true,true,true,true,true,false,false,false,false,false,false],[true,true,true,true,true,true,true,true,true,true,true,false,false,false,false,false],[true,true,true,true,true,true,true,true,true,true,true,true,false,false,false,false],[true,true,true,true,true,true,true,true,true,true,true,true,true,false,false,false],[true,true,true,true,true,true,true,true,true,true,true,true,true,true,false,false],[true,true,true,true,true,true,true,true,true,true,true,true,true,true,true,false],[true,true,true,true,true,true,true,true,true,true,true,true,true,true,true,true]]> : tensor<16x16xi1>} : () -> tensor<16x16xi1>
  %ninf = "graph.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %sm = "graph.select"(%m, %ss, %ninf) : (tensor<16x16xi1>, tensor<2x16x16xf32>, tensor<f32>) -> tensor<2x16x16xf32>
  %p = "graph.softmax"(%sm) {dim = 2 : i64} : (tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<2x16x16xf32>, tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  return %y : tensor<2x16x8xf32>
}

// -----

// Keys that key-block does not divide (131 = 2 x 64 + 3): the key loop runs the whole
// blocks, and a second loop of one step takes the 3 keys left, from the first loop's
// running values, with block kernels of its own shapes (@..._tail0..2): the cpu target's
// block kernels are static.
// REMARK: online-cpu.mlir:[[@LINE+15]]:8: remark: form-row-chains: 3 kernels as @cpu_chain_fused_batch_matmul_softmax_0 in the online form: blocks of 32 rows, 64 keys per step and a tail step, scale 1, its generics as block kernels
// CHECK-LABEL: func.func private @cpu_chain_fused_batch_matmul_softmax_0_tail0(
// CHECK-SAME: tensor<1x32x16xf32>, %{{.*}}: tensor<1x3x16xf32>) -> tensor<1x32x3xf32>
// CHECK-LABEL: func.func private @cpu_chain_fused_batch_matmul_softmax_0(
// CHECK: %[[W:.*]]:3 = scf.for %{{.*}} = %{{.*}} to %c128 step %c64 iter_args(
// CHECK: func.call @cpu_chain_fused_batch_matmul_softmax_0_key0(
// CHECK: %[[T:.*]]:3 = scf.for %[[J:.*]] = %c128 to %c131 step %c3 iter_args(%{{.*}} = %[[W]]#0, %{{.*}} = %[[W]]#1, %{{.*}} = %[[W]]#2)
// CHECK: tensor.extract_slice %arg1[%{{.*}}, %[[J]], 0] [1, 3, 16]
// CHECK: func.call @cpu_chain_fused_batch_matmul_softmax_0_tail0(
// CHECK: func.call @cpu_chain_fused_batch_matmul_softmax_0_tail1(
// CHECK: func.call @cpu_chain_fused_batch_matmul_softmax_0_tail2(
// CHECK: func.call @cpu_chain_fused_batch_matmul_softmax_0_end0(%[[T]]#2, %[[T]]#1)
// CHECK-LABEL: func.func @keys131(
func.func @keys131(%q: tensor<4x64x16xf32>, %k: tensor<4x131x16xf32>, %v: tensor<4x131x16xf32>) -> tensor<4x64x16xf32> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<4x131x16xf32>) -> tensor<4x16x131xf32>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<4x64x16xf32>, tensor<4x16x131xf32>) -> tensor<4x64x131xf32>
  %p = "graph.softmax"(%s) {dim = 2 : i64} : (tensor<4x64x131xf32>) -> tensor<4x64x131xf32>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<4x64x131xf32>, tensor<4x131x16xf32>) -> tensor<4x64x16xf32>
  return %y : tensor<4x64x16xf32>
}

// -----

// The default: 2048 keys reach online-min-keys, so the cpu target takes the online form,
// 256 keys per step (the default key-block).
// DEFAULT: online-cpu.mlir:[[@LINE+4]]:8: remark: form-row-chains: 3 kernels as @cpu_chain_fused_batch_matmul_softmax_0 in the online form: blocks of 8 rows, 256 keys per step, scale 1, its generics as block kernels
// CHECK-LABEL: func.func @long_keys(
func.func @long_keys(%q: tensor<1x8x16xf32>, %k: tensor<1x2048x16xf32>, %v: tensor<1x2048x16xf32>) -> tensor<1x8x16xf32> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<1x2048x16xf32>) -> tensor<1x16x2048xf32>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<1x8x16xf32>, tensor<1x16x2048xf32>) -> tensor<1x8x2048xf32>
  %p = "graph.softmax"(%s) {dim = 2 : i64} : (tensor<1x8x2048xf32>) -> tensor<1x8x2048xf32>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<1x8x2048xf32>, tensor<1x2048x16xf32>) -> tensor<1x8x16xf32>
  return %y : tensor<1x8x16xf32>
}
