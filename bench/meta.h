/* SPDX-License-Identifier: MIT */
/*
 * What a result needs to be compared later, on another machine: prism's
 * version and commit, the host, the date, the command line. The devices'
 * own facts are device_info.h's.
 */
#ifndef PRISM_BENCH_META_H
#define PRISM_BENCH_META_H

#define META_TEXT 256
#define META_COMMAND_SIZE 4096

typedef struct bench_meta {
  const char *version; /* prism_version() */
  const char *commit;  /* `git describe --always --dirty` at build time,
                          "unknown" outside a checkout */
  char host[META_TEXT];
  char date[META_TEXT];            /* UTC, ISO 8601 */
  char command[META_COMMAND_SIZE]; /* argv, quoted for a POSIX shell */
  int reps;                        /* samples per array row (0: none) */
} bench_meta;

/* Fill meta for this process, started with argc, argv. */
void meta_collect(int argc, char **argv, bench_meta *meta);

/* The commit prism-bench was built from. */
const char *meta_commit(void);

#endif /* PRISM_BENCH_META_H */
