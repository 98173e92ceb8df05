// The ops the target-level contract (docs/architecture.md, "target level") allows in
// kernels, lowered and compiled without cpu-codegen: scf.parallel with iter_args
// reductions (fastmath), several phases in one kernel, memref.alloca row buffers,
// memref.alloc/dealloc, memref.global constants, memref.view of an i8 buffer,
// memref.copy, math.sqrt/absf/fma. Checked from C at 1 and 2 threads.
// RUN: rm -rf %t && mkdir -p %t
// RUN: braze compile %s --pipeline=none -o %t/libcontract.so
// RUN: clang-22 -std=c11 -Wall -Werror -I%t %S/Inputs/call_contract.c -o %t/call -L%t -lcontract -Wl,-rpath,%t -lm
// RUN: OMP_NUM_THREADS=1 %t/call | FileCheck %s
// RUN: OMP_NUM_THREADS=2 %t/call | FileCheck %s
// CHECK: max err ok

memref.global "private" constant @table : memref<37xf32> = dense<[0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5,
    9.5, 10.5, 11.5, 12.5, 13.5, 14.5, 15.5, 16.5, 17.5, 18.5, 19.5, 20.5, 21.5, 22.5, 23.5, 24.5, 25.5, 26.5,
    27.5, 28.5, 29.5, 30.5, 31.5, 32.5, 33.5, 34.5, 35.5, 36.5]>

// Phase 1: per row, max into a register, a row buffer on the stack, an epilogue.
func.func private @cpu_red_fused_reduce_max_sub_sqrt_0(%x: memref<1000x37xf32>, %o: memref<1000x37xf32>)
    attributes {kernel.kind = "red"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c37 = arith.constant 37 : index
  %c1000 = arith.constant 1000 : index
  %ninf = arith.constant 0xFF800000 : f32
  %two = arith.constant 2.0 : f32
  %one = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c1000) step (%c1) {
    %row = memref.alloca() : memref<37xf32>
    %max = scf.for %j = %c0 to %c37 step %c1 iter_args(%acc = %ninf) -> (f32) {
      %v = memref.load %x[%i, %j] : memref<1000x37xf32>
      memref.store %v, %row[%j] : memref<37xf32>
      %m = arith.maximumf %v, %acc fastmath<reassoc,contract> : f32
      scf.yield %m : f32
    }
    scf.for %j = %c0 to %c37 step %c1 {
      %v = memref.load %row[%j] : memref<37xf32>
      %d = arith.subf %v, %max : f32
      %a = math.absf %d : f32
      %s = math.sqrt %a : f32
      %f = math.fma %v, %two, %one : f32
      %r = arith.addf %s, %f : f32
      memref.store %r, %o[%i, %j] : memref<1000x37xf32>
    }
    scf.reduce
  }
  return
}

// Two phases: a weighted row sum through a kernel-local buffer, then a copy out.
func.func private @cpu_red_fused_mul_reduce_sum_1(%x: memref<1000x37xf32>, %o: memref<1000xf32>)
    attributes {kernel.kind = "red"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c37 = arith.constant 37 : index
  %c1000 = arith.constant 1000 : index
  %zero = arith.constant 0.0 : f32
  %w = memref.get_global @table : memref<37xf32>
  %tmp = memref.alloc() {alignment = 64 : i64} : memref<1000xf32>
  scf.parallel (%i) = (%c0) to (%c1000) step (%c1) {
    %sum = scf.for %j = %c0 to %c37 step %c1 iter_args(%acc = %zero) -> (f32) {
      %v = memref.load %x[%i, %j] : memref<1000x37xf32>
      %t = memref.load %w[%j] : memref<37xf32>
      %p = arith.mulf %v, %t : f32
      %s = arith.addf %acc, %p fastmath<reassoc,contract> : f32
      scf.yield %s : f32
    }
    memref.store %sum, %tmp[%i] : memref<1000xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c1000) step (%c1) {
    %v = memref.load %tmp[%i] : memref<1000xf32>
    memref.store %v, %o[%i] : memref<1000xf32>
    scf.reduce
  }
  memref.dealloc %tmp : memref<1000xf32>
  return
}

func.func @contract(%x: memref<1000x37xf32>, %o: memref<1000x37xf32>, %s: memref<1000xf32>, %cp: memref<1000x37xf32>)
    attributes {braze.entry, braze.num_inputs = 1 : i64, braze.num_outputs = 3 : i64} {
  %c0 = arith.constant 0 : index
  %buf = memref.alloc() {alignment = 64 : i64} : memref<148000xi8>
  %t = memref.view %buf[%c0][] : memref<148000xi8> to memref<1000x37xf32>
  call @cpu_red_fused_reduce_max_sub_sqrt_0(%x, %t) : (memref<1000x37xf32>, memref<1000x37xf32>) -> ()
  memref.copy %t, %o : memref<1000x37xf32> to memref<1000x37xf32>
  call @cpu_red_fused_mul_reduce_sum_1(%x, %s) : (memref<1000x37xf32>, memref<1000xf32>) -> ()
  memref.copy %x, %cp : memref<1000x37xf32> to memref<1000x37xf32>
  memref.dealloc %buf : memref<148000xi8>
  return
}
