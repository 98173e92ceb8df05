/* The fuzz targets' shared context, diagnostics and compile steps (fuzz/harness.h). */
#include "fuzz/harness.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dialects/graph/graph.h"
#include "mlir-c/Pass.h"
#include "passes/passes.h"
#include "support/context.h"
#include "support/diag.h"
#include "targets/target.h"

static MlirContext context;
static BrazeDiagSink sink;
static unsigned inputs_on_context;

MlirContext fz_context(void) {
  if (mlirContextIsNull(context)) {
    context = braze_context_create();
    if (mlirContextIsNull(context)) {
      fprintf(stderr, "fuzz: cannot create the braze context\n");
      abort();
    }
    const char *verbose = getenv("BRAZE_FUZZ_VERBOSE");
    sink.collect = !(verbose && *verbose && strcmp(verbose, "0") != 0);
    braze_diag_attach(context, &sink);
    inputs_on_context = 0;
  }
  return context;
}

void fz_done(void) {
  braze_diag_sink_clear(&sink);
  if (!mlirContextIsNull(context) && ++inputs_on_context >= FZ_CONTEXT_INPUTS) {
    braze_diag_detach(context);
    braze_context_destroy(context);
    context = (MlirContext){NULL};
  }
}

size_t fz_errors(void) { return sink.num_errors; }

char *fz_text(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  memcpy(text, data, size);
  text[size] = '\0';
  return text;
}

MlirOperation fz_load(const char *text, size_t len, const char *name) {
  MlirOperation module = braze_parse(fz_context(), text, len, name);
  if (mlirOperationIsNull(module))
    return module;
  if (!braze_graph_verify(module) || fz_errors()) {
    mlirOperationDestroy(module);
    return (MlirOperation){NULL};
  }
  return module;
}

bool fz_run_to_target_ir(MlirOperation module, const char *pipeline) {
  BrazeEntrySet entries = {0};
  BrazeStr error = {0};
  bool ok = braze_entries_capture(module, &entries);
  if (ok) {
    MlirPassManager pm = mlirPassManagerCreateOnOperation(mlirOperationGetContext(module), braze_ref("builtin.module"));
    ok = braze_pipeline_build(pm, pipeline, NULL, &error) &&
         mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, module));
    mlirPassManagerDestroy(pm);
  }
  ok = ok && braze_entries_finalize(module, &entries);
  braze_entries_free(&entries);
  braze_str_free(&error);
  return ok;
}

const char *fz_pipeline(const char *name) {
  BrazeStr text = {0}, error = {0};
  if (!braze_pipeline_resolve(name, &text, &error)) {
    fprintf(stderr, "fuzz: %s\n", braze_str_cstr(&error));
    abort();
  }
  braze_str_free(&error);
  return braze_str_cstr(&text); /* kept until exit */
}

static char scratch[4096];

/* At exit: the scratch directory and what the targets left in it (one level). */
static void remove_scratch(void) {
  DIR *d = opendir(scratch);
  if (!d)
    return;
  char path[8192];
  for (struct dirent *e; (e = readdir(d));) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
      continue;
    snprintf(path, sizeof path, "%s/%s", scratch, e->d_name);
    unlink(path);
  }
  closedir(d);
  rmdir(scratch);
}

const char *fz_scratch_dir(void) {
  char *dir = scratch;
  if (!dir[0]) {
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof scratch, "%s/braze-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
      perror("fuzz: mkdtemp");
      abort();
    }
    atexit(remove_scratch);
  }
  return dir;
}
