// form-kernels refuses user-kernel calls it cannot pack into an ext kernel, at the
// call: outputs must be fresh memref.alloc buffers used only by the call, one
// to_tensor after it and one memref.copy into it before it; inputs are to_buffers of
// tensors; the kernel's own form is checked (user-kernel-analysis gives the same errors).
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-to-loops --form-kernels --verify-diagnostics --split-input-file -o /dev/null

func.func private @k(%x: memref<4xf32>, %out: memref<4xf32>) attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %v = memref.load %x[%c0] : memref<4xf32>
  memref.store %v, %out[%c0] : memref<4xf32>
  return
}

func.func @writes_input(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %xb = bufferization.to_buffer %x : tensor<4xf32> to memref<4xf32>
  %yb = bufferization.to_buffer %y : tensor<4xf32> to memref<4xf32>
  // expected-error @below {{form-kernels: call of user kernel @k: argument 1 is written by the kernel but is a bufferization.to_buffer of a tensor: outputs must be fresh memref.alloc buffers}}
  func.call @k(%xb, %yb) : (memref<4xf32>, memref<4xf32>) -> ()
  return %x : tensor<4xf32>
}

// -----

func.func private @k(%x: memref<4xf32>, %out: memref<4xf32>) attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %v = memref.load %x[%c0] : memref<4xf32>
  memref.store %v, %out[%c0] : memref<4xf32>
  return
}

func.func @output_used_twice(%x: tensor<4xf32>) -> tensor<4xf32> {
  %xb = bufferization.to_buffer %x : tensor<4xf32> to memref<4xf32>
  %o = memref.alloc() : memref<4xf32>
  // expected-error @below {{form-kernels: call of user kernel @k: the output buffer (argument 1) is used by 'memref.dealloc': only the call, one bufferization.to_tensor after it and one memref.copy into it before it may use it}}
  func.call @k(%xb, %o) : (memref<4xf32>, memref<4xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<4xf32> to tensor<4xf32>
  memref.dealloc %o : memref<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func private @k(%x: memref<4xf32>, %out: memref<4xf32>) attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %v = memref.load %x[%c0] : memref<4xf32>
  memref.store %v, %out[%c0] : memref<4xf32>
  return
}

func.func @from_argument(%x: tensor<4xf32>) -> tensor<4xf32> {
  %xb = bufferization.to_buffer %x : tensor<4xf32> to memref<4xf32>
  %o = memref.alloca() : memref<4xf32>
  // expected-error @below {{form-kernels: call of user kernel @k: argument 1 must be a bufferization.to_buffer of a tensor or a memref.alloc}}
  func.call @k(%xb, %o) : (memref<4xf32>, memref<4xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<4xf32> to tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @bad_kernel(%x: tensor<4xf32>) -> tensor<4xf32> {
  %xb = bufferization.to_buffer %x : tensor<4xf32> to memref<4xf32>
  %o = memref.alloc() : memref<4xf32>
  // expected-error @below {{form-kernels: user kernel @k2 must return nothing (destination-passing style: outputs are arguments)}}
  %v = func.call @k2(%xb, %o) : (memref<4xf32>, memref<4xf32>) -> f32
  %r = bufferization.to_tensor %o : memref<4xf32> to tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func private @k2(%x: memref<4xf32>, %out: memref<4xf32>) -> f32 attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %v = memref.load %x[%c0] : memref<4xf32>
  return %v : f32
}

// -----

// A GPU-form kernel's form errors come at the call too.
func.func private @gpu_big_block(%x: memref<4xf32>, %out: memref<4xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 2048>}} {
  return
}
func.func @calls_gpu_big_block(%x: tensor<4xf32>) -> tensor<4xf32> {
  %xb = bufferization.to_buffer %x : tensor<4xf32> to memref<4xf32>
  %o = memref.alloc() : memref<4xf32>
  // expected-error @below {{form-kernels: user kernel @gpu_big_block braze.gpu_launch block has 2048 threads (at most 1024)}}
  func.call @gpu_big_block(%xb, %o) : (memref<4xf32>, memref<4xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<4xf32> to tensor<4xf32>
  return %r : tensor<4xf32>
}
