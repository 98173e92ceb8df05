/* The CPU check of braze's CPU libraries (decision 0026). Not part of braze itself:
 * clang compiles this file to LLVM IR for baseline x86-64 when braze is built, and
 * targets/cpu/cpu-guard.c links that IR into every library, where each exported entry
 * calls __braze_cpu_check before anything compiled for the chosen CPU runs.
 *
 *   int __braze_cpu_check(uint64_t required, const char *compiled_for)
 *
 * `required` holds the features of targets/cpu/cpu-features.def (bit i: line i) that
 * the library's code may use. Returns 0 when the running CPU has them all; otherwise,
 * once per library, prints which are missing to stderr and returns 2 (every entry
 * then returns 2). The answer is computed once and kept.
 *
 * BRAZE_CPU_HIDE=avx512f,avx2,... makes the check treat those features as absent, to
 * see and test the refusal on a CPU that has them (test/targets/cpu/cpu-refusal.test). */
#include <cpuid.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *name;
  unsigned leaf, sub, reg, bit;
} Feature;

static const Feature features[] = {
#define BRAZE_CPU_FEATURE(id, name, leaf, sub, reg, bit) {name, leaf, sub, reg, bit},
#include "targets/cpu/cpu-features.def"
#undef BRAZE_CPU_FEATURE
};
enum { NUM_FEATURES = sizeof features / sizeof *features };

static int cpuid_bit(unsigned leaf, unsigned sub, unsigned reg, unsigned bit) {
  unsigned r[4] = {0, 0, 0, 0};
  if (__get_cpuid_max(leaf & 0x80000000u, 0) < leaf)
    return 0;
  __cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
  return (r[reg] >> bit) & 1;
}

/* XCR0: which register states the OS saves (bits 1-2: SSE and AVX; 5-7: AVX-512). */
static uint64_t os_saved_state(void) {
  if (!cpuid_bit(1, 0, 2, 27)) /* OSXSAVE */
    return 0;
  unsigned lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return ((uint64_t)hi << 32) | lo;
}

static int hidden(const char *name) {
  const char *list = getenv("BRAZE_CPU_HIDE");
  size_t n = strlen(name);
  for (const char *p = list; p && *p;) {
    size_t len = strcspn(p, ", ");
    if (len == n && strncmp(p, name, n) == 0)
      return 1;
    p += len;
    p += strspn(p, ", ");
  }
  return 0;
}

static uint64_t running_cpu(void) {
  uint64_t xcr0 = os_saved_state();
  int avx_state = (xcr0 & 0x6) == 0x6, avx512_state = (xcr0 & 0xe6) == 0xe6;
  uint64_t have = 0;
  for (unsigned i = 0; i < NUM_FEATURES; ++i) {
    const Feature *f = &features[i];
    int on = cpuid_bit(f->leaf, f->sub, f->reg, f->bit);
    if (strncmp(f->name, "avx512", 6) == 0)
      on = on && avx512_state;
    else if (strncmp(f->name, "avx", 3) == 0 || strcmp(f->name, "fma") == 0 || strcmp(f->name, "f16c") == 0 ||
             strcmp(f->name, "vaes") == 0 || strcmp(f->name, "vpclmulqdq") == 0)
      on = on && avx_state;
    if (on && !hidden(f->name))
      have |= (uint64_t)1 << i;
  }
  return have;
}

int __braze_cpu_check(uint64_t required, const char *compiled_for) {
  static int status = -1; /* -1: not checked yet; racing first calls compute the same answer */
  int s = __atomic_load_n(&status, __ATOMIC_ACQUIRE);
  if (s >= 0)
    return s;
  uint64_t missing = required & ~running_cpu();
  if (missing) {
    char list[512];
    size_t len = 0;
    list[0] = '\0';
    for (unsigned i = 0; i < NUM_FEATURES; ++i)
      if ((missing >> i) & 1) {
        int n = snprintf(list + len, sizeof list - len, " %s", features[i].name);
        if (n > 0 && (size_t)n < sizeof list - len)
          len += (size_t)n;
      }
    fprintf(stderr,
            "braze: this library was compiled for CPU '%s'; the running CPU lacks:%s. Every entry returns 2; "
            "compile it again for this CPU (braze compile --cpu=native)\n",
            compiled_for, list);
  }
  s = missing ? 2 : 0;
  __atomic_store_n(&status, s, __ATOMIC_RELEASE);
  return s;
}
