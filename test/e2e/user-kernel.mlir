// A user kernel (docs/user-kernels.md): a private func.func on memrefs marked
// braze.user_kernel, called from the graph the way PyTorch calls a Triton kernel:
// inputs as buffers of tensors, the output allocated uninitialized, then graph ops on
// the result. It compiles for the CPU (an `ext` kernel calling it) and the reference
// interpreter evaluates it, fused (its consumers applied at its stores) and unfused.
// (Was xfail-user-kernel.mlir, a graph-dialect callee cpu-codegen refused.)
// RUN: braze check %s --seed 7 | FileCheck %s
// RUN: braze check %s --seed 8 --pipeline=cpu-no-user-epilogue | FileCheck %s
// RUN: braze check %s --seed 9 --pipeline=cpu-no-fusion | FileCheck %s
// RUN: braze run %s --seed 7 --func model --target=cpu | FileCheck %s --check-prefix=CPU
// CHECK-NOT: FAIL
// CHECK: PASS @model out0 6x8xf32
// CHECK: PASS @twice out0 6x8xf32
// CPU-LABEL: @model: 1 output
// CPU-NEXT: out0: tensor<6x8xf32>

func.func private @bias_tanh(%x: memref<6x8xf32>, %b: memref<8xf32>, %out: memref<6x8xf32>)
    attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i) = (%c0) to (%c6) step (%c1) {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %x[%i, %j] : memref<6x8xf32>
      %bj = memref.load %b[%j] : memref<8xf32>
      %s = arith.addf %v, %bj : f32
      %t = math.tanh %s : f32
      memref.store %t, %out[%i, %j] : memref<6x8xf32>
    }
    scf.reduce
  }
  return
}

func.func @model(%x: tensor<6x8xf32>, %b: tensor<8xf32>) -> tensor<6x8xf32> {
  %0 = "graph.exp"(%x) : (tensor<6x8xf32>) -> tensor<6x8xf32>
  %xb = bufferization.to_buffer %0 : tensor<6x8xf32> to memref<6x8xf32>
  %bb = bufferization.to_buffer %b : tensor<8xf32> to memref<8xf32>
  %o = memref.alloc() : memref<6x8xf32>
  func.call @bias_tanh(%xb, %bb, %o) : (memref<6x8xf32>, memref<8xf32>, memref<6x8xf32>) -> ()
  %1 = bufferization.to_tensor %o : memref<6x8xf32> to tensor<6x8xf32>
  %2 = "graph.mul"(%1, %x) : (tensor<6x8xf32>, tensor<6x8xf32>) -> tensor<6x8xf32>
  return %2 : tensor<6x8xf32>
}

// The same kernel twice, once on a transposed (view) operand.
func.func @twice(%x: tensor<8x6xf32>, %b: tensor<8xf32>) -> tensor<6x8xf32> {
  %t = "graph.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<8x6xf32>) -> tensor<6x8xf32>
  %tb = bufferization.to_buffer %t : tensor<6x8xf32> to memref<6x8xf32>
  %bb = bufferization.to_buffer %b : tensor<8xf32> to memref<8xf32>
  %o = memref.alloc() : memref<6x8xf32>
  func.call @bias_tanh(%tb, %bb, %o) : (memref<6x8xf32>, memref<8xf32>, memref<6x8xf32>) -> ()
  %0 = bufferization.to_tensor %o : memref<6x8xf32> to tensor<6x8xf32>
  %rb = bufferization.to_buffer %0 : tensor<6x8xf32> to memref<6x8xf32>
  %o2 = memref.alloc() : memref<6x8xf32>
  func.call @bias_tanh(%rb, %bb, %o2) : (memref<6x8xf32>, memref<8xf32>, memref<6x8xf32>) -> ()
  %1 = bufferization.to_tensor %o2 : memref<6x8xf32> to tensor<6x8xf32>
  return %1 : tensor<6x8xf32>
}
