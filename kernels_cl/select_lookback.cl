/* SPDX-License-Identifier: MIT */
/*
 * select_lookback.cl: the GPU strategy of compaction (select.cl, built
 * ahead of this file, holds the rule, the count passes and the tile
 * status): select_lookback, one pass with decoupled look-back
 * (lookback.cl), and select_single_block for small n. Options: select.cl's.
 */

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

PRISM_DEFINE_LOOKBACK(count_walk, ulong, count_lb_state,
                      volatile __global ulong *, lb_read_count, LB_PUT, LB_GET,
                      PRISM_ADD_COUNTS, 0)

/* Look-back for tile t (> 0), whose aggregate is published: the kept
 * count of the tiles before t; publishes t's prefix. */
ulong count_lookback(uint t, ulong total, volatile __global ulong *status,
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
select_lookback(PRISM_BUF(const T, in), PRISM_BUF(const F, flags),
                PRISM_BUF(T, out), ulong n, T a, T b, uint keep, uint range,
                __global uchar *scratch, ulong ticket_offset,
                ulong status_offset, ulong kept_offset,
                PRISM_BUF(ulong, count_out), uint count_wanted, uint tiles) {
  PRISM_BUF_AT(const T, in);
  PRISM_BUF_AT(const F, flags);
  PRISM_BUF_AT(T, out);
  PRISM_BUF_AT_ANY(ulong, count_out);
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

  const uint t = draw_tile(SCRATCH(uint, scratch, ticket_offset), &drawn);
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
  const ulong kept_before = t == 0 ? 0 : count_lookback(t, total, status, &lb);

  if (lid == 0 && count_wanted && t == tiles - 1)
    *count_out = kept_before + total;
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
select_single_block(PRISM_BUF(const T, in), PRISM_BUF(const F, flags),
                    PRISM_BUF(T, out), ulong n, T a, T b, uint keep, uint range,
                    PRISM_BUF(ulong, count_out), uint count_wanted) {
  PRISM_BUF_AT(const T, in);
  PRISM_BUF_AT(const F, flags);
  PRISM_BUF_AT(T, out);
  PRISM_BUF_AT_ANY(ulong, count_out);
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
    *count_out = kept_before;
}
