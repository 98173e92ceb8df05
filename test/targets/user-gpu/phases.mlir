// The CPU's phases on the corners (targets/cpu/codegen/user-gpu.c): an iter_arg whose
// initial value is a thread id, barriers in a uniform loop inside a uniform loop (the
// block's buffer reversed four times: back to itself), then shuffles down, up and idx
// one after the other. x = 0..63: z = x; down 1 then up 1 then idx 1 give each warp
// its lane 1's value: 1 in warp 0, 33 in warp 1.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.arange(64, dtype=np.float32))"
// RUN: braze run %s --target=cpu --inputs %t/x.npy --save-outputs %t/out --quiet
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
