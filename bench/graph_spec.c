/* SPDX-License-Identifier: MIT */
/* The bfs row's --graph entries: parsed, named, built (graph_spec.h). */
#include "graph_spec.h"

#include "graph_file.h"
#include "options.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_EDGE_FACTOR 16
#define MAX_SCALE 31 /* prism_csr_rmat's */
#define MAX_EDGE_FACTOR 1024
#define MAX_VERTICES ((size_t)UINT32_MAX) /* graphs have < 2^32 vertices */

static int say(char *msg, size_t msg_size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Write the message; returns 0 (the entry is refused). */
static int say(char *msg, size_t msg_size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, msg_size, fmt, ap);
  va_end(ap);
  return 0;
}

static int all_digits(const char *s) {
  if (!*s)
    return 0;
  for (; *s; s++) {
    if (*s < '0' || *s > '9')
      return 0;
  }
  return 1;
}

/* The len characters at s as a count from 1 to max: 1000000 or 2^20. */
static int parse_count(const char *s, size_t len, unsigned long long max,
                       unsigned long long *out) {
  char buf[32];
  unsigned long long v;
  char *end;
  if (len == 0 || len >= sizeof buf)
    return 0;
  memcpy(buf, s, len);
  buf[len] = '\0';
  int power = buf[0] == '2' && buf[1] == '^';
  const char *digits = power ? buf + 2 : buf;
  if (!all_digits(digits))
    return 0;
  errno = 0;
  v = strtoull(digits, &end, 10);
  if (errno)
    return 0;
  if (power) {
    if (v > 63)
      return 0;
    v = 1ull << v;
  }
  if (v < 1 || v > max)
    return 0;
  *out = v;
  return 1;
}

int graph_spec_parse_count(const char *s, size_t len, unsigned long long max,
                           unsigned long long *out) {
  return parse_count(s, len, max, out);
}

int bfs_graph_parse(const char *entry, bfs_graph_spec *spec, char *msg,
                    size_t msg_size) {
  static const char *const names[] = {"rmat", "grid", "path", "star"};
  unsigned long long a, b;
  memset(spec, 0, sizeof *spec);
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    if (strcmp(entry, names[i]) == 0)
      return say(msg, msg_size,
                 "'%s' needs its size (rmat:SCALE[:EDGEFACTOR], grid:W[xH], "
                 "path:N, star:N)",
                 entry);
  }
  if (strncmp(entry, "rmat:", 5) == 0) {
    const char *p = entry + 5, *colon = strchr(p, ':');
    size_t len = colon ? (size_t)(colon - p) : strlen(p);
    if (!parse_count(p, len, MAX_SCALE, &a))
      return say(msg, msg_size,
                 "'%s': SCALE must be 1 to %d (rmat:SCALE[:EDGEFACTOR], "
                 "e.g. rmat:22 or rmat:22:16)",
                 entry, MAX_SCALE);
    b = DEFAULT_EDGE_FACTOR;
    if (colon &&
        !parse_count(colon + 1, strlen(colon + 1), MAX_EDGE_FACTOR, &b))
      return say(msg, msg_size, "'%s': EDGEFACTOR must be 1 to %d", entry,
                 MAX_EDGE_FACTOR);
    spec->kind = BFS_GRAPH_RMAT;
    spec->scale = (unsigned)a;
    spec->edge_factor = (unsigned)b;
    return 1;
  }
  if (strncmp(entry, "grid:", 5) == 0) {
    const char *p = entry + 5, *x = strchr(p, 'x');
    size_t len = x ? (size_t)(x - p) : strlen(p);
    if (!parse_count(p, len, MAX_VERTICES, &a) ||
        (x && !parse_count(x + 1, strlen(x + 1), MAX_VERTICES, &b)))
      return say(msg, msg_size,
                 "'%s' is not grid:W or grid:WxH (e.g. grid:2048x2048)", entry);
    if (!x)
      b = a;
    if (a * b > MAX_VERTICES) /* both < 2^32: no overflow */
      return say(msg, msg_size, "'%s': graphs have fewer than 2^32 vertices",
                 entry);
    spec->kind = BFS_GRAPH_GRID;
    spec->width = (size_t)a;
    spec->height = (size_t)b;
    return 1;
  }
  if (strncmp(entry, "path:", 5) == 0 || strncmp(entry, "star:", 5) == 0) {
    if (!parse_count(entry + 5, strlen(entry + 5), MAX_VERTICES, &a))
      return say(msg, msg_size,
                 "'%s': N must be 1 to 2^32 - 1 vertices (e.g. %.4s:1000000)",
                 entry, entry);
    spec->kind = entry[0] == 'p' ? BFS_GRAPH_PATH : BFS_GRAPH_STAR;
    spec->n = (size_t)a;
    return 1;
  }
  spec->kind = BFS_GRAPH_FILE;
  spec->path = entry;
  return 1;
}

void bfs_graph_name(const bfs_graph_spec *spec, char *buf, size_t size) {
  switch (spec->kind) {
  case BFS_GRAPH_RMAT:
    if (spec->edge_factor == DEFAULT_EDGE_FACTOR)
      snprintf(buf, size, "rmat:%u", spec->scale);
    else
      snprintf(buf, size, "rmat:%u:%u", spec->scale, spec->edge_factor);
    break;
  case BFS_GRAPH_GRID:
    snprintf(buf, size, "grid:%zux%zu", spec->width, spec->height);
    break;
  case BFS_GRAPH_PATH:
    snprintf(buf, size, "path:%zu", spec->n);
    break;
  case BFS_GRAPH_STAR:
    snprintf(buf, size, "star:%zu", spec->n);
    break;
  case BFS_GRAPH_FILE:
    snprintf(buf, size, "%s", spec->path);
    break;
  }
}

/* Load a graph file, through a decompressed copy if it is gzip'd; msg
 * gets the reason for a failure. */
static prism_status graph_load(const char *path, const bench_options *opt,
                               prism_csr *csr, char *msg, size_t msg_size) {
  char temp[GRAPH_FILE_TEMP_SIZE];
  prism_load_options load;
  if (!graph_file_prepare(path, temp, msg, msg_size))
    return PRISM_INVALID_ARGUMENT; /* the file: msg says why */
  prism_load_options_init(&load);
  load.symmetrize = opt->symmetrize;
  prism_status st = prism_csr_load(temp[0] ? temp : path, &load, csr);
  if (st != PRISM_OK)
    snprintf(msg, msg_size, "prism_csr_load: %s: %s%s%s%s",
             prism_status_name(st), prism_last_error(),
             temp[0] ? " (decompressed from " : "", temp[0] ? path : "",
             temp[0] ? ")" : "");
  graph_file_done(temp);
  return st;
}

prism_status bfs_graph_build(const bfs_graph_spec *spec,
                             const bench_options *opt, prism_csr *csr,
                             char *msg, size_t msg_size) {
  const char *call = "";
  prism_status st = PRISM_OK;
  switch (spec->kind) {
  case BFS_GRAPH_RMAT:
    call = "prism_csr_rmat";
    st = prism_csr_rmat(spec->scale, spec->edge_factor, opt->seed, csr);
    break;
  case BFS_GRAPH_GRID:
    call = "prism_csr_grid";
    st = prism_csr_grid(spec->width, spec->height, csr);
    break;
  case BFS_GRAPH_PATH:
    call = "prism_csr_path";
    st = prism_csr_path(spec->n, csr);
    break;
  case BFS_GRAPH_STAR:
    call = "prism_csr_star";
    st = prism_csr_star(spec->n, csr);
    break;
  case BFS_GRAPH_FILE:
    return graph_load(spec->path, opt, csr, msg, msg_size);
  }
  if (st != PRISM_OK)
    snprintf(msg, msg_size, "%s: %s: %s", call, prism_status_name(st),
             prism_last_error());
  return st;
}
