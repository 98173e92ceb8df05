// A reduction over a middle dim (log_softmax over dim 1 of [N, C, D, W], as ONNX's
// SoftmaxCrossEntropyLoss writes it) is one persistent kernel of window-mode phases
// (the innermost dim parallel): the max, the sum of exp, and the log-softmax's
// pointwise tail each run as their own loop nest over [D, W], one after another inside
// the parallel loop over N. Before: each phase's nest opened inside the previous
// one's innermost body, so phase p ran (D * W)^p times (3 minutes per call on ONNX's
// test_sce_NCd1d2d3d4d5 tests, 32,400 elements). Numerics and the conformance tests:
// test/import/conformance.test.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels,cpu-codegen)' | FileCheck %s --strict-whitespace
// RUN: braze check %s --seed 3 | FileCheck %s --check-prefix=RESULT

// CHECK-LABEL: func.func private @cpu_per_fused_log_softmax_0(
// CHECK: scf.parallel (%[[N:.*]]) = (%c0) to (%c3) step (%c1) {
// The max over C: a nest over D and W, C innermost in iter_args (FileCheck keeps the
// indentation: the depth of each nest).
// CHECK: {{^      }}scf.for %[[D0:.*]] = %c0 to %c6 step %c1 {
// CHECK-NEXT: {{^        }}scf.for %[[W0:.*]] = %c0 to %c7 step %c1 {
// CHECK-NEXT: {{^          }}%{{.*}} = scf.for %{{.*}} = %c0 to %c5 step %c1 iter_args(
// CHECK: arith.maximumf
// The sum of exp: the next nest, at the same depth.
// CHECK: {{^      }}scf.for %{{.*}} = %c0 to %c6 step %c1 {
// CHECK-NEXT: {{^        }}scf.for %{{.*}} = %c0 to %c7 step %c1 {
// CHECK-NEXT: {{^          }}%{{.*}} = memref.load %alloca
// CHECK-NEXT: {{^          }}%{{.*}} = scf.for %{{.*}} = %c0 to %c5 step %c1 iter_args(
// CHECK: math.exp
// The tail, again at the same depth: a nest over C, D and W.
// CHECK: {{^      }}scf.for %{{.*}} = %c0 to %c5 step %c1 {
// CHECK: math.log
// CHECK: {{^      }}scf.reduce
// RESULT: PASS  @sce_log_softmax
// RESULT: check passed

func.func @sce_log_softmax(%x: tensor<3x5x6x7xf32>) -> tensor<3x5x6x7xf32> {
  %y = "graph.log_softmax"(%x) {dim = 1 : i64} : (tensor<3x5x6x7xf32>) -> tensor<3x5x6x7xf32>
  return %y : tensor<3x5x6x7xf32>
}
