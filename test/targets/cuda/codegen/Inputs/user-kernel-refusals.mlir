// User kernels cuda-codegen refuses (test/targets/cuda/codegen/user-kernel.mlir).
func.func private @seq(%x: memref<8xf32>, %out: memref<8xf32>) attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %x[%i] : memref<8xf32>
    memref.store %v, %out[%i] : memref<8xf32>
  }
  return
}

func.func @sequential(%x: tensor<8xf32>) -> tensor<8xf32> {
  %xb = bufferization.to_buffer %x : tensor<8xf32> to memref<8xf32>
  %o = memref.alloc() : memref<8xf32>
  func.call @seq(%xb, %o) : (memref<8xf32>, memref<8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<8xf32> to tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

func.func private @dyn(%x: memref<8xf32>, %out: memref<8xf32>) attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = memref.load %x[%c0] : memref<8xf32>
  %u = arith.fptoui %f : f32 to i32
  %n = arith.index_cast %u : i32 to index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<8xf32>
    memref.store %v, %out[%i] : memref<8xf32>
    scf.reduce
  }
  return
}

func.func @dynamic(%x: tensor<8xf32>) -> tensor<8xf32> {
  %xb = bufferization.to_buffer %x : tensor<8xf32> to memref<8xf32>
  %o = memref.alloc() : memref<8xf32>
  func.call @dyn(%xb, %o) : (memref<8xf32>, memref<8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<8xf32> to tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----


func.func private @outer(%x: memref<8xf32>, %out: memref<8xf32>) attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %v = memref.load %x[%i] : memref<8xf32>
    memref.store %v, %out[%i] : memref<8xf32>
    func.call @helper(%out) : (memref<8xf32>) -> ()
    scf.reduce
  }
  return
}

func.func private @helper(%out: memref<8xf32>) attributes {braze.user_kernel} {
  return
}

func.func @calls(%x: tensor<8xf32>) -> tensor<8xf32> {
  %xb = bufferization.to_buffer %x : tensor<8xf32> to memref<8xf32>
  %o = memref.alloc() : memref<8xf32>
  func.call @outer(%xb, %o) : (memref<8xf32>, memref<8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<8xf32> to tensor<8xf32>
  return %r : tensor<8xf32>
}
