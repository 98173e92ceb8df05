// A row softmax written as a GPU kernel: one warp (block of 32) per row of 64, two
// elements a thread; the row max by a butterfly of gpu.shuffle xor in an scf.for over
// the five offsets (16, 8, 4, 2, 1), the row sum by five unrolled shuffles. The graph
// scales the result by a second input (fused into the stores).
func.func private @warp_softmax(%x: memref<16x64xf32>, %out: memref<16x64xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 16>, block = array<i64: 32>}} {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %w = arith.constant 32 : i32
  %o16 = arith.constant 16 : i32
  %o8 = arith.constant 8 : i32
  %o4 = arith.constant 4 : i32
  %o2 = arith.constant 2 : i32
  %o1 = arith.constant 1 : i32
  %t = gpu.thread_id x
  %r = gpu.block_id x
  %t2 = arith.addi %t, %c32 : index
  %x0 = memref.load %x[%r, %t] : memref<16x64xf32>
  %x1 = memref.load %x[%r, %t2] : memref<16x64xf32>
  %m0 = arith.maximumf %x0, %x1 : f32
  %m = scf.for %i = %c0 to %c5 step %c1 iter_args(%a = %m0) -> (f32) {
    %ii = arith.index_cast %i : index to i32
    %off = arith.shrui %o16, %ii : i32
    %s, %valid = gpu.shuffle xor %a, %off, %w : f32
    %n = arith.maximumf %a, %s : f32
    scf.yield %n : f32
  }
  %e0 = arith.subf %x0, %m : f32
  %e1 = arith.subf %x1, %m : f32
  %p0 = math.exp %e0 : f32
  %p1 = math.exp %e1 : f32
  %s0 = arith.addf %p0, %p1 : f32
  %h16, %v16 = gpu.shuffle xor %s0, %o16, %w : f32
  %s1 = arith.addf %s0, %h16 : f32
  %h8, %v8 = gpu.shuffle xor %s1, %o8, %w : f32
  %s2 = arith.addf %s1, %h8 : f32
  %h4, %v4 = gpu.shuffle xor %s2, %o4, %w : f32
  %s3 = arith.addf %s2, %h4 : f32
  %h2, %v2 = gpu.shuffle xor %s3, %o2, %w : f32
  %s4 = arith.addf %s3, %h2 : f32
  %h1, %v1 = gpu.shuffle xor %s4, %o1, %w : f32
  %sum = arith.addf %s4, %h1 : f32
  %q0 = arith.divf %p0, %sum : f32
  %q1 = arith.divf %p1, %sum : f32
  memref.store %q0, %out[%r, %t] : memref<16x64xf32>
  memref.store %q1, %out[%r, %t2] : memref<16x64xf32>
  return
}

func.func @softmax_scale(%x: tensor<16x64xf32>, %g: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %xb = bufferization.to_buffer %x : tensor<16x64xf32> to memref<16x64xf32>
  %o = memref.alloc() : memref<16x64xf32>
  func.call @warp_softmax(%xb, %o) : (memref<16x64xf32>, memref<16x64xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<16x64xf32> to tensor<16x64xf32>
  %y = "graph.mul"(%r, %g) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}
