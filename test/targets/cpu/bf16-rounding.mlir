// Rounding to bf16 (decision 0026): with AVX512-BF16 (znver4) LLVM keeps the fptrunc
// and uses vcvtneps2bf16; without it (x86-64-v3) each fptrunc float -> bfloat becomes
// round-to-nearest-even in i32 arithmetic (targets/cpu/half-floats.c), since LLVM would
// call __truncsfbf2, which libgcc 12 lacks; bf16 math is computed in f32 first. The
// masked loads and stores of the matmul template's remainder columns move i16 lanes
// (no conversion per lane).
// RUN: braze compile --cpu=x86-64-v3 %s --emit=llvm -o - | FileCheck %s --check-prefix=V3
// RUN: braze compile --cpu=znver4 %s --emit=llvm -o - | FileCheck %s --check-prefix=NATIVE
// RUN: braze compile --cpu=x86-64-v3 %s -c -o %t.o --no-header
// RUN: nm %t.o | FileCheck %s --check-prefix=SYMS
// RUN: braze check %s --seed 3 | FileCheck %s --check-prefix=RUNS

// V3-NOT: fptrunc {{.*}} to {{.*}}bfloat
// V3: fcmp uno <8 x float>
// V3-NOT: fptrunc {{.*}} to {{.*}}bfloat
// V3: call void @llvm.masked.store.v8i16
// V3-NOT: masked.{{load|store}}.v{{[0-9]+}}bf16
// NATIVE: fptrunc <{{[0-9]+}} x float> {{.*}} to <{{[0-9]+}} x bfloat>
// SYMS-NOT: __truncsfbf2
// RUNS: PASS @cast_tanh out0 5x70xbf16
func.func @cast_tanh(%x: tensor<5x70xf32>) -> tensor<5x70xbf16> {
  %0 = "graph.cast"(%x) : (tensor<5x70xf32>) -> tensor<5x70xbf16>
  %1 = "graph.tanh"(%0) : (tensor<5x70xbf16>) -> tensor<5x70xbf16>
  return %1 : tensor<5x70xbf16>
}
// RUNS: PASS @matmul_bf16 out0 5x70xbf16
func.func @matmul_bf16(%a: tensor<5x40xbf16>, %b: tensor<40x70xbf16>) -> tensor<5x70xbf16> {
  %0 = "graph.matmul"(%a, %b) : (tensor<5x40xbf16>, tensor<40x70xbf16>) -> tensor<5x70xbf16>
  return %0 : tensor<5x70xbf16>
}
