// cuda-codegen keeps barriers whose control every thread of a block takes alike
// (targets/common/gpu-uniform.c): under an scf.if on the block id, on a value loaded at
// a uniform index (every thread reads the same element), and in an scf.for whose bound
// is a loop result computed from uniform values only; the thread-dependent cases are
// refused (test/targets/cuda/codegen/user-gpu.mlir, REFUSE).
// RUN: braze-opt --cpu=x86-64-v4 %s --pipeline=cuda-default | FileCheck %s

// CHECK: gpu.func @cuda_ext_fused_uniform_0(
// CHECK:   gpu.block_id  x
// CHECK:   scf.if
// CHECK:     gpu.barrier
// CHECK:   memref.load %arg0[%c0]
// CHECK:   scf.if
// CHECK:     gpu.barrier
// CHECK:   scf.for
// CHECK:     gpu.barrier
func.func private @uniform(%x: memref<64xf32>, %out: memref<64xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 2>, block = array<i64: 32>}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %t = gpu.thread_id x
  %b = gpu.block_id x
  %first = arith.cmpi eq, %b, %c0 : index
  scf.if %first {
    gpu.barrier
  }
  %x0 = memref.load %x[%c0] : memref<64xf32>
  %pos = arith.cmpf ogt, %x0, %zero : f32
  scf.if %pos {
    gpu.barrier
  }
  %n = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %c1) -> (index) {
    %a2 = arith.addi %a, %b : index
    scf.yield %a2 : index
  }
  scf.for %i = %c0 to %n step %c1 {
    gpu.barrier
  }
  %o = arith.muli %b, %c32 : index
  %g = arith.addi %o, %t : index
  %v = memref.load %x[%g] : memref<64xf32>
  memref.store %v, %out[%g] : memref<64xf32>
  return
}
func.func @g(%x: tensor<64xf32>) -> tensor<64xf32> {
  %xb = bufferization.to_buffer %x : tensor<64xf32> to memref<64xf32>
  %o = memref.alloc() : memref<64xf32>
  func.call @uniform(%xb, %o) : (memref<64xf32>, memref<64xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<64xf32> to tensor<64xf32>
  return %r : tensor<64xf32>
}
