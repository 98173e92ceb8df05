// shard-propagate's rules, one case each: the remark at each op gives its result's
// sharding (and the rule's note), one remark per collective the partition inserts.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(shard-propagate{remarks})' -o /dev/null

// Pointwise: the split flows to the result; a replicated operand of the same shape
// is sliced to match; a broadcast bias [64] is sliced along its own dim 0.
func.func @pointwise(%a: tensor<8x64xf32> {braze.sharding = [[], ["tp"]]}, %b: tensor<8x64xf32>, %bias: tensor<64xf32>)
    -> (tensor<8x64xf32> {braze.sharding = [[], ["tp"]]}) attributes {braze.mesh = [["tp", 2]]} {
  // expected-remark @+2 {{shard: result [_, tp]}}
  // expected-remark @+1 {{shard: all_slice dim 1 over tp of operand #1, 2048 bytes per rank}}
  %0 = "graph.add"(%a, %b) : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  // expected-remark @+2 {{shard: result [_, tp]}}
  // expected-remark @+1 {{shard: all_slice dim 0 over tp of operand #1, 256 bytes per rank}}
  %1 = "graph.mul"(%0, %bias) : (tensor<8x64xf32>, tensor<64xf32>) -> tensor<8x64xf32>
  // expected-remark @+1 {{shard: result [_, tp]}}
  %2 = "graph.tanh"(%1) : (tensor<8x64xf32>) -> tensor<8x64xf32>
  return %2 : tensor<8x64xf32>
}

// -----

// Reductions over a split dim give a partial result of their kind, reduced where it
// is read by an op that is not linear in it (here the function result).
func.func @reduce_partial(%x: tensor<8x64xf32> {braze.sharding = [[], ["tp"]]}) -> (tensor<8xf32>, tensor<8x1xf32>)
    attributes {braze.mesh = [["tp", 4]]} {
  // expected-remark @+1 {{shard: result [_] partial(sum: tp)}}
  %s = "graph.reduce_sum"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<8x64xf32>) -> tensor<8xf32>
  // expected-remark @+1 {{shard: result [_, _] partial(max: tp)}}
  %m = "graph.reduce_max"(%x) {dims = array<i64: 1>, keepdim = true} : (tensor<8x64xf32>) -> tensor<8x1xf32>
  // expected-remark @+2 {{shard: all_reduce(sum) over tp of operand #0, 32 bytes per rank}}
  // expected-remark @+1 {{shard: all_reduce(max) over tp of operand #1, 32 bytes per rank}}
  return %s, %m : tensor<8xf32>, tensor<8x1xf32>
}

// -----

// A reduction over another dim keeps the split (moved left without keepdim);
// reduce_mean over the split dim gathers it instead (a mean of means is not a sum).
func.func @reduce_other(%x: tensor<4x8x64xf32> {braze.sharding = [[], [], ["tp"]]}) -> (tensor<4x64xf32>, tensor<4x8xf32>)
    attributes {braze.mesh = [["tp", 2]]} {
  // expected-remark @+1 {{shard: result [_, tp]}}
  %s = "graph.reduce_sum"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<4x8x64xf32>) -> tensor<4x64xf32>
  // expected-remark @+2 {{shard: result [_, _]; graph.reduce_mean over split dim 2: gathered (a mean of local means is not a partial sum)}}
  // expected-remark @+1 {{shard: all_gather dim 2 over tp of operand #0, 8192 bytes per rank}}
  %m = "graph.reduce_mean"(%x) {dims = array<i64: 2>, keepdim = false} : (tensor<4x8x64xf32>) -> tensor<4x8xf32>
  // expected-remark @+1 {{shard: all_gather dim 1 over tp of operand #0, 1024 bytes per rank}}
  return %s, %m : tensor<4x64xf32>, tensor<4x8xf32>
}

// -----

// Megatron's FFN: the column split of W1 makes the hidden split, the row split of W2
// makes the second product a partial sum: one all_reduce, before the residual add.
func.func @megatron(%x: tensor<8x64xf32>, %w1: tensor<64x256xf32> {braze.sharding = [[], ["tp"]]},
                    %w2: tensor<256x64xf32> {braze.sharding = [["tp"], []]}) -> tensor<8x64xf32>
    attributes {braze.mesh = [["tp", 2]]} {
  // expected-remark @+1 {{shard: result [_, tp]}}
  %h = "graph.matmul"(%x, %w1) : (tensor<8x64xf32>, tensor<64x256xf32>) -> tensor<8x256xf32>
  // expected-remark @+1 {{shard: result [_, tp]}}
  %g = "graph.gelu"(%h) {approximate = "tanh"} : (tensor<8x256xf32>) -> tensor<8x256xf32>
  // expected-remark @+1 {{shard: result [_, _] partial(sum: tp)}}
  %y = "graph.matmul"(%g, %w2) : (tensor<8x256xf32>, tensor<256x64xf32>) -> tensor<8x64xf32>
  // expected-remark @+2 {{shard: result [_, _]}}
  // expected-remark @+1 {{shard: all_reduce(sum) over tp of operand #0, 2048 bytes per rank}}
  %r = "graph.add"(%y, %x) : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}

// -----

// A K split on one side only: the other operand is sliced along K to match.
func.func @k_slice(%a: tensor<8x64xf32> {braze.sharding = [[], ["tp"]]}, %b: tensor<64x16xf32>) -> tensor<8x16xf32>
    attributes {braze.mesh = [["tp", 2]]} {
  // expected-remark @+2 {{shard: result [_, _] partial(sum: tp)}}
  // expected-remark @+1 {{shard: all_slice dim 0 over tp of operand #1, 4096 bytes per rank}}
  %0 = "graph.matmul"(%a, %b) : (tensor<8x64xf32>, tensor<64x16xf32>) -> tensor<8x16xf32>
  // expected-remark @+1 {{shard: all_reduce(sum) over tp of operand #0, 512 bytes per rank}}
  return %0 : tensor<8x16xf32>
}

// -----

// Attention heads split: q, k, v split on the head dim; scores, softmax (over the
// last dim, not split) and the context stay split; no collective until the result.
func.func @heads(%q: tensor<4x16x8xf32> {braze.sharding = [["tp"], [], []]},
                 %kt: tensor<4x8x16xf32> {braze.sharding = [["tp"], [], []]},
                 %v: tensor<4x16x8xf32> {braze.sharding = [["tp"], [], []]})
    -> (tensor<4x16x8xf32> {braze.sharding = [["tp"], [], []]}) attributes {braze.mesh = [["tp", 2]]} {
  // expected-remark @+1 {{shard: result [tp, _, _]}}
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<4x16x8xf32>, tensor<4x8x16xf32>) -> tensor<4x16x16xf32>
  // expected-remark @+1 {{shard: result [tp, _, _]}}
  %p = "graph.softmax"(%s) {dim = 2 : i64} : (tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  // expected-remark @+1 {{shard: result [tp, _, _]}}
  %o = "graph.batch_matmul"(%p, %v) : (tensor<4x16x16xf32>, tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// -----

// Softmax over the split dim needs it whole: gathered.
func.func @softmax_split(%x: tensor<8x64xf32> {braze.sharding = [[], ["tp"]]}) -> tensor<8x64xf32>
    attributes {braze.mesh = [["tp", 2]]} {
  // expected-remark @+2 {{shard: result [_, _]; graph.softmax needs dim 1 whole: gathered}}
  // expected-remark @+1 {{shard: all_gather dim 1 over tp of operand #0, 2048 bytes per rank}}
  %0 = "graph.softmax"(%x) {dim = 1 : i64} : (tensor<8x64xf32>) -> tensor<8x64xf32>
  return %0 : tensor<8x64xf32>
}

// -----

// transpose moves the split with its dim; a reshape keeps it when the dim survives
// whole or leads a merged group; otherwise it is gathered first.
func.func @views(%x: tensor<4x6x8xf32> {braze.sharding = [["tp"], [], []]}) -> (tensor<24x8xf32>, tensor<8x4x6xf32>, tensor<6x4x8xf32>)
    attributes {braze.mesh = [["tp", 2]]} {
  // expected-remark @+1 {{shard: result [_, tp, _]}}
  %t = "graph.transpose"(%x) {perm = array<i64: 2, 0, 1>} : (tensor<4x6x8xf32>) -> tensor<8x4x6xf32>
  // expected-remark @+1 {{shard: result [tp, _]}}
  %m = "graph.reshape"(%x) : (tensor<4x6x8xf32>) -> tensor<24x8xf32>
  // expected-remark @+2 {{shard: result [_, _, _]; reshape does not keep split dim 0 whole or leading: gathered}}
  // expected-remark @+1 {{shard: all_gather dim 0 over tp of operand #0, 768 bytes per rank}}
  %r = "graph.reshape"(%x) : (tensor<4x6x8xf32>) -> tensor<6x4x8xf32>
  // expected-remark @+2 {{shard: all_gather dim 0 over tp of operand #0, 768 bytes per rank}}
  // expected-remark @+1 {{shard: all_gather dim 1 over tp of operand #1, 768 bytes per rank}}
  return %m, %t, %r : tensor<24x8xf32>, tensor<8x4x6xf32>, tensor<6x4x8xf32>
}

// -----

// Partial sums flow through the ops linear in them: the sum of two partials, a
// partial times a replicated value; exp is not linear: reduced before it.
func.func @linear_partials(%a: tensor<8x64xf32> {braze.sharding = [[], ["tp"]]}, %b: tensor<8x64xf32> {braze.sharding = [[], ["tp"]]},
                           %s: tensor<8xf32>) -> tensor<8xf32> attributes {braze.mesh = [["tp", 2]]} {
  // expected-remark @+1 {{shard: result [_] partial(sum: tp)}}
  %0 = "graph.reduce_sum"(%a) {dims = array<i64: 1>, keepdim = false} : (tensor<8x64xf32>) -> tensor<8xf32>
  // expected-remark @+1 {{shard: result [_] partial(sum: tp)}}
  %1 = "graph.reduce_sum"(%b) {dims = array<i64: 1>, keepdim = false} : (tensor<8x64xf32>) -> tensor<8xf32>
  // expected-remark @+1 {{shard: result [_] partial(sum: tp)}}
  %2 = "graph.add"(%0, %1) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  // expected-remark @+1 {{shard: result [_] partial(sum: tp)}}
  %3 = "graph.mul"(%2, %s) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  // expected-remark @+2 {{shard: result [_]}}
  // expected-remark @+1 {{shard: all_reduce(sum) over tp of operand #0, 32 bytes per rank}}
  %4 = "graph.exp"(%3) : (tensor<8xf32>) -> tensor<8xf32>
  return %4 : tensor<8xf32>
}

// -----

// A result that wants a split dim the partial value has not: reduce_scatter; a split
// that moves to another dim: all_to_all.
func.func @scatter_and_a2a(%x: tensor<8x64xf32> {braze.sharding = [[], ["tp"]]}, %w: tensor<64x16xf32> {braze.sharding = [["tp"], []]})
    -> (tensor<8x16xf32> {braze.sharding = [["tp"], []]}, tensor<8x64xf32> {braze.sharding = [["tp"], []]})
    attributes {braze.mesh = [["tp", 2]]} {
  // expected-remark @+1 {{shard: result [_, _] partial(sum: tp)}}
  %0 = "graph.matmul"(%x, %w) : (tensor<8x64xf32>, tensor<64x16xf32>) -> tensor<8x16xf32>
  // expected-remark @+2 {{shard: reduce_scatter(sum) dim 0 over tp of operand #0, 512 bytes per rank}}
  // expected-remark @+1 {{shard: all_to_all split_dim 0 concat_dim 1 over tp of operand #1, 1024 bytes per rank}}
  return %0, %x : tensor<8x16xf32>, tensor<8x64xf32>
}

// -----

// No rule for gather: it runs replicated, its operands gathered.
func.func @no_rule(%t: tensor<16x8xf32> {braze.sharding = [[], ["tp"]]}, %i: tensor<4xi64>) -> tensor<4x8xf32>
    attributes {braze.mesh = [["tp", 2]]} {
  // expected-remark @+2 {{shard: result [_, _]; no sharding rule: runs replicated, its operands gathered}}
  // expected-remark @+1 {{shard: all_gather dim 1 over tp of operand #0, 512 bytes per rank}}
  %0 = "graph.gather"(%t, %i) {axis = 0 : i64} : (tensor<16x8xf32>, tensor<4xi64>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A function without a mesh is left alone (no remark).
func.func @unsharded(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "graph.exp"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
