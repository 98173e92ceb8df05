// A tiled matmul written as a GPU kernel (docs/user-kernels.md, "GPU form on each
// target"): c = a @ b, 64x64x64, one 16x16 block per 16x16 tile of c, the K loop in
// steps of 16 through two 16x16 shared tiles with a barrier after loading them and one
// after using them. The graph adds a bias and takes the relu (fused into the stores).
func.func private @tiled_matmul(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 4, 4>, block = array<i64: 16, 16>}} {
  %as = memref.alloca() : memref<16x16xf32, #gpu.address_space<workgroup>>
  %bs = memref.alloca() : memref<16x16xf32, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %tx = gpu.thread_id x
  %ty = gpu.thread_id y
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %r0 = arith.muli %by, %c16 : index
  %row = arith.addi %r0, %ty : index
  %c0s = arith.muli %bx, %c16 : index
  %col = arith.addi %c0s, %tx : index
  %acc = scf.for %k = %c0 to %c64 step %c16 iter_args(%s = %zero) -> (f32) {
    %ak = arith.addi %k, %tx : index
    %av = memref.load %a[%row, %ak] : memref<64x64xf32>
    memref.store %av, %as[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
    %bk = arith.addi %k, %ty : index
    %bv = memref.load %b[%bk, %col] : memref<64x64xf32>
    memref.store %bv, %bs[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %s2 = scf.for %kk = %c0 to %c16 step %c1 iter_args(%t = %s) -> (f32) {
      %x = memref.load %as[%ty, %kk] : memref<16x16xf32, #gpu.address_space<workgroup>>
      %y = memref.load %bs[%kk, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      %p = arith.mulf %x, %y : f32
      %t2 = arith.addf %t, %p : f32
      scf.yield %t2 : f32
    }
    gpu.barrier
    scf.yield %s2 : f32
  }
  memref.store %acc, %c[%row, %col] : memref<64x64xf32>
  return
}

func.func @matmul_bias_relu(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %bias: tensor<64xf32>) -> tensor<64x64xf32> {
  %ab = bufferization.to_buffer %a : tensor<64x64xf32> to memref<64x64xf32>
  %bb = bufferization.to_buffer %b : tensor<64x64xf32> to memref<64x64xf32>
  %o = memref.alloc() : memref<64x64xf32>
  func.call @tiled_matmul(%ab, %bb, %o) : (memref<64x64xf32>, memref<64x64xf32>, memref<64x64xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<64x64xf32> to tensor<64x64xf32>
  %s = "graph.add"(%r, %bias) : (tensor<64x64xf32>, tensor<64xf32>) -> tensor<64x64xf32>
  %y = "graph.relu"(%s) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}
