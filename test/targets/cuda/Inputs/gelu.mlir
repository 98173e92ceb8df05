// A graph-level module for the cuda target's run/check tests.
func.func @gelu_bias(%x: tensor<7x37xf32>, %b: tensor<37xf32>) -> tensor<7x37xf32> {
  %0 = "graph.add"(%x, %b) : (tensor<7x37xf32>, tensor<37xf32>) -> tensor<7x37xf32>
  %1 = "graph.gelu"(%0) {approximate = "none"} : (tensor<7x37xf32>) -> tensor<7x37xf32>
  return %1 : tensor<7x37xf32>
}
