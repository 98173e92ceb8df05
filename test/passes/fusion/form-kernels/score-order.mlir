// Greedy order: the best-scoring fusion is applied first and can block another
// (here through max-ops=2 on a chain a -> b -> c). The intermediates' sizes decide:
// a -> b saves a's f32 result (32 bytes) and b -> c b's f16 result (16 bytes), or
// the other way round in @f16_first.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file '--form-kernels=max-ops=2 report' 2>&1 >/dev/null | FileCheck %s

// CHECK-LABEL: form-kernels report @f32_first
// CHECK: #0 -> #1 (exp -> cast) vertical score=32 fused step=1
// CHECK: #1 -> #2 (cast -> neg) vertical score=16 refused reason=max-ops
// CHECK: cpu_poi_fused_exp_cast_0 poi nodes=#0,#1
// CHECK: cpu_poi_fused_neg_1 poi nodes=#2
func.func @f32_first(%x: tensor<8xf32>) -> tensor<8xf16> {
  %e = tensor.empty() : tensor<8xf32>
  %h = tensor.empty() : tensor<8xf16>
  %a = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) attrs = {braze.ops = ["exp"]} {
  ^bb0(%p: f32, %o: f32):
    %r = math.exp %p : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<8xf32>) outs(%h : tensor<8xf16>) attrs = {braze.ops = ["cast"]} {
  ^bb0(%p: f32, %o: f16):
    %r = arith.truncf %p : f32 to f16
    linalg.yield %r : f16
  } -> tensor<8xf16>
  %c = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%b : tensor<8xf16>) outs(%h : tensor<8xf16>) attrs = {braze.ops = ["neg"]} {
  ^bb0(%p: f16, %o: f16):
    %r = arith.negf %p : f16
    linalg.yield %r : f16
  } -> tensor<8xf16>
  return %c : tensor<8xf16>
}

// -----

// CHECK-LABEL: form-kernels report @f16_first
// CHECK: #0 -> #1 (exp -> cast) vertical score=16 refused reason=max-ops
// CHECK: #1 -> #2 (cast -> neg) vertical score=32 fused step=1
// CHECK: cpu_poi_fused_exp_0 poi nodes=#0
// CHECK: cpu_poi_fused_cast_neg_1 poi nodes=#1,#2
func.func @f16_first(%x: tensor<8xf16>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %h = tensor.empty() : tensor<8xf16>
  %a = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf16>) outs(%h : tensor<8xf16>) attrs = {braze.ops = ["exp"]} {
  ^bb0(%p: f16, %o: f16):
    %r = math.exp %p : f16
    linalg.yield %r : f16
  } -> tensor<8xf16>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<8xf16>) outs(%e : tensor<8xf32>) attrs = {braze.ops = ["cast"]} {
  ^bb0(%p: f16, %o: f32):
    %r = arith.extf %p : f16 to f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%b : tensor<8xf32>) outs(%e : tensor<8xf32>) attrs = {braze.ops = ["neg"]} {
  ^bb0(%p: f32, %o: f32):
    %r = arith.negf %p : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %c : tensor<8xf32>
}

// -----

// Equal scores: vertical beats horizontal. a -> b (vertical, b's input a: 32 bytes)
// against a ~ c (horizontal, sharing x: 32 bytes); with max-ops=2 only one happens.
// CHECK-LABEL: form-kernels report @category_tie
// CHECK: #0 -> #1 (exp -> neg) vertical score=32 fused step=1
// CHECK: #0 ~ #2 (exp ~ abs) horizontal score=32 refused reason=max-ops
// CHECK: cpu_poi_fused_exp_neg_0 poi nodes=#0,#1
func.func @category_tie(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) attrs = {braze.ops = ["exp"]} {
  ^bb0(%p: f32, %o: f32):
    %r = math.exp %p : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) attrs = {braze.ops = ["neg"]} {
  ^bb0(%p: f32, %o: f32):
    %r = arith.negf %p : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) attrs = {braze.ops = ["abs"]} {
  ^bb0(%p: f32, %o: f32):
    %r = math.absf %p : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %b, %c : tensor<8xf32>, tensor<8xf32>
}

// -----

// Equal scores and categories: the closer pair first. c reads a (two ops back) and
// b (the op before); each edge saves 32 bytes.
// CHECK-LABEL: form-kernels report @proximity
// CHECK: #0 -> #2 (exp -> add) vertical score=32 refused reason=max-ops
// CHECK: #1 -> #2 (neg -> add) vertical score=32 fused step=1
func.func @proximity(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) attrs = {braze.ops = ["exp"]} {
  ^bb0(%p: f32, %o: f32):
    %r = math.exp %p : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%y : tensor<8xf32>) outs(%e : tensor<8xf32>) attrs = {braze.ops = ["neg"]} {
  ^bb0(%p: f32, %o: f32):
    %r = arith.negf %p : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) attrs = {braze.ops = ["add"]} {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %c : tensor<8xf32>
}
