// The CPU's phases on the corners (targets/cpu/codegen/user-gpu.c): an iter_arg whose
// initial value is a thread id, barriers in a uniform loop inside a uniform loop (the
// block's buffer reversed four times: back to itself), then shuffles down, up and idx
// one after the other. x = 0..63: z = x; down 1 then up 1 then idx 1 give each warp
// its lane 1's value: 1 in warp 0, 33 in warp 1.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.arange(64, dtype=np.float32))"
// RUN: braze run %s --func g --target=cpu --inputs %t/x.npy --save-outputs %t/out --quiet
// RUN: %python %braze_src/test/e2e/Inputs/print_npy.py %t/out | FileCheck %s
// CHECK: out0 float32 [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 33.0, 33.0, 33.0, 33.0, 33.0, 33.0, 33.0, 33.0, 33.0, 33.0, 33.0, 33.0, 33.0, 33.0, 33.0, 33.0, 33.0, 33.0, 33.0, 33.0, 33.0, 33.0, 33.0, 33.0, 33.0, 33.0, 33.0, 33.0, 33.0, 33.0, 33.0, 33.0]
func.func private @edge(%x: memref<64xf32>, %out: memref<64xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 64>}} {
  %sm = memref.alloca() : memref<64xf32, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c63 = arith.constant 63 : index
  %one = arith.constant 1 : i32
  %w = arith.constant 32 : i32
  %t = gpu.thread_id x
  %v = memref.load %x[%t] : memref<64xf32>
  memref.store %v, %sm[%t] : memref<64xf32, #gpu.address_space<workgroup>>
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %t) -> (index) {
    scf.for %j = %c0 to %c2 step %c1 {
      gpu.barrier
      %n = arith.subi %c63, %a : index
      %y = memref.load %sm[%n] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      memref.store %y, %sm[%a] : memref<64xf32, #gpu.address_space<workgroup>>
    }
    scf.yield %a : index
  }
  gpu.barrier
  %z = memref.load %sm[%r] : memref<64xf32, #gpu.address_space<workgroup>>
  %d, %ok = gpu.shuffle down %z, %one, %w : f32
  %u, %ok2 = gpu.shuffle up %d, %one, %w : f32
  %k, %ok3 = gpu.shuffle idx %u, %one, %w : f32
  memref.store %k, %out[%t] : memref<64xf32>
  return
}
func.func @g(%x: tensor<64xf32>) -> tensor<64xf32> {
  %xb = bufferization.to_buffer %x : tensor<64xf32> to memref<64xf32>
  %o = memref.alloc() : memref<64xf32>
  func.call @edge(%xb, %o) : (memref<64xf32>, memref<64xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<64xf32> to tensor<64xf32>
  return %r : tensor<64xf32>
}

// An scf.if with a uniform condition (on the block id) holding a barrier and yielding a
// value: split inside the branch, its result per thread. Block 0 reverses its 32 values
// through the shared buffer, block 1 copies them: out = [31..0, 32..63] + 1.
// RUN: braze run %s --func uniform_if --target=cpu --inputs %t/x.npy --save-outputs %t/if --quiet
// RUN: %python %braze_src/test/e2e/Inputs/print_npy.py %t/if | FileCheck %s --check-prefix=IF
// IF: out0 float32 [32.0, 31.0, 30.0, 29.0, 28.0, 27.0, 26.0, 25.0, 24.0, 23.0, 22.0, 21.0, 20.0, 19.0, 18.0, 17.0, 16.0, 15.0, 14.0, 13.0, 12.0, 11.0, 10.0, 9.0, 8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0, 64.0]
func.func private @rev_first(%x: memref<64xf32>, %out: memref<64xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 2>, block = array<i64: 32>}} {
  %sm = memref.alloca() : memref<32xf32, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %c31 = arith.constant 31 : index
  %c32 = arith.constant 32 : index
  %one = arith.constant 1.0 : f32
  %t = gpu.thread_id x
  %b = gpu.block_id x
  %o = arith.muli %b, %c32 : index
  %i = arith.addi %o, %t : index
  %v = memref.load %x[%i] : memref<64xf32>
  %first = arith.cmpi eq, %b, %c0 : index
  %r = scf.if %first -> (f32) {
    memref.store %v, %sm[%t] : memref<32xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %j = arith.subi %c31, %t : index
    %w = memref.load %sm[%j] : memref<32xf32, #gpu.address_space<workgroup>>
    scf.yield %w : f32
  } else {
    scf.yield %v : f32
  }
  %s = arith.addf %r, %one : f32
  memref.store %s, %out[%i] : memref<64xf32>
  return
}
func.func @uniform_if(%x: tensor<64xf32>) -> tensor<64xf32> {
  %xb = bufferization.to_buffer %x : tensor<64xf32> to memref<64xf32>
  %o = memref.alloc() : memref<64xf32>
  func.call @rev_first(%xb, %o) : (memref<64xf32>, memref<64xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<64xf32> to tensor<64xf32>
  return %r : tensor<64xf32>
}
