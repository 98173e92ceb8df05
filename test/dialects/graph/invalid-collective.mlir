// Collectives and sharding annotations: the mesh (present, well-formed), mesh_axes
// (present, known, not repeated), the reduction kind, dims in range, divisibility by
// the group size and the local result shape; braze.sharding on arguments/results.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --verify-diagnostics
// The first error with its file:line:col:
// RUN: not braze-opt --cpu=x86-64-v4 %s --split-input-file 2>&1 | FileCheck %s --check-prefix=LOC
// LOC: invalid-collective.mlir:[[@LINE+3]]:8: error: 'graph.all_reduce' op needs a mesh: the enclosing func.func has no braze.mesh attribute

func.func @no_mesh(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "graph.all_reduce"(%x) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<8xf32>) -> tensor<8xf32>
  // expected-error @-1 {{'graph.all_reduce' op needs a mesh: the enclosing func.func has no braze.mesh attribute}}
  return %0 : tensor<8xf32>
}

// -----

func.func @unknown_axis(%x: tensor<8xf32>) -> tensor<8xf32> attributes {braze.mesh = [["tp", 2]]} {
  // expected-error @+1 {{'graph.all_reduce' op mesh_axes entry 0 ('dp') is not an axis of the function's mesh (tp=2)}}
  %0 = "graph.all_reduce"(%x) {mesh_axes = ["dp"], reduction = "sum"} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @repeated_axis(%x: tensor<8xf32>) -> tensor<8xf32> attributes {braze.mesh = [["tp", 2]]} {
  // expected-error @+1 {{'graph.all_reduce' op mesh_axes names 'tp' twice}}
  %0 = "graph.all_reduce"(%x) {mesh_axes = ["tp", "tp"], reduction = "sum"} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @empty_axes(%x: tensor<8xf32>) -> tensor<8xf32> attributes {braze.mesh = [["tp", 2]]} {
  // expected-error @+1 {{'graph.all_reduce' op expects a non-empty array attribute 'mesh_axes'}}
  %0 = "graph.all_reduce"(%x) {mesh_axes = [], reduction = "sum"} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @bad_reduction(%x: tensor<8xf32>) -> tensor<8xf32> attributes {braze.mesh = [["tp", 2]]} {
  // expected-error @+1 {{'graph.all_reduce' op expects a string attribute 'reduction' = "sum", "max" or "min"}}
  %0 = "graph.all_reduce"(%x) {mesh_axes = ["tp"], reduction = "avg"} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @sum_i1(%x: tensor<8xi1>) -> tensor<8xi1> attributes {braze.mesh = [["tp", 2]]} {
  // expected-error @+1 {{'graph.all_reduce' op a sum over i1 is not defined}}
  %0 = "graph.all_reduce"(%x) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<8xi1>) -> tensor<8xi1>
  return %0 : tensor<8xi1>
}

// -----

func.func @reduce_shape(%x: tensor<8xf32>) -> tensor<4xf32> attributes {braze.mesh = [["tp", 2]]} {
  // expected-error @+1 {{'graph.all_reduce' op result shape [4] must be [8] (an all_reduce keeps the operand's shape)}}
  %0 = "graph.all_reduce"(%x) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @gather_shape(%x: tensor<8x4xf32>) -> tensor<8x4xf32> attributes {braze.mesh = [["tp", 2]]} {
  // expected-error @+1 {{'graph.all_gather' op result shape [8, 4] must be [8, 8] (dim multiplied by the group size)}}
  %0 = "graph.all_gather"(%x) {dim = 1 : i64, mesh_axes = ["tp"]} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @gather_dim(%x: tensor<8x4xf32>) -> tensor<8x8xf32> attributes {braze.mesh = [["tp", 2]]} {
  // expected-error @+1 {{'graph.all_gather' op dim 2 is out of range for rank 2}}
  %0 = "graph.all_gather"(%x) {dim = 2 : i64, mesh_axes = ["tp"]} : (tensor<8x4xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @scatter_divisible(%x: tensor<8x5xf32>) -> tensor<8x2xf32> attributes {braze.mesh = [["tp", 2]]} {
  // expected-error @+1 {{'graph.reduce_scatter' op dim 1 has size 5, not divisible by the group size 2}}
  %0 = "graph.reduce_scatter"(%x) {dim = 1 : i64, mesh_axes = ["tp"], reduction = "sum"} : (tensor<8x5xf32>) -> tensor<8x2xf32>
  return %0 : tensor<8x2xf32>
}

// -----

func.func @scatter_needs_reduction(%x: tensor<8x4xf32>) -> tensor<8x2xf32> attributes {braze.mesh = [["tp", 2]]} {
  // expected-error @+1 {{'graph.reduce_scatter' op attribute "reduction" is expected but not provided}}
  %0 = "graph.reduce_scatter"(%x) {dim = 1 : i64, mesh_axes = ["tp"]} : (tensor<8x4xf32>) -> tensor<8x2xf32>
  return %0 : tensor<8x2xf32>
}

// -----

func.func @a2a_same_dims(%x: tensor<8x4xf32>) -> tensor<8x4xf32> attributes {braze.mesh = [["tp", 2]]} {
  // expected-error @+1 {{'graph.all_to_all' op split_dim and concat_dim are both 1; expected two different dims}}
  %0 = "graph.all_to_all"(%x) {concat_dim = 1 : i64, mesh_axes = ["tp"], split_dim = 1 : i64} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @a2a_shape(%x: tensor<8x4xf32>) -> tensor<8x4xf32> attributes {braze.mesh = [["dp", 2], ["tp", 2]]} {
  // expected-error @+1 {{'graph.all_to_all' op result shape [8, 4] must be [32, 1] (split_dim divided and concat_dim multiplied by the group size)}}
  %0 = "graph.all_to_all"(%x) {concat_dim = 0 : i64, mesh_axes = ["dp", "tp"], split_dim = 1 : i64} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @slice_elt(%x: tensor<8xf32>) -> tensor<4xf16> attributes {braze.mesh = [["tp", 2]]} {
  // expected-error @+1 {{'graph.all_slice' op result element type f16 must equal the operand element type f32}}
  %0 = "graph.all_slice"(%x) {dim = 0 : i64, mesh_axes = ["tp"]} : (tensor<8xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// expected-error @+1 {{'func.func' op @bad_mesh: expected braze.mesh = [["name", size], ...], e.g. [["tp", 2]] (entry 0 is not a [name, size] pair)}}
func.func @bad_mesh(%x: tensor<8xf32>) -> tensor<8xf32> attributes {braze.mesh = [["tp"]]} {
  return %x : tensor<8xf32>
}

// -----

// expected-error @+1 {{'func.func' op @zero_axis: mesh axis 'tp' has size 0; a mesh has 1 to 64 devices in all}}
func.func @zero_axis(%x: tensor<8xf32>) -> tensor<8xf32> attributes {braze.mesh = [["tp", 0]]} {
  return %x : tensor<8xf32>
}

// -----

// expected-error @+1 {{'func.func' op @dup_axis: mesh axis 'tp' appears twice}}
func.func @dup_axis(%x: tensor<8xf32>) -> tensor<8xf32> attributes {braze.mesh = [["tp", 2], ["tp", 2]]} {
  return %x : tensor<8xf32>
}

// -----

// expected-error @+1 {{'func.func' op @sharding_no_mesh argument #0: braze.sharding needs a braze.mesh attribute on the function}}
func.func @sharding_no_mesh(%x: tensor<8xf32> {braze.sharding = [["tp"]]}) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}

// -----

// expected-error @+1 {{'func.func' op @sharding_rank argument #0: braze.sharding has 1 entries; expected one per dim (2)}}
func.func @sharding_rank(%x: tensor<8x4xf32> {braze.sharding = [["tp"]]}) -> tensor<8x4xf32> attributes {braze.mesh = [["tp", 2]]} {
  return %x : tensor<8x4xf32>
}

// -----

// expected-error @+1 {{'func.func' op @sharding_axis result #0: dim 0 names mesh axis 'dp', which the mesh (tp=2) does not have}}
func.func @sharding_axis(%x: tensor<8xf32>) -> (tensor<8xf32> {braze.sharding = [["dp"]]}) attributes {braze.mesh = [["tp", 2]]} {
  return %x : tensor<8xf32>
}

// -----

// expected-error @+1 {{'func.func' op @two_axes_one_dim argument #0: dim 0 is split over 2 mesh axes; braze splits a dim over at most one}}
func.func @two_axes_one_dim(%x: tensor<8xf32> {braze.sharding = [["dp", "tp"]]}) -> tensor<8xf32> attributes {braze.mesh = [["dp", 2], ["tp", 2]]} {
  return %x : tensor<8xf32>
}

// -----

// expected-error @+1 {{'func.func' op @axis_twice argument #0: mesh axis 'tp' splits two dims}}
func.func @axis_twice(%x: tensor<8x4xf32> {braze.sharding = [["tp"], ["tp"]]}) -> tensor<8x4xf32> attributes {braze.mesh = [["tp", 2]]} {
  return %x : tensor<8x4xf32>
}
