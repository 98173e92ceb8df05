/* Checks x * (1/d) (math-approx's rewrite of x / d with d loop-invariant) against
 * x / d in double: two f32 roundings, so the bound is 2^-23 relative. Magnitudes
 * span 2^-60..2^60 (results and reciprocals stay normal), both signs. */
#include <math.h>
#include <stdio.h>

#include "../../../../targets/cpu/codegen/Inputs/check.h"

enum { R = 64, C = 100 };
void row_div(const float *x, const float *s, float *y);

static float wide(void) { return (check_rand(0, 1) < 0.5f ? -1.0f : 1.0f) * ldexpf(check_rand(1, 2), (int)check_rand(-60, 60)); }

int main(void) {
  static float x[R * C], s[R], y[R * C];
  static double want[R * C];
  for (int i = 0; i < R * C; ++i)
    x[i] = wide();
  for (int i = 0; i < R; ++i)
    s[i] = wide();
  row_div(x, s, y);
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j)
      want[i * C + j] = (double)x[i * C + j] / s[i];
  return check_close("div", y, want, R * C, 0x1p-23, 0) ? 0 : 1;
}
