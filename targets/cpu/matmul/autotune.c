/* cpu-codegen, matmul=auto: braze's max-autotune for `tem` kernels. The template and
 * the extern (cblas_sgemm + epilogue pass) are both compiled for the kernel's real
 * shapes and timed at compile time; the faster one is kept. Decisions are cached in a
 * text file, one line per kernel form:
 *
 *   KEY <TAB> template|extern <TAB> template ms <TAB> extern ms
 *
 * KEY names the shapes, maps and dtypes of the kernel's arguments and results, its
 * graph ops (the epilogue), the tile options, the host CPU and the OpenMP thread count,
 * so the next compile of the same kernel on the same machine reads its decision instead
 * of timing. A line that does not parse is ignored with a warning (and a new decision
 * appended). The file: option autotune-cache=PATH, else $BRAZE_AUTOTUNE_CACHE, else
 * $XDG_CACHE_HOME/braze/matmul-autotune.txt or ~/.cache/braze/matmul-autotune.txt.
 *
 * Timing: the kernel (its kernel-level text) and a public wrapper calling it are
 * parsed into a fresh context and compiled by braze_target_compile (cpu-codegen with
 * the variant, math-approx, cleanup; the target's lowering and link) into a temporary
 * .so, loaded, and called on 64-byte-aligned buffers of small pseudo-random values:
 * one warm-up call, then the minimum over calls for at least 50 ms (5 to 100 calls). */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "llvm-c/TargetMachine.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/diag.h"
#include "support/strbuf.h"
#include "targets/cpu/cpu-target.h"
#include "targets/cpu/matmul/internal.h"

static void print_to(MlirStringRef piece, void *user) { braze_str_callback(piece, user); }

/* ---- the key ---- */

static void key_of(const TmPlan *p, const CgOptions *o, BrazeStr *key) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(p->old, 0));
  braze_str_puts(key, "v1 args=");
  for (intptr_t a = 0; a < mlirBlockGetNumArguments(body); ++a) {
    mlirTypePrint(mlirValueGetType(mlirBlockGetArgument(body, a)), print_to, key);
    braze_str_puts(key, ",");
  }
  braze_str_puts(key, " a=");
  mlirAffineMapPrint(p->a_map, print_to, key);
  braze_str_puts(key, " b=");
  mlirAffineMapPrint(p->b_map, print_to, key);
  braze_str_puts(key, " ops=");
  mlirAttributePrint(mlirOperationGetDiscardableAttributeByName(p->old, braze_ref("kernel.ops")), print_to, key);
  char *cpu = LLVMGetHostCPUName();
  const char *threads = getenv("OMP_NUM_THREADS");
  braze_str_printf(key, " tiles=%d/%d/%lld/%d cpu=%s threads=%s", p->mr, p->nr, (long long)o->mc, p->vw, cpu,
                   threads && *threads ? threads : "default");
  LLVMDisposeMessage(cpu);
  for (char *c = key->data; c && *c; ++c)
    if (*c == '\t' || *c == '\n')
      *c = ' ';
}

/* ---- the cache file ---- */

static void cache_path(const CgOptions *o, BrazeStr *path) {
  const char *env = getenv("BRAZE_AUTOTUNE_CACHE"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  if (o->autotune_cache && *o->autotune_cache)
    braze_str_puts(path, o->autotune_cache);
  else if (env && *env)
    braze_str_puts(path, env);
  else if (xdg && *xdg)
    braze_str_printf(path, "%s/braze/matmul-autotune.txt", xdg);
  else
    braze_str_printf(path, "%s/.cache/braze/matmul-autotune.txt", home && *home ? home : "/tmp");
}

typedef struct {
  bool use_extern;
  double ms_template, ms_extern;
} Decision;

/* One cache line into *d; false when it is not KEY\tCHOICE\tMS\tMS. */
static bool parse_line(char *line, const char **key, Decision *d) {
  char *fields[4];
  int n = 0;
  for (char *s = line; n < 4; ++n) {
    fields[n] = s;
    char *tab = strchr(s, '\t');
    if (!tab) {
      ++n;
      break;
    }
    *tab = '\0';
    s = tab + 1;
  }
  if (n != 4 || strchr(fields[3], '\t') || !*fields[0])
    return false;
  char *end1, *end2;
  d->ms_template = strtod(fields[2], &end1);
  d->ms_extern = strtod(fields[3], &end2);
  bool choice_ok = !strcmp(fields[1], "template") || !strcmp(fields[1], "extern");
  if (!choice_ok || *end1 || *end2 || !(d->ms_template >= 0) || !(d->ms_extern >= 0))
    return false;
  d->use_extern = !strcmp(fields[1], "extern");
  *key = fields[0];
  return true;
}

/* Look `key` up; warns (once per file and kernel) about lines that do not parse. */
static bool cache_lookup(const TmPlan *p, const char *path, const char *key, Decision *d) {
  size_t len = 0;
  char *text = braze_read_file(path, &len);
  if (!text)
    return false;
  bool found = false;
  int line_no = 0, corrupt = 0, first_corrupt = 0;
  for (char *line = text; line && *line;) {
    char *nl = strchr(line, '\n');
    if (nl)
      *nl = '\0';
    ++line_no;
    const char *k;
    Decision cand;
    if (!parse_line(line, &k, &cand)) {
      if (!corrupt++)
        first_corrupt = line_no;
    } else if (!found && !strcmp(k, key)) {
      *d = cand;
      found = true;
    }
    line = nl ? nl + 1 : NULL;
  }
  if (corrupt)
    braze_emit(mlirOperationGetLocation(p->old), BRAZE_DIAG_WARNING,
               "cpu-codegen: kernel @%s: ignoring %d corrupt line(s) of the autotune cache '%s' (first: line %d)",
               p->name, corrupt, path, first_corrupt);
  free(text);
  return found;
}

static void make_parent_dirs(const char *path) {
  char *dir = strdup(path);
  for (char *s = dir + 1; *s; ++s) {
    if (*s != '/')
      continue;
    *s = '\0';
    mkdir(dir, 0755);
    *s = '/';
  }
  free(dir);
}

static void cache_store(const TmPlan *p, const char *path, const char *key, const Decision *d) {
  make_parent_dirs(path);
  FILE *f = fopen(path, "a");
  if (!f) {
    braze_emit(mlirOperationGetLocation(p->old), BRAZE_DIAG_WARNING,
               "cpu-codegen: kernel @%s: cannot write the autotune cache '%s': %s", p->name, path, strerror(errno));
    return;
  }
  fprintf(f, "%s\t%s\t%.4f\t%.4f\n", key, d->use_extern ? "extern" : "template", d->ms_template, d->ms_extern);
  fclose(f);
}

/* ---- timing ---- */

/* The kernel and `@braze_tune(args) -> results { call }` as module text. */
static void tuning_module(const TmPlan *p, BrazeStr *text) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(p->old, 0));
  MlirOperation ret = mlirBlockGetTerminator(body);
  intptr_t n_in = mlirBlockGetNumArguments(body), n_out = mlirOperationGetNumOperands(ret);
  BrazeStr ins = {0}, outs = {0}, args = {0};
  for (intptr_t a = 0; a < n_in; ++a) {
    braze_str_printf(&args, "%s%%a%ld", a ? ", " : "", (long)a);
    braze_str_printf(&ins, "%s", a ? ", " : "");
    mlirTypePrint(mlirValueGetType(mlirBlockGetArgument(body, a)), print_to, &ins);
  }
  for (intptr_t r = 0; r < n_out; ++r) {
    braze_str_printf(&outs, "%s", r ? ", " : "");
    mlirTypePrint(mlirValueGetType(mlirOperationGetOperand(ret, r)), print_to, &outs);
  }
  braze_str_puts(text, "module {\n");
  mlirOperationPrint(p->old, print_to, text);
  braze_str_puts(text, "\nfunc.func @braze_tune(");
  for (intptr_t a = 0; a < n_in; ++a) {
    braze_str_printf(text, "%s%%a%ld: ", a ? ", " : "", (long)a);
    mlirTypePrint(mlirValueGetType(mlirBlockGetArgument(body, a)), print_to, text);
  }
  braze_str_printf(text, ") -> (%s) {\n  %%r:%ld = func.call @%s(%s) : (%s) -> (%s)\n  return", braze_str_cstr(&outs),
                   (long)n_out, p->name, braze_str_cstr(&args), braze_str_cstr(&ins), braze_str_cstr(&outs));
  for (intptr_t r = 0; r < n_out; ++r)
    braze_str_printf(text, "%s %%r#%ld", r ? "," : "", (long)r);
  braze_str_puts(text, " : ");
  braze_str_puts(text, braze_str_cstr(&outs));
  braze_str_puts(text, "\n}\n}\n");
  braze_str_free(&ins);
  braze_str_free(&outs);
  braze_str_free(&args);
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Bytes of each argument of the wrapper (inputs then outputs), element size 1..8. */
static int buffer_sizes(const TmPlan *p, size_t *bytes, int cap) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(p->old, 0));
  MlirOperation ret = mlirBlockGetTerminator(body);
  int n = 0;
  for (intptr_t a = 0; a < mlirBlockGetNumArguments(body) && n < cap; ++a)
    bytes[n++] = (size_t)(cg_num_elements(mlirValueGetType(mlirBlockGetArgument(body, a))) *
                          cg_elem_bytes(mlirShapedTypeGetElementType(mlirValueGetType(mlirBlockGetArgument(body, a)))));
  for (intptr_t r = 0; r < mlirOperationGetNumOperands(ret) && n < cap; ++r) {
    MlirType t = mlirValueGetType(mlirOperationGetOperand(ret, r));
    bytes[n++] = (size_t)(cg_num_elements(t) * cg_elem_bytes(mlirShapedTypeGetElementType(t)));
  }
  return n;
}

/* Run the library's braze_tune_packed; the best time in ms, or -1. */
static double time_library(const TmPlan *p, const char *so) {
  /* RTLD_NODELETE: the library's (libomp's, OpenBLAS's) worker threads outlive the
   * calls; unmapping their code under them crashes at exit (LeakSanitizer's scan). The
   * compiler keeps each timed library mapped until it exits. */
  void *lib = dlopen(so, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (!lib)
    return -1;
  int (*fn)(void **) = (int (*)(void **))dlsym(lib, "braze_tune_packed");
  size_t bytes[2 * TM_MAX_VALS];
  int n = buffer_sizes(p, bytes, 2 * TM_MAX_VALS);
  void *bufs[2 * TM_MAX_VALS] = {NULL};
  bool ok = fn != NULL;
  uint32_t seed = 12345;
  for (int i = 0; i < n && ok; ++i) {
    size_t size = (bytes[i] + 63) / 64 * 64;
    ok = (bufs[i] = aligned_alloc(64, size ? size : 64)) != NULL;
    /* small values of any element type: bytes 0x3c/0x3d/0x3e patterns are finite as
     * f32, f16 and bf16 */
    for (size_t b = 0; ok && b < size; ++b) {
      seed = seed * 1664525u + 1013904223u;
      ((unsigned char *)bufs[i])[b] = (b % 2) ? (unsigned char)(0x3c + (seed >> 30)) : (unsigned char)(seed >> 24);
    }
  }
  double best = -1;
  if (ok && fn(bufs) == 0) {
    double start = now_ms();
    for (int it = 0; it < 100; ++it) {
      double t0 = now_ms();
      if (fn(bufs) != 0)
        break;
      double t = now_ms() - t0;
      best = best < 0 || t < best ? t : best;
      if (it >= 4 && now_ms() - start > 50)
        break;
    }
  }
  for (int i = 0; i < n; ++i)
    free(bufs[i]);
  dlclose(lib);
  return best;
}

/* Compile the tuning module with cpu-codegen{matmul=MODE ...} and time it; -1 on failure. */
static double time_variant(const TmPlan *p, const CgOptions *o, const char *module_text, const char *mode) {
  MlirContext ctx = braze_context_create();
  if (mlirContextIsNull(ctx))
    return -1;
  BrazeDiagSink sink = {0};
  braze_diag_attach(ctx, &sink);
  double ms = -1;
  MlirOperation m = braze_parse(ctx, module_text, strlen(module_text), "autotune");
  const char *tmpdir = getenv("TMPDIR");
  char so[4096];
  snprintf(so, sizeof so, "%s/braze-autotune-%ld-%s.so", tmpdir && *tmpdir ? tmpdir : "/tmp", (long)getpid(), mode);
  if (!mlirOperationIsNull(m)) {
    BrazeStr pipeline = {0}, error = {0};
    braze_str_printf(&pipeline,
                     "cpu-codegen{matmul=%s mr=%lld nr=%lld mc=%lld lanes=%d prepack=false},math-approx,"
                     "loop-invariant-code-motion,canonicalize,cse",
                     mode, o->mr, o->nr, o->mc, o->vector_lanes);
    BrazeEmitOptions emit = {.kind = BRAZE_EMIT_SHARED, .output = so};
    if (braze_target_compile(&braze_target_cpu, m, braze_str_cstr(&pipeline), &emit, &error) && !sink.num_errors)
      ms = time_library(p, so);
    unlink(so);
    braze_str_free(&pipeline);
    braze_str_free(&error);
    mlirOperationDestroy(m);
  }
  braze_diag_detach(ctx);
  braze_diag_sink_clear(&sink);
  braze_context_destroy(ctx);
  return ms;
}

void tm_note_autotune(const TmPlan *p, MlirOperation fn) {
  if (p->autotune_note)
    mlirOperationSetDiscardableAttributeByName(fn, braze_ref("braze.autotune"),
                                               mlirStringAttrGet(p->ctx, braze_ref(p->autotune_note)));
}

bool tm_autotune(TmPlan *p, const CgOptions *o, bool *use_extern) {
  BrazeStr key = {0}, path = {0};
  key_of(p, o, &key);
  cache_path(o, &path);
  Decision d;
  bool cached = cache_lookup(p, braze_str_cstr(&path), braze_str_cstr(&key), &d);
  if (!cached) {
    BrazeStr text = {0};
    tuning_module(p, &text);
    d.ms_template = time_variant(p, o, braze_str_cstr(&text), "template");
    d.ms_extern = time_variant(p, o, braze_str_cstr(&text), "extern");
    braze_str_free(&text);
    bool timed = d.ms_template >= 0 && d.ms_extern >= 0;
    d.use_extern = d.ms_extern >= 0 && (d.ms_template < 0 || d.ms_extern < d.ms_template);
    if (timed)
      cache_store(p, braze_str_cstr(&path), braze_str_cstr(&key), &d);
    else
      braze_emit(mlirOperationGetLocation(p->old), BRAZE_DIAG_WARNING,
                 "cpu-codegen: kernel @%s: matmul=auto could not time the %s; not cached", p->name,
                 d.ms_template < 0 && d.ms_extern < 0 ? "template nor the extern" : d.ms_template < 0 ? "template" : "extern");
  }
  *use_extern = d.use_extern;
  char text[160];
  snprintf(text, sizeof text, "%s (template %.3f ms, extern %.3f ms%s)", d.use_extern ? "extern" : "template",
           d.ms_template, d.ms_extern, cached ? ", cached" : "");
  p->autotune_note = strdup(text);
  if (o->remarks)
    braze_emit_remark(mlirOperationGetLocation(p->old), "cpu-codegen: kernel @%s: matmul=auto chose %s", p->name, text);
  braze_str_free(&key);
  braze_str_free(&path);
  return true;
}
