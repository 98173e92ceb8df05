// user-kernel-analysis checks the GPU form (braze.gpu_launch, decision 0027): the
// launch dictionary, the block size, workgroup allocas (top level, static), no
// scf.parallel, gpu ops only in GPU-form kernels, shuffle widths.
// RUN: braze-opt --cpu=x86-64-v4 %s --user-kernel-analysis --verify-diagnostics --split-input-file -o /dev/null

// expected-error @below {{user kernel @no_block braze.gpu_launch needs 'block' as array<i64> of 1 to 3 positive entries}}
func.func private @no_block(%out: memref<4xf32>) attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>}} {
  return
}

// -----

// expected-error @below {{user kernel @not_dict braze.gpu_launch must be a dictionary}}
func.func private @not_dict(%out: memref<4xf32>) attributes {braze.user_kernel, braze.gpu_launch = 4 : i64} {
  return
}

// -----

// expected-error @below {{user kernel @four_dims braze.gpu_launch needs 'grid' as array<i64> of 1 to 3 positive entries}}
func.func private @four_dims(%out: memref<4xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1, 1, 1, 1>, block = array<i64: 4>}} {
  return
}

// -----

// expected-error @below {{user kernel @zero_grid braze.gpu_launch 'grid' entry 1 is 0 (must be positive)}}
func.func private @zero_grid(%out: memref<4xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1, 0>, block = array<i64: 4>}} {
  return
}

// -----

// expected-error @below {{user kernel @big_block braze.gpu_launch block has 2048 threads (at most 1024)}}
func.func private @big_block(%out: memref<4xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 32, 64>}} {
  return
}

// -----

func.func private @nested_alloca(%out: memref<4xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 4>}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c1 step %c1 {
    // expected-error @below {{user kernel @nested_alloca memref.alloca must be at the top level of the body (GPU form: shared memory of the block)}}
    %sm = memref.alloca() : memref<4xf32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func private @dynamic_alloca(%out: memref<4xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 4>}} {
  %c4 = arith.constant 4 : index
  // expected-error @below {{user kernel @dynamic_alloca memref.alloca must have a static shape}}
  %sm = memref.alloca(%c4) : memref<?xf32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func private @private_alloca(%out: memref<4xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 4>}} {
  // expected-error @below {{user kernel @private_alloca memref.alloca must be in #gpu.address_space<workgroup>}}
  %sm = memref.alloca() : memref<4xf32>
  return
}

// -----

func.func private @parallel_in_gpu(%out: memref<4xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 4>}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0.0 : f32
  // expected-error @below {{user kernel @parallel_in_gpu is GPU-form (braze.gpu_launch): scf.parallel is not allowed, the threads are the parallelism}}
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    memref.store %z, %out[%i] : memref<4xf32>
    scf.reduce
  }
  return
}

// -----

func.func private @gpu_op_without_launch(%out: memref<4xf32>) attributes {braze.user_kernel} {
  // expected-error @below {{user kernel @gpu_op_without_launch uses gpu.thread_id but has no braze.gpu_launch attribute}}
  %t = gpu.thread_id x
  %z = arith.constant 0.0 : f32
  memref.store %z, %out[%t] : memref<4xf32>
  return
}

// -----

func.func private @workgroup_without_launch(%out: memref<4xf32>) attributes {braze.user_kernel} {
  // expected-error @below {{user kernel @workgroup_without_launch uses memref.alloca in workgroup memory but has no braze.gpu_launch attribute}}
  %sm = memref.alloca() : memref<4xf32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func private @wide_shuffle(%x: memref<64xf32>, %out: memref<64xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 64>}} {
  %t = gpu.thread_id x
  %c1 = arith.constant 1 : i32
  %w = arith.constant 64 : i32
  %v = memref.load %x[%t] : memref<64xf32>
  // expected-error @below {{user kernel @wide_shuffle gpu.shuffle width 64 is not in [1, 32] (a warp is 32 threads)}}
  %s, %ok = gpu.shuffle xor %v, %c1, %w : f32
  memref.store %s, %out[%t] : memref<64xf32>
  return
}

// -----

func.func private @inner(%out: memref<4xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 4>}} {
  return
}
func.func private @outer(%out: memref<4xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 4>}} {
  // expected-error @below {{user kernel @outer calls a GPU-form user kernel (a launch inside a thread is not supported)}}
  func.call @inner(%out) : (memref<4xf32>) -> ()
  return
}
