// User-kernel epilogue fusion of GPU-form kernels (braze.gpu_launch, decision 0027):
// the same legality as the scf.parallel form, over every thread: the output read by
// any thread (even after a barrier) is reads-output, written atomically is
// atomic-output, copied from workgroup memory is escaping-output. A value staged
// through workgroup memory and then stored to the output is fused: the epilogue goes on
// the store to the output, whatever the stored value went through. The copy keeps
// braze.gpu_launch, the workgroup buffer and the barrier.
// RUN: braze-opt --cpu=x86-64-v4 %s --user-kernel-analysis --graph-decompose --graph-to-loops --inline-unrealized --form-kernels=report -o /dev/null 2>&1 | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose --graph-to-loops --inline-unrealized '--form-kernels=explain=reverse_reads,relu' -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose --graph-to-loops --inline-unrealized --form-kernels | FileCheck %s --check-prefix=IR

// CHECK-LABEL: user kernels @staged:
// CHECK: call @reverse -> {{.*}} (calls @reverse_epilogue_0)
// CHECK: arg 1 memref<64xf32>: written(1 store)
// CHECK: output arg 1 epilogue 'relu': fused
// CHECK-LABEL: user kernels @reads:
// CHECK: arg 1 memref<64xf32>: read written(1 store)
// CHECK: output arg 1 epilogue 'relu': refused reason=reads-output
// CHECK-LABEL: user kernels @atomic:
// CHECK: arg 1 memref<64xf32>: atomic
// CHECK: output arg 1 epilogue 'relu': refused reason=atomic-output
// CHECK-LABEL: user kernels @copied:
// CHECK: arg 1 memref<64xf32>: escapes(memref.copy)
// CHECK: output arg 1 epilogue 'relu': refused reason=escaping-output

// EXPLAIN: remark: explain: user kernel @reverse_reads output arg 1 and 'relu' not fused: reads-output

// IR-LABEL: func.func private @reverse_epilogue_0(
// IR-SAME: braze.gpu_launch = {block = array<i64: 64>, grid = array<i64: 1>}, braze.user_epilogue_of = @reverse
// IR: memref.alloca() : memref<64xf32, #gpu.address_space<workgroup>>
// IR: gpu.barrier
// IR: arith.maximumf
// IR-NEXT: memref.store {{.*}} : memref<64xf32>

// out[t] = x[63 - t], staged through workgroup memory (thread t writes sm[t], reads
// sm[63 - t] after the barrier).
func.func private @reverse(%x: memref<64xf32>, %out: memref<64xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 64>}} {
  %sm = memref.alloca() : memref<64xf32, #gpu.address_space<workgroup>>
  %c63 = arith.constant 63 : index
  %t = gpu.thread_id x
  %v = memref.load %x[%t] : memref<64xf32>
  memref.store %v, %sm[%t] : memref<64xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %r = arith.subi %c63, %t : index
  %w = memref.load %sm[%r] : memref<64xf32, #gpu.address_space<workgroup>>
  memref.store %w, %out[%t] : memref<64xf32>
  return
}

// Each thread writes out[t], then after the barrier reads another thread's (into side).
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

func.func private @accumulate(%x: memref<64xf32>, %out: memref<64xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 2>, block = array<i64: 64>}} {
  %t = gpu.thread_id x
  %v = memref.load %x[%t] : memref<64xf32>
  %old = memref.atomic_rmw addf %v, %out[%t] : (f32, memref<64xf32>) -> f32
  return
}

func.func private @copy_out(%x: memref<64xf32>, %out: memref<64xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 64>}} {
  %sm = memref.alloca() : memref<64xf32, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x
  %v = memref.load %x[%t] : memref<64xf32>
  memref.store %v, %sm[%t] : memref<64xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  memref.copy %sm, %out : memref<64xf32, #gpu.address_space<workgroup>> to memref<64xf32>
  return
}

func.func @staged(%x: tensor<64xf32>) -> tensor<64xf32> {
  %xb = bufferization.to_buffer %x : tensor<64xf32> to memref<64xf32>
  %o = memref.alloc() : memref<64xf32>
  func.call @reverse(%xb, %o) : (memref<64xf32>, memref<64xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<64xf32> to tensor<64xf32>
  %y = "graph.relu"(%r) : (tensor<64xf32>) -> tensor<64xf32>
  return %y : tensor<64xf32>
}

func.func @reads(%x: tensor<64xf32>) -> tensor<64xf32> {
  %xb = bufferization.to_buffer %x : tensor<64xf32> to memref<64xf32>
  %o = memref.alloc() : memref<64xf32>
  %side = memref.alloc() : memref<64xf32>
  func.call @reverse_reads(%xb, %o, %side) : (memref<64xf32>, memref<64xf32>, memref<64xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<64xf32> to tensor<64xf32>
  %y = "graph.relu"(%r) : (tensor<64xf32>) -> tensor<64xf32>
  return %y : tensor<64xf32>
}

func.func @atomic(%x: tensor<64xf32>) -> tensor<64xf32> {
  %xb = bufferization.to_buffer %x : tensor<64xf32> to memref<64xf32>
  %o = memref.alloc() : memref<64xf32>
  func.call @accumulate(%xb, %o) : (memref<64xf32>, memref<64xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<64xf32> to tensor<64xf32>
  %y = "graph.relu"(%r) : (tensor<64xf32>) -> tensor<64xf32>
  return %y : tensor<64xf32>
}

func.func @copied(%x: tensor<64xf32>) -> tensor<64xf32> {
  %xb = bufferization.to_buffer %x : tensor<64xf32> to memref<64xf32>
  %o = memref.alloc() : memref<64xf32>
  func.call @copy_out(%xb, %o) : (memref<64xf32>, memref<64xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<64xf32> to tensor<64xf32>
  %y = "graph.relu"(%r) : (tensor<64xf32>) -> tensor<64xf32>
  return %y : tensor<64xf32>
}
