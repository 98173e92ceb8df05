// What cpu-codegen refuses, with the location of the offending op.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --verify-diagnostics --cpu-codegen
// RUN: not braze-opt --cpu=x86-64-v4 %s --cpu-codegen=reassoc=maybe 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: not braze-opt --cpu=x86-64-v4 %s --cpu-codegen=bogus 2>&1 | FileCheck %s --check-prefix=BADKEY
// BADOPT: option 'reassoc' expects true or false, got 'maybe'
// BADKEY: pass 'cpu-codegen' has no option 'bogus'

func.func private @k(%x: tensor<4xf32>) -> tensor<4xf32> attributes {kernel.kind = "poi"} {
  %c0 = arith.constant 0 : index
  // expected-error @below {{cpu-codegen: kernel @k: unsupported op 'tensor.extract'}}
  %v = tensor.extract %x[%c0] : tensor<4xf32>
  return %x : tensor<4xf32>
}

// -----

func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{cpu-codegen: graph function calls @helper, which is not a kernel}}
  %0 = call @helper(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// expected-error @below {{cpu-codegen: kernel @dyn: kernel arguments and results must be static tensors of rank <= 8}}
func.func private @dyn(%x: tensor<?xf32>) -> tensor<?xf32> attributes {kernel.kind = "poi"} {
  return %x : tensor<?xf32>
}

// -----

func.func private @empty_init(%x: tensor<4x8xf32>) -> tensor<4xf32> attributes {kernel.kind = "red"} {
  %e = tensor.empty() : tensor<4xf32>
  // expected-error @below {{cpu-codegen: kernel @empty_init: a reduction's initial value is uninitialized (tensor.empty)}}
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

func.func private @reads_empty(%x: tensor<4xf32>) -> tensor<4xf32> attributes {kernel.kind = "poi"} {
  %e = tensor.empty() : tensor<4xf32>
  // expected-error @below {{cpu-codegen: kernel @reads_empty: linalg.generic body reads its output, which is uninitialized, or a value from outside that is not a constant}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
