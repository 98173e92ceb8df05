/* Unit tests of the reference interpreter (reference/) against hand-computed values,
 * and of its refusals (collected from the diagnostic sink). The graph verifier is not
 * run here, so the interpreter's own shape/attribute checks are exercised too. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/IR.h"
#include "reference/reference.h"
#include "support/context.h"
#include "support/diag.h"
#include "support/tensor.h"
#include "test/unit/check.h"

static MlirContext ctx;
static BrazeDiagSink sink = {.collect = true};

/* A tensor from literal values. */
static BrazeHostTensor make(BrazeDType dtype, int rank, const int64_t *shape, const double *values) {
  BrazeHostTensor t;
  braze_tensor_init(&t, dtype, rank, shape);
  for (int64_t i = 0; i < braze_tensor_numel(&t); ++i)
    t.data[i] = values[i];
  return t;
}

/* The first diagnostic message, or "" (diagnostics are cleared by run()). */
static const char *first_error(void) { return sink.count ? sink.items[0].message : ""; }

/* Parse `text`, run its first function on `inputs`; outputs in *outs. */
static bool run(const char *text, const BrazeHostTensor *inputs, size_t n_in, BrazeHostTensor **outs, size_t *n_out) {
  braze_diag_sink_clear(&sink);
  *outs = NULL;
  *n_out = 0;
  MlirOperation module = braze_parse(ctx, text, strlen(text), "unit.mlir");
  if (mlirOperationIsNull(module))
    return false;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  bool ok = braze_reference_run(mlirBlockGetFirstOperation(body), inputs, n_in, outs, n_out);
  mlirOperationDestroy(module);
  return ok;
}

static bool near(double got, double want) { return fabs(got - want) <= 1e-6 * fmax(1.0, fabs(want)); }

static bool values_are(const BrazeHostTensor *t, const double *want, int64_t n) {
  if (braze_tensor_numel(t) != n)
    return false;
  for (int64_t i = 0; i < n; ++i)
    if (!near(t->data[i], want[i])) {
      fprintf(stderr, "  element %lld: got %.9g, want %.9g\n", (long long)i, t->data[i], want[i]);
      return false;
    }
  return true;
}

static void broadcast_add(void) {
  const char *ir = "func.func @f(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {\n"
                   "  %0 = \"graph.add\"(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>\n"
                   "  return %0 : tensor<2x3xf32>\n}\n";
  int64_t s23[2] = {2, 3}, s3[1] = {3};
  BrazeHostTensor in[2] = {make(BRAZE_DTYPE_F32, 2, s23, (double[]){1, 2, 3, 4, 5, 6}),
                           make(BRAZE_DTYPE_F32, 1, s3, (double[]){10, 20, 30})};
  BrazeHostTensor *outs;
  size_t n;
  CHECK(run(ir, in, 2, &outs, &n));
  CHECK(n == 1 && outs[0].rank == 2 && outs[0].shape[1] == 3 && outs[0].dtype == BRAZE_DTYPE_F32);
  CHECK(n == 1 && values_are(&outs[0], (double[]){11, 22, 33, 14, 25, 36}, 6));
  CHECK(in[0].data[0] == 1); /* inputs untouched */
  braze_tensors_free(outs, n);
  braze_tensor_free(&in[0]);
  braze_tensor_free(&in[1]);
}

static void composites_by_hand(void) {
  const char *ir =
      "func.func @f(%x: tensor<1x4xf32>) -> (tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, "
      "tensor<1x4xf32>) {\n"
      "  %w = \"graph.constant\"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>\n"
      "  %b = \"graph.constant\"() {value = dense<0.0> : tensor<4xf32>} : () -> tensor<4xf32>\n"
      "  %0 = \"graph.softmax\"(%x) {dim = 1 : i64} : (tensor<1x4xf32>) -> tensor<1x4xf32>\n"
      "  %1 = \"graph.layer_norm\"(%x, %w, %b) {axis = 1 : i64, eps = 0.0 : f32} : (tensor<1x4xf32>, "
      "tensor<4xf32>, tensor<4xf32>) -> tensor<1x4xf32>\n"
      "  %2 = \"graph.gelu\"(%x) {approximate = \"none\"} : (tensor<1x4xf32>) -> tensor<1x4xf32>\n"
      "  %3 = \"graph.gelu\"(%x) {approximate = \"tanh\"} : (tensor<1x4xf32>) -> tensor<1x4xf32>\n"
      "  %4 = \"graph.silu\"(%x) : (tensor<1x4xf32>) -> tensor<1x4xf32>\n"
      "  return %0, %1, %2, %3, %4 : tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, "
      "tensor<1x4xf32>\n}\n";
  int64_t s[2] = {1, 4};
  BrazeHostTensor x = make(BRAZE_DTYPE_F32, 2, s, (double[]){1, 2, 3, 4});
  BrazeHostTensor *o;
  size_t n;
  CHECK(run(ir, &x, 1, &o, &n) && n == 5);
  if (n == 5) {
    /* softmax([1,2,3,4]) = e^k / (e + e^2 + e^3 + e^4) */
    CHECK(values_are(&o[0], (double[]){0.0320586033, 0.0871443187, 0.2368828181, 0.6439142599}, 4));
    /* mean 2.5, biased var 1.25: (x - 2.5) / sqrt(1.25) */
    CHECK(values_are(&o[1], (double[]){-1.3416407865, -0.4472135955, 0.4472135955, 1.3416407865}, 4));
    /* gelu(1) = 0.5 (1 + erf(1/sqrt 2)) = Phi(1); gelu(2) = 2 Phi(2) */
    CHECK(values_are(&o[2], (double[]){0.8413447461, 1.9544997361, 2.9959502744, 3.9998733685}, 4));
    CHECK(values_are(&o[3], (double[]){0.8411919906, 1.9545976685, 2.9963626503, 3.9999297016}, 4));
    /* silu(x) = x / (1 + e^-x) */
    CHECK(values_are(&o[4], (double[]){0.7310585786, 1.7615941560, 2.8577223804, 3.9280551846}, 4));
  }
  braze_tensors_free(o, n);
  braze_tensor_free(&x);
}

static void reductions_by_hand(void) {
  const char *ir =
      "func.func @f(%x: tensor<2x3xf32>) -> (tensor<2xf32>, tensor<1x3xf32>, tensor<f32>, tensor<2x1xf32>) {\n"
      "  %0 = \"graph.reduce_var\"(%x) {dims = array<i64: 1>, keepdim = false, correction = 1 : i64} : "
      "(tensor<2x3xf32>) -> tensor<2xf32>\n"
      "  %1 = \"graph.reduce_mean\"(%x) {dims = array<i64: 0>, keepdim = true} : (tensor<2x3xf32>) -> tensor<1x3xf32>\n"
      "  %2 = \"graph.reduce_max\"(%x) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<2x3xf32>) -> tensor<f32>\n"
      "  %3 = \"graph.reduce_min\"(%x) {dims = array<i64: 1>, keepdim = true} : (tensor<2x3xf32>) -> tensor<2x1xf32>\n"
      "  return %0, %1, %2, %3 : tensor<2xf32>, tensor<1x3xf32>, tensor<f32>, tensor<2x1xf32>\n}\n";
  int64_t s[2] = {2, 3};
  BrazeHostTensor x = make(BRAZE_DTYPE_F32, 2, s, (double[]){1, 2, 6, -1, 0, 4});
  BrazeHostTensor *o;
  size_t n;
  CHECK(run(ir, &x, 1, &o, &n) && n == 4);
  if (n == 4) {
    /* row 0: mean 3, squares 4+1+9 = 14, /2 = 7; row 1: mean 1, 4+1+9 = 14 -> 7 */
    CHECK(values_are(&o[0], (double[]){7, 7}, 2));
    CHECK(values_are(&o[1], (double[]){0, 1, 5}, 3));
    CHECK(o[2].rank == 0 && values_are(&o[2], (double[]){6}, 1));
    CHECK(o[3].rank == 2 && o[3].shape[1] == 1 && values_are(&o[3], (double[]){1, -1}, 2));
  }
  braze_tensors_free(o, n);
  braze_tensor_free(&x);
}

static void matmul_and_batch_norm_by_hand(void) {
  const char *ir =
      "func.func @f(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<1x2x2xf32>) {\n"
      "  %0 = \"graph.matmul\"(%a, %b) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>\n"
      "  %r = \"graph.reshape\"(%a) : (tensor<2x2xf32>) -> tensor<1x2x2xf32>\n"
      "  %s = \"graph.constant\"() {value = dense<[2.0, 3.0]> : tensor<2xf32>} : () -> tensor<2xf32>\n"
      "  %c = \"graph.constant\"() {value = dense<[1.0, -1.0]> : tensor<2xf32>} : () -> tensor<2xf32>\n"
      "  %v = \"graph.constant\"() {value = dense<[4.0, 16.0]> : tensor<2xf32>} : () -> tensor<2xf32>\n"
      "  %1 = \"graph.batch_norm\"(%r, %s, %c, %c, %v) {eps = 0.0 : f32} : (tensor<1x2x2xf32>, tensor<2xf32>, "
      "tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x2xf32>\n"
      "  return %0, %1 : tensor<2x2xf32>, tensor<1x2x2xf32>\n}\n";
  int64_t s[2] = {2, 2};
  BrazeHostTensor in[2] = {make(BRAZE_DTYPE_F32, 2, s, (double[]){1, 2, 3, 4}),
                           make(BRAZE_DTYPE_F32, 2, s, (double[]){5, 6, 7, 8})};
  BrazeHostTensor *o;
  size_t n;
  CHECK(run(ir, in, 2, &o, &n) && n == 2);
  if (n == 2) {
    CHECK(values_are(&o[0], (double[]){19, 22, 43, 50}, 4));
    /* channel 0: (x - 1) / 2 * 2 + 1 = x; channel 1: (x + 1) / 4 * 3 - 1 */
    CHECK(values_are(&o[1], (double[]){1, 2, 2, 2.75}, 4));
  }
  braze_tensors_free(o, n);
  braze_tensor_free(&in[0]);
  braze_tensor_free(&in[1]);
}

/* Results are rounded to the element type on store, intermediate values in a
 * composite are not. */
static void stores_round_to_element_type(void) {
  const char *ir = "func.func @f(%a: tensor<2xf16>, %b: tensor<2xf16>) -> (tensor<2xf16>, tensor<2xi32>) {\n"
                   "  %0 = \"graph.add\"(%a, %b) : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xf16>\n"
                   "  %1 = \"graph.cast\"(%0) : (tensor<2xf16>) -> tensor<2xi32>\n"
                   "  return %0, %1 : tensor<2xf16>, tensor<2xi32>\n}\n";
  int64_t s[1] = {2};
  /* 2048 + 1 is a tie in f16 (ulp 2 at 2048): rounds to even 2048; 2048 + 3 -> 2052. */
  BrazeHostTensor in[2] = {make(BRAZE_DTYPE_F16, 1, s, (double[]){2048, 2048}),
                           make(BRAZE_DTYPE_F16, 1, s, (double[]){1, 3})};
  BrazeHostTensor *o;
  size_t n;
  CHECK(run(ir, in, 2, &o, &n) && n == 2);
  if (n == 2) {
    CHECK(o[0].data[0] == 2048 && o[0].data[1] == 2052);
    CHECK(o[1].dtype == BRAZE_DTYPE_I32 && o[1].data[1] == 2052);
  }
  braze_tensors_free(o, n);
  braze_tensor_free(&in[0]);
  braze_tensor_free(&in[1]);
}

static void expect_error(const char *ir, const BrazeHostTensor *in, size_t n_in, const char *message) {
  BrazeHostTensor *o;
  size_t n;
  CHECK(!run(ir, in, n_in, &o, &n));
  CHECK(o == NULL && n == 0);
  CHECK(sink.num_errors >= 1);
  CHECK_CONTAINS(first_error(), message);
  CHECK(sink.count && sink.items[0].file && strcmp(sink.items[0].file, "unit.mlir") == 0 && sink.items[0].line > 0);
}

static void refusals(void) {
  int64_t s3[1] = {3};
  BrazeHostTensor x = make(BRAZE_DTYPE_F32, 1, s3, (double[]){1, 2, 3});
  BrazeHostTensor xi = make(BRAZE_DTYPE_I32, 1, s3, (double[]){1, 2, 3});
  expect_error("func.func @f(%x: tensor<3xf32>) -> tensor<f32> {\n"
               "  %0 = \"graph.reduce_var\"(%x) {dims = array<i64: 0>, keepdim = false, correction = 3 : i64} : "
               "(tensor<3xf32>) -> tensor<f32>\n  return %0 : tensor<f32>\n}\n",
               &x, 1, "graph.reduce_var: n - correction must be > 0 (n = 3, correction = 3)");
  expect_error("func.func @f(%x: tensor<3xf32>) -> tensor<4xf32> {\n"
               "  %0 = \"graph.exp\"(%x) : (tensor<3xf32>) -> tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n",
               &x, 1, "graph.exp: the result has type 4xf32, expected 3xf32");
  expect_error("func.func @f(%x: tensor<3xi32>) -> tensor<3xi32> {\n"
               "  %0 = \"graph.exp\"(%x) : (tensor<3xi32>) -> tensor<3xi32>\n  return %0 : tensor<3xi32>\n}\n",
               &xi, 1, "graph.exp: the operand must have a float element type (f32, f64, f16, bf16), got 3xi32");
  expect_error("func.func @f(%x: tensor<3xf32>) -> tensor<3x2xf32> {\n"
               "  %0 = \"graph.add\"(%x, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3x2xf32>\n"
               "  return %0 : tensor<3x2xf32>\n}\n",
               &x, 1, "graph.add: the result has type 3x2xf32, expected 3xf32");
  expect_error("func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {\n"
               "  %0 = \"graph.softmax\"(%x) {dim = 1 : i64} : (tensor<3xf32>) -> tensor<3xf32>\n"
               "  return %0 : tensor<3xf32>\n}\n",
               &x, 1, "graph.softmax: attribute 'dim' = 1 is out of range [0, 1)");
  expect_error("func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {\n"
               "  %0 = \"graph.transpose\"(%x) {perm = array<i64: 0, 0>} : (tensor<3xf32>) -> tensor<3xf32>\n"
               "  return %0 : tensor<3xf32>\n}\n",
               &x, 1, "expected attribute 'perm' = array<i64: ...> with 1 entries");
  expect_error("func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {\n"
               "  %0 = \"graph.gelu\"(%x) {approximate = \"fast\"} : (tensor<3xf32>) -> tensor<3xf32>\n"
               "  return %0 : tensor<3xf32>\n}\n",
               &x, 1, "attribute 'approximate' must be \"none\" or \"tanh\", got \"fast\"");
  /* Wrong inputs for the signature: reported at the function. */
  expect_error("func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {\n  return %x : tensor<3xf32>\n}\n", &xi, 1,
               "input 0 is 3xi32, argument 0 expects 3xf32");
  expect_error("func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {\n  return %x : tensor<3xf32>\n}\n", &x, 0,
               "the function takes 1 arguments, 0 inputs were given");
  expect_error("func.func private @f(%x: tensor<3xf32>) -> tensor<3xf32>\n", &x, 1, "the function has no body");
  braze_tensor_free(&x);
  braze_tensor_free(&xi);
}

int main(void) {
  ctx = braze_context_create();
  if (mlirContextIsNull(ctx))
    return 1;
  braze_diag_attach(ctx, &sink);
  RUN_CASE(broadcast_add);
  RUN_CASE(composites_by_hand);
  RUN_CASE(reductions_by_hand);
  RUN_CASE(matmul_and_batch_norm_by_hand);
  RUN_CASE(stores_round_to_element_type);
  RUN_CASE(refusals);
  braze_diag_detach(ctx);
  braze_diag_sink_clear(&sink);
  braze_context_destroy(ctx);
  return check_finish();
}
