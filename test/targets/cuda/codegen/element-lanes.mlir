// Lanes of an element kernel (targets/cuda/codegen/kernel.c, cu_choose_element):
// cuda-codegen's `vec` counts 4-byte lanes (4: 16-byte accesses); a kernel that reduces
// nothing and stores only 2-byte elements takes twice as many, so its accesses stay 16
// bytes wide (ResNet's stem columns: 0.086 -> 0.074 ms on an H100). It falls back to
// `vec` lanes where a stored shape's last extent does not allow twice as many, and to
// 1 where it allows neither. An f32 result, a result of another width beside a bf16
// one, or a reduction (a serial loop per element) keeps `vec`; `vec=2` gives bf16 4.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose,graph-to-loops,inline-unrealized,form-kernels{target=cuda disable},cuda-codegen{remarks})' -o /dev/null 2>&1 | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose,graph-to-loops,inline-unrealized,form-kernels{target=cuda disable},cuda-codegen{remarks vec=2})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=VEC2
// REQUIRES: cuda

// CHECK: element-lanes.mlir:[[@LINE+3]]:8: remark: cuda-codegen: kernel @{{.*}}: element kernel, grid (2, 1, 1), block 256, vector width 8
// VEC2: element-lanes.mlir:[[@LINE+2]]:8: remark: cuda-codegen: kernel @{{.*}}: element kernel, {{.*}} vector width 4
func.func @bf16_copy(%x: tensor<64x64xbf16>) -> tensor<64x64xbf16> {
  %e = "graph.exp"(%x) : (tensor<64x64xbf16>) -> tensor<64x64xbf16>
  return %e : tensor<64x64xbf16>
}

// CHECK: element-lanes.mlir:[[@LINE+2]]:8: remark: cuda-codegen: kernel @{{.*}}: element kernel, grid (4, 1, 1), block 256, vector width 4
func.func @f32(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = "graph.exp"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  return %e : tensor<64x64xf32>
}

// 12 columns: not 8 lanes, 4.
// CHECK: element-lanes.mlir:[[@LINE+2]]:8: remark: cuda-codegen: kernel @{{.*}}: element kernel, {{.*}} vector width 4
func.func @bf16_twelve(%x: tensor<16x12xbf16>) -> tensor<16x12xbf16> {
  %e = "graph.exp"(%x) : (tensor<16x12xbf16>) -> tensor<16x12xbf16>
  return %e : tensor<16x12xbf16>
}

// A cast to f32: the result is 4 bytes.
// CHECK: element-lanes.mlir:[[@LINE+2]]:8: remark: cuda-codegen: kernel @{{.*}}: element kernel, {{.*}} vector width 4
func.func @widen(%x: tensor<64x64xbf16>) -> tensor<64x64xf32> {
  %e = "graph.cast"(%x) : (tensor<64x64xbf16>) -> tensor<64x64xf32>
  return %e : tensor<64x64xf32>
}

// A sum over the outer dim (a serial loop per element): `vec` lanes.
// CHECK: element-lanes.mlir:[[@LINE+2]]:8: remark: cuda-codegen: kernel @{{.*}}: element kernel, {{.*}} vector width 4
func.func @bf16_column_sum(%x: tensor<8x64xbf16>) -> tensor<64xbf16> {
  %s = "graph.reduce_sum"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<8x64xbf16>) -> tensor<64xbf16>
  return %s : tensor<64xbf16>
}
