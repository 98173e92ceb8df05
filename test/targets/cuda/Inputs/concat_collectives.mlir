// Concats of collectives' results (braze_graph_concat_of_collectives): each collective
// writes its block of the concat's memory, so no concat kernel runs:
// test/targets/cuda/concat-collectives.test.
func.func @cat(%a: tensor<2x6xf32>, %b: tensor<2x6xf32>) -> tensor<4x6xf32> attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  %ra = "graph.all_reduce"(%a) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<2x6xf32>) -> tensor<2x6xf32>
  %rb = "graph.all_reduce"(%b) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<2x6xf32>) -> tensor<2x6xf32>
  %y = "graph.concat"(%ra, %rb) {dim = 0 : i64} : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}
// A chain of concats, one of them along dim 1 of [1, n] blocks (still contiguous), the
// blocks of different sizes and kinds (an all_gather's result too).
func.func @chain(%a: tensor<1x6xf32>, %b: tensor<1x3xf32>, %c: tensor<1x6xf32>) -> tensor<1x18xf32> attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  %ra = "graph.all_reduce"(%a) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<1x6xf32>) -> tensor<1x6xf32>
  %gb = "graph.all_gather"(%b) {dim = 1 : i64, mesh_axes = ["tp"]} : (tensor<1x3xf32>) -> tensor<1x6xf32>
  %rc = "graph.all_reduce"(%c) {mesh_axes = ["tp"], reduction = "max"} : (tensor<1x6xf32>) -> tensor<1x6xf32>
  %ab = "graph.concat"(%ra, %gb) {dim = 1 : i64} : (tensor<1x6xf32>, tensor<1x6xf32>) -> tensor<1x12xf32>
  %y = "graph.concat"(%ab, %rc) {dim = 1 : i64} : (tensor<1x12xf32>, tensor<1x6xf32>) -> tensor<1x18xf32>
  return %y : tensor<1x18xf32>
}
// The concat read by a kernel: it lives in the workspace, the blocks in its buffer.
func.func @read(%a: tensor<2x6xf32>, %b: tensor<2x6xf32>) -> tensor<4x6xf32> attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  %ra = "graph.all_reduce"(%a) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<2x6xf32>) -> tensor<2x6xf32>
  %rb = "graph.all_reduce"(%b) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<2x6xf32>) -> tensor<2x6xf32>
  %c = "graph.concat"(%ra, %rb) {dim = 0 : i64} : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<4x6xf32>
  %y = "graph.exp"(%c) : (tensor<4x6xf32>) -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}
// Not blocks: columns of a [2, 3] value are not contiguous in a [2, 6] one, and a sum
// also returned on its own has other readers; both concats are kernels.
func.func @columns(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x6xf32> attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  %ra = "graph.all_reduce"(%a) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %rb = "graph.all_reduce"(%b) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %y = "graph.concat"(%ra, %rb) {dim = 1 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  return %y : tensor<2x6xf32>
}
func.func @shared(%a: tensor<2x6xf32>, %b: tensor<2x6xf32>) -> (tensor<4x6xf32>, tensor<2x6xf32>) attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  %ra = "graph.all_reduce"(%a) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<2x6xf32>) -> tensor<2x6xf32>
  %rb = "graph.all_reduce"(%b) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<2x6xf32>) -> tensor<2x6xf32>
  %y = "graph.concat"(%ra, %rb) {dim = 0 : i64} : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<4x6xf32>
  return %y, %rb : tensor<4x6xf32>, tensor<2x6xf32>
}
