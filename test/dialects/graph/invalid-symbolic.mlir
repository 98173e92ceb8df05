// Symbolic dims that cannot agree: each error at the op (or the function) with the
// shapes as expressions and what was expected.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --verify-diagnostics

func.func @broadcast_two_symbols(%x: tensor<?x8xf32> {graph.dims = ["s0"]}, %y: tensor<?x8xf32> {graph.dims = ["s1"]}) -> tensor<?x8xf32>
    attributes {graph.symbols = {s0 = array<i64: 1, 64>, s1 = array<i64: 1, 64>}} {
  // expected-error @+1 {{'graph.add' op operand shapes [s0, 8] and [s1, 8] do not broadcast (result dim 0: a symbolic dim broadcasts only with 1 or an equal dim)}}
  %0 = "graph.add"(%x, %y) : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

func.func @broadcast_static(%x: tensor<?x8xf32> {graph.dims = ["s0"]}, %y: tensor<4x8xf32>) -> tensor<4x8xf32>
    attributes {graph.symbols = {s0 = array<i64: 1, 64>}} {
  // expected-error @+1 {{'graph.add' op operand shapes [s0, 8] and [4, 8] do not broadcast}}
  %0 = "graph.add"(%x, %y) : (tensor<?x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @matmul_k(%x: tensor<8x?xf32> {graph.dims = ["s0"]}, %w: tensor<16x4xf32>) -> tensor<8x4xf32>
    attributes {graph.symbols = {s0 = array<i64: 1, 64>}} {
  // expected-error @+1 {{'graph.matmul' op contraction dims K (lhs's last, rhs's second to last): s0 and 16 differ}}
  %0 = "graph.matmul"(%x, %w) : (tensor<8x?xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @result_static(%x: tensor<?x8xf32> {graph.dims = ["s0"]}) -> tensor<4x8xf32>
    attributes {graph.symbols = {s0 = array<i64: 1, 64>}} {
  // expected-error @+1 {{'graph.exp' op result type must have the shape [s0, 8] ('?' for each symbolic dim)}}
  %0 = "graph.exp"(%x) : (tensor<?x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @reshape_count(%x: tensor<?x8xf32> {graph.dims = ["s0"]}) -> tensor<?x3xf32>
    attributes {graph.symbols = {s0 = array<i64: 1, 64>}} {
  // expected-error @+1 {{'graph.reshape' op operand shape [s0, 8] has s0*8 elements; the result type's static dims cannot hold them}}
  %0 = "graph.reshape"(%x) : (tensor<?x8xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

func.func @reshape_two(%x: tensor<?x8xf32> {graph.dims = ["s0"]}) -> tensor<?x?xf32>
    attributes {graph.symbols = {s0 = array<i64: 1, 64>}} {
  // expected-error @+1 {{'graph.reshape' op result dims 0 and 1 are both '?': a reshape infers at most one symbolic dim}}
  %0 = "graph.reshape"(%x) : (tensor<?x8xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// expected-error @+1 {{'func.func' op argument #0 dim 0 is '?': expected a symbol name for it in the argument's graph.dims = ["NAME", ...] (one per '?' dim)}}
func.func @unbound(%x: tensor<?x8xf32>) -> tensor<?x8xf32> attributes {graph.symbols = {s0 = array<i64: 1, 64>}} {
  return %x : tensor<?x8xf32>
}

// -----

// expected-error @+1 {{'func.func' op argument #0 dim 0: symbol 't' is not declared in graph.symbols}}
func.func @undeclared(%x: tensor<?x8xf32> {graph.dims = ["t"]}) -> tensor<?x8xf32> attributes {graph.symbols = {s0 = array<i64: 1, 64>}} {
  return %x : tensor<?x8xf32>
}

// -----

// expected-error @+1 {{'func.func' op symbol s0: expected 1 <= min (0) <= max (64) <= 2^40 and div (1) >= 1}}
func.func @bad_bounds(%x: tensor<?x8xf32> {graph.dims = ["s0"]}) -> tensor<?x8xf32> attributes {graph.symbols = {s0 = array<i64: 0, 64>}} {
  return %x : tensor<?x8xf32>
}

// -----

// expected-error @+1 {{'func.func' op symbol s0: no multiple of 100 lies in [1, 64]}}
func.func @bad_div(%x: tensor<?x8xf32> {graph.dims = ["s0"]}) -> tensor<?x8xf32> attributes {graph.symbols = {s0 = array<i64: 1, 64, 100>}} {
  return %x : tensor<?x8xf32>
}

// -----

func.func @not_yet(%x: tensor<?x8xf32> {graph.dims = ["s0"]}, %y: tensor<?x8xf32> {graph.dims = ["s0"]}) -> tensor<?x16xf32>
    attributes {graph.symbols = {s0 = array<i64: 1, 64>}} {
  // expected-error @+1 {{'graph.concat' op does not take symbolic dims yet: operand #0 has shape [s0, 8]}}
  %0 = "graph.concat"(%x, %y) {dim = 1 : i64} : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x16xf32>
  return %0 : tensor<?x16xf32>
}

// -----

// The dtype rules still apply (checked on a specialization).
func.func @dtype(%x: tensor<?x8xi32> {graph.dims = ["s0"]}) -> tensor<?x8xi32> attributes {graph.symbols = {s0 = array<i64: 1, 64>}} {
  // expected-error @+1 {{'graph.exp' op operand #0 has element type i32; expected a float type (f32, f64, f16, bf16)}}
  %0 = "graph.exp"(%x) : (tensor<?x8xi32>) -> tensor<?x8xi32>
  return %0 : tensor<?x8xi32>
}

// -----

func.func private @callee(tensor<?x8xf32>) -> tensor<?x8xf32>
func.func @call(%x: tensor<?x8xf32> {graph.dims = ["s0"]}) -> tensor<?x8xf32> attributes {graph.symbols = {s0 = array<i64: 1, 64>}} {
  // expected-error @+1 {{'func.call' op does not take symbolic dims: operand #0 is symbolic}}
  %0 = func.call @callee(%x) : (tensor<?x8xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}
