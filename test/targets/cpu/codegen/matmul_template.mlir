// The matmul template (cpu-codegen matmul=template, the default) on a linear + relu
// tem kernel of odd sizes (M=20, N=70, K=45): parallel over (M blocks, N panels of
// 32; vectors of 16 lanes, blocks of 12 rows: 2 blocks); each iteration packs its panel of B into a [K][32] stack buffer (masked
// loads past N, zeros there), then runs 6-row tiles with 12 vector<16xf32>
// accumulators in iter_args (one broadcast A element per row and k, two B vectors, FMAs);
// the epilogue (bias, relu) is applied to each accumulator vector and stored once,
// masked past N; the 2 remaining rows (20 = 3 x 6 + 2) run a 2-row tile in the last block.
// The remark and the kernel's braze.template attribute give the tile sizes.
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose --graph-to-loops --inline-unrealized --form-kernels --cpu-codegen="remarks lanes=16 mc=12" 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose --graph-to-loops --inline-unrealized --form-kernels --cpu-codegen="mr=4 nr=16 mc=8 lanes=16" | FileCheck %s --check-prefix=SMALL

// CHECK-LABEL: func.func private @cpu_tem_fused_{{[a-z_]+}}_0(
// CHECK-SAME: %[[A:.*]]: memref<20x45xf32>, %[[B:.*]]: memref<45x70xf32>, %[[BIAS:.*]]: memref<70xf32>, %[[Y:.*]]: memref<20x70xf32>)
// CHECK-SAME: braze.template = "gemm mr=6 nr=32 mc=12 vw=16 b=packed-per-panel"
// CHECK: scf.parallel (%[[MB:.*]], %[[NT:.*]]) = (%c0, %c0) to (%c2, %c3)
// CHECK: %[[PANEL:.*]] = memref.alloca() {alignment = 64 : i64} : memref<45x32xf32>
// CHECK: scf.for %[[PK:.*]] = %c0 to %c45
// CHECK: vector.maskedload %[[B]][%[[PK]],
// CHECK: vector.store %{{.*}}, %[[PANEL]][%[[PK]], %c0]
// CHECK: vector.maskedload %[[B]][%[[PK]],
// CHECK: vector.store %{{.*}}, %[[PANEL]][%[[PK]], %c16]
// CHECK: %[[ACC:.*]]:12 = scf.for %[[K:.*]] = %c0 to %c45 step %c1 iter_args({{.*}}) -> (vector<16xf32>, {{.*}}) {
// CHECK-NEXT: %[[B0:.*]] = vector.load %[[PANEL]][%[[K]], %c0]
// CHECK-NEXT: %[[B1:.*]] = vector.load %[[PANEL]][%[[K]], %c16]
// CHECK-NEXT: %[[AV:.*]] = memref.load %[[A]][%{{.*}}, %[[K]]]
// CHECK-NEXT: %[[AB:.*]] = vector.broadcast %[[AV]] : f32 to vector<16xf32>
// CHECK-NEXT: vector.fma %[[AB]], %[[B0]]
// CHECK-NEXT: vector.fma %[[AB]], %[[B1]]
// CHECK: scf.yield
// CHECK: %[[BV:.*]] = vector.maskedload %[[BIAS]]
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]]#0, %[[BV]] : vector<16xf32>
// CHECK: %[[R:.*]] = arith.maximumf %[[S]], %{{.*}} : vector<16xf32>
// CHECK-NEXT: vector.maskedstore %[[Y]][{{.*}}], %{{.*}}, %[[R]]
// CHECK: scf.if
// CHECK: scf.for %{{.*}} = %c0 to %c45 step %c1 iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {

// REMARK: remark: cpu-codegen: kernel @cpu_tem_fused_{{[a-z_]+}}_0: matmul template gemm mr=6 nr=32 mc=12 vw=16 b=packed-per-panel, 20x70x45, 3 panel(s), epilogue of 1 generic(s)

// Other tile sizes: 4 rows, one vector per row, blocks of 8 rows (3 blocks).
// SMALL: braze.template = "gemm mr=4 nr=16 mc=8 vw=16 b=packed-per-panel"
// SMALL: scf.parallel ({{.*}}) = (%c0, %c0) to (%c3, %c5)
// SMALL: memref.alloca() {alignment = 64 : i64} : memref<45x16xf32>
// SMALL: scf.for {{.*}} iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
func.func @linear_relu(%x: tensor<20x45xf32>, %w: tensor<45x70xf32>, %b: tensor<70xf32>) -> tensor<20x70xf32> {
  %0 = "graph.matmul"(%x, %w) : (tensor<20x45xf32>, tensor<45x70xf32>) -> tensor<20x70xf32>
  %1 = "graph.add"(%0, %b) : (tensor<20x70xf32>, tensor<70xf32>) -> tensor<20x70xf32>
  %2 = "graph.relu"(%1) : (tensor<20x70xf32>) -> tensor<20x70xf32>
  return %2 : tensor<20x70xf32>
}
