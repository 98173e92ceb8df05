// user-kernel-analysis refuses user kernels braze cannot call: not private, results,
// arguments that are not static memrefs with the identity layout.
// RUN: braze-opt --cpu=x86-64-v4 %s --user-kernel-analysis --verify-diagnostics --split-input-file -o /dev/null

// expected-error @below {{user kernel @public_kernel must be private (public functions are graph functions)}}
func.func @public_kernel(%out: memref<4xf32>) attributes {braze.user_kernel} {
  return
}

// -----

// expected-error @below {{user kernel @with_result must return nothing (destination-passing style: outputs are arguments)}}
func.func private @with_result(%out: memref<4xf32>) -> f32 attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %v = memref.load %out[%c0] : memref<4xf32>
  return %v : f32
}

// -----

// expected-error @below {{user kernel @tensor_arg arguments must be static memrefs with the identity layout}}
func.func private @tensor_arg(%x: tensor<4xf32>, %out: memref<4xf32>) attributes {braze.user_kernel} {
  return
}

// -----

// expected-error @below {{user kernel @strided arguments must be static memrefs with the identity layout}}
func.func private @strided(%x: memref<4xf32, strided<[2]>>, %out: memref<4xf32>) attributes {braze.user_kernel} {
  return
}
