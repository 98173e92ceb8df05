// The tensor-core template's shared memory comes from the target's facts
// (shared-mem-per-block-bytes, docs/target-costs.md): with the H100's 227 KiB its four
// 128x256 stages (192 KiB) fit; on a device with 96 KiB per block the template is
// refused with a named reason and the kernel falls back to the SIMT tiles.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose,graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen{remarks})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=H100
// RUN: braze-opt --cpu=x86-64-v4 %s --target-costs=%S/Inputs/costs-smem-96k.json --pass-pipeline='builtin.module(graph-decompose,graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen{remarks})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: braze-opt --cpu=x86-64-v4 %s --target=cuda --target-costs=%S/Inputs/costs-smem-96k.json --pass-pipeline='builtin.module(graph-decompose,graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen{remarks})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=SMALL
// H100: remark: cuda-codegen: kernel @cuda_tem_fused_matmul_0: {{.*}} tensor-core template: 128x256 tiles, 2 warpgroups, 4 stages, 196608 bytes of shared memory
// SMALL: remark: cuda-codegen: kernel @cuda_tem_fused_matmul_0: {{.*}} SIMT: {{.*}}; template refused: shared-memory-exceeds-the-limit

func.func @mm(%x: tensor<256x512xbf16>, %w: tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  %0 = "graph.matmul"(%x, %w) : (tensor<256x512xbf16>, tensor<512x512xbf16>) -> tensor<256x512xbf16>
  return %0 : tensor<256x512xbf16>
}
