/* Calls the library compiled from ../emit-shared.mlir through its generated header and
 * compares with libm. */
#include <math.h>
#include <stdio.h>

#include "add_erf.h"

int main(void) {
  float a[7 * 37], b[37], o[7 * 37];
  for (int i = 0; i < 7 * 37; ++i)
    a[i] = (float)(i % 13) * 0.1f - 0.6f;
  for (int j = 0; j < 37; ++j)
    b[j] = (float)j * 0.01f;
  if (add_erf(a, b, o) != 0)
    return 1;
  double max_err = 0;
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 37; ++j) {
      double want = erf(erf(a[i * 37 + j] + b[j]) + b[j]);
      double e = fabs(want - o[i * 37 + j]);
      max_err = e > max_err ? e : max_err;
    }
  printf("inputs %d outputs %d out0 %lldx%lld\n", add_erf_num_inputs, add_erf_num_outputs,
         (long long)add_erf_arg_dims[16], (long long)add_erf_arg_dims[17]);
  printf("max abs err %s\n", max_err < 1e-6 ? "ok" : "TOO LARGE");
  return max_err < 1e-6 ? 0 : 1;
}
