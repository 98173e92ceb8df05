// form-row-chains through views, as exporters write attention: PyTorch's
// TransformerEncoderLayer (opset 17, batch_first, post-LN; d_model 32, 4 heads, seq 16,
// batch 2) takes q, k and v out of one in-projection by slice, reshape and transpose,
// scales q by a div, and reads the heads back for the out-projection through a
// transpose and a reshape (graph-simplify's scale-out-of-batch-matmul moves the div to
// the scores; q's view is then copied per block by its transpose's kernel). graph-simplify's matmul-of-transposed-rows runs the
// in-projection on x as stored ([B, S, 3E]) and moves the sequence-first transpose to its
// result; graph-to-loops simplifies the composed maps with the loop extents
// (support/affine-bounds.h); each chain argument read through such a map is sliced per
// block at an affine offset of the block's indices (RC_AFFINE slices,
// passes/chains/row-local.h): q's window of one head's 8 columns at (h mod 4) * 8 of
// batch h floordiv 4, k and v the same at columns 32 and 64; the residual [s * 2 + b, E]
// out-projection read by (b, s) is a strided slice of 16 rows. The FFN chain keeps a
// result read by two later links (the residual after the first layer norm) and its
// constant weights cost no repacking (packed at compile time).
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{horizontal-templates},form-row-chains{remarks})' 2>&1 | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{horizontal-templates},form-row-chains{remarks rows=8})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=MIXED
// On CUDA the attention takes the online form with k and v copied to heads
// (test/gpu/cases/attention-views.mlir); in f32 the flash template (online=half) does not
// take it, and the copies are undone: the kernels are those form-kernels made.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda horizontal-templates=half},form-row-chains{target=cuda online=half remarks})' 2>&1 | FileCheck %s --check-prefix=CUDA
// CUDA: remark: form-row-chains: no online chain from this call: q-or-k-read-through-a-view; with the heads copied: online=half: not bf16 or f16 with head dims 64 or 128
// CUDA-NOT: poi_fused_heads
// CUDA: call @cuda_tem_fused_batch_matmul_2(
// CUDA-NOT: poi_fused_heads

// CHECK: views.mlir:76:8: remark: form-row-chains: 4 kernels as @cpu_chain_fused_transpose_batch_matmul_div_softmax_0: blocks of 16 rows; stops before @cpu_tem_fused_matmul_5 (different-rows)
// CHECK: views.mlir:88:11: remark: form-row-chains: no chain @cpu_tem_fused_matmul_5 -> {{.*}}: not-row-local (@cpu_tem_fused_matmul_5 reads argument #0 through (d0, d1, d2) -> ((d0 mod 2) * 4 + d2 floordiv 8, d0 floordiv 2, d2 mod 8))
// CHECK: views.mlir:94:9: remark: form-row-chains: 4 kernels as @cpu_chain_fused_add_layer_norm_batch_matmul_relu_0: blocks of 16 rows
// CHECK-DAG: #[[Q:.*]] = affine_map<(d0, d1, d2) -> (0, d1, d2)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1) -> (d0 floordiv 4)>
// CHECK-DAG: #[[QCOL:.*]] = affine_map<(d0, d1) -> ((d0 mod 4) * 8)>
// CHECK-DAG: #[[KCOL:.*]] = affine_map<(d0, d1) -> ((d0 mod 4) * 8 + 32)>
// CHECK-DAG: #[[VCOL:.*]] = affine_map<(d0, d1) -> ((d0 mod 4) * 8 + 64)>
// CHECK-DAG: #[[RES:.*]] = affine_map<(d0, d1) -> (d0 + d1 * 2)>
// CHECK-LABEL: func.func private @cpu_poi_fused_transpose_1_rows(%arg0: tensor<1x16x8xf32>) -> tensor<1x16x8xf32>
// CHECK: linalg.generic {indexing_maps = [#[[Q]],
// CHECK-LABEL: func.func private @cpu_chain_fused_transpose_batch_matmul_div_softmax_0(%arg0: tensor<2x16x96xf32>) -> tensor<8x16x8xf32>
// CHECK: scf.forall (%[[H:.*]], %[[M:.*]]) = (0, 0) to (8, 16) step (1, 16)
// CHECK: %[[BI:.*]] = affine.apply #[[B]](%[[H]], %[[M]])
// CHECK: %[[C:.*]] = affine.apply #[[QCOL]](%[[H]], %[[M]])
// CHECK: %[[QS:.*]] = tensor.extract_slice %arg0[%[[BI]], %[[M]], %[[C]]] [1, 16, 8] [1, 1, 1] : tensor<2x16x96xf32> to tensor<1x16x8xf32>
// CHECK: %[[KC:.*]] = affine.apply #[[KCOL]](%[[H]], %[[M]])
// CHECK: %[[KS:.*]] = tensor.extract_slice %arg0[%[[BI]], 0, %[[KC]]] [1, 16, 8] [1, 1, 1]
// CHECK: %[[VC:.*]] = affine.apply #[[VCOL]](%[[H]], %[[M]])
// CHECK: %[[VS:.*]] = tensor.extract_slice %arg0[%[[BI]], 0, %[[VC]]] [1, 16, 8] [1, 1, 1]
// CHECK: %[[QB:.*]] = func.call @cpu_poi_fused_transpose_1_rows(%[[QS]])
// CHECK: %[[SB:.*]] = func.call @cpu_tem_fused_batch_matmul_2_rows(%[[QB]], %[[KS]])
// CHECK: %[[PB:.*]] = func.call @cpu_per_fused_div_softmax_3_rows(%[[SB]])
// CHECK: func.call @cpu_tem_fused_batch_matmul_4_rows(%[[PB]], %[[VS]])
// CHECK-LABEL: func.func private @cpu_chain_fused_add_layer_norm_batch_matmul_relu_0(
// CHECK: %[[RR:.*]] = affine.apply #[[RES]](
// CHECK: %[[PROJ:.*]] = tensor.extract_slice %arg1[%[[RR]], 0] [16, 32] [2, 1] : tensor<32x32xf32> to tensor<16x32xf32>
// CHECK: %[[N1:.*]] = func.call @cpu_per_fused_add_layer_norm_6_rows(%{{.*}}, %[[PROJ]])
// CHECK: %[[H:.*]] = func.call @cpu_tem_fused_batch_matmul_relu_7_rows(%[[N1]], %arg2)
// CHECK: %[[F:.*]] = func.call @cpu_tem_fused_batch_matmul_8_rows(%[[H]], %arg3)
// CHECK: func.call @cpu_per_fused_add_layer_norm_9_rows(%[[N1]], %[[F]])
// CHECK-LABEL: func.func @encoder(
// CHECK: call @cpu_tem_fused_batch_matmul_0(
// CHECK-NEXT: call @cpu_chain_fused_transpose_batch_matmul_div_softmax_0(
// CHECK-NEXT: call @cpu_tem_fused_matmul_5(
// CHECK-NEXT: call @cpu_chain_fused_add_layer_norm_batch_matmul_relu_0(%arg0, %{{.*}}, %cst, %cst_0)

// A view whose rows mix with the head dim inside one floordiv (q reshaped from
// [16, 24]: row s of a head starts at element s * 3 of a 24-wide row) has no window per
// block: refused, naming the kernel, the argument and the map.
// MIXED: remark: form-row-chains: no chain @cpu_tem_fused_batch_matmul_{{[0-9]+}} -> @cpu_per_fused_softmax_{{[0-9]+}} -> @cpu_tem_fused_batch_matmul_{{[0-9]+}}: not-row-local (@cpu_tem_fused_batch_matmul_{{[0-9]+}} reads argument #0 through (d0, d1, d2, d3) -> (d0 * 2 + d1 floordiv 8, (d1 mod 8) * 3 + d3))

func.func @encoder(%x: tensor<2x16x32xf32>, %win: tensor<32x96xf32>, %wo: tensor<32x32xf32>) -> tensor<2x16x32xf32> {
  %xt = "graph.transpose"(%x) {perm = array<i64: 1, 0, 2>} : (tensor<2x16x32xf32>) -> tensor<16x2x32xf32>
  %p = "graph.batch_matmul"(%xt, %win) : (tensor<16x2x32xf32>, tensor<32x96xf32>) -> tensor<16x2x96xf32>
  %q0 = "graph.slice"(%p) {starts = array<i64: 0, 0, 0>, limits = array<i64: 16, 2, 32>, strides = array<i64: 1, 1, 1>} : (tensor<16x2x96xf32>) -> tensor<16x2x32xf32>
  %k0 = "graph.slice"(%p) {starts = array<i64: 0, 0, 32>, limits = array<i64: 16, 2, 64>, strides = array<i64: 1, 1, 1>} : (tensor<16x2x96xf32>) -> tensor<16x2x32xf32>
  %v0 = "graph.slice"(%p) {starts = array<i64: 0, 0, 64>, limits = array<i64: 16, 2, 96>, strides = array<i64: 1, 1, 1>} : (tensor<16x2x96xf32>) -> tensor<16x2x32xf32>
  %q1 = "graph.reshape"(%q0) : (tensor<16x2x32xf32>) -> tensor<16x8x8xf32>
  %q = "graph.transpose"(%q1) {perm = array<i64: 1, 0, 2>} : (tensor<16x8x8xf32>) -> tensor<8x16x8xf32>
  %k1 = "graph.reshape"(%k0) : (tensor<16x2x32xf32>) -> tensor<16x8x8xf32>
  %kt = "graph.transpose"(%k1) {perm = array<i64: 1, 2, 0>} : (tensor<16x8x8xf32>) -> tensor<8x8x16xf32>
  %v1 = "graph.reshape"(%v0) : (tensor<16x2x32xf32>) -> tensor<16x8x8xf32>
  %v = "graph.transpose"(%v1) {perm = array<i64: 1, 0, 2>} : (tensor<16x8x8xf32>) -> tensor<8x16x8xf32>
  %scale = "graph.constant"() {value = dense<2.82842708> : tensor<f32>} : () -> tensor<f32>
  %qs = "graph.div"(%q, %scale) : (tensor<8x16x8xf32>, tensor<f32>) -> tensor<8x16x8xf32>
  %s = "graph.batch_matmul"(%qs, %kt) : (tensor<8x16x8xf32>, tensor<8x8x16xf32>) -> tensor<8x16x16xf32>
  %pr = "graph.softmax"(%s) {dim = 2 : i64} : (tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %o = "graph.batch_matmul"(%pr, %v) : (tensor<8x16x16xf32>, tensor<8x16x8xf32>) -> tensor<8x16x8xf32>
  %ot = "graph.transpose"(%o) {perm = array<i64: 1, 0, 2>} : (tensor<8x16x8xf32>) -> tensor<16x8x8xf32>
  %o2 = "graph.reshape"(%ot) : (tensor<16x8x8xf32>) -> tensor<32x32xf32>
  %proj = "graph.matmul"(%o2, %wo) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %proj3 = "graph.reshape"(%proj) : (tensor<32x32xf32>) -> tensor<16x2x32xf32>
  %projt = "graph.transpose"(%proj3) {perm = array<i64: 1, 0, 2>} : (tensor<16x2x32xf32>) -> tensor<2x16x32xf32>
  %r1 = "graph.add"(%x, %projt) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  %g = "graph.constant"() {value = dense<1.0> : tensor<32xf32>} : () -> tensor<32xf32>
  %bt = "graph.constant"() {value = dense<0.0> : tensor<32xf32>} : () -> tensor<32xf32>
  %n1 = "graph.layer_norm"(%r1, %g, %bt) {axis = 2 : i64, eps = 1.0e-05 : f32} : (tensor<2x16x32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<2x16x32xf32>
  %w1 = "graph.constant"() {value = dense<[[-0.157, 0.027, -0.078, 0.062, 0.075, -0.261, -0.292, 0.202, -0.144, -0.159, 0.297, -0.018, 0.202, -0.014, 0.083, -0.210], [0.081, 0.221, 0.014, 0.145, 0.103, -0.262, 0.155, 0.055, -0.119, -0.281, 0.219, -0.016, 0.131, 0.227, 0.128, 0.253], [-0.063, 0.181, -0.033, 0.261, 0.227, -0.242, -0.218, -0.170, 0.279, -0.038, 0.076, -0.119, 0.004, -0.068, -0.089, 0.051], [0.051, 0.243, 0.109, 0.257, 0.214, 0.295, 0.103, -0.202, 0.216, 0.279, 0.243, 0.041, 0.128, -0.173, 0.199, 0.044], [-0.129, -0.262, 0.212, 0.294, -0.247, 0.180, -0.054, -0.210, -0.124, 0.161, 0.224, -0.273, 0.069, -0.273, 0.131, -0.101], [0.229, 0.288, 0.003, 0.299, -0.114, -0.254, 0.060, -0.281, -0.182, -0.055, 0.066, -0.206, -0.275, 0.221, -0.112, 0.275], [0.238, -0.073, -0.024, 0.012, 0.086, 0.057, 0.036, 0.072, 0.264, 0.004, -0.041, 0.132, -0.157, -0.119, 0.287, 0.013], [0.029, -0.293, -0.051, 0.048, -0.288, 0.069, 0.079, -0.264, 0.076, -0.020, 0.108, -0.088, 0.124, 0.143, -0.287, -0.264], [0.106, 0.278, -0.149, -0.026, 0.056, -0.108, -0.082, -0.112, -0.079, 0.057, -0.120, -0.074, 0.163, -0.284, 0.042, 0.141], [-0.114, -0.166, 0.182, -0.157, -0.188, -0.039, 0.119, -0.239, -0.107, -0.100, 0.200, -0.037, 0.213, -0.198, -0.098, 0.090], [0.231, -0.029, -0.165, -0.227, 0.018, -0.186, 0.184, 0.203, -0.190, -0.133, 0.184, 0.085, 0.184, -0.093, -0.222, -0.125], [0.176, -0.137, -0.092, -0.050, -0.048, -0.054, 0.252, -0.206, -0.297, 0.266, 0.228, 0.292, -0.039, 0.270, 0.256, -0.167], [0.147, 0.202, 0.098, 0.011, -0.127, -0.095, -0.164, -0.259, 0.053, -0.128, 0.186, -0.273, 0.242, 0.116, 0.254, 0.238], [0.240, 0.046, -0.292, 0.147, -0.197, -0.120, 0.098, 0.015, -0.052, 0.263, 0.067, -0.095, -0.149, 0.217, -0.014, 0.169], [-0.089, -0.182, 0.021, 0.190, -0.197, 0.175, 0.253, 0.184, 0.194, -0.295, 0.077, 0.218, -0.270, -0.137, -0.139, 0.016], [-0.046, -0.016, 0.166, -0.299, -0.267, -0.224, -0.225, -0.259, 0.285, 0.213, -0.248, 0.001, -0.110, -0.111, -0.089, 0.088], [0.052, -0.083, -0.185, -0.103, -0.226, 0.033, 0.130, -0.072, -0.252, -0.193, -0.076, 0.063, 0.170, -0.072, 0.181, 0.074], [-0.041, -0.077, -0.002, 0.122, -0.048, 0.116, -0.023, -0.153, 0.022, 0.117, -0.257, -0.045, -0.044, 0.228, 0.262, -0.075], [0.239, 0.175, -0.143, -0.022, -0.226, 0.188, 0.097, 0.232, 0.175, 0.101, 0.140, 0.038, -0.238, 0.053, -0.297, -0.214], [0.165, -0.273, -0.245, -0.240, 0.228, -0.193, -0.286, 0.205, -0.227, 0.206, 0.104, 0.202, 0.271, 0.047, 0.179, -0.278], [0.160, 0.007, 0.129, -0.236, 0.149, 0.261, -0.263, -0.105, 0.038, 0.197, -0.155, -0.192, -0.150, 0.070, 0.152, -0.064], [-0.080, -0.062, -0.090, -0.049, -0.250, 0.000, 0.284, -0.052, 0.148, -0.204, 0.115, 0.154, 0.104, 0.010, -0.010, 0.086], [0.238, -0.210, -0.242, 0.149, 0.250, 0.010, -0.034, 0.131, -0.188, -0.140, -0.180, 0.051, -0.111, -0.161, 0.115, 0.272], [-0.122, 0.123, -0.052, 0.212, 0.051, -0.140, -0.169, -0.286, -0.012, -0.070, -0.197, -0.084, -0.107, 0.165, -0.214, 0.295], [-0.012, 0.059, -0.019, 0.201, 0.193, 0.034, -0.011, 0.132, 0.214, -0.060, 0.140, 0.276, -0.020, -0.162, -0.159, 0.131], [0.105, 0.275, 0.212, -0.155, -0.186, -0.145, -0.188, 0.123, 0.215, 0.240, -0.147, 0.219, -0.112, -0.046, 0.137, -0.248], [-0.244, 0.200, -0.125, -0.086, 0.048, 0.105, -0.296, -0.099, -0.038, -0.008, -0.174, 0.051, 0.273, -0.065, 0.027, -0.228], [-0.135, 0.099, -0.232, 0.232, 0.245, -0.242, 0.265, -0.075, 0.163, 0.154, -0.123, 0.106, 0.092, 0.184, -0.141, 0.153], [0.277, 0.104, 0.022, -0.232, -0.004, -0.089, 0.131, 0.107, 0.040, -0.191, 0.087, 0.079, -0.193, 0.234, 0.093, -0.226], [0.259, -0.215, -0.101, 0.132, 0.058, 0.033, 0.088, -0.025, -0.113, -0.194, -0.259, 0.130, 0.153, 0.026, 0.144, -0.084], [-0.140, -0.070, 0.224, -0.275, 0.003, -0.152, 0.161, -0.088, -0.100, -0.058, 0.025, 0.163, -0.088, 0.208, -0.233, -0.138], [-0.240, -0.232, 0.167, 0.136, -0.189, -0.186, -0.050, 0.146, 0.189, 0.149, 0.055, -0.212, -0.061, -0.184, 0.017, 0.041]]> : tensor<32x16xf32>} : () -> tensor<32x16xf32>
  %h = "graph.batch_matmul"(%n1, %w1) : (tensor<2x16x32xf32>, tensor<32x16xf32>) -> tensor<2x16x16xf32>
  %hr = "graph.relu"(%h) : (tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %w2 = "graph.constant"() {value = dense<[[-0.179, -0.150, 0.169, -0.282, 0.182, 0.235, 0.270, -0.070, 0.032, 0.050, 0.080, 0.286, 0.112, -0.120, 0.216, -0.010, 0.061, 0.136, -0.299, 0.162, 0.097, -0.005, 0.014, -0.024, -0.184, 0.018, -0.278, 0.000, 0.088, -0.033, 0.040, 0.275], [0.235, -0.219, 0.175, 0.074, -0.270, -0.084, -0.160, -0.253, 0.023, 0.258, -0.106, 0.222, 0.117, -0.219, 0.215, 0.061, 0.256, 0.130, 0.144, -0.094, 0.184, 0.259, 0.217, -0.038, 0.154, -0.009, -0.235, -0.274, -0.253, -0.180, -0.204, -0.002], [0.120, 0.022, -0.047, 0.090, -0.117, -0.021, 0.154, -0.059, -0.192, 0.240, 0.132, -0.080, -0.077, 0.018, 0.058, -0.166, -0.298, -0.175, 0.170, -0.214, -0.024, -0.183, -0.174, -0.198, -0.058, -0.199, -0.284, -0.234, -0.199, -0.006, -0.264, -0.287], [-0.031, -0.055, 0.122, -0.269, -0.058, -0.062, -0.284, 0.279, -0.169, -0.243, -0.015, -0.201, 0.073, -0.092, -0.226, -0.269, 0.137, -0.135, 0.173, -0.021, 0.260, -0.120, -0.150, -0.141, 0.189, 0.077, -0.093, -0.244, 0.109, 0.282, 0.055, -0.298], [-0.282, -0.246, -0.198, -0.278, -0.268, 0.093, 0.240, -0.180, 0.284, -0.014, 0.182, 0.250, 0.264, -0.279, -0.117, 0.064, 0.268, -0.247, -0.124, 0.210, -0.231, -0.066, -0.099, 0.108, 0.257, -0.195, 0.144, 0.140, 0.201, 0.032, 0.254, -0.082], [-0.051, -0.162, 0.168, -0.012, -0.138, -0.198, 0.132, 0.063, 0.126, -0.068, -0.008, -0.208, 0.126, -0.286, -0.020, 0.155, 0.106, -0.242, -0.158, 0.206, 0.085, 0.227, 0.223, -0.030, 0.238, 0.140, -0.100, -0.078, -0.257, -0.060, 0.273, -0.237], [0.041, -0.234, -0.251, 0.089, -0.156, -0.271, -0.208, 0.087, 0.051, -0.293, -0.162, 0.280, -0.168, 0.037, -0.048, 0.169, 0.063, 0.173, 0.021, -0.187, -0.193, -0.253, 0.195, -0.232, -0.286, 0.280, -0.180, 0.236, -0.249, -0.021, -0.166, 0.198], [0.069, 0.085, 0.157, 0.223, -0.092, 0.062, -0.033, -0.233, 0.201, 0.057, 0.189, -0.176, 0.024, -0.021, 0.137, -0.254, -0.092, -0.009, -0.257, 0.032, 0.141, -0.046, 0.089, 0.064, -0.171, -0.090, 0.297, -0.099, -0.042, -0.249, -0.169, -0.201], [0.259, 0.136, 0.225, 0.292, 0.067, 0.259, 0.021, -0.049, 0.269, 0.242, 0.270, -0.009, 0.164, -0.056, 0.298, 0.252, -0.125, 0.261, -0.189, -0.242, 0.133, -0.123, 0.012, 0.084, -0.276, 0.147, -0.134, -0.041, -0.093, 0.145, 0.148, -0.128], [-0.238, -0.120, -0.053, -0.253, -0.208, 0.158, 0.120, 0.286, 0.288, 0.226, -0.076, -0.203, -0.113, -0.022, 0.016, 0.025, -0.084, 0.212, -0.129, -0.022, 0.232, 0.184, -0.122, -0.154, 0.184, -0.294, -0.221, 0.019, 0.022, -0.201, -0.270, -0.178], [0.162, -0.021, 0.288, 0.171, 0.288, -0.279, -0.189, -0.292, -0.041, -0.097, -0.269, 0.028, -0.244, -0.113, -0.152, 0.181, -0.049, -0.144, -0.274, -0.042, 0.076, 0.105, 0.248, 0.185, -0.152, -0.219, 0.155, 0.174, 0.005, 0.199, 0.031, -0.132], [-0.199, -0.290, 0.086, 0.238, 0.244, -0.020, 0.099, 0.257, 0.188, 0.062, -0.051, 0.011, -0.198, -0.190, 0.110, 0.295, 0.028, -0.055, -0.089, -0.027, 0.182, -0.028, 0.276, -0.207, -0.111, 0.013, -0.053, 0.211, 0.197, 0.259, 0.067, -0.282], [0.045, 0.030, -0.007, -0.132, 0.126, 0.247, -0.239, 0.101, -0.077, 0.009, 0.237, 0.276, 0.086, -0.183, 0.252, -0.191, -0.070, 0.197, -0.110, -0.137, 0.270, 0.266, -0.110, -0.064, -0.131, -0.221, -0.150, 0.288, -0.252, -0.162, -0.180, -0.252], [0.016, 0.146, 0.203, 0.079, 0.191, -0.297, -0.131, 0.277, -0.258, -0.139, -0.010, -0.139, 0.028, -0.272, -0.158, 0.275, -0.213, 0.243, -0.193, 0.296, 0.105, 0.088, -0.215, -0.267, 0.156, -0.194, -0.186, 0.194, 0.225, -0.271, 0.276, 0.021], [-0.071, -0.236, -0.066, 0.293, -0.132, -0.221, -0.213, -0.224, -0.089, 0.249, -0.254, -0.185, 0.264, 0.298, 0.288, -0.152, -0.087, 0.271, -0.009, 0.122, -0.112, -0.287, -0.093, 0.149, 0.169, 0.041, -0.022, 0.023, -0.035, 0.021, 0.200, -0.180], [0.057, 0.260, 0.209, -0.192, 0.278, 0.204, -0.199, -0.140, -0.179, -0.268, 0.287, -0.054, 0.224, -0.231, -0.292, 0.222, 0.176, 0.295, 0.111, 0.015, 0.160, -0.244, 0.024, -0.035, -0.212, 0.060, -0.106, 0.004, -0.076, -0.109, -0.085, 0.061]]> : tensor<16x32xf32>} : () -> tensor<16x32xf32>
  %f = "graph.batch_matmul"(%hr, %w2) : (tensor<2x16x16xf32>, tensor<16x32xf32>) -> tensor<2x16x32xf32>
  %r2 = "graph.add"(%n1, %f) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  %y = "graph.layer_norm"(%r2, %g, %bt) {axis = 2 : i64, eps = 1.0e-05 : f32} : (tensor<2x16x32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<2x16x32xf32>
  return %y : tensor<2x16x32xf32>
}

func.func @mixed(%p: tensor<16x24xf32>, %k: tensor<8x16x3xf32>, %v: tensor<8x16x3xf32>) -> tensor<8x16x3xf32> {
  %q = "graph.reshape"(%p) : (tensor<16x24xf32>) -> tensor<8x16x3xf32>
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<8x16x3xf32>) -> tensor<8x3x16xf32>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<8x16x3xf32>, tensor<8x3x16xf32>) -> tensor<8x16x16xf32>
  %pr = "graph.softmax"(%s) {dim = 2 : i64} : (tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %y = "graph.batch_matmul"(%pr, %v) : (tensor<8x16x16xf32>, tensor<8x16x3xf32>) -> tensor<8x16x3xf32>
  return %y : tensor<8x16x3xf32>
}
