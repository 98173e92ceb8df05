// GPU-form user kernels with a gpu.shuffle under control the 32 lanes of each warp agree
// on (a block-id test, x < 32, x / 32, x >> 5, thread id y with block x = 32), which
// cuda-codegen accepts (test/targets/cuda/codegen/user-gpu-shuffle.test); run on the GPU
// against the reference interpreter by test/gpu/run.sh (the CPU target refuses them: it
// splits at shuffles only under block-uniform control). Here: the reference runs each
// (the lanes of a warp reach each shuffle together: no split-warp error).
// RUN: for f in block_test first_warp warp_index warp_shift row_warps; do braze run %s --target=reference --func ${f}_graph --seed 2 --quiet || exit 1; echo "ran $f"; done | FileCheck %s
// CHECK: ran block_test
// CHECK: ran first_warp
// CHECK: ran warp_index
// CHECK: ran warp_shift
// CHECK: ran row_warps
func.func private @block_test(%x: memref<128xf32>, %out: memref<128xf32>)
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
  %p = arith.cmpi eq, %b, %c0 : index
  %r = scf.if %p -> (f32) {
    %s, %ok = gpu.shuffle xor %v, %one, %w : f32
    scf.yield %s : f32
  } else {
    scf.yield %v : f32
  }
  memref.store %r, %out[%g] : memref<128xf32>
  return
}
func.func @block_test_graph(%x: tensor<128xf32>) -> tensor<128xf32> {
  %xb = bufferization.to_buffer %x : tensor<128xf32> to memref<128xf32>
  %o = memref.alloc() : memref<128xf32>
  func.call @block_test(%xb, %o) : (memref<128xf32>, memref<128xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<128xf32> to tensor<128xf32>
  return %r : tensor<128xf32>
}
func.func private @first_warp(%x: memref<128xf32>, %out: memref<128xf32>)
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
  %p = arith.cmpi ult, %tx, %c32 : index
  %r = scf.if %p -> (f32) {
    %s, %ok = gpu.shuffle xor %v, %one, %w : f32
    scf.yield %s : f32
  } else {
    scf.yield %v : f32
  }
  memref.store %r, %out[%g] : memref<128xf32>
  return
}
func.func @first_warp_graph(%x: tensor<128xf32>) -> tensor<128xf32> {
  %xb = bufferization.to_buffer %x : tensor<128xf32> to memref<128xf32>
  %o = memref.alloc() : memref<128xf32>
  func.call @first_warp(%xb, %o) : (memref<128xf32>, memref<128xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<128xf32> to tensor<128xf32>
  return %r : tensor<128xf32>
}
func.func private @warp_index(%x: memref<192xf32>, %out: memref<192xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 2>, block = array<i64: 96>}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c5 = arith.constant 5 : index
  %one = arith.constant 1 : i32
  %w = arith.constant 32 : i32
  %n = arith.constant 96 : index
  %tx = gpu.thread_id x
  %ty = gpu.thread_id y
  %b = gpu.block_id x
  %bx = gpu.block_dim x
  %lin0 = arith.muli %ty, %bx : index
  %lin = arith.addi %lin0, %tx : index
  %base = arith.muli %b, %n : index
  %g = arith.addi %base, %lin : index
  %v = memref.load %x[%g] : memref<192xf32>
  %wi = arith.divui %tx, %c32 : index
  %p = arith.cmpi eq, %wi, %c1 : index
  %r = scf.if %p -> (f32) {
    %s, %ok = gpu.shuffle xor %v, %one, %w : f32
    scf.yield %s : f32
  } else {
    scf.yield %v : f32
  }
  memref.store %r, %out[%g] : memref<192xf32>
  return
}
func.func @warp_index_graph(%x: tensor<192xf32>) -> tensor<192xf32> {
  %xb = bufferization.to_buffer %x : tensor<192xf32> to memref<192xf32>
  %o = memref.alloc() : memref<192xf32>
  func.call @warp_index(%xb, %o) : (memref<192xf32>, memref<192xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<192xf32> to tensor<192xf32>
  return %r : tensor<192xf32>
}
func.func private @warp_shift(%x: memref<128xf32>, %out: memref<128xf32>)
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
  %wi = arith.shrui %tx, %c5 : index
  %p = arith.cmpi eq, %wi, %c0 : index
  %r = scf.if %p -> (f32) {
    %s, %ok = gpu.shuffle xor %v, %one, %w : f32
    scf.yield %s : f32
  } else {
    scf.yield %v : f32
  }
  memref.store %r, %out[%g] : memref<128xf32>
  return
}
func.func @warp_shift_graph(%x: tensor<128xf32>) -> tensor<128xf32> {
  %xb = bufferization.to_buffer %x : tensor<128xf32> to memref<128xf32>
  %o = memref.alloc() : memref<128xf32>
  func.call @warp_shift(%xb, %o) : (memref<128xf32>, memref<128xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<128xf32> to tensor<128xf32>
  return %r : tensor<128xf32>
}
func.func private @row_warps(%x: memref<256xf32>, %out: memref<256xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 2>, block = array<i64: 32, 4>}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c5 = arith.constant 5 : index
  %one = arith.constant 1 : i32
  %w = arith.constant 32 : i32
  %n = arith.constant 128 : index
  %tx = gpu.thread_id x
  %ty = gpu.thread_id y
  %b = gpu.block_id x
  %bx = gpu.block_dim x
  %lin0 = arith.muli %ty, %bx : index
  %lin = arith.addi %lin0, %tx : index
  %base = arith.muli %b, %n : index
  %g = arith.addi %base, %lin : index
  %v = memref.load %x[%g] : memref<256xf32>
  %p = arith.cmpi ult, %ty, %c2 : index
  %r = scf.if %p -> (f32) {
    %s, %ok = gpu.shuffle xor %v, %one, %w : f32
    scf.yield %s : f32
  } else {
    scf.yield %v : f32
  }
  memref.store %r, %out[%g] : memref<256xf32>
  return
}
func.func @row_warps_graph(%x: tensor<256xf32>) -> tensor<256xf32> {
  %xb = bufferization.to_buffer %x : tensor<256xf32> to memref<256xf32>
  %o = memref.alloc() : memref<256xf32>
  func.call @row_warps(%xb, %o) : (memref<256xf32>, memref<256xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<256xf32> to tensor<256xf32>
  return %r : tensor<256xf32>
}
