// tem kernels at the edge of the matmul template: taken (a transposed epilogue operand,
// a heap panel) or refused with the reason in a remark (matmul=loops; the kernel-level
// forms it does not take are in matmul_template_forms.mlir), all computing the right
// values.
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose --graph-to-loops --inline-unrealized --form-kernels --cpu-codegen=remarks -o /dev/null 2>&1 | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose --graph-to-loops --inline-unrealized --form-kernels --cpu-codegen="remarks matmul=loops" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOOPS
// RUN: braze check %s --seed 3 | FileCheck %s --check-prefix=NUM

// Not a refusal: the epilogue reads another tensor transposed (not contiguous along the
// tile's columns): one load per lane.
// CHECK: kernel @cpu_tem_fused_{{[a-z_]+}}_0: matmul template gemm {{.*}} epilogue of 1 generic(s)
func.func @transposed_residual(%a: tensor<6x8xf32>, %b: tensor<8x10xf32>, %c: tensor<10x6xf32>) -> tensor<6x10xf32> {
  %0 = "graph.matmul"(%a, %b) : (tensor<6x8xf32>, tensor<8x10xf32>) -> tensor<6x10xf32>
  %ct = "graph.transpose"(%c) {perm = array<i64: 1, 0>} : (tensor<10x6xf32>) -> tensor<6x10xf32>
  %1 = "graph.add"(%0, %ct) : (tensor<6x10xf32>, tensor<6x10xf32>) -> tensor<6x10xf32>
  return %1 : tensor<6x10xf32>
}

// Not a refusal: a runtime B panel of K x 32 floats over 1 MiB is a heap buffer per
// parallel iteration instead of a stack one.
// CHECK: kernel @cpu_tem_fused_{{[a-z_]+}}_1: matmul template gemm mr=6 nr={{[0-9]+}} mc={{[0-9]+}} vw={{[0-9]+}} b=packed-per-panel-heap, 2x3x8200
func.func @long_k(%a: tensor<2x8200xf32>, %b: tensor<8200x3xf32>) -> tensor<2x3xf32> {
  %0 = "graph.matmul"(%a, %b) : (tensor<2x8200xf32>, tensor<8200x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// LOOPS-COUNT-2: no matmul template: matmul=loops

// NUM-NOT: FAIL
// NUM: PASS @transposed_residual
// NUM: PASS @long_k
