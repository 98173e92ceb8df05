/* A small open-addressing hash map from a 64-bit key (a pointer such as an
 * MlirValue's or MlirOperation's `.ptr`, or any nonzero integer) to an int. Passes
 * use it instead of linear scans when they look values and ops up by identity.
 * Key 0 is reserved (the empty slot); a NULL pointer cannot be stored. */
#ifndef BRAZE_SUPPORT_PTRMAP_H
#define BRAZE_SUPPORT_PTRMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  uint64_t *keys; /* 0: empty slot */
  int *values;
  size_t cap;     /* a power of two, or 0 before the first put */
  size_t count;
} BrazePtrMap;

static inline uint64_t braze_ptr_key(const void *p) { return (uint64_t)(uintptr_t)p; }

/* Insert or overwrite. */
void braze_ptrmap_put(BrazePtrMap *m, uint64_t key, int value);
/* The value for key, or `missing`. */
int braze_ptrmap_get(const BrazePtrMap *m, uint64_t key, int missing);
void braze_ptrmap_free(BrazePtrMap *m);

#endif
