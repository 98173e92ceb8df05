// cpu-codegen reads a tensor.extract in a generic body (a gather's indexed read) from
// a kernel argument or constant only; a tensor computed in the same kernel is refused
// at the generic (form-kernels never builds such a kernel: the read is a captured
// tensor, refused as indexing-mismatch; inline-unrealized inlines a pointwise one).
// RUN: braze-opt --cpu=x86-64-v4 %s --verify-diagnostics --cpu-codegen

// A hand-written kernel whose generic extracts from a tensor the kernel computes.
func.func private @cpu_poi_fused_exp_gather_0(%x: tensor<8xf32>, %i: tensor<4xindex>) -> tensor<4xf32> attributes {kernel.kind = "poi", kernel.ops = ["exp", "gather"]} {
  %e0 = tensor.empty() : tensor<8xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e0 : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  // expected-error@+1 {{cpu-codegen: kernel @cpu_poi_fused_exp_gather_0: tensor.extract (an indexed read) of a tensor that is not a kernel argument or constant}}
  %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%i : tensor<4xindex>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%k: index, %o: f32):
    %v = tensor.extract %ex[%k] : tensor<8xf32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %g : tensor<4xf32>
}
func.func @f(%x: tensor<8xf32>, %i: tensor<4xindex>) -> tensor<4xf32> {
  %0 = call @cpu_poi_fused_exp_gather_0(%x, %i) : (tensor<8xf32>, tensor<4xindex>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
