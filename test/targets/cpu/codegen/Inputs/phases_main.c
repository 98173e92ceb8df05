#include "check.h"
void g(const float *x, const float *y, float *cat, float *cs);
int main(void) {
  static float x[6 * 7], y[6 * 9], cat[6 * 16], cs[16];
  static double wcat[6 * 16], wcs[16];
  check_fill(x, 6 * 7, -2, 2);
  check_fill(y, 6 * 9, -2, 2);
  g(x, y, cat, cs);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 16; ++j) {
      wcat[i * 16 + j] = j < 7 ? x[i * 7 + j] : 2.0 * y[i * 9 + j - 7];
      wcs[j] += wcat[i * 16 + j];
    }
  int ok = check_close("cat", cat, wcat, 6 * 16, 0, 1.0) & check_close("colsum", cs, wcs, 16, 1e-6, 1.0);
  printf("phases: %s\n", ok ? "OK" : "FAIL");
  return ok ? 0 : 1;
}
