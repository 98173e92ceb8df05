/* Unit tests for support/context's file I/O: braze_read_file and the atomic
 * braze_write_file (never a partial output). Uses a directory given on argv[1]. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "support/context.h"
#include "test/unit/check.h"

static const char *dir;

static char *path_in(const char *name) {
  static char buf[4096];
  snprintf(buf, sizeof buf, "%s/%s", dir, name);
  return buf;
}

static int count_entries(const char *d) {
  DIR *h = opendir(d);
  if (!h)
    return -1;
  int n = 0;
  for (struct dirent *e; (e = readdir(h));)
    n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
  closedir(h);
  return n;
}

static void write_then_read_back(void) {
  const char data[] = "line 1\nline \0 two\n";
  CHECK(braze_write_file(path_in("out.txt"), data, sizeof data - 1));
  size_t len = 0;
  char *back = braze_read_file(path_in("out.txt"), &len);
  CHECK(back != NULL && len == sizeof data - 1 && memcmp(back, data, len) == 0);
  CHECK(back && back[len] == '\0');
  free(back);
  /* The mode is the usual 0666 & ~umask, not mkstemp's 0600. */
  mode_t mask = umask(0);
  umask(mask);
  struct stat st;
  CHECK(stat(path_in("out.txt"), &st) == 0 && (st.st_mode & 0777) == (0666 & ~mask));
}

static void overwrite_replaces_whole_file(void) {
  CHECK(braze_write_file(path_in("over.txt"), "a much longer first version", 27));
  CHECK(braze_write_file(path_in("over.txt"), "short", 5));
  size_t len = 0;
  char *back = braze_read_file(path_in("over.txt"), &len);
  CHECK(back && len == 5 && memcmp(back, "short", 5) == 0);
  free(back);
}

static void large_file_round_trips(void) {
  size_t n = 3u << 20; /* several read chunks */
  char *big = malloc(n);
  for (size_t i = 0; i < n; ++i)
    big[i] = (char)('a' + i % 26);
  CHECK(braze_write_file(path_in("big.bin"), big, n));
  size_t len = 0;
  char *back = braze_read_file(path_in("big.bin"), &len);
  CHECK(back && len == n && memcmp(back, big, n) == 0);
  free(back);
  free(big);
}

static void empty_file(void) {
  CHECK(braze_write_file(path_in("empty.txt"), "", 0));
  size_t len = 99;
  char *back = braze_read_file(path_in("empty.txt"), &len);
  CHECK(back && len == 0 && back[0] == '\0');
  free(back);
}

static void failures_leave_nothing_behind(void) {
  int before = count_entries(dir);
  CHECK(!braze_write_file(path_in("no-such-dir/x.txt"), "x", 1));
  CHECK(braze_read_file(path_in("does-not-exist"), NULL) == NULL);
  CHECK(braze_read_file(dir, NULL) == NULL); /* a directory is not a file */
  /* Writing over a directory fails (rename cannot replace it) and leaves no temp file. */
  mkdir(path_in("a-dir"), 0755);
  before = count_entries(dir);
  CHECK(!braze_write_file(path_in("a-dir"), "x", 1));
  CHECK(count_entries(dir) == before);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: unit_files EMPTY_DIR\n");
    return 2;
  }
  dir = argv[1];
  RUN_CASE(write_then_read_back);
  RUN_CASE(overwrite_replaces_whole_file);
  RUN_CASE(large_file_round_trips);
  RUN_CASE(empty_file);
  RUN_CASE(failures_leave_nothing_behind);
  return check_finish();
}
