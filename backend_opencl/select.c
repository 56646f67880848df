/* SPDX-License-Identifier: MIT */
/*
 * select: stream compaction (select_flagged, select_if, partitions,
 * unique), two strategies chosen by the device policy (kernels_cl/select.cl
 * and the strategies' select_lookback.cl and select_chunks.cl say what
 * each kernel does):
 * - Look-back (GPUs): lookback_init + select_lookback, one pass; partitions
 *   count first (select_count + select_offsets); small n:
 *   select_single_block, one launch.
 * - Chunks (CPUs): select_count + select_offsets + select_chunks over a
 *   few long contiguous chunks; small n: select_chunks alone.
 * The kept count goes to count_out when given, else to a scratch word the
 * host reads when it asked for the count. Scratch comes from the context
 * pool, carved with byte offsets passed as kernel arguments.
 */
#include "opencl_internal.h"

#include <stdint.h>
#include <string.h>

/* Scratch words ahead of the per-group or per-tile arrays (bytes). */
#define SCRATCH_TICKET 0 /* uint: look-back tile ticket */
#define SCRATCH_KEPT 8   /* ulong: a partition's kept count k */
#define SCRATCH_COUNT 16 /* ulong: the count for the host */
#define SCRATCH_ARRAYS PRISM_CL_SCRATCH_ALIGN

/* What every strategy passes: buffers, the predicate, where the count
 * goes. */
typedef struct select_plan {
  const prism__select_args *args;
  size_t elem;
  prism__cl_arg a, b; /* the predicate's constants, as wide as T */
  cl_uint keep, range;
  cl_mem scratch;
  prism__mem count; /* count_out, or scratch (SCRATCH_COUNT), or NULL */
  cl_uint count_wanted;
} select_plan;

/*
 * The predicate as select.cl's truth table: bit outcome of keep says
 * whether outcome = (x < a) | (x == a) << 1 | (x > a) << 2 keeps x (0:
 * unordered, a NaN). IN_RANGE also needs x <= b.
 */
static cl_uint keep_table(prism_compare compare) {
  static const cl_uint keep[] = {
      1u << 1,                     /* LESS */
      1u << 1 | 1u << 2,           /* LESS_EQUAL */
      1u << 4,                     /* GREATER */
      1u << 2 | 1u << 4,           /* GREATER_EQUAL */
      1u << 2,                     /* EQUAL */
      1u << 0 | 1u << 1 | 1u << 4, /* NOT_EQUAL */
      1u << 2 | 1u << 4,           /* IN_RANGE: a <= x, and x <= b */
  };
  return keep[compare];
}

/* Program options: T as the kernels see it (the type itself where values
 * are compared by order or as floats, else raw bits of its width), the
 * rule, the flags' width, the shape. */
static void select_options(char *buf, size_t size, const prism__select_args *a,
                           size_t wg, unsigned items, unsigned window) {
  static const char *const mode[] = {"FLAGGED", "IF", "UNIQUE"};
  const size_t elem = prism_type_size(a->type);
  const prism_type bits = elem == 1   ? PRISM_U8
                          : elem == 4 ? PRISM_U32
                                      : PRISM_U64;
  const int is_float = a->type == PRISM_F32 || a->type == PRISM_F64;
  prism_type type = a->type;
  if (a->mode == PRISM__SELECT_FLAGGED ||
      (a->mode == PRISM__SELECT_UNIQUE && !is_float))
    type = bits;
  const size_t flag_bytes =
      a->mode == PRISM__SELECT_FLAGGED ? prism_type_size(a->flag_type) : 1;
  const char *flag = flag_bytes == 1 ? "U8" : flag_bytes == 4 ? "U32" : "U64";
  /* The operator is unused; MIN keeps signed types signed (prism__cl_options
   * turns signed SUMs unsigned). */
  prism__cl_options(buf, size, type, PRISM_MIN,
                    "-DPRISM_WG=%zu -DPRISM_SELECT_%s -DPRISM_FLAG_%s "
                    "-DPRISM_PARTITION=%d -DPRISM_ITEMS=%u "
                    "-DPRISM_LB_WINDOW=%u",
                    wg, mode[a->mode], flag, a->partition ? 1 : 0, items,
                    window);
}

/* Fill the plan and take scratch_bytes of scratch (at least the words). */
static prism_status plan_select(prism_context *ctx, const prism__select_args *a,
                                size_t scratch_bytes, select_plan *p) {
  memset(p, 0, sizeof *p);
  p->args = a;
  p->elem = prism_type_size(a->type);
  p->a.size = p->b.size = p->elem;
  p->a.value = &a->predicate.a; /* the union's member of type T */
  p->b.value = &a->predicate.b;
  p->keep = keep_table(a->predicate.compare);
  p->range = a->predicate.compare == PRISM_IN_RANGE;
  void *native;
  prism_status st = prism__scratch(ctx, scratch_bytes, &native);
  if (st != PRISM_OK)
    return st;
  p->scratch = (cl_mem)native;
  p->count_wanted = a->count_out.native || a->count;
  p->count = a->count_out.native ? a->count_out
             : a->count          ? prism__cl_mem_at(p->scratch, SCRATCH_COUNT)
                                 : a->count_out;
  return PRISM_OK;
}

/* The strategies' kernel files; select.cl, which holds the count passes,
 * is built ahead of each. */
#define LOOKBACK_FILE "select_lookback.cl"
#define CHUNKS_FILE "select_chunks.cl"

/* select_count over groups ranges of range_len elements, in work-groups of
 * wg, then select_offsets (from the strategy's file, with options): starts
 * in the counts array, k in the kept word and, when count_to_dst, at the
 * count's destination. */
static prism_status count_ranges(prism_context *ctx, const select_plan *p,
                                 const char *file, const char *options,
                                 size_t wg, size_t groups, size_t range_len,
                                 int count_to_dst) {
  cl_kernel count, offsets;
  prism_status st =
      prism__cl_kernel(ctx, file, options, "select_count", &count);
  if (st == PRISM_OK)
    st = prism__cl_kernel(ctx, file, options, "select_offsets", &offsets);
  if (st != PRISM_OK)
    return st;
  const cl_ulong n = p->args->n, range = range_len, groups_arg = groups;
  const cl_ulong counts_offset = SCRATCH_ARRAYS, kept_offset = SCRATCH_KEPT;
  const cl_uint wanted = count_to_dst ? p->count_wanted : 0;
  const prism__cl_arg count_args[] = {PRISM__CL_MEM(p->args->in),
                                      PRISM__CL_MEM(p->args->flags),
                                      PRISM__CL_ARG(n),
                                      p->a,
                                      p->b,
                                      PRISM__CL_ARG(p->keep),
                                      PRISM__CL_ARG(p->range),
                                      PRISM__CL_ARG(range),
                                      PRISM__CL_ARG(p->scratch),
                                      PRISM__CL_ARG(counts_offset)};
  const prism__cl_arg offsets_args[] = {
      PRISM__CL_ARG(p->scratch),   PRISM__CL_ARG(counts_offset),
      PRISM__CL_ARG(groups_arg),   PRISM__CL_ARG(kept_offset),
      PRISM__CL_MEM_ANY(p->count), PRISM__CL_ARG(wanted)};
  st =
      PRISM__CL_LAUNCH(ctx, count, "select_count", count_args, groups * wg, wg);
  if (st == PRISM_OK)
    st = PRISM__CL_LAUNCH(ctx, offsets, "select_offsets", offsets_args, wg, wg);
  return st;
}

/* ---- look-back: lookback_init, select_lookback, select_single_block ---- */

static prism_status select_lookback(prism_context *ctx,
                                    const prism__select_args *a,
                                    select_plan *plan) {
  const prism__cl *cl = prism__cl_of(ctx);
  const prism__cl_policy *pol = &cl->policy;
  const size_t elem = prism_type_size(a->type);
  const size_t wg = pol->select.wg;
  const unsigned items = elem == 1   ? pol->select.items_1
                         : elem == 4 ? pol->select.items_4
                                     : pol->select.items_8;
  const size_t tile = wg * items;
  const size_t tiles = (a->n + tile - 1) / tile;
  if (tiles > UINT32_MAX)
    return prism__fail(ctx, PRISM_UNSUPPORTED,
                       "compaction: n = %zu needs more than 2^32 tiles of %zu",
                       a->n, tile);
  char options[384];
  select_options(options, sizeof options, a, wg, items, pol->select.lb_window);
  const cl_ulong n = a->n;
  prism_status st;
  cl_kernel k;

  if (tiles <= pol->select.single_tiles) {
    if ((st = plan_select(ctx, a, SCRATCH_ARRAYS, plan)) != PRISM_OK ||
        (st = prism__cl_kernel(ctx, LOOKBACK_FILE, options,
                               "select_single_block", &k)) != PRISM_OK)
      return st;
    const prism__cl_arg args[] = {PRISM__CL_MEM(a->in),
                                  PRISM__CL_MEM(a->flags),
                                  PRISM__CL_MEM(a->out),
                                  PRISM__CL_ARG(n),
                                  plan->a,
                                  plan->b,
                                  PRISM__CL_ARG(plan->keep),
                                  PRISM__CL_ARG(plan->range),
                                  PRISM__CL_MEM_ANY(plan->count),
                                  PRISM__CL_ARG(plan->count_wanted)};
    return PRISM__CL_LAUNCH(ctx, k, "select_single_block", args, wg, wg);
  }

  /* Partitions count first, in a few work-groups per compute unit, each
   * range a whole number of work-group strides. */
  size_t groups = 0, range = 0;
  if (a->partition) {
    groups = (size_t)pol->select.count_groups_per_cu * cl->facts.compute_units;
    if (groups > (a->n + wg - 1) / wg)
      groups = (a->n + wg - 1) / wg;
    if (groups < 1)
      groups = 1;
    range = (a->n + groups - 1) / groups;
    range = (range + wg - 1) / wg * wg;
    groups = (a->n + range - 1) / range;
  }
  /* Scratch: the words | group counts | tile status, each region
   * aligned. */
  const cl_ulong status_offset =
      SCRATCH_ARRAYS + prism__cl_align(groups * sizeof(cl_ulong));
  if ((st = plan_select(ctx, a, status_offset + tiles * sizeof(cl_ulong),
                        plan)) != PRISM_OK)
    return st;
  cl_kernel init;
  if ((st = prism__cl_kernel(ctx, LOOKBACK_FILE, options, "lookback_init",
                             &init)) != PRISM_OK ||
      (st = prism__cl_kernel(ctx, LOOKBACK_FILE, options, "select_lookback",
                             &k)) != PRISM_OK)
    return st;
  const cl_ulong ticket_offset = SCRATCH_TICKET, kept_offset = SCRATCH_KEPT;
  const cl_ulong words = tiles;
  const cl_uint tile_count = (cl_uint)tiles;
  const prism__cl_arg init_args[] = {
      PRISM__CL_ARG(plan->scratch), PRISM__CL_ARG(ticket_offset),
      PRISM__CL_ARG(status_offset), PRISM__CL_ARG(words)};
  st = PRISM__CL_LAUNCH(ctx, init, "lookback_init", init_args,
                        (tiles + wg - 1) / wg * wg, wg);
  if (st == PRISM_OK && a->partition)
    st = count_ranges(ctx, plan, LOOKBACK_FILE, options, wg, groups, range, 0);
  if (st != PRISM_OK)
    return st;
  const prism__cl_arg args[] = {PRISM__CL_MEM(a->in),
                                PRISM__CL_MEM(a->flags),
                                PRISM__CL_MEM(a->out),
                                PRISM__CL_ARG(n),
                                plan->a,
                                plan->b,
                                PRISM__CL_ARG(plan->keep),
                                PRISM__CL_ARG(plan->range),
                                PRISM__CL_ARG(plan->scratch),
                                PRISM__CL_ARG(ticket_offset),
                                PRISM__CL_ARG(status_offset),
                                PRISM__CL_ARG(kept_offset),
                                PRISM__CL_MEM_ANY(plan->count),
                                PRISM__CL_ARG(plan->count_wanted),
                                PRISM__CL_ARG(tile_count)};
  return PRISM__CL_LAUNCH(ctx, k, "select_lookback", args, tiles * wg, wg);
}

/* ---- chunks: select_count, select_offsets, select_chunks --------------- */

static prism_status select_chunked(prism_context *ctx,
                                   const prism__select_args *a,
                                   select_plan *plan) {
  const prism__cl *cl = prism__cl_of(ctx);
  const prism__cl_policy *pol = &cl->policy;

  /* Chunks: as many as the policy wants, none shorter than
   * select.chunk_min. */
  size_t chunks = a->n / pol->select.chunk_min;
  const size_t max_chunks =
      (size_t)pol->select.chunks_per_cu * cl->facts.compute_units;
  if (chunks > max_chunks)
    chunks = max_chunks;
  if (chunks < 1)
    chunks = 1;
  const size_t chunk = (a->n + chunks - 1) / chunks;
  chunks = (a->n + chunk - 1) / chunk;

  char options[384];
  select_options(options, sizeof options, a, 1, 1, 1);
  prism_status st =
      plan_select(ctx, a, SCRATCH_ARRAYS + chunks * sizeof(cl_ulong), plan);
  const select_plan p = *plan;
  cl_kernel k;
  if (st == PRISM_OK)
    st = prism__cl_kernel(ctx, CHUNKS_FILE, options, "select_chunks", &k);
  const cl_uint has_offsets = chunks > 1;
  if (st == PRISM_OK && has_offsets)
    st = count_ranges(ctx, &p, CHUNKS_FILE, options, 1, chunks, chunk, 1);
  if (st != PRISM_OK)
    return st;
  const cl_ulong n = a->n, chunk_arg = chunk;
  const cl_ulong counts_offset = SCRATCH_ARRAYS, kept_offset = SCRATCH_KEPT;
  const prism__cl_arg args[] = {PRISM__CL_MEM(a->in),
                                PRISM__CL_MEM(a->flags),
                                PRISM__CL_MEM(a->out),
                                PRISM__CL_ARG(n),
                                p.a,
                                p.b,
                                PRISM__CL_ARG(p.keep),
                                PRISM__CL_ARG(p.range),
                                PRISM__CL_ARG(chunk_arg),
                                PRISM__CL_ARG(p.scratch),
                                PRISM__CL_ARG(counts_offset),
                                PRISM__CL_ARG(kept_offset),
                                PRISM__CL_ARG(has_offsets),
                                PRISM__CL_MEM_ANY(p.count),
                                PRISM__CL_ARG(p.count_wanted)};
  return PRISM__CL_LAUNCH(ctx, k, "select_chunks", args, chunks, 1);
}

prism_status prism__cl_select(prism_context *ctx,
                              const prism__select_args *args) {
  prism__cl *cl = prism__cl_of(ctx);
  select_plan p;
  prism_status st = cl->policy.select.lookback ? select_lookback(ctx, args, &p)
                                               : select_chunked(ctx, args, &p);
  if (st != PRISM_OK || !args->count)
    return st;
  cl_ulong k;
  cl_int err = clEnqueueReadBuffer(cl->queue, (cl_mem)p.count.native, CL_TRUE,
                                   p.count.offset, sizeof k, &k, 0, NULL, NULL);
  if (err != CL_SUCCESS)
    return prism__cl_fail(ctx, err, "clEnqueueReadBuffer(compaction count)");
  *args->count = (size_t)k;
  return PRISM_OK;
}
