// Kernel-level tem kernels (written by hand: form-kernels does not build these) that
// the matmul template refuses, each with its reason; cpu-codegen then emits their loop
// nests (the kernel is still converted).
// RUN: braze-opt --cpu=x86-64-v4 %s --cpu-codegen=remarks -o /dev/null 2>&1 | FileCheck %s

#mk = affine_map<(d0, d1, d2) -> (d0, d2)>
#kn = affine_map<(d0, d1, d2) -> (d2, d1)>
#mn3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// CHECK: kernel @int_product: no matmul template: contraction-body
func.func private @int_product(%a: tensor<4x5xi32>, %b: tensor<5x6xi32>) -> tensor<4x6xi32> attributes {kernel.kind = "tem", kernel.ops = ["matmul"]} {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<4x6xi32>
  %f = linalg.fill ins(%c0 : i32) outs(%e : tensor<4x6xi32>) -> tensor<4x6xi32>
  %r = linalg.generic {indexing_maps = [#mk, #kn, #mn3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<4x5xi32>, tensor<5x6xi32>) outs(%f : tensor<4x6xi32>) attrs = {braze.ops = ["matmul"]} {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %m = arith.muli %x, %y : i32
    %s = arith.addi %m, %o : i32
    linalg.yield %s : i32
  } -> tensor<4x6xi32>
  return %r : tensor<4x6xi32>
}

// An f64 product: the tiles accumulate in f32, so the template refuses it by its type.
// CHECK: kernel @f64_product: no matmul template: contraction-dtype
func.func private @f64_product(%a: tensor<4x5xf64>, %b: tensor<5x6xf64>) -> tensor<4x6xf64> attributes {kernel.kind = "tem", kernel.ops = ["matmul"]} {
  %c0 = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<4x6xf64>
  %f = linalg.fill ins(%c0 : f64) outs(%e : tensor<4x6xf64>) -> tensor<4x6xf64>
  %r = linalg.generic {indexing_maps = [#mk, #kn, #mn3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<4x5xf64>, tensor<5x6xf64>) outs(%f : tensor<4x6xf64>) attrs = {braze.ops = ["matmul"]} {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %m = arith.mulf %x, %y : f64
    %s = arith.addf %m, %o : f64
    linalg.yield %s : f64
  } -> tensor<4x6xf64>
  return %r : tensor<4x6xf64>
}

// CHECK: kernel @bias_init: no matmul template: contraction-init
func.func private @bias_init(%a: tensor<4x5xf32>, %b: tensor<5x6xf32>, %c: tensor<4x6xf32>) -> tensor<4x6xf32> attributes {kernel.kind = "tem", kernel.ops = ["matmul"]} {
  %r = linalg.generic {indexing_maps = [#mk, #kn, #mn3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<4x5xf32>, tensor<5x6xf32>) outs(%c : tensor<4x6xf32>) attrs = {braze.ops = ["matmul"]} {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}

// CHECK: kernel @with_prologue: no matmul template: prologue
func.func private @with_prologue(%a: tensor<4x5xf32>, %b: tensor<5x6xf32>) -> tensor<4x6xf32> attributes {kernel.kind = "tem", kernel.ops = ["relu", "matmul"]} {
  %z = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x5xf32>
  %ra = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x5xf32>) outs(%e0 : tensor<4x5xf32>) attrs = {braze.ops = ["relu"]} {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %z : f32
    linalg.yield %m : f32
  } -> tensor<4x5xf32>
  %e = tensor.empty() : tensor<4x6xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %r = linalg.generic {indexing_maps = [#mk, #kn, #mn3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ra, %b : tensor<4x5xf32>, tensor<5x6xf32>) outs(%f : tensor<4x6xf32>) attrs = {braze.ops = ["matmul"]} {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}

// CHECK: kernel @row_sum_after: no matmul template: epilogue-reduction
func.func private @row_sum_after(%a: tensor<4x5xf32>, %b: tensor<5x6xf32>) -> tensor<4xf32> attributes {kernel.kind = "tem", kernel.ops = ["matmul", "reduce_sum"]} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x6xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %r = linalg.generic {indexing_maps = [#mk, #kn, #mn3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<4x5xf32>, tensor<5x6xf32>) outs(%f : tensor<4x6xf32>) attrs = {braze.ops = ["matmul"]} {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %t = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%r : tensor<4x6xf32>) outs(%f1 : tensor<4xf32>) attrs = {braze.ops = ["reduce_sum"]} {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %t : tensor<4xf32>
}

// Two products of one A (what form-kernels{horizontal-templates} builds) are taken:
// one pass over A computes both tiles.
// CHECK: kernel @two_products: matmul template gemm {{.*}} products=2, 4x6x5
func.func private @two_products(%a: tensor<4x5xf32>, %b: tensor<5x6xf32>, %c: tensor<5x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) attributes {kernel.kind = "tem", kernel.ops = ["matmul", "matmul"]} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x6xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %r = linalg.generic {indexing_maps = [#mk, #kn, #mn3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<4x5xf32>, tensor<5x6xf32>) outs(%f : tensor<4x6xf32>) attrs = {braze.ops = ["matmul"]} {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  %r2 = linalg.generic {indexing_maps = [#mk, #kn, #mn3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %c : tensor<4x5xf32>, tensor<5x6xf32>) outs(%f : tensor<4x6xf32>) attrs = {braze.ops = ["matmul"]} {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  return %r, %r2 : tensor<4x6xf32>, tensor<4x6xf32>
}

// Two products of different A are not.
// CHECK: kernel @two_inputs: no matmul template: two-contractions
func.func private @two_inputs(%a: tensor<4x5xf32>, %a2: tensor<4x5xf32>, %b: tensor<5x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) attributes {kernel.kind = "tem", kernel.ops = ["matmul", "matmul"]} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x6xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %r = linalg.generic {indexing_maps = [#mk, #kn, #mn3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<4x5xf32>, tensor<5x6xf32>) outs(%f : tensor<4x6xf32>) attrs = {braze.ops = ["matmul"]} {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  %r2 = linalg.generic {indexing_maps = [#mk, #kn, #mn3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a2, %b : tensor<4x5xf32>, tensor<5x6xf32>) outs(%f : tensor<4x6xf32>) attrs = {braze.ops = ["matmul"]} {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  return %r, %r2 : tensor<4x6xf32>, tensor<4x6xf32>
}
