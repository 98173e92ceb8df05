// cpu-codegen refuses chain kernels it cannot read: no scf.forall, or ops in the loop
// other than the slices, offsets, fills, the key loop, the block kernel calls and the
// terminators (form-row-chains writes only those), and a chain in the online form with
// linalg ops in its loops (form-row-chains with a target other than cpu writes it for
// that target's template; on cpu it outlines them as block kernels).
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --verify-diagnostics --cpu-codegen -o /dev/null
// RUN: not braze-opt --cpu=x86-64-v4 %S/../../../passes/chains/form-row-chains/Inputs/attention-4x256x32.mlir --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels,form-row-chains{target=cuda},cpu-codegen)' -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONLINE
// ONLINE: attention-4x256x32.mlir:6:8: error: cpu-codegen: chain kernel @cuda_chain_fused_batch_matmul_softmax_0 is in the online form with linalg ops in its loops, which cpu-codegen does not compile

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
    // expected-error @below {{cpu-codegen: chain kernel @cpu_chain_fused_y_0: expected affine.apply, affine.min, tensor.extract_slice, tensor.empty, linalg.fill, func.call, scf.for and scf.forall.in_parallel in the loop}}
    %t = arith.constant dense<0.0> : tensor<2x8xf32>
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

// -----

// The online form's key loop must yield what its block kernels computed (each written to
// the next step's buffer), not an iter_arg passed through.
func.func private @cpu_chain_fused_z_0(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {kernel.kind = "chain"} {
  %e = tensor.empty() : tensor<4x8xf32>
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %r = scf.forall (%i) = (0) to (4) step (2) shared_outs(%o = %e) -> (tensor<4x8xf32>) {
    %t = tensor.empty() : tensor<2x8xf32>
    %f = linalg.fill ins(%zero : f32) outs(%t : tensor<2x8xf32>) -> tensor<2x8xf32>
    // expected-error @below {{cpu-codegen: chain kernel @cpu_chain_fused_z_0: the key loop must yield results of its block kernels, each once}}
    %l = scf.for %j = %c0 to %c8 step %c4 iter_args(%a = %f) -> (tensor<2x8xf32>) {
      scf.yield %a : tensor<2x8xf32>
    }
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %l into %o[%i, 0] [2, 8] [1, 1] : tensor<2x8xf32> into tensor<4x8xf32>
    }
  }
  return %r : tensor<4x8xf32>
}
func.func @h(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = call @cpu_chain_fused_z_0(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
