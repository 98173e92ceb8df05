// Two pieces of work that share an input but each end in a collective (shard-chunk's
// chunks of one all_reduce's rows, here two exps of one x) are not fused horizontally:
// in one kernel the first collective would wait for both pieces and could not run
// beside the second (`separate-collectives`). Without the collectives they are one
// kernel.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose,graph-to-loops,inline-unrealized,form-kernels{remarks})' 2>&1 | FileCheck %s
// RUN: sed -e 's/"graph.all_reduce"(\(%[ab]\)) {[^}]*}/"graph.neg"(\1)/' %s \
// RUN:   | braze-opt --cpu=x86-64-v4 --pass-pipeline='builtin.module(graph-decompose,graph-to-loops,inline-unrealized,form-kernels{remarks})' 2>&1 | FileCheck %s --check-prefix=ONE

// CHECK: remark: form-kernels: #0 'exp' and #2 'mul,exp' not fused: separate-collectives
// CHECK-LABEL: func.func @two_pieces(
// CHECK: %[[A:.*]] = call @cpu_poi_fused_exp_0(
// CHECK: "graph.all_reduce"(%[[A]])
// CHECK: %[[B:.*]] = call @cpu_poi_fused_mul_exp_1(
// CHECK: "graph.all_reduce"(%[[B]])

// ONE: remark: form-kernels: #0 'exp,neg' and #1 'mul,exp,neg' fused (horizontal
// ONE-LABEL: func.func @two_pieces(
// ONE: call @cpu_poi_fused_exp_neg_mul_0(
func.func @two_pieces(%x: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>)
    attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  %a = "graph.exp"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %ra = "graph.all_reduce"(%a) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %h = "graph.mul"(%x, %x) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %b = "graph.exp"(%h) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %rb = "graph.all_reduce"(%b) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  return %ra, %rb : tensor<64x64xf32>, tensor<64x64xf32>
}
