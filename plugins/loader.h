/* Loading plugins (include/braze/plugin.h): `--load-pass-plugin=lib.so` and
 * BRAZE_PLUGINS. A plugin registers passes, named pipelines, IRDL dialects and
 * targets into braze's registries; all of them or, on any failure, none. */
#ifndef BRAZE_PLUGINS_LOADER_H
#define BRAZE_PLUGINS_LOADER_H

#include <stdbool.h>
#include <stddef.h>

#include "support/strbuf.h"

/* dlopen `path` and run its braze_plugin_init. False with one sentence in *error
 * (naming the file) when it cannot be loaded, has no entry, was built for another
 * ABI version, fails, or registers a name that exists already; then nothing of it
 * stays registered. Loading the same library twice is a no-op. */
bool braze_plugin_load(const char *path, BrazeStr *error);

/* Every library in $BRAZE_PLUGINS (colon-separated; empty entries skipped). */
bool braze_plugins_load_env(BrazeStr *error);

/* The tools' common handling: load $BRAZE_PLUGINS, then each
 * `--load-pass-plugin=PATH` / `--load-pass-plugin PATH` of argv (removed from argv;
 * *argc updated). Prints "TOOL: error" and returns false on the first failure. */
bool braze_plugins_load_args(const char *tool, int *argc, char **argv);

size_t braze_plugin_count(void);
const char *braze_plugin_name_at(size_t i);
const char *braze_plugin_path_at(size_t i);

/* Unregister everything plugins registered and close them (after the last MLIR
 * context is gone). */
void braze_plugins_unload(void);

#endif
