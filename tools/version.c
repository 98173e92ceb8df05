#include "tools/version.h"

#include <string.h>

#include "braze/plugin.h"
#include "llvm-c/Core.h"

void braze_print_version(FILE *to, const char *tool) {
  unsigned major = 0, minor = 0, patch = 0;
  LLVMGetVersion(&major, &minor, &patch);
  char running[64];
  snprintf(running, sizeof running, "%u.%u.%u", major, minor, patch);
  fprintf(to, "braze version %s%s%s%s\n  plugin ABI version %d\n  built with MLIR/LLVM %s", BRAZE_VERSION,
          strcmp(tool, "braze") ? " (" : "", strcmp(tool, "braze") ? tool : "", strcmp(tool, "braze") ? ")" : "",
          BRAZE_PLUGIN_ABI_VERSION, BRAZE_LLVM_VERSION);
  /* The libraries loaded at run time are Debian's shared ones: say so if they moved. */
  if (strcmp(running, BRAZE_LLVM_VERSION) != 0)
    fprintf(to, " (loaded: %s)", running);
  fputc('\n', to);
}
