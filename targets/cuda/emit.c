/* CUDA artifact emission: the host side as generated C (host.c, abi.c) compiled by
 * the system C compiler together with the runtime (runtime/cuda/cuda-runtime.c)
 * into a shared library or an object, the cubin and PTX assembled in with .incbin;
 * the header; per-kernel PTX dumps. Everything is built in a private temporary
 * directory and renamed into place, so a failure leaves no partial output. */
#include <dirent.h>
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/context.h"
#include "support/progress.h"
#include "targets/cuda/cuda-target.h"

extern char **environ;

static bool run_command(const char *const *argv, const char *shown, BrazeStr *error) {
  pid_t pid;
  /* posix_spawnp takes char *const[]; it does not modify the strings. */
  int rc = posix_spawnp(&pid, argv[0], NULL, NULL, (char *const *)argv, environ);
  if (rc != 0) {
    braze_str_printf(error, "cannot run the C compiler '%s': %s", argv[0], strerror(rc));
    return false;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    braze_str_printf(error, "compiling the host code of '%s' with '%s' failed (see its messages above)", shown,
                     argv[0]);
    return false;
  }
  return true;
}

/* cc the generated source into `tmp_out` (an object with -c, else a shared library). */
static bool compile_source(const char *dir, bool object, const char *tmp_out, const char *shown, BrazeStr *error) {
  const char *cc = getenv("BRAZE_CC");
  if (!cc || !*cc)
    cc = "cc";
  BrazeStr include = {0}, source = {0};
  braze_str_printf(&include, "-I%s/include", braze_cuda_toolkit());
  braze_str_printf(&source, "%s/host.c", dir);
  const char *argv[32] = {cc, "-std=gnu11", "-O2", "-fPIC", "-fvisibility=hidden", include.data,
                          object ? "-c" : "-shared", "-o", tmp_out, source.data};
  size_t n = 10;
  if (!object) {
    argv[n++] = "-Wl,--no-undefined";
    for (const char *const *r = braze_target_cuda.runtime_link_args; *r && n + 1 < 32; ++r)
      argv[n++] = *r;
  }
  argv[n] = NULL;
  bool ok = run_command(argv, shown, error);
  braze_str_free(&include);
  braze_str_free(&source);
  return ok;
}

static bool write_text(const char *dir, const char *file, const char *text, size_t len, BrazeStr *error) {
  BrazeStr path = {0};
  braze_str_printf(&path, "%s/%s", dir, file);
  FILE *f = fopen(path.data, "wb");
  bool ok = f && fwrite(text, 1, len, f) == len;
  ok = (f && fclose(f) == 0) && ok;
  if (!ok)
    braze_str_printf(error, "cannot write '%s'", path.data);
  braze_str_free(&path);
  return ok;
}

static void remove_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (d) {
    for (struct dirent *ent; (ent = readdir(d));) {
      if (strcmp(ent->d_name, ".") == 0 || strcmp(ent->d_name, "..") == 0)
        continue;
      BrazeStr path = {0};
      braze_str_printf(&path, "%s/%s", dir, ent->d_name);
      unlink(path.data);
      braze_str_free(&path);
    }
    closedir(d);
  }
  rmdir(dir);
}

/* Compile into a temp file beside the output, then rename it into place. */
static bool build_artifact(const char *dir, const BrazeEmitOptions *opts, BrazeStr *error) {
  BrazeStr tmp = {0};
  braze_str_printf(&tmp, "%s.tmpXXXXXX", opts->output);
  int fd = mkstemp(tmp.data);
  bool ok = fd >= 0;
  if (!ok)
    braze_str_printf(error, "cannot create a temporary file for '%s': %s", opts->output, strerror(errno));
  else
    close(fd);
  ok = ok && compile_source(dir, opts->kind == BRAZE_EMIT_OBJECT, tmp.data, opts->output, error);
  if (ok) { /* mkstemp made it 0600: give it the mode the compiler would have */
    mode_t mask = umask(0);
    umask(mask);
    chmod(tmp.data, (opts->kind == BRAZE_EMIT_OBJECT ? 0666 : 0777) & ~mask);
  }
  if (ok && !(ok = rename(tmp.data, opts->output) == 0))
    braze_str_printf(error, "cannot write '%s': %s", opts->output, strerror(errno));
  if (!ok && fd >= 0)
    unlink(tmp.data);
  braze_str_free(&tmp);
  return ok;
}

static bool write_header(const BrazeEntrySet *entries, const BrazeCudaMesh *mesh, const BrazeEmitOptions *opts,
                         BrazeStr *error) {
  const char *base = strrchr(opts->header, '/');
  BrazeStr text = {0};
  braze_cuda_abi_header(entries, mesh, opts->source_name, base ? base + 1 : opts->header, &text);
  bool ok = braze_write_file(opts->header, text.data, text.len);
  if (!ok)
    braze_str_printf(error, "cannot write '%s'", opts->header);
  braze_str_free(&text);
  return ok;
}

static bool dump_ptx(const BrazeCudaImages *images, const char *dir, BrazeStr *error) {
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
    braze_str_printf(error, "cannot create directory '%s': %s", dir, strerror(errno));
    return false;
  }
  for (size_t i = 0; i < images->count; ++i)
    if (!braze_cuda_dump_ptx(images->items[i].ptx, dir, error))
      return false;
  return true;
}

/* The generated source and the runtime, in `dir`. */
static bool write_sources(MlirOperation module, const BrazeEntrySet *entries, const BrazeCudaImages *images,
                          const BrazeEmitOptions *opts, const char *dir, BrazeCudaMesh *mesh, BrazeStr *error) {
  bool *partitioned = calloc(entries->count + 1, sizeof *partitioned);
  BrazeCudaHostOptions host = {.images = images, .blob_dir = dir, .source_name = opts->source_name,
                               .graph_replay = opts->graph_replay, .mesh = mesh, .partitioned = partitioned};
  BrazeStr source = {0};
  bool ok = braze_cuda_host_source(module, entries, &host, &source, error) &&
            write_text(dir, "host.c", braze_str_cstr(&source), source.len, error) &&
            write_text(dir, "braze_cuda_runtime.c", braze_cuda_runtime_source, strlen(braze_cuda_runtime_source),
                       error) &&
            write_text(dir, "cublaslt-gemm.c", braze_cuda_gemm_source, strlen(braze_cuda_gemm_source), error) &&
            write_text(dir, "nccl-mesh.c", braze_cuda_mesh_source, strlen(braze_cuda_mesh_source), error);
  braze_str_free(&source);
  free(partitioned);
  return ok;
}

bool braze_cuda_emit(MlirOperation module, const BrazeEntrySet *entries, const BrazeEmitOptions *opts,
                     BrazeStr *error) {
  if (opts->kind != BRAZE_EMIT_SHARED && opts->kind != BRAZE_EMIT_OBJECT) {
    braze_str_puts(error, "the cuda target writes a shared library or an object (--emit=so|obj), or target-level "
                          "MLIR (--emit=mlir); its kernels' PTX comes from --dump-kernels=DIR");
    return false;
  }
  BrazeCudaImages images = {0};
  braze_progress("llvm");
  if (!braze_cuda_abi_check(entries, error) || !braze_cuda_images(module, &images, error))
    return false;
  const char *tmpdir = getenv("TMPDIR");
  BrazeStr dir = {0};
  braze_str_printf(&dir, "%s/braze-cuda-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
  bool ok = mkdtemp(dir.data) != NULL;
  if (!ok)
    braze_str_printf(error, "cannot create a temporary directory: %s", strerror(errno));
  BrazeCudaMesh mesh = {0};
  ok = ok && write_sources(module, entries, &images, opts, dir.data, &mesh, error);
  if (ok && opts->dump_kernels)
    ok = dump_ptx(&images, opts->dump_kernels, error);
  /* The header first: if the artifact then fails, the header is removed again, so a
   * failed compile leaves neither. */
  bool header_written = false;
  if (ok && opts->header)
    ok = header_written = write_header(entries, &mesh, opts, error);
  if (ok)
    braze_progress("link");
  ok = ok && build_artifact(dir.data, opts, error);
  if (!ok && header_written)
    unlink(opts->header);
  remove_dir(dir.data);
  braze_str_free(&dir);
  free(images.items);
  return ok;
}
