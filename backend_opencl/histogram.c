/* SPDX-License-Identifier: MIT */
/*
 * histogram: counts per bin (kernels_cl/histogram.cl, the CPU strategy in
 * histogram_chunks.cl). One strategy per
 * call, chosen by the device policy, the sample size and the bin count:
 * - GPUs: histogram_bytes for 1-byte samples (local counters per byte
 *   value, mapped to bins at the end); otherwise histogram_blocks,
 *   per-work-group counters of one bin range in local memory (split into
 *   up to hist.max_ranges ranges), merged into counts with global atomics,
 *   or histogram_atomic for more bins than that. counts is zeroed first.
 * - CPUs: histogram_chunks, one contiguous chunk per work-item counted into
 *   its own tables in scratch with plain increments, then histogram_merge
 *   writes every counter (1-byte samples: tables per byte value, then
 *   histogram_merge_bytes adds them to zeroed counts); histogram_atomic
 *   (as on GPUs) only when the tables would not fit hist.private_bytes
 *   even for one chunk.
 * Scratch (one prism__scratch call): the edges of a ranged histogram
 * (written with a blocking write, so the caller may reuse them on return),
 * then the chunks' tables.
 */
#include "opencl_internal.h"

#include <stdint.h>
#include <string.h>

/* The bin modes of histogram.cl. */
enum {
  BIN_SHIFT = 0,
  BIN_SHIFT_ALL = 1,
  BIN_DIVIDE = 2,
  BIN_SCALE = 3,
  BIN_FLOAT = 4,
  BIN_SEARCH = 5
};

/* What the kernels take as MAP_PARAMS, at the widths they declare. */
typedef struct hist_map {
  cl_int mode;
  size_t t_bytes, u_bytes; /* T and U (4 or 8) */
  prism_value lower, upper, scale;
  cl_uint span4, width4;  /* U = uint */
  cl_ulong span8, width8; /* U = ulong */
  cl_ulong range;
  cl_uint shift, bins;
} hist_map;

static void map_of(const prism__histogram_args *a, hist_map *m) {
  memset(m, 0, sizeof *m);
  m->t_bytes = prism_type_size(a->sample_type);
  m->u_bytes = m->t_bytes == 8 ? 8 : 4;
  m->bins = (cl_uint)a->bins;
  m->lower = a->lower, m->upper = a->upper, m->scale = a->scale;
  if (a->ranged) {
    m->mode = BIN_SEARCH;
    return;
  }
  if (a->sample_type == PRISM_F32 || a->sample_type == PRISM_F64) {
    m->mode = BIN_FLOAT;
    return;
  }
  const uint64_t u_max = m->u_bytes == 8 ? UINT64_MAX : UINT32_MAX;
  uint64_t width = 0;
  /* A width U cannot hold (2^32 for 32-bit samples: one bin over the
   * whole type) takes the general path. */
  if (a->width != 0 && a->width <= u_max) {
    width = a->width;
    if ((width & (width - 1)) == 0) {
      while (((uint64_t)1 << m->shift) < width)
        m->shift++;
      /* Bounds covering the type: for bytes, span 255 means [0, 256). */
      const int all = a->span == u_max || (m->t_bytes == 1 && a->span == 255);
      m->mode = all ? BIN_SHIFT_ALL : BIN_SHIFT;
    } else {
      m->mode = BIN_DIVIDE;
    }
  } else {
    m->mode = BIN_SCALE;
    m->range = a->span + 1; /* wraps to 0 for 2^64 */
  }
  m->span4 = (cl_uint)a->span, m->span8 = a->span;
  m->width4 = (cl_uint)width, m->width8 = width;
}

/* The strategies' kernel files: histogram.cl (the mapping, blocks, atomic,
 * bytes) and the CPU policy's histogram_chunks.cl, built with histogram.cl
 * ahead. */
#define BLOCKS_FILE "histogram.cl"
#define CHUNKS_FILE "histogram_chunks.cl"

/* The kernels' MAP_PARAMS: mode, lower, upper, scale, span, width,
 * range, shift, bins. */
#define MAP_ARGS 9

/* What every launch of a call passes: its kernels' arguments begin with
 * samples, n, MAP_PARAMS, scratch, edges_offset (histogram_merge_bytes:
 * MAP_PARAMS, scratch, edges_offset). */
typedef struct hist_call {
  prism__cl_arg samples[3]; /* samples (PRISM_BUF: two slots), n */
  prism__cl_arg map[MAP_ARGS];
  prism__cl_arg edges[2]; /* scratch, edges_offset */
} hist_call;

static void map_args(const hist_map *m, prism__cl_arg map[MAP_ARGS]) {
  const int wide = m->u_bytes == 8;
  const prism__cl_arg args[] = {PRISM__CL_ARG(m->mode),
                                {m->t_bytes, &m->lower, 0},
                                {m->t_bytes, &m->upper, 0},
                                {m->t_bytes, &m->scale, 0},
                                wide ? (prism__cl_arg)PRISM__CL_ARG(m->span8)
                                     : (prism__cl_arg)PRISM__CL_ARG(m->span4),
                                wide ? (prism__cl_arg)PRISM__CL_ARG(m->width8)
                                     : (prism__cl_arg)PRISM__CL_ARG(m->width4),
                                PRISM__CL_ARG(m->range),
                                PRISM__CL_ARG(m->shift),
                                PRISM__CL_ARG(m->bins)};
  _Static_assert(sizeof args == MAP_ARGS * sizeof *args, "MAP_PARAMS");
  memcpy(map, args, sizeof args);
}

/* A kernel's arguments, appended piece by piece (ARGS_ADD: every slot of
 * an array); one past capacity leaves the list short, which the launch
 * refuses. */
typedef struct arg_list {
  prism__cl_arg slot[24];
  unsigned count;
} arg_list;

static void args_add(arg_list *l, const prism__cl_arg *a, unsigned n) {
  for (unsigned i = 0; i < n && l->count < PRISM__CL_NARGS(l->slot); i++)
    l->slot[l->count++] = a[i];
}
#define ARGS_ADD(l, a) args_add(l, a, PRISM__CL_NARGS(a))

/* samples, n, MAP_PARAMS, scratch, edges_offset: every kernel's start. */
static arg_list head_args(const hist_call *c) {
  arg_list l = {.count = 0};
  ARGS_ADD(&l, c->samples);
  ARGS_ADD(&l, c->map);
  ARGS_ADD(&l, c->edges);
  return l;
}

static prism_status launch(prism_context *ctx, cl_kernel k, const char *name,
                           const arg_list *l, size_t global, size_t local) {
  return prism__cl_launch(ctx, k, name, l->slot, l->count, global, local);
}

/* Program options: the sample type as T, never remapped to unsigned
 * (prism__cl_options does that for SUM only, so MAX is named), the
 * counters and the shapes. Options that a kernel does not read are given
 * fixed values, so that calls differing only there share programs:
 * histogram_chunks does not read the counter width, and histogram_merge
 * reads nothing else (it is built for u32 samples). scalar: the GPU
 * tiles' scalar build (PRISM_VEC 1), for samples whose view does not
 * start on a 16-byte vector (hist_scalar); the chunks never load
 * vectors. */
static void hist_options(char *buf, size_t size, prism_type sample_type,
                         size_t counter_bytes, size_t wg, unsigned items,
                         unsigned copies, int scalar) {
  const size_t t_bytes = prism_type_size(sample_type);
  prism__cl_options(buf, size, sample_type, PRISM_MAX,
                    "-DPRISM_COUNTER_BYTES=%zu -DPRISM_WG=%zu -DPRISM_VEC=%zu "
                    "-DPRISM_ITEMS=%u -DPRISM_COPIES=%u",
                    counter_bytes, wg, scalar ? 1 : 16 / t_bytes, items,
                    copies);
}

/* Whether the GPU tiles (count_tiles, histogram_bytes) must read the
 * samples one at a time: their 16-byte vector loads need the view to
 * start on 16 bytes. */
static int hist_scalar(const prism__histogram_args *a) {
  return !prism__cl_vec_fits(&a->samples, 1, 16);
}

/* How a call runs, and its scratch. */
typedef struct hist_plan {
  enum { PLAN_BYTES, PLAN_BLOCKS, PLAN_ATOMIC, PLAN_CHUNKS } kind;
  size_t wg;
  unsigned items;
  /* blocks */
  cl_uint ranges, range_bins, replicas;
  size_t hist_bytes, edges_bytes; /* local memory */
  size_t groups;
  /* chunks */
  size_t chunks;
  unsigned copies;
  /* scratch: edges at 0, then tables */
  cl_ulong edges_offset, tables_offset;
  size_t scratch_bytes;
} hist_plan;

static size_t fit_wg(size_t wg, size_t max_wg) {
  while (max_wg && wg > max_wg && wg > 1)
    wg /= 2;
  return wg;
}

/* The private tables: chunks x copies x (bins + 1) 32-bit counters (256
 * for 1-byte samples, counted by value) within hist.private_bytes, each
 * chunk under 2^31 samples; 0 when impossible. */
static int plan_chunks(const prism__cl *cl, const prism__histogram_args *a,
                       hist_plan *p) {
  const prism__cl_policy *pol = &cl->policy;
  const size_t counters =
      prism_type_size(a->sample_type) == 1 ? 256 : (size_t)a->bins + 1;
  const size_t n = a->n, table = counters * sizeof(cl_uint);
  size_t chunks = (size_t)cl->facts.compute_units * pol->hist.chunks_per_cu;
  const size_t worth = (n + pol->hist.chunk_min - 1) / pol->hist.chunk_min;
  if (chunks > worth)
    chunks = worth;
  const size_t least = (n >> 31) + 1;
  if (chunks < least)
    chunks = least;
  unsigned copies = pol->hist.copies ? pol->hist.copies : 1;
  if (copies * table > pol->hist.copies_bytes)
    copies = 1;
  const size_t fit = pol->hist.private_bytes / (copies * table);
  if (chunks > fit)
    chunks = fit;
  if (chunks < least || chunks == 0)
    return 0;
  p->kind = PLAN_CHUNKS;
  p->wg = 1;
  p->chunks = chunks;
  p->copies = copies;
  p->scratch_bytes = (size_t)p->tables_offset + chunks * copies * table;
  return 1;
}

/* Local-memory blocks over at most hist.max_ranges bin ranges; 0 when the
 * bins need more. */
static int plan_blocks(const prism__cl *cl, const prism__histogram_args *a,
                       size_t t_bytes, hist_plan *p) {
  const prism__cl_policy *pol = &cl->policy;
  size_t budget = pol->hist.local_bytes;
  const size_t slack = 1024; /* what the compiler adds */
  if (cl->facts.local_mem &&
      budget > (cl->facts.local_mem > slack ? cl->facts.local_mem - slack : 0))
    budget = cl->facts.local_mem > slack ? cl->facts.local_mem - slack : 0;
  const size_t per_bin = sizeof(cl_uint) + (a->ranged ? t_bytes : 0);
  const size_t fixed = a->ranged ? t_bytes : 0; /* the last edge */
  if (budget <= fixed + per_bin)
    return 0;
  const size_t max_range_bins = (budget - fixed) / per_bin;
  const size_t bins = a->bins;
  size_t ranges = (bins + max_range_bins - 1) / max_range_bins;
  if (ranges > pol->hist.max_ranges)
    return 0;
  const size_t range_bins = (bins + ranges - 1) / ranges;
  ranges = (bins + range_bins - 1) / range_bins; /* none empty */
  size_t replicas = pol->hist.replica_bytes / (range_bins * sizeof(cl_uint));
  const size_t spans = p->wg / 32 ? p->wg / 32 : 1;
  if (replicas > pol->hist.max_replicas)
    replicas = pol->hist.max_replicas;
  if (replicas > spans)
    replicas = spans;
  if (replicas < 1)
    replicas = 1;
  p->kind = PLAN_BLOCKS;
  p->ranges = (cl_uint)ranges;
  p->range_bins = (cl_uint)range_bins;
  p->replicas = (cl_uint)replicas;
  p->hist_bytes = replicas * range_bins * sizeof(cl_uint);
  p->edges_bytes = a->ranged ? (range_bins + 1) * t_bytes : t_bytes;
  size_t wave =
      (size_t)cl->facts.compute_units * pol->hist.groups_per_cu / ranges;
  p->groups = ranges * prism__histogram_slices(wave ? wave : 1, a->n,
                                               p->wg * (size_t)p->items);
  return 1;
}

static void plan_histogram(const prism__cl *cl, const prism__histogram_args *a,
                           const hist_map *m, hist_plan *p) {
  const prism__cl_policy *pol = &cl->policy;
  memset(p, 0, sizeof *p);
  p->edges_offset = 0;
  p->tables_offset =
      a->ranged ? prism__cl_align(((size_t)a->bins + 1) * m->t_bytes) : 0;
  p->scratch_bytes = (size_t)p->tables_offset;
  p->items = m->t_bytes == 1   ? pol->hist.items_1
             : m->t_bytes == 4 ? pol->hist.items_4
                               : pol->hist.items_8;
  const unsigned vec = (unsigned)(16 / m->t_bytes);
  if (p->items < vec)
    p->items = vec;
  p->items -= p->items % vec; /* whole vectors */
  if (pol->hist.private_tables && plan_chunks(cl, a, p))
    return;
  p->wg = fit_wg(pol->hist.wg, cl->facts.max_wg);
  if (!pol->hist.private_tables && m->t_bytes == 1) {
    size_t replicas = p->wg / 32 ? p->wg / 32 : 1;
    if (replicas > pol->hist.max_replicas)
      replicas = pol->hist.max_replicas ? pol->hist.max_replicas : 1;
    p->kind = PLAN_BYTES;
    p->replicas = (cl_uint)replicas;
    p->hist_bytes = replicas * 256 * sizeof(cl_uint);
    p->groups = prism__histogram_slices((size_t)cl->facts.compute_units *
                                            pol->hist.groups_per_cu,
                                        a->n, p->wg * (size_t)p->items);
    return;
  }
  if (!pol->hist.private_tables && plan_blocks(cl, a, m->t_bytes, p))
    return;
  p->kind = PLAN_ATOMIC;
  p->groups = prism__histogram_slices((size_t)cl->facts.compute_units *
                                          pol->hist.groups_per_cu,
                                      a->n, p->wg * (size_t)p->items);
}

/* Zero counts on the queue (every strategy but histogram_merge adds). */
static prism_status zero_counts(prism_context *ctx,
                                const prism__histogram_args *a) {
  const cl_uint zero = 0;
  return prism__backend_opencl.mem_fill(
      ctx, a->counts.native, a->counts.offset, &zero, sizeof zero,
      a->bins * prism_type_size(a->counter_type));
}

/* 1-byte samples after histogram_chunks: each value's total to its bin. */
static prism_status merge_bytes(prism_context *ctx,
                                const prism__histogram_args *a,
                                const hist_plan *p, const hist_call *c) {
  char options[320];
  cl_kernel merge;
  hist_options(options, sizeof options, a->sample_type,
               prism_type_size(a->counter_type), 1, p->items, p->copies, 0);
  prism_status st = zero_counts(ctx, a);
  if (st == PRISM_OK)
    st = prism__cl_kernel(ctx, CHUNKS_FILE, options, "histogram_merge_bytes",
                          &merge);
  if (st != PRISM_OK)
    return st;
  const cl_uint tables = (cl_uint)(p->chunks * p->copies);
  arg_list l = {.count = 0};
  ARGS_ADD(&l, c->map);
  ARGS_ADD(&l, c->edges);
  const prism__cl_arg own[] = {PRISM__CL_ARG(p->tables_offset),
                               PRISM__CL_ARG(tables), PRISM__CL_MEM(a->counts)};
  ARGS_ADD(&l, own);
  return launch(ctx, merge, "histogram_merge_bytes", &l, 1, 1);
}

static prism_status run_chunks(prism_context *ctx,
                               const prism__histogram_args *a,
                               const hist_map *m, const hist_plan *p,
                               const hist_call *c, cl_mem scratch) {
  const prism__cl_policy *pol = &prism__cl_of(ctx)->policy;
  char options[320];
  cl_kernel chunks, merge;
  hist_options(options, sizeof options, a->sample_type, 4, 1, p->items,
               p->copies, 0);
  prism_status st =
      prism__cl_kernel(ctx, CHUNKS_FILE, options, "histogram_chunks", &chunks);
  if (st != PRISM_OK)
    return st;
  const cl_ulong chunk = (a->n + p->chunks - 1) / p->chunks;
  arg_list l = head_args(c);
  const prism__cl_arg own[] = {PRISM__CL_ARG(chunk),
                               PRISM__CL_ARG(p->tables_offset)};
  ARGS_ADD(&l, own);
  st = launch(ctx, chunks, "histogram_chunks", &l, p->chunks, 1);
  if (st != PRISM_OK)
    return st;
  if (m->t_bytes == 1)
    return merge_bytes(ctx, a, p, c);

  const size_t wg = fit_wg(pol->hist.merge_wg, prism__cl_of(ctx)->facts.max_wg);
  hist_options(options, sizeof options, PRISM_U32,
               prism_type_size(a->counter_type), wg, 4, 1, 0);
  if ((st = prism__cl_kernel(ctx, CHUNKS_FILE, options, "histogram_merge",
                             &merge)) != PRISM_OK)
    return st;
  const cl_uint tables = (cl_uint)(p->chunks * p->copies);
  const prism__cl_arg merge_args[] = {
      PRISM__CL_ARG(scratch), PRISM__CL_ARG(p->tables_offset),
      PRISM__CL_ARG(tables), PRISM__CL_ARG(m->bins), PRISM__CL_MEM(a->counts)};
  const size_t global = ((size_t)a->bins + wg - 1) / wg * wg;
  return PRISM__CL_LAUNCH(ctx, merge, "histogram_merge", merge_args, global,
                          wg);
}

static prism_status run_atomics(prism_context *ctx,
                                const prism__histogram_args *a,
                                const hist_plan *p, const hist_call *c) {
  const size_t counter_bytes = prism_type_size(a->counter_type);
  prism_status st = zero_counts(ctx, a);
  if (st != PRISM_OK)
    return st;
  char options[320];
  hist_options(options, sizeof options, a->sample_type, counter_bytes, p->wg,
               p->items, 1, hist_scalar(a));
  cl_kernel kernel;
  arg_list l = head_args(c);
  const size_t global = p->groups * p->wg;
  if (p->kind == PLAN_BYTES) {
    if ((st = prism__cl_kernel(ctx, BLOCKS_FILE, options, "histogram_bytes",
                               &kernel)) != PRISM_OK)
      return st;
    const prism__cl_arg own[] = {PRISM__CL_ARG(p->replicas),
                                 PRISM__CL_MEM(a->counts),
                                 {p->hist_bytes, NULL, 0}}; /* __local hist */
    ARGS_ADD(&l, own);
    return launch(ctx, kernel, "histogram_bytes", &l, global, p->wg);
  }
  if (p->kind == PLAN_ATOMIC) {
    if ((st = prism__cl_kernel(ctx, BLOCKS_FILE, options, "histogram_atomic",
                               &kernel)) != PRISM_OK)
      return st;
    const prism__cl_arg own[] = {PRISM__CL_MEM(a->counts)};
    ARGS_ADD(&l, own);
    return launch(ctx, kernel, "histogram_atomic", &l, global, p->wg);
  }
  if ((st = prism__cl_kernel(ctx, BLOCKS_FILE, options, "histogram_blocks",
                             &kernel)) != PRISM_OK)
    return st;
  const prism__cl_arg own[] = {
      PRISM__CL_ARG(p->range_bins), PRISM__CL_ARG(p->ranges),
      PRISM__CL_ARG(p->replicas),   PRISM__CL_MEM(a->counts),
      {p->hist_bytes, NULL, 0},   /* __local hist */
      {p->edges_bytes, NULL, 0}}; /* __local edges */
  ARGS_ADD(&l, own);
  return launch(ctx, kernel, "histogram_blocks", &l, global, p->wg);
}

prism_status prism__cl_histogram(prism_context *ctx,
                                 const prism__histogram_args *args) {
  prism__cl *cl = prism__cl_of(ctx);
  hist_map m;
  map_of(args, &m);
  hist_plan plan;
  plan_histogram(cl, args, &m, &plan);

  void *native = NULL;
  prism_status st = prism__scratch(ctx, plan.scratch_bytes, &native);
  if (st != PRISM_OK)
    return st;
  cl_mem scratch = (cl_mem)native;
  if (args->ranged && (st = prism__backend_opencl.mem_write(
                           ctx, scratch, (size_t)plan.edges_offset, args->edges,
                           ((size_t)args->bins + 1) * m.t_bytes)) != PRISM_OK)
    return st;

  const cl_ulong n = args->n;
  hist_call c = {
      .samples = {PRISM__CL_MEM(args->samples), PRISM__CL_ARG(n)},
      .edges = {PRISM__CL_ARG(scratch), PRISM__CL_ARG(plan.edges_offset)}};
  map_args(&m, c.map);
  if (plan.kind == PLAN_CHUNKS)
    return run_chunks(ctx, args, &m, &plan, &c, scratch);
  return run_atomics(ctx, args, &plan, &c);
}
