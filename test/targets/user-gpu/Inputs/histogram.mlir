// A histogram written as a GPU kernel: 1024 values in [0, 1) into 16 bins, 4 blocks of
// 256 threads; each block counts into a workgroup histogram (zeroed by its first 16
// threads, atomic adds), then adds it into the global one atomically. The global
// histogram is zeroed by an earlier (flat-form) kernel; the graph normalizes it by a
// second input (not fused: the output is written atomically, atomic-output).
func.func private @zero16(%out: memref<16xf32>) attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %z = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c16) step (%c1) {
    memref.store %z, %out[%i] : memref<16xf32>
    scf.reduce
  }
  return
}

func.func private @histogram(%x: memref<1024xf32>, %hist: memref<16xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 4>, block = array<i64: 256>}} {
  %sm = memref.alloca() : memref<16xf32, #gpu.address_space<workgroup>>
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %c15 = arith.constant 15 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %f16 = arith.constant 16.0 : f32
  %t = gpu.thread_id x
  %b = gpu.block_id x
  %first = arith.cmpi ult, %t, %c16 : index
  scf.if %first {
    memref.store %zero, %sm[%t] : memref<16xf32, #gpu.address_space<workgroup>>
  }
  gpu.barrier
  %o = arith.muli %b, %c256 : index
  %i = arith.addi %o, %t : index
  %v = memref.load %x[%i] : memref<1024xf32>
  %sv = arith.mulf %v, %f16 : f32
  %bi = arith.fptosi %sv : f32 to i32
  %bin0 = arith.index_cast %bi : i32 to index
  %bin = arith.minui %bin0, %c15 : index
  %old = memref.atomic_rmw addf %one, %sm[%bin] : (f32, memref<16xf32, #gpu.address_space<workgroup>>) -> f32
  gpu.barrier
  scf.if %first {
    %n = memref.load %sm[%t] : memref<16xf32, #gpu.address_space<workgroup>>
    %g = memref.atomic_rmw addf %n, %hist[%t] : (f32, memref<16xf32>) -> f32
  }
  return
}

func.func @histogram_norm(%x: tensor<1024xf32>, %scale: tensor<16xf32>) -> tensor<16xf32> {
  %xb = bufferization.to_buffer %x : tensor<1024xf32> to memref<1024xf32>
  %h = memref.alloc() : memref<16xf32>
  func.call @zero16(%h) : (memref<16xf32>) -> ()
  func.call @histogram(%xb, %h) : (memref<1024xf32>, memref<16xf32>) -> ()
  %r = bufferization.to_tensor %h : memref<16xf32> to tensor<16xf32>
  %y = "graph.mul"(%r, %scale) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %y : tensor<16xf32>
}
