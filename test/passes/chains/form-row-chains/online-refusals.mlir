// form-row-chains' online form refused, each with its named reason at the call that
// would have started the chain: the probabilities also returned, a row min instead of a
// max, the scores multiplied by a tensor (not a scale, a bias or a causal mask), and (with
// online=half, what the CUDA pipeline sets) f32 or a head dim the flash kernel lacks.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda},form-row-chains{target=cuda online=half remarks})' >/dev/null

func.func @probs_used_twice(%q: tensor<4x256x64xbf16>, %k: tensor<4x256x64xbf16>, %v: tensor<4x256x64xbf16>) -> (tensor<4x256x64xbf16>, tensor<4x256x256xbf16>) {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<4x256x64xbf16>) -> tensor<4x64x256xbf16>
  // expected-remark@+1 {{form-row-chains: no online chain from this call: probabilities-used-elsewhere}}
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<4x256x64xbf16>, tensor<4x64x256xbf16>) -> tensor<4x256x256xbf16>
  %p = "graph.softmax"(%s) {dim = 2 : i64} : (tensor<4x256x256xbf16>) -> tensor<4x256x256xbf16>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<4x256x256xbf16>, tensor<4x256x64xbf16>) -> tensor<4x256x64xbf16>
  return %y, %p : tensor<4x256x64xbf16>, tensor<4x256x256xbf16>
}

// -----

func.func @min_not_max(%q: tensor<4x256x64xbf16>, %k: tensor<4x256x64xbf16>, %v: tensor<4x256x64xbf16>) -> tensor<4x256x64xbf16> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<4x256x64xbf16>) -> tensor<4x64x256xbf16>
  // expected-remark@+1 {{form-row-chains: no online chain from this call: row-reduction-not-a-max-of-scaled-scores}}
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<4x256x64xbf16>, tensor<4x64x256xbf16>) -> tensor<4x256x256xbf16>
  %m = "graph.reduce_min"(%s) {dims = array<i64: 2>, keepdim = true} : (tensor<4x256x256xbf16>) -> tensor<4x256x1xbf16>
  %d = "graph.sub"(%s, %m) : (tensor<4x256x256xbf16>, tensor<4x256x1xbf16>) -> tensor<4x256x256xbf16>
  %e = "graph.exp"(%d) : (tensor<4x256x256xbf16>) -> tensor<4x256x256xbf16>
  %z = "graph.reduce_sum"(%e) {dims = array<i64: 2>, keepdim = true} : (tensor<4x256x256xbf16>) -> tensor<4x256x1xbf16>
  %p = "graph.div"(%e, %z) : (tensor<4x256x256xbf16>, tensor<4x256x1xbf16>) -> tensor<4x256x256xbf16>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<4x256x256xbf16>, tensor<4x256x64xbf16>) -> tensor<4x256x64xbf16>
  return %y : tensor<4x256x64xbf16>
}

// -----

func.func @scores_times_a_tensor(%q: tensor<4x256x64xbf16>, %k: tensor<4x256x64xbf16>, %v: tensor<4x256x64xbf16>, %t: tensor<4x256x256xbf16>) -> tensor<4x256x64xbf16> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<4x256x64xbf16>) -> tensor<4x64x256xbf16>
  // expected-remark@+1 {{form-row-chains: no online chain from this call: scores-not-a-scale-a-bias-and-a-causal-mask}}
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<4x256x64xbf16>, tensor<4x64x256xbf16>) -> tensor<4x256x256xbf16>
  %st = "graph.mul"(%s, %t) : (tensor<4x256x256xbf16>, tensor<4x256x256xbf16>) -> tensor<4x256x256xbf16>
  // (the chain tried from the row max's kernel, which ends in the product's epilogue)
  // expected-remark@+1 {{form-row-chains: no online chain from this call: scores-not-a-plain-contraction-over-the-head-dim}}
  %p = "graph.softmax"(%st) {dim = 2 : i64} : (tensor<4x256x256xbf16>) -> tensor<4x256x256xbf16>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<4x256x256xbf16>, tensor<4x256x64xbf16>) -> tensor<4x256x64xbf16>
  return %y : tensor<4x256x64xbf16>
}

// -----

func.func @f32_on_half(%q: tensor<4x256x64xf32>, %k: tensor<4x256x64xf32>, %v: tensor<4x256x64xf32>) -> tensor<4x256x64xf32> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<4x256x64xf32>) -> tensor<4x64x256xf32>
  // expected-remark@+1 {{form-row-chains: no online chain from this call: online=half: not bf16 or f16 with head dims 64 or 128}}
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<4x256x64xf32>, tensor<4x64x256xf32>) -> tensor<4x256x256xf32>
  %p = "graph.softmax"(%s) {dim = 2 : i64} : (tensor<4x256x256xf32>) -> tensor<4x256x256xf32>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<4x256x256xf32>, tensor<4x256x64xf32>) -> tensor<4x256x64xf32>
  return %y : tensor<4x256x64xf32>
}

// -----

func.func @head_dim_32(%q: tensor<4x256x32xbf16>, %k: tensor<4x256x32xbf16>, %v: tensor<4x256x32xbf16>) -> tensor<4x256x32xbf16> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<4x256x32xbf16>) -> tensor<4x32x256xbf16>
  // expected-remark@+1 {{form-row-chains: no online chain from this call: online=half: not bf16 or f16 with head dims 64 or 128}}
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<4x256x32xbf16>, tensor<4x32x256xbf16>) -> tensor<4x256x256xbf16>
  %p = "graph.softmax"(%s) {dim = 2 : i64} : (tensor<4x256x256xbf16>) -> tensor<4x256x256xbf16>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<4x256x256xbf16>, tensor<4x256x32xbf16>) -> tensor<4x256x32xbf16>
  return %y : tensor<4x256x32xbf16>
}
