// Rules every graph op shares: ranked static tensors of f32 f64 f16 bf16 i8 i16 i32
// i64 ui8 ui16 ui32 ui64 i1 (decision 0010; valid-types.mlir has the accepted ones),
// rank <= 8, and float-only ops refuse integer and i1 tensors.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --verify-diagnostics

func.func @unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  // IRDL itself refuses unranked tensors (irdl.base "!builtin.tensor").
  // expected-error @+1 {{expected base type 'builtin.tensor' but got 'builtin.unranked_tensor'}}
  %0 = "graph.neg"(%x) : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @dynamic(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @+1 {{'graph.neg' op operand #0 must be a ranked tensor with a static shape, got tensor<?x4xf32>}}
  %0 = "graph.neg"(%x) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @dynamic_result(%x: tensor<4xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'graph.cast' op result must be a ranked tensor with a static shape, got tensor<?xf32>}}
  %0 = "graph.cast"(%x) : (tensor<4xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @i4(%x: tensor<4xi4>) -> tensor<4xi4> {
  // expected-error @+1 {{'graph.neg' op operand #0 has element type i4; expected one of f32, f64, f16, bf16, i8, i16, i32, i64, ui8, ui16, ui32, ui64, i1}}
  %0 = "graph.neg"(%x) : (tensor<4xi4>) -> tensor<4xi4>
  return %0 : tensor<4xi4>
}

// -----

func.func @ui1(%x: tensor<4xui1>, %y: tensor<4xui1>) -> tensor<4xui1> {
  // expected-error @+1 {{'graph.add' op operand #0 has element type ui1; expected one of f32, f64, f16, bf16, i8, i16, i32, i64, ui8, ui16, ui32, ui64, i1}}
  %0 = "graph.add"(%x, %y) : (tensor<4xui1>, tensor<4xui1>) -> tensor<4xui1>
  return %0 : tensor<4xui1>
}

// -----

func.func @ui128(%x: tensor<4xui128>) -> tensor<4xui128> {
  // expected-error @+1 {{'graph.abs' op operand #0 has element type ui128; expected one of}}
  %0 = "graph.abs"(%x) : (tensor<4xui128>) -> tensor<4xui128>
  return %0 : tensor<4xui128>
}

// -----

func.func @signed(%x: tensor<4xsi32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.cast' op operand #0 has element type si32; expected one of}}
  %0 = "graph.cast"(%x) : (tensor<4xsi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @result_type(%x: tensor<4xf32>) -> tensor<4xui2> {
  // expected-error @+1 {{'graph.cast' op result has element type ui2; expected one of}}
  %0 = "graph.cast"(%x) : (tensor<4xf32>) -> tensor<4xui2>
  return %0 : tensor<4xui2>
}

// -----

// expected-error @+1 {{'func.func' op @rank9 argument #0: tensor<1x1x1x1x1x1x1x1x2xf32> has rank 9; braze supports rank <= 8}}
func.func @rank9(%x: tensor<1x1x1x1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x1x1x1x2xf32> {
  // expected-error @+1 {{'graph.relu' op operand #0 has rank 9; braze supports rank <= 8}}
  %0 = "graph.relu"(%x) : (tensor<1x1x1x1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x1x1x1x2xf32>
  return %0 : tensor<1x1x1x1x1x1x1x1x2xf32>
}

// -----

func.func @float_only_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'graph.exp' op operand #0 has element type i32; expected a float type (f32, f64, f16, bf16)}}
  %0 = "graph.exp"(%x) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @float_only_i1(%x: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'graph.sigmoid' op operand #0 has element type i1; expected a float type}}
  %0 = "graph.sigmoid"(%x) : (tensor<4xi1>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @float_only_pow(%x: tensor<4xi64>) -> tensor<4xi64> {
  // expected-error @+1 {{'graph.pow' op operand #0 has element type i64; expected a float type}}
  %0 = "graph.pow"(%x, %x) : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

func.func @float_only_reduce_mean(%x: tensor<4xi32>) -> tensor<i32> {
  // expected-error @+1 {{'graph.reduce_mean' op operand #0 has element type i32; expected a float type}}
  %0 = "graph.reduce_mean"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<4xi32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @float_only_matmul(%a: tensor<2x2xi32>) -> tensor<2x2xi32> {
  // expected-error @+1 {{'graph.matmul' op operand #0 has element type i32; expected a float type}}
  %0 = "graph.matmul"(%a, %a) : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

func.func @float_only_result(%x: tensor<4xf32>) -> tensor<4xi32> {
  // expected-error @+1 {{'graph.tanh' op result has element type i32; expected a float type}}
  %0 = "graph.tanh"(%x) : (tensor<4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// Every op in a file is checked: two bad ops give two errors.
func.func @two_errors(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'graph.exp' op}}
  %0 = "graph.exp"(%x) : (tensor<4xi32>) -> tensor<4xi32>
  // expected-error @+1 {{'graph.log' op}}
  %1 = "graph.log"(%x) : (tensor<4xi32>) -> tensor<4xi32>
  return %1 : tensor<4xi32>
}

// -----

// Graph ops nested in other ops' regions are checked too.
func.func @nested(%x: tensor<4xi32>, %c: i1) -> tensor<4xi32> {
  %r = scf.if %c -> tensor<4xi32> {
    // expected-error @+1 {{'graph.sqrt' op operand #0 has element type i32}}
    %0 = "graph.sqrt"(%x) : (tensor<4xi32>) -> tensor<4xi32>
    scf.yield %0 : tensor<4xi32>
  } else {
    scf.yield %x : tensor<4xi32>
  }
  return %r : tensor<4xi32>
}

// -----

// Element counts that overflow int64 are an error, not undefined behaviour later
// (limits.mlir has the size limit below that).
// expected-error @+1 {{'func.func' op @too_many_elements argument #0: tensor<4294967296x4294967296xf32> has more elements or bytes than a 64-bit integer can count; braze supports tensors of at most 2^40 bytes (1 TiB)}}
func.func @too_many_elements(%x: tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32> {
  // expected-error @+1 {{'graph.neg' op operand #0 tensor<4294967296x4294967296xf32> has more elements or bytes than a 64-bit integer can count; braze supports tensors of at most 2^40 bytes (1 TiB)}}
  %0 = "graph.neg"(%x) : (tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32>
  return %0 : tensor<4294967296x4294967296xf32>
}

// -----

// Unsigned tensors are integers: float-only ops refuse them.
func.func @float_only_unsigned(%x: tensor<4xui32>) -> tensor<4xui32> {
  // expected-error @+1 {{'graph.exp' op operand #0 has element type ui32; expected a float type (f32, f64, f16, bf16)}}
  %0 = "graph.exp"(%x) : (tensor<4xui32>) -> tensor<4xui32>
  return %0 : tensor<4xui32>
}

// -----

// Signedness is part of the element type: ui8 and i8 do not mix without a cast.
func.func @mixed_sign(%x: tensor<4xui8>, %y: tensor<4xi8>) -> tensor<4xui8> {
  // expected-error @+1 {{'graph.add' op rhs element type i8 must equal the lhs element type ui8}}
  %0 = "graph.add"(%x, %y) : (tensor<4xui8>, tensor<4xi8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}
