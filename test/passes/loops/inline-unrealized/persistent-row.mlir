// Softmax: exp(x - max) is read by the sum and by the divide. It holds a
// transcendental and both consumers iterate over its rows, so with a row of at
// most persistent-row-bytes (default 65536) it is realized (expensive-recompute)
// instead of recomputed in each consumer; form-kernels still makes one kernel and
// cpu-codegen keeps the exp'd row in a per-row buffer: exp once per element.
// persistent-row-bytes=0, or a row larger than the limit, keeps the old inlining.
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose --graph-to-loops --inline-unrealized=remarks 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose --graph-to-loops --inline-unrealized='remarks persistent-row-bytes=0' 2>&1 >/dev/null | FileCheck %s --check-prefix=OFF
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose --graph-to-loops --inline-unrealized='remarks persistent-row-bytes=255' 2>&1 >/dev/null | FileCheck %s --check-prefix=OFF
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose --graph-to-loops --inline-unrealized='remarks persistent-row-bytes=256' 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose --graph-to-loops --inline-unrealized --form-kernels=remarks --cpu-codegen=row-jam=1 2>%t.remarks | FileCheck %s --check-prefix=CG
// RUN: FileCheck %s --check-prefix=KERNELS --input-file=%t.remarks
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose --graph-to-loops --inline-unrealized=persistent-row-bytes=0 --form-kernels --cpu-codegen | FileCheck %s --check-prefix=CG-OFF
// RUN: braze check %s --seed 3 | FileCheck %s --check-prefix=NUM
// RUN: not braze-opt --cpu=x86-64-v4 %s --inline-unrealized=persistent-row-bytes=-1 2>&1 | FileCheck %s --check-prefix=NEG

// REMARK: remark: realized: expensive-recompute (2 reads of a row <= persistent-row-bytes=
// REMARK-NOT: inlined into 2 consumers
// OFF-NOT: expensive-recompute
// OFF: remark: inlined into 2 consumers

// KERNELS: form-kernels: kernel cpu_per_fused_softmax_0
// KERNELS-NOT: form-kernels: kernel

// CG: scf.parallel (%[[I:.*]]) = (%c0) to (%c6) step (%c1) {
// CG-NEXT: %[[ROW:.*]] = memref.alloca() {alignment = 64 : i64} : memref<64xf32>
// CG: math.exp
// CG-NEXT: memref.store %{{.*}}, %[[ROW]]
// CG: memref.load %[[ROW]]
// CG: arith.addf
// CG: memref.load %[[ROW]]
// CG-NEXT: arith.divf
// CG-NOT: math.exp
// CG: scf.reduce

// CG-OFF-COUNT-2: math.exp

// NUM: PASS @softmax out0 6x64xf32
// NUM: check passed

// NEG: thresholds must be >= 0

func.func @softmax(%x: tensor<6x64xf32>) -> tensor<6x64xf32> {
  %0 = "graph.softmax"(%x) {dim = 1 : i64} : (tensor<6x64xf32>) -> tensor<6x64xf32>
  return %0 : tensor<6x64xf32>
}
