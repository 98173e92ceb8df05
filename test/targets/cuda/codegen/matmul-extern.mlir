// cuda-codegen{matmul=extern}: contractions on cuBLASLt. A linear layer with B read
// transposed (x @ W^T, which the tensor-core template refuses) and a bias: @NAME_gemm
// writes the f32 product to the workspace (kernel.gemm, trans_b), then @NAME, an element
// kernel, adds the bias and rounds. A batched f32 product alone: kernel.gemm straight
// into the output, full f32, per-batch strides. A B broadcast over some batch dims only
// is refused with its reason and stays on SIMT. matmul=auto keeps both alternatives of
// the bias layer in the entry, tagged braze.alternative = [site, choice, outputs], the
// extern twin writing the kernel's own output. With allow-tf32 (only then) the f32 GEMM
// may use TF32 (`tf32` on kernel.gemm); bf16 ones are unchanged.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose,graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen{matmul=extern remarks},canonicalize,cse)' 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose,graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen{matmul=auto},canonicalize,cse)' | FileCheck %s --check-prefix=AUTO
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose,graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen{matmul=extern allow-tf32},canonicalize,cse)' | FileCheck %s --check-prefix=TF32
// RUN: braze compile %s --target=cuda --pipeline=%braze_src/bench/gpu/cuda-extern.pipeline --no-header -o %t.so
// REQUIRES: cuda

func.func @linear_t(%x: tensor<130x64xbf16>, %w: tensor<72x64xbf16>, %b: tensor<72xbf16>) -> tensor<130x72xbf16> {
  %wt = "graph.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<72x64xbf16>) -> tensor<64x72xbf16>
  %0 = "graph.matmul"(%x, %wt) : (tensor<130x64xbf16>, tensor<64x72xbf16>) -> tensor<130x72xbf16>
  %1 = "graph.add"(%0, %b) : (tensor<130x72xbf16>, tensor<72xbf16>) -> tensor<130x72xbf16>
  return %1 : tensor<130x72xbf16>
}

func.func @batched(%x: tensor<3x130x64xf32>, %w: tensor<3x64x72xf32>) -> tensor<3x130x72xf32> {
  %0 = "graph.batch_matmul"(%x, %w) : (tensor<3x130x64xf32>, tensor<3x64x72xf32>) -> tensor<3x130x72xf32>
  return %0 : tensor<3x130x72xf32>
}

func.func @partial(%x: tensor<2x3x16x32xf32>, %w: tensor<3x32x8xf32>) -> tensor<2x3x16x8xf32> {
  %0 = "graph.batch_matmul"(%x, %w) : (tensor<2x3x16x32xf32>, tensor<3x32x8xf32>) -> tensor<2x3x16x8xf32>
  return %0 : tensor<2x3x16x8xf32>
}

// CHECK-LABEL: func.func @linear_t(
// CHECK: %[[P:.*]] = memref.view %{{.*}} : memref<37440xi8> to memref<130x72xf32>
// CHECK: "kernel.gemm"(%arg0, %arg1, %[[P]]) {batch = 1 : i64, k = 64 : i64, m = 130 : i64, n = 72 : i64, stride_a = 0 : i64, stride_b = 0 : i64, trans_a = false, trans_b = true}
// CHECK: gpu.launch_func @braze_kernels::@cuda_tem_fused_matmul_add_0 {{.*}} args(%arg0 : memref<130x64xbf16>, %arg1 : memref<72x64xbf16>, %arg2 : memref<72xbf16>, %[[P]] : memref<130x72xf32>, %arg3 : memref<130x72xbf16>)
// CHECK-LABEL: func.func @batched(
// CHECK: "kernel.gemm"(%arg0, %arg1, %arg2) {batch = 3 : i64, k = 64 : i64, m = 130 : i64, n = 72 : i64, stride_a = 8320 : i64, stride_b = 4608 : i64, trans_a = false, trans_b = false} : (memref<3x130x64xf32>, memref<3x64x72xf32>, memref<3x130x72xf32>) -> ()
// CHECK-NEXT: return
// CHECK: gpu.func @cuda_tem_fused_matmul_add_0(%{{.*}}: memref<130x64xbf16>, %{{.*}}: memref<72x64xbf16>, %{{.*}}: memref<72xbf16>, %[[PROD:.*]]: memref<130x72xf32>, %[[OUT:.*]]: memref<130x72xbf16>)
// CHECK: vector.load %[[PROD]]
// CHECK: vector.store %{{.*}}, %[[OUT]]

// REMARK: kernel @cuda_tem_fused_matmul_add_0: extern GEMM (cuBLASLt) 130x72x64, batch 1, B transposed; the epilogue as an element kernel over its f32 product
// REMARK: kernel @cuda_tem_fused_batch_matmul_1: extern GEMM (cuBLASLt) 130x72x64, batch 3
// REMARK: kernel @cuda_tem_fused_batch_matmul_2: extern GEMM refused: batch-dims-partly-broadcast
// REMARK: kernel @cuda_tem_fused_batch_matmul_2: matmul kernel{{.*}}SIMT

// AUTO-LABEL: func.func @linear_t(
// AUTO: gpu.launch_func @braze_kernels::@cuda_tem_fused_matmul_add_0 {{.*}} args({{.*}}, %arg3 : memref<130x72xbf16>) {braze.alternative = array<i64: 0, 0, 0>}
// AUTO: "kernel.gemm"(%arg0, %arg1, %[[AP:.*]]) {batch = 1 : i64, braze.alternative = array<i64: 0, 1, 0>
// AUTO: gpu.launch_func @braze_kernels::@cuda_tem_fused_matmul_add_0_extern {{.*}} args({{.*}}, %[[AP]] : memref<130x72xf32>, %arg3 : memref<130x72xbf16>) {braze.alternative = array<i64: 0, 1, 0>}

// TF32-LABEL: func.func @linear_t(
// TF32: "kernel.gemm"(%arg0, %arg1, %{{.*}}) {batch = 1 : i64, k = 64 : i64, m = 130 : i64, n = 72 : i64, stride_a = 0 : i64, stride_b = 0 : i64, trans_a = false, trans_b = true}
// TF32-LABEL: func.func @batched(
// TF32: "kernel.gemm"(%arg0, %arg1, %arg2) {batch = 3 : i64, k = 64 : i64, m = 130 : i64, n = 72 : i64, stride_a = 8320 : i64, stride_b = 4608 : i64, tf32, trans_a = false, trans_b = false}
