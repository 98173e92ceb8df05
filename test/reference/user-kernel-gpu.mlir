// The reference interpreter on GPU-form user kernels (braze.gpu_launch, decision 0027):
// gpu.shuffle in every mode with widths under 32 and a partial second warp (a block of
// 40 threads: warp 1 has 8 lanes), thread and block ids in 3 dimensions; barrier
// divergence, a warp split between a shuffle and a barrier, and an out-of-bounds
// workgroup store are errors at the op with a note at the call.
// RUN: rm -rf %t && mkdir -p %t
// RUN: braze run %s --func shuffles --save-outputs %t/shuffles --quiet
// RUN: %python %S/Inputs/gpu-shuffles.py %t/shuffles/out0.npy
// RUN: braze run %s --func ids --print 12 | FileCheck %s --check-prefix=IDS
// RUN: not braze run %s --func diverge 2>&1 | FileCheck %s --check-prefix=DIVERGE
// RUN: not braze run %s --func split_warp 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: not braze run %s --func oob 2>&1 | FileCheck %s --check-prefix=OOB
// RUN: not braze run %s --func nested 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: not braze run %s --func parallel 2>&1 | FileCheck %s --check-prefix=PARALLEL

// Rows: down 3 width 8, up 2 width 32, xor 1 width 32, idx 5 width 32; the source
// lane's id + 1000 when valid, else the thread's own id (Inputs/gpu-shuffles.py).
func.func private @shuffle_modes(%out: memref<4x40xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 40>}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %i1 = arith.constant 1 : i32
  %i2 = arith.constant 2 : i32
  %i3 = arith.constant 3 : i32
  %i5 = arith.constant 5 : i32
  %w8 = arith.constant 8 : i32
  %w32 = arith.constant 32 : i32
  %k = arith.constant 1000.0 : f32
  %t = gpu.thread_id x
  %ti = arith.index_cast %t : index to i32
  %v = arith.sitofp %ti : i32 to f32
  %vk = arith.addf %v, %k : f32
  %d, %dv = gpu.shuffle down %vk, %i3, %w8 : f32
  %u, %uv = gpu.shuffle up %vk, %i2, %w32 : f32
  %x, %xv = gpu.shuffle xor %vk, %i1, %w32 : f32
  %n, %nv = gpu.shuffle idx %vk, %i5, %w32 : f32
  %d2 = arith.select %dv, %d, %v : f32
  %u2 = arith.select %uv, %u, %v : f32
  %x2 = arith.select %xv, %x, %v : f32
  %n2 = arith.select %nv, %n, %v : f32
  memref.store %d2, %out[%c0, %t] : memref<4x40xf32>
  memref.store %u2, %out[%c1, %t] : memref<4x40xf32>
  memref.store %x2, %out[%c2, %t] : memref<4x40xf32>
  memref.store %n2, %out[%c3, %t] : memref<4x40xf32>
  return
}

func.func @shuffles() -> tensor<4x40xf32> {
  %o = memref.alloc() : memref<4x40xf32>
  func.call @shuffle_modes(%o) : (memref<4x40xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<4x40xf32> to tensor<4x40xf32>
  return %r : tensor<4x40xf32>
}

// out[bz, by, bx, tz, ty, tx] = the linear id of the thread (tx + 2 * (ty + 3 * tz))
// + 100 * (block_dim x + grid_dim y) on a 2x1x2 grid of 2x3x2 blocks.
// IDS: out0: tensor<2x1x2x2x3x2xf32>
// IDS-NEXT: [300, 301, 302, 303, 304, 305, 306, 307, 308, 309, 310, 311, ...]
func.func private @write_ids(%out: memref<2x1x2x2x3x2xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 2, 1, 2>, block = array<i64: 2, 3, 2>}} {
  %tx = gpu.thread_id x
  %ty = gpu.thread_id y
  %tz = gpu.thread_id z
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %bz = gpu.block_id z
  %dx = gpu.block_dim x
  %gy = gpu.grid_dim y
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c100 = arith.constant 100 : index
  %a = arith.muli %tz, %c3 : index
  %b = arith.addi %a, %ty : index
  %c = arith.muli %b, %c2 : index
  %lin = arith.addi %c, %tx : index
  %e = arith.addi %dx, %gy : index
  %f = arith.muli %e, %c100 : index
  %g = arith.addi %lin, %f : index
  %gi = arith.index_cast %g : index to i32
  %gf = arith.sitofp %gi : i32 to f32
  memref.store %gf, %out[%bz, %by, %bx, %tz, %ty, %tx] : memref<2x1x2x2x3x2xf32>
  return
}

func.func @ids() -> tensor<2x1x2x2x3x2xf32> {
  %o = memref.alloc() : memref<2x1x2x2x3x2xf32>
  func.call @write_ids(%o) : (memref<2x1x2x2x3x2xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<2x1x2x2x3x2xf32> to tensor<2x1x2x2x3x2xf32>
  return %r : tensor<2x1x2x2x3x2xf32>
}

// Threads 0..31 wait at a barrier that threads 32..63 never reach.
func.func private @half_barrier(%out: memref<64xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 64>}} {
  %c32 = arith.constant 32 : index
  %t = gpu.thread_id x
  %low = arith.cmpi ult, %t, %c32 : index
  scf.if %low {
    // DIVERGE: user-kernel-gpu.mlir:[[@LINE+1]]:5: error: reference: gpu.barrier: barrier divergence in user kernel @half_barrier block (0,0,0): thread 0 waits at this gpu.barrier but thread 32 has returned
    gpu.barrier
  }
  return
}

func.func @diverge() -> tensor<64xf32> {
  %o = memref.alloc() : memref<64xf32>
  // DIVERGE: user-kernel-gpu.mlir:[[@LINE+1]]:3: note: called from here (@half_barrier)
  func.call @half_barrier(%o) : (memref<64xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<64xf32> to tensor<64xf32>
  return %r : tensor<64xf32>
}

// Half a warp shuffles while the other half waits at a barrier.
func.func private @split(%out: memref<32xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 32>}} {
  %c16 = arith.constant 16 : index
  %i1 = arith.constant 1 : i32
  %w = arith.constant 32 : i32
  %z = arith.constant 0.0 : f32
  %t = gpu.thread_id x
  %low = arith.cmpi ult, %t, %c16 : index
  scf.if %low {
    // SPLIT: user-kernel-gpu.mlir:[[@LINE+1]]:15: error: reference: gpu.shuffle: warp divergence in user kernel @split block (0,0,0): thread 0 waits at this gpu.shuffle while thread 16 of its warp waits at a gpu.barrier
    %s, %ok = gpu.shuffle xor %z, %i1, %w : f32
    memref.store %s, %out[%t] : memref<32xf32>
  } else {
    gpu.barrier
  }
  return
}

func.func @split_warp() -> tensor<32xf32> {
  %o = memref.alloc() : memref<32xf32>
  func.call @split(%o) : (memref<32xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<32xf32> to tensor<32xf32>
  return %r : tensor<32xf32>
}

// A workgroup buffer of 4 written by 8 threads.
func.func private @past_shared(%out: memref<8xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 8>}} {
  %sm = memref.alloca() : memref<4xf32, #gpu.address_space<workgroup>>
  %z = arith.constant 0.0 : f32
  %t = gpu.thread_id x
  // OOB: user-kernel-gpu.mlir:[[@LINE+1]]:3: error: reference: memref.store: index 4 out of bounds for dimension 0 of 4xf32 in user kernel @past_shared
  memref.store %z, %sm[%t] : memref<4xf32, #gpu.address_space<workgroup>>
  return
}

func.func @oob() -> tensor<8xf32> {
  %o = memref.alloc() : memref<8xf32>
  // OOB: user-kernel-gpu.mlir:[[@LINE+1]]:3: note: called from here (@past_shared)
  func.call @past_shared(%o) : (memref<8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<8xf32> to tensor<8xf32>
  return %r : tensor<8xf32>
}

// A GPU-form kernel calling another one.
func.func private @inner_gpu(%out: memref<8xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 8>}} {
  return
}
func.func private @outer_gpu(%out: memref<8xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 2>}} {
  // NESTED: user-kernel-gpu.mlir:[[@LINE+1]]:3: error: reference: func.call: GPU-form user kernel @inner_gpu is called from a GPU-form user kernel (a launch inside a thread is not supported)
  func.call @inner_gpu(%out) : (memref<8xf32>) -> ()
  return
}

func.func @nested() -> tensor<8xf32> {
  %o = memref.alloc() : memref<8xf32>
  // NESTED: user-kernel-gpu.mlir:[[@LINE+1]]:3: note: called from here (@outer_gpu)
  func.call @outer_gpu(%o) : (memref<8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<8xf32> to tensor<8xf32>
  return %r : tensor<8xf32>
}

// The interpreter checks what it relies on without user-kernel-analysis: no
// scf.parallel in a GPU-form body.
func.func private @gpu_with_parallel(%out: memref<8xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 2>}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %z = arith.constant 0.0 : f32
  // PARALLEL: user-kernel-gpu.mlir:[[@LINE+1]]:3: error: reference: scf.parallel: scf.parallel is not allowed in GPU-form user kernel @gpu_with_parallel (the threads are the parallelism)
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    memref.store %z, %out[%i] : memref<8xf32>
    scf.reduce
  }
  return
}

func.func @parallel() -> tensor<8xf32> {
  %o = memref.alloc() : memref<8xf32>
  func.call @gpu_with_parallel(%o) : (memref<8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<8xf32> to tensor<8xf32>
  return %r : tensor<8xf32>
}
