// The tensor-core template on form-kernels' horizontal pair (horizontal-templates=half):
// W6's gate and up projections of one bf16 h as one kernel. Each k step loads h's box once
// and both Bs' boxes (three descriptors, the kernel's arguments 0, 1 and 2), each
// warpgroup keeps two 64x128 accumulators (wgmma m64n128k16, four per B and step), and
// the epilogue reads both products back (two C tiles) to compute silu(h@wg) * (h@wu).
// The same pair over f32 is not formed (the SIMT kernel would compute the second
// product per element): two kernels.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose,graph-to-loops,inline-unrealized,form-kernels{target=cuda horizontal-templates=half},cuda-codegen{remarks},canonicalize,cse)' 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: rm -rf %t && braze compile %s --target=cuda --no-header -o %t.so --dump-kernels=%t
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/cuda_tem_fused_matmul_silu_mul_0.ptx
// RUN: %cuda_path/bin/ptxas -arch=sm_90a -v %t/cuda_tem_fused_matmul_silu_mul_0.ptx -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// REQUIRES: cuda

func.func @gate_up(%h: tensor<512x256xbf16>, %wg: tensor<256x640xbf16>, %wu: tensor<256x640xbf16>) -> tensor<512x640xbf16> {
  %a = "graph.matmul"(%h, %wg) : (tensor<512x256xbf16>, tensor<256x640xbf16>) -> tensor<512x640xbf16>
  %sa = "graph.silu"(%a) : (tensor<512x640xbf16>) -> tensor<512x640xbf16>
  %u = "graph.matmul"(%h, %wu) : (tensor<512x256xbf16>, tensor<256x640xbf16>) -> tensor<512x640xbf16>
  %p = "graph.mul"(%sa, %u) : (tensor<512x640xbf16>, tensor<512x640xbf16>) -> tensor<512x640xbf16>
  return %p : tensor<512x640xbf16>
}

func.func @gate_up_f32(%h: tensor<64x32xf32>, %wg: tensor<32x48xf32>, %wu: tensor<32x48xf32>) -> tensor<64x48xf32> {
  %a = "graph.matmul"(%h, %wg) : (tensor<64x32xf32>, tensor<32x48xf32>) -> tensor<64x48xf32>
  %sa = "graph.silu"(%a) : (tensor<64x48xf32>) -> tensor<64x48xf32>
  %u = "graph.matmul"(%h, %wu) : (tensor<64x32xf32>, tensor<32x48xf32>) -> tensor<64x48xf32>
  %p = "graph.mul"(%sa, %u) : (tensor<64x48xf32>, tensor<64x48xf32>) -> tensor<64x48xf32>
  return %p : tensor<64x48xf32>
}

// CHECK-LABEL: func.func @gate_up(
// CHECK: "kernel.tensor_map"(%arg0) {box = array<i64: 64, 128>}
// CHECK: "kernel.tensor_map"(%arg1) {box = array<i64: 64, 64>}
// CHECK: "kernel.tensor_map"(%arg2) {box = array<i64: 64, 64>}
// CHECK: gpu.func @cuda_tem_fused_matmul_silu_mul_0({{.*}}) kernel attributes {braze.dynamic_smem = 196608 : i64, braze.grid = array<i64: 20, 1, 1>, braze.grid_constants = array<i64: 4, 5, 6>, braze.tma_boxes = [array<i64: 0, 64, 128>, array<i64: 1, 64, 64>, array<i64: 2, 64, 64>]
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (!nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>, !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>)
// CHECK-COUNT-2: nvgpu.warpgroup.mma
// CHECK-COUNT-2: nvgpu.warpgroup.mma.store
// CHECK: vector.load %{{.*}} : memref<128x136xf32, 3>, vector<8xf32>
// CHECK: vector.load %{{.*}} : memref<128x136xf32, 3>, vector<8xf32>
// CHECK: math.exp

// REMARK-DAG: kernel @cuda_tem_fused_matmul_silu_mul_0: matmul kernel, grid (20, 1, 1), block 256, vector width 8, tensor-core template: 128x128 tiles, 2 warpgroups, 4 stages, 196608 bytes of shared memory, two products of one A
// REMARK-DAG: entry @gate_up_f32: {{.*}} 2 kernel call(s)

// PTX-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
