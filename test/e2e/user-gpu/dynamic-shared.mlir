// GPU-form user kernels on dynamic shared memory (docs/user-kernels.md, "Dynamic shared
// memory"): braze.gpu_launch's shared_bytes sizes it, gpu.dynamic_shared_memory gives
// its bytes, memref.view cuts disjoint typed buffers out of them (one per block).
// @sums: per row of 8x256, sum(x) and sum(x^2) by two shared-memory trees in two views
// (a memref<?xf32> of 256 at byte 0 and a memref<256xf32> at byte 1024), out = sum +
// sumsq, then a graph relu (fused). @reverse: a row of 16384 staged through 64 KiB of
// dynamic shared memory (past the 48 KiB of static shared memory), read back reversed,
// then a graph bias add (fused). Both on the reference against numpy, and on the CPU
// against the reference, fused and unfused.
// RUN: rm -rf %t && mkdir -p %t
// RUN: braze run %s --target=reference --seed 7 --func sums_relu --save-inputs %t/in --save-outputs %t/out --quiet
// RUN: %python %S/Inputs/check.py dyn_sums %t/in %t/out
// RUN: braze run %s --target=reference --seed 8 --func reverse_bias --save-inputs %t/inr --save-outputs %t/outr --quiet
// RUN: %python %S/Inputs/check.py dyn_reverse %t/inr %t/outr
// RUN: braze check %s --target=cpu --seed 9 | FileCheck %s --check-prefix=CPU
// RUN: braze check %s --target=cpu --seed 10 --pipeline=cpu-no-user-epilogue | FileCheck %s --check-prefix=CPU
// RUN: braze-opt --cpu=x86-64-v4 %s --user-kernel-analysis --graph-to-loops --inline-unrealized --form-kernels=report -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUSE
// CPU: PASS  @sums_relu out0 8xf32
// CPU: PASS  @reverse_bias out0 4x16384xf32
// CPU: check passed
// FUSE: user kernels @sums_relu:
// FUSE: output arg 1 epilogue 'relu': fused
// FUSE: user kernels @reverse_bias:
// FUSE: output arg 1 epilogue 'add': fused

func.func private @sums(%x: memref<8x256xf32>, %out: memref<8xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 8>, block = array<i64: 256>, shared_bytes = 2048 : i64}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %c1024 = arith.constant 1024 : index
  %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
  %s = memref.view %dyn[%c0][%c256] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xf32, #gpu.address_space<workgroup>>
  %q = memref.view %dyn[%c1024][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x
  %b = gpu.block_id x
  %v = memref.load %x[%b, %t] : memref<8x256xf32>
  %v2 = arith.mulf %v, %v : f32
  memref.store %v, %s[%t] : memref<?xf32, #gpu.address_space<workgroup>>
  memref.store %v2, %q[%t] : memref<256xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  scf.for %k = %c0 to %c8 step %c1 {
    %st = arith.shrui %c128, %k : index
    %low = arith.cmpi ult, %t, %st : index
    scf.if %low {
      %o = arith.addi %t, %st : index
      %a = memref.load %s[%t] : memref<?xf32, #gpu.address_space<workgroup>>
      %c = memref.load %s[%o] : memref<?xf32, #gpu.address_space<workgroup>>
      %r = arith.addf %a, %c : f32
      memref.store %r, %s[%t] : memref<?xf32, #gpu.address_space<workgroup>>
      %a2 = memref.load %q[%t] : memref<256xf32, #gpu.address_space<workgroup>>
      %c2 = memref.load %q[%o] : memref<256xf32, #gpu.address_space<workgroup>>
      %r2 = arith.addf %a2, %c2 : f32
      memref.store %r2, %q[%t] : memref<256xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
  }
  %first = arith.cmpi eq, %t, %c0 : index
  scf.if %first {
    %r = memref.load %s[%c0] : memref<?xf32, #gpu.address_space<workgroup>>
    %r2 = memref.load %q[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
    %y = arith.addf %r, %r2 : f32
    memref.store %y, %out[%b] : memref<8xf32>
  }
  return
}

func.func @sums_relu(%x: tensor<8x256xf32>) -> tensor<8xf32> {
  %xb = bufferization.to_buffer %x : tensor<8x256xf32> to memref<8x256xf32>
  %o = memref.alloc() : memref<8xf32>
  func.call @sums(%xb, %o) : (memref<8x256xf32>, memref<8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<8xf32> to tensor<8xf32>
  %y = "graph.relu"(%r) : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

func.func private @reverse(%x: memref<4x16384xf32>, %out: memref<4x16384xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 4>, block = array<i64: 1024>, shared_bytes = 65536 : i64}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c1024 = arith.constant 1024 : index
  %c16383 = arith.constant 16383 : index
  %n = arith.constant 16384 : index
  %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
  %row = memref.view %dyn[%c0][%n] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xf32, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x
  %b = gpu.block_id x
  scf.for %j = %c0 to %c16 step %c1 {
    %j0 = arith.muli %j, %c1024 : index
    %col = arith.addi %j0, %t : index
    %v = memref.load %x[%b, %col] : memref<4x16384xf32>
    memref.store %v, %row[%col] : memref<?xf32, #gpu.address_space<workgroup>>
  }
  gpu.barrier
  scf.for %j = %c0 to %c16 step %c1 {
    %j0 = arith.muli %j, %c1024 : index
    %col = arith.addi %j0, %t : index
    %src = arith.subi %c16383, %col : index
    %v = memref.load %row[%src] : memref<?xf32, #gpu.address_space<workgroup>>
    memref.store %v, %out[%b, %col] : memref<4x16384xf32>
  }
  return
}

func.func @reverse_bias(%x: tensor<4x16384xf32>, %bias: tensor<16384xf32>) -> tensor<4x16384xf32> {
  %xb = bufferization.to_buffer %x : tensor<4x16384xf32> to memref<4x16384xf32>
  %o = memref.alloc() : memref<4x16384xf32>
  func.call @reverse(%xb, %o) : (memref<4x16384xf32>, memref<4x16384xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<4x16384xf32> to tensor<4x16384xf32>
  %y = "graph.add"(%r, %bias) : (tensor<4x16384xf32>, tensor<16384xf32>) -> tensor<4x16384xf32>
  return %y : tensor<4x16384xf32>
}
