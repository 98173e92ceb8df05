// GPU-form user kernel with static and dynamic shared memory together: a workgroup
// alloca of 256 f32 and two views of 1 KiB each of gpu.dynamic_shared_memory
// (shared_bytes = 2048). Each thread t of a row writes x, 2x and 3x into the three
// buffers, and after the barrier reads element 255 - t of each: out[r, t] = 6 x[r, 255 - t]
// if the three buffers are apart, then a graph bias add (fused). On CUDA the dynamic
// memory is the extern `braze_dynamic_smem[]` after the static buffer; with the upstream
// lowering's 1-byte static variable the first view overlapped the alloca
// (test/targets/user-gpu/dynamic-shared-cuda.test). On the CPU against the reference,
// fused, unfused and with no fusion; test/gpu/prepare.sh takes it as a CUDA case.
// RUN: braze check %s --target=cpu --seed 11 | FileCheck %s
// RUN: braze check %s --target=cpu --seed 12 --pipeline=cpu-no-user-epilogue | FileCheck %s
// RUN: braze check %s --target=cpu --seed 13 --pipeline=cpu-no-fusion | FileCheck %s
// RUN: braze run %s --target=reference --seed 11 --save-inputs %t.in --save-outputs %t.out --quiet
// RUN: %python -c "import numpy as np, sys; x = np.load('%t.in/in0.npy').astype(np.float64); b = np.load('%t.in/in1.npy'); y = np.load('%t.out/out0.npy'); w = 6 * x[:, ::-1] + b; e = np.max(np.abs(y - w) / (1 + np.abs(w))); print('numpy max rel err', e); sys.exit(int(e > 1e-6))"
// RUN: braze-opt --cpu=x86-64-v4 %s --user-kernel-analysis --graph-to-loops --inline-unrealized --form-kernels=report -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUSE
// CHECK: PASS  @reverse3_bias out0 4x256xf32
// CHECK: check passed
// FUSE: output arg 1 epilogue 'add': fused

func.func private @reverse3(%x: memref<4x256xf32>, %out: memref<4x256xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 4>, block = array<i64: 256>, shared_bytes = 2048 : i64}} {
  %sm = memref.alloca() : memref<256xf32, #gpu.address_space<workgroup>>
  %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %c1024 = arith.constant 1024 : index
  %c255 = arith.constant 255 : index
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %v2 = memref.view %dyn[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
  %v3 = memref.view %dyn[%c1024][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
  %r = gpu.block_id x
  %t = gpu.thread_id x
  %a = memref.load %x[%r, %t] : memref<4x256xf32>
  %a2 = arith.mulf %a, %two : f32
  %a3 = arith.mulf %a, %three : f32
  memref.store %a, %sm[%t] : memref<256xf32, #gpu.address_space<workgroup>>
  memref.store %a2, %v2[%t] : memref<256xf32, #gpu.address_space<workgroup>>
  memref.store %a3, %v3[%t] : memref<256xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %o = arith.subi %c255, %t : index
  %b1 = memref.load %sm[%o] : memref<256xf32, #gpu.address_space<workgroup>>
  %b2 = memref.load %v2[%o] : memref<256xf32, #gpu.address_space<workgroup>>
  %b3 = memref.load %v3[%o] : memref<256xf32, #gpu.address_space<workgroup>>
  %s1 = arith.addf %b1, %b2 : f32
  %s = arith.addf %s1, %b3 : f32
  memref.store %s, %out[%r, %t] : memref<4x256xf32>
  return
}

func.func @reverse3_bias(%x: tensor<4x256xf32>, %bias: tensor<256xf32>) -> tensor<4x256xf32> {
  %xb = bufferization.to_buffer %x : tensor<4x256xf32> to memref<4x256xf32>
  %o = memref.alloc() : memref<4x256xf32>
  func.call @reverse3(%xb, %o) : (memref<4x256xf32>, memref<4x256xf32>) -> ()
  %p = bufferization.to_tensor %o : memref<4x256xf32> to tensor<4x256xf32>
  %y = "graph.add"(%p, %bias) : (tensor<4x256xf32>, tensor<256xf32>) -> tensor<4x256xf32>
  return %y : tensor<4x256xf32>
}
