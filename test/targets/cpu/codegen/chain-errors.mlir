// cpu-codegen refuses chain kernels it cannot read: no scf.forall, or ops in the loop
// other than the slices, the block kernel calls and the terminator (form-row-chains
// writes only those), and a chain in the online form (form-row-chains with a target other
// than cpu writes it for that target's template).
// RUN: braze-opt %s --split-input-file --verify-diagnostics --cpu-codegen -o /dev/null
// RUN: not braze-opt %S/../../../passes/chains/form-row-chains/Inputs/attention-4x256x32.mlir --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels,form-row-chains{target=cuda},cpu-codegen)' -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONLINE
// ONLINE: attention-4x256x32.mlir:6:8: error: cpu-codegen: chain kernel @cuda_chain_fused_batch_matmul_softmax_0 is in the online form, which cpu-codegen does not compile

// expected-error @below {{cpu-codegen: chain kernel @cpu_chain_fused_x_0: expected one scf.forall}}
func.func private @cpu_chain_fused_x_0(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {kernel.kind = "chain"} {
  return %x : tensor<4x8xf32>
}
func.func @g(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = call @cpu_chain_fused_x_0(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func private @cpu_chain_fused_y_0(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {kernel.kind = "chain"} {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = scf.forall (%i) = (0) to (4) step (2) shared_outs(%o = %e) -> (tensor<4x8xf32>) {
    %s = tensor.extract_slice %x[%i, 0] [2, 8] [1, 1] : tensor<4x8xf32> to tensor<2x8xf32>
    // expected-error @below {{cpu-codegen: chain kernel @cpu_chain_fused_y_0: expected affine.apply, tensor.extract_slice, func.call and scf.forall.in_parallel in the loop}}
    %t = tensor.empty() : tensor<2x8xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i, 0] [2, 8] [1, 1] : tensor<2x8xf32> into tensor<4x8xf32>
    }
  }
  return %r : tensor<4x8xf32>
}
func.func @g(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = call @cpu_chain_fused_y_0(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
