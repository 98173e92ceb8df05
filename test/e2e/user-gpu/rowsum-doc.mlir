// The GPU-form example of docs/user-kernels.md: a row sum with one block per row and a
// shared-memory tree reduction (barriers in a loop), then a graph relu; evaluated by
// the reference interpreter against numpy, and the relu fused into the store.
// On the CPU against the reference, fused and with the epilogue refused:
// RUN: braze check %s --target=cpu --seed 31 | FileCheck %s --check-prefix=CPU
// RUN: braze check %s --target=cpu --seed 32 --pipeline=cpu-no-user-epilogue | FileCheck %s --check-prefix=CPU
// CPU-NOT: FAIL
// CPU: PASS  @model out0 64xf32
// CPU: check passed
// RUN: rm -rf %t && mkdir -p %t
// RUN: braze run %s --target=reference --seed 7 --save-inputs %t/in --save-outputs %t/out --quiet
// RUN: %python %S/Inputs/check.py rowsum %t/in %t/out
// RUN: braze-opt --cpu=x86-64-v4 %s --user-kernel-analysis --graph-decompose --graph-to-loops --inline-unrealized --form-kernels=report -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUSE
// FUSE: output arg 1 epilogue 'relu': fused

// out[r] = sum of row r: one block per row, a shared-memory tree reduction.
func.func private @rowsum(%x: memref<64x256xf32>, %out: memref<64xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 64>, block = array<i64: 256>}} {
  %sm = memref.alloca() : memref<256xf32, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  %t = gpu.thread_id x
  %b = gpu.block_id x
  %v = memref.load %x[%b, %t] : memref<64x256xf32>
  memref.store %v, %sm[%t] : memref<256xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  scf.for %k = %c0 to %c8 step %c1 {          // strides 128, 64, ..., 1
    %s = arith.shrui %c128, %k : index
    %low = arith.cmpi ult, %t, %s : index
    scf.if %low {
      %o = arith.addi %t, %s : index
      %a = memref.load %sm[%t] : memref<256xf32, #gpu.address_space<workgroup>>
      %c = memref.load %sm[%o] : memref<256xf32, #gpu.address_space<workgroup>>
      %r = arith.addf %a, %c : f32
      memref.store %r, %sm[%t] : memref<256xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
  }
  %first = arith.cmpi eq, %t, %c0 : index
  scf.if %first {
    %r = memref.load %sm[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
    memref.store %r, %out[%b] : memref<64xf32>
  }
  return
}

func.func @model(%x: tensor<64x256xf32>) -> tensor<64xf32> {
  %xb = bufferization.to_buffer %x : tensor<64x256xf32> to memref<64x256xf32>
  %o = memref.alloc() : memref<64xf32>
  func.call @rowsum(%xb, %o) : (memref<64x256xf32>, memref<64xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<64xf32> to tensor<64xf32>
  %y = "graph.relu"(%r) : (tensor<64xf32>) -> tensor<64xf32>
  return %y : tensor<64xf32>
}
