// --verify-diagnostics accepts every designator form mlir-opt does.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --verify-diagnostics
// The same checks fail without the flag: the errors are real.
// RUN: not braze-opt --cpu=x86-64-v4 %s --split-input-file 2>/dev/null

// Same line.
func.func @same_line(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "graph.exp"(%x) : (tensor<4xi32>) -> tensor<4xi32> // expected-error {{'graph.exp' op operand #0 has element type i32}}
  return %0 : tensor<4xi32>
}

// -----

// @+N and @-N, with or without a space before the '@'.
func.func @offsets(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error@+2 {{'graph.exp' op}}
  // expected-error @+2 {{'graph.log' op}}
  %0 = "graph.exp"(%x) : (tensor<4xi32>) -> tensor<4xi32>
  %1 = "graph.log"(%x) : (tensor<4xi32>) -> tensor<4xi32>
  %2 = "graph.sqrt"(%x) : (tensor<4xi32>) -> tensor<4xi32>
  %3 = "graph.tanh"(%x) : (tensor<4xi32>) -> tensor<4xi32>
  // expected-error@-2 {{'graph.sqrt' op}}
  // expected-error @-2 {{'graph.tanh' op}}
  return %1 : tensor<4xi32>
}

// -----

// @above: the last line before that holds no designator; @below: the next one.
func.func @above_below(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error@below {{'graph.sqrt' op}}
  %0 = "graph.sqrt"(%x) : (tensor<4xi32>) -> tensor<4xi32>
  %1 = "graph.erf"(%x) : (tensor<4xi32>) -> tensor<4xi32>
  // expected-error@above {{'graph.erf' op}}
  return %1 : tensor<4xi32>
}

// -----

// @unknown: a diagnostic without a file position.
func.func @unknown(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error@unknown {{'graph.tanh' op operand #0 has element type i32}}
  %0 = "graph.tanh"(%x) : (tensor<4xi32>) -> tensor<4xi32> loc(unknown)
  return %0 : tensor<4xi32>
}

// -----

// -re: {{...}} inside the text is a regular expression.
func.func @regex(%x: tensor<4x8xf32>, %y: tensor<3xf32>) -> tensor<4x8xf32> {
  // expected-error-re@+1 {{operand shapes [{{[0-9]+}}, 8] and [3] are not broadcast-{{(compatible|ok)}}}}
  %0 = "graph.add"(%x, %y) : (tensor<4x8xf32>, tensor<3xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A chunk without diagnostics and without designators passes.
func.func @clean(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
