/* Unit tests of the plugin loader (plugins/loader.c): a plugin that fails leaves
 * nothing registered, a good one registers everything, unloading forgets it.
 * argv: the test plugin built normally, then built with -DFAIL_AFTER_PASS, then with
 * -DDUP_TARGET (test/plugins/Inputs/test-plugin.c). */
#include <string.h>

#include "passes/passes.h"
#include "plugins/loader.h"
#include "support/context.h"
#include "targets/target.h"
#include "test/unit/check.h"

static const char *good, *fail_after_pass, *dup_target;

static bool has_pipeline(const char *name) {
  for (size_t i = 0; i < braze_pipeline_count(); ++i)
    if (strcmp(braze_pipeline_name_at(i), name) == 0)
      return true;
  return false;
}

static bool context_has_dialect(const char *name) {
  MlirContext ctx = braze_context_create();
  bool has = !mlirDialectIsNull(mlirContextGetOrLoadDialect(ctx, braze_ref(name)));
  braze_context_destroy(ctx);
  return has;
}

static void failures_register_nothing(void) {
  size_t passes = braze_pass_count(), targets = braze_target_count(), pipelines = braze_pipeline_count();
  BrazeStr error = {0};
  /* registers test-count-ops, then returns false */
  CHECK(!braze_plugin_load(fail_after_pass, &error));
  CHECK_CONTAINS(braze_str_cstr(&error), "braze_plugin_init returned false");
  braze_str_clear(&error);
  /* registers the pass, the pipeline and the dialect, then a target named cuda */
  CHECK(!braze_plugin_load(dup_target, &error));
  CHECK_CONTAINS(braze_str_cstr(&error), "registers target 'cuda', which exists already");
  braze_str_free(&error);
  CHECK(braze_pass_count() == passes);
  CHECK(braze_target_count() == targets);
  CHECK(braze_pipeline_count() == pipelines);
  CHECK(braze_pass_lookup("test-count-ops", strlen("test-count-ops")) == NULL);
  CHECK(!has_pipeline("test-count"));
  CHECK(!context_has_dialect("testplug"));
  CHECK(braze_plugin_count() == 0);
}

static void good_plugin_registers_everything(void) {
  size_t passes = braze_pass_count(), targets = braze_target_count(), pipelines = braze_pipeline_count();
  BrazeStr error = {0};
  CHECK(braze_plugin_load(good, &error));
  CHECK_STR(braze_str_cstr(&error), "");
  CHECK(braze_plugin_load(good, &error)); /* the same library again: nothing new */
  braze_str_free(&error);
  CHECK(braze_pass_count() == passes + 1);
  CHECK(braze_target_count() == targets + 1);
  CHECK(braze_pipeline_count() == pipelines + 1);
  CHECK(braze_pass_lookup("test-count-ops", strlen("test-count-ops")) != NULL);
  CHECK_STR(braze_pass_origin_at(braze_pass_count() - 1), "test-plugin");
  CHECK(braze_target_lookup("test-cpu") != NULL);
  CHECK(has_pipeline("test-count"));
  CHECK(context_has_dialect("testplug"));
  CHECK(braze_plugin_count() == 1);
  BrazeTargetCosts costs;
  braze_target_costs(braze_target_lookup("test-cpu"), &costs);
  CHECK(costs.vector_width_bits == 128);
}

static void unload_forgets(void) {
  braze_plugins_unload();
  CHECK(braze_pass_lookup("test-count-ops", strlen("test-count-ops")) == NULL);
  CHECK(braze_target_lookup("test-cpu") == NULL);
  CHECK(!has_pipeline("test-count"));
  CHECK(!context_has_dialect("testplug"));
  CHECK(braze_plugin_count() == 0);
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: unit_plugins GOOD.so FAIL_AFTER_PASS.so DUP_TARGET.so\n");
    return 2;
  }
  good = argv[1];
  fail_after_pass = argv[2];
  dup_target = argv[3];
  RUN_CASE(failures_register_nothing);
  RUN_CASE(good_plugin_registers_everything);
  RUN_CASE(unload_forgets);
  return check_finish();
}
