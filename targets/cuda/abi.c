/* The C ABI of a CUDA library, as generated C (the counterpart of targets/cpu/abi.c,
 * same names and tables; docs/targets-cuda.md, "The ABI"). For each entry NAME, on
 * device pointers:
 *   int NAME_ws_stream(const T *in..., T *out..., void *workspace, void *stream)
 *   int NAME_ws(..., void *workspace)       the legacy default stream
 *   int NAME_stream(..., void *stream)      a workspace the library keeps per stream
 *   int NAME(...)                           both
 *   int NAME_packed(void **args)            NAME, pointers in an array
 * plus NAME_workspace_bytes, NAME_num_inputs/_num_outputs/_arg_dtypes/_arg_ranks/
 * _arg_dims and braze_entry_names (include/braze/runtime.h); the runtime adds
 * braze_target_name = "cuda" and the braze_cuda_* helpers. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "targets/cuda/cuda-target.h"

static const char *const abi_suffixes[] = {"",           "_ws",          "_stream",     "_ws_stream",
                                           "_packed",    "_num_inputs",  "_num_outputs", "_arg_dtypes",
                                           "_arg_ranks", "_arg_dims",    "_workspace_bytes"};
enum { NUM_SUFFIXES = sizeof abi_suffixes / sizeof *abi_suffixes };

/* Names the runtime and <cuda.h> own. */
static bool reserved_name(const char *name) {
  return strncmp(name, "braze_", 6) == 0 || strncmp(name, "CU", 2) == 0 ||
         (strncmp(name, "cu", 2) == 0 && isupper((unsigned char)name[2]));
}

bool braze_cuda_abi_check(const BrazeEntrySet *entries, BrazeStr *error) {
  for (size_t i = 0; i < entries->count; ++i) {
    const char *name = entries->items[i].name;
    if (reserved_name(name)) {
      braze_str_printf(error, "entry name '%s' is reserved for the CUDA runtime (braze_*, cu*, CU*)", name);
      return false;
    }
    for (size_t j = 0; j < entries->count; ++j) {
      const char *other = entries->items[j].name;
      size_t n = strlen(other);
      for (int s = 1; s < NUM_SUFFIXES && i != j; ++s)
        if (strncmp(name, other, n) == 0 && strcmp(name + n, abi_suffixes[s]) == 0) {
          braze_str_printf(error, "symbol '%s' is reserved for the ABI of entry '%s'", name, other);
          return false;
        }
    }
  }
  return true;
}

/* "const float *in0, const float *in1, float *out0" */
static void params(const BrazeEntrySig *sig, BrazeStr *out) {
  int n = sig->num_inputs + sig->num_outputs;
  for (int i = 0; i < n; ++i) {
    bool in = i < sig->num_inputs;
    braze_str_printf(out, "%s%s%s *%s%d", i ? ", " : "", in ? "const " : "", braze_rt_dtype_ctype(sig->args[i].dtype),
                     in ? "in" : "out", in ? i : i - sig->num_inputs);
  }
}

/* "void *const args[] = {(void *)in0, ...};" */
static void args_array(const BrazeEntrySig *sig, BrazeStr *out) {
  int n = sig->num_inputs + sig->num_outputs;
  braze_str_puts(out, "  void *const args[] = {");
  for (int i = 0; i < n; ++i) {
    bool in = i < sig->num_inputs;
    braze_str_printf(out, "%s(void *)%s%d", i ? ", " : "", in ? "in" : "out", in ? i : i - sig->num_inputs);
  }
  braze_str_puts(out, n ? "};\n" : "NULL};\n");
}

/* One exported function: NAME<suffix>(params<extra>) calling the runtime. */
static void wrapper(const BrazeEntrySig *sig, const char *suffix, const char *extra, const char *call_tail,
                    BrazeStr *out) {
  int n = sig->num_inputs + sig->num_outputs;
  braze_str_printf(out, "BRAZE_CUDA_EXPORT int %s%s(", sig->name, suffix);
  params(sig, out);
  braze_str_printf(out, "%s%s) {\n", n && *extra ? ", " : "", *extra ? extra : n ? "" : "void");
  args_array(sig, out);
  braze_str_printf(out, "  return braze_cu_call(&braze_program, &braze_entry_%s, args, %s);\n}\n", sig->name,
                   call_tail);
}

static void int_table(const char *type, const char *name, const char *suffix, const long long *v, int n,
                      BrazeStr *out) {
  braze_str_printf(out, "BRAZE_CUDA_EXPORT const %s %s%s[%d] = {", type, name, suffix, n ? n : 1);
  for (int i = 0; i < n; ++i)
    braze_str_printf(out, "%s%lld", i ? ", " : "", v[i]);
  braze_str_puts(out, n ? "};\n" : "0};\n");
}

static void tables(const BrazeEntrySig *sig, BrazeStr *out) {
  int n = sig->num_inputs + sig->num_outputs;
  long long dtypes[n ? n : 1], ranks[n ? n : 1], dims[(n ? n : 1) * BRAZE_ABI_MAX_RANK];
  for (int i = 0; i < n; ++i) {
    dtypes[i] = sig->args[i].dtype;
    ranks[i] = sig->args[i].rank;
    for (int d = 0; d < BRAZE_ABI_MAX_RANK; ++d)
      dims[i * BRAZE_ABI_MAX_RANK + d] = sig->args[i].dims[d];
  }
  braze_str_printf(out, "BRAZE_CUDA_EXPORT const int32_t %s_num_inputs = %d;\n", sig->name, sig->num_inputs);
  braze_str_printf(out, "BRAZE_CUDA_EXPORT const int32_t %s_num_outputs = %d;\n", sig->name, sig->num_outputs);
  int_table("int32_t", sig->name, "_arg_dtypes", dtypes, n, out);
  int_table("int32_t", sig->name, "_arg_ranks", ranks, n, out);
  int_table("int64_t", sig->name, "_arg_dims", dims, n * BRAZE_ABI_MAX_RANK, out);
  braze_str_printf(out, "BRAZE_CUDA_EXPORT const int64_t %s_workspace_bytes = %lld;\n\n", sig->name,
                   (long long)sig->workspace_bytes);
}

void braze_cuda_abi_functions(const BrazeEntrySet *entries, bool graph_replay, const bool *partitioned, BrazeStr *out) {
  for (size_t i = 0; i < entries->count; ++i) {
    const BrazeEntrySig *sig = &entries->items[i];
    int n = sig->num_inputs + sig->num_outputs;
    braze_str_printf(out, "static const uint64_t braze_bytes_%s[] = {", sig->name);
    for (int a = 0; a < n; ++a)
      braze_str_printf(out, "%s%zuu", a ? ", " : "", sig->args[a].bytes);
    braze_str_printf(out,
                     "%s};\nstatic BrazeCuEntry braze_entry_%s = {.name = \"%s\", .num_args = %d, .arg_bytes = "
                     "braze_bytes_%s, .workspace_bytes = %lluu, .run = braze_run_%s, .graph_replay = %d, .partitioned = "
                     "%d, .lock = PTHREAD_MUTEX_INITIALIZER};\n",
                     n ? "" : "0", sig->name, sig->name, n, sig->name, (unsigned long long)sig->workspace_bytes,
                     sig->name, graph_replay, partitioned && partitioned[i]);
    wrapper(sig, "_ws_stream", "void *workspace, void *stream", "workspace, 0, stream", out);
    wrapper(sig, "_ws", "void *workspace", "workspace, 0, NULL", out);
    wrapper(sig, "_stream", "void *stream", "NULL, 1, stream", out);
    wrapper(sig, "", "", "NULL, 1, NULL", out);
    braze_str_printf(out,
                     "BRAZE_CUDA_EXPORT int %s_packed(void **args) {\n"
                     "  return braze_cu_call(&braze_program, &braze_entry_%s, args, NULL, 1, NULL);\n}\n",
                     sig->name, sig->name);
    tables(sig, out);
  }
  braze_str_puts(out, "BRAZE_CUDA_EXPORT const char *const braze_entry_names[] = {");
  for (size_t i = 0; i < entries->count; ++i)
    braze_str_printf(out, "\"%s\", ", entries->items[i].name);
  braze_str_puts(out, "NULL};\n");
}
