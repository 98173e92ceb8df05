// compare.py itself: it must notice a wrong value, a wrong shape, a wrong dtype and a
// missing expectation (so the numpy tests can fail).
// RUN: not %python %S/compare.py %s --only off_by_ulps | FileCheck %s --check-prefix=VALUE
// RUN: not %python %S/compare.py %s --only wrong_shape | FileCheck %s --check-prefix=SHAPE
// RUN: not %python %S/compare.py %s --only int_vs_float | FileCheck %s --check-prefix=INT
// RUN: not %python %S/compare.py %s --only no_expectation | FileCheck %s --check-prefix=MISSING
// VALUE: FAIL @off_by_ulps: 1 values differ
// SHAPE: FAIL @wrong_shape: shape (2, 3), numpy says (3, 2)
// INT: FAIL @int_vs_float: at (2,) got 3, numpy says 4
// MISSING: error: @no_expectation has no '// NUMPY @no_expectation: <expression>' line

// The first element is off by 1e-4 relative: beyond the f32 bound.
// NUMPY @off_by_ulps: x * np.array([1.0001, 1.0, 1.0, 1.0])
// INPUTS @off_by_ulps: uniform 1 2
func.func @off_by_ulps(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "graph.abs"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// NUMPY @wrong_shape: x.T
func.func @wrong_shape(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "graph.neg"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// NUMPY @int_vs_float: np.array([1, 2, 4])
func.func @int_vs_float() -> tensor<3xi32> {
  %0 = "graph.constant"() {value = dense<[1, 2, 3]> : tensor<3xi32>} : () -> tensor<3xi32>
  return %0 : tensor<3xi32>
}
func.func @no_expectation(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
