/* braze: one command, several subcommands (run, compile, check, import, bench).
 *
 *   braze <command> [ARGS...]     braze <command> --help     braze --help     braze --version
 *
 * compile, run, check and fusion-graph also take `--load-pass-plugin=LIB.so`
 * (repeatable; $BRAZE_PLUGINS too), `--cpu=NAME` ($BRAZE_CPU too) and
 * `--target-costs=FILE`, handled here for all.
 *
 * Adding a subcommand: write tools/braze/<name>.c with `int braze_cmd_<name>(int argc,
 * char **argv)`, declare it in commands.h, add one line to `commands` below. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugins/loader.h"
#include "targets/target.h"
#include "tools/braze/commands.h"
#include "tools/version.h"

typedef struct {
  const char *name;
  const char *summary;
  int (*fn)(int argc, char **argv);
  bool compiles; /* takes --load-pass-plugin, --cpu and --target-costs */
} BrazeCommand;

static const BrazeCommand commands[] = {
    {"run", "evaluate a graph function with the reference interpreter on random or .npy inputs", braze_cmd_run, true},
    {"compile", "compile a graph module for a target (.so + C header)", braze_cmd_compile, true},
    {"check", "compare a compiled function with the reference interpreter", braze_cmd_check, true},
    {"import", "import an ONNX model into the graph dialect", braze_cmd_import, false},
    {"fusion-graph", "write form-kernels' fusion graph as Graphviz DOT", braze_cmd_fusion_graph, true},
    /* {"bench", "time compiled functions against other frameworks", braze_cmd_bench}, */
};
enum { NUM_COMMANDS = sizeof commands / sizeof *commands };

static void usage(FILE *to) {
  fputs("usage: braze <command> [ARGS...]\n"
        "       braze <command> --help    options of one command\n"
        "commands:\n",
        to);
  for (size_t i = 0; i < NUM_COMMANDS; ++i)
    fprintf(to, "  %-10s %s\n", commands[i].name, commands[i].summary);
  fputs("compile, run, check and fusion-graph also take:\n"
        "  --load-pass-plugin=LIB.so  load a braze plugin: passes, pipelines, dialects, targets\n"
        "                             (repeatable; also $BRAZE_PLUGINS, colon-separated)\n"
        "  --cpu=NAME                 the CPU the cpu target compiles for: native (the default, or\n"
        "                             $BRAZE_CPU), x86-64-v2, x86-64-v3, x86-64-v4 or an LLVM CPU\n"
        "                             name (compile --list-targets lists them and their facts)\n"
        "  --target-costs=FILE        override the target's facts (JSON; docs/target-costs.md)\n"
        "Exit status: 0 on success, 1 on any error (diagnostics name file:line:col).\n",
        to);
}

static const BrazeCommand *find_command(const char *name) {
  for (size_t i = 0; i < NUM_COMMANDS; ++i)
    if (strcmp(commands[i].name, name) == 0)
      return &commands[i];
  return NULL;
}

/* `FLAG=VALUE` / `FLAG VALUE` options, removed from argv, each handed to `apply`. */
static bool take_flag(const char *cmd, const char *flag, const char *what,
                      bool (*apply)(const char *value, BrazeStr *error), int *argc, char **argv) {
  size_t len = strlen(flag);
  int out = 1;
  bool ok = true;
  for (int i = 1; i < *argc; ++i) {
    const char *value = NULL;
    if (strncmp(argv[i], flag, len) == 0 && argv[i][len] == '=')
      value = argv[i] + len + 1;
    else if (strcmp(argv[i], flag) == 0 && i + 1 < *argc)
      value = argv[++i];
    else if (strcmp(argv[i], flag) == 0) {
      fprintf(stderr, "braze %s: %s needs %s\n", cmd, flag, what);
      ok = false;
      continue;
    }
    if (!value) {
      argv[out++] = argv[i];
      continue;
    }
    BrazeStr error = {0};
    if (ok && !apply(value, &error)) {
      fprintf(stderr, "braze %s: %s\n", cmd, error.data);
      ok = false;
    }
    braze_str_free(&error);
  }
  *argc = out;
  argv[out] = NULL;
  return ok;
}

/* $BRAZE_CPU is the default of --cpu; a bad one is an error like a bad flag. */
static bool select_default_cpu(const char *cmd) {
  const char *env = getenv("BRAZE_CPU");
  BrazeStr error = {0};
  bool ok = braze_cpu_select(env, &error);
  if (!ok)
    fprintf(stderr, "braze %s: $BRAZE_CPU: %s\n", cmd, error.data);
  braze_str_free(&error);
  return ok;
}

static int run_command(const BrazeCommand *cmd, int argc, char **argv) {
  if (!cmd->compiles)
    return cmd->fn(argc, argv);
  char tool[64];
  snprintf(tool, sizeof tool, "braze %s", cmd->name);
  /* The CPU first: the facts --target-costs overrides are the chosen CPU's. */
  bool ok = select_default_cpu(cmd->name) && take_flag(cmd->name, "--cpu", "a CPU name", braze_cpu_select, &argc, argv) &&
            braze_plugins_load_args(tool, &argc, argv) &&
            take_flag(cmd->name, "--target-costs", "a file", braze_target_costs_load, &argc, argv);
  int status = ok ? cmd->fn(argc, argv) : 1;
  braze_plugins_unload();
  return status;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 1;
  }
  const char *name = argv[1];
  if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
    usage(stdout);
    return 0;
  }
  if (strcmp(name, "--version") == 0) {
    braze_print_version(stdout, "braze");
    return 0;
  }
  if (strcmp(name, "help") == 0) {
    if (argc < 3) {
      usage(stdout);
      return 0;
    }
    const BrazeCommand *cmd = find_command(argv[2]);
    if (!cmd) {
      fprintf(stderr, "braze: unknown command '%s'\n", argv[2]);
      return 1;
    }
    char help[] = "--help";
    char *help_argv[] = {argv[2], help, NULL};
    return cmd->fn(2, help_argv);
  }
  const BrazeCommand *cmd = find_command(name);
  if (!cmd) {
    fprintf(stderr, "braze: unknown command '%s' (braze --help lists them)\n", name);
    return 1;
  }
  return run_command(cmd, argc - 1, argv + 1);
}
