/* Target facts as data: each target's BrazeTargetCosts (query_costs), overridden by
 * `--target-costs=FILE` (a JSON object of the facts to change), and the target being
 * compiled for, whose facts the heuristics read (docs/target-costs.md). */
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "passes/passes.h"
#include "targets/target.h"

/* One fact: its key in the file, where it lives, its smallest value and whether it
 * is a size (a string with KiB/MiB/GiB is accepted). */
typedef struct {
  const char *key;
  size_t offset;
  bool wide; /* int64_t, else int */
  long long min, max;
  const char *what;
} Fact;

#define FACT_INT(key, field, min, max, what) {key, offsetof(BrazeTargetCosts, field), false, min, max, what}
#define FACT_I64(key, field, min, what) {key, offsetof(BrazeTargetCosts, field), true, min, 1ll << 50, what}
static const Fact facts[] = {
    FACT_INT("vector-width-bits", vector_width_bits, 32, 4096, "widest SIMD register codegen may use"),
    FACT_INT("vector-registers", vector_registers, 0, 1024, "SIMD registers of that width (0: not known)"),
    FACT_INT("vector-ldexp", vector_ldexp, 0, 1, "ldexp on vectors is one instruction (1) or a libcall per lane (0)"),
    FACT_INT("cache-line-bytes", cache_line_bytes, 1, 4096, "cache line"),
    FACT_I64("l2-bytes", l2_cache_bytes, 1, "L2 cache"),
    FACT_INT("cores", num_cores, 0, 1 << 20, "cores (0: ask at run time)"),
    FACT_INT("sms", num_sms, 0, 1 << 20, "GPU streaming multiprocessors"),
    FACT_INT("warp-size", warp_size, 0, 1024, "GPU warp size"),
    FACT_INT("max-threads-per-block", max_threads_per_block, 0, 1 << 20, "GPU threads per block"),
    FACT_I64("shared-mem-per-sm-bytes", shared_mem_per_sm_bytes, 0, "GPU shared memory per SM"),
    FACT_I64("shared-mem-per-block-bytes", shared_mem_per_block_bytes, 0, "GPU shared memory per block"),
};
enum { NUM_FACTS = sizeof facts / sizeof *facts };

static bool overridden[NUM_FACTS];
static long long override_value[NUM_FACTS];
static const BrazeTarget *selected;

/* "1MiB", "48KiB", "2GiB" or a plain number. */
static bool parse_size(const char *s, long long *out) {
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (errno || end == s)
    return false;
  long long scale = strcmp(end, "") == 0      ? 1
                    : strcmp(end, "KiB") == 0 ? 1ll << 10
                    : strcmp(end, "MiB") == 0 ? 1ll << 20
                    : strcmp(end, "GiB") == 0 ? 1ll << 30
                                              : 0;
  if (!scale || v > (1ll << 50) / scale)
    return false;
  *out = v * scale;
  return true;
}

static bool read_fact(const char *path, const Fact *f, json_t *v, long long *out, BrazeStr *error) {
  bool ok = false;
  if (json_is_integer(v)) {
    *out = json_integer_value(v);
    ok = true;
  } else if (json_is_string(v) && f->wide) {
    ok = parse_size(json_string_value(v), out);
  }
  if (ok && *out >= f->min && *out <= f->max && (strcmp(f->key, "vector-width-bits") != 0 || *out % 32 == 0))
    return true;
  braze_str_printf(error, "%s: '%s' (%s) expects %s from %lld to %lld%s", path, f->key, f->what,
                   f->wide ? "a size" : "an integer", f->min, f->max,
                   strcmp(f->key, "vector-width-bits") == 0 ? ", a multiple of 32"
                   : f->wide                                ? " (bytes, or a string such as \"1MiB\")"
                                                            : "");
  return false;
}

bool braze_target_costs_load(const char *path, BrazeStr *error) {
  json_error_t jerr;
  json_t *root = json_load_file(path, 0, &jerr);
  if (!root) {
    braze_str_printf(error, "%s:%d:%d: cannot read target costs: %s", path, jerr.line, jerr.column, jerr.text);
    return false;
  }
  bool set[NUM_FACTS] = {0};
  long long value[NUM_FACTS] = {0};
  bool ok = json_is_object(root);
  if (!ok)
    braze_str_printf(error, "%s: target costs must be a JSON object {\"vector-width-bits\": 128, ...}", path);
  const char *key;
  json_t *v;
  json_object_foreach(root, key, v) {
    if (!ok)
      break;
    size_t i = 0;
    while (i < NUM_FACTS && strcmp(facts[i].key, key) != 0)
      ++i;
    if (i == NUM_FACTS) {
      braze_str_printf(error, "%s: unknown target fact '%s' (known:", path, key);
      for (size_t k = 0; k < NUM_FACTS; ++k)
        braze_str_printf(error, " %s", facts[k].key);
      braze_str_puts(error, ")");
      ok = false;
    } else {
      ok = read_fact(path, &facts[i], v, &value[i], error);
      set[i] = true;
    }
  }
  json_decref(root);
  if (!ok)
    return false;
  /* All or nothing: a bad file leaves earlier overrides as they were. */
  for (size_t i = 0; i < NUM_FACTS; ++i)
    if (set[i]) {
      overridden[i] = true;
      override_value[i] = value[i];
    }
  braze_target_select(selected); /* the selected target's facts as passes see them */
  return true;
}

void braze_target_costs_reset(void) {
  memset(overridden, 0, sizeof overridden);
  braze_target_select(selected);
}

void braze_target_costs(const BrazeTarget *target, BrazeTargetCosts *out) {
  memset(out, 0, sizeof *out);
  if (target && target->query_costs)
    target->query_costs(out);
  for (size_t i = 0; i < NUM_FACTS; ++i) {
    if (!overridden[i])
      continue;
    char *field = (char *)out + facts[i].offset;
    if (facts[i].wide)
      *(int64_t *)field = override_value[i];
    else
      *(int *)field = (int)override_value[i];
  }
}

void braze_target_select(const BrazeTarget *target) {
  selected = target;
  BrazeTargetCosts costs;
  if (target)
    braze_target_costs(target, &costs);
  braze_pass_set_target_costs(target ? &costs : NULL);
}

const BrazeTarget *braze_target_selected(void) { return selected; }

void braze_target_costs_for(const char *fallback, BrazeTargetCosts *out) {
  braze_target_costs(selected ? selected : braze_target_lookup(fallback), out);
}
