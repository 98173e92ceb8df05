// Not a test: input for test/tools (the second of three chunks is bad).
func.func @good1(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

func.func @bad(%a: tensor<4x8xf32>, %b: tensor<3xf32>) -> tensor<4x8xf32> {
  %0 = "graph.add"(%a, %b) : (tensor<4x8xf32>, tensor<3xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @good2(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
