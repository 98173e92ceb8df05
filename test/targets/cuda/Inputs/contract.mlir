// Target-level CUDA IR written by hand (the contract in docs/targets-cuda.md): three
// kernels (128-bit vector loads, a block reduction with gpu.all_reduce, a warp
// shuffle) and a host entry with a workspace view, a constant, a scalar kernel
// argument, dynamic shared memory and a device-to-device copy.
module attributes {gpu.container_module} {
  gpu.module @braze_kernels {
    // y[r, :] = x[r, :] + bias: one block per row, one thread per 4 floats.
    gpu.func @cuda_poi_fused_add_0(%x: memref<8x16xf32>, %b: memref<16xf32>, %y: memref<8x16xf32>) kernel
        attributes {known_block_size = array<i32: 4, 1, 1>, kernel.kind = "poi"} {
      %r = gpu.block_id x
      %t = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %col = arith.muli %t, %c4 : index
      %xv = vector.load %x[%r, %col] {alignment = 16} : memref<8x16xf32>, vector<4xf32>
      %bv = vector.load %b[%col] {alignment = 16} : memref<16xf32>, vector<4xf32>
      %s = arith.addf %xv, %bv : vector<4xf32>
      vector.store %s, %y[%r, %col] {alignment = 16} : memref<8x16xf32>, vector<4xf32>
      gpu.return
    }
    // s[r] = scale * sum(y[r, :]): one block per row, one thread per element.
    gpu.func @cuda_red_fused_sum_mul_1(%y: memref<8x16xf32>, %scale: f32, %s: memref<8xf32>) kernel
        attributes {known_block_size = array<i32: 16, 1, 1>, kernel.kind = "red"} {
      %r = gpu.block_id x
      %t = gpu.thread_id x
      %v = memref.load %y[%r, %t] : memref<8x16xf32>
      %sum = gpu.all_reduce add %v uniform {} : (f32) -> f32
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        %m = arith.mulf %sum, %scale : f32
        memref.store %m, %s[%r] : memref<8xf32>
      }
      gpu.return
    }
    // m[0] = max(s): one warp, xor shuffles.
    gpu.func @cuda_red_max_2(%s: memref<8xf32>, %m: memref<1xf32>) kernel
        attributes {known_block_size = array<i32: 32, 1, 1>, kernel.kind = "red"} {
      %t = gpu.thread_id x
      %c8 = arith.constant 8 : index
      %i = arith.remui %t, %c8 : index
      %v = memref.load %s[%i] : memref<8xf32>
      %w = arith.constant 32 : i32
      %o4 = arith.constant 4 : i32
      %o2 = arith.constant 2 : i32
      %o1 = arith.constant 1 : i32
      %a4, %p4 = gpu.shuffle xor %v, %o4, %w : f32
      %m4 = arith.maximumf %v, %a4 : f32
      %a2, %p2 = gpu.shuffle xor %m4, %o2, %w : f32
      %m2 = arith.maximumf %m4, %a2 : f32
      %a1, %p1 = gpu.shuffle xor %m2, %o1, %w : f32
      %m1 = arith.maximumf %m2, %a1 : f32
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        memref.store %m1, %m[%c0] : memref<1xf32>
      }
      gpu.return
    }
  }
  memref.global "private" constant @__braze_const_0 : memref<16xf32> =
      dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0]> {alignment = 64 : i64}
  func.func @f(%x: memref<8x16xf32>, %sums: memref<8xf32>, %max: memref<1xf32>, %copy: memref<8x16xf32>,
               %ws: memref<1024xi8>)
      attributes {braze.entry, braze.num_inputs = 1 : i64, braze.num_outputs = 3 : i64,
                  braze.workspace_bytes = 1024 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c512 = arith.constant 512 : index
    %smem = arith.constant 65536 : i32
    %scale = arith.constant 0.5 : f32
    %y = memref.view %ws[%c0][] : memref<1024xi8> to memref<8x16xf32>
    %s = memref.view %ws[%c512][] : memref<1024xi8> to memref<8xf32>
    %bias = memref.get_global @__braze_const_0 : memref<16xf32>
    gpu.launch_func @braze_kernels::@cuda_poi_fused_add_0 blocks in (%c8, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%x : memref<8x16xf32>, %bias : memref<16xf32>, %y : memref<8x16xf32>)
    gpu.launch_func @braze_kernels::@cuda_red_fused_sum_mul_1 blocks in (%c8, %c1, %c1) threads in (%c16, %c1, %c1)
        dynamic_shared_memory_size %smem args(%y : memref<8x16xf32>, %scale : f32, %s : memref<8xf32>)
    memref.copy %s, %sums : memref<8xf32> to memref<8xf32>
    gpu.launch_func @braze_kernels::@cuda_red_max_2 blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%s : memref<8xf32>, %max : memref<1xf32>)
    memref.copy %x, %copy : memref<8x16xf32> to memref<8x16xf32>
    return
  }
}
