/* The `braze` command's subcommands. Each lives in tools/braze/<name>.c and is one
 * line in the table in tools/braze/main.c. An entry point gets the arguments after
 * the subcommand name (argv[0] is the subcommand name itself), prints its own
 * `--help`, and returns the process exit status: 0 on success, 1 on any error.
 * Shared flag parsing and helpers: tools/braze/common.h. */
#ifndef BRAZE_TOOLS_BRAZE_COMMANDS_H
#define BRAZE_TOOLS_BRAZE_COMMANDS_H

int braze_cmd_run(int argc, char **argv);
int braze_cmd_compile(int argc, char **argv);
int braze_cmd_check(int argc, char **argv);
int braze_cmd_import(int argc, char **argv);
int braze_cmd_fusion_graph(int argc, char **argv);
/* Added by their owners (see the commented-out table entries in main.c):
 * int braze_cmd_bench(int argc, char **argv); */

#endif
