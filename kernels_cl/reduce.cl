/* SPDX-License-Identifier: MIT */
/*
 * reduce.cl: reduce n elements with op in two launches (one for small n).
 *
 * Options (besides common.cl's):
 *   PRISM_CHUNKED  1: each work-item folds one contiguous chunk (CPUs: a
 *                  plain loop the compiler vectorises, one stream per core);
 *                  0: grid-stride loop (GPUs: neighbouring work-items read
 *                  neighbouring vectors, so every load is coalesced).
 */

#ifndef PRISM_CHUNKED
#define PRISM_CHUNKED 0
#endif

/*
 * reduce_partials: work-group g owns partials[g]. Each work-item folds its
 * share of in in private registers (chunk or grid-stride by PRISM_CHUNKED,
 * chunk_vecs vectors per work-item when chunked), the tail of fewer than
 * PRISM_VEC elements goes to the first work-items, and the partials meet in
 * a local-memory tree. Traffic: n elements read once, one element written
 * per work-group. Launched with one work-group, it writes the final result
 * (partials is then the result: scratch, or the caller's buffer).
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
reduce_partials(PRISM_BUF(const T, in), ulong n, ulong chunk_vecs,
                PRISM_BUF(T, partials)) {
  PRISM_BUF_AT(const T, in);
  PRISM_BUF_AT_ANY(T, partials);
  __local T buf[PRISM_WG];
  const ulong gid = get_global_id(0);
  const ulong gsize = get_global_size(0);
  const ulong nvec = n / PRISM_VEC;
#if PRISM_CHUNKED
  const ulong first = gid * chunk_vecs;
  T x = fold_vectors(in, first, min(first + chunk_vecs, nvec), 1);
#else
  T x = fold_vectors(in, gid, nvec, gsize);
#endif
  for (ulong i = nvec * PRISM_VEC + gid; i < n; i += gsize)
    x = op(x, in[i]);
  x = wg_reduce(x, buf);
  if (get_local_id(0) == 0)
    partials[get_group_id(0)] = x;
}

/*
 * reduce_final: one work-group folds the count partials (a few hundred at
 * most) into result (scratch, or the caller's buffer), strided so the reads
 * coalesce, then a local tree.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
reduce_final(__global uchar *scratch, ulong partials_offset, uint count,
             PRISM_BUF(T, result)) {
  PRISM_BUF_AT_ANY(T, result);
  __local T buf[PRISM_WG];
  __global const T *partials = SCRATCH(T, scratch, partials_offset);
  T x = IDENTITY;
  for (uint i = get_local_id(0); i < count; i += PRISM_WG)
    x = op(x, partials[i]);
  x = wg_reduce(x, buf);
  if (get_local_id(0) == 0)
    *result = x;
}
