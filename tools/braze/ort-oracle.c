#include "tools/braze/ort-oracle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/npy.h"
#include "support/strbuf.h"
#include "support/tensor.h"

/* The runner lives in the source tree (braze is run from its build tree). */
static const char runner[] = BRAZE_SOURCE_DIR "/tools/braze/ort-run.js";

/* Run argv[0] with `argv`, stdout to /dev/null unless `show`; true when it exits 0. */
static bool run_quietly(char *const argv[], bool show_stderr) {
  pid_t pid = fork();
  if (pid < 0)
    return false;
  if (pid == 0) {
    if (!freopen("/dev/null", "w", stdout) || (!show_stderr && !freopen("/dev/null", "w", stderr)))
      _exit(127);
    execvp(argv[0], argv);
    _exit(127);
  }
  int status = 0;
  return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

bool braze_ort_available(void) {
  static int cached = -1;
  if (cached < 0) {
    char *const probe[] = {"node", "-e", "require('onnxruntime-node')", NULL};
    cached = access(runner, R_OK) == 0 && run_quietly(probe, false);
  }
  return cached == 1;
}

static void remove_dir(const char *dir, size_t n_in, size_t n_out) {
  char path[512];
  for (size_t i = 0; i < n_in; ++i) {
    snprintf(path, sizeof path, "%s/in%zu.npy", dir, i);
    unlink(path);
  }
  for (size_t i = 0; i < n_out; ++i) {
    snprintf(path, sizeof path, "%s/ort%zu.npy", dir, i);
    unlink(path);
  }
  rmdir(dir);
}

static bool write_inputs(const char *dir, const BrazeHostTensor *inputs, size_t n_in, BrazeStr *list) {
  for (size_t i = 0; i < n_in; ++i) {
    if (inputs[i].dtype == BRAZE_DTYPE_BF16) { /* .npy has no bf16: '<u2' would read as uint16 */
      fprintf(stderr, "braze check: the ONNX Runtime oracle does not take bf16 inputs (input %zu)\n", i);
      return false;
    }
    char path[512];
    snprintf(path, sizeof path, "%s/in%zu.npy", dir, i);
    BrazeStr error = {0};
    bool ok = braze_npy_write(path, &inputs[i], &error);
    if (!ok)
      fprintf(stderr, "braze check: %s\n", braze_str_cstr(&error));
    braze_str_free(&error);
    if (!ok)
      return false;
    braze_str_printf(list, "%s%s", i ? "," : "", path);
  }
  return true;
}

static bool read_outputs(const char *dir, size_t n_out, BrazeHostTensor **outputs) {
  *outputs = calloc(n_out ? n_out : 1, sizeof **outputs);
  for (size_t i = 0; i < n_out; ++i) {
    char path[512];
    snprintf(path, sizeof path, "%s/ort%zu.npy", dir, i);
    BrazeStr error = {0};
    bool ok = braze_npy_read_as(path, BRAZE_DTYPE_U16, &(*outputs)[i], &error); /* tools/braze/ort-run.js: '<u2' is uint16 */
    if (!ok)
      fprintf(stderr, "braze check: ONNX Runtime output %zu: %s\n", i, braze_str_cstr(&error));
    braze_str_free(&error);
    if (!ok) {
      braze_tensors_free(*outputs, i);
      *outputs = NULL;
      return false;
    }
  }
  return true;
}

bool braze_ort_run(const char *model, const BrazeHostTensor *inputs, size_t n_in, size_t n_out,
                   BrazeHostTensor **outputs) {
  char dir[] = "/tmp/braze-ort-XXXXXX";
  if (!mkdtemp(dir)) {
    perror("braze check: temporary directory");
    return false;
  }
  BrazeStr list = {0};
  bool ok = write_inputs(dir, inputs, n_in, &list);
  if (ok) {
    char *const argv[] = {"node", (char *)runner, (char *)model, dir, list.data ? list.data : "", NULL};
    ok = run_quietly(argv, true);
    if (!ok)
      fprintf(stderr, "braze check: ONNX Runtime failed on '%s'\n", model);
  }
  if (ok)
    ok = read_outputs(dir, n_out, outputs);
  braze_str_free(&list);
  remove_dir(dir, n_in, n_out);
  return ok;
}
