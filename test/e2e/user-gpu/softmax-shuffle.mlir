// GPU-form user kernel (decision 0027): a row softmax with one warp per row (8 rows of
// 64: each lane holds two columns), the max and the sum reduced across the warp by
// gpu.shuffle xor (the butterfly of CUDA's __shfl_xor_sync), then a graph scale by 2,
// evaluated by the reference interpreter and compared with numpy; form-kernels fuses the
// scale into both stores.
// On the CPU against the reference, fused and with the epilogue refused:
// RUN: braze check %s --target=cpu --seed 31 | FileCheck %s --check-prefix=CPU
// RUN: braze check %s --target=cpu --seed 32 --pipeline=cpu-no-user-epilogue | FileCheck %s --check-prefix=CPU
// CPU-NOT: FAIL
// CPU: PASS  @model out0 8x64xf32
// CPU: check passed
// RUN: rm -rf %t && mkdir -p %t
// RUN: braze run %s --target=reference --seed 4 --save-inputs %t/in --save-outputs %t/out --quiet
// RUN: %python %S/Inputs/check.py softmax %t/in %t/out
// RUN: braze-opt --cpu=x86-64-v4 %s --user-kernel-analysis --graph-decompose --graph-to-loops --inline-unrealized --form-kernels=report -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUSE
// FUSE: user kernels @model:
// FUSE: arg 0 memref<8x64xf32>: read
// FUSE: arg 1 memref<8x64xf32>: written(2 stores)
// FUSE: output arg 1 epilogue 'mul': fused

func.func private @softmax_warp(%x: memref<8x64xf32>, %out: memref<8x64xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 8>, block = array<i64: 32>}} {
  %c32 = arith.constant 32 : index
  %w = arith.constant 32 : i32
  %row = gpu.block_id x
  %lane = gpu.thread_id x
  %hi = arith.addi %lane, %c32 : index
  %a = memref.load %x[%row, %lane] : memref<8x64xf32>
  %b = memref.load %x[%row, %hi] : memref<8x64xf32>
  %m0 = arith.maximumf %a, %b : f32
  %o16 = arith.constant 16 : i32
  %o8 = arith.constant 8 : i32
  %o4 = arith.constant 4 : i32
  %o2 = arith.constant 2 : i32
  %o1 = arith.constant 1 : i32
  %s16, %v16 = gpu.shuffle xor %m0, %o16, %w : f32
  %m1 = arith.maximumf %m0, %s16 : f32
  %s8, %v8 = gpu.shuffle xor %m1, %o8, %w : f32
  %m2 = arith.maximumf %m1, %s8 : f32
  %s4, %v4 = gpu.shuffle xor %m2, %o4, %w : f32
  %m3 = arith.maximumf %m2, %s4 : f32
  %s2, %v2 = gpu.shuffle xor %m3, %o2, %w : f32
  %m4 = arith.maximumf %m3, %s2 : f32
  %s1, %v1 = gpu.shuffle xor %m4, %o1, %w : f32
  %max = arith.maximumf %m4, %s1 : f32
  %da = arith.subf %a, %max : f32
  %db = arith.subf %b, %max : f32
  %ea = math.exp %da : f32
  %eb = math.exp %db : f32
  %t0 = arith.addf %ea, %eb : f32
  %u16, %x16 = gpu.shuffle xor %t0, %o16, %w : f32
  %t1 = arith.addf %t0, %u16 : f32
  %u8, %x8 = gpu.shuffle xor %t1, %o8, %w : f32
  %t2 = arith.addf %t1, %u8 : f32
  %u4, %x4 = gpu.shuffle xor %t2, %o4, %w : f32
  %t3 = arith.addf %t2, %u4 : f32
  %u2, %x2 = gpu.shuffle xor %t3, %o2, %w : f32
  %t4 = arith.addf %t3, %u2 : f32
  %u1, %x1 = gpu.shuffle xor %t4, %o1, %w : f32
  %sum = arith.addf %t4, %u1 : f32
  %ra = arith.divf %ea, %sum : f32
  %rb = arith.divf %eb, %sum : f32
  memref.store %ra, %out[%row, %lane] : memref<8x64xf32>
  memref.store %rb, %out[%row, %hi] : memref<8x64xf32>
  return
}

func.func @model(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %xb = bufferization.to_buffer %x : tensor<8x64xf32> to memref<8x64xf32>
  %o = memref.alloc() : memref<8x64xf32>
  func.call @softmax_warp(%xb, %o) : (memref<8x64xf32>, memref<8x64xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<8x64xf32> to tensor<8x64xf32>
  %two = "graph.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %y = "graph.mul"(%r, %two) : (tensor<8x64xf32>, tensor<f32>) -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}
