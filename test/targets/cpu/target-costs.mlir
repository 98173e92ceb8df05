// Target facts as data (docs/target-costs.md): --target-costs=FILE overrides the facts
// heuristics read. The vector width sets the matmul template's register tile (nr = 2
// vectors, vector<VWxf32> accumulators) and the cores its row blocks (mc); the L2 sets
// form-row-chains' per-block scratch, so a small one shrinks the blocks or refuses the
// chain with a named reason (a 1 KiB L2: not even a 6-row block, one register tile, fits).
// Bad files are errors naming the file and the fact.
// RUN: braze-opt --cpu=x86-64-v4 %s --target-costs=%S/Inputs/costs-avx2.json --graph-decompose --graph-to-loops --inline-unrealized --form-kernels --cpu-codegen | FileCheck %s --check-prefix=AVX2
// RUN: braze-opt --cpu=x86-64-v4 %s --target-costs=%S/Inputs/costs-sse.json --graph-decompose --graph-to-loops --inline-unrealized --form-kernels --cpu-codegen | FileCheck %s --check-prefix=SSE
// RUN: braze compile --cpu=x86-64-v4 %s --target-costs=%S/Inputs/costs-sse.json --emit=mlir | FileCheck %s --check-prefix=SSE
// RUN: braze compile --cpu=x86-64-v4 %s --target-costs %S/Inputs/costs-avx2.json --emit=mlir | FileCheck %s --check-prefix=AVX2
// RUN: braze compile --cpu=x86-64-v4 --target-costs=%S/Inputs/costs-sse.json --list-targets | FileCheck %s --check-prefix=LIST

// AVX2: braze.template = "gemm mr=6 nr=16 mc=6 vw=8 b=packed-per-panel"
// AVX2: -> (vector<8xf32>, vector<8xf32>,
// SSE: braze.template = "gemm mr=6 nr=8 mc=12 vw=4 b=packed-per-panel"
// SSE: -> (vector<4xf32>, vector<4xf32>,
// LIST: cpu: x86-64 CPU
// LIST: costs: vector width 128 bits, 32 vector registers, cache line 64 bytes, L2 1048576 bytes, 4 cores
// LIST: cpu: x86-64-v4 (LLVM CPU x86-64-v4), checked at run time: ssse3
// LIST: cuda: NVIDIA GPU
// LIST: costs: vector width 128 bits, 0 vector registers, cache line 128 bytes, L2 52428800 bytes, 4 cores

// RUN: braze-opt --cpu=x86-64-v4 %S/../../passes/chains/form-row-chains/Inputs/attention-4x256x32.mlir --target=cpu --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels,form-row-chains{remarks})' 2>&1 >/dev/null | FileCheck %s --check-prefix=L2-1M
// RUN: braze-opt --cpu=x86-64-v4 %S/../../passes/chains/form-row-chains/Inputs/attention-4x256x32.mlir --target=cpu --target-costs=%S/Inputs/costs-l2-64k.json --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels,form-row-chains{remarks})' 2>&1 >/dev/null | FileCheck %s --check-prefix=L2-64K
// RUN: braze-opt --cpu=x86-64-v4 %S/../../passes/chains/form-row-chains/Inputs/attention-4x256x32.mlir --target-costs=%S/Inputs/costs-l2-1k.json --target=cpu --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels,form-row-chains{remarks})' 2>&1 >/dev/null | FileCheck %s --check-prefix=L2-1K
// L2-1M: remark: form-row-chains: 3 kernels as @cpu_chain_fused_batch_matmul_softmax_0: blocks of 128 rows
// L2-64K: remark: form-row-chains: 3 kernels as @cpu_chain_fused_batch_matmul_softmax_0: blocks of 64 rows
// L2-1K: remark: form-row-chains: no chain @cpu_tem_fused_batch_matmul_0 -> @cpu_per_fused_softmax_1 -> @cpu_tem_fused_batch_matmul_2: rows-exceed-scratch

// RUN: not braze-opt --cpu=x86-64-v4 %s --target-costs=%S/Inputs/costs-bad-width.json 2>&1 | FileCheck %s --check-prefix=BAD-WIDTH
// RUN: not braze-opt --cpu=x86-64-v4 %s --target-costs=%S/Inputs/costs-unknown-key.json 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not braze-opt --cpu=x86-64-v4 %s --target-costs=%S/Inputs/costs-bad-size.json 2>&1 | FileCheck %s --check-prefix=BAD-SIZE
// RUN: not braze-opt --cpu=x86-64-v4 %s --target-costs=%S/Inputs/costs-not-object.json 2>&1 | FileCheck %s --check-prefix=NOT-OBJECT
// RUN: not braze-opt --cpu=x86-64-v4 %s --target-costs=%S/Inputs/costs-truncated.json 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// RUN: not braze-opt --cpu=x86-64-v4 %s --target-costs=%S/Inputs/missing.json 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not braze-opt --cpu=x86-64-v4 %s --target=tpu 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not braze compile %s --target-costs=%S/Inputs/costs-unknown-key.json -o %t.so 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not ls %t.so
// RUN: not braze check %s --target-costs 2>&1 | FileCheck %s --check-prefix=NO-FILE
// BAD-WIDTH: braze-opt: {{.*}}costs-bad-width.json: 'vector-width-bits' (widest SIMD register codegen may use) expects an integer from 32 to 4096, a multiple of 32
// UNKNOWN: {{.*}}costs-unknown-key.json: unknown target fact 'vector-width' (known: vector-width-bits vector-registers vector-ldexp cache-line-bytes l2-bytes cores sms warp-size max-threads-per-block shared-mem-per-sm-bytes shared-mem-per-block-bytes)
// BAD-SIZE: braze-opt: {{.*}}costs-bad-size.json: 'l2-bytes' (L2 cache) expects a size from 1 to {{[0-9]+}} (bytes, or a string such as "1MiB")
// NOT-OBJECT: braze-opt: {{.*}}costs-not-object.json: target costs must be a JSON object
// TRUNCATED: braze-opt: {{.*}}costs-truncated.json:2:{{[0-9]+}}: cannot read target costs:
// MISSING: braze-opt: {{.*}}missing.json:{{.*}}: cannot read target costs: unable to open
// TARGET: braze-opt: unknown target 'tpu' (known: cpu, cuda)
// NO-FILE: braze check: --target-costs needs a file

func.func @linear_relu(%x: tensor<20x45xf32>, %w: tensor<45x70xf32>, %b: tensor<70xf32>) -> tensor<20x70xf32> {
  %0 = "graph.matmul"(%x, %w) : (tensor<20x45xf32>, tensor<45x70xf32>) -> tensor<20x70xf32>
  %1 = "graph.add"(%0, %b) : (tensor<20x70xf32>, tensor<70xf32>) -> tensor<20x70xf32>
  %2 = "graph.relu"(%1) : (tensor<20x70xf32>) -> tensor<20x70xf32>
  return %2 : tensor<20x70xf32>
}
