// graph.sin and graph.cos (math.sin / math.cos: libm's sinf/cosf on the CPU, libdevice
// on CUDA) against the reference (double): arguments of unit scale, arguments up to
// +-1000 (range reduction), f16 and f64, and a rotary-embedding step (x * cos + y * sin)
// that fuses into one kernel.
// RUN: braze check %s --seed 3 | FileCheck %s
// RUN: braze compile --cpu=x86-64-v4 %s --emit=mlir -o - | FileCheck %s --check-prefix=FUSED
// CHECK: PASS  @unit out0
// CHECK: PASS  @unit out1
// CHECK: PASS  @large out0
// CHECK: PASS  @large out1
// CHECK: PASS  @halves out0
// CHECK: PASS  @doubles out0
// CHECK: PASS  @rotary out0
// CHECK: check passed
// FUSED-LABEL: func.func @rotary(
// FUSED-NEXT: call @cpu_poi_fused_sin_mul_cos_add_
// FUSED-NEXT: return

func.func @unit(%x: tensor<37x100xf32>) -> (tensor<37x100xf32>, tensor<37x100xf32>) {
  %s = "graph.sin"(%x) : (tensor<37x100xf32>) -> tensor<37x100xf32>
  %c = "graph.cos"(%x) : (tensor<37x100xf32>) -> tensor<37x100xf32>
  return %s, %c : tensor<37x100xf32>, tensor<37x100xf32>
}

func.func @large(%x: tensor<1000xf32>) -> (tensor<1000xf32>, tensor<1000xf32>) {
  %k = "graph.constant"() {value = dense<300.0> : tensor<f32>} : () -> tensor<f32>
  %y = "graph.mul"(%x, %k) : (tensor<1000xf32>, tensor<f32>) -> tensor<1000xf32>
  %s = "graph.sin"(%y) : (tensor<1000xf32>) -> tensor<1000xf32>
  %c = "graph.cos"(%y) : (tensor<1000xf32>) -> tensor<1000xf32>
  return %s, %c : tensor<1000xf32>, tensor<1000xf32>
}

func.func @halves(%x: tensor<64xf16>) -> tensor<64xf16> {
  %s = "graph.sin"(%x) : (tensor<64xf16>) -> tensor<64xf16>
  return %s : tensor<64xf16>
}

func.func @doubles(%x: tensor<64xf64>) -> tensor<64xf64> {
  %c = "graph.cos"(%x) : (tensor<64xf64>) -> tensor<64xf64>
  return %c : tensor<64xf64>
}

func.func @rotary(%x: tensor<16x64xf32>, %y: tensor<16x64xf32>, %theta: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %c = "graph.cos"(%theta) : (tensor<16x64xf32>) -> tensor<16x64xf32>
  %s = "graph.sin"(%theta) : (tensor<16x64xf32>) -> tensor<16x64xf32>
  %a = "graph.mul"(%x, %c) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %b = "graph.mul"(%y, %s) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %r = "graph.add"(%a, %b) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}
