/* braze: one command, several subcommands (run, compile, check, import, bench).
 *
 *   braze <command> [ARGS...]     braze <command> --help     braze --help
 *
 * Adding a subcommand: write tools/braze/<name>.c with `int braze_cmd_<name>(int argc,
 * char **argv)`, declare it in commands.h, add one line to `commands` below. */
#include <stdio.h>
#include <string.h>

#include "tools/braze/commands.h"

typedef struct {
  const char *name;
  const char *summary;
  int (*fn)(int argc, char **argv);
} BrazeCommand;

static const BrazeCommand commands[] = {
    {"run", "evaluate a graph function with the reference interpreter on random or .npy inputs", braze_cmd_run},
    {"compile", "compile a graph module for a target (.so + C header)", braze_cmd_compile},
    {"check", "compare a compiled function with the reference interpreter", braze_cmd_check},
    {"import", "import an ONNX model into the graph dialect", braze_cmd_import},
    {"fusion-graph", "write form-kernels' fusion graph as Graphviz DOT", braze_cmd_fusion_graph},
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
  fputs("Exit status: 0 on success, 1 on any error (diagnostics name file:line:col).\n", to);
}

static const BrazeCommand *find_command(const char *name) {
  for (size_t i = 0; i < NUM_COMMANDS; ++i)
    if (strcmp(commands[i].name, name) == 0)
      return &commands[i];
  return NULL;
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
  return cmd->fn(argc - 1, argv + 1);
}
