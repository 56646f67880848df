/* SPDX-License-Identifier: MIT */
/*
 * bfs: prism_bfs timed on graphs, in TEPS as Graph500 counts them: the
 * primitive table's bench_bfs, a loop of its own over --graph.
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
 *
 * Its parts: --graph entries (graph_spec.h), Graph500's sources and edge
 * counts (graph500.h), the rows' statistics (bfs_stats.h), and the serial
 * BFS with its checks (reference/ref_bfs.h).
 */
#include "bfs_stats.h"
#include "graph500.h"
#include "graph_spec.h"
#include "measure.h"
#include "options.h"
#include "primitive.h"
#include "ref_bfs.h"
#include "report.h"
#include "timing.h"

#ifdef PRISM_BENCH_HAVE_CUDA
#include "bfs_naive.h"
#endif

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOTE_SIZE 512
#define NAME_SIZE 256

/* ---- One graph on every device ------------------------------------------- */

/* prism on one device. */
typedef struct device_run {
  bench_device *dev;
  prism_graph *graph;
  prism_buffer *levels, *parents;
  bfs_searches s;
  int live; /* set up, and every search so far right */
} device_run;

/* A reference: measured, or why not (a row kept for after its device). */
typedef struct reference {
  const char *backend; /* "serial", "naive" */
  char device[NAME_SIZE];
  bfs_searches s;
  int used; /* measured for some device of the run */
  report_status status;
  char note[NOTE_SIZE];
} reference;

typedef struct bfs_job {
  bench_run *run;
  const bench_options *opt;
  graph500_graph g;
  char name[OPTIONS_PATH_SIZE]; /* the rows' name of the graph */
  uint32_t *sources;
  int source_count;
  prism_bfs_options options;
  int32_t *want;          /* the serial levels of the current source */
  uint32_t *queue;        /* the serial BFS's */
  int32_t *got;           /* a device's levels, read back */
  int32_t *got_parents;   /* --parents: its tree */
  unsigned char *found;   /* --parents: ref_bfs_check_parents's scratch */
  prism_bfs_result truth; /* the serial result of the current source */
  size_t edges;           /* graph500_search_edges of the current source */
  device_run *devs;
  int dev_count;
  reference serial, naive;
#ifdef PRISM_BENCH_HAVE_CUDA
  bfs_naive *naive_bfs;
#endif
} bfs_job;

static report_row graph_row(const bfs_job *job, const bench_device *dev) {
  report_row row = measure_device_row(dev, "bfs");
  row.graph = job->name;
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
  if (!ref_bfs_check_levels(job->want, job->got, job->g.csr.num_vertices, msg,
                            sizeof msg)) {
    reference_fail(r, REPORT_FAIL, "search from %u: %s", source, msg);
    return;
  }
  bfs_searches_add(&r->s, seconds, job->edges);
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
  if (!ref_bfs_compare_result(&job->truth, &result, msg, sizeof msg) ||
      !ref_bfs_check_levels(job->want, job->got, n, msg, sizeof msg) ||
      (r->parents &&
       !ref_bfs_check_parents(&job->g.csr, source, job->want, job->got_parents,
                              job->found, msg, sizeof msg))) {
    snprintf(note, sizeof note, "search from %u: %s", source, msg);
    measure_status_row(job->run, graph_row(job, r->dev), REPORT_FAIL, note);
    r->live = 0;
    return;
  }
  bfs_searches_add(&r->s, seconds, job->edges);
}

/* Search i: the serial reference first (its levels check the others). */
static void search(bfs_job *job, int i) {
  uint32_t source = job->sources[i];
  double start = bench_now();
  size_t reached = ref_bfs_queue(&job->g.csr, source, job->want, job->queue);
  double seconds = bench_now() - start;
  job->truth =
      ref_bfs_queue_result(&job->g.csr, job->want, job->queue, reached);
  job->edges =
      graph500_search_edges(&job->g, job->truth.reached_edges, job->want);
  bfs_searches_add(&job->serial.s, seconds, job->edges);
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
  bfs_searches_row(&r->s, &row);
  report_row_print(&row);
}

/* The median TEPS of a reference (its searches sorted already by
 * bfs_searches_row or not: the median does not care). */
static double reference_teps(reference *r) {
  if (r->status != REPORT_OK || r->s.count == 0)
    return 0;
  return bfs_searches_median_teps(&r->s);
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
      bfs_searches_row(&r->s, &row);
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
           bfs_searches_init(&job->serial.s, k) &&
           bfs_searches_init(&job->naive.s, k);
  for (int d = 0; d < job->dev_count; d++)
    ok = bfs_searches_init(&job->devs[d].s, k) && ok;
  return ok;
}

static void job_free(bfs_job *job) {
  for (int d = 0; d < job->dev_count; d++) {
    device_run *r = &job->devs[d];
    prism_buffer_destroy(r->parents);
    prism_buffer_destroy(r->levels);
    prism_graph_destroy(r->graph);
    bfs_searches_free(&r->s);
  }
#ifdef PRISM_BENCH_HAVE_CUDA
  bfs_naive_destroy(job->naive_bfs);
#endif
  bfs_searches_free(&job->naive.s);
  bfs_searches_free(&job->serial.s);
  free(job->found);
  free(job->got_parents);
  free(job->got);
  free(job->queue);
  free(job->want);
  free(job->sources);
  graph500_free(&job->g);
}

/* Build the graph, then measure it everywhere. The job has run, opt,
 * options, the references' names and a device_run per device; the rest
 * zeroed. */
static void measure_graph(bfs_job *job, bench_device *devices, int count,
                          const char *entry) {
  bfs_graph_spec spec;
  char msg[NOTE_SIZE];
  bfs_graph_parse(entry, &spec, msg, sizeof msg); /* checked by options.c */
  bfs_graph_name(&spec, job->name, sizeof job->name);
  prism_status st =
      bfs_graph_build(&spec, job->opt, &job->g.csr, msg, sizeof msg);
  if (st != PRISM_OK) {
    all_devices_row(job, devices, count,
                    st == PRISM_OUT_OF_MEMORY ? REPORT_SKIP : REPORT_ERROR,
                    msg);
    return;
  }
  if (!graph500_count_edges(&job->g) || !job_alloc(job)) {
    all_devices_row(job, devices, count, REPORT_SKIP, "host out of memory");
    return;
  }
  job->source_count = graph500_draw_sources(&job->g.csr, job->opt->sources,
                                            job->opt->seed, job->sources);
  if (job->source_count <= 0) {
    all_devices_row(job, devices, count, REPORT_SKIP,
                    job->source_count < 0 ? "host out of memory"
                                          : "no vertex has an out-edge");
    return;
  }
  if (job->source_count < job->opt->sources)
    report_note("%s: only %d vertices have out-edges: %d searches", job->name,
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
      snprintf(job.name, sizeof job.name, "%s", opt->graphs[i]);
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
