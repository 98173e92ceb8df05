// A producer (exp then neg: two body ops after inlining) read by five consumers.
func.func @five(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = "graph.exp"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %n = "graph.neg"(%0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = "graph.add"(%n, %y) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %2 = "graph.add"(%n, %1) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %3 = "graph.add"(%n, %2) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %4 = "graph.add"(%n, %3) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %5 = "graph.add"(%n, %4) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %1, %2, %3, %4, %5 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
