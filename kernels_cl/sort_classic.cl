/* SPDX-License-Identifier: MIT */
/*
 * sort_classic.cl: one radix pass as count, scan, scatter, for CPUs
 * (PoCL) and wherever look-back is not safe. No promise about which
 * work-groups run at the same time is needed.
 *
 * Work-item g owns keys [g * chunk, min(n, (g + 1) * chunk)) and streams
 * them in order (one contiguous stream per work-item: what a CPU core
 * wants). The count table is digit-major, table[d * chunks + g], so its
 * exclusive scan gives each chunk the first output position of each digit.
 * Three launches per pass:
 *   sort_count          each chunk's digit counts       (reads n keys)
 *   sort_chunk_offsets  the table's exclusive scan      (one work-group)
 *   sort_scatter        each chunk's keys to their places, in input order
 *                       (reads n keys and values, writes n of each)
 */

/* The chunk of work-item g: [*first, *end). */
void chunk_range(ulong n, ulong chunk, ulong *first, ulong *end) {
  const ulong g = get_global_id(0);
  *first = min(g * chunk, n);
  *end = min(*first + chunk, n);
}

/*
 * sort_count: work-item g counts its chunk's digits in private memory and
 * writes column g of the table. Traffic: n keys read, RADIX * chunks
 * counts written.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
sort_count(PRISM_BUF(const K, keys), ulong n, ulong chunk, uint shift,
           uint bits, K flip, __global uchar *scratch, ulong table_offset) {
  PRISM_BUF_AT_ANY(const K, keys);
  ulong first, end;
  chunk_range(n, chunk, &first, &end);
  uint counts[RADIX];
  for (uint d = 0; d < RADIX; d++)
    counts[d] = 0;
  /* Counts of one chunk fit in 32 bits: the host keeps chunks below 2^32. */
  for (ulong i = first; i < end; i++)
    counts[key_digit(keys[i], shift, bits, flip)]++;
  __global ulong *table = SCRATCH(ulong, scratch, table_offset);
  const ulong chunks = get_global_size(0);
  for (uint d = 0; d < RADIX; d++)
    table[d * chunks + get_global_id(0)] = counts[d];
}

/*
 * sort_chunk_offsets: one work-group scans the RADIX * count entries of
 * the table in place (exclusive). Traffic: the table, read and written.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
sort_chunk_offsets(__global uchar *scratch, ulong table_offset, ulong count) {
  __local ulong buf[2 * PRISM_WG];
  wg_scan_runs(SCRATCH(ulong, scratch, table_offset), RADIX * count, 0, buf);
}

/*
 * sort_scatter: work-item g takes its column of the scanned table as
 * running offsets and writes its chunk's keys (and values) in input order:
 * stable, as each digit's positions rise with chunk and input order.
 * Writes to RADIX streams per chunk. Keys and values are the caller's
 * or the alternates in the scratch, at byte offsets. Traffic: n keys (and
 * values) read and written.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
sort_scatter(PRISM_BUF(const K, keys_in), PRISM_BUF(K, keys_out),
             PRISM_BUF(const V, values_in), PRISM_BUF(V, values_out), ulong n,
             ulong chunk, uint shift, uint bits, K flip,
             __global uchar *scratch, ulong table_offset) {
  PRISM_BUF_AT_ANY(const K, keys_in);
  PRISM_BUF_AT_ANY(K, keys_out);
  PRISM_BUF_AT_ANY(const V, values_in);
  PRISM_BUF_AT_ANY(V, values_out);
  ulong first, end;
  chunk_range(n, chunk, &first, &end);
  __global const ulong *table = SCRATCH(ulong, scratch, table_offset);
  const ulong chunks = get_global_size(0);
  ulong to[RADIX];
  for (uint d = 0; d < RADIX; d++)
    to[d] = table[d * chunks + get_global_id(0)];
  for (ulong i = first; i < end; i++) {
    const K key = keys_in[i];
    const ulong pos = to[key_digit(key, shift, bits, flip)]++;
    keys_out[pos] = key;
#if PRISM_VALUE_BYTES
    values_out[pos] = values_in[i];
#endif
  }
}
