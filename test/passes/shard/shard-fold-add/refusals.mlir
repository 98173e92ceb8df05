// What shard-fold-add leaves alone, each with a remark naming why, and what it folds
// besides an argument: an addend computed from values alike on every rank (a
// constant, another all_reduce's result), and one that differs between data-parallel
// ranks but is alike within the tensor-parallel group being summed. Functions that
// are not partitioned are not touched.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(shard-fold-add{remarks}))' -o /dev/null
// RUN: not braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(func.func(shard-fold-add{chunks=2}))' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: pass 'shard-fold-add' has no option 'chunks' (options: remarks)

func.func @max(%p: tensor<4x8xf32>, %x: tensor<4x8xf32>) -> tensor<4x8xf32>
    attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  // expected-remark @+1 {{shard-fold-add: all_reduce left as it is: not a sum}}
  %s = "graph.all_reduce"(%p) {mesh_axes = ["tp"], reduction = "max"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = "graph.add"(%s, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

func.func @integers(%p: tensor<4x8xi32>, %x: tensor<4x8xi32>) -> tensor<4x8xi32>
    attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  // expected-remark @+1 {{shard-fold-add: all_reduce left as it is: an integer sum (x/n is not exact)}}
  %s = "graph.all_reduce"(%p) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<4x8xi32>) -> tensor<4x8xi32>
  %y = "graph.add"(%s, %x) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
  return %y : tensor<4x8xi32>
}

// -----

func.func @three(%p: tensor<4x8xf32>, %x: tensor<4x8xf32>) -> tensor<4x8xf32>
    attributes {braze.mesh = [["tp", 3]], braze.partitioned} {
  // expected-remark @+1 {{shard-fold-add: all_reduce left as it is: the group's size is not a power of two (x/n is not exact)}}
  %s = "graph.all_reduce"(%p) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = "graph.add"(%s, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

func.func @read_twice(%p: tensor<4x8xf32>, %x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
    attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  // expected-remark @+1 {{shard-fold-add: all_reduce left as it is: the sum is read by something other than one graph.add}}
  %s = "graph.all_reduce"(%p) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = "graph.add"(%s, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y, %s : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

func.func @sharded_addend(%p: tensor<4x8xf32>, %x: tensor<4x8xf32> {braze.sharding = [[], ["tp"]]}) -> tensor<4x8xf32>
    attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  // expected-remark @+1 {{shard-fold-add: all_reduce left as it is: the addend may differ between the ranks of the group}}
  %s = "graph.all_reduce"(%p) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = "graph.add"(%x, %s) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// A reduce_scatter's result is each rank's own block: it differs between ranks.
func.func @scattered_addend(%p: tensor<4x8xf32>, %q: tensor<8x8xf32>) -> tensor<4x8xf32>
    attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  %x = "graph.reduce_scatter"(%q) {mesh_axes = ["tp"], reduction = "sum", dim = 0 : i64} : (tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @+1 {{shard-fold-add: all_reduce left as it is: the addend may differ between the ranks of the group}}
  %s = "graph.all_reduce"(%p) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = "graph.add"(%s, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

func.func @broadcasting(%p: tensor<8xf32>, %x: tensor<4x8xf32>) -> tensor<4x8xf32>
    attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  // expected-remark @+1 {{shard-fold-add: all_reduce left as it is: the addend broadcasts the sum to a larger shape}}
  %s = "graph.all_reduce"(%p) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<8xf32>) -> tensor<8xf32>
  %y = "graph.add"(%s, %x) : (tensor<8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

func.func @alike_values(%p: tensor<4x8xf32>, %r: tensor<4x8xf32>) -> tensor<4x8xf32>
    attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  %c = "graph.constant"() {value = dense<2.0> : tensor<8xf32>} : () -> tensor<8xf32>
  // expected-remark @+1 {{shard-fold-add: all_reduce left as it is: not a sum}}
  %t = "graph.all_reduce"(%r) {mesh_axes = ["tp"], reduction = "max"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %x = "graph.mul"(%t, %c) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  // expected-remark @+1 {{shard-fold-add: the add after the all_reduce folded into its partial sums (each of the 2 ranks adds the addend / 2)}}
  %s = "graph.all_reduce"(%p) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = "graph.add"(%s, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// x is split over dp (each data-parallel replica has its own rows) but alike within a
// tp group, the one the all_reduce sums over.
func.func @other_axis(%p: tensor<4x8xf32>, %x: tensor<4x8xf32> {braze.sharding = [["dp"], []]}) -> tensor<4x8xf32>
    attributes {braze.mesh = [["dp", 2], ["tp", 2]], braze.partitioned} {
  // expected-remark @+1 {{shard-fold-add: the add after the all_reduce folded into its partial sums (each of the 2 ranks adds the addend / 2)}}
  %s = "graph.all_reduce"(%p) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = "graph.add"(%s, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// Not partitioned: the pass does not look.
func.func @plain(%p: tensor<4x8xf32>, %x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {braze.mesh = [["tp", 2]]} {
  %s = "graph.all_reduce"(%p) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = "graph.add"(%s, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
