// What shard-chunk leaves whole, each with a remark naming why (remarks), and what it
// refuses: an all_reduce under min-bytes (the default, 16 MiB, keeps small ones
// whole: they are bound by latency), one of a rank-0 value, one whose operand is a
// function argument or made by an op without a row rule (a transpose: nothing to
// overlap), one whose operand is also read elsewhere, and rows too few for the chunks
// at their alignment; an error for sizes= that do not add up to the rows, and for bad
// options.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(shard-chunk{remarks}))' -o /dev/null
// RUN: not braze-opt --cpu=x86-64-v4 %s --split-input-file --pass-pipeline='builtin.module(func.func(shard-chunk{sizes=4,4 min-bytes=0}))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=SIZES
// SIZES: error: shard-chunk: sizes= adds up to 8 rows, the all_reduce's operand has 4096
// RUN: not braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(func.func(shard-chunk{chunks=0}))' 2>&1 | FileCheck %s --check-prefix=CHUNKS
// CHUNKS: shard-chunk: chunks must be 1 to 64, got 0
// RUN: not braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(func.func(shard-chunk{sizes=4,x}))' 2>&1 | FileCheck %s --check-prefix=LIST
// LIST: shard-chunk: sizes expects 2 to 64 positive row counts separated by commas, got '4,x'
// RUN: not braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(func.func(shard-chunk{sizes=16}))' 2>&1 | FileCheck %s --check-prefix=ONE
// ONE: shard-chunk: sizes expects 2 to 64 positive row counts separated by commas, got '16'
// RUN: not braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(func.func(shard-chunk{last-share=100}))' 2>&1 | FileCheck %s --check-prefix=SHARE
// SHARE: shard-chunk: last-share must be 0 (even chunks) to 99 percent, got 100
// RUN: not braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(func.func(shard-chunk{pieces=0}))' 2>&1 | FileCheck %s --check-prefix=PIECES
// PIECES: shard-chunk: pieces must be 1 to 64, got 0
// RUN: not braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(func.func(shard-chunk{align=0}))' 2>&1 | FileCheck %s --check-prefix=ALIGN
// ALIGN: shard-chunk: align must be at least 1, got 0
// RUN: not braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(func.func(shard-chunk{rows=2}))' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: pass 'shard-chunk' has no option 'rows' (options: chunks sizes align min-bytes pieces last-share remarks)

func.func @small(%x: tensor<2048x1024xf32>, %w: tensor<1024x1024xf32>) -> tensor<2048x1024xf32>
    attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  %d = "graph.matmul"(%x, %w) : (tensor<2048x1024xf32>, tensor<1024x1024xf32>) -> tensor<2048x1024xf32>
  // expected-remark @+1 {{shard-chunk: all_reduce left whole: 8388608 bytes per rank, under min-bytes=16777216}}
  %r = "graph.all_reduce"(%d) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
  return %r : tensor<2048x1024xf32>
}

// -----

func.func @scalar(%x: tensor<16xf32>) -> tensor<f32> attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  %s = "graph.reduce_sum"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<16xf32>) -> tensor<f32>
  // expected-remark @+1 {{shard-chunk: all_reduce left whole: a rank-0 value has no rows to split}}
  %r = "graph.all_reduce"(%s) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

func.func @argument(%x: tensor<4096x1024xf32>) -> tensor<4096x1024xf32> attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  // expected-remark @+1 {{shard-chunk: all_reduce left whole: its operand is a function argument: no computation to overlap}}
  %r = "graph.all_reduce"(%x) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<4096x1024xf32>) -> tensor<4096x1024xf32>
  return %r : tensor<4096x1024xf32>
}

// -----

func.func @no_row_rule(%x: tensor<1024x4096xf32>) -> tensor<4096x1024xf32> attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  %t = "graph.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<1024x4096xf32>) -> tensor<4096x1024xf32>
  // expected-remark @+1 {{shard-chunk: all_reduce left whole: its operand is made by graph.transpose, which has no row rule: no computation to overlap}}
  %r = "graph.all_reduce"(%t) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<4096x1024xf32>) -> tensor<4096x1024xf32>
  return %r : tensor<4096x1024xf32>
}

// -----

func.func @read_elsewhere(%x: tensor<4096x1024xf32>, %w: tensor<1024x1024xf32>) -> (tensor<4096x1024xf32>, tensor<4096x1024xf32>)
    attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  %d = "graph.matmul"(%x, %w) : (tensor<4096x1024xf32>, tensor<1024x1024xf32>) -> tensor<4096x1024xf32>
  // expected-remark @+1 {{shard-chunk: all_reduce left whole: its operand is also read elsewhere, whole}}
  %r = "graph.all_reduce"(%d) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<4096x1024xf32>) -> tensor<4096x1024xf32>
  return %r, %d : tensor<4096x1024xf32>, tensor<4096x1024xf32>
}

// -----

func.func @few_rows(%x: tensor<64x65536xf32>, %g: tensor<65536xf32>) -> tensor<64x65536xf32>
    attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  %h = "graph.mul"(%x, %g) : (tensor<64x65536xf32>, tensor<65536xf32>) -> tensor<64x65536xf32>
  // expected-remark @+1 {{shard-chunk: all_reduce left whole: 64 rows do not make 2 chunks at multiples of align=128}}
  %r = "graph.all_reduce"(%h) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<64x65536xf32>) -> tensor<64x65536xf32>
  return %r : tensor<64x65536xf32>
}

// -----

// A row-wise cone of 4096 rows (the broadcast weight %g is shared): two chunks.
func.func @chunked(%x: tensor<4096x1024xf32>, %g: tensor<1024xf32>) -> tensor<4096x1024xf32>
    attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  %h = "graph.mul"(%x, %g) : (tensor<4096x1024xf32>, tensor<1024xf32>) -> tensor<4096x1024xf32>
  // expected-remark @+1 {{shard-chunk: all_reduce of 16777216 bytes per rank in 2 chunks of rows [3072, 1024]: 1 op(s) each, then its own all_reduce; carried through 0 reader(s) in 2 piece(s) before the concat}}
  %r = "graph.all_reduce"(%h) {mesh_axes = ["tp"], reduction = "max"} : (tensor<4096x1024xf32>) -> tensor<4096x1024xf32>
  return %r : tensor<4096x1024xf32>
}
