// The epilogue-fusion decisions of GPU-form user kernels where the GPU's memory model
// matters (docs/user-kernels.md "GPU form"), each followed by a graph relu: the output
// read back after a barrier by another thread (reads-output), read by another block
// (reads-output: the analysis is over every thread of every block), written by atomics
// (atomic-output); and a value stored twice to the same element by its thread, which
// is fused (every store gets the epilogue; the output is never read, so the last store
// wins either way). On the CPU against the reference (fused, refused, no fusion), the
// remarks and the CUDA kernels (one fused, else the user kernel then the relu kernel);
// test/gpu/prepare.sh takes it as a CUDA case. The output aliased through shared memory
// (a memref.copy from workgroup memory into it: escaping-output; the reference does not
// evaluate memref.copy in a kernel) is test/passes/fusion/form-kernels/user-epilogue-gpu.mlir's
// @copied, whose remark and CUDA kernels the ESC lines check.
// RUN: braze-opt --cpu=x86-64-v4 %braze_src/test/passes/fusion/form-kernels/user-epilogue-gpu.mlir --graph-to-loops --inline-unrealized '--form-kernels=target=cuda explain=copy_out,relu' -o /dev/null 2>&1 | FileCheck %s --check-prefix=ESC
// RUN: braze-opt --cpu=x86-64-v4 %braze_src/test/passes/fusion/form-kernels/user-epilogue-gpu.mlir --pipeline=cuda-default | FileCheck %s --check-prefix=ESC-CUDA
// ESC: remark: explain: user kernel @copy_out output arg 1 and 'relu' not fused: escaping-output
// ESC-CUDA-LABEL: func.func @copied(
// ESC-CUDA: gpu.launch_func @braze_kernels::@cuda_ext_fused_copy_out_{{[0-9]+}}
// ESC-CUDA-NEXT: gpu.launch_func @braze_kernels::@cuda_poi_fused_relu_{{[0-9]+}}
// RUN: braze check %s --target=cpu --seed 21 | FileCheck %s
// RUN: braze check %s --target=cpu --seed 22 --pipeline=cpu-no-user-epilogue | FileCheck %s
// RUN: braze check %s --target=cpu --seed 23 --pipeline=cpu-no-fusion | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --user-kernel-analysis --graph-to-loops --inline-unrealized '--form-kernels=report target=cuda' -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUSE
// RUN: for k in reverse_reads peek_other_block shift_atomic store_twice; do braze-opt --cpu=x86-64-v4 %s --graph-to-loops --inline-unrealized "--form-kernels=target=cuda explain=$k,relu" -o /dev/null 2>&1 || exit 1; done | FileCheck %s --check-prefix=REMARK
// RUN: braze-opt --cpu=x86-64-v4 %s --pipeline=cuda-default | FileCheck %s --check-prefix=CUDA
// CHECK-NOT: FAIL
// CHECK: PASS  @after_barrier out0 64xf32
// CHECK: PASS  @after_barrier out1 64xf32
// CHECK: PASS  @other_block out0 128xf32
// CHECK: PASS  @atomic out0 64xf32
// CHECK: PASS  @stored_twice out0 64xf32
// CHECK: check passed
// FUSE-LABEL: user kernels @after_barrier:
// FUSE: arg 1 memref<64xf32>: read written(1 store)
// FUSE: output arg 1 epilogue 'relu': refused reason=reads-output
// FUSE-LABEL: user kernels @other_block:
// FUSE: output arg 1 epilogue 'relu': refused reason=reads-output
// FUSE-LABEL: user kernels @atomic:
// FUSE: arg 1 memref<64xf32>: written(1 store) atomic
// FUSE: output arg 1 epilogue 'relu': refused reason=atomic-output
// FUSE-LABEL: user kernels @stored_twice:
// FUSE: arg 1 memref<64xf32>: written(2 stores)
// FUSE: output arg 1 epilogue 'relu': fused
// REMARK: remark: explain: user kernel @reverse_reads output arg 1 and 'relu' not fused: reads-output
// REMARK: remark: explain: user kernel @peek_other_block output arg 1 and 'relu' not fused: reads-output
// REMARK: remark: explain: user kernel @shift_atomic output arg 1 and 'relu' not fused: atomic-output
// REMARK: remark: explain: user kernel @store_twice output arg 1 and 'relu' fused into cuda_ext_fused_store_twice_relu_{{[0-9]+}}
// CUDA-LABEL: func.func @after_barrier(
// CUDA: gpu.launch_func @braze_kernels::@cuda_ext_fused_reverse_reads_{{[0-9]+}}
// CUDA-NEXT: gpu.launch_func @braze_kernels::@cuda_poi_fused_relu_{{[0-9]+}}
// CUDA-LABEL: func.func @other_block(
// CUDA: gpu.launch_func @braze_kernels::@cuda_ext_fused_peek_other_block_{{[0-9]+}}
// CUDA-NEXT: gpu.launch_func @braze_kernels::@cuda_poi_fused_relu_{{[0-9]+}}
// CUDA-LABEL: func.func @atomic(
// CUDA: gpu.launch_func @braze_kernels::@cuda_ext_fused_shift_atomic_{{[0-9]+}}
// CUDA-NEXT: gpu.launch_func @braze_kernels::@cuda_poi_fused_relu_{{[0-9]+}}
// CUDA-LABEL: func.func @stored_twice(
// CUDA: gpu.launch_func @braze_kernels::@cuda_ext_fused_store_twice_relu_{{[0-9]+}}
// CUDA-NOT: gpu.launch_func
// CUDA: return
// CUDA-LABEL: gpu.func @cuda_ext_fused_store_twice_relu_
// CUDA: arith.maximumf
// CUDA: memref.store
// CUDA: arith.maximumf
// CUDA: memref.store

// out[t] = x[t]; after the barrier side[t] = out[63 - t] + x[t] (another thread's element).
func.func private @reverse_reads(%x: memref<64xf32>, %out: memref<64xf32>, %side: memref<64xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 64>}} {
  %c63 = arith.constant 63 : index
  %t = gpu.thread_id x
  %v = memref.load %x[%t] : memref<64xf32>
  memref.store %v, %out[%t] : memref<64xf32>
  gpu.barrier
  %r = arith.subi %c63, %t : index
  %w = memref.load %out[%r] : memref<64xf32>
  %keep = arith.addf %w, %v : f32
  memref.store %keep, %side[%t] : memref<64xf32>
  return
}

// out[b, t] = 2 x; a thread of block 1 would copy block 0's element when x > 1e30 (never
// for these inputs, so the result does not depend on the order of the blocks).
func.func private @peek_other_block(%x: memref<128xf32>, %out: memref<128xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 2>, block = array<i64: 64>}} {
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %two = arith.constant 2.0 : f32
  %huge = arith.constant 1.0e30 : f32
  %t = gpu.thread_id x
  %b = gpu.block_id x
  %o = arith.muli %b, %c64 : index
  %g = arith.addi %o, %t : index
  %v = memref.load %x[%g] : memref<128xf32>
  %d = arith.mulf %v, %two : f32
  memref.store %d, %out[%g] : memref<128xf32>
  %big = arith.cmpf ogt, %v, %huge : f32
  scf.if %big {
    %s = arith.addi %g, %c64 : index
    %other = arith.remui %s, %c128 : index
    %w = memref.load %out[%other] : memref<128xf32>
    memref.store %w, %out[%g] : memref<128xf32>
  }
  return
}

// out[t] = 0; after the barrier out[(t + 1) mod 64] += x[t] atomically.
func.func private @shift_atomic(%x: memref<64xf32>, %out: memref<64xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 64>}} {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %t = gpu.thread_id x
  memref.store %zero, %out[%t] : memref<64xf32>
  gpu.barrier
  %v = memref.load %x[%t] : memref<64xf32>
  %n = arith.addi %t, %c1 : index
  %i = arith.remui %n, %c64 : index
  %old = memref.atomic_rmw addf %v, %out[%i] : (f32, memref<64xf32>) -> f32
  return
}

// out[t] = x, then out[t] = 3 x - 1 (the same thread, the same element).
func.func private @store_twice(%x: memref<64xf32>, %out: memref<64xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 64>}} {
  %three = arith.constant 3.0 : f32
  %one = arith.constant 1.0 : f32
  %t = gpu.thread_id x
  %v = memref.load %x[%t] : memref<64xf32>
  memref.store %v, %out[%t] : memref<64xf32>
  %m = arith.mulf %v, %three : f32
  %y = arith.subf %m, %one : f32
  memref.store %y, %out[%t] : memref<64xf32>
  return
}

func.func @after_barrier(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %xb = bufferization.to_buffer %x : tensor<64xf32> to memref<64xf32>
  %o = memref.alloc() : memref<64xf32>
  %side = memref.alloc() : memref<64xf32>
  func.call @reverse_reads(%xb, %o, %side) : (memref<64xf32>, memref<64xf32>, memref<64xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<64xf32> to tensor<64xf32>
  %s = bufferization.to_tensor %side : memref<64xf32> to tensor<64xf32>
  %y = "graph.relu"(%r) : (tensor<64xf32>) -> tensor<64xf32>
  return %y, %s : tensor<64xf32>, tensor<64xf32>
}

func.func @other_block(%x: tensor<128xf32>) -> tensor<128xf32> {
  %xb = bufferization.to_buffer %x : tensor<128xf32> to memref<128xf32>
  %o = memref.alloc() : memref<128xf32>
  func.call @peek_other_block(%xb, %o) : (memref<128xf32>, memref<128xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<128xf32> to tensor<128xf32>
  %y = "graph.relu"(%r) : (tensor<128xf32>) -> tensor<128xf32>
  return %y : tensor<128xf32>
}

func.func @atomic(%x: tensor<64xf32>) -> tensor<64xf32> {
  %xb = bufferization.to_buffer %x : tensor<64xf32> to memref<64xf32>
  %o = memref.alloc() : memref<64xf32>
  func.call @shift_atomic(%xb, %o) : (memref<64xf32>, memref<64xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<64xf32> to tensor<64xf32>
  %y = "graph.relu"(%r) : (tensor<64xf32>) -> tensor<64xf32>
  return %y : tensor<64xf32>
}

func.func @stored_twice(%x: tensor<64xf32>) -> tensor<64xf32> {
  %xb = bufferization.to_buffer %x : tensor<64xf32> to memref<64xf32>
  %o = memref.alloc() : memref<64xf32>
  func.call @store_twice(%xb, %o) : (memref<64xf32>, memref<64xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<64xf32> to tensor<64xf32>
  %y = "graph.relu"(%r) : (tensor<64xf32>) -> tensor<64xf32>
  return %y : tensor<64xf32>
}
