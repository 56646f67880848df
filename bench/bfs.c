/* SPDX-License-Identifier: MIT */
/*
 * bfs: prism_bfs timed on graphs, in TEPS as Graph500 counts them (bfs.h).
 *
 * For each --graph: build it on the host once, upload it to every device,
 * draw the sources, warm each device up with one search, then for each
 * source run
 * - the serial C queue BFS, timed (the reference on CPU devices); its
 *   levels are what every other search must match;
 * - the naive CUDA BFS (bfs_naive.h) when an NVIDIA device is measured
 *   and prism-bench was built with CUDA (the reference on NVIDIA devices);
 * - prism_bfs on each device, timed on the host around the call (it waits
 *   for its result), then checked: levels and the result's counts exactly,
 *   and with --parents the tree by Graph500's rules.
 * Searching source by source, every device and reference in turn, keeps
 * one set of serial levels in memory at a time. Then a row per device and
 * per reference: the median search time, the median TEPS and their
 * harmonic mean, and the device's TEPS over its reference's.
 */
#include "bfs.h"

#include "graph_file.h"
#include "host_ref.h"
#include "measure.h"
#include "options.h"
#include "report.h"
#include "timing.h"

#ifdef PRISM_BENCH_HAVE_CUDA
#include "bfs_naive.h"
#endif

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_EDGE_FACTOR 16
#define MAX_SCALE 31 /* prism_csr_rmat's */
#define MAX_EDGE_FACTOR 1024
#define MAX_VERTICES ((size_t)UINT32_MAX) /* graphs have < 2^32 vertices */
/* The sources' stream, apart from the RMAT generator's of the same seed. */
#define SOURCE_SALT 0xB5F0C3AE1D2C4B97ull
#define NOTE_SIZE 512
#define NAME_SIZE 256

/* ---- --graph entries ----------------------------------------------------- */

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

/* The row's name of the graph: the entry with its defaults spelt out. */
static void graph_name(const bfs_graph_spec *spec, char *buf, size_t size) {
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

/* Generate or load the graph; msg gets the reason for a failure. */
static prism_status graph_build(const bfs_graph_spec *spec,
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

/* ---- The graph on the host ----------------------------------------------- */

typedef struct host_graph {
  prism_csr csr;
  char name[OPTIONS_PATH_SIZE];
  /* The vertices with self loops, one entry per loop: a search's edge
   * count needs the loops in the component it reached. */
  uint32_t *loops;
  size_t loop_count;
  size_t edges; /* the whole graph's, as graph500_edges counts */
} host_graph;

/* Edges of a search as Graph500 counts TEPS: the input edges in the
 * component reached, each undirected edge once, self loops and duplicate
 * edges included (Graph500 keeps both and counts every input edge). The
 * CSR lists an undirected edge u -- v in both rows and a self loop once, so
 * reached_edges (the reached vertices' out-degrees) counts the edges twice
 * and the loops once: (reached_edges + loops) / 2. A directed graph (an
 * edge list loaded without --symmetrize; not Graph500's case) counts each
 * out-edge of a reached vertex once: every one of them is looked at. */
static size_t graph500_edges(const host_graph *g, size_t reached_edges,
                             const int32_t *levels) {
  if (g->csr.directed)
    return reached_edges;
  size_t loops = 0;
  for (size_t i = 0; i < g->loop_count; i++)
    loops += levels[g->loops[i]] >= 0;
  return (reached_edges + loops) / 2;
}

/* The self loops and the whole graph's edge count; 0 when out of memory. */
static int graph_count_edges(host_graph *g) {
  const prism_csr *c = &g->csr;
  size_t count = 0;
  for (size_t u = 0; u < c->num_vertices; u++) {
    for (uint64_t e = c->row_offsets[u]; e < c->row_offsets[u + 1]; e++)
      count += c->col_indices[e] == u;
  }
  g->loops = malloc(count ? count * sizeof *g->loops : 1);
  if (!g->loops)
    return 0;
  for (size_t u = 0; u < c->num_vertices; u++) {
    for (uint64_t e = c->row_offsets[u]; e < c->row_offsets[u + 1]; e++) {
      if (c->col_indices[e] == u)
        g->loops[g->loop_count++] = (uint32_t)u;
    }
  }
  g->edges = c->directed ? c->num_edges : (c->num_edges + count) / 2;
  return 1;
}

/* Up to want distinct sources, drawn from seed among the vertices with
 * out-edges (Graph500 draws its search keys among the vertices with
 * edges). Returns how many, or -1 when out of memory. */
static int draw_sources(const prism_csr *g, int want, uint64_t seed,
                        uint32_t *sources) {
  uint32_t *candidates = malloc(g->num_vertices * sizeof *candidates);
  size_t count = 0;
  if (!candidates)
    return -1;
  for (size_t v = 0; v < g->num_vertices; v++) {
    if (g->row_offsets[v + 1] > g->row_offsets[v])
      candidates[count++] = (uint32_t)v;
  }
  int k = (size_t)want < count ? want : (int)count;
  uint64_t state = seed ^ SOURCE_SALT;
  for (int i = 0; i < k; i++) { /* a partial Fisher-Yates shuffle */
    size_t j = (size_t)i + (size_t)(host_random(&state) % (count - (size_t)i));
    uint32_t t = candidates[i];
    candidates[i] = candidates[j];
    candidates[j] = t;
    sources[i] = candidates[i];
  }
  free(candidates);
  return k;
}

/* ---- The serial BFS and the checks --------------------------------------- */

/* The reference: a plain queue BFS, levels set up included (as prism's
 * searches include theirs). Returns the vertices reached, which are
 * queue[0 .. reached) in visiting order. */
static size_t serial_bfs(const prism_csr *g, uint32_t source, int32_t *levels,
                         uint32_t *queue) {
  const uint64_t *rows = g->row_offsets;
  const uint32_t *cols = g->col_indices;
  for (size_t v = 0; v < g->num_vertices; v++)
    levels[v] = -1;
  levels[source] = 0;
  queue[0] = source;
  size_t head = 0, tail = 1;
  while (head < tail) {
    uint32_t u = queue[head++];
    int32_t next = levels[u] + 1;
    for (uint64_t e = rows[u], end = rows[u + 1]; e < end; e++) {
      uint32_t v = cols[e];
      if (levels[v] < 0) {
        levels[v] = next;
        queue[tail++] = v;
      }
    }
  }
  return tail;
}

/* What prism_bfs reports, from the serial search (not timed). */
static prism_bfs_result serial_result(const prism_csr *g, const int32_t *levels,
                                      const uint32_t *queue, size_t reached) {
  prism_bfs_result r;
  r.reached = reached;
  r.levels = (size_t)levels[queue[reached - 1]] + 1;
  r.reached_edges = 0;
  for (size_t i = 0; i < reached; i++)
    r.reached_edges += g->row_offsets[queue[i] + 1] - g->row_offsets[queue[i]];
  return r;
}

static int check_levels(const int32_t *want, const int32_t *got, size_t n,
                        char *msg, size_t msg_size) {
  if (memcmp(want, got, n * sizeof *want) == 0)
    return 1;
  size_t v = 0;
  while (want[v] == got[v])
    v++;
  return say(msg, msg_size, "levels[%zu] = %d, want %d", v, (int)got[v],
             (int)want[v]);
}

static int check_result(const prism_bfs_result *want,
                        const prism_bfs_result *got, char *msg,
                        size_t msg_size) {
  if (got->levels != want->levels)
    return say(msg, msg_size, "result levels = %zu, want %zu", got->levels,
               want->levels);
  if (got->reached != want->reached)
    return say(msg, msg_size, "result reached = %zu, want %zu", got->reached,
               want->reached);
  if (got->reached_edges != want->reached_edges)
    return say(msg, msg_size, "result reached_edges = %zu, want %zu",
               got->reached_edges, want->reached_edges);
  return 1;
}

/* Graph500's check of a BFS tree, given right levels: the source is its
 * own parent, unreached vertices have -1, every other reached vertex a
 * parent one level up joined to it by an edge parent -> v. The edges are
 * found by one pass over the reached rows (found: n bytes of scratch), so
 * a hub that parents most of the graph costs its degree once. */
static int check_parents(const prism_csr *g, uint32_t source,
                         const int32_t *levels, const int32_t *parents,
                         unsigned char *found, char *msg, size_t msg_size) {
  size_t n = g->num_vertices;
  if (parents[source] != (int32_t)source)
    return say(msg, msg_size, "parents[source %u] = %d, want the source",
               source, (int)parents[source]);
  for (size_t v = 0; v < n; v++) {
    int32_t p = parents[v];
    if (levels[v] < 0 && p != -1)
      return say(msg, msg_size, "parents[%zu] = %d for an unreached vertex", v,
                 (int)p);
    if (levels[v] < 0 || v == source)
      continue;
    if (p < 0 || (size_t)p >= n)
      return say(msg, msg_size, "parents[%zu] = %d is not a vertex", v, (int)p);
    if (levels[p] != levels[v] - 1)
      return say(msg, msg_size,
                 "parents[%zu] = %d is at level %d, the vertex at %d", v,
                 (int)p, (int)levels[p], (int)levels[v]);
  }
  memset(found, 0, n);
  for (size_t u = 0; u < n; u++) {
    if (levels[u] < 0)
      continue;
    for (uint64_t e = g->row_offsets[u]; e < g->row_offsets[u + 1]; e++) {
      uint32_t v = g->col_indices[e];
      if (parents[v] == (int32_t)u)
        found[v] = 1;
    }
  }
  for (size_t v = 0; v < n; v++) {
    if (levels[v] > 0 && !found[v])
      return say(msg, msg_size, "parents[%zu] = %d: no edge %d -> %zu", v,
                 (int)parents[v], (int)parents[v], v);
  }
  return 1;
}

/* ---- Timings ------------------------------------------------------------- */

/* One row's searches: each one's time and TEPS. */
typedef struct searches {
  double *seconds, *teps;
  int count;
} searches;

static int searches_init(searches *s, int capacity) {
  s->seconds = malloc((size_t)capacity * sizeof *s->seconds);
  s->teps = malloc((size_t)capacity * sizeof *s->teps);
  s->count = 0;
  return s->seconds && s->teps;
}

static void searches_free(searches *s) {
  free(s->seconds);
  free(s->teps);
}

static void searches_add(searches *s, double seconds, size_t edges) {
  s->seconds[s->count] = seconds;
  s->teps[s->count++] = seconds > 0 ? (double)edges / seconds : 0;
}

static int compare_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The median (sorts x). */
static double median(double *x, int count) {
  qsort(x, (size_t)count, sizeof *x, compare_double);
  return count % 2 ? x[count / 2] : 0.5 * (x[count / 2 - 1] + x[count / 2]);
}

/* Fill row's time and TEPS from the searches (sorts them). The median is
 * the headline, robust to a slow outlier on a shared machine; Graph500
 * reports the harmonic mean of the TEPS, which goes beside it. The spread
 * of the times is the searches' (they start from different vertices). */
static void searches_row(searches *s, report_row *row) {
  bench_timing t;
  double inverse = 0;
  for (int i = 0; i < s->count; i++)
    inverse += 1 / s->teps[i];
  qsort(s->seconds, (size_t)s->count, sizeof *s->seconds, compare_double);
  bench_timing_from_sorted(s->seconds, s->count, &t);
  row->status = REPORT_OK;
  row->seconds = t.median_s;
  row->min_s = t.min_s;
  row->q1_s = t.q1_s;
  row->q3_s = t.q3_s;
  row->max_s = t.max_s;
  row->teps = median(s->teps, s->count);
  row->teps_hmean = s->count / inverse;
  row->reps = s->count;
  row->k = 1;
}

/* ---- One graph on every device ------------------------------------------- */

/* prism on one device. */
typedef struct device_run {
  bench_device *dev;
  prism_graph *graph;
  prism_buffer *levels, *parents;
  searches s;
  int live; /* set up, and every search so far right */
} device_run;

/* A reference: measured, or why not (a row kept for after its device). */
typedef struct reference {
  const char *backend; /* "serial", "naive" */
  char device[NAME_SIZE];
  searches s;
  int used; /* measured for some device of the run */
  report_status status;
  char note[NOTE_SIZE];
} reference;

typedef struct bfs_job {
  bench_run *run;
  const bench_options *opt;
  host_graph g;
  uint32_t *sources;
  int source_count;
  prism_bfs_options options;
  int32_t *want;          /* the serial levels of the current source */
  uint32_t *queue;        /* the serial BFS's */
  int32_t *got;           /* a device's levels, read back */
  int32_t *got_parents;   /* --parents: its tree */
  unsigned char *found;   /* --parents: check_parents's scratch */
  prism_bfs_result truth; /* the serial result of the current source */
  size_t edges;           /* graph500_edges of the current source */
  device_run *devs;
  int dev_count;
  reference serial, naive;
#ifdef PRISM_BENCH_HAVE_CUDA
  bfs_naive *naive_bfs;
#endif
} bfs_job;

static report_row graph_row(const bfs_job *job, const bench_device *dev) {
  report_row row = measure_device_row(dev, "bfs");
  row.graph = job->g.name;
  row.n = job->g.csr.num_vertices;
  row.edges = job->g.edges;
  return row;
}

/* The same row with status and note for every device: the graph could not
 * be built or searched at all. */
static void all_devices_row(bfs_job *job, bench_device *devices, int count,
                            report_status status, const char *note) {
  for (int d = 0; d < count; d++)
    measure_status_row(job->run, graph_row(job, &devices[d]), status, note);
}

#ifdef PRISM_BENCH_HAVE_CUDA /* the naive BFS's failures */
static void reference_fail(reference *r, report_status status, const char *fmt,
                           ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void reference_fail(reference *r, report_status status, const char *fmt,
                           ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->note, sizeof r->note, fmt, ap);
  va_end(ap);
  r->status = status;
}
#endif

/* The graph on each device and its levels (and parents) buffers. */
static void devices_setup(bfs_job *job) {
  size_t bytes = job->g.csr.num_vertices * sizeof(int32_t);
  for (int d = 0; d < job->dev_count; d++) {
    device_run *r = &job->devs[d];
    prism_context *ctx = r->dev->ctx;
    const char *call = "prism_graph_create";
    prism_status st = prism_graph_create(ctx, &job->g.csr, &r->graph);
    if (st == PRISM_OK) {
      call = "prism_buffer_create";
      st = prism_buffer_create(ctx, bytes, &r->levels);
    }
    if (st == PRISM_OK && job->opt->parents)
      st = prism_buffer_create(ctx, bytes, &r->parents);
    if (st != PRISM_OK) {
      measure_failure_row(job->run, r->dev, graph_row(job, r->dev), call, st);
      continue;
    }
    r->live = 1;
  }
}

/* The naive CUDA BFS, where an NVIDIA device is measured. */
static void naive_setup(bfs_job *job) {
  const bench_device *nvidia = NULL;
  for (int d = 0; d < job->dev_count && !nvidia; d++) {
    if (job->devs[d].dev->is_nvidia)
      nvidia = job->devs[d].dev;
  }
  if (!nvidia)
    return;
#ifdef PRISM_BENCH_HAVE_CUDA
  const prism_csr *c = &job->g.csr;
  int device = job->opt->device >= 0 ? job->opt->device : 0;
  reference *r = &job->naive;
  char msg[NOTE_SIZE];
  r->used = 1;
  bfs_naive_status st = bfs_naive_create(
      device, c->num_vertices, c->row_offsets, c->num_edges, c->col_indices,
      &job->naive_bfs, r->device, sizeof r->device, msg, sizeof msg);
  if (st != BFS_NAIVE_OK) {
    reference_fail(r, st == BFS_NAIVE_SKIPPED ? REPORT_SKIP : REPORT_ERROR,
                   "%s", msg);
    return;
  }
  if (strcmp(r->device, nvidia->name) != 0)
    report_note("the naive BFS ran on CUDA device %d (%s), prism on %s: "
                "choose the same with --device",
                device, r->device, nvidia->name);
#else
  report_note("no naive BFS rows: prism-bench was built without CUDA");
#endif
}

/* One naive search from source: timed, checked against the serial levels
 * when timed_search is set (else the warm-up). */
static void naive_search(bfs_job *job, uint32_t source, int timed_search) {
#ifdef PRISM_BENCH_HAVE_CUDA
  reference *r = &job->naive;
  char msg[NOTE_SIZE];
  if (!job->naive_bfs || r->status != REPORT_OK)
    return;
  double start = bench_now();
  bfs_naive_status st = bfs_naive_run(job->naive_bfs, source, msg, sizeof msg);
  double seconds = bench_now() - start;
  if (st == BFS_NAIVE_OK && timed_search)
    st = bfs_naive_levels(job->naive_bfs, job->got, msg, sizeof msg);
  if (st != BFS_NAIVE_OK) {
    reference_fail(r, st == BFS_NAIVE_SKIPPED ? REPORT_SKIP : REPORT_ERROR,
                   "%s", msg);
    return;
  }
  if (!timed_search)
    return;
  if (!check_levels(job->want, job->got, job->g.csr.num_vertices, msg,
                    sizeof msg)) {
    reference_fail(r, REPORT_FAIL, "search from %u: %s", source, msg);
    return;
  }
  searches_add(&r->s, seconds, job->edges);
#else
  (void)job;
  (void)source;
  (void)timed_search;
#endif
}

/* One prism search on a device: timed and checked, or the warm-up. A
 * failure prints the device's row and drops it. */
static void device_search(bfs_job *job, device_run *r, uint32_t source,
                          int timed_search) {
  prism_bfs_result result;
  char msg[NOTE_SIZE], note[NOTE_SIZE + 64];
  size_t n = job->g.csr.num_vertices;
  if (!r->live)
    return;
  double start = bench_now();
  prism_status st = prism_bfs(r->dev->ctx, r->graph, source, r->levels,
                              r->parents, &job->options, &result);
  double seconds = bench_now() - start;
  const char *call = "prism_bfs";
  if (st == PRISM_OK && timed_search) {
    call = "prism_buffer_read";
    st = prism_buffer_read(r->levels, 0, job->got, n * sizeof(int32_t));
    if (st == PRISM_OK && r->parents)
      st = prism_buffer_read(r->parents, 0, job->got_parents,
                             n * sizeof(int32_t));
  }
  if (st != PRISM_OK) {
    measure_failure_row(job->run, r->dev, graph_row(job, r->dev), call, st);
    r->live = 0;
    return;
  }
  if (!timed_search)
    return;
  if (!check_result(&job->truth, &result, msg, sizeof msg) ||
      !check_levels(job->want, job->got, n, msg, sizeof msg) ||
      (r->parents &&
       !check_parents(&job->g.csr, source, job->want, job->got_parents,
                      job->found, msg, sizeof msg))) {
    snprintf(note, sizeof note, "search from %u: %s", source, msg);
    measure_status_row(job->run, graph_row(job, r->dev), REPORT_FAIL, note);
    r->live = 0;
    return;
  }
  searches_add(&r->s, seconds, job->edges);
}

/* Search i: the serial reference first (its levels check the others). */
static void search(bfs_job *job, int i) {
  uint32_t source = job->sources[i];
  double start = bench_now();
  size_t reached = serial_bfs(&job->g.csr, source, job->want, job->queue);
  double seconds = bench_now() - start;
  job->truth = serial_result(&job->g.csr, job->want, job->queue, reached);
  job->edges = graph500_edges(&job->g, job->truth.reached_edges, job->want);
  searches_add(&job->serial.s, seconds, job->edges);
  naive_search(job, source, 1);
  for (int d = 0; d < job->dev_count; d++)
    device_search(job, &job->devs[d], source, 1);
}

/* A reference's row, after the first device it is the reference of. */
static void reference_row(bfs_job *job, reference *r, const bench_device *dev) {
  report_row row = graph_row(job, dev);
  row.backend = r->backend;
  if (r->device[0]) {
    row.device = r->device;
    row.platform = "CUDA";
  }
  if (r->status != REPORT_OK || r->s.count == 0) {
    measure_status_row(job->run, row,
                       r->status != REPORT_OK ? r->status : REPORT_SKIP,
                       r->status != REPORT_OK ? r->note : "no search timed");
    return;
  }
  searches_row(&r->s, &row);
  report_row_print(&row);
}

/* The median TEPS of a reference (its searches sorted already by
 * searches_row or not: the median does not care). */
static double reference_teps(reference *r) {
  if (r->status != REPORT_OK || r->s.count == 0)
    return 0;
  return median(r->s.teps, r->s.count);
}

/* A row per device that searched to the end, each reference's row after
 * the first device it serves. */
static void print_rows(bfs_job *job) {
  int serial_done = 0, naive_done = 0;
  double serial_teps = reference_teps(&job->serial);
  double naive_teps = reference_teps(&job->naive);
  for (int d = 0; d < job->dev_count; d++) {
    device_run *r = &job->devs[d];
    if (r->live) {
      report_row row = graph_row(job, r->dev);
      searches_row(&r->s, &row);
      if (r->dev->is_cpu && serial_teps > 0) {
        row.reference = "serial";
        row.ratio = row.teps / serial_teps;
      }
      if (r->dev->is_nvidia && naive_teps > 0) {
        row.reference = "naive";
        row.ratio = row.teps / naive_teps;
      }
      report_row_print(&row);
    }
    if (r->dev->is_cpu && !serial_done) {
      reference_row(job, &job->serial, r->dev);
      serial_done = 1;
    }
    if (r->dev->is_nvidia && job->naive.used && !naive_done) {
      reference_row(job, &job->naive, r->dev);
      naive_done = 1;
    }
  }
}

/* Host memory for the searches; 0 when out of it. */
static int job_alloc(bfs_job *job) {
  size_t n = job->g.csr.num_vertices;
  int k = job->opt->sources;
  job->sources = malloc((size_t)k * sizeof *job->sources);
  job->want = malloc(n * sizeof *job->want);
  job->queue = malloc(n * sizeof *job->queue);
  job->got = malloc(n * sizeof *job->got);
  if (job->opt->parents) {
    job->got_parents = malloc(n * sizeof *job->got_parents);
    job->found = malloc(n);
  }
  int ok = job->sources && job->want && job->queue && job->got &&
           (!job->opt->parents || (job->got_parents && job->found)) &&
           searches_init(&job->serial.s, k) && searches_init(&job->naive.s, k);
  for (int d = 0; d < job->dev_count; d++)
    ok = searches_init(&job->devs[d].s, k) && ok;
  return ok;
}

static void job_free(bfs_job *job) {
  for (int d = 0; d < job->dev_count; d++) {
    device_run *r = &job->devs[d];
    prism_buffer_destroy(r->parents);
    prism_buffer_destroy(r->levels);
    prism_graph_destroy(r->graph);
    searches_free(&r->s);
  }
#ifdef PRISM_BENCH_HAVE_CUDA
  bfs_naive_destroy(job->naive_bfs);
#endif
  searches_free(&job->naive.s);
  searches_free(&job->serial.s);
  free(job->found);
  free(job->got_parents);
  free(job->got);
  free(job->queue);
  free(job->want);
  free(job->sources);
  free(job->g.loops);
  prism_csr_free(&job->g.csr);
}

/* Build the graph, then measure it everywhere. The job has run, opt,
 * options, the references' names and a device_run per device; the rest
 * zeroed. */
static void measure_graph(bfs_job *job, bench_device *devices, int count,
                          const char *entry) {
  bfs_graph_spec spec;
  char msg[NOTE_SIZE];
  bfs_graph_parse(entry, &spec, msg, sizeof msg); /* checked by options.c */
  graph_name(&spec, job->g.name, sizeof job->g.name);
  prism_status st = graph_build(&spec, job->opt, &job->g.csr, msg, sizeof msg);
  if (st != PRISM_OK) {
    all_devices_row(job, devices, count,
                    st == PRISM_OUT_OF_MEMORY ? REPORT_SKIP : REPORT_ERROR,
                    msg);
    return;
  }
  if (!graph_count_edges(&job->g) || !job_alloc(job)) {
    all_devices_row(job, devices, count, REPORT_SKIP, "host out of memory");
    return;
  }
  job->source_count = draw_sources(&job->g.csr, job->opt->sources,
                                   job->opt->seed, job->sources);
  if (job->source_count <= 0) {
    all_devices_row(job, devices, count, REPORT_SKIP,
                    job->source_count < 0 ? "host out of memory"
                                          : "no vertex has an out-edge");
    return;
  }
  if (job->source_count < job->opt->sources)
    report_note("%s: only %d vertices have out-edges: %d searches", job->g.name,
                job->source_count, job->source_count);

  devices_setup(job);
  naive_setup(job);
  /* Warm-up: a search each, untimed (kernels built, memory touched). */
  naive_search(job, job->sources[0], 0);
  for (int d = 0; d < job->dev_count; d++)
    device_search(job, &job->devs[d], job->sources[0], 0);
  for (int i = 0; i < job->source_count; i++)
    search(job, i);
  print_rows(job);
}

static void bfs_measure_all(bench_run *run, bench_device *devices, int count,
                            const bench_options *opt) {
  prism_bfs_options options;
  prism_bfs_options_init(&options);
  if (opt->alpha >= 0)
    options.alpha = opt->alpha;
  if (opt->beta >= 0)
    options.beta = opt->beta;
  if (opt->alpha >= 0 || opt->beta >= 0)
    report_note("bfs: alpha %g, beta %g (--alpha, --beta)", options.alpha,
                options.beta);
  for (int i = 0; i < opt->graph_count; i++) {
    bfs_job job;
    memset(&job, 0, sizeof job);
    job.run = run;
    job.opt = opt;
    job.options = options;
    job.serial.backend = "serial";
    job.naive.backend = "naive";
    job.devs = calloc((size_t)count, sizeof *job.devs);
    if (job.devs) {
      job.dev_count = count;
      for (int d = 0; d < count; d++)
        job.devs[d].dev = &devices[d];
      measure_graph(&job, devices, count, opt->graphs[i]);
      job_free(&job);
    } else {
      snprintf(job.g.name, sizeof job.g.name, "%s", opt->graphs[i]);
      all_devices_row(&job, devices, count, REPORT_SKIP, "host out of memory");
    }
    free(job.devs);
  }
}

const bench_primitive bench_bfs = {
    .name = "bfs",
    .by_name_only = 1,
    .measure_all = bfs_measure_all,
};
