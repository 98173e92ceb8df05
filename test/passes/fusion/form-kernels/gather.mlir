// Gathers in the fusion graph. With inline-unrealized (the default pipelines) the
// embedding's data producer, the gather and its consumers are one node and one
// kernel. Without inlining, form-kernels fuses the gather with its pointwise
// consumers (the index is read at the same loop indices as the output is written)
// and refuses the producer of the gathered data, which the gather reads at run-time
// positions (a captured tensor): iteration-space-mismatch when the spaces differ,
// indexing-mismatch when they agree; the shared-input pair through that read too.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(func.func(graph-to-loops,inline-unrealized),form-kernels{report=%t.inl})' | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=INLINED --match-full-lines < %t.inl
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(func.func(graph-to-loops,inline-unrealized{disable}),form-kernels{report=%t.sep})' -o /dev/null
// RUN: FileCheck %s --check-prefix=SEPARATE --match-full-lines < %t.sep

// IR-LABEL: func.func private @cpu_poi_fused_tanh_gather_mul_add_0(
// IR-SAME: %arg0: tensor<4x6xi64>, %arg1: tensor<16xf32>, %arg2: tensor<6x16xf32>, %arg3: tensor<50x16xf32>)
// IR: tensor.extract %arg3[
// IR-NEXT: math.tanh
// IR-LABEL: func.func @embedding(
// IR: call @cpu_poi_fused_tanh_gather_mul_add_0(%arg1, %arg2, %arg3, %arg0)

// INLINED:      form-kernels report @embedding
// INLINED-NEXT: nodes:
// INLINED-NEXT:   #0 tanh,gather,mul,add poi 4x6x16
// INLINED:      kernels:
// INLINED-NEXT:   cpu_poi_fused_tanh_gather_mul_add_0 poi nodes=#0 ops=tanh,gather,mul,add score=0
// INLINED:      form-kernels report @same_shape
// INLINED:        cpu_poi_fused_exp_gather_add_1 poi nodes=#0 ops=exp,gather,add score=0

// SEPARATE:      form-kernels report @embedding
// SEPARATE-NEXT: nodes:
// SEPARATE-NEXT:   #0 tanh poi 50x16
// SEPARATE-NEXT:   #1 gather poi 4x6x16
// SEPARATE-NEXT:   #2 mul poi 4x6x16
// SEPARATE-NEXT:   #3 add poi 4x6x16
// SEPARATE-NEXT: candidates:
// SEPARATE-NEXT:   #0 -> #1 (tanh -> gather) vertical score=3200 refused reason=iteration-space-mismatch
// SEPARATE-NEXT:   #1 -> #2 (gather -> mul) vertical score=1536 fused step=1
// SEPARATE-NEXT:   #2 -> #3 (mul -> add) vertical score=1536 fused step=2
// SEPARATE-NEXT: steps:
// SEPARATE-NEXT:   1: #1 + #2 vertical score=1536
// SEPARATE-NEXT:   2: #1 + #3 vertical score=1536
// SEPARATE-NEXT: kernels:
// SEPARATE-NEXT:   cpu_poi_fused_tanh_0 poi nodes=#0 ops=tanh score=0
// SEPARATE-NEXT:   cpu_poi_fused_gather_mul_add_1 poi nodes=#1,#2,#3 ops=gather,mul,add score=3072
// SEPARATE-NEXT: form-kernels report @same_shape
// SEPARATE-NEXT: nodes:
// SEPARATE-NEXT:   #0 exp poi 8x16
// SEPARATE-NEXT:   #1 gather poi 8x16
// SEPARATE-NEXT:   #2 add poi 8x16
// SEPARATE-NEXT: candidates:
// SEPARATE-NEXT:   #0 -> #1 (exp -> gather) vertical score=512 refused reason=indexing-mismatch
// SEPARATE-NEXT:   #0 ~ #2 (exp ~ add) horizontal score=512 refused reason=indexing-mismatch
// SEPARATE-NEXT:   #1 -> #2 (gather -> add) vertical score=512 fused step=1
// SEPARATE-NEXT: steps:
// SEPARATE-NEXT:   1: #1 + #2 vertical score=512
// SEPARATE-NEXT: kernels:
// SEPARATE-NEXT:   cpu_poi_fused_exp_2 poi nodes=#0 ops=exp score=0
// SEPARATE-NEXT:   cpu_poi_fused_gather_add_3 poi nodes=#1,#2 ops=gather,add score=512

func.func @embedding(%table: tensor<50x16xf32>, %ids: tensor<4x6xi64>, %scale: tensor<16xf32>, %pos: tensor<6x16xf32>) -> tensor<4x6x16xf32> {
  %t = "graph.tanh"(%table) : (tensor<50x16xf32>) -> tensor<50x16xf32>
  %e = "graph.gather"(%t, %ids) {axis = 0 : i64} : (tensor<50x16xf32>, tensor<4x6xi64>) -> tensor<4x6x16xf32>
  %s = "graph.mul"(%e, %scale) : (tensor<4x6x16xf32>, tensor<16xf32>) -> tensor<4x6x16xf32>
  %r = "graph.add"(%s, %pos) : (tensor<4x6x16xf32>, tensor<6x16xf32>) -> tensor<4x6x16xf32>
  return %r : tensor<4x6x16xf32>
}
func.func @same_shape(%x: tensor<8x16xf32>, %ids: tensor<8xi64>) -> tensor<8x16xf32> {
  %t = "graph.exp"(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %e = "graph.gather"(%t, %ids) {axis = 0 : i64} : (tensor<8x16xf32>, tensor<8xi64>) -> tensor<8x16xf32>
  %r = "graph.add"(%e, %x) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
