/* SPDX-License-Identifier: MIT */
/*
 * select_chunks.cl: the CPU strategy of compaction (select.cl, built ahead
 * of this file, holds the rule and the count passes): select_chunks over a
 * few long contiguous chunks, one work-item each, after select_count and
 * select_offsets. Options: select.cl's.
 */

/* select_chunks stages each part's next elements in private memory and
 * stores them STAGE at a time, so the loop over a chunk has no branch that
 * depends on the data (half kept at random would mispredict every other
 * element). */
#define STAGE 64

/* Store the staged elements of a part at out[*at..] and advance *at. */
void flush_stage(__global T *out, ulong *at, const T *stage, uint count) {
  for (uint j = 0; j < count; j++)
    out[*at + j] = stage[j];
  *at += count;
}

/*
 * select_chunks: work-item g owns chunk [g * chunk, min(n, (g + 1) * chunk))
 * and walks it in order, writing its kept elements from starts[g] on and,
 * for a partition, its rejected ones from k + (chunk start - starts[g]) on.
 * Every element is written to the next slot of its part's private stage,
 * and the slot advances only when the element belongs there; full stages
 * are stored in one run. With has_offsets = 0 there is one chunk: it
 * starts at 0, counts itself first for a partition, and stores the count.
 * Traffic: n elements (and flags) read, the kept (partition: all) written,
 * each once (a partition's single chunk reads twice).
 */
__kernel __attribute__((reqd_work_group_size(1, 1, 1))) void
select_chunks(PRISM_BUF(const T, in), PRISM_BUF(const F, flags),
              PRISM_BUF(T, out), ulong n, T a, T b, uint keep, uint range,
              ulong chunk, __global uchar *scratch, ulong counts_offset,
              ulong kept_offset, uint has_offsets, PRISM_BUF(ulong, count_out),
              uint count_wanted) {
  PRISM_BUF_AT(const T, in);
  PRISM_BUF_AT(const F, flags);
  PRISM_BUF_AT(T, out);
  PRISM_BUF_AT_ANY(ulong, count_out);
  const ulong g = get_global_id(0);
  const ulong first = min(g * chunk, n);
  const ulong end = min(first + chunk, n);
  ulong kept = 0, k = 0;
  if (has_offsets) {
    kept = SCRATCH(ulong, scratch, counts_offset)[g];
    k = *SCRATCH(ulong, scratch, kept_offset);
  } else if (PRISM_PARTITION) {
    for (ulong i = first; i < end; i++)
      k += kept_at(in, flags, i, a, b, keep, range);
  }
  ulong rejected = k + (first - kept);
  T kept_stage[STAGE];
#if PRISM_PARTITION
  T rejected_stage[STAGE];
  uint r = 0;
#endif
  uint s_count = 0;
  T prev = first > 0 ? in[first - 1] : (T)0;
  for (ulong i = first; i < end; i++) {
    const T x = in[i];
#if defined(PRISM_SELECT_FLAGGED)
    const uint s = flags[i] != 0;
#else
    const uint s = value_kept(i, x, prev, a, b, keep, range);
#endif
    prev = x;
    kept_stage[s_count] = x;
    s_count += s;
    if (s_count == STAGE) {
      flush_stage(out, &kept, kept_stage, STAGE);
      s_count = 0;
    }
#if PRISM_PARTITION
    rejected_stage[r] = x;
    r += 1u - s;
    if (r == STAGE) {
      flush_stage(out, &rejected, rejected_stage, STAGE);
      r = 0;
    }
#endif
  }
  flush_stage(out, &kept, kept_stage, s_count);
#if PRISM_PARTITION
  flush_stage(out, &rejected, rejected_stage, r);
#endif
  if (!has_offsets && count_wanted)
    *count_out = kept;
}
