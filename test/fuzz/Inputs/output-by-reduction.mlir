// A contraction whose output is indexed by its reduction loop (d2) and not by the
// parallel d1: linalg accepts it, the codegens wrote its initial value with no index for
// d2 and crashed (fuzz-mlir-pipeline, a mutation of a form-kernels test).
func.func @two_matmuls(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %r = arith.mulf %p, %q : f32
    %s = arith.addf %r, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}
