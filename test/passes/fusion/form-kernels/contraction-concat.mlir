// A matmul and a concat never share a kernel (`contraction-concat`): the matmul
// templates (the CUDA tensor-core one, the CPU one) compute tiles of the product's
// space and store every result there, while a concat writes its pieces into a larger
// tensor, which only the element kernel does. Two token chunks of an FFN's down
// projection, each with its residual add, put back together by a concat: before the
// rule, the last chunk's matmul, its add and the concat were one `tem` kernel
// (cuda_tem_fused_matmul_add_concat_1) that the CUDA target could only run as an
// element kernel, without tensor cores (bench/sharded/gpu/G6-tp-chunk4.mlir on one
// H100: 46.9 ms instead of 3.3); now each chunk's matmul keeps its add as epilogue
// and the concat is a kernel of its own, the refusal named in a remark.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose,graph-to-loops,inline-unrealized,form-kernels{target=cuda remarks})' 2>&1 | FileCheck %s
// The CUDA target then runs both products on the tensor-core template:
// RUN: braze compile --cpu=x86-64-v4 %s --target=cuda --emit=mlir -o /dev/null --pipeline=%S/Inputs/cuda-remarks.pipeline 2>&1 | FileCheck %s --check-prefix=CUDA

// CHECK: remark: form-kernels: #1 'matmul,add' and #4 'concat' not fused: contraction-concat
// CHECK: remark: form-kernels: #3 'matmul,add' and #5 'concat' not fused: contraction-concat
// CHECK: remark: form-kernels: #4 'concat' and #5 'concat' fused
// CHECK: remark: form-kernels: kernel cuda_tem_fused_matmul_add_0 (tem
// CHECK: remark: form-kernels: kernel cuda_tem_fused_matmul_add_1 (tem
// CHECK: remark: form-kernels: kernel cuda_poi_fused_concat_2 (poi
// CHECK-LABEL: func.func @chunks(
// CHECK-NEXT: %0 = call @cuda_tem_fused_matmul_add_0(%arg1, %arg3, %arg0)
// CHECK-NEXT: %1 = call @cuda_tem_fused_matmul_add_1(%arg2, %arg3, %arg0)
// CHECK-NEXT: %2 = call @cuda_poi_fused_concat_2(%0, %1)
// CHECK-NEXT: return %2

// CUDA-NOT: kernel @{{.*}}matmul{{.*}}: element kernel
// CUDA: kernel @cuda_tem_fused_matmul_add_0: matmul kernel, {{.*}} tensor-core template
// CUDA: kernel @cuda_tem_fused_matmul_add_1: matmul kernel, {{.*}} tensor-core template
// CUDA-NOT: kernel @{{.*}}matmul{{.*}}: element kernel
func.func @chunks(%x: tensor<256x128xbf16>, %p0: tensor<128x256xbf16>, %p1: tensor<128x256xbf16>,
                  %w: tensor<256x128xbf16>) -> tensor<256x128xbf16> {
  %x0 = "graph.slice"(%x) {starts = array<i64: 0, 0>, limits = array<i64: 128, 128>, strides = array<i64: 1, 1>} : (tensor<256x128xbf16>) -> tensor<128x128xbf16>
  %d0 = "graph.matmul"(%p0, %w) : (tensor<128x256xbf16>, tensor<256x128xbf16>) -> tensor<128x128xbf16>
  %y0 = "graph.add"(%x0, %d0) : (tensor<128x128xbf16>, tensor<128x128xbf16>) -> tensor<128x128xbf16>
  %x1 = "graph.slice"(%x) {starts = array<i64: 128, 0>, limits = array<i64: 256, 128>, strides = array<i64: 1, 1>} : (tensor<256x128xbf16>) -> tensor<128x128xbf16>
  %d1 = "graph.matmul"(%p1, %w) : (tensor<128x256xbf16>, tensor<256x128xbf16>) -> tensor<128x128xbf16>
  %y1 = "graph.add"(%x1, %d1) : (tensor<128x128xbf16>, tensor<128x128xbf16>) -> tensor<128x128xbf16>
  %c = "graph.concat"(%y0, %y1) {dim = 0 : i64} : (tensor<128x128xbf16>, tensor<128x128xbf16>) -> tensor<256x128xbf16>
  return %c : tensor<256x128xbf16>
}
