/* SPDX-License-Identifier: MIT */
/*
 * select.cl: stream compaction (select_flagged, select_if, partitions,
 * unique), the port of backend_cuda/select.cu, in two shapes chosen by the
 * device policy:
 * - Look-back (GPUs): lookback_init + select_lookback, one pass that reads
 *   each element once and writes each kept one once; small n:
 *   select_single_block, one launch. Partitions count first
 *   (select_count + select_offsets) so that their rejected elements know
 *   where to start.
 * - Chunks (CPUs): select_count + select_offsets + select_chunks over a
 *   few long contiguous chunks, one work-item each, as scan_chunks.cl and
 *   the classic sort passes; small n: select_chunks alone.
 *
 * Options (besides common.cl's; T is the element, as raw bits of its width
 * where only moving or equality is needed, and PRISM_OP_* is unused):
 *   PRISM_SELECT_{FLAGGED,IF,UNIQUE}  the selection rule.
 *   PRISM_FLAG_{U8,U32,U64}  FLAGGED: the flags' width (non-zero keeps).
 *   PRISM_PARTITION  1: rejected elements are written too, after the kept
 *                    ones, in input order.
 *   PRISM_SELECT_CHUNKED  1: the chunk kernels; 0: the look-back ones.
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
 * The kept count k lands as a ulong at byte count_offset of count_buf (the
 * caller's count_out, or a scratch word the host reads) when count_wanted.
 */

#ifndef PRISM_PARTITION
#define PRISM_PARTITION 0
#endif
#ifndef PRISM_SELECT_CHUNKED
#define PRISM_SELECT_CHUNKED 0
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
select_count(__global const T *in, __global const F *flags, ulong n, T a, T b,
             uint keep, uint range, ulong range_len, __global uchar *scratch,
             ulong counts_offset) {
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
 * total, k, in the kept word and, when count_wanted, at count_buf.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
select_offsets(__global uchar *scratch, ulong counts_offset, ulong groups,
               ulong kept_offset, __global uchar *count_buf, ulong count_offset,
               uint count_wanted) {
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
      *SCRATCH(ulong, count_buf, count_offset) = total;
  }
}

#if PRISM_SELECT_CHUNKED

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
select_chunks(__global const T *in, __global const F *flags, __global T *out,
              ulong n, T a, T b, uint keep, uint range, ulong chunk,
              __global uchar *scratch, ulong counts_offset, ulong kept_offset,
              uint has_offsets, __global uchar *count_buf, ulong count_offset,
              uint count_wanted) {
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
    *SCRATCH(ulong, count_buf, count_offset) = kept;
}

#else /* look-back */

/* Tile [base, base + count) into local memory, striped so the global reads
 * coalesce, with the flags as 0/1 bytes (FLAGGED) and the element before
 * the tile (UNIQUE, base > 0). */
void tile_load(__global const T *in, __global const F *flags, ulong base,
               uint count, __local T *tile, __local uchar *sel,
               __local T *before) {
  const uint lid = get_local_id(0);
  for (uint k = 0; k < PRISM_ITEMS; k++) {
    const uint j = k * PRISM_WG + lid;
    if (j < count) {
      tile[j] = in[base + j];
#if defined(PRISM_SELECT_FLAGGED)
      sel[j] = flags[base + j] != 0;
#endif
    }
  }
#if defined(PRISM_SELECT_UNIQUE)
  if (lid == 0 && base > 0)
    *before = in[base - 1];
#endif
  barrier(CLK_LOCAL_MEM_FENCE);
}

/* This work-item's PRISM_ITEMS consecutive tile elements into x, and the
 * selection: bit k set when element k is valid (< count) and kept. */
uint tile_select(__local const T *tile, __local const uchar *sel,
                 __local const T *before, ulong base, uint count, T a, T b,
                 uint keep, uint range, T *x) {
  const uint first = get_local_id(0) * PRISM_ITEMS;
  uint mask = 0;
  for (uint k = 0; k < PRISM_ITEMS; k++) {
    const uint j = first + k;
    x[k] = j < count ? tile[j] : (T)0;
    if (j < count) {
#if defined(PRISM_SELECT_FLAGGED)
      const bool s = sel[j];
#else
      const T prev = k > 0 ? x[k - 1] : j > 0 ? tile[j - 1] : *before;
      const bool s = value_kept(base + j, x[k], prev, a, b, keep, range);
#endif
      mask |= (uint)s << k;
    }
  }
  return mask;
}

/*
 * Pack the tile in local memory: kept elements at [0, total) in order,
 * rejected ones (partition) at [total, count) in order. The work-item's
 * kept elements start at its exclusive prefix mine, its rejected ones after
 * total plus the rejected elements of the work-items before it. Every
 * work-item has read the tile (the scan's barriers lie between).
 */
void tile_exchange(const T *x, uint mask, uint count, uint mine, uint total,
                   __local T *tile) {
  const uint first = get_local_id(0) * PRISM_ITEMS;
  uint kept = mine;
  uint rejected = total + (first - mine);
  for (uint k = 0; k < PRISM_ITEMS; k++) {
    if ((mask >> k) & 1u)
      tile[kept++] = x[k];
    else if (PRISM_PARTITION && first + k < count)
      tile[rejected++] = x[k];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

/* The packed tile to global memory, striped: slot j < total goes to
 * out[before + j], a rejected slot to out[rejected_at + j - total]. Two
 * contiguous runs, so the stores coalesce. */
void tile_store(__global T *out, uint count, uint total, ulong before,
                ulong rejected_at, __local const T *tile) {
  const uint lid = get_local_id(0);
  const uint limit = PRISM_PARTITION ? count : total;
  for (uint k = 0; k < PRISM_ITEMS; k++) {
    const uint j = k * PRISM_WG + lid;
    if (j < limit)
      out[j < total ? before + j : rejected_at + (j - total)] = tile[j];
  }
}

/* The look-back's state in local memory (lookback.cl's walk): the window
 * of predecessor flags and kept counts, the run at value[PRISM_LB_WINDOW]. */
typedef struct count_lb_state {
  uint flag[PRISM_LB_WINDOW];
  ulong value[PRISM_LB_WINDOW + 1];
  long next;
} count_lb_state;

PRISM_DEFINE_LOOK_BACK(count_walk, ulong, count_lb_state,
                       volatile __global ulong *, lb_read_count, LB_PUT, LB_GET,
                       PRISM_ADD_COUNTS, 0)

/* Look-back for tile t (> 0), whose aggregate is published: the kept
 * count of the tiles before t; publishes t's prefix. */
ulong count_look_back(uint t, ulong total, volatile __global ulong *status,
                      __local count_lb_state *lb) {
  const ulong exclusive = count_walk(t, status, lb);
  if (get_local_id(0) == 0)
    lb_publish_count(status, t, PRISM_LB_PREFIX, exclusive + total);
  return exclusive;
}

/*
 * select_lookback: the work-group owns the tile whose id it draws from the
 * ticket (draw order, not get_group_id, so every predecessor it waits on is
 * already running); work-item i owns PRISM_ITEMS consecutive elements while
 * selecting, and slots i, i + PRISM_WG, ... of the packed tile while
 * storing. Tile -> local memory -> selection bits -> work-group scan of
 * the counts -> tile count published at once -> exchange -> look-back for
 * the tile's start -> store. A partition's rejected elements start at k
 * (kept word, from select_offsets) plus the rejected elements before the
 * tile. The last tile stores the total. Partials meet in the tile status
 * words. Traffic: n elements (and flags) read once, the kept (partition:
 * all) written once, in contiguous runs; a word or two per tile.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
select_lookback(__global const T *in, __global const F *flags, __global T *out,
                ulong n, T a, T b, uint keep, uint range,
                __global uchar *scratch, ulong ticket_offset,
                ulong status_offset, ulong kept_offset,
                __global uchar *count_buf, ulong count_offset,
                uint count_wanted, uint tiles) {
  __local T tile[TILE];
#if defined(PRISM_SELECT_FLAGGED)
  __local uchar sel[TILE];
#else
  __local uchar sel[1];
#endif
  __local ulong buf[2 * PRISM_WG];
  __local count_lb_state lb;
  __local uint drawn;
  __local T before;
  PRISM_LOCAL_FITS(
      sizeof tile + sizeof sel + sizeof buf + sizeof lb + sizeof drawn +
          sizeof before,
      PRISM_LOCAL_SELECT(PRISM_WG, PRISM_ITEMS, T_BYTES, PRISM_LB_WINDOW));
  const uint lid = get_local_id(0);

  const uint t = lb_ticket(SCRATCH(uint, scratch, ticket_offset), &drawn);
  const ulong base = (ulong)t * TILE;
  const uint count = (uint)min((ulong)TILE, n - base);

  tile_load(in, flags, base, count, tile, sel, &before);
  T x[PRISM_ITEMS];
  const uint mask =
      tile_select(tile, sel, &before, base, count, a, b, keep, range, x);
  ulong total;
  const ulong mine = wg_scan_counts(popcount(mask), buf, &total);

  volatile __global ulong *status =
      SCRATCH(volatile ulong, scratch, status_offset);
  if (lid == 0)
    lb_publish_count(status, t, t == 0 ? PRISM_LB_PREFIX : PRISM_LB_AGGREGATE,
                     total);
  tile_exchange(x, mask, count, (uint)mine, (uint)total, tile);
  const ulong kept_before = t == 0 ? 0 : count_look_back(t, total, status, &lb);

  if (lid == 0 && count_wanted && t == tiles - 1)
    *SCRATCH(ulong, count_buf, count_offset) = kept_before + total;
  const ulong rejected_at =
      PRISM_PARTITION
          ? *SCRATCH(ulong, scratch, kept_offset) + base - kept_before
          : 0;
  tile_store(out, count, (uint)total, kept_before, rejected_at, tile);
}

/*
 * select_single_block: one work-group walks all tiles in order, carrying
 * the kept count in a register; a partition walks them once first to
 * count. For small n, where one launch beats the look-back's several. Same
 * tile steps as select_lookback; stores the total.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
select_single_block(__global const T *in, __global const F *flags,
                    __global T *out, ulong n, T a, T b, uint keep, uint range,
                    __global uchar *count_buf, ulong count_offset,
                    uint count_wanted) {
  __local T tile[TILE];
#if defined(PRISM_SELECT_FLAGGED)
  __local uchar sel[TILE];
#else
  __local uchar sel[1];
#endif
  __local ulong buf[2 * PRISM_WG];
  __local T before;
  T x[PRISM_ITEMS];
  ulong total;

  ulong kept_total = 0;
  for (ulong base = 0; PRISM_PARTITION && base < n; base += TILE) {
    const uint count = (uint)min((ulong)TILE, n - base);
    tile_load(in, flags, base, count, tile, sel, &before);
    const uint mask =
        tile_select(tile, sel, &before, base, count, a, b, keep, range, x);
    wg_scan_counts(popcount(mask), buf, &total);
    kept_total += total;
  }

  ulong kept_before = 0;
  for (ulong base = 0; base < n; base += TILE) {
    const uint count = (uint)min((ulong)TILE, n - base);
    tile_load(in, flags, base, count, tile, sel, &before);
    const uint mask =
        tile_select(tile, sel, &before, base, count, a, b, keep, range, x);
    const ulong mine = wg_scan_counts(popcount(mask), buf, &total);
    tile_exchange(x, mask, count, (uint)mine, (uint)total, tile);
    tile_store(out, count, (uint)total, kept_before,
               kept_total + base - kept_before, tile);
    barrier(CLK_LOCAL_MEM_FENCE); /* the next tile_load reuses tile */
    kept_before += total;
  }
  if (get_local_id(0) == 0 && count_wanted)
    *SCRATCH(ulong, count_buf, count_offset) = kept_before;
}

#endif /* PRISM_SELECT_CHUNKED */
