/* SPDX-License-Identifier: MIT */
/*
 * sort_upsweep.cl: every pass's digit histogram in one read of the keys,
 * then each pass's digit starts (the onesweep path's upsweep).
 *
 *   sort_histogram  work-group g counts the digits of every pass over its
 *                   range of keys into partials[g][pass][digit]
 *   sort_offsets    work-group p sums pass p's partials over the groups
 *                   and scans them: digit_start[p][d], the first output
 *                   position of digit d in pass p
 */

/* Passes of the widest key: the size of the local histogram. */
#define MAX_PASSES ((T_BYTES * 8 + PRISM_RADIX_BITS - 1) / PRISM_RADIX_BITS)

/*
 * sort_histogram: work-group g owns partials[g] and keys [g * range,
 * min(n, (g + 1) * range)), read striped so the loads coalesce; local
 * atomics count into a histogram per pass (counts need no order). The
 * host keeps range below 2^32. Traffic: n keys read, groups * passes *
 * RADIX counts written.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
sort_histogram(PRISM_BUF(const K, keys), ulong n, ulong range, uint begin_bit,
               uint passes, uint end_bit, K flip, __global uchar *scratch,
               ulong partials_offset) {
  PRISM_BUF_AT_ANY(const K, keys);
  __local uint hist[MAX_PASSES * RADIX];
  const uint lid = get_local_id(0);
  for (uint i = lid; i < passes * RADIX; i += PRISM_WG)
    hist[i] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  const ulong first = min((ulong)get_group_id(0) * range, n);
  const ulong end = min(first + range, n);
  for (ulong i = first + lid; i < end; i += PRISM_WG) {
    const K key = keys[i];
    for (uint p = 0; p < passes; p++) {
      const uint shift = begin_bit + p * PRISM_RADIX_BITS;
      const uint bits = min((uint)PRISM_RADIX_BITS, end_bit - shift);
      atomic_inc(&hist[p * RADIX + key_digit(key, shift, bits, flip)]);
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  __global uint *out = SCRATCH(uint, scratch, partials_offset) +
                       (ulong)get_group_id(0) * passes * RADIX;
  for (uint i = lid; i < passes * RADIX; i += PRISM_WG)
    out[i] = hist[i];
}

/*
 * sort_offsets: work-group p owns digit_start[p]: work-item d sums digit
 * d's counts over the groups (reads coalesce across digits), then the
 * work-group scans the RADIX sums. Traffic: the partials read once.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
sort_offsets(__global uchar *scratch, ulong partials_offset, uint groups,
             ulong digit_start_offset) {
  __local ulong buf[2 * PRISM_WG];
  const uint p = get_group_id(0), passes = get_num_groups(0);
  __global const uint *partials = SCRATCH(uint, scratch, partials_offset);
  __global ulong *start =
      SCRATCH(ulong, scratch, digit_start_offset) + (ulong)p * RADIX;
  for (uint d = get_local_id(0); d < RADIX; d += PRISM_WG) {
    ulong sum = 0;
    for (uint g = 0; g < groups; g++)
      sum += partials[((ulong)g * passes + p) * RADIX + d];
    start[d] = sum;
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
  wg_scan_runs(start, RADIX, 0, buf);
}
