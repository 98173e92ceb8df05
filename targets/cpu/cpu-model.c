/* The CPU the cpu target compiles for: a table of the x86-64 levels and the LLVM CPUs
 * braze knows the features of, and the host (`native`). Each entry's features are the
 * checked features of cpu-features.def; LLVM gets every one of them explicitly (+ or -)
 * beside the CPU name, so the code LLVM writes uses exactly the features the library
 * checks for at run time (test/targets/cpu/cpu-models.test holds the table against
 * clang's own -march definitions). */
#include "targets/cpu/cpu-model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llvm-c/Core.h"
#include "llvm-c/TargetMachine.h"

static const char *const feature_names[] = {
#define BRAZE_CPU_FEATURE(id, name, leaf, sub, reg, bit) name,
#include "targets/cpu/cpu-features.def"
#undef BRAZE_CPU_FEATURE
};

#define F(id) BRAZE_CPU_F(id)
#define V2 (F(SSSE3) | F(SSE41) | F(SSE42) | F(POPCNT) | F(CX16))
#define V3 (V2 | F(AVX) | F(AVX2) | F(BMI) | F(BMI2) | F(FMA) | F(F16C) | F(LZCNT) | F(MOVBE))
#define V4 (V3 | F(AVX512F) | F(AVX512BW) | F(AVX512CD) | F(AVX512DQ) | F(AVX512VL))
#define AVX512_ICL                                                                                                  \
  (F(AVX512VNNI) | F(AVX512VBMI) | F(AVX512VBMI2) | F(AVX512IFMA) | F(AVX512BITALG) | F(AVX512VPOPCNTDQ) | F(GFNI) | \
   F(VAES) | F(VPCLMULQDQ))
#define KiB *1024ll

typedef struct {
  const char *name;
  uint64_t mask;
  int64_t l2_bytes; /* per core, 0: not known */
} Known;

/* LLVM CPU names with the checked features of LLVM's definition of that CPU. L2 sizes
 * per core from the vendors' data sheets; the levels are not one machine, so none. */
static const Known known[] = {
    {"x86-64", 0, 0},
    {"x86-64-v2", V2, 0},
    {"x86-64-v3", V3, 0},
    {"x86-64-v4", V4, 0},
    {"haswell", V3, 256 KiB},
    {"skylake", V3, 256 KiB},
    {"alderlake", V3 | F(AVXVNNI) | F(GFNI) | F(VAES) | F(VPCLMULQDQ), 1280 KiB},
    {"skylake-avx512", V4, 1024 KiB},
    {"cascadelake", V4 | F(AVX512VNNI), 1024 KiB},
    {"cooperlake", V4 | F(AVX512VNNI) | F(AVX512BF16), 1024 KiB},
    {"icelake-server", V4 | AVX512_ICL, 1280 KiB},
    {"sapphirerapids", V4 | AVX512_ICL | F(AVX512BF16) | F(AVX512FP16) | F(AVXVNNI), 2048 KiB},
    {"graniterapids", V4 | AVX512_ICL | F(AVX512BF16) | F(AVX512FP16) | F(AVXVNNI), 2048 KiB},
    {"znver2", V3, 512 KiB},
    {"znver3", V3 | F(VAES) | F(VPCLMULQDQ), 512 KiB},
    {"znver4", V4 | AVX512_ICL | F(AVX512BF16), 1024 KiB},
    {"znver5", V4 | AVX512_ICL | F(AVX512BF16) | F(AVXVNNI), 1024 KiB},
};
enum { NUM_KNOWN = sizeof known / sizeof *known };

static BrazeCpuModel current;
static bool selected;
static BrazeStr native_name, native_features, named_features;

static void set_facts(BrazeCpuModel *m) {
  bool avx512 = m->mask & F(AVX512F);
  m->vector_width_bits = avx512 ? 512 : (m->mask & F(AVX)) ? 256 : 128;
  m->vector_registers = avx512 ? 32 : 16;
}

/* The host's L2 per core from sysfs ("1024K"), 0 where it does not say. */
static int64_t host_l2_bytes(void) {
  FILE *f = fopen("/sys/devices/system/cpu/cpu0/cache/index2/size", "r");
  if (!f)
    return 0;
  long long v = 0;
  char unit = 0;
  int n = fscanf(f, "%lld%c", &v, &unit);
  fclose(f);
  if (n < 1 || v <= 0)
    return 0;
  return unit == 'K' ? v * 1024 : unit == 'M' ? v * 1024 * 1024 : v;
}

/* The checked features that LLVM's feature string ("+avx2,-avx512f,...") turns on. */
static uint64_t checked_mask(const char *features) {
  uint64_t mask = 0;
  for (int i = 0; i < BRAZE_CPU_NUM_FEATURES; ++i) {
    size_t n = strlen(feature_names[i]);
    for (const char *p = features; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
      if (p[0] == '+' && strncmp(p + 1, feature_names[i], n) == 0 && (p[1 + n] == ',' || p[1 + n] == '\0'))
        mask |= UINT64_C(1) << i;
  }
  return mask;
}

/* native: the host's CPU name and its whole feature string, as LLVM detects them. */
static void select_native(void) {
  braze_str_clear(&native_name);
  braze_str_clear(&native_features);
  char *cpu = LLVMGetHostCPUName(), *features = LLVMGetHostCPUFeatures();
  braze_str_puts(&native_name, cpu);
  braze_str_puts(&native_features, features);
  LLVMDisposeMessage(cpu);
  LLVMDisposeMessage(features);
  current = (BrazeCpuModel){.name = "native",
                            .llvm_cpu = native_name.data,
                            .features = native_features.data,
                            .mask = checked_mask(native_features.data),
                            .l2_bytes = host_l2_bytes()};
  set_facts(&current);
}

static void select_known(const Known *k) {
  braze_str_clear(&named_features);
  for (int i = 0; i < BRAZE_CPU_NUM_FEATURES; ++i)
    braze_str_printf(&named_features, "%s%c%s", i ? "," : "", (k->mask >> i) & 1 ? '+' : '-', feature_names[i]);
  current = (BrazeCpuModel){.name = k->name,
                            .llvm_cpu = k->name,
                            .features = named_features.data,
                            .mask = k->mask,
                            .l2_bytes = k->l2_bytes};
  set_facts(&current);
}

bool braze_cpu_select(const char *name, BrazeStr *error) {
  if (!name || !*name || strcmp(name, "native") == 0) {
    select_native();
    selected = true;
    return true;
  }
  for (int i = 0; i < NUM_KNOWN; ++i)
    if (strcmp(known[i].name, name) == 0) {
      select_known(&known[i]);
      selected = true;
      return true;
    }
  braze_str_printf(error, "unknown CPU '%s' (accepted: native", name);
  for (int i = 0; i < NUM_KNOWN; ++i)
    braze_str_printf(error, ", %s", known[i].name);
  braze_str_puts(error, "; --list-targets shows their features)");
  return false;
}

const BrazeCpuModel *braze_cpu_selected(void) {
  if (!selected) {
    BrazeStr error = {0};
    if (!braze_cpu_select(getenv("BRAZE_CPU"), &error))
      braze_cpu_select(NULL, &error); /* the tools report a bad $BRAZE_CPU themselves */
    braze_str_free(&error);
  }
  return &current;
}

void braze_cpu_feature_names(uint64_t mask, BrazeStr *out) {
  bool first = true;
  for (int i = 0; i < BRAZE_CPU_NUM_FEATURES; ++i)
    if ((mask >> i) & 1) {
      braze_str_printf(out, "%s%s", first ? "" : " ", feature_names[i]);
      first = false;
    }
}

static void describe(const char *name, const char *cpu, uint64_t mask, BrazeStr *out) {
  BrazeCpuModel m = {.mask = mask};
  set_facts(&m);
  braze_str_printf(out, "  %-15s %s%s%d x %d-bit vector registers%s%s%s\n", name, cpu ? cpu : "", cpu ? ": " : "",
                   m.vector_registers, m.vector_width_bits, mask & F(FMA) ? ", FMA" : "",
                   mask & F(AVX512BF16) ? ", bf16 conversions" : "", mask & F(F16C) ? ", f16 conversions" : "");
}

void braze_cpu_list(BrazeStr *out) {
  char *host = LLVMGetHostCPUName(), *features = LLVMGetHostCPUFeatures();
  describe("native", host, checked_mask(features), out);
  LLVMDisposeMessage(host);
  LLVMDisposeMessage(features);
  for (int i = 0; i < NUM_KNOWN; ++i)
    describe(known[i].name, NULL, known[i].mask, out);
}
