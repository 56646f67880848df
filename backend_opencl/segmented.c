/* SPDX-License-Identifier: MIT */
/*
 * segmented: scan by head flags, scan by offsets, reduce by offsets, all
 * in kernels_cl/segmented.cl (which holds the design). The device policy
 * picks the shape:
 * - Look-back (GPUs): scans run seg_init + seg_scan_lookback (small n:
 *   seg_scan_single_block alone); the reduce runs seg_reduce_search +
 *   seg_reduce_tiles over the merge of elements and segment bounds.
 * - Chunks (CPUs): scans run seg_scan_reduce_chunks + seg_scan_partials +
 *   seg_scan_chunks; the reduce seg_reduce_chunks + seg_scan_partials +
 *   seg_reduce_carries, over a few contiguous chunks.
 * By offsets, seg_mark first turns the offsets into bitmaps of segment
 * starts and ends for the scans; the reduce ends with seg_reduce_segments,
 * which does nothing unless the offsets decreased somewhere. Scratch comes
 * from one prism__scratch call per primitive, carved with byte offsets
 * passed as kernel arguments. Checked calls read the first-bad slots back
 * (the only blocking read).
 */
#include "lookback.h"
#include "opencl_internal.h"

#include <stdint.h>
#include <string.h>

/* Segments per first-bad slot (segmented.cl's SLOT_SHIFT). */
#define SLOT_SHIFT 30
/* Work-items per seg_mark launch at most. */
#define MARK_LAUNCH ((size_t)1 << 30)

/* One call: the context, its policy and the program options. */
typedef struct seg_call {
  prism_context *ctx;
  prism__cl *cl;
  const prism__cl_policy *pol;
  const prism__segmented_args *a;
  size_t elem;
  size_t wg;
  size_t max_chunks;
  const char *file;  /* the strategy's kernels: segmented_lookback.cl or
                        segmented_chunks.cl, segmented.cl built ahead */
  char options[256]; /* of the element type and operator */
  char generic[256]; /* of seg_init and seg_mark (segmented.cl alone),
                        which use neither */
} seg_call;

static void seg_call_init(seg_call *c, prism_context *ctx,
                          const prism__segmented_args *a) {
  c->ctx = ctx;
  c->cl = prism__cl_of(ctx);
  c->pol = &c->cl->policy;
  c->a = a;
  c->elem = prism_type_size(a->type);
  c->wg = c->pol->seg.wg;
  c->file =
      c->pol->seg.lookback ? "segmented_lookback.cl" : "segmented_chunks.cl";
  c->max_chunks =
      (size_t)c->pol->seg.chunks_per_cu * c->cl->facts.compute_units;
  if (c->max_chunks < 1)
    c->max_chunks = 1;
  prism__cl_options(
      c->options, sizeof c->options, a->type, a->op,
      "-DPRISM_WG=%zu -DPRISM_ITEMS=%u "
      "-DPRISM_MERGE_ITEMS=%u -DPRISM_LB_WINDOW=%u",
      c->wg, c->elem == 4 ? c->pol->seg.items_4 : c->pol->seg.items_8,
      c->elem == 4 ? c->pol->seg.merge_items_4 : c->pol->seg.merge_items_8,
      c->pol->seg.lb_window);
  prism__cl_options(c->generic, sizeof c->generic, PRISM_U32, PRISM_SUM,
                    "-DPRISM_WG=%zu", c->wg);
}

/* Launches name, built with options (the generic ones: from segmented.cl
 * alone; else from the strategy's file), over work_items rounded up to
 * whole work-groups of wg (SEG_LAUNCH: with every slot of the array
 * args). */
static prism_status seg_launch(seg_call *c, const char *options,
                               const char *name, const prism__cl_arg *args,
                               unsigned nargs, size_t work_items, size_t wg) {
  cl_kernel k;
  const char *file = options == c->generic ? "segmented.cl" : c->file;
  prism_status st = prism__cl_kernel(c->ctx, file, options, name, &k);
  if (st != PRISM_OK)
    return st;
  const size_t global = (work_items + wg - 1) / wg * wg;
  return prism__cl_launch(c->ctx, k, name, args, nargs, global ? global : wg,
                          wg);
}

#define SEG_LAUNCH(c, options, name, args, work_items, wg)                     \
  seg_launch(c, options, name, args, PRISM__CL_NARGS(args), work_items, wg)

static size_t ceil_div(size_t a, size_t b) {
  return a / b + (a % b != 0);
}

/* The offset type as segmented.cl's code: OFFSET_SIGNED | OFFSET_WIDE. */
static cl_uint offset_code(prism_type t) {
  return (cl_uint)((t == PRISM_I32 || t == PRISM_I64) |
                   (t == PRISM_U64 || t == PRISM_I64) << 1);
}

static size_t slot_count(size_t num_segments) {
  return (num_segments >> SLOT_SHIFT) + 1;
}

/* Bytes of one look-back status array (core/lookback.h's value words). */
static size_t status_array_bytes(const seg_call *c, size_t tiles) {
  return tiles * PRISM_LB_WORDS(c->elem) * sizeof(cl_ulong);
}

/* How much of count each work-item of seg_init, seg_mark and (chunks)
 * seg_reduce_segments takes: gpu_items on GPUs, a contiguous share on
 * CPUs. */
static size_t per_item_for(const seg_call *c, size_t count, size_t gpu_items) {
  if (c->pol->seg.lookback)
    return gpu_items;
  return ceil_div(count, c->max_chunks);
}

/*
 * seg_init: zero [0, zero_bytes) of the scratch (a multiple of 8) and fill
 * the first-bad slots.
 */
static prism_status seg_init(seg_call *c, cl_mem scratch, size_t zero_bytes,
                             cl_ulong slots_offset, size_t slots) {
  const cl_ulong zero_offset = 0, zero_words = zero_bytes / 8;
  const cl_ulong slot_n = slots;
  const size_t most = zero_words > slots ? (size_t)zero_words : slots;
  if (most == 0)
    return PRISM_OK;
  const cl_ulong per_item = per_item_for(c, most, 1);
  const prism__cl_arg args[] = {
      PRISM__CL_ARG(scratch),    PRISM__CL_ARG(zero_offset),
      PRISM__CL_ARG(zero_words), PRISM__CL_ARG(slots_offset),
      PRISM__CL_ARG(slot_n),     PRISM__CL_ARG(per_item)};
  return SEG_LAUNCH(c, c->generic, "seg_init", args,
                    ceil_div(most, (size_t)per_item), c->wg);
}

/* seg_mark over every segment, in launches of at most MARK_LAUNCH
 * work-items. */
static prism_status seg_mark(seg_call *c, cl_mem scratch,
                             cl_ulong starts_offset, cl_ulong ends_offset,
                             cl_ulong slots_offset) {
  const prism__segmented_args *a = c->a;
  const cl_uint code = offset_code(a->offset_type);
  const cl_ulong segments = a->num_segments, n = a->n;
  const cl_ulong per_item =
      per_item_for(c, a->num_segments, c->pol->seg.mark_segments);
  const cl_uint checked = a->first_bad != NULL;
  const size_t items = ceil_div(a->num_segments, (size_t)per_item);
  for (size_t first = 0; first < items; first += MARK_LAUNCH) {
    const cl_ulong base = first;
    const size_t count =
        items - first < MARK_LAUNCH ? items - first : MARK_LAUNCH;
    const prism__cl_arg args[] = {
        PRISM__CL_MEM(a->offsets),  PRISM__CL_ARG(code),
        PRISM__CL_ARG(segments),    PRISM__CL_ARG(n),
        PRISM__CL_ARG(base),        PRISM__CL_ARG(per_item),
        PRISM__CL_ARG(scratch),     PRISM__CL_ARG(starts_offset),
        PRISM__CL_ARG(ends_offset), PRISM__CL_ARG(slots_offset),
        PRISM__CL_ARG(checked)};
    prism_status st = SEG_LAUNCH(c, c->generic, "seg_mark", args, count, c->wg);
    if (st != PRISM_OK)
      return st;
  }
  return PRISM_OK;
}

/* Checked calls: wait for the slots and turn them into the first bad
 * segment. */
static prism_status read_first_bad(seg_call *c, cl_mem scratch,
                                   cl_ulong slots_offset, size_t slots) {
  if (!c->a->first_bad)
    return PRISM_OK;
  cl_uint buf[64];
  *c->a->first_bad = SIZE_MAX;
  for (size_t done = 0; done < slots; done += 64) {
    const size_t count = slots - done < 64 ? slots - done : 64;
    cl_int err =
        clEnqueueReadBuffer(c->cl->queue, scratch, CL_TRUE,
                            (size_t)slots_offset + done * sizeof(cl_uint),
                            count * sizeof(cl_uint), buf, 0, NULL, NULL);
    if (err != CL_SUCCESS)
      return prism__cl_fail(c->ctx, err,
                            "clEnqueueReadBuffer(segmented first bad)");
    for (size_t i = 0; i < count; i++)
      if (buf[i] != UINT32_MAX) {
        *c->a->first_bad = ((done + i) << SLOT_SHIFT) + buf[i];
        return PRISM_OK;
      }
  }
  return PRISM_OK;
}

/* ---- scans -------------------------------------------------------------- */

/* What the scans pass besides their own arguments. */
typedef struct scan_marks {
  cl_uint by_offsets;
  prism__mem flags;
  cl_uint flag_bytes;
  cl_ulong starts_offset, ends_offset;
} scan_marks;

static prism_status scan_lookback(seg_call *c, cl_mem scratch,
                                  const scan_marks *m, cl_ulong status_offset,
                                  size_t tiles) {
  const prism__segmented_args *a = c->a;
  const cl_ulong n = a->n;
  const cl_uint exclusive = a->kind == PRISM_EXCLUSIVE;
  if (tiles <= c->pol->seg.single_tiles) {
    const prism__cl_arg args[] = {PRISM__CL_MEM(a->in),
                                  PRISM__CL_MEM(a->out),
                                  PRISM__CL_ARG(n),
                                  PRISM__CL_ARG(exclusive),
                                  PRISM__CL_ARG(m->by_offsets),
                                  PRISM__CL_MEM(m->flags),
                                  PRISM__CL_ARG(m->flag_bytes),
                                  PRISM__CL_ARG(scratch),
                                  PRISM__CL_ARG(m->starts_offset),
                                  PRISM__CL_ARG(m->ends_offset)};
    return SEG_LAUNCH(c, c->options, "seg_scan_single_block", args, c->wg,
                      c->wg);
  }
  /* Status: ticket, then the two status arrays. */
  const cl_ulong ticket_offset = status_offset;
  const cl_ulong aggregate_offset = ticket_offset + 8;
  const cl_ulong prefix_offset =
      aggregate_offset + status_array_bytes(c, tiles);
  const prism__cl_arg args[] = {PRISM__CL_MEM(a->in),
                                PRISM__CL_MEM(a->out),
                                PRISM__CL_ARG(n),
                                PRISM__CL_ARG(exclusive),
                                PRISM__CL_ARG(m->by_offsets),
                                PRISM__CL_MEM(m->flags),
                                PRISM__CL_ARG(m->flag_bytes),
                                PRISM__CL_ARG(scratch),
                                PRISM__CL_ARG(ticket_offset),
                                PRISM__CL_ARG(aggregate_offset),
                                PRISM__CL_ARG(prefix_offset),
                                PRISM__CL_ARG(m->starts_offset),
                                PRISM__CL_ARG(m->ends_offset)};
  return SEG_LAUNCH(c, c->options, "seg_scan_lookback", args, tiles * c->wg,
                    c->wg);
}

static prism_status scan_chunked(seg_call *c, cl_mem scratch,
                                 const scan_marks *m, cl_ulong kinds_offset,
                                 cl_ulong values_offset, size_t chunks,
                                 size_t chunk) {
  const prism__segmented_args *a = c->a;
  const cl_ulong n = a->n, chunk_arg = chunk;
  const cl_uint exclusive = a->kind == PRISM_EXCLUSIVE;
  const cl_uint has_prefix = chunks > 1;
  prism_status st = PRISM_OK;
  if (has_prefix) {
    const cl_uint count = (cl_uint)chunks;
    const prism__cl_arg reduce_args[] = {
        PRISM__CL_MEM(a->in),          PRISM__CL_ARG(n),
        PRISM__CL_ARG(chunk_arg),      PRISM__CL_ARG(m->by_offsets),
        PRISM__CL_MEM(m->flags),       PRISM__CL_ARG(m->flag_bytes),
        PRISM__CL_ARG(scratch),        PRISM__CL_ARG(m->starts_offset),
        PRISM__CL_ARG(m->ends_offset), PRISM__CL_ARG(kinds_offset),
        PRISM__CL_ARG(values_offset)};
    const prism__cl_arg partials_args[] = {
        PRISM__CL_ARG(scratch), PRISM__CL_ARG(kinds_offset),
        PRISM__CL_ARG(values_offset), PRISM__CL_ARG(count)};
    st = SEG_LAUNCH(c, c->options, "seg_scan_reduce_chunks", reduce_args,
                    chunks, c->wg);
    if (st == PRISM_OK)
      st = SEG_LAUNCH(c, c->options, "seg_scan_partials", partials_args, c->wg,
                      c->wg);
  }
  if (st != PRISM_OK)
    return st;
  const prism__cl_arg args[] = {PRISM__CL_MEM(a->in),
                                PRISM__CL_MEM(a->out),
                                PRISM__CL_ARG(n),
                                PRISM__CL_ARG(chunk_arg),
                                PRISM__CL_ARG(exclusive),
                                PRISM__CL_ARG(m->by_offsets),
                                PRISM__CL_MEM(m->flags),
                                PRISM__CL_ARG(m->flag_bytes),
                                PRISM__CL_ARG(scratch),
                                PRISM__CL_ARG(m->starts_offset),
                                PRISM__CL_ARG(m->ends_offset),
                                PRISM__CL_ARG(kinds_offset),
                                PRISM__CL_ARG(values_offset),
                                PRISM__CL_ARG(has_prefix)};
  return SEG_LAUNCH(c, c->options, "seg_scan_chunks", args, chunks, c->wg);
}

/*
 * Both scans. Scratch, one request:
 *   [starts bitmap | ends bitmap | look-back status]  zeroed by seg_init
 *   [first-bad slots]                                 filled by seg_init
 *   [chunk kinds | chunk values]                      chunks only
 * The bitmaps exist by offsets only; the status with look-back only, past
 * a single tile group.
 */
static prism_status segmented_scan(seg_call *c) {
  const prism__segmented_args *a = c->a;
  const int by_offsets = a->offsets.native != NULL;
  const size_t n = a->n;
  size_t tiles = 0, chunks = 1, chunk = n;
  if (c->pol->seg.lookback) {
    const size_t tile =
        c->wg * (c->elem == 4 ? c->pol->seg.items_4 : c->pol->seg.items_8);
    tiles = ceil_div(n, tile);
    if (tiles > UINT32_MAX)
      return prism__fail(c->ctx, PRISM_UNSUPPORTED,
                         "segmented scan: n = %zu needs more than 2^32 tiles "
                         "of %zu",
                         n, tile);
  } else {
    chunks = n / c->pol->seg.chunk_min;
    if (chunks > c->max_chunks)
      chunks = c->max_chunks;
    if (chunks < 1)
      chunks = 1;
    chunk = ceil_div(n, chunks);
    chunks = ceil_div(n, chunk);
  }
  const int lookback = tiles > c->pol->seg.single_tiles;

  const size_t bitmap_bytes =
      by_offsets ? prism__cl_align(ceil_div(n, 64) * 8) : 0;
  const cl_ulong starts_offset = 0, ends_offset = bitmap_bytes;
  const cl_ulong status_offset = 2 * bitmap_bytes;
  const size_t status_bytes =
      lookback ? prism__cl_align(8 + 2 * status_array_bytes(c, tiles)) : 0;
  const size_t zero_bytes = 2 * bitmap_bytes + status_bytes;
  const size_t slots = by_offsets ? slot_count(a->num_segments) : 0;
  const cl_ulong slots_offset = zero_bytes;
  const cl_ulong kinds_offset =
      slots_offset + prism__cl_align(slots * sizeof(cl_uint));
  const cl_ulong values_offset =
      kinds_offset + prism__cl_align(chunks > 1 ? chunks * 4 : 0);
  const size_t scratch_bytes =
      (size_t)values_offset + (chunks > 1 ? chunks * c->elem : 0);

  cl_mem scratch = NULL; /* a NULL buffer argument is allowed when unused */
  if (scratch_bytes > 0) {
    void *native;
    prism_status st = prism__scratch(c->ctx, scratch_bytes, &native);
    if (st != PRISM_OK)
      return st;
    scratch = (cl_mem)native;
  }
  prism_status st = seg_init(c, scratch, zero_bytes, slots_offset, slots);
  if (st == PRISM_OK && by_offsets)
    st = seg_mark(c, scratch, starts_offset, ends_offset, slots_offset);
  if (st != PRISM_OK)
    return st;

  scan_marks m;
  m.by_offsets = by_offsets;
  m.flags = a->flags;
  m.flag_bytes = by_offsets ? 1 : (cl_uint)prism_type_size(a->flag_type);
  m.starts_offset = starts_offset;
  m.ends_offset = ends_offset;
  st = c->pol->seg.lookback
           ? scan_lookback(c, scratch, &m, status_offset, tiles)
           : scan_chunked(c, scratch, &m, kinds_offset, values_offset, chunks,
                          chunk);
  if (st != PRISM_OK || !by_offsets)
    return st;
  return read_first_bad(c, scratch, slots_offset, slots);
}

/* ---- reduce ------------------------------------------------------------- */

/*
 * Look-back shape. Scratch: [ticket, irregular | tile status] cleared by
 * seg_reduce_search itself, [splits: tiles + 1 ulongs], [first-bad
 * slots].
 */
/*
 * The last phase of both reduce shapes: seg_reduce_segments recomputes
 * every segment, per_item of them per work-item, over work_items, when the
 * merge found decreasing offsets (the irregular word in scratch; otherwise
 * the kernel returns at once), then the first bad segment comes back when
 * checked.
 */
static prism_status reduce_fallback(seg_call *c, cl_mem scratch,
                                    cl_ulong irregular_offset,
                                    cl_ulong slots_offset, size_t slots,
                                    cl_ulong per_item, size_t work_items) {
  const prism__segmented_args *a = c->a;
  const cl_uint code = offset_code(a->offset_type);
  const cl_ulong n = a->n, segments = a->num_segments;
  const cl_uint checked = a->first_bad != NULL;
  const prism__cl_arg args[] = {PRISM__CL_MEM(a->in),
                                PRISM__CL_ARG(n),
                                PRISM__CL_MEM(a->offsets),
                                PRISM__CL_ARG(code),
                                PRISM__CL_ARG(segments),
                                PRISM__CL_MEM(a->out),
                                PRISM__CL_ARG(per_item),
                                PRISM__CL_ARG(scratch),
                                PRISM__CL_ARG(irregular_offset),
                                PRISM__CL_ARG(slots_offset),
                                PRISM__CL_ARG(checked)};
  prism_status st =
      SEG_LAUNCH(c, c->options, "seg_reduce_segments", args, work_items, c->wg);
  if (st != PRISM_OK)
    return st;
  return read_first_bad(c, scratch, slots_offset, slots);
}

static prism_status reduce_lookback(seg_call *c) {
  const prism__segmented_args *a = c->a;
  const size_t items =
      c->elem == 4 ? c->pol->seg.merge_items_4 : c->pol->seg.merge_items_8;
  const size_t tile = c->wg * items;
  const size_t total = a->n + a->num_segments + 1;
  const size_t tiles = ceil_div(total, tile);
  if (tiles >= UINT32_MAX)
    return prism__fail(c->ctx, PRISM_UNSUPPORTED,
                       "segmented reduce: %zu elements and %zu segments need "
                       "more than 2^32 tiles of %zu",
                       a->n, a->num_segments, tile);
  const size_t slots = slot_count(a->num_segments);
  const cl_ulong ticket_offset = 0, aggregate_offset = 8;
  const cl_ulong prefix_offset =
      aggregate_offset + status_array_bytes(c, tiles);
  const cl_ulong splits_offset =
      prism__cl_align((size_t)prefix_offset + status_array_bytes(c, tiles));
  const cl_ulong slots_offset =
      splits_offset + prism__cl_align((tiles + 1) * 8);
  void *native;
  prism_status st = prism__scratch(
      c->ctx, (size_t)slots_offset + slots * sizeof(cl_uint), &native);
  if (st != PRISM_OK)
    return st;
  cl_mem scratch = (cl_mem)native;

  const cl_uint code = offset_code(a->offset_type);
  const cl_ulong n = a->n, segments = a->num_segments, slot_n = slots;
  const cl_uint tile_count = (cl_uint)tiles;
  const cl_uint checked = a->first_bad != NULL;
  const prism__cl_arg search_args[] = {PRISM__CL_MEM(a->offsets),
                                       PRISM__CL_ARG(code),
                                       PRISM__CL_ARG(n),
                                       PRISM__CL_ARG(segments),
                                       PRISM__CL_ARG(tile_count),
                                       PRISM__CL_ARG(scratch),
                                       PRISM__CL_ARG(splits_offset),
                                       PRISM__CL_ARG(ticket_offset),
                                       PRISM__CL_ARG(aggregate_offset),
                                       PRISM__CL_ARG(prefix_offset),
                                       PRISM__CL_ARG(slots_offset),
                                       PRISM__CL_ARG(slot_n)};
  const prism__cl_arg tiles_args[] = {
      PRISM__CL_MEM(a->in),         PRISM__CL_ARG(n),
      PRISM__CL_MEM(a->offsets),    PRISM__CL_ARG(code),
      PRISM__CL_ARG(segments),      PRISM__CL_MEM(a->out),
      PRISM__CL_ARG(scratch),       PRISM__CL_ARG(splits_offset),
      PRISM__CL_ARG(ticket_offset), PRISM__CL_ARG(aggregate_offset),
      PRISM__CL_ARG(prefix_offset), PRISM__CL_ARG(slots_offset),
      PRISM__CL_ARG(checked)};
  st = SEG_LAUNCH(c, c->options, "seg_reduce_search", search_args, tiles + 1,
                  c->wg);
  if (st == PRISM_OK)
    st = SEG_LAUNCH(c, c->options, "seg_reduce_tiles", tiles_args,
                    tiles * c->wg, c->wg);
  if (st != PRISM_OK)
    return st;

  /* Decreasing offsets: every segment again, a work-group each. */
  size_t groups = (size_t)c->cl->facts.compute_units * 4;
  if (groups > a->num_segments)
    groups = a->num_segments;
  return reduce_fallback(c, scratch, ticket_offset + 4, slots_offset, slots, 1,
                         groups * c->wg);
}

/*
 * Chunk shape. Scratch: [irregular] zeroed and [first-bad slots] filled
 * by seg_init, then per chunk: kinds, values, first_bound, first_value.
 */
static prism_status reduce_chunked(seg_call *c) {
  const prism__segmented_args *a = c->a;
  const size_t total = a->n + a->num_segments + 1;
  size_t chunks = total / c->pol->seg.chunk_min;
  if (chunks > c->max_chunks)
    chunks = c->max_chunks;
  if (chunks < 1)
    chunks = 1;
  const size_t chunk = ceil_div(total, chunks);
  chunks = ceil_div(total, chunk);

  const size_t slots = slot_count(a->num_segments);
  const cl_ulong irregular_offset = 0, slots_offset = PRISM_CL_SCRATCH_ALIGN;
  const cl_ulong kinds_offset =
      slots_offset + prism__cl_align(slots * sizeof(cl_uint));
  const cl_ulong values_offset = kinds_offset + prism__cl_align(chunks * 4);
  const cl_ulong first_bound_offset =
      values_offset + prism__cl_align(chunks * c->elem);
  const cl_ulong first_value_offset =
      first_bound_offset + prism__cl_align(chunks * 8);
  void *native;
  prism_status st = prism__scratch(
      c->ctx, (size_t)first_value_offset + chunks * c->elem, &native);
  if (st != PRISM_OK)
    return st;
  cl_mem scratch = (cl_mem)native;
  if ((st = seg_init(c, scratch, 8, slots_offset, slots)) != PRISM_OK)
    return st;

  const cl_uint code = offset_code(a->offset_type);
  const cl_ulong n = a->n, segments = a->num_segments, chunk_arg = chunk;
  const cl_uint checked = a->first_bad != NULL, count = (cl_uint)chunks;
  const prism__cl_arg chunk_args[] = {PRISM__CL_MEM(a->in),
                                      PRISM__CL_ARG(n),
                                      PRISM__CL_MEM(a->offsets),
                                      PRISM__CL_ARG(code),
                                      PRISM__CL_ARG(segments),
                                      PRISM__CL_MEM(a->out),
                                      PRISM__CL_ARG(chunk_arg),
                                      PRISM__CL_ARG(scratch),
                                      PRISM__CL_ARG(kinds_offset),
                                      PRISM__CL_ARG(values_offset),
                                      PRISM__CL_ARG(first_bound_offset),
                                      PRISM__CL_ARG(first_value_offset),
                                      PRISM__CL_ARG(irregular_offset),
                                      PRISM__CL_ARG(slots_offset),
                                      PRISM__CL_ARG(checked)};
  st =
      SEG_LAUNCH(c, c->options, "seg_reduce_chunks", chunk_args, chunks, c->wg);
  if (st == PRISM_OK && chunks > 1) {
    const prism__cl_arg partials_args[] = {
        PRISM__CL_ARG(scratch), PRISM__CL_ARG(kinds_offset),
        PRISM__CL_ARG(values_offset), PRISM__CL_ARG(count)};
    const prism__cl_arg carries_args[] = {PRISM__CL_MEM(a->out),
                                          PRISM__CL_ARG(count),
                                          PRISM__CL_ARG(scratch),
                                          PRISM__CL_ARG(values_offset),
                                          PRISM__CL_ARG(first_bound_offset),
                                          PRISM__CL_ARG(first_value_offset)};
    st = SEG_LAUNCH(c, c->options, "seg_scan_partials", partials_args, c->wg,
                    c->wg);
    if (st == PRISM_OK)
      st = SEG_LAUNCH(c, c->options, "seg_reduce_carries", carries_args, chunks,
                      c->wg);
  }
  if (st != PRISM_OK)
    return st;

  /* Decreasing offsets: every segment again, contiguous runs. */
  const cl_ulong per_item = per_item_for(c, a->num_segments, 1);
  return reduce_fallback(c, scratch, irregular_offset, slots_offset, slots,
                         per_item, ceil_div(a->num_segments, (size_t)per_item));
}

prism_status prism__cl_segmented(prism_context *ctx,
                                 const prism__segmented_args *args) {
  seg_call c;
  seg_call_init(&c, ctx, args);
  if (!args->reduce)
    return args->n ? segmented_scan(&c) : PRISM_OK;
  return c.pol->seg.lookback ? reduce_lookback(&c) : reduce_chunked(&c);
}
