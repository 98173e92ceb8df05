#include "support/progress.h"

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

static bool enabled;
static struct timespec start;

void braze_progress_enable(void) {
  enabled = true;
  clock_gettime(CLOCK_MONOTONIC, &start);
}

void braze_progress(const char *stage) {
  if (!enabled)
    return;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  double ms = (double)(now.tv_sec - start.tv_sec) * 1e3 + (double)(now.tv_nsec - start.tv_nsec) / 1e6;
  fprintf(stderr, "braze: stage %s at %.0f ms\n", stage, ms);
  fflush(stderr);
}
