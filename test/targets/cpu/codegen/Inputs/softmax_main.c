#include "check.h"
enum { R = 37, C = 100 };
void softmax(const float *x, float *y);
int main(void) {
  static float x[R * C], y[R * C];
  static double want[R * C];
  check_fill(x, R * C, -8, 8);
  softmax(x, y);
  check_softmax_reference(x, want, R, C);
  return check_close("softmax", y, want, R * C, 2e-6, 1e-30) ? 0 : 1;
}
