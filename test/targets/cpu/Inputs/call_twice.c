/* Calls the entry `scale` of a library compiled from cpu-refusal.test twice and prints
 * both return codes: 2 and 2 where the running CPU lacks a feature the library was
 * compiled for (the message once on stderr), 0 and 0 otherwise. */
#include <stdio.h>

#include "scale.h"

int main(void) {
  static float in[4 * 32], out[4 * 32];
  for (int i = 0; i < 4 * 32; ++i)
    in[i] = (float)i * 0.25f - 3.0f;
  int first = scale(in, out);
  int second = scale(in, out);
  printf("rc %d %d out[5] %g\n", first, second, first == 0 ? (double)out[5] : 0.0);
  return 0;
}
