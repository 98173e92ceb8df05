/* Calls the library built from contract.mlir through its header, on the mock driver
 * (mock_cuda.c): the kept workspace, the caller's workspace, a stream's own kept
 * workspace, a NULL workspace, misaligned or NULL buffers refused, and the copies' data. */
#include <cuda.h>
#include <stdio.h>
#include <string.h>

#include "contract.h"

static void check(const char *what, int rc) { printf("%s: rc=%d %s\n", what, rc, rc ? braze_cuda_last_error() : ""); }

int main(void) {
  float host_x[128], back[128];
  for (int i = 0; i < 128; ++i)
    host_x[i] = 0.25f * (float)i;
  void *x, *sums, *max, *copy, *ws;
  check("alloc", braze_cuda_malloc(&x, sizeof host_x) || braze_cuda_malloc(&sums, 32) ||
                     braze_cuda_malloc(&max, 4) || braze_cuda_malloc(&copy, sizeof host_x));
  check("htod", braze_cuda_memcpy_htod(x, host_x, sizeof host_x));
  printf("workspace bytes %lld, target %s, entry %s\n", (long long)f_workspace_bytes, braze_target_name,
         braze_entry_names[0]);
  check("first call", f(x, sums, max, copy));
  check("second call", f(x, sums, max, copy));
  check("synchronize", braze_cuda_synchronize());
  check("dtoh", braze_cuda_memcpy_dtoh(back, copy, sizeof back));
  printf("copy %s\n", memcmp(back, host_x, sizeof back) == 0 ? "ok" : "WRONG");
  check("alloc ws", braze_cuda_malloc(&ws, (size_t)f_workspace_bytes));
  check("caller's workspace", f_ws(x, sums, max, copy, ws));
  check("no workspace", f_ws(x, sums, max, copy, NULL));
  check("misaligned input", f((const float *)((char *)x + 4), sums, max, copy));
  check("NULL output", f(x, sums, NULL, copy));
  check("misaligned workspace", f_ws(x, sums, max, copy, (char *)ws + 8));
  CUstream stream;
  cuStreamCreate(&stream, 0);
  check("on a stream", f_stream(x, sums, max, copy, stream));
  check("on the stream again", f_stream(x, sums, max, copy, stream));
  check("free", braze_cuda_free(ws));
  return 0;
}
