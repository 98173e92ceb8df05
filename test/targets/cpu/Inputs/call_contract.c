/* Calls the library built from ../lower-contract.mlir and checks it against plain C. */
#include <math.h>
#include <stdio.h>

#include "contract.h"

enum { R = 1000, C = 37 };

int main(void) {
  static float x[R * C], out[R * C], rowsum[R], copy[R * C];
  for (int i = 0; i < R * C; ++i)
    x[i] = (float)((i * 7919) % 101) / 50.0f - 1.0f;
  if (contract(x, out, rowsum, copy) != 0)
    return 1;
  double err = 0;
  for (int i = 0; i < R; ++i) {
    double max = -INFINITY, sum = 0;
    for (int j = 0; j < C; ++j)
      max = fmax(max, x[i * C + j]);
    for (int j = 0; j < C; ++j)
      sum += x[i * C + j] * (0.5 + j);
    err = fmax(err, fabs(rowsum[i] - sum) / fmax(1.0, fabs(sum)));
    for (int j = 0; j < C; ++j) {
      double want = sqrt(fabs(x[i * C + j] - max)) + fma(x[i * C + j], 2.0, 1.0);
      err = fmax(err, fabs(out[i * C + j] - want));
      err = fmax(err, fabs(copy[i * C + j] - x[i * C + j]));
    }
  }
  printf("max err %s\n", err < 1e-4 ? "ok" : "TOO LARGE");
  return err < 1e-4 ? 0 : 1;
}
