/* The generated C header of a CUDA library: the entries on device pointers (shapes in
 * comments), the exported tables, and the runtime's helpers (the counterpart of
 * targets/cpu/abi-header.c). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "targets/cuda/cuda-target.h"

static void shape_text(const BrazeArgInfo *arg, BrazeStr *out) {
  braze_str_printf(out, "%s[", braze_rt_dtype_str(arg->dtype));
  for (int d = 0; d < arg->rank; ++d)
    braze_str_printf(out, "%s%lld", d ? "x" : "", (long long)arg->dims[d]);
  braze_str_puts(out, "]");
}

static void params(const BrazeEntrySig *sig, const char *extra, BrazeStr *out) {
  int n = sig->num_inputs + sig->num_outputs;
  for (int i = 0; i < n; ++i) {
    bool in = i < sig->num_inputs;
    braze_str_printf(out, "%s%s%s *%s%d", i ? ", " : "", in ? "const " : "", braze_rt_dtype_ctype(sig->args[i].dtype),
                     in ? "in" : "out", in ? i : i - sig->num_inputs);
  }
  braze_str_printf(out, "%s%s", n && *extra ? ", " : "", *extra ? extra : n ? "" : "void");
}

static void entry_decl(const BrazeEntrySig *sig, BrazeStr *out) {
  const char *name = sig->name;
  braze_str_printf(out, "/* %s: %d input%s, %d output%s; returns 0 on success, else 1 (braze_cuda_last_error()).\n",
                   name, sig->num_inputs, sig->num_inputs == 1 ? "" : "s", sig->num_outputs,
                   sig->num_outputs == 1 ? "" : "s");
  braze_str_puts(out, " * All pointers are DEVICE pointers (cuMemAlloc, cudaMalloc, torch CUDA tensors' data_ptr())\n"
                      " * to dense row-major buffers, 16-byte aligned for the vector loads; outputs are\n"
                      " * written in place. Launches are asynchronous on the stream (the legacy default\n"
                      " * stream where none is given): synchronize before reading the outputs on the host.\n");
  int n = sig->num_inputs + sig->num_outputs;
  for (int i = 0; i < n; ++i) {
    bool in = i < sig->num_inputs;
    char label[24];
    snprintf(label, sizeof label, "%s%d", in ? "in" : "out", in ? i : i - sig->num_inputs);
    braze_str_printf(out, " *   %-5s ", label);
    shape_text(&sig->args[i], out);
    braze_str_printf(out, "  (%lld elements)\n", (long long)sig->args[i].num_elements);
  }
  braze_str_printf(out, " */\nint %s(", name);
  params(sig, "", out);
  braze_str_printf(out, ");\nint %s_stream(", name);
  params(sig, "void *stream", out);
  braze_str_printf(out,
                   ");\n/* With the caller's device workspace: %lld bytes (%s_workspace_bytes), 256-byte\n"
                   " * aligned, used by one call at a time; NULL when 0. %s() and %s_stream() keep one\n"
                   " * workspace per stream, allocated on its first call. */\n",
                   (long long)sig->workspace_bytes, name, name, name);
  braze_str_printf(out, "int %s_ws(", name);
  params(sig, "void *workspace", out);
  braze_str_printf(out, ");\nint %s_ws_stream(", name);
  params(sig, "void *workspace, void *stream", out);
  braze_str_printf(out, ");\nextern const int64_t %s_workspace_bytes;\n", name);
  braze_str_printf(out, "int %s_packed(void **args);\n", name);
  braze_str_printf(out, "extern const int32_t %s_num_inputs, %s_num_outputs;\n", name, name);
  braze_str_printf(out, "extern const int32_t %s_arg_dtypes[%d], %s_arg_ranks[%d];\n", name, n ? n : 1, name,
                   n ? n : 1);
  braze_str_printf(out, "extern const int64_t %s_arg_dims[%d];\n\n", name, (n ? n : 1) * BRAZE_ABI_MAX_RANK);
}

static const char helpers[] =
    "/* The runtime in this library (CUDA driver API, opened with dlopen at the first call:\n"
    " * the library loads on machines without a GPU; calls then return 1). Kernels load\n"
    " * into the context current at the first call (device 0's primary context when none).\n"
    " * Each returns 0 on success, else 1 with the reason in braze_cuda_last_error(). */\n"
    "extern const char braze_target_name[]; /* \"cuda\": entry pointers are device pointers */\n"
    "const char *braze_cuda_last_error(void); /* this thread's last failure, \"\" if none */\n"
    "int braze_cuda_available(void);\n"
    "int braze_cuda_malloc(void **ptr, size_t bytes);\n"
    "int braze_cuda_free(void *ptr);\n"
    "int braze_cuda_memcpy_htod(void *dst, const void *src, size_t bytes);\n"
    "int braze_cuda_memcpy_dtoh(void *dst, const void *src, size_t bytes);\n"
    "int braze_cuda_synchronize(void); /* also reports errors of kernels that ran */\n"
    "int braze_cuda_set_device(int device); /* device's primary context current on this thread */\n\n";

void braze_cuda_abi_header(const BrazeEntrySet *entries, const BrazeCudaMesh *mesh, const char *source_name,
                           const char *guard_hint, BrazeStr *out) {
  BrazeStr guard = {0};
  braze_str_puts(&guard, "BRAZE_GENERATED_");
  for (const char *p = guard_hint; *p; ++p) {
    char c = (char)toupper((unsigned char)*p);
    braze_str_append(&guard, isalnum((unsigned char)c) ? &c : "_", 1);
  }
  braze_str_printf(out, "/* Generated by braze (target cuda) from %s. Do not edit.\n",
                   source_name ? source_name : "<stdin>");
  braze_str_puts(out, " * dtypes: f32 float, f64 double, f16/bf16 uint16_t (bits), i8 int8_t, i16 int16_t, i32 int32_t,\n"
                      " * i64 int64_t, ui8 uint8_t, ui16 uint16_t, ui32 uint32_t, ui64 uint64_t, i1 bool.\n"
                      " * dtype codes in the tables: 0 f32, 1 f16, 2 bf16, 3 i32, 4 i64, 5 i1, 6 f64, 7 i8, 8 ui8, 9 i16,\n"
                      " * 10 ui16, 11 ui32, 12 ui64. */\n");
  braze_str_printf(out, "#ifndef %s\n#define %s\n\n", guard.data, guard.data);
  braze_str_puts(out, "#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n\n"
                      "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
  braze_str_puts(out, helpers);
  braze_cuda_mesh_header(mesh, out);
  braze_str_puts(out, "extern const char *const braze_entry_names[];\n\n");
  for (size_t i = 0; i < entries->count; ++i)
    entry_decl(&entries->items[i], out);
  braze_str_printf(out, "#ifdef __cplusplus\n}\n#endif\n\n#endif /* %s */\n", guard.data);
  braze_str_free(&guard);
}
