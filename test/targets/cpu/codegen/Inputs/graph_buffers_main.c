#include "check.h"
enum { N = 100 * 100 };
void graph(const float *x, float *o0, float *o1, float *o2, void *workspace);
int main(void) {
  static float x[N], o0[N], o1[N], o2[N];
  static _Alignas(64) unsigned char workspace[80000];
  static double w0[N], w1[N];
  check_fill(x, N, -2, 2);
  graph(x, o0, o1, o2, workspace);
  for (int i = 0; i < N; ++i) {
    w0[i] = (4.0 * x[i] + 1.0) + x[i];
    w1[i] = x[i];
  }
  int ok = check_close("o0", o0, w0, N, 1e-6, 1.0) & check_close("o1", o1, w1, N, 0, 1.0) &
           check_close("o2", o2, w0, N, 1e-6, 1.0);
  printf("graph: %s\n", ok ? "OK" : "FAIL");
  return ok ? 0 : 1;
}
