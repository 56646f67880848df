/* SPDX-License-Identifier: MIT */
/*
 * histogram_chunks.cl: the CPU policy's histograms (histogram.cl, built
 * ahead of this file, holds the mapping and the options):
 *   histogram_chunks  each work-item counts one contiguous chunk into its
 *                     own tables in scratch, with plain increments (per
 *                     byte value for 1-byte samples)
 *   histogram_merge   counts[b] = the sum of every table's bin b
 *   histogram_merge_bytes  1-byte samples: each byte value's total, over
 *                     the tables, added to its bin
 */

/*
 * count_chunk: p[0, count) into tables t (PRISM_COPIES of them, stride st
 * counters): sample i into table i % PRISM_COPIES, uncounted samples into
 * the extra last counter of a table, so the loop has no branch. mode is a
 * constant at every call, so each copy of the loop has one mode's
 * arithmetic.
 */
void count_chunk(int mode, const bin_map *m, __global const T *restrict p,
                 uint count, __global uint *restrict t, uint st,
                 __global const T *edges) {
#define CHUNK_BIN(x)                                                           \
  (mode == BIN_RAW         ? (uint)(x)                                         \
   : mode == BIN_SEARCH    ? min(search_global(edges, m->bins, x), m->bins)    \
   : mode == BIN_SHIFT_ALL ? bin_as(mode, m, x) /* all counted */              \
                           : min(bin_as(mode, m, x), m->bins))
  uint i = 0;
  for (; i + PRISM_COPIES <= count; i += PRISM_COPIES)
    for (uint k = 0; k < PRISM_COPIES; k++)
      t[k * st + CHUNK_BIN(p[i + k])]++;
  for (; i < count; i++)
    t[CHUNK_BIN(p[i])]++;
#undef CHUNK_BIN
}

/*
 * histogram_chunks: ownership: work-item c owns samples [c * chunk,
 * min(n, (c + 1) * chunk)) and PRISM_COPIES tables of st 32-bit counters at
 * tables_offset + c * PRISM_COPIES * st words of scratch: st = bins + 1
 * (the last counter of a table takes the samples not counted), or for
 * 1-byte samples st = 256, a counter per byte value (BIN_RAW: no bin
 * arithmetic per sample). Consecutive samples go to different tables, so a
 * run of one bin does not wait on its own last increment. The host keeps
 * chunks under 2^31.
 * Partials meet: in histogram_merge (histogram_merge_bytes).
 * Traffic: each sample read once, in order; the tables (a few KiB for
 * small bin counts) stay in the core's cache.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
histogram_chunks(PRISM_BUF(const T, samples), ulong n, MAP_PARAMS,
                 __global uchar *scratch, ulong edges_offset, ulong chunk,
                 ulong tables_offset) {
  PRISM_BUF_AT(const T, samples);
  const bin_map m = MAP_INIT;
  const ulong c = get_global_id(0);
#if T_BYTES == 1
  const uint st = 256;
#else
  const uint st = bins + 1;
#endif
  __global uint *table =
      SCRATCH(uint, scratch, tables_offset) + c * PRISM_COPIES * (ulong)st;
  __global const T *edges = SCRATCH(const T, scratch, edges_offset);
  for (ulong i = 0; i < PRISM_COPIES * (ulong)st; i++)
    table[i] = 0;
  const ulong first = min(c * chunk, n), end = min(first + chunk, n);
  __global const T *p = samples + first;
  const uint count = (uint)(end - first);
#if T_BYTES == 1
  count_chunk(BIN_RAW, &m, p, count, table, st, edges);
#else
  switch (mode) {
  case BIN_SEARCH:
    count_chunk(BIN_SEARCH, &m, p, count, table, st, edges);
    break;
#if T_IS_FLOAT
  default:
    count_chunk(BIN_FLOAT, &m, p, count, table, st, edges);
    break;
#else
  case BIN_SHIFT_ALL:
    count_chunk(BIN_SHIFT_ALL, &m, p, count, table, st, edges);
    break;
  case BIN_SHIFT:
    count_chunk(BIN_SHIFT, &m, p, count, table, st, edges);
    break;
  case BIN_DIVIDE:
    count_chunk(BIN_DIVIDE, &m, p, count, table, st, edges);
    break;
  default:
    count_chunk(BIN_SCALE, &m, p, count, table, st, edges);
    break;
#endif
  }
#endif
}

/*
 * histogram_merge: ownership: work-item b owns counts[b] (b < bins) and
 * writes it whole: the sum of bin b over the tables (tables x (bins + 1)
 * 32-bit counters at tables_offset), as PRISM_COUNTER_BYTES.
 * Traffic: the tables read once (neighbouring work-items read neighbouring
 * counters), counts written once.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
histogram_merge(__global const uchar *scratch, ulong tables_offset, uint tables,
                uint bins, PRISM_BUF(uint, counts)) {
  PRISM_BUF_AT(uint, counts);
  const uint b = get_global_id(0);
  if (b >= bins)
    return;
  const ulong stride = (ulong)bins + 1;
  __global const uint *t = SCRATCH(const uint, scratch, tables_offset) + b;
#if PRISM_COUNTER_BYTES == 8
  ulong sum = 0;
  for (uint k = 0; k < tables; k++)
    sum += t[k * stride];
  ((__global ulong *)counts)[b] = sum;
#else
  uint sum = 0; /* the total is at most n <= 2^32 - 1 */
  for (uint k = 0; k < tables; k++)
    sum += t[k * stride];
  counts[b] = sum;
#endif
}

#if T_BYTES == 1
/*
 * histogram_merge_bytes: one work-item owns counts (zeroed by the host)
 * and adds to each byte value's bin that value's total over the tables
 * (tables x 256 32-bit counters at tables_offset, histogram_chunks).
 * Traffic: the tables read once; at most 256 counters written.
 */
__kernel __attribute__((reqd_work_group_size(1, 1, 1))) void
histogram_merge_bytes(MAP_PARAMS, __global const uchar *scratch,
                      ulong edges_offset, ulong tables_offset, uint tables,
                      PRISM_BUF(uint, counts)) {
  PRISM_BUF_AT(uint, counts);
  const bin_map m = MAP_INIT;
  __global const T *edges = SCRATCH(const T, scratch, edges_offset);
  __global const uint *t = SCRATCH(const uint, scratch, tables_offset);
  for (uint value = 0; value < 256; value++) {
    ulong sum = 0;
    for (uint k = 0; k < tables; k++)
      sum += t[k * 256 + value];
    const uint b = value_bin(&m, edges, (T)value);
    if (sum == 0 || b == NO_BIN)
      continue;
#if PRISM_COUNTER_BYTES == 8
    ((__global ulong *)counts)[b] += sum;
#else
    counts[b] += (uint)sum;
#endif
  }
}
#endif
