// report-format=dot: the fusion graph for Graphviz (`dot -Tpng`), a cluster per
// function and kernel, a box per node, an edge per candidate pair with its decision.
// RUN: braze-opt --cpu=x86-64-v4 %s '--form-kernels=report-format=dot report=%t.dot' | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --match-full-lines --strict-whitespace < %t.dot
// RUN: braze-opt --cpu=x86-64-v4 %s --form-kernels=report-format=dot 2>&1 >/dev/null | FileCheck %s --check-prefix=STDERR

// IR: call @cpu_per_fused_reduce_sum_div_0
// IR: call @cpu_poi_fused_mul_1

// CHECK:digraph fusion {
// CHECK-NEXT:  graph [fontname="Helvetica", fontsize=11];
// CHECK-NEXT:  node [shape=box, fontname="Helvetica", fontsize=10];
// CHECK-NEXT:  edge [fontname="Helvetica", fontsize=9];
// CHECK-NEXT:  subgraph cluster_f0 {
// CHECK-NEXT:    label="@f";
// CHECK-NEXT:    subgraph cluster_f0_k0 {
// CHECK-NEXT:      label="cpu_per_fused_reduce_sum_div_0\nper, score 144";
// CHECK-NEXT:      style=filled; fillcolor="#e8f5e9";
// CHECK-NEXT:      f0_n0 [label="#0 f/reduce_sum#0\nreduce_sum\nred 4x8"];
// CHECK-NEXT:      f0_n1 [label="#1 Div \"q\"\ndiv\npoi 4x8"];
// CHECK-NEXT:    }
// CHECK-NEXT:    subgraph cluster_f0_k1 {
// CHECK-NEXT:      label="cpu_poi_fused_mul_1\npoi, score 0";
// CHECK-NEXT:      style=filled; fillcolor="#e3f2fd";
// CHECK-NEXT:      f0_n2 [label="#2 f/mul#2\nmul\npoi 8x4"];
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NEXT:  f0_n0 -> f0_n1 [label="reduction-epilogue 144\nfused (step 1)"];
// CHECK-NEXT:  f0_n0 -> f0_n2 [label="horizontal 128\nrefused: iteration-space-mismatch", color=red, fontcolor=red, style=dashed, dir=none];
// CHECK-NEXT:  f0_n1 -> f0_n2 [label="horizontal 128\nrefused: iteration-space-mismatch", color=red, fontcolor=red, style=dashed, dir=none];
// CHECK-NEXT:}
// CHECK-EMPTY:

// STDERR: digraph fusion {

func.func @f(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<8x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %e4 = tensor.empty() : tensor<4xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%f4 : tensor<4xf32>) attrs = {braze.ops = ["reduce_sum"]} {
  ^bb0(%p: f32, %acc: f32):
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<4x8xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) attrs = {braze.ops = ["div"]} {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.divf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32> loc("Div \"q\"")
  %et = tensor.empty() : tensor<8x4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%et : tensor<8x4xf32>) attrs = {braze.ops = ["mul"]} {
  ^bb0(%p: f32, %o: f32):
    %r = arith.mulf %p, %p : f32
    linalg.yield %r : f32
  } -> tensor<8x4xf32>
  return %d, %t : tensor<4x8xf32>, tensor<8x4xf32>
}
