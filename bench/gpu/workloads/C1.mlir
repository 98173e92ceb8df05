// C1: a chain of 24 pointwise ops on x[512, 1024] f32, a many-kernel graph when each op is
// its own kernel (pipelines/cuda-no-fusion): launch overhead dominates, CUDA graphs help.
func.func @C1(%x: tensor<512x1024xf32>) -> tensor<512x1024xf32> {
  %0 = "graph.mul"(%x, %x) : (tensor<512x1024xf32>, tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %1 = "graph.add"(%0, %x) : (tensor<512x1024xf32>, tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %2 = "graph.tanh"(%1) : (tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %3 = "graph.mul"(%2, %2) : (tensor<512x1024xf32>, tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %4 = "graph.add"(%3, %x) : (tensor<512x1024xf32>, tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %5 = "graph.tanh"(%4) : (tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %6 = "graph.mul"(%5, %5) : (tensor<512x1024xf32>, tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %7 = "graph.add"(%6, %x) : (tensor<512x1024xf32>, tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %8 = "graph.tanh"(%7) : (tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %9 = "graph.mul"(%8, %8) : (tensor<512x1024xf32>, tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %10 = "graph.add"(%9, %x) : (tensor<512x1024xf32>, tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %11 = "graph.tanh"(%10) : (tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %12 = "graph.mul"(%11, %11) : (tensor<512x1024xf32>, tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %13 = "graph.add"(%12, %x) : (tensor<512x1024xf32>, tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %14 = "graph.tanh"(%13) : (tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %15 = "graph.mul"(%14, %14) : (tensor<512x1024xf32>, tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %16 = "graph.add"(%15, %x) : (tensor<512x1024xf32>, tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %17 = "graph.tanh"(%16) : (tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %18 = "graph.mul"(%17, %17) : (tensor<512x1024xf32>, tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %19 = "graph.add"(%18, %x) : (tensor<512x1024xf32>, tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %20 = "graph.tanh"(%19) : (tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %21 = "graph.mul"(%20, %20) : (tensor<512x1024xf32>, tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %22 = "graph.add"(%21, %x) : (tensor<512x1024xf32>, tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %23 = "graph.tanh"(%22) : (tensor<512x1024xf32>) -> tensor<512x1024xf32>
  return %23 : tensor<512x1024xf32>
}
