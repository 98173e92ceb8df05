// GPU-form user kernel (decision 0027): a histogram of 1024 values in [-8, 8] on 4
// blocks of 256 threads: each block zeroes a workgroup histogram, counts into it with
// memref.atomic_rmw addi, then adds it into the global one atomically. The output is
// pre-initialized (a copy of zeros before the call); the graph doubles it afterwards,
// which form-kernels refuses to fuse (atomic-output: the final count is known only at
// the end). Evaluated by the reference interpreter and compared with numpy.
// On the CPU against the reference, fused and with the epilogue refused:
// RUN: braze check %s --target=cpu --seed 31 | FileCheck %s --check-prefix=CPU
// RUN: braze check %s --target=cpu --seed 32 --pipeline=cpu-no-user-epilogue | FileCheck %s --check-prefix=CPU
// CPU-NOT: FAIL
// CPU: PASS  @model out0 17xi32
// CPU: check passed
// RUN: rm -rf %t && mkdir -p %t
// RUN: braze run %s --target=reference --seed 5 --save-inputs %t/in --save-outputs %t/out --quiet
// RUN: %python %S/Inputs/check.py histogram %t/in %t/out
// RUN: braze-opt --cpu=x86-64-v4 %s --user-kernel-analysis --graph-decompose --graph-to-loops --inline-unrealized --form-kernels=report -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUSE
// FUSE: user kernels @model:
// FUSE: arg 0 memref<1024xi32>: read
// FUSE: arg 1 memref<17xi32>: atomic
// FUSE: output arg 1 epilogue 'mul': refused reason=atomic-output

func.func private @histogram(%x: memref<1024xi32>, %hist: memref<17xi32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 4>, block = array<i64: 256>}} {
  %local = memref.alloca() : memref<17xi32, #gpu.address_space<workgroup>>
  %c17 = arith.constant 17 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %eight = arith.constant 8 : i32
  %t = gpu.thread_id x
  %b = gpu.block_id x
  %mine = arith.cmpi ult, %t, %c17 : index
  scf.if %mine {
    memref.store %zero, %local[%t] : memref<17xi32, #gpu.address_space<workgroup>>
  }
  gpu.barrier
  %base = arith.muli %b, %c256 : index
  %i = arith.addi %base, %t : index
  %v = memref.load %x[%i] : memref<1024xi32>
  %bin32 = arith.addi %v, %eight : i32
  %bin = arith.index_cast %bin32 : i32 to index
  %old = memref.atomic_rmw addi %one, %local[%bin] : (i32, memref<17xi32, #gpu.address_space<workgroup>>) -> i32
  gpu.barrier
  scf.if %mine {
    %n = memref.load %local[%t] : memref<17xi32, #gpu.address_space<workgroup>>
    %g = memref.atomic_rmw addi %n, %hist[%t] : (i32, memref<17xi32>) -> i32
  }
  return
}

func.func @model(%x: tensor<1024xi32>) -> tensor<17xi32> {
  %xb = bufferization.to_buffer %x : tensor<1024xi32> to memref<1024xi32>
  %zeros = "graph.constant"() {value = dense<0> : tensor<17xi32>} : () -> tensor<17xi32>
  %zb = bufferization.to_buffer %zeros : tensor<17xi32> to memref<17xi32>
  %o = memref.alloc() : memref<17xi32>
  memref.copy %zb, %o : memref<17xi32> to memref<17xi32>
  func.call @histogram(%xb, %o) : (memref<1024xi32>, memref<17xi32>) -> ()
  %r = bufferization.to_tensor %o : memref<17xi32> to tensor<17xi32>
  %two = "graph.constant"() {value = dense<2> : tensor<17xi32>} : () -> tensor<17xi32>
  %y = "graph.mul"(%r, %two) : (tensor<17xi32>, tensor<17xi32>) -> tensor<17xi32>
  return %y : tensor<17xi32>
}
