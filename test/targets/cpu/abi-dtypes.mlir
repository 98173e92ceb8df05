// Every ABI dtype, rank 0, and two entries in one library, called through the
// runtime's generic loader (include/braze/runtime.h) with no header.
// RUN: rm -rf %t && mkdir -p %t
// RUN: braze compile %s --pipeline=none -o %t/libdtypes.so
// RUN: FileCheck %s --check-prefix=HDR < %t/dtypes.h
// RUN: clang-22 -std=c11 -Wall -Werror -I%braze_src/include %S/Inputs/load_tables.c %braze_src/runtime/loader.c -o %t/load
// RUN: %t/load %t/libdtypes.so %t/dtypes.h | FileCheck %s

// HDR: int mixed(const int32_t *in0, const int64_t *in1, const bool *in2, const uint16_t *in3, int32_t *out0, uint16_t *out1);
// HDR: in0   f32[]  (1 elements)
// HDR: int scalar(const float *in0, const float *in1, float *out0);
// HDR: int wide(const double *in0, double *out0);
// HDR: int narrow(const int8_t *in0, int8_t *out0);

// CHECK: entry mixed: 4 in, 2 out
// CHECK-NEXT: arg0 i32 rank 1 dims 5 (20 bytes)
// CHECK-NEXT: arg1 i64 rank 1 dims 5 (40 bytes)
// CHECK-NEXT: arg2 i1 rank 1 dims 5 (5 bytes)
// CHECK-NEXT: arg3 f16 rank 2 dims 1 3 (6 bytes)
// CHECK-NEXT: arg4 i32 rank 1 dims 5 (20 bytes)
// CHECK-NEXT: arg5 f16 rank 2 dims 1 3 (6 bytes)
// CHECK-NEXT: status 0
// out0 = i1 ? i32 + (i64 >> 33) : -1
// CHECK-NEXT: out0: 2 -1 6 -1 10
// out1 = f16 * 2 (exponent + 1)
// CHECK-NEXT: out1: 0x4000 0x4001 0x4002
// CHECK: entry scalar: 2 in, 1 out
// CHECK-NEXT: arg0 f32 rank 0 dims (4 bytes)
// CHECK-NEXT: arg1 f32 rank 1 dims 4 (16 bytes)
// CHECK-NEXT: arg2 f32 rank 1 dims 4 (16 bytes)
// CHECK-NEXT: status 0
// CHECK-NEXT: out0: 2 3 4 5
// CHECK: entry wide: 1 in, 1 out
// CHECK-NEXT: arg0 f64 rank 1 dims 3 (24 bytes)
// CHECK-NEXT: arg1 f64 rank 1 dims 3 (24 bytes)
// CHECK-NEXT: status 0
// out = x / 3 in double (an f32 division would print 0.3333333432674408)
// CHECK-NEXT: out0: 0.33333333333333331 0.66666666666666663 1
// CHECK: entry narrow: 1 in, 1 out
// CHECK-NEXT: arg0 i8 rank 1 dims 3 (3 bytes)
// CHECK-NEXT: arg1 i8 rank 1 dims 3 (3 bytes)
// CHECK-NEXT: status 0
// out = x + 20 in i8: 100, 110, 120 wrap to 120, -126, -116
// CHECK-NEXT: out0: 120 -126 -116
// CHECK: lookup missing: null
// CHECK: error: cannot load '{{.*}}dtypes.h'

func.func @mixed(%a: memref<5xi32>, %b: memref<5xi64>, %c: memref<5xi1>, %h: memref<1x3xf16>,
                 %o: memref<5xi32>, %oh: memref<1x3xf16>) attributes {braze.num_inputs = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %s33 = arith.constant 33 : i64
  %m1 = arith.constant -1 : i32
  %two = arith.constant 2.0 : f16
  scf.parallel (%i) = (%c0) to (%c5) step (%c1) {
    %x = memref.load %a[%i] : memref<5xi32>
    %y = memref.load %b[%i] : memref<5xi64>
    %p = memref.load %c[%i] : memref<5xi1>
    %ys = arith.shrsi %y, %s33 : i64
    %yt = arith.trunci %ys : i64 to i32
    %sum = arith.addi %x, %yt : i32
    %r = arith.select %p, %sum, %m1 : i32
    memref.store %r, %o[%i] : memref<5xi32>
    scf.reduce
  }
  scf.for %j = %c0 to %c3 step %c1 {
    %v = memref.load %h[%c0, %j] : memref<1x3xf16>
    %w = arith.mulf %v, %two : f16
    memref.store %w, %oh[%c0, %j] : memref<1x3xf16>
  }
  return
}

// Broadcast from rank 0: out = s + v.
func.func @scalar(%s: memref<f32>, %v: memref<4xf32>, %o: memref<4xf32>) attributes {braze.num_inputs = 2 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %x = memref.load %s[] : memref<f32>
  scf.for %i = %c0 to %c4 step %c1 {
    %y = memref.load %v[%i] : memref<4xf32>
    %z = arith.addf %x, %y : f32
    memref.store %z, %o[%i] : memref<4xf32>
  }
  return
}

// f64 through the ABI: out = x / 3 computed in double.
func.func @wide(%x: memref<3xf64>, %o: memref<3xf64>) attributes {braze.num_inputs = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %three = arith.constant 3.0 : f64
  scf.for %i = %c0 to %c3 step %c1 {
    %y = memref.load %x[%i] : memref<3xf64>
    %z = arith.divf %y, %three : f64
    memref.store %z, %o[%i] : memref<3xf64>
  }
  return
}

// i8 through the ABI: out = x + 20, wrapping.
func.func @narrow(%x: memref<3xi8>, %o: memref<3xi8>) attributes {braze.num_inputs = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %twenty = arith.constant 20 : i8
  scf.for %i = %c0 to %c3 step %c1 {
    %y = memref.load %x[%i] : memref<3xi8>
    %z = arith.addi %y, %twenty : i8
    memref.store %z, %o[%i] : memref<3xi8>
  }
  return
}
