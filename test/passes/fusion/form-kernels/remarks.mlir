// Decisions as remarks (option `remarks`), checked with --verify-diagnostics.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --verify-diagnostics '--form-kernels=remarks' >/dev/null

func.func @two(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  // expected-remark@+1 {{form-kernels: kernel cpu_poi_fused_add_mul_0 (poi, score 32)}}
  %a = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x, %y : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) attrs = {braze.ops = ["add"]} {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  // expected-remark@+1 {{form-kernels: #0 'add' and #1 'mul' fused (vertical, score 32, step 1)}}
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) attrs = {braze.ops = ["mul"]} {
  ^bb0(%p: f32, %o: f32):
    %r = arith.mulf %p, %p : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %b : tensor<8xf32>
}

// -----

func.func @refused(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  // expected-remark@+1 {{form-kernels: kernel cpu_poi_fused_exp_0 (poi, score 0)}}
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) attrs = {braze.ops = ["exp"]} {
  ^bb0(%p: f32, %o: f32):
    %r = math.exp %p : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  // expected-remark@+2 {{form-kernels: #0 'exp' and #1 'neg' not fused: indexing-mismatch}}
  // expected-remark@+1 {{form-kernels: kernel cpu_poi_fused_neg_1 (poi, score 0)}}
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) attrs = {braze.ops = ["neg"]} {
  ^bb0(%p: f32, %o: f32):
    %r = arith.negf %p : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  return %b : tensor<8x8xf32>
}
