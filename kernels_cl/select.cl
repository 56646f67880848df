/* SPDX-License-Identifier: MIT */
/*
 * select.cl: stream compaction (select_flagged, select_if, partitions,
 * unique), the port of backend_cuda/select.cu: the selection rule and the
 * count passes both strategies use, built ahead of each strategy's file,
 * which the device policy chooses:
 * - select_lookback.cl (GPUs): lookback_init + select_lookback, one pass
 *   that reads each element once and writes each kept one once; small n:
 *   select_single_block, one launch. Partitions count first
 *   (select_count + select_offsets) so that their rejected elements know
 *   where to start.
 * - select_chunks.cl (CPUs): select_count + select_offsets + select_chunks
 *   over a few long contiguous chunks, one work-item each, as
 *   scan_chunks.cl and the classic sort passes; small n: select_chunks
 *   alone.
 *
 * Options (besides common.cl's; T is the element, as raw bits of its width
 * where only moving or equality is needed, and PRISM_OP_* is unused):
 *   PRISM_SELECT_{FLAGGED,IF,UNIQUE}  the selection rule.
 *   PRISM_FLAG_{U8,U32,U64}  FLAGGED: the flags' width (non-zero keeps).
 *   PRISM_PARTITION  1: rejected elements are written too, after the kept
 *                    ones, in input order.
 *   PRISM_ITEMS      look-back: elements per work-item in a tile (<= 32:
 *                    one bit each).
 *   PRISM_LB_WINDOW  look-back: predecessor statuses read at once
 *                    (lookback.cl).
 *
 * Tile status (lookback.cl's count words, as
 * backend_cuda/count_status.cuh), in the scratch buffer, cleared by
 * lookback_init before each look-back pass:
 *   ticket     uint: the next tile id to hand out
 *   status[t]  ulong: the flag (PRISM_LB_AGGREGATE: tile t's kept count;
 *              PRISM_LB_PREFIX: the kept count of tiles 0..t) with the
 *              count
 * One volatile 64-bit store publishes flag and count together, so a reader
 * never sees a flag without its count and no fence is needed (lookback.cl
 * says why OpenCL 1.2's mem_fence cannot be relied on across work-groups).
 *
 * The kept count k lands as a ulong at count_out (the caller's, or a
 * scratch word the host reads) when count_wanted.
 */

#ifndef PRISM_PARTITION
#define PRISM_PARTITION 0
#endif
#ifndef PRISM_ITEMS
#define PRISM_ITEMS 1
#endif
#if PRISM_ITEMS > 32
#error "select.cl: PRISM_ITEMS must be at most 32"
#endif

#if defined(PRISM_FLAG_U64)
#define F ulong
#elif defined(PRISM_FLAG_U32)
#define F uint
#else
#define F uchar
#endif

#if !defined(PRISM_SELECT_FLAGGED) && !defined(PRISM_SELECT_IF) &&             \
    !defined(PRISM_SELECT_UNIQUE)
#error "select.cl: no PRISM_SELECT_* option given"
#endif

#define TILE (PRISM_WG * PRISM_ITEMS)

/* Work-group exclusive scan of one ulong count per work-item (common.cl's
 * wg_scan_exclusive, for counts rather than T); buf holds 2 * PRISM_WG. */
#define PRISM_ADD_COUNTS(a, b) ((a) + (b))
PRISM_DEFINE_WG_SCAN(wg_scan_counts, ulong, PRISM_ADD_COUNTS, 0)

/*
 * select_if's predicate as a truth table over how x compares with a:
 * outcome = (x < a) | (x == a) << 1 | (x > a) << 2, which is 0 only when x
 * or a is NaN; bit outcome of keep says whether that outcome keeps x (the
 * host builds keep from the prism_compare). IN_RANGE (range = 1) keeps
 * a <= x and also needs x <= b. IEEE-754: NaN fails everything but
 * NOT_EQUAL, and -0.0 equals +0.0.
 */
bool predicate(T x, T a, T b, uint keep, uint range) {
  const uint outcome = (uint)(x < a) | (uint)(x == a) << 1 | (uint)(x > a) << 2;
  /* Bitwise, not short-circuit: no branch on the data. */
  return (bool)(((keep >> outcome) & 1u) & ((uint)!range | (uint)(x <= b)));
}

/* IF and UNIQUE: whether element i, of value x, is kept; prev is element
 * i - 1 (unused for i = 0 and by IF). FLAGGED reads its flags instead. */
bool value_kept(ulong i, T x, T prev, T a, T b, uint keep, uint range) {
#if defined(PRISM_SELECT_IF)
  return predicate(x, a, b, keep, range);
#else
  return (bool)((uint)(i == 0) | (uint)(x != prev));
#endif
}

/* Whether element i is kept, everything read from global memory (the
 * counting pass). */
bool kept_at(__global const T *in, __global const F *flags, ulong i, T a, T b,
             uint keep, uint range) {
#if defined(PRISM_SELECT_FLAGGED)
  return flags[i] != 0;
#else
  return value_kept(i, in[i], i > 0 ? in[i - 1] : in[i], a, b, keep, range);
#endif
}

/*
 * select_count: how many elements of each range are kept. Work-group g
 * owns elements [g * range, min(n, (g + 1) * range)); its work-items stride
 * over them by PRISM_WG (coalesced on a GPU; one work-item reads the range
 * contiguously on a CPU). Partials meet in a work-group scan; counts[g] gets
 * the total. Traffic: the flags (FLAGGED) or the elements read once.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
select_count(PRISM_BUF(const T, in), PRISM_BUF(const F, flags), ulong n, T a,
             T b, uint keep, uint range, ulong range_len,
             __global uchar *scratch, ulong counts_offset) {
  PRISM_BUF_AT(const T, in);
  PRISM_BUF_AT(const F, flags);
  __local ulong buf[2 * PRISM_WG];
  const ulong g = get_group_id(0);
  const ulong first = min(g * range_len, n);
  const ulong end = min(first + range_len, n);
  ulong count = 0;
  for (ulong i = first + get_local_id(0); i < end; i += PRISM_WG)
    count += kept_at(in, flags, i, a, b, keep, range);
  ulong total;
  wg_scan_counts(count, buf, &total);
  if (get_local_id(0) == 0)
    SCRATCH(ulong, scratch, counts_offset)[g] = total;
}

/*
 * select_offsets: one work-group turns the groups counts into exclusive
 * starts, in place (each work-item sums a contiguous run, the runs meet in
 * a work-group scan, each work-item rewrites its run), and stores the
 * total, k, in the kept word and, when count_wanted, at count_out.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
select_offsets(__global uchar *scratch, ulong counts_offset, ulong groups,
               ulong kept_offset, PRISM_BUF(ulong, count_out),
               uint count_wanted) {
  PRISM_BUF_AT_ANY(ulong, count_out);
  __local ulong buf[2 * PRISM_WG];
  __global ulong *counts = SCRATCH(ulong, scratch, counts_offset);
  const ulong per = (groups + PRISM_WG - 1) / PRISM_WG;
  const ulong first = min((ulong)get_local_id(0) * per, groups);
  const ulong end = min(first + per, groups);
  ulong x = 0;
  for (ulong i = first; i < end; i++)
    x += counts[i];
  ulong total;
  ulong carry = wg_scan_counts(x, buf, &total);
  for (ulong i = first; i < end; i++) {
    const ulong c = counts[i];
    counts[i] = carry;
    carry += c;
  }
  if (get_local_id(0) == 0) {
    *SCRATCH(ulong, scratch, kept_offset) = total;
    if (count_wanted)
      *count_out = total;
  }
}
