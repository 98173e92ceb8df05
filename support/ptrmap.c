#include "support/ptrmap.h"

#include <stdio.h>
#include <stdlib.h>

/* Pointers are aligned and clustered: mix all bits (splitmix64's finalizer) so that
 * linear probing sees well-spread slots. */
static size_t slot_of(uint64_t key, size_t cap) {
  key ^= key >> 30;
  key *= 0xbf58476d1ce4e5b9ULL;
  key ^= key >> 27;
  key *= 0x94d049bb133111ebULL;
  key ^= key >> 31;
  return (size_t)key & (cap - 1);
}

static void *checked_calloc(size_t n, size_t size) {
  void *p = calloc(n, size);
  if (!p) {
    fputs("braze: out of memory\n", stderr);
    abort();
  }
  return p;
}

static void insert(BrazePtrMap *m, uint64_t key, int value) {
  size_t i = slot_of(key, m->cap);
  while (m->keys[i] && m->keys[i] != key)
    i = (i + 1) & (m->cap - 1);
  if (!m->keys[i]) {
    m->keys[i] = key;
    m->count++;
  }
  m->values[i] = value;
}

/* Keep the load factor at most 1/2: probes stay short. */
static void grow(BrazePtrMap *m) {
  BrazePtrMap old = *m;
  m->cap = old.cap ? 2 * old.cap : 64;
  m->count = 0;
  m->keys = checked_calloc(m->cap, sizeof *m->keys);
  m->values = checked_calloc(m->cap, sizeof *m->values);
  for (size_t i = 0; i < old.cap; ++i)
    if (old.keys[i])
      insert(m, old.keys[i], old.values[i]);
  free(old.keys);
  free(old.values);
}

void braze_ptrmap_put(BrazePtrMap *m, uint64_t key, int value) {
  if (!key) {
    fputs("braze: ptrmap key 0 is reserved\n", stderr);
    abort();
  }
  if (2 * (m->count + 1) > m->cap)
    grow(m);
  insert(m, key, value);
}

int braze_ptrmap_get(const BrazePtrMap *m, uint64_t key, int missing) {
  if (!m->cap || !key)
    return missing;
  for (size_t i = slot_of(key, m->cap); m->keys[i]; i = (i + 1) & (m->cap - 1))
    if (m->keys[i] == key)
      return m->values[i];
  return missing;
}

void braze_ptrmap_free(BrazePtrMap *m) {
  free(m->keys);
  free(m->values);
  *m = (BrazePtrMap){0};
}
