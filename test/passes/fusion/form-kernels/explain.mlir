// explain=A,B: why nodes computing graph ops A and B (or named A and B by ONNX
// NameLocs) did or did not fuse.
// RUN: braze-opt --cpu=x86-64-v4 %s --verify-diagnostics '--form-kernels=explain=add,mul' >/dev/null
// RUN: braze-opt --cpu=x86-64-v4 %s 2>&1 '--form-kernels=explain=Exp_7,neg' | FileCheck %s --check-prefix=NAMED
// RUN: braze-opt --cpu=x86-64-v4 %s 2>&1 '--form-kernels=explain=add,nope' | FileCheck %s --check-prefix=MISSING
// RUN: braze-opt --cpu=x86-64-v4 %s 2>&1 '--form-kernels=explain=add,neg' | FileCheck %s --check-prefix=APART
// Plan names (plan-out=, docs/fusion-plans.md) work too.
// RUN: braze-opt --cpu=x86-64-v4 %s 2>&1 '--form-kernels=explain=f/add#0,Exp_7' | FileCheck %s --check-prefix=PLANNAME

// NAMED: <unknown>: remark: explain: #2 'exp' and #3 'neg' not fused: indexing-mismatch
// MISSING: explain.mlir:[[@LINE+4]]:1: warning: explain: no node computes or is named 'nope'
// APART: remark: explain: #0 'add' and #3 'neg' not fused: not-adjacent
// PLANNAME: remark: explain: #0 'add' and #2 'exp' not fused: not-adjacent

func.func @f(%x: tensor<8xf32>, %y: tensor<8xf32>, %z: tensor<8x8xf32>) -> (tensor<8xf32>, tensor<8x8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x, %y : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) attrs = {braze.ops = ["add"]} {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  // expected-remark@+1 {{explain: #0 'add' and #1 'mul' fused into cpu_poi_fused_add_mul_0}}
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) attrs = {braze.ops = ["mul"]} {
  ^bb0(%p: f32, %o: f32):
    %r = arith.mulf %p, %p : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x8xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%z : tensor<8x8xf32>) outs(%e2 : tensor<8x8xf32>) attrs = {braze.ops = ["exp"]} {
  ^bb0(%p: f32, %o: f32):
    %r = math.exp %p : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32> loc("Exp_7")
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<8x8xf32>) outs(%e2 : tensor<8x8xf32>) attrs = {braze.ops = ["neg"]} {
  ^bb0(%p: f32, %o: f32):
    %r = arith.negf %p : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32> loc("Neg_8")
  return %b, %d : tensor<8xf32>, tensor<8x8xf32>
}
