// The size and rank limits (docs/reliability.md): a tensor of more than 2^40 bytes
// (1 TiB) or of rank above 8 is refused by the graph verifier, at the op and in a
// function's signature (unused arguments and returned values included), naming the
// limit; never an allocation failure later. limits-tools.test: the same through
// braze run and braze check.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --verify-diagnostics

// expected-error @+1 {{'func.func' op @args argument #0: tensor<1000000x1000000xf32> has 1000000000000 elements (4000000000000 bytes); braze supports tensors of at most 2^40 bytes (1 TiB)}}
func.func @args(%a: tensor<1000000x1000000xf32>) -> tensor<1000000x1000000xf32> {
  return %a : tensor<1000000x1000000xf32>
}

// -----

// Exactly 2^40 bytes is accepted; one element more is not (i8: one byte an element,
// i1 too).
func.func @at_limit(%a: tensor<1099511627776xi8>) -> tensor<1099511627776xi8> {
  %0 = "graph.neg"(%a) : (tensor<1099511627776xi8>) -> tensor<1099511627776xi8>
  return %0 : tensor<1099511627776xi8>
}

// -----

// expected-error @+1 {{'func.func' op @over_limit argument #0: tensor<1099511627777xi1> has 1099511627777 elements (1099511627777 bytes); braze supports tensors of at most 2^40 bytes (1 TiB)}}
func.func @over_limit(%a: tensor<1099511627777xi1>) -> tensor<1099511627777xi1> {
  return %a : tensor<1099511627777xi1>
}

// -----

// f64: 2^37 elements are 2^40 bytes; twice that is over.
// expected-error @+1 {{'func.func' op @result_over result #0: tensor<2x131072x1048576xf64> has 274877906944 elements (2199023255552 bytes); braze supports tensors of at most 2^40 bytes (1 TiB)}}
func.func @result_over(%a: tensor<131072x1048576xf64>) -> tensor<2x131072x1048576xf64> {
  // expected-error @+1 {{'graph.broadcast_to' op result tensor<2x131072x1048576xf64> has 274877906944 elements (2199023255552 bytes); braze supports tensors of at most 2^40 bytes (1 TiB)}}
  %0 = "graph.broadcast_to"(%a) : (tensor<131072x1048576xf64>) -> tensor<2x131072x1048576xf64>
  return %0 : tensor<2x131072x1048576xf64>
}

// -----

// A splat constant costs nothing to write but would be materialized in full.
// expected-error @+1 {{'func.func' op @huge_constant result #0: tensor<1000000x1000000xf32> has 1000000000000 elements (4000000000000 bytes); braze supports tensors of at most 2^40 bytes (1 TiB)}}
func.func @huge_constant() -> tensor<1000000x1000000xf32> {
  // expected-error @+1 {{'graph.constant' op result tensor<1000000x1000000xf32> has 1000000000000 elements (4000000000000 bytes); braze supports tensors of at most 2^40 bytes (1 TiB)}}
  %0 = "graph.constant"() {value = dense<1.0> : tensor<1000000x1000000xf32>} : () -> tensor<1000000x1000000xf32>
  return %0 : tensor<1000000x1000000xf32>
}

// -----

// A declaration's signature too.
// expected-error @+1 {{'func.func' op @rank9_result result #0: tensor<1x1x1x1x1x1x1x1x1xi32> has rank 9; braze supports rank <= 8}}
func.func private @rank9_result(tensor<4xi32>) -> tensor<1x1x1x1x1x1x1x1x1xi32>
