// Conflicts (operands split over one axis on different result dims), resolved by the
// named rule: conflict=largest (default) keeps the largest operand's sharding,
// first keeps operand 0's, replicate gathers everything. Overrides (an op's own
// braze.sharding / braze.partial_*) and eager-reduce.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(shard-propagate{remarks})' -o /dev/null
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --pass-pipeline='builtin.module(shard-propagate{remarks conflict=first})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --pass-pipeline='builtin.module(shard-propagate{remarks conflict=replicate})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPL
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --pass-pipeline='builtin.module(shard-propagate{remarks eager-reduce})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=EAGER

// a [8x8] split on its dim 0, b [4x8x8] (4x larger) on its dim 2, both over tp.
// FIRST: conflicts.mlir:[[@LINE+7]]:8: remark: shard: result [_, tp, _]; conflict: operands are split differently; rule conflict=first
// FIRST: conflicts.mlir:[[@LINE+6]]:8: remark: shard: all_to_all split_dim 1 concat_dim 2 over tp of operand #1, 512 bytes per rank
// REPL: conflicts.mlir:[[@LINE+5]]:8: remark: shard: result [_, _, _]; conflict: operands are split differently; rule conflict=replicate
// REPL: conflicts.mlir:[[@LINE+4]]:8: remark: shard: all_gather dim 0 over tp of operand #0, 256 bytes per rank
// REPL: conflicts.mlir:[[@LINE+3]]:8: remark: shard: all_gather dim 2 over tp of operand #1, 1024 bytes per rank
func.func @pointwise(%a: tensor<8x8xf32> {braze.sharding = [["tp"], []]}, %b: tensor<4x8x8xf32> {braze.sharding = [[], [], ["tp"]]})
    -> (tensor<4x8x8xf32> {braze.sharding = [[], [], ["tp"]]}) attributes {braze.mesh = [["tp", 2]]} {
  %0 = "graph.add"(%a, %b) : (tensor<8x8xf32>, tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  // expected-remark @-1 {{shard: result [_, _, tp]; conflict: operands are split differently; rule conflict=largest}}
  // expected-remark @-2 {{shard: all_to_all split_dim 1 concat_dim 0 over tp of operand #0, 128 bytes per rank}}
  return %0 : tensor<4x8x8xf32>
}

// -----

// matmul with A split on M and B on N over the same axis: B (8 KiB) wins, A is gathered.
// FIRST: conflicts.mlir:[[@LINE+4]]:8: remark: shard: result [tp, _]; conflict: the operands' splits cannot all be kept; rule conflict=first
// FIRST: conflicts.mlir:[[@LINE+3]]:8: remark: shard: all_gather dim 1 over tp of operand #1, 8192 bytes per rank
func.func @matmul(%a: tensor<8x64xf32> {braze.sharding = [["tp"], []]}, %b: tensor<64x32xf32> {braze.sharding = [[], ["tp"]]})
    -> (tensor<8x32xf32> {braze.sharding = [[], ["tp"]]}) attributes {braze.mesh = [["tp", 2]]} {
  %0 = "graph.matmul"(%a, %b) : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  // expected-remark @-1 {{shard: result [_, tp]; conflict: the operands' splits cannot all be kept; rule conflict=largest}}
  // expected-remark @-2 {{shard: all_gather dim 0 over tp of operand #0, 2048 bytes per rank}}
  return %0 : tensor<8x32xf32>
}

// -----

// Overrides: the op's own braze.sharding wins; the rule's result is resharded into it
// right after the op (an all_to_all here; an all_reduce for a partial sum kept whole).
func.func @overrides(%x: tensor<8x64xf32> {braze.sharding = [[], ["tp"]]}) -> (tensor<8x64xf32>, tensor<8xf32>)
    attributes {braze.mesh = [["tp", 2]]} {
  %0 = "graph.exp"(%x) {braze.sharding = [["tp"], []]} : (tensor<8x64xf32>) -> tensor<8x64xf32>
  // expected-remark @-1 {{shard: result [_, tp], overridden to [tp, _]}}
  // expected-remark @-2 {{shard: all_to_all split_dim 0 concat_dim 1 over tp of the result, 1024 bytes per rank}}
  %1 = "graph.reduce_sum"(%x) {braze.sharding = [[]], dims = array<i64: 1>, keepdim = false} : (tensor<8x64xf32>) -> tensor<8xf32>
  // expected-remark @-1 {{shard: result [_] partial(sum: tp), overridden to [_]}}
  // expected-remark @-2 {{shard: all_reduce(sum) over tp of the result, 32 bytes per rank}}
  // expected-remark @+1 {{shard: all_gather dim 0 over tp of operand #0, 2048 bytes per rank}}
  return %0, %1 : tensor<8x64xf32>, tensor<8xf32>
}

// -----

// eager-reduce: a partial result is reduced right after the op that makes it; by
// default it is reduced where it is read (here by the function result).
// EAGER: conflicts.mlir:[[@LINE+3]]:8: remark: shard: result [_] partial(sum: tp), reduced at once (eager-reduce) to [_]
// EAGER: conflicts.mlir:[[@LINE+2]]:8: remark: shard: all_reduce(sum) over tp of the result, 32 bytes per rank
func.func @eager(%x: tensor<8x64xf32> {braze.sharding = [[], ["tp"]]}) -> tensor<8xf32> attributes {braze.mesh = [["tp", 2]]} {
  %0 = "graph.reduce_sum"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<8x64xf32>) -> tensor<8xf32>
  // expected-remark @-1 {{shard: result [_] partial(sum: tp)}}
  // expected-remark @+1 {{shard: all_reduce(sum) over tp of operand #0, 32 bytes per rank}}
  return %0 : tensor<8xf32>
}
