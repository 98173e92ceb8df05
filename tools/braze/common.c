#include "tools/braze/common.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dialects/graph/graph.h"
#include "import/onnx-import.h"
#include "mlir-c/BuiltinAttributes.h"
#include "support/context.h"
#include "support/npy.h"
#include "support/strbuf.h"

const char braze_cli_common_help[] =
    "  --func NAME          function to evaluate (default: the only function, else the first public one)\n"
    "  --seed N             seed of the random inputs (default 0): floats standard normal,\n"
    "                       i32/i64 uniform in [-8, 8], i1 uniform booleans\n"
    "  --inputs A.npy,B.npy one .npy file per function argument instead of random inputs\n"
    "  --save-inputs DIR    write the inputs used to DIR/in0.npy, in1.npy, ...\n"
    "  --save-outputs DIR   write the results to DIR/out0.npy, out1.npy, ...\n";

/* ---- flags ---- */

int braze_cli_flag_value(const char *cmd, int argc, char **argv, int *i, const char *name, const char **value) {
  const char *a = argv[*i];
  size_t n = strlen(name);
  if (strncmp(a, name, n) != 0)
    return 0;
  if (a[n] == '=') {
    *value = a + n + 1;
    return 1;
  }
  if (a[n] != '\0')
    return 0;
  if (*i + 1 >= argc) {
    fprintf(stderr, "braze %s: %s needs a value\n", cmd, name);
    return -1;
  }
  *value = argv[++*i];
  return 1;
}

static bool parse_u64(const char *cmd, const char *flag, const char *text, uint64_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(text, &end, 0);
  if (errno || end == text || *end || text[0] == '-') {
    fprintf(stderr, "braze %s: %s expects a non-negative integer, got '%s'\n", cmd, flag, text);
    return false;
  }
  *out = v;
  return true;
}

int braze_cli_common_flag(const char *cmd, int argc, char **argv, int *i, BrazeCommonFlags *flags) {
  const char *a = argv[*i], *v = NULL;
  int r;
  if ((r = braze_cli_flag_value(cmd, argc, argv, i, "--func", &flags->func)) != 0)
    return r;
  if ((r = braze_cli_flag_value(cmd, argc, argv, i, "--inputs", &flags->inputs)) != 0)
    return r;
  if ((r = braze_cli_flag_value(cmd, argc, argv, i, "--save-outputs", &flags->save_outputs)) != 0)
    return r;
  if ((r = braze_cli_flag_value(cmd, argc, argv, i, "--save-inputs", &flags->save_inputs)) != 0)
    return r;
  if ((r = braze_cli_flag_value(cmd, argc, argv, i, "--seed", &v)) != 0)
    return r < 0 ? r : parse_u64(cmd, "--seed", v, &flags->seed) ? 1 : -1;
  if (a[0] == '-' && strcmp(a, "-") != 0)
    return 0;
  if (flags->file) {
    fprintf(stderr, "braze %s: more than one input file ('%s' and '%s')\n", cmd, flags->file, a);
    return -1;
  }
  flags->file = a;
  return 1;
}

/* ---- module and function ---- */

/* An ONNX model is imported into the graph dialect (docs/onnx-import.md), so every
 * command that takes a .mlir file takes a .onnx file too. */
static bool load_onnx(const char *path, BrazeCliModule *m) {
  m->ctx = braze_context_create();
  if (mlirContextIsNull(m->ctx))
    return false;
  braze_diag_attach(m->ctx, &m->sink);
  MlirModule module = {NULL};
  bool ok = braze_onnx_import(m->ctx, path, &module) && m->sink.num_errors == 0;
  if (!mlirModuleIsNull(module))
    m->module = mlirModuleGetOperation(module);
  if (!ok)
    braze_cli_unload(m);
  return ok;
}

bool braze_cli_load(const char *cmd, const char *path, BrazeCliModule *m) {
  memset(m, 0, sizeof *m);
  if (braze_onnx_is_model_path(path))
    return load_onnx(path, m);
  size_t len = 0;
  char *text = braze_read_file(path, &len);
  if (!text) {
    fprintf(stderr, "braze %s: cannot read '%s': %s\n", cmd, path, strerror(errno));
    return false;
  }
  m->ctx = braze_context_create();
  if (mlirContextIsNull(m->ctx)) {
    free(text);
    return false;
  }
  braze_diag_attach(m->ctx, &m->sink);
  m->module = braze_parse(m->ctx, text, len, strcmp(path, "-") == 0 ? "<stdin>" : path);
  free(text);
  bool ok = !mlirOperationIsNull(m->module) && braze_graph_verify(m->module) && m->sink.num_errors == 0;
  if (!ok)
    braze_cli_unload(m);
  return ok;
}

void braze_cli_unload(BrazeCliModule *m) {
  if (mlirContextIsNull(m->ctx))
    return;
  if (!mlirOperationIsNull(m->module))
    mlirOperationDestroy(m->module);
  braze_diag_detach(m->ctx);
  braze_diag_sink_clear(&m->sink);
  braze_context_destroy(m->ctx);
  memset(m, 0, sizeof *m);
}

MlirStringRef braze_cli_func_name(MlirOperation func) {
  MlirAttribute sym = mlirOperationGetAttributeByName(func, braze_ref("sym_name"));
  return mlirAttributeIsNull(sym) ? braze_ref("") : mlirStringAttrGetValue(sym);
}

static bool is_public(MlirOperation func) {
  MlirAttribute vis = mlirOperationGetAttributeByName(func, braze_ref("sym_visibility"));
  return mlirAttributeIsNull(vis) || braze_ref_eq(mlirStringAttrGetValue(vis), "public");
}

MlirOperation braze_cli_find_func(const char *cmd, MlirOperation module, const char *name) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  MlirOperation only = {NULL}, first_public = {NULL};
  size_t count = 0;
  BrazeStr available = {0};
  for (MlirOperation f = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f)) {
    if (!braze_op_is(f, "func.func"))
      continue;
    MlirStringRef fname = braze_cli_func_name(f);
    if (name && braze_ref_eq(fname, name)) {
      braze_str_free(&available);
      return f;
    }
    braze_str_printf(&available, "%s@%.*s", count ? ", " : "", (int)fname.length, fname.data);
    only = f;
    if (mlirOperationIsNull(first_public) && is_public(f))
      first_public = f;
    count++;
  }
  MlirOperation found = {NULL};
  if (!name)
    found = count == 1 ? only : first_public;
  if (mlirOperationIsNull(found)) {
    if (name)
      fprintf(stderr, "braze %s: no function @%s in the module (functions: %s)\n", cmd, name,
              count ? braze_str_cstr(&available) : "none");
    else
      fprintf(stderr, "braze %s: the module has no %sfunction to run (functions: %s); use --func NAME\n", cmd,
              count ? "public " : "", count ? braze_str_cstr(&available) : "none");
  }
  braze_str_free(&available);
  return found;
}

/* ---- inputs ---- */

static MlirType arg_type(MlirOperation func, size_t i) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  return mlirValueGetType(mlirBlockGetArgument(body, (intptr_t)i));
}

static size_t num_args(MlirOperation func) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  return mlirBlockIsNull(body) ? 0 : (size_t)mlirBlockGetNumArguments(body);
}

static bool func_has_body(const char *cmd, MlirOperation func) {
  if (!mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0))))
    return true;
  MlirStringRef name = braze_cli_func_name(func);
  fprintf(stderr, "braze %s: function @%.*s has no body\n", cmd, (int)name.length, name.data);
  return false;
}

/* A tensor shaped like argument i, or false (message printed) for unsupported types. */
static bool init_for_arg(const char *cmd, MlirOperation func, size_t i, BrazeHostTensor *t) {
  if (braze_tensor_init_from_type(t, arg_type(func, i)))
    return true;
  MlirStringRef name = braze_cli_func_name(func);
  char why[400];
  braze_tensor_type_refusal(arg_type(func, i), why, sizeof why);
  fprintf(stderr, "braze %s: argument %zu of @%.*s %s\n", cmd, i, (int)name.length, name.data, why);
  return false;
}

static uint64_t splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static double uniform01(uint64_t *state) { return (double)(splitmix64(state) >> 11) * 0x1p-53; }

static double random_value(uint64_t *state, BrazeDType dtype) {
  static const double two_pi = 6.28318530717958647692;
  double u1 = uniform01(state);
  switch (dtype) {
  case BRAZE_DTYPE_I1: return u1 < 0.5;
  case BRAZE_DTYPE_I8:
  case BRAZE_DTYPE_I16:
  case BRAZE_DTYPE_I32:
  case BRAZE_DTYPE_I64: return floor(u1 * 17.0) - 8.0;
  case BRAZE_DTYPE_U8:
  case BRAZE_DTYPE_U16:
  case BRAZE_DTYPE_U32:
  case BRAZE_DTYPE_U64: return floor(u1 * 16.0) + 1.0; /* 1..16: non-zero divisors */
  default: {
    double u2 = uniform01(state);
    return braze_dtype_round(sqrt(-2.0 * log(1.0 - u1)) * cos(two_pi * u2), dtype);
  }
  }
}

bool braze_cli_random_inputs(const char *cmd, MlirOperation func, uint64_t seed, BrazeHostTensor **inputs,
                             size_t *n_inputs) {
  if (!func_has_body(cmd, func))
    return false;
  size_t n = num_args(func);
  BrazeHostTensor *ts = calloc(n ? n : 1, sizeof *ts);
  for (size_t i = 0; i < n; ++i) {
    if (!init_for_arg(cmd, func, i, &ts[i])) {
      braze_tensors_free(ts, i);
      return false;
    }
    uint64_t state = seed ^ (0x9E3779B97F4A7C15ull * (i + 1));
    int64_t count = braze_tensor_numel(&ts[i]);
    for (int64_t e = 0; e < count; ++e)
      ts[i].data[e] = random_value(&state, ts[i].dtype);
  }
  *inputs = ts;
  *n_inputs = n;
  return true;
}

/* Split a comma-separated list into malloc'd paths. */
static char **split_paths(const char *list, size_t *count) {
  size_t n = 1;
  for (const char *p = list; *p; ++p)
    n += *p == ',';
  char **paths = calloc(n, sizeof *paths);
  const char *start = list;
  for (size_t i = 0; i < n; ++i) {
    const char *comma = strchr(start, ',');
    size_t len = comma ? (size_t)(comma - start) : strlen(start);
    paths[i] = strndup(start, len);
    start += len + 1;
  }
  *count = n;
  return paths;
}

static void free_paths(char **paths, size_t n) {
  for (size_t i = 0; i < n; ++i)
    free(paths[i]);
  free(paths);
}

static bool check_input(const char *cmd, const char *path, size_t i, const BrazeHostTensor *got,
                        const BrazeHostTensor *want) {
  if (got->dtype == want->dtype && got->rank == want->rank &&
      memcmp(got->shape, want->shape, (size_t)got->rank * sizeof *got->shape) == 0)
    return true;
  char got_s[128], want_s[128];
  braze_tensor_type_str(got, got_s, sizeof got_s);
  braze_tensor_type_str(want, want_s, sizeof want_s);
  fprintf(stderr, "braze %s: %s: input %zu is tensor<%s>, the function expects tensor<%s>\n", cmd, path, i, got_s,
          want_s);
  return false;
}

/* Read one input file and check it against argument i. */
static bool read_input(const char *cmd, MlirOperation func, size_t i, const char *path, BrazeHostTensor *out) {
  BrazeHostTensor want;
  if (!init_for_arg(cmd, func, i, &want))
    return false;
  BrazeStr error = {0};
  bool ok = braze_npy_read_as(path, want.dtype == BRAZE_DTYPE_U16 ? BRAZE_DTYPE_U16 : BRAZE_DTYPE_BF16, out, &error);
  if (!ok)
    fprintf(stderr, "braze %s: %s\n", cmd, braze_str_cstr(&error));
  else if (!(ok = check_input(cmd, path, i, out, &want)))
    braze_tensor_free(out);
  braze_str_free(&error);
  braze_tensor_free(&want);
  return ok;
}

bool braze_cli_read_inputs(const char *cmd, MlirOperation func, const char *list, BrazeHostTensor **inputs,
                           size_t *n_inputs) {
  if (!func_has_body(cmd, func))
    return false;
  size_t n = num_args(func), n_paths = 0;
  char **paths = split_paths(list, &n_paths);
  if (n == 0 && n_paths == 1 && paths[0][0] == '\0')
    n_paths = 0; /* --inputs= for a function without arguments */
  if (n_paths != n) {
    MlirStringRef name = braze_cli_func_name(func);
    fprintf(stderr, "braze %s: --inputs gives %zu files, @%.*s takes %zu arguments\n", cmd, n_paths,
            (int)name.length, name.data, n);
    free_paths(paths, n_paths ? n_paths : 1);
    return false;
  }
  BrazeHostTensor *ts = calloc(n ? n : 1, sizeof *ts);
  bool ok = true;
  for (size_t i = 0; ok && i < n; ++i)
    ok = read_input(cmd, func, i, paths[i], &ts[i]);
  free_paths(paths, n_paths ? n_paths : 1);
  if (!ok) {
    braze_tensors_free(ts, n);
    return false;
  }
  *inputs = ts;
  *n_inputs = n;
  return true;
}

bool braze_cli_make_inputs(const char *cmd, MlirOperation func, const BrazeCommonFlags *flags,
                           BrazeHostTensor **inputs, size_t *n_inputs) {
  bool ok = flags->inputs ? braze_cli_read_inputs(cmd, func, flags->inputs, inputs, n_inputs)
                          : braze_cli_random_inputs(cmd, func, flags->seed, inputs, n_inputs);
  if (ok && flags->save_inputs && !braze_cli_save_tensors(cmd, flags->save_inputs, "in", *inputs, *n_inputs)) {
    braze_tensors_free(*inputs, *n_inputs);
    *inputs = NULL;
    *n_inputs = 0;
    return false;
  }
  return ok;
}

/* ---- outputs ---- */

static bool ensure_dir(const char *cmd, const char *dir) {
  if (mkdir(dir, 0777) == 0 || errno == EEXIST) {
    struct stat st;
    if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
      return true;
    fprintf(stderr, "braze %s: '%s' exists and is not a directory\n", cmd, dir);
    return false;
  }
  fprintf(stderr, "braze %s: cannot create directory '%s': %s\n", cmd, dir, strerror(errno));
  return false;
}

bool braze_cli_save_tensors(const char *cmd, const char *dir, const char *prefix, const BrazeHostTensor *ts, size_t n) {
  if (!ensure_dir(cmd, dir))
    return false;
  BrazeStr path = {0};
  for (size_t i = 0; i < n; ++i) {
    braze_str_clear(&path);
    braze_str_printf(&path, "%s/%s%zu.npy", dir, prefix, i);
    BrazeStr error = {0};
    if (!braze_npy_write(path.data, &ts[i], &error)) {
      fprintf(stderr, "braze %s: %s\n", cmd, braze_str_cstr(&error));
      braze_str_free(&error);
      for (size_t k = 0; k < i; ++k) { /* no partial set of outputs */
        braze_str_clear(&path);
        braze_str_printf(&path, "%s/%s%zu.npy", dir, prefix, k);
        unlink(path.data);
      }
      braze_str_free(&path);
      return false;
    }
    braze_str_free(&error);
  }
  braze_str_free(&path);
  return true;
}

void braze_cli_print_summary(FILE *to, const char *name, const BrazeHostTensor *t, size_t n_values) {
  int64_t n = braze_tensor_numel(t), finite = 0, nans = 0, infs = 0;
  double min = INFINITY, max = -INFINITY, sum = 0.0, sum_sq = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    double v = t->data[i];
    if (isnan(v)) {
      nans++;
      continue;
    }
    if (isinf(v))
      infs++;
    min = v < min ? v : min;
    max = v > max ? v : max;
    if (isfinite(v)) {
      finite++;
      sum += v;
    }
  }
  double mean = finite ? sum / (double)finite : NAN;
  for (int64_t i = 0; i < n; ++i)
    if (isfinite(t->data[i]))
      sum_sq += (t->data[i] - mean) * (t->data[i] - mean);
  double std = finite ? sqrt(sum_sq / (double)finite) : NAN;
  char type[160];
  braze_tensor_type_str(t, type, sizeof type);
  fprintf(to, "%s: tensor<%s> min=%.6g max=%.6g mean=%.6g std=%.6g", name, type, n - nans ? min : NAN,
          n - nans ? max : NAN, mean, std);
  if (nans || infs)
    fprintf(to, " nan=%lld inf=%lld", (long long)nans, (long long)infs);
  fputs("\n  [", to);
  for (int64_t i = 0; i < n && (size_t)i < n_values; ++i)
    fprintf(to, "%s%.6g", i ? ", " : "", t->data[i]);
  fprintf(to, "%s]\n", (size_t)n > n_values ? ", ..." : "");
}
