/* The generated C header: one prototype per entry, shapes in comments, and the
 * exported tables (include/braze/runtime.h describes them). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "targets/cpu/cpu-model.h"
#include "targets/cpu/cpu-target.h"

static void shape_text(const BrazeArgInfo *arg, BrazeStr *out) {
  braze_str_printf(out, "%s[", braze_rt_dtype_str(arg->dtype));
  for (int d = 0; d < arg->rank; ++d)
    braze_str_printf(out, "%s%lld", d ? "x" : "", (long long)arg->dims[d]);
  braze_str_puts(out, "]");
}

static void entry_decl(const BrazeEntrySig *sig, BrazeStr *out) {
  braze_str_printf(out, "/* %s: %d input%s, %d output%s; returns 0 on success.\n", sig->name, sig->num_inputs,
                   sig->num_inputs == 1 ? "" : "s", sig->num_outputs, sig->num_outputs == 1 ? "" : "s");
  braze_str_puts(out, " * Buffers are dense row-major; outputs are written in place.\n");
  int n = sig->num_inputs + sig->num_outputs;
  for (int i = 0; i < n; ++i) {
    bool in = i < sig->num_inputs;
    char label[24];
    snprintf(label, sizeof label, "%s%d", in ? "in" : "out", in ? i : i - sig->num_inputs);
    braze_str_printf(out, " *   %-5s ", label);
    shape_text(&sig->args[i], out);
    braze_str_printf(out, "  (%lld elements)\n", (long long)sig->args[i].num_elements);
  }
  braze_str_printf(out, " */\nint %s(", sig->name);
  for (int i = 0; i < n; ++i) {
    bool in = i < sig->num_inputs;
    braze_str_printf(out, "%s%s%s *%s%d", i ? ", " : "", in ? "const " : "", braze_rt_dtype_ctype(sig->args[i].dtype),
                     in ? "in" : "out", in ? i : i - sig->num_inputs);
  }
  braze_str_printf(out, "%s);\n", n ? "" : "void");
  braze_str_printf(out,
                   "/* The same with the caller's scratch memory: %lld bytes (%s_workspace_bytes), 64-byte\n"
                   " * aligned, used by one call at a time; NULL when 0. %s() keeps one such buffer\n"
                   " * across calls and allocates it on the first. */\n",
                   (long long)sig->workspace_bytes, sig->name, sig->name);
  braze_str_printf(out, "int %s_ws(", sig->name);
  for (int i = 0; i < n; ++i) {
    bool in = i < sig->num_inputs;
    braze_str_printf(out, "%s%s *%s%d, ", in ? "const " : "", braze_rt_dtype_ctype(sig->args[i].dtype), in ? "in" : "out",
                     in ? i : i - sig->num_inputs);
  }
  braze_str_puts(out, "void *workspace);\n");
  braze_str_printf(out, "extern const int64_t %s_workspace_bytes;\n", sig->name);
  braze_str_printf(out, "int %s_packed(void **args);\n", sig->name);
  braze_str_printf(out, "extern const int32_t %s_num_inputs, %s_num_outputs;\n", sig->name, sig->name);
  braze_str_printf(out, "extern const int32_t %s_arg_dtypes[%d], %s_arg_ranks[%d];\n", sig->name, n ? n : 1,
                   sig->name, n ? n : 1);
  braze_str_printf(out, "extern const int64_t %s_arg_dims[%d];\n\n", sig->name, (n ? n : 1) * BRAZE_ABI_MAX_RANK);
}

/* An entry with a symbolic dim (decision 0029): its row-block clones are internal. */
static void dynamic_decl(const BrazeDynamicEntry *e, const BrazeEntrySet *entries, BrazeStr *out) {
  const BrazeEntrySig *sig = NULL;
  BrazeEntrySig loops = {0};
  if (e->loops) { /* runtime loops: the record holds the signature */
    loops.num_inputs = e->num_inputs;
    loops.num_outputs = e->num_args - e->num_inputs;
    loops.args = (BrazeArgInfo *)e->args;
    sig = &loops;
  }
  char clone[200];
  snprintf(clone, sizeof clone, "%s" BRAZE_ROWS_SUFFIX "%lld", e->name, (long long)e->block_rows);
  for (size_t i = 0; !e->loops && i < entries->count; ++i)
    if (strcmp(entries->items[i].name, clone) == 0)
      sig = &entries->items[i];
  if (!sig)
    return;
  braze_str_printf(out, "/* %s: %d input%s, %d output%s, symbolic dim %s in [%lld, %lld]", e->name, sig->num_inputs,
                   sig->num_inputs == 1 ? "" : "s", sig->num_outputs, sig->num_outputs == 1 ? "" : "s", e->symbol,
                   (long long)e->min, (long long)e->max);
  if (e->div > 1)
    braze_str_printf(out, ", a multiple of %lld", (long long)e->div);
  braze_str_puts(out, ".\n * Buffers are dense row-major; outputs are written in place. Returns 0 on success,\n"
                      " * 3 when the size is out of bounds (the reason: braze_last_error()).\n");
  int n = sig->num_inputs + sig->num_outputs;
  for (int i = 0; i < n; ++i) {
    bool in = i < sig->num_inputs;
    braze_str_printf(out, " *   %s%-4d %s[", in ? "in" : "out", in ? i : i - sig->num_inputs,
                     braze_rt_dtype_str(sig->args[i].dtype));
    for (int d = 0; d < sig->args[i].rank; ++d) {
      if (e->loops ? sig->args[i].dims[d] == -1 : d == 0 && e->rows[i])
        braze_str_printf(out, "%s%s", d ? "x" : "", e->symbol);
      else
        braze_str_printf(out, "%s%lld", d ? "x" : "", (long long)sig->args[i].dims[d]);
    }
    braze_str_puts(out, "]\n");
  }
  if (e->loops)
    braze_str_printf(out, " * Computed by loops whose trip counts are read from %s (runtime loops; their\n"
                     " * workspace is sized for %s and kept across calls: 1 if it cannot be allocated). */\nint %s(",
                     e->symbol, e->symbol, e->name);
  else
    braze_str_printf(out, " * Computed in blocks of %lld rows of %s, then of %lld; the rest is padded to %lld rows\n"
                     " * with copies of its last row (a buffer allocated for the call: 1 if that fails). */\nint %s(",
                     (long long)e->block_rows, e->symbol, (long long)e->small_rows, (long long)e->small_rows, e->name);
  for (int i = 0; i < n; ++i) {
    bool in = i < sig->num_inputs;
    braze_str_printf(out, "%s%s *%s%d, ", in ? "const " : "", braze_rt_dtype_ctype(sig->args[i].dtype), in ? "in" : "out",
                     in ? i : i - sig->num_inputs);
  }
  braze_str_printf(out, "int64_t %s);\n", e->symbol);
  braze_str_printf(out, "/* Output `output`'s dims at size %s into dims[rank]; 0, 3 (size out of bounds), 4 (no such output). */\n",
                   e->symbol);
  braze_str_printf(out, "int %s_output_shape(int32_t output, int64_t %s, int64_t *dims);\n", e->name, e->symbol);
  braze_str_printf(out, "int %s_packed_sizes(void **args, const int64_t *sizes);\n", e->name);
  braze_str_printf(out, "extern const int32_t %s_num_inputs, %s_num_outputs, %s_num_symbols;\n", e->name, e->name, e->name);
  braze_str_printf(out, "extern const int32_t %s_arg_dtypes[%d], %s_arg_ranks[%d];\n", e->name, n ? n : 1, e->name,
                   n ? n : 1);
  braze_str_printf(out, "extern const int64_t %s_arg_dims[%d]; /* -1: the symbolic dim */\n", e->name,
                   (n ? n : 1) * BRAZE_ABI_MAX_RANK);
  braze_str_printf(out, "extern const int64_t %s_symbol_bounds[3]; /* min, max, div */\n\n", e->name);
}

void braze_cpu_abi_header(const BrazeEntrySet *entries, const BrazeDynamicEntry *dyn, int n_dyn,
                          const char *source_name, const char *guard_hint, BrazeStr *out) {
  BrazeStr guard = {0};
  braze_str_puts(&guard, "BRAZE_GENERATED_");
  for (const char *p = guard_hint; *p; ++p) {
    char c = (char)toupper((unsigned char)*p);
    braze_str_append(&guard, isalnum((unsigned char)c) ? &c : "_", 1);
  }
  braze_str_printf(out, "/* Generated by braze from %s. Do not edit.\n", source_name ? source_name : "<stdin>");
  braze_str_puts(out, " * dtypes: f32 float, f64 double, f16/bf16 uint16_t (bits), i8 int8_t, i16 int16_t, i32 int32_t,\n"
                      " * i64 int64_t, ui8 uint8_t, ui16 uint16_t, ui32 uint32_t, ui64 uint64_t, i1 bool.\n"
                      " * dtype codes in the tables: 0 f32, 1 f16, 2 bf16, 3 i32, 4 i64, 5 i1, 6 f64, 7 i8, 8 ui8, 9 i16,\n"
                      " * 10 ui16, 11 ui32, 12 ui64. */\n");
  const BrazeCpuModel *cpu = braze_cpu_selected();
  bool native = strcmp(cpu->name, "native") == 0;
  BrazeStr features = {0};
  braze_cpu_feature_names(cpu->mask, &features);
  braze_str_printf(out,
                   "/* Compiled for CPU %s%s%s. Every entry first checks that the running CPU has\n"
                   " * the features the code uses (%s)\n"
                   " * and where one is missing prints which, once, and returns 2 (--cpu chooses the CPU). */\n",
                   cpu->name, native ? ", the compiling host: " : "", native ? cpu->llvm_cpu : "",
                   features.len ? features.data : "none beyond x86-64");
  braze_str_free(&features);
  braze_str_printf(out, "#ifndef %s\n#define %s\n\n", guard.data, guard.data);
  braze_str_printf(out, "#define %s_CPU \"%s\" /* the LLVM CPU compiled for */\n\n", guard.data, cpu->llvm_cpu);
  braze_str_puts(out, "#include <stdbool.h>\n#include <stdint.h>\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
  braze_str_puts(out, "extern const char *const braze_entry_names[];\n\n");
  if (n_dyn)
    braze_str_puts(out, "/* This thread's last size error, \"\" if none. */\nconst char *braze_last_error(void);\n\n");
  for (size_t i = 0; i < entries->count; ++i)
    if (!strstr(entries->items[i].name, BRAZE_ROWS_SUFFIX))
      entry_decl(&entries->items[i], out);
  for (int i = 0; i < n_dyn; ++i)
    dynamic_decl(&dyn[i], entries, out);
  braze_str_printf(out, "#ifdef __cplusplus\n}\n#endif\n\n#endif /* %s */\n", guard.data);
  braze_str_free(&guard);
}
