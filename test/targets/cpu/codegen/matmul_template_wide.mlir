// The template's default tile (cpu-codegen mr=0 nr=0) from the CPU's vector width and
// register count (decision 0026): with 32 registers (x86-64-v4) and N a multiple of 4
// vectors, one product takes the wide tile, 5 rows x 4 vectors (20 vector<16xf32>
// accumulators: each broadcast A element feeds 4 FMAs); otherwise 6 rows x 2 vectors.
// Not wide: N = 70 (not a multiple of 64), x86-64-v3 (16 registers: 6 x 2 vectors of 8),
// 16 registers given (registers=16), two products in one kernel (horizontal templates:
// 2 x mr x nv accumulators), and a tile given by the options. Two products on
// x86-64-v3 take one vector each (2 x 6 x 1 accumulators + 2 B vectors + the broadcast
// = 15 of 16 registers; 2 x 6 x 2 would spill).
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose --graph-to-loops --inline-unrealized --form-kernels --cpu-codegen="remarks lanes=16" 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: braze-opt --cpu=x86-64-v3 %s --graph-decompose --graph-to-loops --inline-unrealized --form-kernels --cpu-codegen | FileCheck %s --check-prefix=AVX2
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose --graph-to-loops --inline-unrealized --form-kernels --cpu-codegen="registers=16" | FileCheck %s --check-prefix=REGS16
// RUN: braze-opt --cpu=x86-64-v3 %s --graph-decompose --graph-to-loops --inline-unrealized "--form-kernels=horizontal-templates" --cpu-codegen | FileCheck %s --check-prefix=TWO-AVX2
// RUN: not braze-opt --cpu=x86-64-v4 %s --cpu-codegen="registers=4" 2>&1 | FileCheck %s --check-prefix=BAD-REGS
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose --graph-to-loops --inline-unrealized --form-kernels --cpu-codegen="lanes=16 mr=6 nr=32" | FileCheck %s --check-prefix=GIVEN
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose --graph-to-loops --inline-unrealized --form-kernels --cpu-codegen="lanes=16 nr=64" | FileCheck %s --check-prefix=NR-ONLY
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose --graph-to-loops --inline-unrealized "--form-kernels=horizontal-templates" --cpu-codegen="lanes=16" | FileCheck %s --check-prefix=TWO
// RUN: not braze-opt --cpu=x86-64-v4 %s --cpu-codegen="mr=9" 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK-LABEL: func.func private @cpu_tem_fused_matmul_relu_0(
// CHECK-SAME: braze.template = "gemm mr=5 nr=64 mc={{[0-9]+}} vw=16 b=packed-per-panel"
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<40x64xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c40 step %c1 iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// CHECK-COUNT-4: vector.load
// CHECK-NEXT: memref.load
// CHECK-NEXT: vector.broadcast
// CHECK-COUNT-4: vector.fma
// CHECK-LABEL: func.func private @cpu_tem_fused_matmul_1(
// CHECK-SAME: braze.template = "gemm mr=6 nr=32 mc={{[0-9]+}} vw=16 b=packed-per-panel"

// REMARK: kernel @cpu_tem_fused_matmul_relu_0: matmul template gemm mr=5 nr=64 mc={{[0-9]+}} vw=16 b=packed-per-panel, 23x128x40, 2 panel(s)
// REMARK: kernel @cpu_tem_fused_matmul_1: matmul template gemm mr=6 nr=32 mc={{[0-9]+}} vw=16 b=packed-per-panel, 23x70x40, 3 panel(s)

// AVX2: braze.template = "gemm mr=6 nr=16 mc={{[0-9]+}} vw=8
// AVX2: braze.template = "gemm mr=6 nr=16 mc={{[0-9]+}} vw=8

// REGS16: braze.template = "gemm mr=6 nr=32 mc={{[0-9]+}} vw=16
// REGS16: braze.template = "gemm mr=6 nr=32 mc={{[0-9]+}} vw=16
// TWO-AVX2: braze.template = "gemm mr=6 nr=8 mc={{[0-9]+}} vw=8 b=packed-per-panel products=2"
// TWO-AVX2: -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// BAD-REGS: option 'registers' expects 8 to 64, got 4
// GIVEN: braze.template = "gemm mr=6 nr=32 mc={{[0-9]+}} vw=16
// GIVEN: braze.template = "gemm mr=6 nr=32 mc={{[0-9]+}} vw=16

// With nr given and mr not: 6 rows.
// NR-ONLY: braze.template = "gemm mr=6 nr=64 mc={{[0-9]+}} vw=16

// TWO: braze.template = "gemm mr=6 nr=32 mc={{[0-9]+}} vw=16 b=packed-per-panel products=2"

// BAD: options 'mr' expects 1 to 8 (0: auto), 'nr' a multiple of 16 up to 64, 'mc' a row count (0: auto)

func.func @wide(%a: tensor<23x40xf32>, %b: tensor<40x128xf32>) -> tensor<23x128xf32> {
  %0 = "graph.matmul"(%a, %b) : (tensor<23x40xf32>, tensor<40x128xf32>) -> tensor<23x128xf32>
  %1 = "graph.relu"(%0) : (tensor<23x128xf32>) -> tensor<23x128xf32>
  return %1 : tensor<23x128xf32>
}

func.func @narrow(%a: tensor<23x40xf32>, %b: tensor<40x70xf32>) -> tensor<23x70xf32> {
  %0 = "graph.matmul"(%a, %b) : (tensor<23x40xf32>, tensor<40x70xf32>) -> tensor<23x70xf32>
  return %0 : tensor<23x70xf32>
}

// Two products of one A (a gate and an up projection): one kernel with 2 products
// under horizontal-templates.
func.func @gate_up(%x: tensor<23x40xf32>, %wg: tensor<40x64xf32>, %wu: tensor<40x64xf32>) -> tensor<23x64xf32> {
  %g = "graph.matmul"(%x, %wg) : (tensor<23x40xf32>, tensor<40x64xf32>) -> tensor<23x64xf32>
  %u = "graph.matmul"(%x, %wu) : (tensor<23x40xf32>, tensor<40x64xf32>) -> tensor<23x64xf32>
  %s = "graph.silu"(%g) : (tensor<23x64xf32>) -> tensor<23x64xf32>
  %y = "graph.mul"(%s, %u) : (tensor<23x64xf32>, tensor<23x64xf32>) -> tensor<23x64xf32>
  return %y : tensor<23x64xf32>
}
