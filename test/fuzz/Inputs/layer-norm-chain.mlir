// Four layer_norms over tensor<4xf32>, each with its own weight and bias (the
// differential fuzz target's finding, test/fuzz/inlined-inputs.test).
func.func @f(%a0: tensor<4xf32>, %a1: tensor<4xf32>, %a2: tensor<4xf32>, %a3: tensor<4xf32>, %a4: tensor<4xf32>, %a5: tensor<4xf32>, %a6: tensor<4xf32>, %a7: tensor<4xf32>, %a8: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = "graph.layer_norm"(%a0, %a1, %a2) {axis = 0 : i64, eps = 1.0e-05 : f32} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "graph.layer_norm"(%0, %a3, %a4) {axis = 0 : i64, eps = 1.0e-05 : f32} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = "graph.layer_norm"(%1, %a5, %a6) {axis = 0 : i64, eps = 1.0e-05 : f32} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %3 = "graph.layer_norm"(%2, %a7, %a8) {axis = 0 : i64, eps = 1.0e-05 : f32} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %3, %a5 : tensor<4xf32>, tensor<4xf32>
}
