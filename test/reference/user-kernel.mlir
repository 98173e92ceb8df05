// The reference interpreter on user kernels (docs/user-kernels.md): scf.for with
// iter_args, scf.parallel, scf.if, memref and vector loads/stores, atomics, integer
// index arithmetic and casts, evaluated in double and rounded on store; an op outside
// the subset or an index out of bounds is an error at the op, with a note at the call.
// RUN: braze run %s --func ok --print 8 | FileCheck %s
// RUN: not braze run %s --func unsupported 2>&1 | FileCheck %s --check-prefix=UNSUP
// RUN: not braze run %s --func out_of_bounds 2>&1 | FileCheck %s --check-prefix=OOB

// x[j] = j (sitofp of an index_cast), out[i] = sum_{j <= i} x[j] (scf.for iter_args), + 100 where i is odd (scf.if on
// remui), then atomically + 1 and the first 4 lanes doubled with a vector load/store.
// x = 0..7: prefix sums 0 1 3 6 10 15 21 28; odd +100; +1; first four * 2.
// CHECK: out0: tensor<8xf32>
// CHECK-NEXT: [2, 204, 8, 214, 11, 116, 22, 129]
func.func private @prefix(%x: memref<8xf32>, %out: memref<8xf32>) attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c0_ = arith.constant 0 : index
  %c1_ = arith.constant 1 : index
  %c8_ = arith.constant 8 : index
  %zero64 = arith.constant 0 : i64
  scf.for %k = %c0_ to %c8_ step %c1_ {
    %ki = arith.index_cast %k : index to i32
    %kf = arith.sitofp %ki : i32 to f32
    memref.store %kf, %x[%k] : memref<8xf32>
  }
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %hundred = arith.constant 100.0 : f32
  %one = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %n = arith.addi %i, %c1 : index
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
      %v = memref.load %x[%j] : memref<8xf32>
      %a = arith.addf %acc, %v : f32
      scf.yield %a : f32
    }
    %odd = arith.remui %i, %c2 : index
    %i64 = arith.index_cast %odd : index to i64
    %c = arith.cmpi ne, %i64, %zero64 : i64
    %r = scf.if %c -> (f32) {
      %b = arith.addf %s, %hundred : f32
      scf.yield %b : f32
    } else {
      scf.yield %s : f32
    }
    memref.store %r, %out[%i] : memref<8xf32>
    %old = memref.atomic_rmw addf %one, %out[%i] : (f32, memref<8xf32>) -> f32
    scf.reduce
  }
  %v4 = vector.load %out[%c0] : memref<8xf32>, vector<4xf32>
  %two = arith.constant dense<2.0> : vector<4xf32>
  %d = arith.mulf %v4, %two : vector<4xf32>
  vector.store %d, %out[%c0] : memref<8xf32>, vector<4xf32>
  return
}

func.func @ok() -> tensor<8xf32> {
  %x = memref.alloc() : memref<8xf32>
  %o = memref.alloc() : memref<8xf32>
  func.call @prefix(%x, %o) : (memref<8xf32>, memref<8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<8xf32> to tensor<8xf32>
  return %r : tensor<8xf32>
}

func.func private @uses_subview(%out: memref<8xf32>) attributes {braze.user_kernel} {
  // UNSUP: user-kernel.mlir:[[@LINE+1]]:8: error: reference: memref.subview: unsupported op in user kernel @uses_subview
  %s = memref.subview %out[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  return
}

func.func @unsupported() -> tensor<8xf32> {
  %o = memref.alloc() : memref<8xf32>
  // UNSUP: user-kernel.mlir:[[@LINE+1]]:3: note: called from here (@uses_subview)
  func.call @uses_subview(%o) : (memref<8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<8xf32> to tensor<8xf32>
  return %r : tensor<8xf32>
}

func.func private @past_end(%out: memref<8xf32>) attributes {braze.user_kernel} {
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  // OOB: user-kernel.mlir:[[@LINE+1]]:3: error: reference: memref.store: index 8 out of bounds for dimension 0 of 8xf32 in user kernel @past_end
  memref.store %one, %out[%c8] : memref<8xf32>
  return
}

func.func @out_of_bounds() -> tensor<8xf32> {
  %o = memref.alloc() : memref<8xf32>
  func.call @past_end(%o) : (memref<8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<8xf32> to tensor<8xf32>
  return %r : tensor<8xf32>
}
