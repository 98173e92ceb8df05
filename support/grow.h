/* Growing a heap array by doubling: the one place for the realloc-when-full step of
 * the (items, count, capacity) arrays the passes append to. */
#ifndef BRAZE_SUPPORT_GROW_H
#define BRAZE_SUPPORT_GROW_H

#include <stddef.h>
#include <stdlib.h>

/* `items` with room for at least count + 1 elements of `elem` bytes; *cap doubles
 * (from `first`) when full. Returns the possibly moved array. */
static inline void *braze_grow(void *items, size_t count, int *cap, size_t elem, int first) {
  if (count < (size_t)*cap)
    return items;
  *cap = *cap ? 2 * *cap : first;
  return realloc(items, (size_t)*cap * elem);
}

#endif
