// A pre-initialized output on the GPU (test/targets/cuda/codegen/user-kernel.mlir).
func.func private @first(%x: memref<8xf32>, %out: memref<8xf32>) attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %v = memref.load %x[%i] : memref<8xf32>
    memref.store %v, %out[%i] : memref<8xf32>
    scf.reduce
  }
  return
}

func.func @initialized(%x: tensor<8xf32>, %init: tensor<8xf32>) -> tensor<8xf32> {
  %xb = bufferization.to_buffer %x : tensor<8xf32> to memref<8xf32>
  %ib = bufferization.to_buffer %init : tensor<8xf32> to memref<8xf32>
  %o = memref.alloc() : memref<8xf32>
  memref.copy %ib, %o : memref<8xf32> to memref<8xf32>
  func.call @first(%xb, %o) : (memref<8xf32>, memref<8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<8xf32> to tensor<8xf32>
  return %r : tensor<8xf32>
}

