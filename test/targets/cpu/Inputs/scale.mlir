// out = 2 * in + 1 on 4x32 f32 (cpu-refusal.test's library).
func.func @scale(%x: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %two = "graph.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %one = "graph.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "graph.mul"(%x, %two) : (tensor<4x32xf32>, tensor<f32>) -> tensor<4x32xf32>
  %1 = "graph.add"(%0, %one) : (tensor<4x32xf32>, tensor<f32>) -> tensor<4x32xf32>
  return %1 : tensor<4x32xf32>
}
