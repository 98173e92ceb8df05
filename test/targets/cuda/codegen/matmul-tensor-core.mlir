// cuda-codegen's tensor-core template (targets/cuda/matmul/wgmma.c) for a bf16
// contraction and its epilogue: 300x520 output in 128x256 tiles (3 row tiles x 3 column
// tiles, the last ones partial), K = 200 (four 64-deep steps, the last zero-filled).
// IR: TMA descriptors made in the entry (kernel.tensor_map) and passed after the
// memrefs, dynamic shared memory on the launch; in the kernel, the prologue's loads, the
// main loop's mbarrier wait, wgmma on 64x256 per warpgroup and refill of the freed stage;
// then the accumulators to shared memory and the epilogue (bias, erf gelu) in 8-wide
// runs, each stored once. The PTX has m64n256k16 bf16 wgmma, the bulk tensor copies, the
// descriptors as 128-byte by-value parameters, the epilogue after the last wgmma wait;
// and from ptxas, no spills. Options change tiles and stages; bad values are refused.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose,graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen,canonicalize,cse)' | FileCheck %s
// RUN: rm -rf %t && braze compile %s --target=cuda --no-header -o %t.so --dump-kernels=%t
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/cuda_tem_fused_matmul_add_gelu_0.ptx
// RUN: %cuda_path/bin/ptxas -arch=sm_90a -v %t/cuda_tem_fused_matmul_add_gelu_0.ptx -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose,graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen{remarks tile-n=128 stages=3})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPTS
// RUN: not braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(cuda-codegen{tile-n=64})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADTILE
// RUN: not braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(cuda-codegen{stages=9})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADSTAGES
// RUN: not braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(cuda-codegen{matmul=fast})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADCHOICE
// REQUIRES: cuda

func.func @linear_gelu(%x: tensor<300x200xbf16>, %w: tensor<200x520xbf16>, %b: tensor<520xbf16>) -> tensor<300x520xbf16> {
  %0 = "graph.matmul"(%x, %w) : (tensor<300x200xbf16>, tensor<200x520xbf16>) -> tensor<300x520xbf16>
  %1 = "graph.add"(%0, %b) : (tensor<300x520xbf16>, tensor<520xbf16>) -> tensor<300x520xbf16>
  %2 = "graph.gelu"(%1) {approximate = "none"} : (tensor<300x520xbf16>) -> tensor<300x520xbf16>
  return %2 : tensor<300x520xbf16>
}

// CHECK-LABEL: func.func @linear_gelu(
// CHECK: %[[MA:.*]] = "kernel.tensor_map"(%arg0) {box = array<i64: 64, 128>} : (memref<300x200xbf16>) -> !llvm.ptr
// CHECK: %[[MB:.*]] = "kernel.tensor_map"(%arg1) {box = array<i64: 64, 64>} : (memref<200x520xbf16>) -> !llvm.ptr
// CHECK: gpu.launch_func @braze_kernels::@cuda_tem_fused_matmul_add_gelu_0 blocks in (%c9, %c1, %c1) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %c196608_i32 args(%arg0 : memref<300x200xbf16>, %arg1 : memref<200x520xbf16>, %arg2 : memref<520xbf16>, %arg3 : memref<300x520xbf16>, %[[MA]] : !llvm.ptr, %[[MB]] : !llvm.ptr)
// CHECK: memref.global "private" @braze_smem : memref<0xi8, 3> {alignment = 1024 : i64}
// CHECK: gpu.func @cuda_tem_fused_matmul_add_gelu_0({{.*}}, %[[TA:.*]]: !llvm.ptr, %[[TB:.*]]: !llvm.ptr) kernel attributes {braze.dynamic_smem = 196608 : i64, braze.grid = array<i64: 9, 1, 1>, braze.grid_constants = array<i64: 4, 5>, braze.tma_boxes = [array<i64: 0, 64, 128>, array<i64: 1, 64, 64>]
// CHECK: %[[DA:.*]] = builtin.unrealized_conversion_cast %[[TA]] : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<128x64xbf16, 3>, swizzle = swizzle_128b
// CHECK: %[[DB:.*]] = builtin.unrealized_conversion_cast %[[TB]] : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, 3>, swizzle = swizzle_128b
// prologue: thread 0 arms each stage with A's and B's bytes (16384 + 32768) and loads
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c49152
// CHECK: nvgpu.tma.async.load %[[DA]]
// CHECK-COUNT-4: nvgpu.tma.async.load %[[DB]]
// main loop over the four k steps: wait, wgmma, barrier, refill
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (!nvgpu.warpgroup.accumulator<fragmented = vector<64x256xf32>>)
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: nvgpu.warpgroup.mma %{{.*}}, %{{.*}}, %{{.*}} {transposeB} : <tensor = memref<64x64xbf16, 3>>, <tensor = memref<64x256xbf16, 3>>
// CHECK: gpu.barrier
// CHECK: nvgpu.tma.async.load %[[DA]]
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvgpu.warpgroup.mma.store %{{.*}}, %{{.*}} : <fragmented = vector<64x256xf32>> to memref<64x256xf32, strided<[264, 1]>, 3>
// CHECK: gpu.barrier
// the epilogue: 8-wide runs over the 128x256 tile, masked at the M and N edges
// CHECK: scf.for %{{.*}} = %thread_id_x to %c4096 step %c256 {
// CHECK: scf.if
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<128x264xf32, 3>, vector<8xf32>
// CHECK: vector.load %arg2[%{{.*}}] {alignment = 16 : i64} : memref<520xbf16>, vector<8xbf16>
// CHECK: math.erf
// CHECK: vector.store %{{.*}}, %arg3[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<300x520xbf16>, vector<8xbf16>

// PTX: .param .align 64 .b8 cuda_tem_fused_matmul_add_gelu_0_param_4[128]
// PTX: .param .align 64 .b8 cuda_tem_fused_matmul_add_gelu_0_param_5[128]
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// PTX: wgmma.wait_group.sync.aligned 0
// PTX: st.global.v4.b32

// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// OPTS: tensor-core template: 128x128 tiles, 2 warpgroups, 3 stages, 98304 bytes of shared memory
// BADTILE: option 'tile-n' expects 128 or 256, got 64
// BADSTAGES: option 'stages' expects 2 to 6, got 9
// BADCHOICE: option 'matmul' expects template, simt, extern or auto, got 'fast'
