// What cuda-codegen refuses, with the location of the offending op, and its options.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --verify-diagnostics --cuda-codegen
// RUN: not braze-opt --cpu=x86-64-v4 %s --cuda-codegen=block=48 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not braze-opt --cpu=x86-64-v4 %s --cuda-codegen=vec=3 2>&1 | FileCheck %s --check-prefix=VEC
// RUN: not braze-opt --cpu=x86-64-v4 %s --cuda-codegen=max-regs=0 2>&1 | FileCheck %s --check-prefix=REGS
// RUN: not braze-opt --cpu=x86-64-v4 %s --cuda-codegen=bogus 2>&1 | FileCheck %s --check-prefix=BADKEY
// BLOCK: option 'block' expects a power of 2 from 32 to 1024, got 48
// VEC: option 'vec' expects 1, 2 or 4, got 3
// REGS: option 'max-regs' expects 1 to 128, got 0
// BADKEY: pass 'cuda-codegen' has no option 'bogus'

func.func private @k(%x: tensor<4xf32>) -> tensor<4xf32> attributes {kernel.kind = "poi"} {
  %c0 = arith.constant 0 : index
  // expected-error @below {{cuda-codegen: kernel @k: unsupported op 'tensor.extract' in a kernel}}
  %v = tensor.extract %x[%c0] : tensor<4xf32>
  return %x : tensor<4xf32>
}

// -----

// An `ext` kernel calling a function on tensors (not a user kernel on memrefs,
// docs/user-kernels.md; test/targets/cuda/codegen/user-kernel.mlir has the ones that map).
func.func private @user(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func private @cuda_ext_fused_user_0(%x: tensor<4xf32>) -> tensor<4xf32> attributes {kernel.kind = "ext"} {
  // expected-error @below {{cuda-codegen: ext kernel @cuda_ext_fused_user_0: the callee is not a user kernel on memrefs (docs/user-kernels.md)}}
  %0 = func.call @user(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func private @passthrough(%x: tensor<4xf32>) -> tensor<4xf32> attributes {kernel.kind = "poi"} {
  // expected-error @below {{cuda-codegen: kernel @passthrough: result 0 is not computed by a generic of the kernel (or returned twice)}}
  return %x : tensor<4xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>
func.func private @empty_read(%x: tensor<4xf32>) -> tensor<4xf32> attributes {kernel.kind = "poi"} {
  // expected-error @below {{cuda-codegen: kernel @empty_read: reads an uninitialized tensor}}
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%e : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
