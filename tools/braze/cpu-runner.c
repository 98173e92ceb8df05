/* Running compiled code from the tools: compile into a private temporary directory,
 * load with the runtime's loader (include/braze/runtime.h), convert host tensors to
 * and from the ABI's native buffers. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mlir-c/BuiltinAttributes.h"
#include "tools/braze/compile.h"
#include "tools/braze/cuda-runner.h"

bool braze_compiled_build(const char *cmd, const char *input, const char *target, const char *pipeline,
                          BrazeCompiled *out) {
  out->lib = NULL;
  const char *tmp = getenv("TMPDIR");
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/braze-run-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir)) {
    fprintf(stderr, "braze %s: cannot create a temporary directory: %s\n", cmd, strerror(errno));
    return false;
  }
  char so[4096 + 16];
  snprintf(so, sizeof so, "%s/lib.so", dir);
  BrazeEmitOptions emit = {.kind = BRAZE_EMIT_SHARED, .output = so, .source_name = input};
  bool ok = braze_compile_file(cmd, input, target, pipeline, &emit);
  if (ok) {
    char err[1024];
    out->lib = braze_library_open(so, err, sizeof err);
    if (!out->lib)
      fprintf(stderr, "braze %s: %s\n", cmd, err);
    ok = out->lib != NULL;
    if (ok && !(ok = braze_cuda_can_run(cmd, out->lib))) { /* before inputs and the oracle run */
      braze_library_close(out->lib);
      out->lib = NULL;
    }
  }
  /* Loaded libraries stay mapped: the file is not needed any more. */
  unlink(so);
  rmdir(dir);
  return ok;
}

void braze_compiled_free(BrazeCompiled *c) {
  braze_library_close(c->lib);
  c->lib = NULL;
}

static bool arg_matches(const BrazeArgInfo *arg, const int64_t *dims, const BrazeHostTensor *t) {
  if ((int)t->dtype != arg->dtype || t->rank != arg->rank)
    return false;
  for (int d = 0; d < arg->rank; ++d)
    if (t->shape[d] != dims[d])
      return false;
  return true;
}

static const BrazeEntry *pick_entry(const char *cmd, const BrazeCompiled *c, const char *name) {
  const BrazeEntry *e = name ? braze_library_entry(c->lib, name) : braze_library_entry_at(c->lib, 0);
  if (!e)
    fprintf(stderr, "braze %s: the compiled library has no entry '%s'\n", cmd, name ? name : "");
  return e;
}

bool braze_compiled_call(const char *cmd, const BrazeCompiled *c, const char *name, const BrazeHostTensor *inputs,
                         size_t n_in, BrazeHostTensor **outputs, size_t *n_out) {
  return braze_compiled_call_sizes(cmd, c, name, NULL, inputs, n_in, outputs, n_out);
}

bool braze_compiled_call_sizes(const char *cmd, const BrazeCompiled *c, const char *name, const int64_t *sizes,
                               const BrazeHostTensor *inputs, size_t n_in, BrazeHostTensor **outputs, size_t *n_out) {
  *outputs = NULL;
  *n_out = 0;
  const BrazeEntry *e = pick_entry(cmd, c, name);
  if (!e)
    return false;
  if (e->num_symbols && !sizes) {
    fprintf(stderr, "braze %s: '%s' has a symbolic dim: give its size (--dims NAME=N)\n", cmd, e->name);
    return false;
  }
  if (n_in != (size_t)e->num_inputs) {
    fprintf(stderr, "braze %s: '%s' takes %d inputs, got %zu\n", cmd, e->name, e->num_inputs, n_in);
    return false;
  }
  size_t n = (size_t)(e->num_inputs + e->num_outputs);
  void **buffers = calloc(n ? n : 1, sizeof *buffers);
  BrazeHostTensor *outs = calloc(e->num_outputs ? (size_t)e->num_outputs : 1, sizeof *outs);
  bool ok = true;
  int status = 0;
  int64_t(*dims)[BRAZE_ABI_MAX_RANK] = calloc(n ? n : 1, sizeof *dims);
  for (size_t i = 0; ok && i < n; ++i) {
    const BrazeArgInfo *arg = &e->args[i];
    size_t bytes;
    braze_entry_arg_at(e, (int)i, e->num_symbols ? sizes : NULL, dims[i], &bytes);
    /* One spare byte: malloc(0) may return NULL for empty tensors. */
    buffers[i] = malloc(bytes + 1);
    if (!buffers[i]) {
      fprintf(stderr, "braze %s: cannot allocate %zu bytes for %s %zu of '%s'\n", cmd, bytes,
              i < n_in ? "input" : "output", i < n_in ? i : i - n_in, e->name);
      ok = false;
    } else if (i < n_in) {
      if (!(ok = arg_matches(arg, dims[i], &inputs[i])))
        fprintf(stderr, "braze %s: input %zu of '%s' does not match the compiled signature\n", cmd, i, e->name);
      else
        braze_tensor_pack(&inputs[i], buffers[i]);
    }
  }
  if (ok && strcmp(braze_library_target(c->lib), "cuda") == 0) {
    ok = braze_cuda_entry_call(cmd, c->lib, e, buffers);
  } else if (ok && (status = e->num_symbols ? braze_entry_call_sizes(e, buffers, sizes) : braze_entry_call(e, buffers)) != 0) {
    fprintf(stderr, "braze %s: '%s' returned %d (%s)\n", cmd, e->name, status,
            status == 2   ? "this CPU lacks features the library was compiled for"
            : status == 1 ? "out of memory for its workspace"
            : status == 3 ? braze_library_last_error(c->lib)
                          : "an error status");
    ok = false;
  }
  for (int o = 0; ok && o < e->num_outputs; ++o) {
    const BrazeArgInfo *arg = &e->args[e->num_inputs + o];
    ok = braze_tensor_init(&outs[o], (BrazeDType)arg->dtype, arg->rank, dims[e->num_inputs + o]);
    if (ok)
      braze_tensor_unpack(&outs[o], buffers[e->num_inputs + o]);
  }
  for (size_t i = 0; i < n; ++i)
    free(buffers[i]);
  free(buffers);
  free(dims);
  if (!ok) {
    braze_tensors_free(outs, (size_t)e->num_outputs);
    return false;
  }
  *outputs = outs;
  *n_out = (size_t)e->num_outputs;
  return true;
}

bool braze_run_compiled(const char *cmd, const char *file, const char *target, const char *pipeline,
                        MlirOperation func, const BrazeHostTensor *inputs, size_t n_in, BrazeHostTensor **outputs,
                        size_t *n_out) {
  *outputs = NULL;
  *n_out = 0;
  BrazeCompiled compiled;
  if (!braze_compiled_build(cmd, file, target, pipeline, &compiled))
    return false;
  MlirStringRef ref = mlirStringAttrGetValue(mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("sym_name")));
  char *name = strndup(ref.data, ref.length);
  bool ok = braze_compiled_call(cmd, &compiled, name, inputs, n_in, outputs, n_out);
  free(name);
  braze_compiled_free(&compiled);
  return ok;
}
