// cpu-codegen refuses chain kernels it cannot read: no scf.forall, or ops in the loop
// other than the slices, the block kernel calls and the terminator (form-row-chains
// writes only those).
// RUN: braze-opt %s --split-input-file --verify-diagnostics --cpu-codegen -o /dev/null

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
    // expected-error @below {{cpu-codegen: chain kernel @cpu_chain_fused_y_0: expected tensor.extract_slice, func.call and scf.forall.in_parallel in the loop}}
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
