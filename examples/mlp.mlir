// A transformer MLP block in the graph dialect: linear -> gelu -> linear, plus the
// residual, then layer_norm. 128 tokens, model width 256, hidden width 1024.
// Weights are inputs so `braze check` feeds them random values too.
//   braze compile examples/mlp.mlir -o libmlp.so    (writes mlp.h beside it)
//   braze check examples/mlp.mlir
func.func @mlp(%x: tensor<128x256xf32>,
               %w1: tensor<1024x256xf32>, %b1: tensor<1024xf32>,
               %w2: tensor<256x1024xf32>, %b2: tensor<256xf32>,
               %gamma: tensor<256xf32>, %beta: tensor<256xf32>) -> tensor<128x256xf32> {
  %h = "graph.linear"(%x, %w1, %b1) : (tensor<128x256xf32>, tensor<1024x256xf32>, tensor<1024xf32>) -> tensor<128x1024xf32>
  %a = "graph.gelu"(%h) {approximate = "none"} : (tensor<128x1024xf32>) -> tensor<128x1024xf32>
  %y = "graph.linear"(%a, %w2, %b2) : (tensor<128x1024xf32>, tensor<256x1024xf32>, tensor<256xf32>) -> tensor<128x256xf32>
  %r = "graph.add"(%y, %x) : (tensor<128x256xf32>, tensor<128x256xf32>) -> tensor<128x256xf32>
  %n = "graph.layer_norm"(%r, %gamma, %beta) {axis = 1 : i64, eps = 1.0e-05 : f32} : (tensor<128x256xf32>, tensor<256xf32>, tensor<256xf32>) -> tensor<128x256xf32>
  return %n : tensor<128x256xf32>
}
