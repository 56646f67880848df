/* SPDX-License-Identifier: MIT */
/*
 * scan: two strategies, chosen by the device policy.
 * - Look-back (GPUs): lookback_init + scan_lookback, one pass over the data
 *   (~2n words moved); small n: scan_single_block, one launch.
 * - Reduce-then-scan (CPUs, and wherever look-back is not safe):
 *   scan_reduce_chunks + scan_partials + scan_chunks over a few long
 *   contiguous chunks (~3n words); small n: scan_chunks alone.
 * Scratch comes from the context pool, carved with byte offsets passed as
 * kernel arguments.
 */
#include "lookback.h"
#include "opencl_internal.h"

#include <stdint.h>

static prism_status scan_lookback(prism_context *ctx,
                                  const prism__scan_args *args) {
  prism__cl *cl = prism__cl_of(ctx);
  const prism__cl_policy *pol = &cl->policy;
  const size_t elem = prism_type_size(args->type);
  const size_t wg = pol->scan.wg;
  const unsigned items = elem == 4 ? pol->scan.items_4 : pol->scan.items_8;
  const size_t tile = wg * items;
  const size_t tiles = (args->n + tile - 1) / tile;
  if (tiles > UINT32_MAX)
    return prism__fail(ctx, PRISM_UNSUPPORTED,
                       "prism_scan: n = %zu needs more than 2^32 tiles of %zu",
                       args->n, tile);

  char options[256];
  prism__cl_options(options, sizeof options, args->type, args->op,
                    "-DPRISM_WG=%zu -DPRISM_ITEMS=%u -DPRISM_LB_WINDOW=%u", wg,
                    items, pol->scan.lb_window);
  const cl_ulong n = args->n;
  const cl_uint exclusive = args->kind == PRISM_EXCLUSIVE;

  cl_kernel k;
  prism_status st;
  if (tiles <= pol->scan.single_tiles) {
    st = prism__cl_kernel(ctx, "scan.cl", options, "scan_single_block", &k);
    if (st != PRISM_OK)
      return st;
    const prism__cl_arg a[] = {PRISM__CL_MEM(args->in),
                               PRISM__CL_MEM(args->out), PRISM__CL_ARG(n),
                               PRISM__CL_ARG(exclusive)};
    return PRISM__CL_LAUNCH(ctx, k, "scan_single_block", a, wg, wg);
  }

  /* Scratch: ticket | status_aggregate | status_prefix, each region
   * aligned; a status array holds PRISM_LB_WORDS(elem) 64-bit words per
   * tile (see scan.cl). */
  const size_t status_bytes = tiles * PRISM_LB_WORDS(elem) * sizeof(cl_ulong);
  const cl_ulong ticket_offset = 0;
  const cl_ulong aggregate_offset = PRISM_CL_SCRATCH_ALIGN;
  const cl_ulong prefix_offset =
      aggregate_offset + prism__cl_align(status_bytes);
  void *native;
  st = prism__scratch(ctx, (size_t)prefix_offset + status_bytes, &native);
  if (st != PRISM_OK)
    return st;
  cl_mem scratch = (cl_mem)native;

  cl_kernel init;
  st = prism__cl_kernel(ctx, "scan.cl", options, "lookback_init", &init);
  if (st == PRISM_OK)
    st = prism__cl_kernel(ctx, "scan.cl", options, "scan_lookback", &k);
  if (st != PRISM_OK)
    return st;
  /* Both arrays (and the alignment between them) cleared as one run. */
  const cl_ulong words =
      (prefix_offset + status_bytes - aggregate_offset) / sizeof(cl_ulong);
  const prism__cl_arg init_args[] = {
      PRISM__CL_ARG(scratch), PRISM__CL_ARG(ticket_offset),
      PRISM__CL_ARG(aggregate_offset), PRISM__CL_ARG(words)};
  st = PRISM__CL_LAUNCH(ctx, init, "lookback_init", init_args,
                        (words + wg - 1) / wg * wg, wg);
  if (st != PRISM_OK)
    return st;
  const prism__cl_arg a[] = {PRISM__CL_MEM(args->in),
                             PRISM__CL_MEM(args->out),
                             PRISM__CL_ARG(n),
                             PRISM__CL_ARG(exclusive),
                             PRISM__CL_ARG(scratch),
                             PRISM__CL_ARG(ticket_offset),
                             PRISM__CL_ARG(aggregate_offset),
                             PRISM__CL_ARG(prefix_offset)};
  return PRISM__CL_LAUNCH(ctx, k, "scan_lookback", a, tiles * wg, wg);
}

static prism_status scan_chunked(prism_context *ctx,
                                 const prism__scan_args *args) {
  prism__cl *cl = prism__cl_of(ctx);
  const prism__cl_policy *pol = &cl->policy;
  const size_t elem = prism_type_size(args->type);
  const size_t wg = pol->scan.chunk_wg;
  /* Vector loads and stores (LOAD_VEC, STORE_VEC) need both views'
   * starts aligned to a vector: otherwise this call scans an element at a
   * time. */
  const prism__mem views[] = {args->in, args->out};
  const size_t vec =
      pol->scan.chunk_vec_bytes > elem &&
              prism__cl_vec_fits(views, 2, pol->scan.chunk_vec_bytes)
          ? pol->scan.chunk_vec_bytes / elem
          : 1;

  /* Chunks: as many as the policy wants, none shorter than chunk_min, each
   * a whole number of vectors; work-items round up to whole work-groups
   * (the extra ones own empty chunks). */
  size_t chunks = args->n / pol->scan.chunk_min;
  size_t max_chunks = (size_t)pol->scan.chunks_per_cu * cl->facts.compute_units;
  if (chunks > max_chunks)
    chunks = max_chunks;
  if (chunks < 1)
    chunks = 1;
  size_t chunk = (args->n + chunks - 1) / chunks;
  chunk = (chunk + vec - 1) / vec * vec;
  chunks = (args->n + chunk - 1) / chunk;
  const size_t global = (chunks + wg - 1) / wg * wg;

  char options[256];
  prism__cl_options(options, sizeof options, args->type, args->op,
                    "-DPRISM_WG=%zu -DPRISM_VEC=%zu", wg, vec);
  const cl_ulong n = args->n, chunk_arg = chunk, sums_offset = 0;
  const cl_uint exclusive = args->kind == PRISM_EXCLUSIVE;
  const cl_uint has_prefix = chunks > 1;

  cl_kernel reduce = NULL, partials = NULL, scan;
  prism_status st =
      prism__cl_kernel(ctx, "scan_chunks.cl", options, "scan_chunks", &scan);
  if (st == PRISM_OK && has_prefix)
    st = prism__cl_kernel(ctx, "scan_chunks.cl", options, "scan_reduce_chunks",
                          &reduce);
  if (st == PRISM_OK && has_prefix)
    st = prism__cl_kernel(ctx, "scan_chunks.cl", options, "scan_partials",
                          &partials);
  if (st != PRISM_OK)
    return st;

  cl_mem scratch = NULL; /* a NULL buffer argument is allowed when unused */
  if (has_prefix) {
    void *native;
    st = prism__scratch(ctx, global * elem, &native);
    if (st != PRISM_OK)
      return st;
    scratch = (cl_mem)native;
    const cl_uint count = (cl_uint)global;
    const prism__cl_arg reduce_args[] = {
        PRISM__CL_MEM(args->in), PRISM__CL_ARG(n), PRISM__CL_ARG(chunk_arg),
        PRISM__CL_ARG(scratch), PRISM__CL_ARG(sums_offset)};
    const prism__cl_arg partials_args[] = {PRISM__CL_ARG(scratch),
                                           PRISM__CL_ARG(sums_offset),
                                           PRISM__CL_ARG(count)};
    st = PRISM__CL_LAUNCH(ctx, reduce, "scan_reduce_chunks", reduce_args,
                          global, wg);
    if (st == PRISM_OK)
      st = PRISM__CL_LAUNCH(ctx, partials, "scan_partials", partials_args, wg,
                            wg);
    if (st != PRISM_OK)
      return st;
  }
  const prism__cl_arg scan_args[] = {
      PRISM__CL_MEM(args->in),    PRISM__CL_MEM(args->out),
      PRISM__CL_ARG(n),           PRISM__CL_ARG(chunk_arg),
      PRISM__CL_ARG(exclusive),   PRISM__CL_ARG(scratch),
      PRISM__CL_ARG(sums_offset), PRISM__CL_ARG(has_prefix)};
  return PRISM__CL_LAUNCH(ctx, scan, "scan_chunks", scan_args, global, wg);
}

prism_status prism__cl_scan(prism_context *ctx, const prism__scan_args *args) {
  if (prism__cl_of(ctx)->policy.scan.lookback)
    return scan_lookback(ctx, args);
  return scan_chunked(ctx, args);
}
