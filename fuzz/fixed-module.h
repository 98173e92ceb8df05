/* The fixed graph module the pipeline-text and fusion-plan targets run on: two
 * functions with pointwise, reduction, contraction, layout and composite ops, so
 * every fusion kind (poi, per, red, tem, horizontal) has candidates. fuzz/seeds.sh
 * writes its fusion plans (form-kernels{plan-out}) as the fusion-plan seeds. */
#ifndef BRAZE_FUZZ_FIXED_MODULE_H
#define BRAZE_FUZZ_FIXED_MODULE_H

static const char fz_fixed_module[] =
    "func.func @mlp(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>, %b: tensor<32xf32>, %g: tensor<32xf32>)\n"
    "    -> (tensor<8x32xf32>, tensor<8x1xf32>) {\n"
    "  %0 = \"graph.matmul\"(%x, %w) : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>\n"
    "  %1 = \"graph.add\"(%0, %b) : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>\n"
    "  %2 = \"graph.gelu\"(%1) {approximate = \"none\"} : (tensor<8x32xf32>) -> tensor<8x32xf32>\n"
    "  %3 = \"graph.layer_norm\"(%2, %g, %b) {axis = 1 : i64, eps = 1.0e-05 : f32}\n"
    "      : (tensor<8x32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<8x32xf32>\n"
    "  %4 = \"graph.softmax\"(%3) {dim = 1 : i64} : (tensor<8x32xf32>) -> tensor<8x32xf32>\n"
    "  %5 = \"graph.reduce_max\"(%1) {dims = array<i64: 1>, keepdim = true} : (tensor<8x32xf32>) -> tensor<8x1xf32>\n"
    "  %6 = \"graph.exp\"(%5) : (tensor<8x1xf32>) -> tensor<8x1xf32>\n"
    "  return %4, %6 : tensor<8x32xf32>, tensor<8x1xf32>\n"
    "}\n"
    "func.func @attn(%q: tensor<2x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>) -> tensor<2x8x4xf32> {\n"
    "  %0 = \"graph.transpose\"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<2x4x8xf32>) -> tensor<2x8x4xf32>\n"
    "  %1 = \"graph.batch_matmul\"(%q, %0) : (tensor<2x4x8xf32>, tensor<2x8x4xf32>) -> tensor<2x4x4xf32>\n"
    "  %2 = \"graph.softmax\"(%1) {dim = 2 : i64} : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>\n"
    "  %3 = \"graph.batch_matmul\"(%2, %v) : (tensor<2x4x4xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>\n"
    "  %4 = \"graph.tanh\"(%3) : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>\n"
    "  %5 = \"graph.transpose\"(%4) {perm = array<i64: 0, 2, 1>} : (tensor<2x4x8xf32>) -> tensor<2x8x4xf32>\n"
    "  %6 = \"graph.mul\"(%5, %0) : (tensor<2x8x4xf32>, tensor<2x8x4xf32>) -> tensor<2x8x4xf32>\n"
    "  return %6 : tensor<2x8x4xf32>\n"
    "}\n";

#endif
