// An elementwise kernel on vector<4xf32> with a scalar tail, written as a GPU kernel:
// 1030 elements, thread g (of 3 blocks of 128) squares elements 4g .. 4g+3 for g < 257
// and element 1028 + g for g < 2. The graph adds a bias and takes the relu (fused into
// the vector stores and the tail's scalar stores).
func.func private @square_vec4(%x: memref<1030xf32>, %out: memref<1030xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 3>, block = array<i64: 128>}} {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c257 = arith.constant 257 : index
  %c1028 = arith.constant 1028 : index
  %t = gpu.thread_id x
  %b = gpu.block_id x
  %n = gpu.block_dim x
  %o = arith.muli %b, %n : index
  %g = arith.addi %o, %t : index
  %body = arith.cmpi ult, %g, %c257 : index
  scf.if %body {
    %i = arith.muli %g, %c4 : index
    %v = vector.load %x[%i] : memref<1030xf32>, vector<4xf32>
    %s = arith.mulf %v, %v : vector<4xf32>
    vector.store %s, %out[%i] : memref<1030xf32>, vector<4xf32>
  }
  %tail = arith.cmpi ult, %g, %c2 : index
  scf.if %tail {
    %i = arith.addi %g, %c1028 : index
    %v = memref.load %x[%i] : memref<1030xf32>
    %s = arith.mulf %v, %v : f32
    memref.store %s, %out[%i] : memref<1030xf32>
  }
  return
}

func.func @vec4_bias_relu(%x: tensor<1030xf32>, %bias: tensor<1030xf32>) -> tensor<1030xf32> {
  %xb = bufferization.to_buffer %x : tensor<1030xf32> to memref<1030xf32>
  %o = memref.alloc() : memref<1030xf32>
  func.call @square_vec4(%xb, %o) : (memref<1030xf32>, memref<1030xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<1030xf32> to tensor<1030xf32>
  %s = "graph.add"(%r, %bias) : (tensor<1030xf32>, tensor<1030xf32>) -> tensor<1030xf32>
  %y = "graph.relu"(%s) : (tensor<1030xf32>) -> tensor<1030xf32>
  return %y : tensor<1030xf32>
}
