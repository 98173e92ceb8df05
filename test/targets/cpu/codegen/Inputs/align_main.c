/* Softmax (../align_peel.mlir) on buffers starting 0..15 floats past a 64-byte
 * boundary: every peel count, against a double reference. */
#include <stdlib.h>

#include "check.h"
enum { R = 36, C = 300 };
void softmax(const float *x, float *y);
int main(void) {
  float *xb = aligned_alloc(64, (R * C + 16) * sizeof(float)), *yb = aligned_alloc(64, (R * C + 16) * sizeof(float));
  static double want[R * C];
  int ok = 1;
  for (int off = 0; off < 16; ++off) {
    float *x = xb + off, *y = yb + off;
    check_fill(x, R * C, -8, 8);
    softmax(x, y);
    check_softmax_reference(x, want, R, C);
    ok &= check_close("softmax", y, want, R * C, 2e-6, 1e-30);
  }
  printf("offsets 0..15: %s\n", ok ? "OK" : "FAIL");
  free(xb);
  free(yb);
  return ok ? 0 : 1;
}
