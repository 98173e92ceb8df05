// `braze run --target=cpu` evaluates compiled code with the same inputs and output
// files as the reference run; the saved outputs agree.
// RUN: rm -rf %t && mkdir -p %t
// RUN: braze run %s --seed 37 --save-outputs %t/ref --quiet
// RUN: braze run %s --seed 37 --target=cpu --save-outputs %t/cpu | FileCheck %s
// RUN: %python -c "import numpy as n, sys; a, b = n.load('%t/cpu/out0.npy'), n.load('%t/ref/out0.npy'); print('allclose', a.shape, n.allclose(a, b, rtol=1e-5, atol=1e-6))" | FileCheck %s --check-prefix=CMP
// RUN: braze run %s --seed 37 --target=cpu --pipeline=cpu-no-fusion --quiet
// RUN: not braze run %s --target=gpu 2>&1 | FileCheck %s --check-prefix=BADTARGET
// CHECK: @norm: 1 output
// CHECK: out0: tensor<7x37xf32>
// CMP: allclose (7, 37) True
// BADTARGET: unknown target 'gpu'

func.func @norm(%x: tensor<7x37xf32>) -> tensor<7x37xf32> {
  %m = "graph.reduce_mean"(%x) {dims = array<i64: 1>, keepdim = true} : (tensor<7x37xf32>) -> tensor<7x1xf32>
  %c = "graph.sub"(%x, %m) : (tensor<7x37xf32>, tensor<7x1xf32>) -> tensor<7x37xf32>
  %t = "graph.tanh"(%c) : (tensor<7x37xf32>) -> tensor<7x37xf32>
  return %t : tensor<7x37xf32>
}
