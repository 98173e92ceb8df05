/* `--version` of braze and braze-opt: braze's version, the plugin ABI version and the
 * MLIR/LLVM version built against (and the one loaded, when they differ). */
#ifndef BRAZE_TOOLS_VERSION_H
#define BRAZE_TOOLS_VERSION_H

#include <stdio.h>

void braze_print_version(FILE *to, const char *tool);

#endif
