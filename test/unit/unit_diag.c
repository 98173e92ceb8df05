/* Unit tests for support/diag: digging file:line:col out of name, call-site and
 * fused locations, location names, and the diagnostic sink. */
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "support/context.h"
#include "support/diag.h"
#include "test/unit/check.h"

static MlirContext ctx;

static MlirLocation file_loc(const char *file, unsigned line, unsigned col) {
  return mlirLocationFileLineColGet(ctx, braze_ref(file), line, col);
}

static MlirLocation name_loc(const char *name, MlirLocation child) {
  return mlirLocationNameGet(ctx, braze_ref(name), child);
}

/* Expect `loc` to point at file:line:col. */
static void expect_position(MlirLocation loc, const char *file, unsigned line, unsigned col) {
  const char *got_file = NULL;
  size_t got_len = 0;
  unsigned got_line = 0, got_col = 0;
  CHECK(braze_location_file_line_col(loc, &got_file, &got_len, &got_line, &got_col));
  CHECK(got_file && got_len == strlen(file) && memcmp(got_file, file, got_len) == 0);
  CHECK(got_line == line);
  CHECK(got_col == col);
}

static bool has_position(MlirLocation loc) {
  const char *f;
  size_t n;
  unsigned l, c;
  return braze_location_file_line_col(loc, &f, &n, &l, &c);
}

static void file_line_col(void) { expect_position(file_loc("a.mlir", 3, 7), "a.mlir", 3, 7); }

static void unknown_has_no_position(void) {
  CHECK(!has_position(mlirLocationUnknownGet(ctx)));
  CHECK(!has_position(name_loc("only_a_name", mlirLocationUnknownGet(ctx))));
}

static void name_locations(void) {
  expect_position(name_loc("node_1", file_loc("m.onnx", 12, 1)), "m.onnx", 12, 1);
  /* names nest */
  expect_position(name_loc("outer", name_loc("inner", file_loc("x.mlir", 5, 9))), "x.mlir", 5, 9);
}

static void call_sites_use_the_caller(void) {
  MlirLocation callee = file_loc("callee.mlir", 1, 1), caller = file_loc("caller.mlir", 20, 4);
  expect_position(mlirLocationCallSiteGet(callee, caller), "caller.mlir", 20, 4);
  /* a caller that is itself a call site: the outermost position */
  MlirLocation inner = mlirLocationCallSiteGet(callee, caller);
  expect_position(mlirLocationCallSiteGet(file_loc("deep.mlir", 2, 2), inner), "caller.mlir", 20, 4);
  /* a caller without a position has none, even if the callee does */
  CHECK(!has_position(mlirLocationCallSiteGet(callee, mlirLocationUnknownGet(ctx))));
}

static void fused_takes_the_first_with_a_position(void) {
  MlirLocation parts[3] = {mlirLocationUnknownGet(ctx), name_loc("n", file_loc("f.mlir", 8, 2)),
                           file_loc("g.mlir", 9, 3)};
  MlirLocation fused = mlirLocationFusedGet(ctx, 3, parts, mlirAttributeGetNull());
  expect_position(fused, "f.mlir", 8, 2);
  MlirLocation unknowns[2] = {mlirLocationUnknownGet(ctx), name_loc("x", mlirLocationUnknownGet(ctx))};
  CHECK(!has_position(mlirLocationFusedGet(ctx, 2, unknowns, mlirAttributeGetNull())));
  /* a name around a fused location around a call site */
  MlirLocation call = mlirLocationCallSiteGet(file_loc("c.mlir", 1, 1), file_loc("d.mlir", 4, 5));
  MlirLocation mixed[2] = {mlirLocationUnknownGet(ctx), call};
  expect_position(name_loc("top", mlirLocationFusedGet(ctx, 2, mixed, mlirAttributeGetNull())), "d.mlir", 4, 5);
}

static void location_names(void) {
  const char *name = NULL;
  size_t len = 0;
  CHECK(braze_location_name(name_loc("node_7", file_loc("m.onnx", 1, 1)), &name, &len));
  CHECK(len == 6 && memcmp(name, "node_7", 6) == 0);
  /* the outermost name wins */
  CHECK(braze_location_name(name_loc("outer", name_loc("inner", mlirLocationUnknownGet(ctx))), &name, &len));
  CHECK(len == 5 && memcmp(name, "outer", 5) == 0);
  CHECK(braze_location_name(mlirLocationCallSiteGet(name_loc("callee_node", file_loc("a", 1, 1)),
                                                    file_loc("b", 2, 2)),
                            &name, &len));
  CHECK(len == 11 && memcmp(name, "callee_node", 11) == 0);
  CHECK(!braze_location_name(file_loc("a.mlir", 1, 1), &name, &len));
}

static void sink_collects_braze_and_mlir_diagnostics(void) {
  BrazeDiagSink sink = {.collect = true};
  braze_diag_attach(ctx, &sink);
  CHECK(braze_diag_sink(ctx) == &sink);
  braze_emit_error(file_loc("s.mlir", 4, 2), "bad %s %d", "thing", 3);
  braze_emit_warning(name_loc("n", file_loc("s.mlir", 5, 1)), "careful");
  braze_emit_remark(mlirLocationUnknownGet(ctx), "fused %d ops", 2);
  mlirEmitError(file_loc("t.mlir", 6, 9), "from mlir");
  CHECK(sink.count == 4);
  CHECK(sink.num_errors == 2);
  if (sink.count == 4) {
    CHECK(sink.items[0].severity == BRAZE_DIAG_ERROR);
    CHECK_STR(sink.items[0].file, "s.mlir");
    CHECK(sink.items[0].line == 4 && sink.items[0].column == 2);
    CHECK_STR(sink.items[0].message, "bad thing 3");
    CHECK(sink.items[1].severity == BRAZE_DIAG_WARNING && sink.items[1].line == 5);
    CHECK(sink.items[2].severity == BRAZE_DIAG_REMARK && sink.items[2].file == NULL);
    CHECK_STR(sink.items[2].message, "fused 2 ops");
    CHECK(sink.items[3].severity == BRAZE_DIAG_ERROR);
    CHECK_STR(sink.items[3].file, "t.mlir");
    CHECK_STR(sink.items[3].message, "from mlir");
  }
  braze_diag_detach(ctx);
  CHECK(braze_diag_sink(ctx) == NULL);
  braze_diag_sink_clear(&sink);
  CHECK(sink.count == 0 && sink.items == NULL && sink.num_errors == 0);
}

static void reattaching_replaces_the_sink(void) {
  BrazeDiagSink first = {.collect = true}, second = {.collect = true};
  braze_diag_attach(ctx, &first);
  braze_diag_attach(ctx, &second);
  CHECK(braze_diag_sink(ctx) == &second);
  braze_emit_error(file_loc("r.mlir", 1, 1), "to the second");
  CHECK(first.count == 0 && second.count == 1);
  braze_diag_detach(ctx);
  braze_diag_sink_clear(&first);
  braze_diag_sink_clear(&second);
}

/* Without a sink, warnings and remarks are printed with their position (unit_diag.test
 * checks stderr). */
static void uncollected_warnings_print_positions(void) {
  CHECK(braze_diag_sink(ctx) == NULL);
  braze_emit_warning(name_loc("n", file_loc("w.mlir", 3, 4)), "loose %s", "end");
  braze_emit_remark(mlirLocationUnknownGet(ctx), "nowhere");
  fflush(stderr);
}

static void severity_names(void) {
  CHECK_STR(braze_severity_name(BRAZE_DIAG_ERROR), "error");
  CHECK_STR(braze_severity_name(BRAZE_DIAG_WARNING), "warning");
  CHECK_STR(braze_severity_name(BRAZE_DIAG_NOTE), "note");
  CHECK_STR(braze_severity_name(BRAZE_DIAG_REMARK), "remark");
}

int main(void) {
  ctx = braze_context_create();
  if (mlirContextIsNull(ctx))
    return 1;
  RUN_CASE(file_line_col);
  RUN_CASE(unknown_has_no_position);
  RUN_CASE(name_locations);
  RUN_CASE(call_sites_use_the_caller);
  RUN_CASE(fused_takes_the_first_with_a_position);
  RUN_CASE(location_names);
  RUN_CASE(sink_collects_braze_and_mlir_diagnostics);
  RUN_CASE(reattaching_replaces_the_sink);
  RUN_CASE(uncollected_warnings_print_positions);
  RUN_CASE(severity_names);
  braze_context_destroy(ctx);
  return check_finish();
}
