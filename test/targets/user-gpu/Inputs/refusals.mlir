// GPU-form user kernels that a target refuses, one per split (each called from a graph).
// cpu, cuda: a barrier under an scf.if whose condition depends on the thread.
func.func private @if_barrier(%x: memref<64xf32>, %out: memref<64xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 64>}} {
  %c32 = arith.constant 32 : index
  %t = gpu.thread_id x
  %lo = arith.cmpi ult, %t, %c32 : index
  scf.if %lo {
    gpu.barrier
  }
  %v = memref.load %x[%t] : memref<64xf32>
  memref.store %v, %out[%t] : memref<64xf32>
  return
}
func.func @g(%x: tensor<64xf32>) -> tensor<64xf32> {
  %xb = bufferization.to_buffer %x : tensor<64xf32> to memref<64xf32>
  %o = memref.alloc() : memref<64xf32>
  func.call @if_barrier(%xb, %o) : (memref<64xf32>, memref<64xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<64xf32> to tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----
// cpu, cuda: a barrier in a loop whose trip count depends on the thread.
func.func private @loop_barrier(%x: memref<64xf32>, %out: memref<64xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 64>}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = gpu.thread_id x
  scf.for %i = %c0 to %t step %c1 {
    gpu.barrier
  }
  %v = memref.load %x[%t] : memref<64xf32>
  memref.store %v, %out[%t] : memref<64xf32>
  return
}
func.func @g(%x: tensor<64xf32>) -> tensor<64xf32> {
  %xb = bufferization.to_buffer %x : tensor<64xf32> to memref<64xf32>
  %o = memref.alloc() : memref<64xf32>
  func.call @loop_barrier(%xb, %o) : (memref<64xf32>, memref<64xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<64xf32> to tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----
// both: an scf.parallel inside a GPU-form kernel.
func.func private @par(%x: memref<64xf32>, %out: memref<64xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 1>}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    %v = memref.load %x[%i] : memref<64xf32>
    memref.store %v, %out[%i] : memref<64xf32>
    scf.reduce
  }
  return
}
func.func @g(%x: tensor<64xf32>) -> tensor<64xf32> {
  %xb = bufferization.to_buffer %x : tensor<64xf32> to memref<64xf32>
  %o = memref.alloc() : memref<64xf32>
  func.call @par(%xb, %o) : (memref<64xf32>, memref<64xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<64xf32> to tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----
// both: a block of 2048 threads.
func.func private @big_block(%x: memref<64xf32>, %out: memref<64xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 64, 32>}} {
  %t = gpu.thread_id x
  %v = memref.load %x[%t] : memref<64xf32>
  memref.store %v, %out[%t] : memref<64xf32>
  return
}
func.func @g(%x: tensor<64xf32>) -> tensor<64xf32> {
  %xb = bufferization.to_buffer %x : tensor<64xf32> to memref<64xf32>
  %o = memref.alloc() : memref<64xf32>
  func.call @big_block(%xb, %o) : (memref<64xf32>, memref<64xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<64xf32> to tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----
// cuda: 64 KiB of workgroup memory (more than static shared memory holds); cpu: fine.
func.func private @big_shared(%x: memref<64xf32>, %out: memref<64xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 64>}} {
  %sm = memref.alloca() : memref<16384xf32, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x
  %v = memref.load %x[%t] : memref<64xf32>
  memref.store %v, %sm[%t] : memref<16384xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %w = memref.load %sm[%t] : memref<16384xf32, #gpu.address_space<workgroup>>
  memref.store %w, %out[%t] : memref<64xf32>
  return
}
func.func @g(%x: tensor<64xf32>) -> tensor<64xf32> {
  %xb = bufferization.to_buffer %x : tensor<64xf32> to memref<64xf32>
  %o = memref.alloc() : memref<64xf32>
  func.call @big_shared(%xb, %o) : (memref<64xf32>, memref<64xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<64xf32> to tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----
// cpu: a per-thread alloca; cuda: fine (local memory).
func.func private @private_alloca(%x: memref<64xf32>, %out: memref<64xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 64>}} {
  %c0 = arith.constant 0 : index
  %p = memref.alloca() : memref<1xf32>
  %t = gpu.thread_id x
  %v = memref.load %x[%t] : memref<64xf32>
  memref.store %v, %p[%c0] : memref<1xf32>
  %w = memref.load %p[%c0] : memref<1xf32>
  memref.store %w, %out[%t] : memref<64xf32>
  return
}
func.func @g(%x: tensor<64xf32>) -> tensor<64xf32> {
  %xb = bufferization.to_buffer %x : tensor<64xf32> to memref<64xf32>
  %o = memref.alloc() : memref<64xf32>
  func.call @private_alloca(%xb, %o) : (memref<64xf32>, memref<64xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<64xf32> to tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----
// both: a launch with a zero grid entry.
func.func private @bad_launch(%x: memref<64xf32>, %out: memref<64xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 0>, block = array<i64: 64>}} {
  %t = gpu.thread_id x
  %v = memref.load %x[%t] : memref<64xf32>
  memref.store %v, %out[%t] : memref<64xf32>
  return
}
func.func @g(%x: tensor<64xf32>) -> tensor<64xf32> {
  %xb = bufferization.to_buffer %x : tensor<64xf32> to memref<64xf32>
  %o = memref.alloc() : memref<64xf32>
  func.call @bad_launch(%xb, %o) : (memref<64xf32>, memref<64xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<64xf32> to tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----
// cpu: a shuffle under a thread-dependent scf.if.
func.func private @if_shuffle(%x: memref<64xf32>, %out: memref<64xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 64>}} {
  %c32 = arith.constant 32 : index
  %one = arith.constant 1 : i32
  %w = arith.constant 32 : i32
  %t = gpu.thread_id x
  %v = memref.load %x[%t] : memref<64xf32>
  %lo = arith.cmpi ult, %t, %c32 : index
  %r = scf.if %lo -> (f32) {
    %s, %ok = gpu.shuffle down %v, %one, %w : f32
    scf.yield %s : f32
  } else {
    scf.yield %v : f32
  }
  memref.store %r, %out[%t] : memref<64xf32>
  return
}
func.func @g(%x: tensor<64xf32>) -> tensor<64xf32> {
  %xb = bufferization.to_buffer %x : tensor<64xf32> to memref<64xf32>
  %o = memref.alloc() : memref<64xf32>
  func.call @if_shuffle(%xb, %o) : (memref<64xf32>, memref<64xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<64xf32> to tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----
// cpu: a GPU-form kernel called from another user kernel.
func.func private @inner(%x: memref<64xf32>, %out: memref<64xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 64>}} {
  %t = gpu.thread_id x
  %v = memref.load %x[%t] : memref<64xf32>
  memref.store %v, %out[%t] : memref<64xf32>
  return
}
func.func private @outer(%x: memref<64xf32>, %out: memref<64xf32>) attributes {braze.user_kernel} {
  func.call @inner(%x, %out) : (memref<64xf32>, memref<64xf32>) -> ()
  return
}
func.func @g(%x: tensor<64xf32>) -> tensor<64xf32> {
  %xb = bufferization.to_buffer %x : tensor<64xf32> to memref<64xf32>
  %o = memref.alloc() : memref<64xf32>
  func.call @outer(%xb, %o) : (memref<64xf32>, memref<64xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<64xf32> to tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----
// cpu, cuda: a barrier under an scf.if on a loop result that depends on the thread only
// through the loop's yield (a load at the thread's index).
func.func private @carried_barrier(%x: memref<64xf32>, %out: memref<64xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 64>}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %t = gpu.thread_id x
  %s = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %zero) -> (f32) {
    %v = memref.load %x[%t] : memref<64xf32>
    %n = arith.addf %a, %v : f32
    scf.yield %n : f32
  }
  %pos = arith.cmpf ogt, %s, %zero : f32
  scf.if %pos {
    gpu.barrier
  }
  memref.store %s, %out[%t] : memref<64xf32>
  return
}
func.func @g(%x: tensor<64xf32>) -> tensor<64xf32> {
  %xb = bufferization.to_buffer %x : tensor<64xf32> to memref<64xf32>
  %o = memref.alloc() : memref<64xf32>
  func.call @carried_barrier(%xb, %o) : (memref<64xf32>, memref<64xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<64xf32> to tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----
// cpu, cuda: a barrier in an scf.while whose condition depends on the thread.
func.func private @while_barrier(%x: memref<64xf32>, %out: memref<64xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 64>}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = gpu.thread_id x
  %r = scf.while (%i = %c0) : (index) -> index {
    %more = arith.cmpi ult, %i, %t : index
    scf.condition(%more) %i : index
  } do {
  ^bb0(%j: index):
    gpu.barrier
    %n = arith.addi %j, %c1 : index
    scf.yield %n : index
  }
  %v = memref.load %x[%t] : memref<64xf32>
  memref.store %v, %out[%t] : memref<64xf32>
  return
}
func.func @g(%x: tensor<64xf32>) -> tensor<64xf32> {
  %xb = bufferization.to_buffer %x : tensor<64xf32> to memref<64xf32>
  %o = memref.alloc() : memref<64xf32>
  func.call @while_barrier(%xb, %o) : (memref<64xf32>, memref<64xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<64xf32> to tensor<64xf32>
  return %r : tensor<64xf32>
}
