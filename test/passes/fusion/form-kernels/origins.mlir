// Kernel names from the ops the user wrote: graph-decompose marks what it creates
// with the composite (in the location), graph-to-loops and inline-unrealized carry
// it as braze.origins, and form-kernels names kernels by origins (deduplicated, in
// order of first appearance, at most 6), while kernel.ops and the report keep every
// primitive. `per`: a reduction over at most persistent-max (1024) elements.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{report=%t.txt plan-out=%t.json})' | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: FileCheck %s --check-prefix=PLAN < %t.json
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized)' | FileCheck %s --check-prefix=LOOPS
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{persistent-max=2048 target=cuda})' | FileCheck %s --check-prefix=WIDE
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{explain=Act_0,Mul_1})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: not braze-opt --cpu=x86-64-v4 %s --form-kernels=persistent-max=many 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK: func.func private @cpu_per_fused_layer_norm_gelu_0({{.*}} attributes {kernel.kind = "per", kernel.ops = ["reduce_mean", "reduce_mean", "sub", "reduce_mean",
// CHECK: call @cpu_per_fused_layer_norm_gelu_0(
// CHECK: func.func private @cpu_red_fused_softmax_1({{.*}} attributes {kernel.kind = "red", kernel.ops = ["reduce_max", "sub", "exp", "reduce_sum", "div"]
// CHECK: call @cpu_red_fused_softmax_1(
// CHECK: call @cpu_poi_fused_gelu_mul_2(
// CHECK: func.func private @cpu_poi_fused_exp_neg_abs_sqrt_relu_tanh_3({{.*}} kernel.ops = ["exp", "neg", "abs", "sqrt", "relu", "tanh", "sigmoid", "log"]

// REPORT: cpu_per_fused_layer_norm_gelu_0 per nodes=#0,#1,#2,#3,#4 ops=reduce_mean,reduce_mean,sub,reduce_mean,
// REPORT: cpu_red_fused_softmax_1 red nodes=#0,#1,#2,#3 ops=reduce_max,sub,exp,reduce_sum,div

// A composite's ONNX name survives decomposition (plan names, explain).
// PLAN: {"name": "cpu_poi_fused_gelu_mul_2", "kind": "poi", "ops": ["Act_0", "Mul_1"]}
// EXPLAIN: remark: explain: #0 'mul,erf,add,mul,mul' and #1 'mul' fused into cpu_poi_fused_gelu_mul_2

// LOOPS: braze.ops = ["reduce_mean"], braze.origins = ["layer_norm"]
// LOOPS: braze.ops = ["reduce_max"], braze.origins = ["softmax"]
// LOOPS: braze.ops = ["mul", "erf", "add", "mul", "mul"], braze.origins = ["gelu", "gelu", "gelu", "gelu", "gelu"]
// LOOPS: braze.ops = ["mul"]}
// Ops the user wrote carry no braze.origins.
// LOOPS-NOT: braze.origins

// WIDE: call @cuda_per_fused_layer_norm_gelu_0(
// WIDE: call @cuda_per_fused_softmax_1(

// BAD: option 'persistent-max' expects an integer, got 'many'

func.func @norm_gelu(%x: tensor<8x64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<8x64xf32> {
  %n = "graph.layer_norm"(%x, %g, %b) {axis = 1 : i64, eps = 1.0e-05 : f32} : (tensor<8x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<8x64xf32>
  %a = "graph.gelu"(%n) {approximate = "tanh"} : (tensor<8x64xf32>) -> tensor<8x64xf32>
  return %a : tensor<8x64xf32>
}
func.func @long_rows(%x: tensor<4x2048xf32>) -> tensor<4x2048xf32> {
  %s = "graph.softmax"(%x) {dim = 1 : i64} : (tensor<4x2048xf32>) -> tensor<4x2048xf32>
  return %s : tensor<4x2048xf32>
}
func.func @named(%x: tensor<8x64xf32>, %y: tensor<8x64xf32>) -> (tensor<8x64xf32>, tensor<8x64xf32>) {
  %a = "graph.gelu"(%x) {approximate = "none"} : (tensor<8x64xf32>) -> tensor<8x64xf32> loc("Act_0")
  %m = "graph.mul"(%a, %y) : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32> loc("Mul_1")
  return %a, %m : tensor<8x64xf32>, tensor<8x64xf32>
}
func.func @chain(%x: tensor<64xf32>) -> tensor<64xf32> {
  %0 = "graph.exp"(%x) : (tensor<64xf32>) -> tensor<64xf32>
  %1 = "graph.neg"(%0) : (tensor<64xf32>) -> tensor<64xf32>
  %2 = "graph.abs"(%1) : (tensor<64xf32>) -> tensor<64xf32>
  %3 = "graph.sqrt"(%2) : (tensor<64xf32>) -> tensor<64xf32>
  %4 = "graph.relu"(%3) : (tensor<64xf32>) -> tensor<64xf32>
  %5 = "graph.tanh"(%4) : (tensor<64xf32>) -> tensor<64xf32>
  %6 = "graph.sigmoid"(%5) : (tensor<64xf32>) -> tensor<64xf32>
  %7 = "graph.log"(%6) : (tensor<64xf32>) -> tensor<64xf32>
  return %7 : tensor<64xf32>
}
