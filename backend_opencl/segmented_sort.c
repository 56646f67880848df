/* SPDX-License-Identifier: MIT */
/*
 * Segmented sort (core/backend.h, prism__segmented_sort_args) in
 * kernels_cl/segmented_sort.cl (which holds the design), as
 * backend_cuda/segmented_sort.cu: segsort_classify (a work-item per
 * segment, into a list of spans per class in scratch), one readback of the
 * header (first bad segment, class counts, the first DEVICE spans), then
 * segsort_small (a work-group per SMALL segment) and segsort_global
 * (sort_single.cl, a work-group per BLOCK segment), then the device-wide
 * sort (sort.c) per DEVICE segment, one after another; or, where they are
 * enough to fill the device a work-group each
 * (policy.segsort.device_groups_per_cu), segsort_global over them too. Each
 * kernel goes out in launches of at most policy.segsort.launch work-items with
 * a ulong base.
 *
 * The scratch, one prism__scratch call, regions aligned:
 *   header   HEADER_BYTES: first bad (uint, all ones for none), the
 *            SMALL, BLOCK and DEVICE counts (uint); then the DEVICE spans
 *            (ulong start, end), so the first PEEK of them come back with
 *            the counts in one read
 *   SMALL spans, BLOCK spans
 *   the keys' and values' alternates for segsort_global, n of each (only
 *            when BLOCK segments can exist), the segments at their own
 *            positions.
 * The device-wide sorts take the scratch for themselves (and may grow it,
 * which drains the queue first): everything of ours is read back or
 * queued before the first.
 */
#include "opencl_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* segmented_sort.cl's HEADER_* words: first bad, then 3 counts. */
#define HEADER_BYTES 16
/* DEVICE spans read back with the header (one read); more take another. */
#define PEEK 256

/* The offset type as segmented.cl's code: OFFSET_SIGNED | OFFSET_WIDE. */
static cl_uint offset_code(prism_type t) {
  return (cl_uint)((t == PRISM_I32 || t == PRISM_I64) |
                   (t == PRISM_U64 || t == PRISM_I64) << 1);
}

static size_t min_size(size_t a, size_t b) {
  return a < b ? a : b;
}

/* One call's plan: the shapes, the scratch layout, the key's flip and
 * mask. */
typedef struct segsort_call {
  prism_context *ctx;
  const prism__segmented_sort_args *a;
  const prism__cl_segsort_policy *pol;
  size_t key_bytes;
  int keys_same, values_same; /* in place */
  cl_mem scratch;
  size_t small_at, block_at, device_at;    /* spans, bytes */
  size_t small_cap, block_cap, device_cap; /* spans each list holds */
  size_t keys_alt_at, values_alt_at;       /* bytes */
  cl_uint flip4, mask4;                    /* 4-byte keys */
  cl_ulong flip8, mask8;                   /* 8-byte keys */
  prism__cl_arg flip, mask;                /* as wide as a key */
  char options[320];                       /* segmented_sort.cl's */
} segsort_call;

/*
 * Lists and their capacities: good segments never overlap, so a class
 * whose segments are longer than m holds at most n / (m + 1) of them (a
 * longer list means a bad segment, and nothing is sorted). SMALL segments
 * have at least one key.
 */
static prism_status plan(segsort_call *c) {
  const prism__sort_args *s = &c->a->sort;
  const size_t n = s->n, segments = c->a->num_segments;
  c->small_cap = min_size(segments, n);
  c->block_cap = min_size(segments, n / (c->pol->small_max + 1));
  c->device_cap = min_size(segments, n / (c->pol->block_max + 1));
  c->device_at = HEADER_BYTES;
  c->small_at = prism__cl_align(c->device_at + c->device_cap * 16);
  c->block_at = c->small_at + prism__cl_align(c->small_cap * 16);
  c->keys_alt_at = c->block_at + prism__cl_align(c->block_cap * 16);
  c->values_alt_at = c->keys_alt_at;
  size_t bytes = c->keys_alt_at;
  if (c->block_cap) {
    c->values_alt_at = c->keys_alt_at + prism__cl_align(n * c->key_bytes);
    bytes = c->values_alt_at + n * s->value_size;
  }
  void *native;
  prism_status st = prism__scratch(c->ctx, bytes, &native);
  c->scratch = (cl_mem)native;
  return st;
}

/* The key's flip (all ones for descending order) and mask (the bits
 * [begin_bit, end_bit) of the image), as wide as a key. */
static void key_words(segsort_call *c) {
  const prism__sort_args *s = &c->a->sort;
  const unsigned width = s->end_bit - s->begin_bit;
  c->flip4 = s->descending ? UINT32_MAX : 0;
  c->flip8 = s->descending ? UINT64_MAX : 0;
  c->mask8 = (width >= 64 ? UINT64_MAX : ((cl_ulong)1 << width) - 1)
             << s->begin_bit;
  c->mask4 = (cl_uint)c->mask8;
  const int wide = c->key_bytes == 8;
  c->flip.size = c->mask.size = c->key_bytes;
  c->flip.value = wide ? (const void *)&c->flip8 : (const void *)&c->flip4;
  c->mask.value = wide ? (const void *)&c->mask8 : (const void *)&c->mask4;
  c->flip.view_offset = c->mask.view_offset = 0;
}

/* Work-groups [0, groups) of wg, in launches of at most policy.launch
 * work-items; before each, *base (the kernel's base argument, which args
 * points at) = its first group times per_group (work-items for the
 * classification, groups for the sorts). */
static prism_status launch_groups(segsort_call *c, cl_kernel k,
                                  const char *name, const prism__cl_arg *args,
                                  unsigned nargs, cl_ulong *base, size_t groups,
                                  size_t wg, size_t per_group) {
  const size_t per_launch = c->pol->launch / wg > 0 ? c->pol->launch / wg : 1;
  prism_status st = PRISM_OK;
  for (size_t g = 0; g < groups && st == PRISM_OK; g += per_launch) {
    const size_t count = min_size(groups - g, per_launch);
    *base = (cl_ulong)g * per_group;
    st = prism__cl_launch(c->ctx, k, name, args, nargs, count * wg, wg);
  }
  return st;
}

/* segsort_classify over every segment, after the header is reset. */
static prism_status classify(segsort_call *c) {
  static const cl_uint reset[HEADER_BYTES / 4] = {UINT32_MAX, 0, 0, 0};
  const prism__segmented_sort_args *a = c->a;
  const size_t wg = c->pol->classify_wg;
  prism_status st = prism__backend_opencl.mem_fill(c->ctx, c->scratch, 0, reset,
                                                   sizeof reset, sizeof reset);
  cl_kernel k;
  if (st != PRISM_OK ||
      (st = prism__cl_kernel(c->ctx, "segmented_sort.cl", c->options,
                             "segsort_classify", &k)) != PRISM_OK)
    return st;
  const cl_uint code = offset_code(a->offset_type);
  const cl_uint copy_singles = !(c->keys_same && c->values_same);
  const cl_ulong segments = a->num_segments, n = a->sort.n;
  const cl_ulong small_max = c->pol->small_max, block_max = c->pol->block_max;
  const cl_ulong header_at = 0, small_at = c->small_at,
                 small_cap = c->small_cap, block_at = c->block_at,
                 block_cap = c->block_cap, device_at = c->device_at,
                 device_cap = c->device_cap;
  cl_ulong base = 0;
  const prism__cl_arg args[] = {
      PRISM__CL_MEM(a->offsets),   PRISM__CL_ARG(code),
      PRISM__CL_ARG(segments),     PRISM__CL_ARG(n),
      PRISM__CL_ARG(small_max),    PRISM__CL_ARG(block_max),
      PRISM__CL_ARG(copy_singles), PRISM__CL_ARG(base),
      PRISM__CL_ARG(c->scratch),   PRISM__CL_ARG(header_at),
      PRISM__CL_ARG(small_at),     PRISM__CL_ARG(small_cap),
      PRISM__CL_ARG(block_at),     PRISM__CL_ARG(block_cap),
      PRISM__CL_ARG(device_at),    PRISM__CL_ARG(device_cap)};
  return launch_groups(c, k, "segsort_classify", args, PRISM__CL_NARGS(args),
                       &base, (a->num_segments + wg - 1) / wg, wg, wg);
}

/* segsort_small over the SMALL spans. */
static prism_status sort_small(segsort_call *c, size_t count) {
  const prism__sort_args *s = &c->a->sort;
  cl_kernel k;
  prism_status st = prism__cl_kernel(c->ctx, "segmented_sort.cl", c->options,
                                     "segsort_small", &k);
  if (st != PRISM_OK)
    return st;
  const cl_ulong spans_at = c->small_at;
  cl_ulong base = 0;
  const prism__cl_arg args[] = {PRISM__CL_MEM(s->keys_in),
                                PRISM__CL_MEM(s->keys_out),
                                PRISM__CL_MEM(s->values_in),
                                PRISM__CL_MEM(s->values_out),
                                PRISM__CL_ARG(c->scratch),
                                PRISM__CL_ARG(spans_at),
                                PRISM__CL_ARG(base),
                                c->flip,
                                c->mask};
  return launch_groups(c, k, "segsort_small", args, PRISM__CL_NARGS(args),
                       &base, count, c->pol->small_wg, 1);
}

/* segsort_global over count spans at spans_at (the BLOCK list, or the
 * DEVICE one), with the sort's program options. */
static prism_status sort_block(segsort_call *c, size_t spans_at, size_t count) {
  const prism__sort_args *s = &c->a->sort;
  const prism__cl_policy *pol = &prism__cl_of(c->ctx)->policy;
  const size_t wg = c->pol->block_wg;
  char options[320];
  prism__cl_sort_options(
      options, sizeof options, s, s->value_size, pol->sort.radix_bits, wg,
      c->key_bytes == 4 ? c->pol->block_items_4 : c->pol->block_items_8);
  cl_kernel k;
  prism_status st =
      prism__cl_kernel(c->ctx, "sort_single.cl", options, "segsort_global", &k);
  if (st != PRISM_OK)
    return st;
  const prism__mem keys_alt = prism__cl_mem_at(c->scratch, c->keys_alt_at);
  const prism__mem values_alt =
      s->value_size ? prism__cl_mem_at(c->scratch, c->values_alt_at)
                    : s->values_out;
  const prism__mem spans = prism__cl_mem_at(c->scratch, spans_at);
  const cl_uint begin_bit = s->begin_bit, end_bit = s->end_bit;
  const cl_uint keys_in_place = (cl_uint)c->keys_same,
                values_in_place = (cl_uint)(s->value_size && c->values_same);
  cl_ulong base = 0;
  const prism__cl_arg args[] = {PRISM__CL_MEM_ANY(s->keys_in),
                                PRISM__CL_MEM_ANY(s->keys_out),
                                PRISM__CL_MEM_ANY(keys_alt),
                                PRISM__CL_MEM_ANY(s->values_in),
                                PRISM__CL_MEM_ANY(s->values_out),
                                PRISM__CL_MEM_ANY(values_alt),
                                PRISM__CL_MEM_ANY(spans),
                                PRISM__CL_ARG(base),
                                PRISM__CL_ARG(begin_bit),
                                PRISM__CL_ARG(end_bit),
                                c->flip,
                                PRISM__CL_ARG(keys_in_place),
                                PRISM__CL_ARG(values_in_place)};
  return launch_groups(c, k, "segsort_global", args, PRISM__CL_NARGS(args),
                       &base, count, wg, 1);
}

/* The device-wide sort of each DEVICE span: the sort's views advanced to
 * the segment. */
static prism_status sort_device(segsort_call *c, const cl_ulong *spans,
                                size_t count) {
  const prism__sort_args *s = &c->a->sort;
  prism_status st = PRISM_OK;
  for (size_t i = 0; i < count && st == PRISM_OK; i++) {
    const size_t start = (size_t)spans[2 * i];
    prism__sort_args sub = *s;
    sub.n = (size_t)spans[2 * i + 1] - start;
    sub.keys_in.offset += start * c->key_bytes;
    sub.keys_out.offset += start * c->key_bytes;
    if (s->value_size) {
      sub.values_in.offset += start * s->value_size;
      sub.values_out.offset += start * s->value_size;
    }
    st = prism__cl_sort(c->ctx, &sub);
  }
  return st;
}

prism_status prism__cl_segmented_sort(prism_context *ctx,
                                      const prism__segmented_sort_args *a) {
  static const char *const image[] = {"I32", "U32", "F32", "I64", "U64", "F64"};
  prism__cl *cl = prism__cl_of(ctx);
  const prism__sort_args *s = &a->sort;
  segsort_call c;
  memset(&c, 0, sizeof c);
  c.ctx = ctx;
  c.a = a;
  c.pol = &cl->policy.segsort;
  c.key_bytes = prism_type_size(s->key_type);
  c.keys_same = prism__mem_same(s->keys_in, s->keys_out);
  c.values_same =
      !s->value_size || prism__mem_same(s->values_in, s->values_out);
  key_words(&c);
  prism__cl_options(
      c.options, sizeof c.options, c.key_bytes == 4 ? PRISM_U32 : PRISM_U64,
      PRISM_SUM,
      "-DPRISM_KEY_IMAGE=PRISM_KEY_IMAGE_%s -DPRISM_VALUE_BYTES=%zu "
      "-DPRISM_WG=%u -DPRISM_CLASSIFY_WG=%u -DPRISM_SMALL_MAX=%zu "
      "-DPRISM_SMALL_LOCAL=%zu",
      image[s->key_type], s->value_size, c.pol->small_wg, c.pol->classify_wg,
      c.pol->small_max,
      (size_t)PRISM__CL_SEGSORT_SMALL_LOCAL(c.pol->small_max, c.key_bytes));

  prism_status st = plan(&c);
  if (st == PRISM_OK)
    st = classify(&c);
  if (st != PRISM_OK)
    return st;

  /* The one wait: the header and the first DEVICE spans. */
  cl_ulong head[HEADER_BYTES / 8 + 2 * PEEK];
  const size_t peek = min_size(c.device_cap, PEEK);
  cl_int err =
      clEnqueueReadBuffer(cl->queue, c.scratch, CL_TRUE, 0,
                          HEADER_BYTES + peek * 16, head, 0, NULL, NULL);
  if (err != CL_SUCCESS)
    return prism__cl_fail(ctx, err, "clEnqueueReadBuffer(segmented sort)");
  cl_uint words[HEADER_BYTES / 4];
  memcpy(words, head, sizeof words);
  *a->first_bad = words[0] == UINT32_MAX ? SIZE_MAX : (size_t)words[0];
  if (words[0] != UINT32_MAX)
    return PRISM_OK;
  const size_t small = words[1], block = words[2], device = words[3];

  if (small && (st = sort_small(&c, small)) != PRISM_OK)
    return st;
  if (block && (st = sort_block(&c, c.block_at, block)) != PRISM_OK)
    return st;
  if (!device)
    return PRISM_OK;
  /* Enough DEVICE segments to fill the device a work-group each: one
   * launch of segsort_global, no second wait (below 2^32 keys in all, the
   * kernel's 32-bit local digit counts hold any segment). */
  const size_t fill =
      (size_t)c.pol->device_groups_per_cu * cl->facts.compute_units;
  if (fill && device >= fill && s->n <= UINT32_MAX)
    return sort_block(&c, c.device_at, device);

  /* The rest of the DEVICE spans (a second wait), before the first
   * device-wide sort takes the scratch. */
  const cl_ulong *spans = head + HEADER_BYTES / 8;
  cl_ulong *all = NULL;
  if (device > PEEK) {
    all = malloc(device * 16);
    if (!all)
      return prism__fail(ctx, PRISM_OUT_OF_MEMORY, "out of host memory");
    memcpy(all, spans, PEEK * 16);
    err = clEnqueueReadBuffer(cl->queue, c.scratch, CL_TRUE,
                              c.device_at + PEEK * 16, (device - PEEK) * 16,
                              all + 2 * PEEK, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
      free(all);
      return prism__cl_fail(ctx, err,
                            "clEnqueueReadBuffer(segmented sort spans)");
    }
    spans = all;
  }
  st = sort_device(&c, spans, device);
  free(all);
  return st;
}
