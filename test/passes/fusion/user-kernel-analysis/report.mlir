// user-kernel-analysis: per memref argument of each user kernel, whether it is read,
// written (its store sites: scalar, vector, masked), written atomically, or escapes
// (the first op that lets it escape); functions without braze.user_kernel are not
// looked at.
// RUN: braze-opt --cpu=x86-64-v4 %s --user-kernel-analysis=report -o /dev/null 2>&1 | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --user-kernel-analysis=report=%t.txt -o /dev/null && FileCheck %s < %t.txt
// RUN: braze-opt --cpu=x86-64-v4 %s --user-kernel-analysis | FileCheck %s --check-prefix=SAME

// CHECK-LABEL: user kernel @plain
// CHECK-NEXT:   arg 0 memref<4x8xf32>: read
// CHECK-NEXT:   arg 1 memref<8xf32>: read
// CHECK-NEXT:   arg 2 memref<4x8xf32>: written(2 stores)
// CHECK-NEXT:   arg 3 memref<4xf32>: unused
// SAME: func.func private @plain(
func.func private @plain(%x: memref<4x8xf32>, %b: memref<8xf32>, %out: memref<4x8xf32>, %unused: memref<4xf32>)
    attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %x[%i, %j] : memref<4x8xf32>
      %w = memref.load %b[%j] : memref<8xf32>
      %p = arith.cmpf ogt, %v, %zero : f32
      scf.if %p {
        %s = arith.addf %v, %w : f32
        memref.store %s, %out[%i, %j] : memref<4x8xf32>
      } else {
        memref.store %zero, %out[%i, %j] : memref<4x8xf32>
      }
    }
    scf.reduce
  }
  return
}

// CHECK-LABEL: user kernel @vectors
// CHECK-NEXT:   arg 0 memref<4x8xf32>: read
// CHECK-NEXT:   arg 1 memref<4x8xf32>: written(2 stores, 1 vector, 1 masked)
func.func private @vectors(%x: memref<4x8xf32>, %out: memref<4x8xf32>) attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %m = vector.constant_mask [4] : vector<8xi1>
  scf.for %i = %c0 to %c4 step %c1 {
    %v = vector.load %x[%i, %c0] : memref<4x8xf32>, vector<8xf32>
    vector.store %v, %out[%i, %c0] : memref<4x8xf32>, vector<8xf32>
    vector.maskedstore %out[%i, %c0], %m, %v : memref<4x8xf32>, vector<8xi1>, vector<8xf32>
  }
  return
}

// CHECK-LABEL: user kernel @accumulate
// CHECK-NEXT:   arg 0 memref<4x8xf32>: read
// CHECK-NEXT:   arg 1 memref<4xf32>: read written(1 store) atomic
func.func private @accumulate(%x: memref<4x8xf32>, %out: memref<4xf32>) attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c8) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<4x8xf32>
    %old = memref.atomic_rmw addf %v, %out[%i] : (f32, memref<4xf32>) -> f32
    scf.reduce
  }
  %r = memref.load %out[%c0] : memref<4xf32>
  %d = arith.mulf %r, %r : f32
  memref.store %d, %out[%c0] : memref<4xf32>
  return
}

// CHECK-LABEL: user kernel @escapes
// CHECK-NEXT:   arg 0 memref<4x8xf32>: escapes(memref.subview)
// CHECK-NEXT:   arg 1 memref<4x8xf32>: escapes(func.call)
func.func private @escapes(%x: memref<4x8xf32>, %out: memref<4x8xf32>) attributes {braze.user_kernel} {
  %s = memref.subview %x[0, 0] [2, 8] [1, 1] : memref<4x8xf32> to memref<2x8xf32, strided<[8, 1]>>
  func.call @plain_helper(%out) : (memref<4x8xf32>) -> ()
  return
}

// Not a user kernel: not analysed.
// CHECK-NOT: @plain_helper
func.func private @plain_helper(%out: memref<4x8xf32>) {
  return
}

// GPU form (decision 0027): the same per-argument analysis over every thread;
// workgroup buffers are not arguments and are not listed.
// CHECK-LABEL: user kernel @gpu_hist
// CHECK-NEXT:   arg 0 memref<64xi32>: read
// CHECK-NEXT:   arg 1 memref<4xi32>: atomic
// SAME: func.func private @gpu_hist(
func.func private @gpu_hist(%x: memref<64xi32>, %hist: memref<4xi32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 64>}} {
  %local = memref.alloca() : memref<4xi32, #gpu.address_space<workgroup>>
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %three = arith.constant 3 : i32
  %t = gpu.thread_id x
  %mine = arith.cmpi ult, %t, %c4 : index
  scf.if %mine {
    memref.store %zero, %local[%t] : memref<4xi32, #gpu.address_space<workgroup>>
  }
  gpu.barrier
  %v = memref.load %x[%t] : memref<64xi32>
  %b32 = arith.andi %v, %three : i32
  %b = arith.index_cast %b32 : i32 to index
  %o = memref.atomic_rmw addi %one, %local[%b] : (i32, memref<4xi32, #gpu.address_space<workgroup>>) -> i32
  gpu.barrier
  scf.if %mine {
    %n = memref.load %local[%t] : memref<4xi32, #gpu.address_space<workgroup>>
    %g = memref.atomic_rmw addi %n, %hist[%t] : (i32, memref<4xi32>) -> i32
  }
  return
}
