// Accuracy of math-approx against libm in double: every 251st f32 bit pattern
// (17 million inputs per function, both signs, subnormals to infinities) and the
// special values, through the CPU lowering (Inputs/accuracy_main.c checks the bounds).
// RUN: braze-opt --cpu=x86-64-v4 %s --math-approx -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: sh %braze_src/test/targets/cpu/codegen/Inputs/lower.sh %t.mlir %S/Inputs/accuracy_main.c %t.exe
// RUN: %t.exe | FileCheck %s --check-prefix=ACC
// The same bounds with exp's 2^n applied by integer arith instead of llvm.intr.ldexp:
// RUN: braze-opt --cpu=x86-64-v4 %s --math-approx=exp-scale=bits -o %t.bits.mlir
// RUN: FileCheck %s --check-prefix=BITS --input-file=%t.bits.mlir
// RUN: sh %braze_src/test/targets/cpu/codegen/Inputs/lower.sh %t.bits.mlir %S/Inputs/accuracy_main.c %t.bits.exe
// RUN: %t.bits.exe | FileCheck %s --check-prefix=ACC
// RUN: not braze-opt --cpu=x86-64-v4 %s --math-approx=exp-scale=fast 2>&1 | FileCheck %s --check-prefix=BADSCALE
// Kept functions stay math ops:
// The default scaling is the target's fact vector-ldexp (decision 0026): ldexp with
// AVX-512 (vscalefps), bits with AVX2, where LLVM's vectorized ldexp is an ldexpf call
// per lane; without a target, ldexp.
// RUN: braze-opt --cpu=x86-64-v3 --target=cpu %s --math-approx | FileCheck %s --check-prefix=BITS
// RUN: braze-opt --cpu=x86-64-v4 --target=cpu %s --math-approx | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v3 --target=cpu %s --math-approx=exp-scale=ldexp | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --math-approx=keep=exp,tanh | FileCheck %s --check-prefix=KEEP
// RUN: braze-opt --cpu=x86-64-v4 %s --math-approx=disable | FileCheck %s --check-prefix=OFF
// RUN: not braze-opt --cpu=x86-64-v4 %s --math-approx=keep=sin 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK-NOT: math.exp
// CHECK-NOT: math.log
// CHECK-NOT: math.tanh
// CHECK-NOT: math.erf
// CHECK-NOT: math.rsqrt
// CHECK-LABEL: func.func @exp_chunk
// CHECK: %[[N:.*]] = arith.fptosi
// CHECK: llvm.intr.ldexp(%{{.*}}, %[[N]]) : (f32, i32) -> f32
// BITS-LABEL: func.func @exp_chunk
// BITS-NOT: llvm.intr.ldexp
// BITS: arith.fptosi
// BITS: arith.shli
// BADSCALE: exp-scale expects ldexp or bits, got 'fast'
// CHECK-LABEL: func.func @rsqrt_chunk
// CHECK: math.sqrt
// CHECK: arith.divf

// ACC: exp: OK
// ACC: log: OK
// ACC: tanh: OK
// ACC: erf: OK
// ACC: rsqrt: OK
// ACC: specials: OK

// KEEP-LABEL: func.func @exp_chunk
// KEEP: math.exp
// KEEP-LABEL: func.func @log_chunk
// KEEP-NOT: math.log
// KEEP-LABEL: func.func @tanh_chunk
// KEEP: math.tanh
// KEEP-LABEL: func.func @erf_chunk
// KEEP-NOT: math.erf
// KEEP-LABEL: func.func @rsqrt_chunk
// OFF: math.exp
// OFF: math.log
// OFF: math.tanh
// OFF: math.erf
// OFF: math.rsqrt
// BAD: keep= names an unknown function 'sin'

func.func @exp_chunk(%x: memref<65536xf32>, %y: memref<65536xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 65536 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<65536xf32>
    %r = math.exp %v : f32
    memref.store %r, %y[%i] : memref<65536xf32>
  }
  return
}

func.func @log_chunk(%x: memref<65536xf32>, %y: memref<65536xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 65536 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<65536xf32>
    %r = math.log %v : f32
    memref.store %r, %y[%i] : memref<65536xf32>
  }
  return
}

func.func @tanh_chunk(%x: memref<65536xf32>, %y: memref<65536xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 65536 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<65536xf32>
    %r = math.tanh %v : f32
    memref.store %r, %y[%i] : memref<65536xf32>
  }
  return
}

func.func @erf_chunk(%x: memref<65536xf32>, %y: memref<65536xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 65536 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<65536xf32>
    %r = math.erf %v : f32
    memref.store %r, %y[%i] : memref<65536xf32>
  }
  return
}

func.func @rsqrt_chunk(%x: memref<65536xf32>, %y: memref<65536xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 65536 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<65536xf32>
    %r = math.rsqrt %v : f32
    memref.store %r, %y[%i] : memref<65536xf32>
  }
  return
}
