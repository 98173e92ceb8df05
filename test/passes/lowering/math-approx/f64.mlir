// math-approx rewrites f32 only: f64 math ops (scalars and vectors) stay libm calls,
// so f64 results keep double precision; the f32 op beside them is rewritten.
// RUN: braze-opt --cpu=x86-64-v4 %s --math-approx | FileCheck %s

// CHECK-LABEL: func.func @f64_math
// CHECK: math.exp %{{.*}} : f64
// CHECK: math.log %{{.*}} : f64
// CHECK: math.tanh %{{.*}} : f64
// CHECK: math.erf %{{.*}} : f64
// CHECK: math.rsqrt %{{.*}} : vector<4xf64>
// CHECK-NOT: math.exp %{{.*}} : f32
// CHECK: return
func.func @f64_math(%x: f64, %v: vector<4xf64>, %y: f32) -> (f64, vector<4xf64>, f32) {
  %0 = math.exp %x : f64
  %1 = math.log %0 : f64
  %2 = math.tanh %1 : f64
  %3 = math.erf %2 : f64
  %4 = math.rsqrt %v : vector<4xf64>
  %5 = math.exp %y : f32
  return %3, %4, %5 : f64, vector<4xf64>, f32
}
