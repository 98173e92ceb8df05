#include "check.h"
enum { R = 37, C = 100 };
void softmax(const float *x, float *y);
int main(void) {
  static float x[R * C], y[R * C];
  static double want[R * C];
  check_fill(x, R * C, -8, 8);
  softmax(x, y);
  for (int i = 0; i < R; ++i) {
    double m = -INFINITY, s = 0;
    for (int j = 0; j < C; ++j)
      m = fmax(m, x[i * C + j]);
    for (int j = 0; j < C; ++j)
      s += exp(x[i * C + j] - m);
    for (int j = 0; j < C; ++j)
      want[i * C + j] = exp(x[i * C + j] - m) / s;
  }
  return check_close("softmax", y, want, R * C, 2e-6, 1e-30) ? 0 : 1;
}
