/* SPDX-License-Identifier: MIT */
/*
 * Graph generators: RMAT / Kronecker as Graph500 specifies it, 2-D grid,
 * path and star. All are undirected with each row sorted by neighbour.
 *
 * RMAT is built for the bench's sizes (scale 22: 4M vertices, 64M edges,
 * in a few seconds), in four phases over host threads:
 *   1 draw     each thread draws a contiguous range of edges and counts the
 *              directed edges (u -> v and v -> u, a self loop once) falling
 *              in each bucket of 2^RMAT_BUCKET_BITS source vertices;
 *   2 place    an exclusive scan over (bucket, thread) gives every thread its
 *              own write position in each bucket;
 *   3 scatter  each thread writes its directed edges, grouped by bucket;
 *   4 rows     each bucket (a few thousand vertices, its offsets in cache)
 *              is counted, scattered into its rows and the rows sorted.
 * No atomics on the edge path, and each edge's random words come from a
 * counter (seed, edge index), so the graph is the same for any number of
 * threads and on every platform (integer arithmetic only).
 * Memory while it runs: about 24 bytes per generated edge; the generated
 * edge pairs become col_indices in place.
 */
#define _GNU_SOURCE /* sched_getaffinity */
#include "csr.h"
#include "error.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- Host threads -------------------------------------------------------- */

#define GEN_MAX_THREADS 64
/* Fewer generated edges than this per thread are not worth a thread. */
#define GEN_EDGES_PER_THREAD ((uint64_t)1 << 16)

static int gen_cpus(void) {
  int cpus = 0;
#ifdef CPU_COUNT
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    cpus = CPU_COUNT(&set);
#endif
  if (cpus < 1) {
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    cpus = online > 0
               ? (int)(online < GEN_MAX_THREADS ? online : GEN_MAX_THREADS)
               : 1;
  }
  return cpus < GEN_MAX_THREADS ? cpus : GEN_MAX_THREADS;
}

typedef struct gen_worker {
  void (*fn)(void *arg, int t);
  void *arg;
  int t;
} gen_worker;

static void *gen_worker_main(void *p) {
  gen_worker *w = p;
  w->fn(w->arg, w->t);
  return NULL;
}

/* fn(arg, t) for t in [0, threads), concurrently where threads start; a part
 * whose thread cannot start runs on the caller afterwards (parts are
 * independent within a phase). Returns when all are done. */
static void gen_parallel(int threads, void (*fn)(void *arg, int t), void *arg) {
  pthread_t tid[GEN_MAX_THREADS];
  gen_worker w[GEN_MAX_THREADS];
  int started[GEN_MAX_THREADS] = {0};
  for (int t = 1; t < threads; t++) {
    w[t] = (gen_worker){fn, arg, t};
    started[t] = pthread_create(&tid[t], NULL, gen_worker_main, &w[t]) == 0;
  }
  fn(arg, 0);
  for (int t = 1; t < threads; t++) {
    if (started[t])
      pthread_join(tid[t], NULL);
    else
      fn(arg, t);
  }
}

/* ---- Row sort ------------------------------------------------------------ */

#define SORT_INSERTION_MAX 64

static void sort_insertion(uint32_t *a, size_t len) {
  for (size_t i = 1; i < len; i++) {
    uint32_t x = a[i];
    size_t j = i;
    while (j > 0 && a[j - 1] > x) {
      a[j] = a[j - 1];
      j--;
    }
    a[j] = x;
  }
}

/* Ascending sort of a[0..len) whose values are below 2^bits: insertion for
 * short rows, else LSD radix with byte digits (passes where every value has
 * the same digit are skipped). tmp holds len values. */
static void sort_row(uint32_t *a, size_t len, uint32_t *tmp, unsigned bits) {
  if (len <= SORT_INSERTION_MAX) {
    sort_insertion(a, len);
    return;
  }
  unsigned passes = (bits + 7) / 8;
  size_t count[4][256];
  memset(count, 0, sizeof count);
  for (size_t i = 0; i < len; i++)
    for (unsigned p = 0; p < passes; p++)
      count[p][(a[i] >> (8 * p)) & 0xFF]++;
  uint32_t *src = a, *dst = tmp;
  for (unsigned p = 0; p < passes; p++) {
    size_t *c = count[p];
    if (c[(src[0] >> (8 * p)) & 0xFF] == len)
      continue;
    size_t sum = 0;
    for (int d = 0; d < 256; d++) {
      size_t k = c[d];
      c[d] = sum;
      sum += k;
    }
    for (size_t i = 0; i < len; i++)
      dst[c[(src[i] >> (8 * p)) & 0xFF]++] = src[i];
    uint32_t *swap = src;
    src = dst;
    dst = swap;
  }
  if (src != a)
    memcpy(a, src, len * sizeof *a);
}

/* ---- RMAT ---------------------------------------------------------------- */

/* Graph500's initiator A, B, C (D = 0.05) as thresholds on a uniform 32-bit
 * word: round(0.57 * 2^32), round(0.76 * 2^32), round(0.95 * 2^32). The
 * quadrant (row bit, column bit) is (0,0) below A, (0,1) below A+B, (1,0)
 * below A+B+C, else (1,1). */
#define RMAT_A 2448131359u
#define RMAT_AB 3264175145u
#define RMAT_ABC 4080218931u

/* Source vertices per bucket of phases 2-4: their offsets and cursors stay
 * in cache while a bucket is built. */
#define RMAT_BUCKET_BITS 12

#define GOLDEN_GAMMA 0x9E3779B97F4A7C15ull

/* SplitMix64's finaliser: word c of the stream is mix64(key + c * gamma). */
static uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static uint64_t bit_reverse64(uint64_t x) {
  x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
  x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
  x = ((x >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((x & 0x0F0F0F0F0F0F0F0Full) << 4);
  x = ((x >> 8) & 0x00FF00FF00FF00FFull) | ((x & 0x00FF00FF00FF00FFull) << 8);
  x = ((x >> 16) & 0x0000FFFF0000FFFFull) | ((x & 0x0000FFFF0000FFFFull) << 16);
  return (x >> 32) | (x << 32);
}

/* Graph500's vertex scrambling: a bijection of [0, 2^scale) (an odd
 * multiply keeps the low bits a bijection, the reversal moves them up). */
static uint64_t rmat_scramble(uint64_t v, unsigned scale, uint64_t s0,
                              uint64_t s1) {
  v += s0 + s1;
  v *= s0 | 0x4519840211493211ull;
  v = bit_reverse64(v) >> (64 - scale);
  v *= s1 | 0x3050852102C843A5ull;
  v = bit_reverse64(v) >> (64 - scale);
  return v;
}

typedef struct rmat_job {
  unsigned scale;
  uint64_t key, s0, s1; /* stream key and scrambling words, from the seed */
  uint64_t m0;          /* generated (undirected) edges */
  size_t n, buckets;
  int threads;
  uint32_t *pairs;        /* m0 x (u, v); later col_indices */
  uint64_t *count;        /* threads x buckets: edges, then write positions */
  uint64_t *bucket_start; /* buckets + 1 */
  uint64_t *edges;        /* directed edges by bucket: src << 32 | dst */
  uint64_t *cursors;      /* threads x 2^RMAT_BUCKET_BITS */
  uint64_t *offsets;
  unsigned next_bucket; /* phase 4 ticket */
} rmat_job;

static void rmat_range(const rmat_job *job, int t, uint64_t *begin,
                       uint64_t *end) {
  uint64_t q = job->m0 / (uint64_t)job->threads;
  uint64_t r = job->m0 % (uint64_t)job->threads;
  uint64_t ut = (uint64_t)t;
  *begin = q * ut + (ut < r ? ut : r);
  *end = *begin + q + (ut < r);
}

/* Thread t's counter for the bucket of source vertex v (each thread's row
 * of counters is its own: no false sharing). */
static uint64_t *rmat_counter(const rmat_job *job, int t, uint32_t v) {
  return &job->count[(size_t)t * job->buckets + (v >> RMAT_BUCKET_BITS)];
}

/* One level of the recursion from a uniform 32-bit word x: the row bit is
 * x >= A+B; the column bit is set in quadrants B and D. */
#define RMAT_LEVEL(x, u, v)                                                    \
  do {                                                                         \
    uint32_t x_ = (x);                                                         \
    uint64_t a_ = x_ >= RMAT_A, b_ = x_ >= RMAT_AB, c_ = x_ >= RMAT_ABC;       \
    (u) = (u) << 1 | b_;                                                       \
    (v) = (v) << 1 | (a_ ^ b_ ^ c_);                                           \
  } while (0)

/* Edge k: scale levels from words k * words, k * words + 1, ... of the
 * stream (two levels a word, low half first), then scrambled. */
static void rmat_edge(const rmat_job *job, uint64_t k, uint32_t *u_out,
                      uint32_t *v_out) {
  unsigned scale = job->scale, level = 0;
  uint64_t u = 0, v = 0, ctr = k * ((scale + 1) / 2);
  for (; level + 2 <= scale; level += 2, ctr++) {
    uint64_t r = mix64(job->key + ctr * GOLDEN_GAMMA);
    RMAT_LEVEL((uint32_t)r, u, v);
    RMAT_LEVEL((uint32_t)(r >> 32), u, v);
  }
  if (level < scale)
    RMAT_LEVEL((uint32_t)mix64(job->key + ctr * GOLDEN_GAMMA), u, v);
  if (scale > 0) {
    u = rmat_scramble(u, scale, job->s0, job->s1);
    v = rmat_scramble(v, scale, job->s0, job->s1);
  }
  *u_out = (uint32_t)u;
  *v_out = (uint32_t)v;
}

/* Phase 1: draw edges [begin, end) and count directed edges per bucket. */
static void rmat_draw(void *arg, int t) {
  rmat_job *job = arg;
  uint64_t begin, end;
  rmat_range(job, t, &begin, &end);
  for (uint64_t k = begin; k < end; k++) {
    uint32_t u, v;
    rmat_edge(job, k, &u, &v);
    job->pairs[2 * k] = u;
    job->pairs[2 * k + 1] = v;
    (*rmat_counter(job, t, u))++;
    if (u != v)
      (*rmat_counter(job, t, v))++;
  }
}

/* Phase 3: each directed edge to its thread's place in its bucket. */
static void rmat_scatter(void *arg, int t) {
  rmat_job *job = arg;
  uint64_t *edges = job->edges;
  uint64_t begin, end;
  rmat_range(job, t, &begin, &end);
  for (uint64_t k = begin; k < end; k++) {
    uint32_t u = job->pairs[2 * k], v = job->pairs[2 * k + 1];
    edges[(*rmat_counter(job, t, u))++] = (uint64_t)u << 32 | v;
    if (u != v)
      edges[(*rmat_counter(job, t, v))++] = (uint64_t)v << 32 | u;
  }
}

/* Phase 4, one bucket: offsets of its vertices, then their rows, sorted.
 * Its run of job->edges is free once scattered: the sort's scratch. */
static void rmat_bucket_rows(rmat_job *job, size_t b, uint64_t *cursor) {
  size_t lo = b << RMAT_BUCKET_BITS;
  size_t hi = lo + ((size_t)1 << RMAT_BUCKET_BITS);
  if (hi > job->n)
    hi = job->n;
  uint64_t first = job->bucket_start[b], last = job->bucket_start[b + 1];
  uint32_t *col = job->pairs;
  memset(cursor, 0, (hi - lo) * sizeof *cursor);
  for (uint64_t e = first; e < last; e++)
    cursor[(job->edges[e] >> 32) - lo]++;
  uint64_t pos = first;
  for (size_t v = lo; v < hi; v++) {
    uint64_t deg = cursor[v - lo];
    job->offsets[v] = pos;
    cursor[v - lo] = pos;
    pos += deg;
  }
  for (uint64_t e = first; e < last; e++)
    col[cursor[(job->edges[e] >> 32) - lo]++] = (uint32_t)job->edges[e];
  uint32_t *scratch = (uint32_t *)(job->edges + first);
  for (size_t v = lo; v < hi; v++) {
    uint64_t begin = job->offsets[v],
             end = v + 1 < hi ? job->offsets[v + 1] : last;
    sort_row(col + begin, (size_t)(end - begin), scratch, job->scale);
  }
}

static void rmat_rows(void *arg, int t) {
  rmat_job *job = arg;
  uint64_t *cursor = job->cursors + ((size_t)t << RMAT_BUCKET_BITS);
  for (;;) {
    size_t b = __atomic_fetch_add(&job->next_bucket, 1u, __ATOMIC_RELAXED);
    if (b >= job->buckets)
      return;
    rmat_bucket_rows(job, b, cursor);
  }
}

static void rmat_free(rmat_job *job) {
  free(job->pairs);
  free(job->count);
  free(job->bucket_start);
  free(job->edges);
  free(job->cursors);
  free(job->offsets);
}

static prism_status rmat_oom(rmat_job *job, const char *what) {
  rmat_free(job);
  return prism__fail(NULL, PRISM_OUT_OF_MEMORY,
                     "prism_csr_rmat: cannot allocate %s (scale %u, %llu "
                     "generated edges)",
                     what, job->scale, (unsigned long long)job->m0);
}

/* Phase 2: write positions per (bucket, thread), bucket starts; returns
 * the number of directed edges. */
static uint64_t rmat_place(rmat_job *job) {
  uint64_t sum = 0;
  size_t threads = (size_t)job->threads;
  for (size_t b = 0; b < job->buckets; b++) {
    job->bucket_start[b] = sum;
    for (size_t t = 0; t < threads; t++) {
      uint64_t *c = &job->count[t * job->buckets + b];
      uint64_t k = *c;
      *c = sum;
      sum += k;
    }
  }
  job->bucket_start[job->buckets] = sum;
  return sum;
}

prism_status prism_csr_rmat(unsigned scale, unsigned edge_factor, uint64_t seed,
                            prism_csr *out) {
  static const char fn[] = "prism_csr_rmat";
  if (!out)
    return prism__fail(NULL, PRISM_NULL_POINTER, "%s: out is NULL", fn);
  memset(out, 0, sizeof *out);
  if (scale > 31)
    return prism__fail(NULL, PRISM_INVALID_ARGUMENT,
                       "%s: scale = %u; at most 31 (2^scale vertices must be "
                       "below 2^32)",
                       fn, scale);
  rmat_job job;
  memset(&job, 0, sizeof job);
  job.scale = scale;
  job.m0 = (uint64_t)edge_factor << scale;
  job.n = (size_t)1 << scale;
  if (job.m0 > SIZE_MAX / 32)
    return prism__fail(NULL, PRISM_OUT_OF_MEMORY,
                       "%s: %llu edges do not fit in memory", fn,
                       (unsigned long long)job.m0);
  job.key = mix64(seed ^ 0x524D4154475241ull); /* "RMATGRA" */
  job.s0 = mix64(job.key + GOLDEN_GAMMA);
  job.s1 = mix64(job.key + 2 * GOLDEN_GAMMA);
  job.buckets = ((job.n - 1) >> RMAT_BUCKET_BITS) + 1;
  uint64_t threads = job.m0 / GEN_EDGES_PER_THREAD + 1;
  job.threads = threads < (uint64_t)gen_cpus() ? (int)threads : gen_cpus();

  size_t m0 = (size_t)job.m0;
  job.pairs = malloc((m0 ? m0 : 1) * 2 * sizeof *job.pairs);
  job.count = calloc(job.buckets * (size_t)job.threads, sizeof *job.count);
  job.bucket_start = malloc((job.buckets + 1) * sizeof *job.bucket_start);
  job.cursors =
      malloc(((size_t)job.threads << RMAT_BUCKET_BITS) * sizeof *job.cursors);
  job.offsets = malloc((job.n + 1) * sizeof *job.offsets);
  if (!job.pairs || !job.count || !job.bucket_start || !job.cursors ||
      !job.offsets)
    return rmat_oom(&job, "the edge list");
  gen_parallel(job.threads, rmat_draw, &job);
  uint64_t m = rmat_place(&job);
  job.edges = malloc((m ? m : 1) * sizeof *job.edges);
  if (!job.edges)
    return rmat_oom(&job, "the directed edges");
  gen_parallel(job.threads, rmat_scatter, &job);
  gen_parallel(job.threads, rmat_rows, &job);
  job.offsets[job.n] = m;

  /* The pairs' 8 bytes per generated edge hold the 4 per directed edge. */
  uint32_t *col = realloc(job.pairs, (m ? m : 1) * sizeof *col);
  out->num_vertices = job.n;
  out->num_edges = (size_t)m;
  out->row_offsets = job.offsets;
  out->col_indices = col ? col : job.pairs;
  out->directed = 0;
  job.pairs = NULL;
  job.offsets = NULL;
  rmat_free(&job);
  return PRISM_OK;
}

/* ---- Grid, path, star ---------------------------------------------------- */

static prism_status check_vertices(size_t n, const char *fn, const char *arg) {
  if (n == 0)
    return prism__fail(NULL, PRISM_INVALID_ARGUMENT,
                       "%s: %s is 0; a graph needs at least one vertex", fn,
                       arg);
  if (n > PRISM__CSR_MAX_VERTICES)
    return prism__fail(NULL, PRISM_INVALID_ARGUMENT,
                       "%s: %s = %zu vertices; must be below 2^32", fn, arg, n);
  return PRISM_OK;
}

/* *out zeroed; then n (the size named arg) checked and the arrays of n
 * vertices and m edges allocated. */
static prism_status gen_alloc(prism_csr *out, size_t n, size_t m,
                              const char *fn, const char *arg) {
  if (!out)
    return prism__fail(NULL, PRISM_NULL_POINTER, "%s: out is NULL", fn);
  memset(out, 0, sizeof *out);
  prism_status st = check_vertices(n, fn, arg);
  return st != PRISM_OK ? st : prism__csr_alloc(n, m, 0, fn, out);
}

prism_status prism_csr_grid(size_t width, size_t height, prism_csr *out) {
  static const char fn[] = "prism_csr_grid";
  if (!out)
    return prism__fail(NULL, PRISM_NULL_POINTER, "%s: out is NULL", fn);
  memset(out, 0, sizeof *out);
  prism_status st;
  if ((st = check_vertices(width, fn, "width")) != PRISM_OK ||
      (st = check_vertices(height, fn, "height")) != PRISM_OK)
    return st;
  if (width > PRISM__CSR_MAX_VERTICES / height)
    return prism__fail(NULL, PRISM_INVALID_ARGUMENT,
                       "%s: width x height = %zu x %zu; must be below 2^32 "
                       "vertices",
                       fn, width, height);
  size_t n = width * height;
  size_t m = 2 * ((width - 1) * height + width * (height - 1));
  if ((st = gen_alloc(out, n, m, fn, "width x height")) != PRISM_OK)
    return st;
  uint64_t *off = out->row_offsets;
  uint32_t *col = out->col_indices;
  size_t e = 0;
  for (size_t y = 0; y < height; y++)
    for (size_t x = 0; x < width; x++) {
      size_t v = y * width + x;
      off[v] = e;
      if (y > 0)
        col[e++] = (uint32_t)(v - width);
      if (x > 0)
        col[e++] = (uint32_t)(v - 1);
      if (x + 1 < width)
        col[e++] = (uint32_t)(v + 1);
      if (y + 1 < height)
        col[e++] = (uint32_t)(v + width);
    }
  off[n] = e;
  return PRISM_OK;
}

prism_status prism_csr_path(size_t n, prism_csr *out) {
  prism_status st =
      gen_alloc(out, n, n ? 2 * (n - 1) : 0, "prism_csr_path", "n");
  if (st != PRISM_OK)
    return st;
  size_t e = 0;
  for (size_t v = 0; v < n; v++) {
    out->row_offsets[v] = e;
    if (v > 0)
      out->col_indices[e++] = (uint32_t)(v - 1);
    if (v + 1 < n)
      out->col_indices[e++] = (uint32_t)(v + 1);
  }
  out->row_offsets[n] = e;
  return PRISM_OK;
}

prism_status prism_csr_star(size_t n, prism_csr *out) {
  prism_status st =
      gen_alloc(out, n, n ? 2 * (n - 1) : 0, "prism_csr_star", "n");
  if (st != PRISM_OK)
    return st;
  /* Row 0 holds the n - 1 leaves; row i > 0 holds the hub. */
  out->row_offsets[0] = 0;
  for (size_t v = 1; v < n; v++) {
    out->col_indices[v - 1] = (uint32_t)v;
    out->row_offsets[v] = (n - 1) + (v - 1);
    out->col_indices[(n - 1) + (v - 1)] = 0;
  }
  out->row_offsets[n] = 2 * (n - 1);
  return PRISM_OK;
}
