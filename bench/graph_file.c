/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L

#include "graph_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef PRISM_BENCH_HAVE_ZLIB
#include <zlib.h>
#endif

#define COPY_CHUNK ((size_t)1 << 20)

/* gzip's magic bytes (RFC 1952). */
static int is_gzip(FILE *f) {
  unsigned char magic[2];
  return fread(magic, 1, 2, f) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

/* 1 gzip, 0 not, -1 unreadable (msg set). */
static int probe(const char *path, char *msg, size_t msg_size) {
  struct stat st;
  if (stat(path, &st) != 0) {
    snprintf(msg, msg_size, "cannot read graph file '%s': %s", path,
             strerror(errno));
    return -1;
  }
  if (!S_ISREG(st.st_mode)) {
    snprintf(msg, msg_size, "graph file '%s' is not a regular file", path);
    return -1;
  }
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(msg, msg_size, "cannot read graph file '%s': %s", path,
             strerror(errno));
    return -1;
  }
  int gz = is_gzip(f);
  fclose(f);
  return gz;
}

int graph_file_check(const char *path, char *msg, size_t msg_size) {
  int gz = probe(path, msg, msg_size);
  if (gz < 0)
    return 0;
#ifndef PRISM_BENCH_HAVE_ZLIB
  if (gz) {
    snprintf(msg, msg_size,
             "graph file '%s' is gzip-compressed; rebuild prism-bench with "
             "zlib (zlib1g-dev) or gunzip it",
             path);
    return 0;
  }
#endif
  return 1;
}

#ifdef PRISM_BENCH_HAVE_ZLIB
/* Decompress path into the open file fd; 1, or 0 with msg. */
static int gunzip_into(const char *path, int fd, char *msg, size_t msg_size) {
  gzFile in = gzopen(path, "rb");
  FILE *out = fdopen(fd, "wb");
  char *buf = malloc(COPY_CHUNK);
  int ok = in && out && buf;
  if (!ok)
    snprintf(msg, msg_size, "cannot decompress '%s': %s", path,
             buf ? strerror(errno) : "host out of memory");
  while (ok) {
    int got = gzread(in, buf, (unsigned)COPY_CHUNK);
    if (got < 0) {
      int err;
      snprintf(msg, msg_size, "cannot decompress '%s': %s", path,
               gzerror(in, &err));
      ok = 0;
    } else if (got == 0) {
      break;
    } else if (fwrite(buf, 1, (size_t)got, out) != (size_t)got) {
      snprintf(msg, msg_size, "cannot write the decompressed '%s': %s", path,
               strerror(errno));
      ok = 0;
    }
  }
  if (out && fclose(out) != 0 && ok) {
    snprintf(msg, msg_size, "cannot write the decompressed '%s': %s", path,
             strerror(errno));
    ok = 0;
  } else if (!out) {
    close(fd);
  }
  if (in)
    gzclose(in);
  free(buf);
  return ok;
}
#endif

int graph_file_prepare(const char *path, char temp[GRAPH_FILE_TEMP_SIZE],
                       char *msg, size_t msg_size) {
  temp[0] = '\0';
  int gz = probe(path, msg, msg_size);
  if (gz <= 0)
    return gz == 0;
#ifdef PRISM_BENCH_HAVE_ZLIB
  const char *dir = getenv("TMPDIR");
  snprintf(temp, GRAPH_FILE_TEMP_SIZE, "%s/prism-bench-graph-XXXXXX",
           dir && *dir ? dir : "/tmp");
  int fd = mkstemp(temp);
  if (fd < 0) {
    snprintf(msg, msg_size, "cannot decompress '%s': mkstemp %s: %s", path,
             temp, strerror(errno));
    temp[0] = '\0';
    return 0;
  }
  if (!gunzip_into(path, fd, msg, msg_size)) {
    graph_file_done(temp);
    return 0;
  }
  return 1;
#else
  return graph_file_check(path, msg, msg_size);
#endif
}

void graph_file_done(char temp[GRAPH_FILE_TEMP_SIZE]) {
  if (temp[0])
    unlink(temp);
  temp[0] = '\0';
}
