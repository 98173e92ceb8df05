// Bad option values are usage errors naming the pass and the offending value.
// RUN: not braze-opt --cpu=x86-64-v4 %s --graph-decompose=keep=softmax,bogus 2>&1 | FileCheck %s --check-prefix=KEEP
// RUN: not braze-opt --cpu=x86-64-v4 %s --graph-decompose=keep= 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not braze-opt --cpu=x86-64-v4 %s --graph-decompose=frobnicate=1 2>&1 | FileCheck %s --check-prefix=KEY
// RUN: not braze-opt --cpu=x86-64-v4 %s --graph-decompose=decompose-mean=maybe 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose=decompose-mean=false | FileCheck %s --check-prefix=NOMEAN
// RUN: braze-opt --cpu=x86-64-v4 --list-passes | FileCheck %s --check-prefix=LIST

// KEEP: graph-decompose: keep= names 'bogus', which is not a composite (softmax log_softmax layer_norm rms_norm batch_norm gelu silu linear reduce_var reduce_mean conv conv_transpose)
// EMPTY: graph-decompose: keep= names '', which is not a composite
// KEY: pass 'graph-decompose' has no option 'frobnicate'
// FLAG: graph-decompose: option 'decompose-mean' expects true or false, got 'maybe'
// NOMEAN: "graph.reduce_mean"
// LIST: graph-decompose
// LIST-NEXT: keep=OP,...
// LIST-NEXT: decompose-mean
// LIST-NEXT: remarks
// LIST-NEXT: fold-batch-norm
func.func @f(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = "graph.reduce_mean"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
