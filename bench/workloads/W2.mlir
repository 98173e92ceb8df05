// W2 softmax over the last dim.
func.func @W2(%x: tensor<4096x1024xf32>) -> tensor<4096x1024xf32> {
  %0 = "graph.softmax"(%x) {dim = 1 : i64} : (tensor<4096x1024xf32>) -> tensor<4096x1024xf32>
  return %0 : tensor<4096x1024xf32>
}
