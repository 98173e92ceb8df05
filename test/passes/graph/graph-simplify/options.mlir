// disable= turns rules off by name; fold-limit bounds constant folding; bad values
// are usage errors.
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-simplify=disable=add-zero,const-fold | FileCheck %s --check-prefix=OFF
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(func.func(graph-simplify{disable=mul-one fold-limit=0}))' | FileCheck %s --check-prefix=PIPE
// RUN: not braze-opt --cpu=x86-64-v4 %s --graph-simplify=disable=add-zero,no-such-rule 2>&1 | FileCheck %s --check-prefix=RULE
// RUN: not braze-opt --cpu=x86-64-v4 %s --graph-simplify=fold-limit=-1 2>&1 | FileCheck %s --check-prefix=NEG
// RUN: not braze-opt --cpu=x86-64-v4 %s --graph-simplify=fold-limit=lots 2>&1 | FileCheck %s --check-prefix=NAN
// RUN: not braze-opt --cpu=x86-64-v4 %s --graph-simplify=bogus 2>&1 | FileCheck %s --check-prefix=KEY
// RUN: braze-opt --cpu=x86-64-v4 --list-passes | FileCheck %s --check-prefix=LIST

// OFF-LABEL: func.func @f
// OFF: "graph.add"(%arg0,
// OFF: "graph.add"(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<2xf32>)
// OFF-NOT: "graph.mul"
// PIPE-LABEL: func.func @f
// PIPE-NOT: "graph.add"(%arg0
// PIPE: "graph.add"(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<2xf32>)
// PIPE: "graph.mul"(%arg0,
// RULE: graph-simplify: disable= names 'no-such-rule', which is not a rule (add-zero sub-zero mul-one div-one double-transpose transpose-of-broadcast reshape-chain broadcast-noop select-const shared-weight-matmul matmul-of-transposed-rows neg-neg mul-minus-one sub-of-neg cast-chain scale-out-of-batch-matmul softmax-stabilize mask-to-bias select-keep-first conv-epilogue window-zero-pad const-fold cse dce)
// NEG: graph-simplify: fold-limit must be >= 0, got -1
// NAN: option 'fold-limit' expects an integer, got 'lots'
// KEY: pass 'graph-simplify' has no option 'bogus'
// LIST: graph-simplify
// LIST-NEXT: disable=RULE,...
// LIST: fold-limit=N
// LIST: remarks
func.func @f(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %z = "graph.constant"() {value = dense<0.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = "graph.add"(%x, %z) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %a = "graph.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %1 = "graph.add"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %one = "graph.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %2 = "graph.mul"(%x, %one) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0, %1, %2 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}
