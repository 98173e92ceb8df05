// Inputs of user-gpu-shuffle.test: gpu.shuffle under control that depends on the lane
// (refused by cuda-codegen, an error at the shuffle and a note at the control).
func.func private @lane_test(%x: memref<128xf32>, %out: memref<128xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 2>, block = array<i64: 64>}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c5 = arith.constant 5 : index
  %one = arith.constant 1 : i32
  %w = arith.constant 32 : i32
  %n = arith.constant 64 : index
  %tx = gpu.thread_id x
  %ty = gpu.thread_id y
  %b = gpu.block_id x
  %bx = gpu.block_dim x
  %lin0 = arith.muli %ty, %bx : index
  %lin = arith.addi %lin0, %tx : index
  %base = arith.muli %b, %n : index
  %g = arith.addi %base, %lin : index
  %v = memref.load %x[%g] : memref<128xf32>
  %p = arith.cmpi eq, %tx, %c0 : index
  %r = scf.if %p -> (f32) {
    %s, %ok = gpu.shuffle xor %v, %one, %w : f32
    scf.yield %s : f32
  } else {
    scf.yield %v : f32
  }
  memref.store %r, %out[%g] : memref<128xf32>
  return
}
func.func @lane_test_graph(%x: tensor<128xf32>) -> tensor<128xf32> {
  %xb = bufferization.to_buffer %x : tensor<128xf32> to memref<128xf32>
  %o = memref.alloc() : memref<128xf32>
  func.call @lane_test(%xb, %o) : (memref<128xf32>, memref<128xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<128xf32> to tensor<128xf32>
  return %r : tensor<128xf32>
}
// -----
func.func private @half_warp(%x: memref<128xf32>, %out: memref<128xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 2>, block = array<i64: 64>}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c5 = arith.constant 5 : index
  %one = arith.constant 1 : i32
  %w = arith.constant 32 : i32
  %n = arith.constant 64 : index
  %tx = gpu.thread_id x
  %ty = gpu.thread_id y
  %b = gpu.block_id x
  %bx = gpu.block_dim x
  %lin0 = arith.muli %ty, %bx : index
  %lin = arith.addi %lin0, %tx : index
  %base = arith.muli %b, %n : index
  %g = arith.addi %base, %lin : index
  %v = memref.load %x[%g] : memref<128xf32>
  %p = arith.cmpi ult, %tx, %c2 : index
  %r = scf.if %p -> (f32) {
    %s, %ok = gpu.shuffle xor %v, %one, %w : f32
    scf.yield %s : f32
  } else {
    scf.yield %v : f32
  }
  memref.store %r, %out[%g] : memref<128xf32>
  return
}
func.func @half_warp_graph(%x: tensor<128xf32>) -> tensor<128xf32> {
  %xb = bufferization.to_buffer %x : tensor<128xf32> to memref<128xf32>
  %o = memref.alloc() : memref<128xf32>
  func.call @half_warp(%xb, %o) : (memref<128xf32>, memref<128xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<128xf32> to tensor<128xf32>
  return %r : tensor<128xf32>
}
// -----
func.func private @split_rows(%x: memref<128xf32>, %out: memref<128xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 2>, block = array<i64: 16, 4>}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c5 = arith.constant 5 : index
  %one = arith.constant 1 : i32
  %w = arith.constant 32 : i32
  %n = arith.constant 64 : index
  %tx = gpu.thread_id x
  %ty = gpu.thread_id y
  %b = gpu.block_id x
  %bx = gpu.block_dim x
  %lin0 = arith.muli %ty, %bx : index
  %lin = arith.addi %lin0, %tx : index
  %base = arith.muli %b, %n : index
  %g = arith.addi %base, %lin : index
  %v = memref.load %x[%g] : memref<128xf32>
  %p = arith.cmpi ult, %ty, %c1 : index
  %r = scf.if %p -> (f32) {
    %s, %ok = gpu.shuffle xor %v, %one, %w : f32
    scf.yield %s : f32
  } else {
    scf.yield %v : f32
  }
  memref.store %r, %out[%g] : memref<128xf32>
  return
}
func.func @split_rows_graph(%x: tensor<128xf32>) -> tensor<128xf32> {
  %xb = bufferization.to_buffer %x : tensor<128xf32> to memref<128xf32>
  %o = memref.alloc() : memref<128xf32>
  func.call @split_rows(%xb, %o) : (memref<128xf32>, memref<128xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<128xf32> to tensor<128xf32>
  return %r : tensor<128xf32>
}
// -----
func.func private @loaded(%x: memref<128xf32>, %out: memref<128xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 2>, block = array<i64: 64>}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c5 = arith.constant 5 : index
  %one = arith.constant 1 : i32
  %w = arith.constant 32 : i32
  %n = arith.constant 64 : index
  %tx = gpu.thread_id x
  %ty = gpu.thread_id y
  %b = gpu.block_id x
  %bx = gpu.block_dim x
  %lin0 = arith.muli %ty, %bx : index
  %lin = arith.addi %lin0, %tx : index
  %base = arith.muli %b, %n : index
  %g = arith.addi %base, %lin : index
  %v = memref.load %x[%g] : memref<128xf32>
  %zero = arith.constant 0.0 : f32
  %p = arith.cmpf ogt, %v, %zero : f32
  %r = scf.if %p -> (f32) {
    %s, %ok = gpu.shuffle xor %v, %one, %w : f32
    scf.yield %s : f32
  } else {
    scf.yield %v : f32
  }
  memref.store %r, %out[%g] : memref<128xf32>
  return
}
func.func @loaded_graph(%x: tensor<128xf32>) -> tensor<128xf32> {
  %xb = bufferization.to_buffer %x : tensor<128xf32> to memref<128xf32>
  %o = memref.alloc() : memref<128xf32>
  func.call @loaded(%xb, %o) : (memref<128xf32>, memref<128xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<128xf32> to tensor<128xf32>
  return %r : tensor<128xf32>
}
// -----
func.func private @loop_bound(%x: memref<128xf32>, %out: memref<128xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 2>, block = array<i64: 64>}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c5 = arith.constant 5 : index
  %one = arith.constant 1 : i32
  %w = arith.constant 32 : i32
  %n = arith.constant 64 : index
  %tx = gpu.thread_id x
  %ty = gpu.thread_id y
  %b = gpu.block_id x
  %bx = gpu.block_dim x
  %lin0 = arith.muli %ty, %bx : index
  %lin = arith.addi %lin0, %tx : index
  %base = arith.muli %b, %n : index
  %g = arith.addi %base, %lin : index
  %v = memref.load %x[%g] : memref<128xf32>
  %r = scf.for %i = %c0 to %tx step %c1 iter_args(%a = %v) -> (f32) {
    %s, %ok = gpu.shuffle xor %a, %one, %w : f32
    scf.yield %s : f32
  }
  memref.store %r, %out[%g] : memref<128xf32>
  return
}
func.func @loop_bound_graph(%x: tensor<128xf32>) -> tensor<128xf32> {
  %xb = bufferization.to_buffer %x : tensor<128xf32> to memref<128xf32>
  %o = memref.alloc() : memref<128xf32>
  func.call @loop_bound(%xb, %o) : (memref<128xf32>, memref<128xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<128xf32> to tensor<128xf32>
  return %r : tensor<128xf32>
}
