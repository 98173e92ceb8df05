// What shard-propagate (and shard-partition, which runs the same analysis) refuse,
// each with an error at the function or op: an argument dim that does not divide
// over its axis (with the mesh= option too), a non-graph op in a sharded function,
// a malformed override, an already partitioned function, a collective in a function
// to partition; and bad options.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --verify-diagnostics --shard-propagate -o /dev/null
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --verify-diagnostics --shard-partition -o /dev/null
// RUN: not braze-opt --cpu=x86-64-v4 %s --split-input-file --shard-propagate=mesh=tp 2>&1 | FileCheck %s --check-prefix=MESH
// MESH: shard-propagate: mesh 'tp': expected NAME:SIZE[,NAME:SIZE...], e.g. tp:2
// RUN: not braze-opt --cpu=x86-64-v4 %s --split-input-file --shard-partition=mesh=tp:0 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: shard-partition: mesh axis 'tp' has size 0; a mesh has 1 to 64 devices in all
// RUN: not braze-opt --cpu=x86-64-v4 %s --split-input-file --shard-propagate=conflict=biggest 2>&1 | FileCheck %s --check-prefix=RULE
// RULE: shard-propagate: conflict must be 'largest', 'first' or 'replicate', got 'biggest'
// RUN: not braze-opt --cpu=x86-64-v4 %s --split-input-file --shard-propagate=mesh=tp:3 2>&1 | FileCheck %s --check-prefix=THREE
// THREE: refusals.mlir:[[@LINE+2]]:1: error: shard: argument #0: dim 1 (size 8) does not divide over mesh axis 'tp' (size 3)

func.func @fits_two(%x: tensor<4x8xf32> {braze.sharding = [[], ["tp"]]}) -> tensor<4x8xf32> attributes {braze.mesh = [["tp", 2]]} {
  return %x : tensor<4x8xf32>
}

// -----

// expected-error @+1 {{shard: argument #0: dim 1 (size 5) does not divide over mesh axis 'tp' (size 2)}}
func.func @indivisible(%x: tensor<4x5xf32> {braze.sharding = [[], ["tp"]]}) -> tensor<4x5xf32> attributes {braze.mesh = [["tp", 2]]} {
  return %x : tensor<4x5xf32>
}

// -----

// expected-error @+1 {{shard: result #0: dim 0 (size 3) does not divide over mesh axis 'tp' (size 2)}}
func.func @indivisible_result(%x: tensor<3xf32>) -> (tensor<3xf32> {braze.sharding = [["tp"]]}) attributes {braze.mesh = [["tp", 2]]} {
  return %x : tensor<3xf32>
}

// -----

func.func private @helper(tensor<8xf32>) -> tensor<8xf32>

func.func @call(%x: tensor<8xf32>) -> tensor<8xf32> attributes {braze.mesh = [["tp", 2]]} {
  // expected-error @+1 {{shard: 'func.call' has no sharding rule; a sharded function holds graph ops only}}
  %0 = func.call @helper(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @bad_override(%x: tensor<8xf32>) -> tensor<8xf32> attributes {braze.mesh = [["tp", 2]]} {
  // expected-error @+1 {{shard: the op's braze.sharding override: dim 0 names mesh axis 'dp', which the mesh (tp=2) does not have}}
  %0 = "graph.exp"(%x) {braze.sharding = [["dp"]]} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// expected-error @+1 {{shard: the function is already partitioned (braze.partitioned)}}
func.func @twice(%x: tensor<4xf32> {braze.sharding = [["tp"]]}) -> tensor<4xf32> attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  return %x : tensor<4xf32>
}

// -----

func.func @collective_in_input(%x: tensor<8xf32>) -> tensor<8xf32> attributes {braze.mesh = [["tp", 2]]} {
  // expected-error @+1 {{shard: 'graph.all_reduce' in a function to partition: collectives belong to the partitioned programs shard-partition writes}}
  %0 = "graph.all_reduce"(%x) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
