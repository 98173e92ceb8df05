// Which functions form-kernels rewrites, and inputs it cannot fuse.
// RUN: braze-opt --cpu=x86-64-v4 %s --form-kernels=report 2>%t.report | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.report

// Dynamic shapes: loop ranges unknown, so nothing fuses; ops that compute sizes
// stay in the graph function and the kernels take their results.
// REPORT-LABEL: form-kernels report @dyn
// REPORT: #2 -> #3 (exp -> neg) vertical score=0 refused reason=iteration-space-mismatch
// CHECK-LABEL: func.func @dyn(
// CHECK: %[[E:.*]] = tensor.empty(%{{.*}}) : tensor<?xf32>
// CHECK-NEXT: %[[A:.*]] = call @cpu_poi_fused_exp_0(%arg0, %[[E]])
// CHECK-NEXT: call @cpu_poi_fused_neg_1(%[[A]], %[[E]])
func.func @dyn(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%d) : tensor<?xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) attrs = {braze.ops = ["exp"]} {
  ^bb0(%p: f32, %o: f32):
    %r = math.exp %p : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<?xf32>) outs(%e : tensor<?xf32>) attrs = {braze.ops = ["neg"]} {
  ^bb0(%p: f32, %o: f32):
    %r = arith.negf %p : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  return %b : tensor<?xf32>
}

// No nodes: an empty report, the function unchanged.
// REPORT-LABEL: form-kernels report @empty
// REPORT-NEXT: nodes:
// REPORT-NEXT: candidates:
// CHECK-LABEL: func.func @empty()
// CHECK-NEXT: return
func.func @empty() {
  return
}

// Declarations, functions with control flow, and called functions (user kernels)
// are not graph functions: left as they are, no report.
// REPORT-NOT: report @decl
// REPORT-NOT: report @multi
// CHECK-LABEL: func.func private @decl(tensor<4xf32>) -> tensor<4xf32>
// CHECK-LABEL: func.func @multi(
// CHECK-NEXT: call @decl(%arg0)
// CHECK-NEXT: cf.cond_br
func.func private @decl(tensor<4xf32>) -> tensor<4xf32>
func.func @multi(%x: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  %r = func.call @decl(%x) : (tensor<4xf32>) -> tensor<4xf32>
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  return %r : tensor<4xf32>
^bb2:
  return %x : tensor<4xf32>
}
