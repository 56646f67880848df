/* SPDX-License-Identifier: MIT */
/*
 * sort: stable LSD radix sort, PRISM_RADIX_BITS per pass over the key's
 * image bits [begin_bit, end_bit). Three strategies, chosen by the device
 * policy and n:
 * - Small n: sort_single_block, one work-group and one launch for every
 *   pass (sort_single.cl).
 * - Onesweep (GPUs): sort_histogram + sort_offsets once (every pass's
 *   digit starts in one read), then per pass lookback_init + sort_onesweep,
 *   one read and one write of the keys with look-back between tiles
 *   (sort_upsweep.cl, sort_onesweep.cl).
 * - Classic (CPUs, and wherever look-back is not safe): per pass
 *   sort_count + sort_chunk_offsets + sort_scatter over a few long
 *   contiguous chunks (sort_classic.cl).
 * Passes ping-pong between the output buffers and alternates carved from
 * the context's scratch (one prism__scratch call per sort), arranged so
 * the last pass lands in the output. Tables follow the alternates in the
 * same allocation, at byte offsets passed as kernel arguments.
 */
#include "opencl_internal.h"

#include <stdint.h>
#include <string.h>

/* Everything the strategies share: buffers per pass, the scratch, the
 * key's flip, the program options. Keys and values travel as prism__mem
 * (the kernels' PRISM_BUF): the caller's views, or their alternates inside
 * the scratch. */
typedef struct sort_plan {
  const prism__sort_args *args;
  size_t key_bytes, radix;
  unsigned passes;
  prism__mem keys_src, values_src; /* what the first pass reads */
  cl_mem scratch;                  /* keys' alternate at 0, then values' */
  size_t values_at;                /* the values' alternate, bytes */
  cl_ulong values_alt_at;          /* the same, elements */
  cl_ulong tables_offset;          /* the strategy's tables, bytes */
  cl_uint flip4;                   /* all ones for descending order */
  cl_ulong flip8;
  prism__cl_arg flip; /* flip4 or flip8, as wide as a key */
} sort_plan;

/* What pass p writes: the last pass writes the outputs. */
static int pass_to_alt(const sort_plan *s, unsigned p) {
  return (s->passes - 1 - p) % 2;
}
static prism__mem pass_keys(const sort_plan *s, unsigned p) {
  return pass_to_alt(s, p) ? prism__cl_mem_at(s->scratch, 0)
                           : s->args->keys_out;
}
/* Native NULL for keys only. */
static prism__mem pass_values(const sort_plan *s, unsigned p) {
  if (!s->args->value_size)
    return s->args->values_out;
  return pass_to_alt(s, p) ? prism__cl_mem_at(s->scratch, s->values_at)
                           : s->args->values_out;
}

/* Program options: the key's bits as T, its image macro, values, shape
 * (sort_single.cl's segsort_global takes them too). */
void prism__cl_sort_options(char *buf, size_t size, const prism__sort_args *a,
                            size_t value_bytes, unsigned radix_bits, size_t wg,
                            unsigned items) {
  static const char *const image[] = {"I32", "U32", "F32", "I64", "U64", "F64"};
  prism__cl_options(
      buf, size, prism_type_size(a->key_type) == 4 ? PRISM_U32 : PRISM_U64,
      PRISM_SUM,
      "-DPRISM_KEY_IMAGE=PRISM_KEY_IMAGE_%s -DPRISM_VALUE_BYTES=%zu "
      "-DPRISM_RADIX_BITS=%u -DPRISM_WG=%zu -DPRISM_ITEMS=%u",
      image[a->key_type], value_bytes, radix_bits, wg, items);
}

/* The alternates' bytes, keys' and then values', each region aligned:
 * where a strategy's tables start. */
static size_t alternates_bytes(const prism__sort_args *a) {
  return prism__cl_align(a->n * prism_type_size(a->key_type)) +
         prism__cl_align(a->n * a->value_size);
}

/*
 * Fill the plan and take scratch: the alternates, then tables_bytes for
 * the strategy. An in-place sort (input = output) with an odd number of
 * passes would have its first pass write what it reads: the input is
 * copied to the alternate first, and the passes start from there.
 */
static prism_status plan_sort(prism_context *ctx, const prism__sort_args *a,
                              size_t tables_bytes, sort_plan *s) {
  const prism__cl_policy *pol = &prism__cl_of(ctx)->policy;
  memset(s, 0, sizeof *s);
  s->args = a;
  s->key_bytes = prism_type_size(a->key_type);
  s->radix = (size_t)1 << pol->sort.radix_bits;
  s->passes = (a->end_bit - a->begin_bit + pol->sort.radix_bits - 1) /
              pol->sort.radix_bits;
  const size_t keys_bytes = a->n * s->key_bytes;
  const size_t values_bytes = a->n * a->value_size;
  /* A multiple of the value size, as every scratch region start is. */
  const size_t values_at = prism__cl_align(keys_bytes);
  s->values_at = values_at;
  s->values_alt_at = a->value_size ? values_at / a->value_size : 0;
  s->tables_offset = alternates_bytes(a);
  void *native;
  prism_status st =
      prism__scratch(ctx, (size_t)s->tables_offset + tables_bytes, &native);
  if (st != PRISM_OK)
    return st;
  s->scratch = (cl_mem)native;
  s->keys_src = a->keys_in;
  s->values_src = a->values_in;
  s->flip4 = a->descending ? UINT32_MAX : 0;
  s->flip8 = a->descending ? UINT64_MAX : 0;
  s->flip.size = s->key_bytes;
  s->flip.value =
      s->key_bytes == 4 ? (const void *)&s->flip4 : (const void *)&s->flip8;

  const prism__backend *be = &prism__backend_opencl;
  if (s->passes % 2 && prism__mem_same(a->keys_in, a->keys_out)) {
    st = be->mem_copy(ctx, s->scratch, 0, a->keys_in.native, a->keys_in.offset,
                      keys_bytes);
    s->keys_src = prism__cl_mem_at(s->scratch, 0);
  }
  if (st == PRISM_OK && s->passes % 2 && a->value_size &&
      prism__mem_same(a->values_in, a->values_out)) {
    st = be->mem_copy(ctx, s->scratch, values_at, a->values_in.native,
                      a->values_in.offset, values_bytes);
    s->values_src = prism__cl_mem_at(s->scratch, values_at);
  }
  return st;
}

/* Pass p's digit: shift and width. */
static void pass_digit(const sort_plan *s, unsigned radix_bits, unsigned p,
                       cl_uint *shift, cl_uint *bits) {
  *shift = s->args->begin_bit + p * radix_bits;
  *bits = s->args->end_bit - *shift < radix_bits ? s->args->end_bit - *shift
                                                 : radix_bits;
}

/* ---- sort_single_block ------------------------------------------------ */

static prism_status sort_single(prism_context *ctx, const prism__sort_args *a) {
  const prism__cl_policy *pol = &prism__cl_of(ctx)->policy;
  const size_t wg = pol->sort.wg;
  const unsigned items =
      prism_type_size(a->key_type) == 4 ? pol->sort.items_4 : pol->sort.items_8;
  sort_plan s;
  prism_status st = plan_sort(ctx, a, 0, &s);
  if (st != PRISM_OK)
    return st;
  char options[320];
  prism__cl_sort_options(options, sizeof options, a, a->value_size,
                         pol->sort.radix_bits, wg, items);
  cl_kernel k;
  st =
      prism__cl_kernel(ctx, "sort_single.cl", options, "sort_single_block", &k);
  if (st != PRISM_OK)
    return st;
  cl_mem values_alt = a->value_size ? s.scratch : NULL;
  const cl_ulong n = a->n;
  const cl_uint begin_bit = a->begin_bit, end_bit = a->end_bit;
  const prism__cl_arg args[] = {PRISM__CL_MEM_ANY(s.keys_src),
                                PRISM__CL_MEM_ANY(a->keys_out),
                                PRISM__CL_ARG(s.scratch),
                                PRISM__CL_MEM_ANY(s.values_src),
                                PRISM__CL_MEM_ANY(a->values_out),
                                PRISM__CL_ARG(values_alt),
                                PRISM__CL_ARG(s.values_alt_at),
                                PRISM__CL_ARG(n),
                                PRISM__CL_ARG(begin_bit),
                                PRISM__CL_ARG(end_bit),
                                s.flip};
  return PRISM__CL_LAUNCH(ctx, k, "sort_single_block", args, wg, wg);
}

/* ---- classic: sort_count, sort_chunk_offsets, sort_scatter -------------- */

/* Chunks: as many as the policy wants, none shorter than sort.chunk_min
 * nor longer than 2^31 keys (32-bit counts); work-items round up to whole
 * work-groups (the extra ones own empty chunks). Sets the chunk's keys and
 * the work-items; returns the tables' bytes. */
static size_t classic_shape(const prism__cl *cl, size_t n, size_t *chunk,
                            size_t *global) {
  const prism__cl_policy *pol = &cl->policy;
  const size_t wg = pol->sort.chunk_wg;
  const size_t radix = (size_t)1 << pol->sort.radix_bits;
  size_t chunks = n / pol->sort.chunk_min;
  const size_t max_chunks =
      (size_t)pol->sort.chunks_per_cu * cl->facts.compute_units;
  if (chunks > max_chunks)
    chunks = max_chunks;
  const size_t min_chunks = (n >> 31) + 1;
  if (chunks < min_chunks)
    chunks = min_chunks;
  *chunk = (n + chunks - 1) / chunks;
  chunks = (n + *chunk - 1) / *chunk;
  *global = (chunks + wg - 1) / wg * wg;
  return radix * *global * 8;
}

static prism_status sort_classic(prism_context *ctx,
                                 const prism__sort_args *a) {
  const prism__cl *cl = prism__cl_of(ctx);
  const prism__cl_policy *pol = &cl->policy;
  const size_t wg = pol->sort.chunk_wg;
  size_t chunk, global;
  const size_t tables_bytes = classic_shape(cl, a->n, &chunk, &global);

  sort_plan s;
  prism_status st = plan_sort(ctx, a, tables_bytes, &s);
  if (st != PRISM_OK)
    return st;
  char options[320];
  prism__cl_sort_options(options, sizeof options, a, a->value_size,
                         pol->sort.radix_bits, wg, 1);
  cl_kernel count, offsets, scatter;
  if ((st = prism__cl_kernel(ctx, "sort_classic.cl", options, "sort_count",
                             &count)) != PRISM_OK ||
      (st = prism__cl_kernel(ctx, "sort_classic.cl", options,
                             "sort_chunk_offsets", &offsets)) != PRISM_OK ||
      (st = prism__cl_kernel(ctx, "sort_classic.cl", options, "sort_scatter",
                             &scatter)) != PRISM_OK)
    return st;

  const cl_ulong n = a->n, chunk_arg = chunk, columns = global;
  prism__mem keys_src = s.keys_src, values_src = s.values_src;
  for (unsigned p = 0; p < s.passes && st == PRISM_OK; p++) {
    cl_uint shift, bits;
    pass_digit(&s, pol->sort.radix_bits, p, &shift, &bits);
    const prism__mem keys_dst = pass_keys(&s, p);
    const prism__mem values_dst = pass_values(&s, p);
    const prism__cl_arg count_args[] = {
        PRISM__CL_MEM_ANY(keys_src), PRISM__CL_ARG(n),
        PRISM__CL_ARG(chunk_arg),    PRISM__CL_ARG(shift),
        PRISM__CL_ARG(bits),         s.flip,
        PRISM__CL_ARG(s.scratch),    PRISM__CL_ARG(s.tables_offset)};
    const prism__cl_arg offsets_args[] = {PRISM__CL_ARG(s.scratch),
                                          PRISM__CL_ARG(s.tables_offset),
                                          PRISM__CL_ARG(columns)};
    const prism__cl_arg scatter_args[] = {PRISM__CL_MEM_ANY(keys_src),
                                          PRISM__CL_MEM_ANY(keys_dst),
                                          PRISM__CL_MEM_ANY(values_src),
                                          PRISM__CL_MEM_ANY(values_dst),
                                          PRISM__CL_ARG(n),
                                          PRISM__CL_ARG(chunk_arg),
                                          PRISM__CL_ARG(shift),
                                          PRISM__CL_ARG(bits),
                                          s.flip,
                                          PRISM__CL_ARG(s.scratch),
                                          PRISM__CL_ARG(s.tables_offset)};
    st = PRISM__CL_LAUNCH(ctx, count, "sort_count", count_args, global, wg);
    if (st == PRISM_OK)
      st = PRISM__CL_LAUNCH(ctx, offsets, "sort_chunk_offsets", offsets_args,
                            wg, wg);
    if (st == PRISM_OK)
      st = PRISM__CL_LAUNCH(ctx, scatter, "sort_scatter", scatter_args, global,
                            wg);
    keys_src = keys_dst;
    values_src = values_dst;
  }
  return st;
}

/* ---- onesweep: sort_histogram, sort_offsets, lookback_init, onesweep ---- */

/* Onesweep's shape and its tables after the alternates: ticket |
 * partials | digit starts | status, each region aligned (byte offsets
 * from the tables' start). */
typedef struct onesweep_shape {
  unsigned items, passes;
  size_t tile, tiles, groups, range;
  size_t partials_at, starts_at, status_at, status_words;
} onesweep_shape;

/* Returns the tables' bytes. */
static size_t onesweep_plan(const prism__cl *cl, const prism__sort_args *a,
                            onesweep_shape *o) {
  const prism__cl_policy *pol = &cl->policy;
  const size_t wg = pol->sort.wg;
  const size_t radix = (size_t)1 << pol->sort.radix_bits;
  o->items =
      prism_type_size(a->key_type) == 4 ? pol->sort.items_4 : pol->sort.items_8;
  o->tile = wg * o->items;
  o->tiles = (a->n + o->tile - 1) / o->tile;
  o->passes = (a->end_bit - a->begin_bit + pol->sort.radix_bits - 1) /
              pol->sort.radix_bits;

  /* Histogram groups: a few per compute unit, each range a whole number
   * of work-group strides and below 2^31 keys (32-bit local counts). */
  size_t groups =
      (size_t)pol->sort.hist_groups_per_cu * cl->facts.compute_units;
  if (groups > (a->n + wg - 1) / wg)
    groups = (a->n + wg - 1) / wg;
  if (groups < (a->n >> 31) + 1)
    groups = (a->n >> 31) + 1;
  size_t range = (a->n + groups - 1) / groups;
  range = (range + wg - 1) / wg * wg;
  o->range = range;
  o->groups = (a->n + range - 1) / range;

  o->partials_at = PRISM_CL_SCRATCH_ALIGN;
  o->starts_at =
      o->partials_at + prism__cl_align(o->groups * o->passes * radix * 4);
  o->status_at = o->starts_at + prism__cl_align(o->passes * radix * 8);
  o->status_words = o->tiles * radix;
  return o->status_at + o->status_words * 8;
}

static prism_status sort_onesweep(prism_context *ctx,
                                  const prism__sort_args *a) {
  const prism__cl *cl = prism__cl_of(ctx);
  const prism__cl_policy *pol = &cl->policy;
  const size_t wg = pol->sort.wg;
  const size_t radix = (size_t)1 << pol->sort.radix_bits;
  onesweep_shape o;
  const size_t tables_bytes = onesweep_plan(cl, a, &o);
  const unsigned items = o.items, passes = o.passes;
  const size_t tile = o.tile, tiles = o.tiles, groups = o.groups,
               range = o.range;
  if (tiles > UINT32_MAX)
    return prism__fail(ctx, PRISM_UNSUPPORTED,
                       "prism_sort: n = %zu needs more than 2^32 tiles of %zu",
                       a->n, tile);
  const size_t partials_at = o.partials_at, starts_at = o.starts_at,
               status_at = o.status_at, status_words = o.status_words;
  sort_plan s;
  prism_status st = plan_sort(ctx, a, tables_bytes, &s);
  if (st != PRISM_OK)
    return st;

  char options[320], upsweep_options[320];
  prism__cl_sort_options(options, sizeof options, a, a->value_size,
                         pol->sort.radix_bits, wg, items);
  prism__cl_sort_options(upsweep_options, sizeof upsweep_options, a, 0,
                         pol->sort.radix_bits, wg, 1);
  cl_kernel histogram, offsets, init, onesweep;
  if ((st = prism__cl_kernel(ctx, "sort_upsweep.cl", upsweep_options,
                             "sort_histogram", &histogram)) != PRISM_OK ||
      (st = prism__cl_kernel(ctx, "sort_upsweep.cl", upsweep_options,
                             "sort_offsets", &offsets)) != PRISM_OK ||
      (st = prism__cl_kernel(ctx, "sort_onesweep.cl", options, "lookback_init",
                             &init)) != PRISM_OK ||
      (st = prism__cl_kernel(ctx, "sort_onesweep.cl", options, "sort_onesweep",
                             &onesweep)) != PRISM_OK)
    return st;

  const cl_ulong n = a->n, range_arg = range;
  const cl_ulong ticket_off = s.tables_offset,
                 partials_off = s.tables_offset + partials_at,
                 starts_off = s.tables_offset + starts_at,
                 status_off = s.tables_offset + status_at, words = status_words;
  const cl_uint begin_bit = a->begin_bit, end_bit = a->end_bit,
                passes_arg = passes, groups_arg = (cl_uint)groups;
  const prism__cl_arg histogram_args[] = {PRISM__CL_MEM_ANY(s.keys_src),
                                          PRISM__CL_ARG(n),
                                          PRISM__CL_ARG(range_arg),
                                          PRISM__CL_ARG(begin_bit),
                                          PRISM__CL_ARG(passes_arg),
                                          PRISM__CL_ARG(end_bit),
                                          s.flip,
                                          PRISM__CL_ARG(s.scratch),
                                          PRISM__CL_ARG(partials_off)};
  const prism__cl_arg offsets_args[] = {
      PRISM__CL_ARG(s.scratch), PRISM__CL_ARG(partials_off),
      PRISM__CL_ARG(groups_arg), PRISM__CL_ARG(starts_off)};
  st = PRISM__CL_LAUNCH(ctx, histogram, "sort_histogram", histogram_args,
                        groups * wg, wg);
  if (st == PRISM_OK)
    st = PRISM__CL_LAUNCH(ctx, offsets, "sort_offsets", offsets_args,
                          passes * wg, wg);

  const prism__cl_arg init_args[] = {
      PRISM__CL_ARG(s.scratch), PRISM__CL_ARG(ticket_off),
      PRISM__CL_ARG(status_off), PRISM__CL_ARG(words)};
  prism__mem keys_src = s.keys_src, values_src = s.values_src;
  for (unsigned p = 0; p < passes && st == PRISM_OK; p++) {
    cl_uint shift, bits;
    pass_digit(&s, pol->sort.radix_bits, p, &shift, &bits);
    const prism__mem keys_dst = pass_keys(&s, p);
    const prism__mem values_dst = pass_values(&s, p);
    const cl_ulong pass_starts = starts_off + (cl_ulong)p * radix * 8;
    const prism__cl_arg onesweep_args[] = {PRISM__CL_MEM_ANY(keys_src),
                                           PRISM__CL_MEM_ANY(keys_dst),
                                           PRISM__CL_MEM_ANY(values_src),
                                           PRISM__CL_MEM_ANY(values_dst),
                                           PRISM__CL_ARG(n),
                                           PRISM__CL_ARG(shift),
                                           PRISM__CL_ARG(bits),
                                           s.flip,
                                           PRISM__CL_ARG(s.scratch),
                                           PRISM__CL_ARG(ticket_off),
                                           PRISM__CL_ARG(status_off),
                                           PRISM__CL_ARG(pass_starts)};
    st = PRISM__CL_LAUNCH(ctx, init, "lookback_init", init_args,
                          (status_words + wg - 1) / wg * wg, wg);
    if (st == PRISM_OK)
      st = PRISM__CL_LAUNCH(ctx, onesweep, "sort_onesweep", onesweep_args,
                            tiles * wg, wg);
    keys_src = keys_dst;
    values_src = values_dst;
  }
  return st;
}

size_t prism__cl_sort_scratch_bytes(prism_context *ctx,
                                    const prism__sort_args *args) {
  const prism__cl *cl = prism__cl_of(ctx);
  size_t tables = 0, chunk, global;
  onesweep_shape o;
  if (args->n <= cl->policy.sort.single_max)
    tables = 0;
  else if (cl->policy.sort.onesweep)
    tables = onesweep_plan(cl, args, &o);
  else
    tables = classic_shape(cl, args->n, &chunk, &global);
  return alternates_bytes(args) + tables;
}

prism_status prism__cl_sort(prism_context *ctx, const prism__sort_args *args) {
  const prism__cl_policy *pol = &prism__cl_of(ctx)->policy;
  if (args->n <= pol->sort.single_max)
    return sort_single(ctx, args);
  if (pol->sort.onesweep)
    return sort_onesweep(ctx, args);
  return sort_classic(ctx, args);
}
