// math-approx rewrites a division by a loop-invariant divisor into a multiplication
// by its reciprocal, computed once before the loop (vdivps is ~10x the cost of
// vmulps; softmax's normalizing pass divides every element by the row sum).
// The rest stays a division: divisors that vary in the loop, divisions outside
// loops, reciprocals (1/d) themselves, f64, and everything under keep=div.
// RUN: braze-opt --cpu=x86-64-v4 %s --math-approx | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --math-approx=keep=div | FileCheck %s --check-prefix=KEEP
// Numerics: x * (1/d) against x / d in double, for the whole f32 range of ratios.
// RUN: braze-opt --cpu=x86-64-v4 %s --math-approx -o %t.mlir
// RUN: sh %braze_src/test/targets/cpu/codegen/Inputs/lower.sh %t.mlir %S/Inputs/div_main.c %t.exe
// RUN: %t.exe | FileCheck %s --check-prefix=NUM

// CHECK-LABEL: func.func @row_div
// CHECK-SAME: (%[[X:.*]]: memref<64x100xf32>, %[[S:.*]]: memref<64xf32>, %[[Y:.*]]: memref<64x100xf32>)
// CHECK: scf.parallel (%[[I:.*]]) =
// CHECK: %[[D:.*]] = memref.load %[[S]][%[[I]]]
// CHECK: %[[R:.*]] = arith.divf %[[ONE:.*]], %[[D]] : f32
// CHECK-NEXT: scf.for %[[J:.*]] =
// CHECK-NEXT: %[[V:.*]] = memref.load %[[X]][%[[I]], %[[J]]]
// CHECK-NEXT: %[[Q:.*]] = arith.mulf %[[V]], %[[R]] : f32
// CHECK-NEXT: memref.store %[[Q]], %[[Y]][%[[I]], %[[J]]]
// KEEP-LABEL: func.func @row_div
// KEEP-NOT: arith.mulf
// KEEP: arith.divf %{{.*}}, %{{.*}} : f32
// KEEP-NOT: arith.mulf
func.func @row_div(%x: memref<64x100xf32>, %s: memref<64xf32>, %y: memref<64x100xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    %d = memref.load %s[%i] : memref<64xf32>
    scf.for %j = %c0 to %c100 step %c1 {
      %v = memref.load %x[%i, %j] : memref<64x100xf32>
      %q = arith.divf %v, %d : f32
      memref.store %q, %y[%i, %j] : memref<64x100xf32>
    }
    scf.reduce
  }
  return
}

// Negative cases: nothing changes.
// CHECK-LABEL: func.func @varying_divisor
// CHECK-NOT: arith.mulf
// CHECK: arith.divf %{{.*}}, %{{.*}} : f32
// CHECK-NOT: arith.mulf
// CHECK-LABEL: func.func @no_loop
// CHECK-NEXT: arith.divf %arg0, %arg1 : f32
// CHECK-LABEL: func.func @reciprocal
// CHECK-NOT: arith.mulf
// CHECK: arith.divf %{{.*}}, %arg1 : f32
// CHECK-LABEL: func.func @f64_div
// CHECK-NOT: arith.mulf
// CHECK: arith.divf %{{.*}}, %arg1 : f64
func.func @varying_divisor(%x: memref<100xf32>, %s: memref<100xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  scf.for %j = %c0 to %c100 step %c1 {
    %v = memref.load %x[%j] : memref<100xf32>
    %d = memref.load %s[%j] : memref<100xf32>
    %q = arith.divf %v, %d : f32
    memref.store %q, %x[%j] : memref<100xf32>
  }
  return
}
func.func @no_loop(%a: f32, %b: f32) -> f32 {
  %q = arith.divf %a, %b : f32
  return %q : f32
}
func.func @reciprocal(%x: memref<100xf32>, %d: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %one = arith.constant 1.0 : f32
  scf.for %j = %c0 to %c100 step %c1 {
    %r = arith.divf %one, %d : f32
    memref.store %r, %x[%j] : memref<100xf32>
  }
  return
}
func.func @f64_div(%x: memref<100xf64>, %d: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  scf.for %j = %c0 to %c100 step %c1 {
    %v = memref.load %x[%j] : memref<100xf64>
    %q = arith.divf %v, %d : f64
    memref.store %q, %x[%j] : memref<100xf64>
  }
  return
}
// NUM: div: OK
