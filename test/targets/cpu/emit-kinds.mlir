// The other artifact kinds: target-level MLIR, optimized LLVM IR with the ABI
// wrappers, a relocatable object, and the per-kernel dumps.
// RUN: rm -rf %t && mkdir -p %t
// RUN: braze compile --cpu=x86-64-v4 %s --pipeline=none --emit=mlir | FileCheck %s --check-prefix=MLIR
// RUN: braze compile --cpu=x86-64-v4 %s --pipeline=none --emit=llvm -o %t/scale.ll
// RUN: FileCheck %s --check-prefix=LLVM < %t/scale.ll
// RUN: braze compile --cpu=x86-64-v4 %s --pipeline=none -c -o %t/scale.o --no-header
// RUN: nm --defined-only %t/scale.o | FileCheck %s --check-prefix=OBJ
// RUN: not ls %t/scale.h
// A failed compile leaves nothing behind (here: the header's directory is missing).
// RUN: not braze compile %s --pipeline=none -o %t/libscale.so --header=%t/nodir/scale.h 2>&1 | FileCheck %s --check-prefix=NOHDR
// RUN: not ls %t/libscale.so
// RUN: braze compile --cpu=x86-64-v4 %s --pipeline=none -o %t/libscale.so --header=%t/scale_api.h --dump-kernels=%t/kernels
// RUN: FileCheck %s --check-prefix=HDR < %t/scale_api.h
// RUN: ls %t/kernels | FileCheck %s --check-prefix=FILES
// RUN: FileCheck %s --check-prefix=KMLIR < %t/kernels/cpu_poi_fused_mul_0.mlir
// RUN: FileCheck %s --check-prefix=KLL < %t/kernels/cpu_poi_fused_mul_0.ll
// RUN: not braze compile %s --pipeline=none --emit=wasm 2>&1 | FileCheck %s --check-prefix=BADEMIT

// MLIR: func.func private @cpu_poi_fused_mul_0(%{{.*}}: memref<1000x37xf32>, %{{.*}}: memref<1000x37xf32>)
// MLIR: scf.parallel
// MLIR: func.func @scale(

// The entry's body is renamed and internal; the wrapper rebuilds the descriptors.
// LLVM-DAG: @scale_num_inputs = {{.*}}constant i32 1
// LLVM-DAG: @scale_num_outputs = {{.*}}constant i32 1
// LLVM-DAG: @scale_arg_ranks = {{.*}}constant [2 x i32] [i32 2, i32 2]
// LLVM-DAG: @braze_entry_names = {{.*}}constant [2 x ptr] [ptr @{{.*}}, ptr null]
// LLVM-DAG: define internal {{.*}}void @cpu_poi_fused_mul_0(
// LLVM-DAG: define {{.*}}i32 @scale_packed(ptr
// LLVM-DAG: __kmpc_fork_call
// Vectorized for the CPU compiled for: x86-64-v4's 16 lanes.
// LLVM-DAG: fmul <16 x float>
// Every exported entry checks the running CPU first (decision 0026), compiled for
// baseline x86-64 like the check, which LLVM keeps out of line.
// LLVM-DAG: define {{.*}}i32 @scale(ptr {{.*}}, ptr {{.*}}) {{.*}}#[[GUARD:[0-9]+]]
// LLVM-DAG: call {{.*}}i32 @__braze_cpu_check(
// LLVM-DAG: @__braze_cpu_name = private unnamed_addr constant [10 x i8] c"x86-64-v4\00"
// LLVM-DAG: define internal {{.*}} @scale.cpu_checked(
// LLVM-DAG: attributes #[[GUARD]] = { {{.*}}"target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87"

// OBJ-DAG: T scale
// OBJ-DAG: T scale_packed
// OBJ-DAG: R scale_num_inputs
// OBJ-DAG: t cpu_poi_fused_mul_0

// FILES: cpu_poi_fused_mul_0.ll
// FILES-NEXT: cpu_poi_fused_mul_0.mlir

// KMLIR: func.func private @cpu_poi_fused_mul_0
// KMLIR: scf.parallel
// KMLIR-NOT: func.func @scale

// KLL: define internal {{.*}}@cpu_poi_fused_mul_0(
// KLL: define internal {{.*}}@cpu_poi_fused_mul_0..omp_par(
// KLL-NOT: define {{.*}}@scale

// NOHDR: error: cannot write '{{.*}}nodir/scale.h'
// The header names the CPU and what the entries check.
// HDR: Compiled for CPU x86-64-v4. Every entry first checks that the running CPU has
// HDR-NEXT: (ssse3 sse4.1 sse4.2 popcnt cx16 avx avx2 bmi bmi2 fma f16c lzcnt movbe avx512f avx512bw avx512cd avx512dq avx512vl)
// HDR: #define BRAZE_GENERATED_SCALE_API_H_CPU "x86-64-v4"
// HDR: int scale(const float *in0, float *out0);

// BADEMIT: bad --emit 'wasm'

func.func private @cpu_poi_fused_mul_0(%a: memref<1000x37xf32>, %o: memref<1000x37xf32>)
    attributes {kernel.kind = "poi"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c37 = arith.constant 37 : index
  %c1000 = arith.constant 1000 : index
  %two = arith.constant 2.0 : f32
  scf.parallel (%i) = (%c0) to (%c1000) step (%c1) {
    scf.for %j = %c0 to %c37 step %c1 {
      %x = memref.load %a[%i, %j] : memref<1000x37xf32>
      %y = arith.mulf %x, %two : f32
      memref.store %y, %o[%i, %j] : memref<1000x37xf32>
    }
    scf.reduce
  }
  return
}

func.func @scale(%a: memref<1000x37xf32>, %o: memref<1000x37xf32>) attributes {braze.num_inputs = 1 : i64} {
  call @cpu_poi_fused_mul_0(%a, %o) : (memref<1000x37xf32>, memref<1000x37xf32>) -> ()
  return
}
