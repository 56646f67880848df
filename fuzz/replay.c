/* SPDX-License-Identifier: MIT */
/*
 * A main() for the fuzz targets in builds without libFuzzer: every file of
 * the directories (or the files) named on the command line goes through
 * LLVMFuzzerTestOneInput once, in name order, each in a buffer of exactly
 * its size. CTest runs it on the seed corpus and the past crash inputs
 * (fuzz_replay.<target>).
 *
 * With glibc and no sanitizer, malloc, calloc and realloc are watched
 * as libFuzzer's -malloc_limit_mb would: one request larger than
 * REPLAY_MALLOC_LIMIT plus REPLAY_MALLOC_PER_BYTE per input byte aborts,
 * so that a loader allocating what a file merely claims fails here too.
 */
#define _POSIX_C_SOURCE 200809L /* scandir, alphasort */
#include "fuzz_graph.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define REPLAY_MALLOC_LIMIT ((size_t)16 << 20)
#define REPLAY_MALLOC_PER_BYTE 256

#if defined(__SANITIZE_ADDRESS__)
#define REPLAY_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define REPLAY_SANITIZED 1
#endif
#endif

static const char *current = "(none)"; /* the input being run */
static size_t malloc_limit = SIZE_MAX;

#if defined(__GLIBC__) && !defined(REPLAY_SANITIZED)
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);

static void check_request(size_t size) {
  if (size <= malloc_limit)
    return;
  fprintf(stderr, "%s: a request of %zu bytes (limit %zu)\n", current, size,
          malloc_limit);
  abort();
}

void *malloc(size_t size) {
  check_request(size);
  return __libc_malloc(size);
}

void *calloc(size_t n, size_t size) {
  check_request(size && n > SIZE_MAX / size ? SIZE_MAX : n * size);
  return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size) {
  check_request(size);
  return __libc_realloc(p, size);
}
#endif

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "%s: %s\n", path, strerror(errno));
    return 1;
  }
  size_t cap = 1 << 16, len = 0;
  uint8_t *data = malloc(cap);
  int failed = !data;
  for (size_t got; !failed && (got = fread(data + len, 1, cap - len, f)) > 0;)
    if ((len += got) == cap) {
      uint8_t *grown = realloc(data, cap *= 2);
      failed = !grown;
      data = grown ? grown : data;
    }
  failed |= ferror(f);
  fclose(f);
  if (failed) {
    fprintf(stderr, "%s: cannot read it\n", path);
    free(data);
    return 1;
  }
  /* Exactly len bytes, so reads past the input are caught by a sanitizer. */
  uint8_t *input = malloc(len ? len : 1);
  if (!input) {
    free(data);
    return 1;
  }
  memcpy(input, data, len);
  free(data);
  current = path;
  malloc_limit = REPLAY_MALLOC_LIMIT + REPLAY_MALLOC_PER_BYTE * len;
  LLVMFuzzerTestOneInput(input, len);
  malloc_limit = SIZE_MAX;
  free(input);
  return 0;
}

static int skip_name(const struct dirent *e) {
  return e->d_name[0] != '.';
}

/* Every file of dir, in name order; *count runs. */
static int run_dir(const char *dir, int *count) {
  struct dirent **names;
  int n = scandir(dir, &names, skip_name, alphasort), failed = 0;
  if (n < 0) {
    fprintf(stderr, "%s: %s\n", dir, strerror(errno));
    return 1;
  }
  for (int i = 0; i < n; i++) {
    size_t len = strlen(dir) + strlen(names[i]->d_name) + 2;
    char *path = malloc(len);
    if (path) {
      snprintf(path, len, "%s/%s", dir, names[i]->d_name);
      failed |= run_file(path);
      *count += 1;
    }
    free(path);
    free(names[i]);
  }
  free(names);
  return failed;
}

int main(int argc, char **argv) {
  int failed = 0, count = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
      failed |= run_dir(argv[i], &count);
    } else {
      failed |= run_file(argv[i]);
      count++;
    }
  }
  printf("%d inputs replayed%s\n", count, failed ? ", some unreadable" : "");
  return failed;
}
