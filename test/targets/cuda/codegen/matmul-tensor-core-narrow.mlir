// cuda-codegen's tensor-core template on a narrow N (<= 64: ResNet's first-stage convs,
// N = 64 output channels): 128x64 tiles, one 64-column B box per k step and wgmma
// m64n64k16, so that no tile computes as many zero columns as real ones (a 128-column
// tile did). N = 48 here: the tile's last 16 columns are TMA's zero fill, masked in the
// epilogue. N = 72 (above 64) keeps 128-column tiles. ptxas: no spills.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose,graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen{remarks})' -o /dev/null 2>&1 | FileCheck %s
// RUN: rm -rf %t && braze compile %s --target=cuda --no-header -o %t.so --dump-kernels=%t
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/cuda_tem_fused_matmul_add_relu_0.ptx
// RUN: %cuda_path/bin/ptxas -arch=sm_90a -v %t/cuda_tem_fused_matmul_add_relu_0.ptx -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// REQUIRES: cuda

// CHECK: remark: cuda-codegen: kernel @cuda_tem_fused_matmul_add_relu_0: matmul kernel, grid (3, 1, 1), block 256, vector width 8, tensor-core template: 128x64 tiles, 2 warpgroups, 4 stages, 98304 bytes of shared memory
// CHECK: remark: cuda-codegen: kernel @cuda_tem_fused_matmul_1: matmul kernel, grid (3, 1, 1), block 256, vector width 8, tensor-core template: 128x128 tiles
// PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// PTX-NOT: m64n128k16
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
func.func @narrow(%x: tensor<300x200xbf16>, %w: tensor<200x48xbf16>, %b: tensor<48xbf16>) -> tensor<300x48xbf16> {
  %0 = "graph.matmul"(%x, %w) : (tensor<300x200xbf16>, tensor<200x48xbf16>) -> tensor<300x48xbf16>
  %1 = "graph.add"(%0, %b) : (tensor<300x48xbf16>, tensor<48xbf16>) -> tensor<300x48xbf16>
  %2 = "graph.relu"(%1) : (tensor<300x48xbf16>) -> tensor<300x48xbf16>
  return %2 : tensor<300x48xbf16>
}

func.func @wider(%x: tensor<300x200xbf16>, %w: tensor<200x72xbf16>) -> tensor<300x72xbf16> {
  %0 = "graph.matmul"(%x, %w) : (tensor<300x200xbf16>, tensor<200x72xbf16>) -> tensor<300x72xbf16>
  return %0 : tensor<300x72xbf16>
}
