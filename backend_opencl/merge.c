/* SPDX-License-Identifier: MIT */
/*
 * Merge (core/backend.h, prism__merge_args) in kernels_cl/merge.cl (which
 * holds the design), as backend_cuda/merge.cu: merge_partition (a
 * work-item per tile boundary, into (tiles + 1) ulong splits in scratch),
 * then merge_tiles (a work-group per tile). Each goes out in launches of
 * at most policy.merge.launch work-items with a ulong base, so the tiles
 * may pass what one launch's global size holds. Queued, nothing read back.
 */
#include "opencl_internal.h"

#include <stdint.h>

prism_status prism__cl_merge(prism_context *ctx, const prism__merge_args *a) {
  const prism__cl_merge_policy *pol = &prism__cl_of(ctx)->policy.merge;
  static const char *const image[] = {"I32", "U32", "F32", "I64", "U64", "F64"};
  const size_t key_bytes = prism_type_size(a->key_type);
  const unsigned items = key_bytes == 4 ? pol->items_4 : pol->items_8;
  const size_t wg = pol->wg, pwg = pol->partition_wg;
  const size_t tile = wg * items;
  const size_t n = a->na + a->nb;
  const size_t tiles = (n + tile - 1) / tile;

  /* The key's bits as T, its image macro, values, shapes. */
  char options[320];
  prism__cl_options(
      options, sizeof options, key_bytes == 4 ? PRISM_U32 : PRISM_U64,
      PRISM_SUM,
      "-DPRISM_KEY_IMAGE=PRISM_KEY_IMAGE_%s -DPRISM_VALUE_BYTES=%zu "
      "-DPRISM_WG=%zu -DPRISM_ITEMS=%u -DPRISM_PARTITION_WG=%zu "
      "-DPRISM_MERGE_LOCAL=%zu",
      image[a->key_type], a->value_size, wg, items, pwg,
      (size_t)PRISM__CL_MERGE_LOCAL(wg, (size_t)items, key_bytes,
                                    a->value_size));
  cl_kernel partition, merge;
  prism_status st;
  if ((st = prism__cl_kernel(ctx, "merge.cl", options, "merge_partition",
                             &partition)) != PRISM_OK ||
      (st = prism__cl_kernel(ctx, "merge.cl", options, "merge_tiles",
                             &merge)) != PRISM_OK)
    return st;

  void *native;
  if ((st = prism__scratch(ctx, (tiles + 1) * sizeof(cl_ulong), &native)) !=
      PRISM_OK)
    return st;
  const cl_mem splits = (cl_mem)native;

  /* All ones for descending order, as wide as a key. */
  const cl_uint flip4 = a->descending ? UINT32_MAX : 0;
  const cl_ulong flip8 = a->descending ? UINT64_MAX : 0;
  const prism__cl_arg flip = {
      key_bytes, key_bytes == 4 ? (const void *)&flip4 : (const void *)&flip8,
      0};
  const cl_ulong na = a->na, nb = a->nb, tile_count = tiles;

  /* Boundaries 0 .. tiles, whole work-groups of at most launch
   * work-items (the last group's extra work-items return). */
  const size_t pgroups_per = pol->launch / pwg > 0 ? pol->launch / pwg : 1;
  const size_t pgroups = (tiles + 1 + pwg - 1) / pwg;
  for (size_t g = 0; g < pgroups; g += pgroups_per) {
    const size_t count = pgroups - g < pgroups_per ? pgroups - g : pgroups_per;
    const cl_ulong base = (cl_ulong)g * pwg;
    const prism__cl_arg args[] = {PRISM__CL_MEM(a->keys_a),
                                  PRISM__CL_ARG(na),
                                  PRISM__CL_MEM(a->keys_b),
                                  PRISM__CL_ARG(nb),
                                  PRISM__CL_ARG(tile_count),
                                  PRISM__CL_ARG(base),
                                  flip,
                                  PRISM__CL_ARG(splits)};
    if ((st = PRISM__CL_LAUNCH(ctx, partition, "merge_partition", args,
                               count * pwg, pwg)) != PRISM_OK)
      return st;
  }

  /* A work-group per tile, at most launch / wg tiles a launch. */
  const size_t tiles_per = pol->launch / wg > 0 ? pol->launch / wg : 1;
  for (size_t t = 0; t < tiles; t += tiles_per) {
    const size_t count = tiles - t < tiles_per ? tiles - t : tiles_per;
    const cl_ulong base = t;
    const prism__cl_arg args[] = {PRISM__CL_MEM(a->keys_a),
                                  PRISM__CL_MEM(a->keys_b),
                                  PRISM__CL_ARG(na),
                                  PRISM__CL_ARG(nb),
                                  PRISM__CL_ARG(splits),
                                  PRISM__CL_ARG(base),
                                  flip,
                                  PRISM__CL_MEM(a->keys_out),
                                  PRISM__CL_MEM(a->values_a),
                                  PRISM__CL_MEM(a->values_b),
                                  PRISM__CL_MEM(a->values_out)};
    if ((st = PRISM__CL_LAUNCH(ctx, merge, "merge_tiles", args, count * wg,
                               wg)) != PRISM_OK)
      return st;
  }
  return PRISM_OK;
}
