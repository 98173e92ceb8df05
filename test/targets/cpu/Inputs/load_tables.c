/* Loads a compiled library with the runtime's generic loader (no header), prints every
 * entry's tables, and calls each entry on arguments filled with 1, 2, 3, ... */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "braze/runtime.h"

static void fill(const BrazeArgInfo *a, void *buf) {
  for (int64_t i = 0; i < a->num_elements; ++i) {
    switch (a->dtype) {
    case BRAZE_RT_F32: ((float *)buf)[i] = (float)(i + 1); break;
    case BRAZE_RT_I32: ((int32_t *)buf)[i] = (int32_t)(i + 1); break;
    case BRAZE_RT_I64: ((int64_t *)buf)[i] = (int64_t)(i + 1) << 33; break;
    case BRAZE_RT_I1: ((bool *)buf)[i] = i % 2 == 0; break;
    case BRAZE_RT_F64: ((double *)buf)[i] = (double)(i + 1); break;
    case BRAZE_RT_I8: ((int8_t *)buf)[i] = (int8_t)(100 + 10 * i); break;
    case BRAZE_RT_U8: ((uint8_t *)buf)[i] = (uint8_t)(250 + i); break;
    case BRAZE_RT_I16: ((int16_t *)buf)[i] = (int16_t)(32760 + i); break;
    case BRAZE_RT_U16: ((uint16_t *)buf)[i] = (uint16_t)(65530 + i); break;
    case BRAZE_RT_U32: ((uint32_t *)buf)[i] = UINT32_C(4294967290) + (uint32_t)i; break;
    case BRAZE_RT_U64: ((uint64_t *)buf)[i] = (UINT64_C(1) << 63) + (uint64_t)i; break;
    default: ((uint16_t *)buf)[i] = (uint16_t)(0x3c00 + i); break; /* f16 1.0, 1.0009765625, ... */
    }
  }
}

static void print_value(const BrazeArgInfo *a, const void *buf, int64_t i) {
  switch (a->dtype) {
  case BRAZE_RT_F32: printf(" %g", ((const float *)buf)[i]); break;
  case BRAZE_RT_I32: printf(" %d", ((const int32_t *)buf)[i]); break;
  case BRAZE_RT_I64: printf(" %lld", (long long)((const int64_t *)buf)[i]); break;
  case BRAZE_RT_I1: printf(" %d", ((const bool *)buf)[i]); break;
  case BRAZE_RT_F64: printf(" %.17g", ((const double *)buf)[i]); break;
  case BRAZE_RT_I8: printf(" %d", ((const int8_t *)buf)[i]); break;
  case BRAZE_RT_U8: printf(" %u", ((const uint8_t *)buf)[i]); break;
  case BRAZE_RT_I16: printf(" %d", ((const int16_t *)buf)[i]); break;
  case BRAZE_RT_U16: printf(" %u", ((const uint16_t *)buf)[i]); break;
  case BRAZE_RT_U32: printf(" %u", ((const uint32_t *)buf)[i]); break;
  case BRAZE_RT_U64: printf(" %llu", (unsigned long long)((const uint64_t *)buf)[i]); break;
  default: printf(" 0x%04x", ((const uint16_t *)buf)[i]); break;
  }
}

int main(int argc, char **argv) {
  char err[512];
  BrazeLibrary *lib = braze_library_open(argv[1], err, sizeof err);
  if (!lib) {
    printf("error: %s\n", err);
    return 1;
  }
  for (size_t e = 0; e < braze_library_num_entries(lib); ++e) {
    const BrazeEntry *entry = braze_library_entry_at(lib, e);
    printf("entry %s: %d in, %d out\n", entry->name, entry->num_inputs, entry->num_outputs);
    int n = entry->num_inputs + entry->num_outputs;
    void **args = calloc((size_t)n, sizeof *args);
    for (int i = 0; i < n; ++i) {
      const BrazeArgInfo *a = &entry->args[i];
      printf("  arg%d %s rank %d dims", i, braze_rt_dtype_str(a->dtype), a->rank);
      for (int d = 0; d < a->rank; ++d)
        printf(" %lld", (long long)a->dims[d]);
      printf(" (%zu bytes)\n", a->bytes);
      args[i] = calloc(1, a->bytes + 1);
      if (i < entry->num_inputs)
        fill(a, args[i]);
    }
    printf("  status %d\n", braze_entry_call(entry, args));
    for (int o = entry->num_inputs; o < n; ++o) {
      printf("  out%d:", o - entry->num_inputs);
      for (int64_t i = 0; i < entry->args[o].num_elements && i < 6; ++i)
        print_value(&entry->args[o], args[o], i);
      printf("\n");
    }
    for (int i = 0; i < n; ++i)
      free(args[i]);
    free(args);
  }
  printf("lookup missing: %s\n", braze_library_entry(lib, "nope") ? "found" : "null");
  braze_library_close(lib);
  if (argc > 2 && !braze_library_open(argv[2], err, sizeof err))
    printf("error: %s\n", err);
  return 0;
}
