// --mlir-timing prints MLIR's per-pass report (when there is a pipeline) and
// braze-opt's phase report on stderr; stdout is unchanged.
// RUN: braze-opt --cpu=x86-64-v4 %s --mlir-timing 2>&1 >/dev/null | FileCheck %s --check-prefix=PHASES
// RUN: braze-opt --cpu=x86-64-v4 %s --cse --mlir-timing 2>&1 >/dev/null | FileCheck %s --check-prefixes=PASSES,PHASES
// RUN: braze-opt --cpu=x86-64-v4 %s --mlir-timing 2>/dev/null | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s 2>&1 >/dev/null | count 0

// PASSES: ... Execution time report ...
// PASSES: CSE
// PHASES: ... braze-opt phase time report ...
// PHASES: Total Execution Time: {{[0-9.]+}} seconds
// PHASES: ----Wall Time----  ----Name----
// PHASES-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Parse
// PHASES-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Verify graph
// PHASES-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Pass pipeline
// PHASES-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Output
// PHASES-NEXT: {{[0-9.]+}} (100.0%)  Total

// CHECK-LABEL: func.func @f
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
