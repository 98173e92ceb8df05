// Every can_fuse rule and refusal reason, checked in the fusion report.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --form-kernels=report 2>&1 >/dev/null | FileCheck %s

// Vertical pointwise -> pointwise over the same space.
// CHECK-LABEL: form-kernels report @vertical
// CHECK: #0 -> #1 (add -> mul) vertical score=32 fused step=1
// CHECK: cpu_poi_fused_add_mul_0 poi nodes=#0,#1
func.func @vertical(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x, %y : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) attrs = {braze.ops = ["add"]} {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) attrs = {braze.ops = ["mul"]} {
  ^bb0(%p: f32, %o: f32):
    %r = arith.mulf %p, %p : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %b : tensor<8xf32>
}

// -----

// A pointwise prologue into a reduction over the reduction's full space.
// CHECK-LABEL: form-kernels report @prologue
// CHECK: #0 exp poi 4x8
// CHECK: #1 reduce_sum red 4x8 reduce=1
// CHECK: #0 -> #1 (exp -> reduce_sum) vertical score=128 fused step=1
// CHECK: cpu_per_fused_exp_reduce_sum_0 per nodes=#0,#1
func.func @prologue(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) attrs = {braze.ops = ["exp"]} {
  ^bb0(%p: f32, %o: f32):
    %r = math.exp %p : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<4x8xf32>) outs(%f : tensor<4xf32>) attrs = {braze.ops = ["reduce_sum"]} {
  ^bb0(%p: f32, %acc: f32):
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// Several reductions over the same space (mean and mean of squares): horizontal,
// sharing the read of x.
// CHECK-LABEL: form-kernels report @multi_reduction
// CHECK: #0 ~ #1 (reduce_sum ~ mul,reduce_sum) horizontal score=128 fused step=1
// CHECK: cpu_per_fused_reduce_sum_mul_0 per nodes=#0,#1
func.func @multi_reduction(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%f : tensor<4xf32>) attrs = {braze.ops = ["reduce_sum"]} {
  ^bb0(%p: f32, %acc: f32):
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%f : tensor<4xf32>) attrs = {braze.ops = ["mul", "reduce_sum"]} {
  ^bb0(%p: f32, %acc: f32):
    %m = arith.mulf %p, %p : f32
    %r = arith.addf %m, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %s, %q : tensor<4xf32>, tensor<4xf32>
}

// -----

// Reductions over the same loops but different reduced dims do not fuse; nor does
// a pointwise op over loops that are neither the reduction's loops nor its outer
// space (here [8, 4] against [4, 8] reducing dim 0).
// CHECK-LABEL: form-kernels report @space_mismatch
// CHECK: #0 ~ #1 (reduce_sum ~ reduce_max) horizontal score=128 refused reason=iteration-space-mismatch
// CHECK: #1 -> #2 (reduce_max -> neg) reduction-epilogue score=32 refused reason=iteration-space-mismatch
func.func @space_mismatch(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<8x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e4 = tensor.empty() : tensor<4xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %e8 = tensor.empty() : tensor<8xf32>
  %f8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%f4 : tensor<4xf32>) attrs = {braze.ops = ["reduce_sum"]} {
  ^bb0(%p: f32, %acc: f32):
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%f8 : tensor<8xf32>) attrs = {braze.ops = ["reduce_max"]} {
  ^bb0(%p: f32, %acc: f32):
    %r = arith.maximumf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e = tensor.empty() : tensor<8x4xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<8xf32>) outs(%e : tensor<8x4xf32>) attrs = {braze.ops = ["neg"]} {
  ^bb0(%p: f32, %o: f32):
    %r = arith.negf %p : f32
    linalg.yield %r : f32
  } -> tensor<8x4xf32>
  return %s, %n : tensor<4xf32>, tensor<8x4xf32>
}

// -----

// Same loop ranges, but the consumer reads the producer's result transposed.
// CHECK-LABEL: form-kernels report @indexing
// CHECK: #0 -> #1 (exp -> neg) vertical score=256 refused reason=indexing-mismatch
// CHECK: kernels:
// CHECK-NEXT: cpu_poi_fused_exp_0 poi nodes=#0
// CHECK-NEXT: cpu_poi_fused_neg_1 poi nodes=#1
func.func @indexing(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) attrs = {braze.ops = ["exp"]} {
  ^bb0(%p: f32, %o: f32):
    %r = math.exp %p : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) attrs = {braze.ops = ["neg"]} {
  ^bb0(%p: f32, %o: f32):
    %r = arith.negf %p : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  return %b : tensor<8x8xf32>
}

// -----

// A user kernel between two pointwise ops: the ext node fuses with nothing, and
// fusing the two pointwise ops around it would make a cycle between kernels.
// CHECK-LABEL: form-kernels report @cycle
// CHECK: #1 my_kernel ext
// CHECK: #0 -> #1 (exp -> my_kernel) vertical score=0 refused reason=extern-kernel
// CHECK: #0 -> #2 (exp -> add) vertical score=0 refused reason=cycle
// CHECK: #1 -> #2 (my_kernel -> add) vertical score=64 refused reason=extern-kernel
// CHECK: kernels:
// CHECK-NEXT: cpu_poi_fused_exp_0 poi nodes=#0
// CHECK-NEXT: cpu_ext_fused_my_kernel_1 ext nodes=#1
// CHECK-NEXT: cpu_poi_fused_add_2 poi nodes=#2
func.func @my_kernel(%a: tensor<8xf32>) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}
func.func @cycle(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) attrs = {braze.ops = ["exp"]} {
  ^bb0(%p: f32, %o: f32):
    %r = math.exp %p : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %u = func.call @my_kernel(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a, %u : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) attrs = {braze.ops = ["add"]} {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %b : tensor<8xf32>
}

// -----

// matmul -> matmul never fuses.
// CHECK-LABEL: form-kernels report @two_matmuls
// CHECK: #0 -> #1 (matmul -> matmul) vertical score=128 refused reason=two-contractions
func.func @two_matmuls(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) attrs = {braze.ops = ["matmul"]} {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %r = arith.mulf %p, %q : f32
    %s = arith.addf %r, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%m, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) attrs = {braze.ops = ["matmul"]} {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %r = arith.mulf %p, %q : f32
    %s = arith.addf %r, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  return %n : tensor<4x4xf32>
}

// -----

// An op form-kernels does not know (not a realized loop-level node) stays in the
// graph function and fuses with nothing.
// CHECK-LABEL: form-kernels report @opaque
// CHECK: #1 tensor.expand_shape opaque
// CHECK: #0 -> #1 (exp -> tensor.expand_shape) vertical score=32 refused reason=not-fusable
// CHECK: kernels:
// CHECK-NEXT: cpu_poi_fused_exp_0 poi nodes=#0
// CHECK-NEXT: (kept) opaque nodes=#1
func.func @opaque(%x: tensor<8xf32>) -> tensor<2x4xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) attrs = {braze.ops = ["exp"]} {
  ^bb0(%p: f32, %o: f32):
    %r = math.exp %p : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %b = tensor.expand_shape %a [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  return %b : tensor<2x4xf32>
}
