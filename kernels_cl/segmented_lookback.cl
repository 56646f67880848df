/* SPDX-License-Identifier: MIT */
/*
 * segmented_lookback.cl: the GPU strategy of the segmented scans and
 * reduce (segmented.cl, built ahead of this file, holds the design): tiles
 * with decoupled look-back (lookback.cl), as backend_cuda/segmented_scan.cu
 * and segmented_reduce.cu, phase for phase.
 *
 * Options (besides common.cl's):
 *   PRISM_ITEMS        scan: elements per work-item in a tile.
 *   PRISM_MERGE_ITEMS  reduce: merge items per work-item in a tile.
 *   PRISM_LB_WINDOW    predecessor statuses read at once in a look-back
 *                      (lookback.cl).
 */

#ifndef PRISM_ITEMS
#define PRISM_ITEMS 1
#endif
#ifndef PRISM_MERGE_ITEMS
#define PRISM_MERGE_ITEMS 1
#endif

/* ---- GPU: look-back ---------------------------------------------------- */

#define TILE (PRISM_WG * PRISM_ITEMS)
#define MERGE_TILE (PRISM_WG * PRISM_MERGE_ITEMS)

/*
 * Tile status, the layout of scan.cl with the pair's kind added
 * (lookback.cl's value words): arrays status_aggregate and status_prefix
 * of LB_WORDS 64-bit words per tile, cleared before each launch, each
 * word holding 32 bits of the value and, in its high half, the flag with
 * the kind above it, so one 64-bit store publishes the flag, the kind and
 * the bits together.
 */

/* The look-back's state in local memory (lookback.cl's walk): the window
 * and the run (at PRISM_LB_WINDOW), the pairs split as in
 * wg_seg_scan_exclusive. */
typedef struct seg_lb_state {
  uint flag[PRISM_LB_WINDOW];
  uint kind[PRISM_LB_WINDOW + 1];
  T value[PRISM_LB_WINDOW + 1];
  long next;
} seg_lb_state;

#define SEG_LB_PUT(lb, j, p)                                                   \
  ((lb)->kind[j] = (p).kind, (lb)->value[j] = (p).value)
#define SEG_LB_GET(lb, j) seg_make((lb)->value[j], (lb)->kind[j])

/* What tile p has published, and its pair. */
uint seg_status_read(lb_values s, ulong p, seg_pair *pair) {
  return lb_read_value(s, p, &pair->value, &pair->kind);
}

PRISM_DEFINE_LOOKBACK(seg_walk, seg_pair, seg_lb_state, lb_values,
                      seg_status_read, SEG_LB_PUT, SEG_LB_GET, seg_combine,
                      SEG_NONE)

/*
 * Look-back for tile t whose pair is total. A tile with a mark (total.kind
 * != 0) knows its inclusive prefix at once, total itself, and publishes it
 * as a prefix, which ends every look-back that reaches it; others publish
 * an aggregate. Then, unless nothing in the tile needs the carry (wait =
 * 0, which only a tile with a mark may say), walk the predecessors; a tile
 * without a mark then publishes its prefix. Returns the pair of everything
 * before tile t (SEG_NONE for tile 0 or wait = 0).
 */
seg_pair seg_lookback(uint t, seg_pair total, uint wait, lb_values s,
                      __local seg_lb_state *lb) {
  const uint lid = get_local_id(0);
  if (lid == 0)
    lb_publish_value(t == 0 || total.kind ? s.prefix : s.aggregate, t,
                     total.value, total.kind);
  if (t == 0 || !wait)
    return SEG_NONE;
  const seg_pair before = seg_walk(t, s, lb);
  if (lid == 0 && !total.kind) {
    const seg_pair prefix = seg_combine(before, total);
    lb_publish_value(s.prefix, t, prefix.value, prefix.kind);
  }
  return before;
}

/* ---- GPU: scans --------------------------------------------------------- */

/* Tile [base, base + TILE) and its marks into local memory, striped so the
 * global reads coalesce; elements past n read as the identity, unmarked. */
void seg_tile_load(__global const T *in, ulong n, ulong base, uint by_offsets,
                   __global const uchar *flags, uint flag_bytes,
                   __global const uint *starts, __global const uint *ends,
                   __local T *tile, __local uchar *mark) {
  const uint lid = get_local_id(0);
  for (uint k = 0; k < PRISM_ITEMS; k++) {
    const uint j = k * PRISM_WG + lid;
    const ulong i = base + j;
    tile[j] = i < n ? in[i] : IDENTITY;
    mark[j] =
        i < n ? (uchar)mark_at(i, by_offsets, flags, flag_bytes, starts, ends)
              : (uchar)KIND_NONE;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

/* The pair of this work-item's PRISM_ITEMS consecutive elements. */
seg_pair seg_thread_reduce(__local const T *tile, __local const uchar *mark) {
  const uint first = get_local_id(0) * PRISM_ITEMS;
  seg_pair p = SEG_NONE;
  for (uint k = 0; k < PRISM_ITEMS; k++)
    p = seg_push(p, tile[first + k], mark[first + k]);
  return p;
}

/* Replaces this work-item's elements by their scan from carry; mark[j]
 * becomes 1 where the element is to be written (inside a segment). */
void seg_thread_scan(__local T *tile, __local uchar *mark, seg_pair carry,
                     uint exclusive) {
  const uint first = get_local_id(0) * PRISM_ITEMS;
  for (uint k = 0; k < PRISM_ITEMS; k++) {
    const uint m = mark[first + k];
    const T before = m ? IDENTITY : carry.value;
    carry = seg_push(carry, tile[first + k], m);
    tile[first + k] = exclusive ? before : carry.value;
    mark[first + k] = carry.kind == KIND_START;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

/* The tile's scanned elements back to global memory, striped; only those
 * inside a segment, and nothing past n. */
void seg_tile_store(__global T *out, ulong n, ulong base, __local const T *tile,
                    __local const uchar *mark) {
  const uint lid = get_local_id(0);
  for (uint k = 0; k < PRISM_ITEMS; k++) {
    const uint j = k * PRISM_WG + lid;
    if (base + j < n && mark[j])
      out[base + j] = tile[j];
  }
}

/*
 * seg_scan_lookback: the work-group owns the tile whose id it draws from
 * the ticket (draw order, so every predecessor it waits on is running).
 * Tile and marks -> local memory -> work-item pairs of PRISM_ITEMS ->
 * work-group segmented scan -> look-back for the pair before the tile ->
 * work-item-serial rescan -> out (inside segments only). Partials meet in
 * the tile status. Traffic: n elements read and at most n written, the
 * flags (or two bitmaps of n bits) read, a few words per tile.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
seg_scan_lookback(PRISM_BUF(const T, in), PRISM_BUF(T, out), ulong n,
                  uint exclusive, uint by_offsets,
                  PRISM_BUF(const uchar, flags), uint flag_bytes,
                  __global uchar *scratch, ulong ticket_offset,
                  ulong aggregate_offset, ulong prefix_offset,
                  ulong starts_offset, ulong ends_offset) {
  PRISM_BUF_AT(const T, in);
  PRISM_BUF_AT(T, out);
  PRISM_BUF_AT(const uchar, flags);
  __local T tile[TILE];
  __local uchar mark[TILE];
  __local T scan_values[2 * PRISM_WG];
  __local uint scan_kinds[2 * PRISM_WG];
  __local seg_lb_state lb;
  __local uint drawn;
  PRISM_LOCAL_FITS(
      sizeof tile + sizeof mark + sizeof scan_values + sizeof scan_kinds +
          sizeof lb + sizeof drawn,
      PRISM_LOCAL_SEG_SCAN(PRISM_WG, PRISM_ITEMS, T_BYTES, PRISM_LB_WINDOW));

  const uint t = draw_tile(SCRATCH(uint, scratch, ticket_offset), &drawn);
  const ulong base = (ulong)t * TILE;
  const lb_values status =
      lb_values_at(scratch, aggregate_offset, prefix_offset);

  seg_tile_load(in, n, base, by_offsets, flags, flag_bytes,
                SCRATCH(const uint, scratch, starts_offset),
                SCRATCH(const uint, scratch, ends_offset), tile, mark);
  seg_pair total;
  const seg_pair mine = wg_seg_scan_exclusive(seg_thread_reduce(tile, mark),
                                              scan_values, scan_kinds, &total);
  const seg_pair before =
      seg_lookback(t, total, mark[0] == KIND_NONE, status, &lb);
  seg_thread_scan(tile, mark, seg_combine(before, mine), exclusive);
  seg_tile_store(out, n, base, tile, mark);
}

/*
 * seg_scan_single_block: one work-group walks every tile in order with the
 * running pair in a register: small n, one launch (after the marks). Same
 * tile steps as seg_scan_lookback.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
seg_scan_single_block(PRISM_BUF(const T, in), PRISM_BUF(T, out), ulong n,
                      uint exclusive, uint by_offsets,
                      PRISM_BUF(const uchar, flags), uint flag_bytes,
                      __global uchar *scratch, ulong starts_offset,
                      ulong ends_offset) {
  PRISM_BUF_AT(const T, in);
  PRISM_BUF_AT(T, out);
  PRISM_BUF_AT(const uchar, flags);
  __local T tile[TILE];
  __local uchar mark[TILE];
  __local T scan_values[2 * PRISM_WG];
  __local uint scan_kinds[2 * PRISM_WG];
  seg_pair carry = SEG_NONE;
  for (ulong base = 0; base < n; base += TILE) {
    seg_tile_load(in, n, base, by_offsets, flags, flag_bytes,
                  SCRATCH(const uint, scratch, starts_offset),
                  SCRATCH(const uint, scratch, ends_offset), tile, mark);
    seg_pair total;
    const seg_pair mine = wg_seg_scan_exclusive(
        seg_thread_reduce(tile, mark), scan_values, scan_kinds, &total);
    seg_thread_scan(tile, mark, seg_combine(carry, mine), exclusive);
    seg_tile_store(out, n, base, tile, mark);
    barrier(CLK_LOCAL_MEM_FENCE); /* the next tile reuses tile and mark */
    carry = seg_combine(carry, total);
  }
}

/* ---- GPU: reduce -------------------------------------------------------- */

/*
 * seg_reduce_search: work-item t finds the split of merge diagonal
 * t * MERGE_TILE (bounds consumed before it) into splits[t], for t <=
 * tiles, and clears tile t's status words; work-item 0 also clears the
 * ticket and the irregular flag, the first slot_count set the first-bad
 * slots. Traffic: a binary search per tile (log2 of the bounds, cached).
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
seg_reduce_search(PRISM_BUF(const uchar, offsets), uint offset_code, ulong n,
                  ulong num_segments, uint tiles, __global uchar *scratch,
                  ulong splits_offset, ulong ticket_offset,
                  ulong aggregate_offset, ulong prefix_offset,
                  ulong slots_offset, ulong slot_count) {
  PRISM_BUF_AT(const uchar, offsets);
  const ulong t = get_global_id(0);
  if (t > tiles)
    return;
  const ulong total = n + num_segments + 1;
  SCRATCH(ulong, scratch, splits_offset)
  [t] = merge_search(offsets, offset_code, n, num_segments,
                     min(t * MERGE_TILE, total));
  if (t < tiles)
    for (uint h = 0; h < LB_WORDS; h++) {
      SCRATCH(ulong, scratch, aggregate_offset)[t * LB_WORDS + h] = 0;
      SCRATCH(ulong, scratch, prefix_offset)[t * LB_WORDS + h] = 0;
    }
  if (t == 0)
    *SCRATCH(ulong, scratch, ticket_offset) = 0; /* ticket, irregular */
  if (t < slot_count)
    SCRATCH(uint, scratch, slots_offset)[t] = NO_BAD_SLOT;
}

/* A bound in local memory: where it lies relative to the tile's first
 * element (bits 0..30) and whether the segment it closes is good (bit
 * 31); once that segment is reduced, its value. As wide as T. */
#if T_BYTES == 4
#define SLOT uint
#else
#define SLOT ulong
#endif
typedef union bound_slot {
  SLOT bound;
  T value;
} bound_slot;

#define BOUND_REL(b) ((uint)(b)&0x7fffffffu)
#define BOUND_GOOD(b) ((uint)(b) >> 31)

/*
 * seg_reduce_tiles: the work-group owns the merge tile whose id it draws
 * from the ticket: diagonals [t, t + 1) * MERGE_TILE, i.e. bounds
 * [kb0, kb1) and elements [ke0, ke1). It loads bounds kb0 - 1 .. kb1 and
 * checks them (non-decreasing, the splits valid); a failure raises
 * irregular and leaves the tile to seg_reduce_segments. Otherwise:
 * elements and bounds -> local memory -> each work-item finds its
 * PRISM_MERGE_ITEMS merge items by a merge-path search -> its pair (the
 * value after its last bound) -> work-group segmented scan -> look-back ->
 * each work-item walks its items from its carry, a bound storing the
 * segment's value in its slot -> the tile's segments to out, coalesced.
 * Traffic: each element read once, each offset twice (the second time
 * from the cache), each result written once, whatever the lengths; a few
 * words per tile.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
seg_reduce_tiles(PRISM_BUF(const T, in), ulong n,
                 PRISM_BUF(const uchar, offsets), uint offset_code,
                 ulong num_segments, PRISM_BUF(T, out), __global uchar *scratch,
                 ulong splits_offset, ulong ticket_offset,
                 ulong aggregate_offset, ulong prefix_offset,
                 ulong slots_offset, uint checked) {
  PRISM_BUF_AT(const T, in);
  PRISM_BUF_AT(const uchar, offsets);
  PRISM_BUF_AT(T, out);
  __local T vals[MERGE_TILE];
  __local bound_slot bounds[MERGE_TILE + 2]; /* bound kb0 - 1 + j at j */
  __local uint split_at[PRISM_WG + 1];
  __local T scan_values[2 * PRISM_WG];
  __local uint scan_kinds[2 * PRISM_WG];
  __local seg_lb_state lb;
  __local uint drawn, broken;
  PRISM_LOCAL_FITS(sizeof vals + sizeof bounds + sizeof split_at +
                       sizeof scan_values + sizeof scan_kinds + sizeof lb +
                       sizeof drawn + sizeof broken,
                   PRISM_LOCAL_SEG_REDUCE(PRISM_WG, PRISM_MERGE_ITEMS, T_BYTES,
                                          PRISM_LB_WINDOW));
  const uint lid = get_local_id(0);
  volatile __global uint *irregular =
      SCRATCH(volatile uint, scratch, ticket_offset) + 1;
  const lb_values status =
      lb_values_at(scratch, aggregate_offset, prefix_offset);

  if (lid == 0)
    broken = 0;
  const uint t = draw_tile(SCRATCH(uint, scratch, ticket_offset), &drawn);
  const ulong total_items = n + num_segments + 1;
  const ulong d0 = min((ulong)t * MERGE_TILE, total_items);
  const ulong d1 = min(d0 + MERGE_TILE, total_items);
  const ulong kb0 = SCRATCH(ulong, scratch, splits_offset)[t];
  const ulong kb1 = SCRATCH(ulong, scratch, splits_offset)[t + 1];
  const ulong ke0 = d0 - kb0, ke1 = d1 - kb1;
  const ulong last = num_segments; /* the last bound */

  /* Load and check bounds kb0 - 1 .. kb1 into slots 0 .. tb + 1: they
   * must not decrease, the tile's own must lie in [ke0, ke1], kb1 at or
   * past ke1 and kb0 - 1 at or before ke0 (the splits lie between them).
   * Each work-item also reads the bound before its own. Splits that run
   * backwards break the tile before it loads anything. */
  const int ordered = kb0 <= kb1 && ke0 <= ke1;
  const uint tb = ordered ? (uint)(kb1 - kb0) : 0;
  const uint te = ordered ? (uint)(ke1 - ke0) : 0;
  for (uint j = lid; ordered && j < tb + 2; j += PRISM_WG) {
    const ulong k = kb0 + j - 1;
    uint ok, ok_prev = 0;
    if (j == 0) {
      if (kb0 > 0 && offset_load(offsets, k, offset_code, n, &ok) > ke0)
        broken = 1;
      continue;
    }
    if (k > last)
      continue;
    const ulong b = offset_load(offsets, k, offset_code, n, &ok);
    const ulong prev =
        k > 0 ? offset_load(offsets, k - 1, offset_code, n, &ok_prev) : 0;
    if (prev > b || (j <= tb ? b < ke0 || b > ke1 : b < ke1))
      broken = 1;
    /* Both in [0, n], so prev <= b holds in the raw offsets too. */
    const uint good = k > 0 && ok_prev && ok;
    bounds[j].bound = (SLOT)(((uint)(b - ke0) & 0x7fffffffu) | good << 31);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (!ordered || broken) {
    if (lid == 0) {
      *irregular = 1;
      lb_publish_value(status.prefix, t, IDENTITY, KIND_START);
    }
    return;
  }
  for (uint e = lid; e < te; e += PRISM_WG)
    vals[e] = in[ke0 + e];
  barrier(CLK_LOCAL_MEM_FENCE);

  /* Merge path within the tile: work-item lid takes diagonals
   * [lid, lid + 1) * PRISM_MERGE_ITEMS. Bound b (slot b + 1) comes before
   * element e when its rel <= e. */
  {
    const uint d = min(lid * PRISM_MERGE_ITEMS, tb + te);
    uint lo = d > te ? d - te : 0, hi = min(d, tb);
    while (lo < hi) {
      const uint mid = (lo + hi) / 2;
      if (BOUND_REL(bounds[mid + 1].bound) + mid + 1 <= d)
        lo = mid + 1;
      else
        hi = mid;
    }
    split_at[lid] = lo;
    if (lid == 0)
      split_at[PRISM_WG] = tb;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint dd0 = min(lid * PRISM_MERGE_ITEMS, tb + te);
  const uint dd1 = min(dd0 + PRISM_MERGE_ITEMS, tb + te);
  const uint b0 = split_at[lid], b1 = split_at[lid + 1];
  const uint e0 = dd0 - b0, e1 = dd1 - b1;

  /* This work-item's pair: the value after its last bound. */
  seg_pair mine = SEG_NONE;
  {
    uint from = e0;
    if (b1 > b0) {
      from = max(from, BOUND_REL(bounds[b1].bound));
      mine.kind = KIND_START;
    }
    for (uint e = from; e < e1; e++)
      mine.value = op(mine.value, vals[e]);
  }
  /* The carry is wanted by the tile's first bound, which closes a segment
   * begun before the tile, unless that bound is bound 0. */
  seg_pair total;
  const seg_pair before_mine =
      wg_seg_scan_exclusive(mine, scan_values, scan_kinds, &total);
  const seg_pair before =
      seg_lookback(t, total, kb0 > 0 || tb == 0, status, &lb);

  /* Walk the items: each bound closes a segment. */
  T acc = seg_combine(before, before_mine).value;
  uint e = e0;
  for (uint b = b0; b < b1; b++) {
    const SLOT slot = bounds[b + 1].bound;
    const uint rel = BOUND_REL(slot);
    for (; e < min(rel, e1); e++)
      acc = op(acc, vals[e]);
    const uint good = BOUND_GOOD(slot);
    const ulong k = kb0 + b;
    bounds[b + 1].value = good ? acc : IDENTITY;
    if (checked && k > 0 && !good)
      record_bad(scratch, slots_offset, k - 1);
    acc = IDENTITY;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint b = lid; b < tb; b += PRISM_WG)
    if (kb0 + b > 0)
      out[kb0 + b - 1] = bounds[b + 1].value;
}

/* ---- GPU: irregular offsets -------------------------------------------- */

/*
 * seg_reduce_segments: every segment on its own, for offsets the merge
 * path cannot take (launched after the merge kernels; returns at once
 * unless they raised irregular): a work-group per segment, strided loads
 * and a work-group tree. Traffic: each good segment's elements read once,
 * out written once.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
seg_reduce_segments(PRISM_BUF(const T, in), ulong n,
                    PRISM_BUF(const uchar, offsets), uint offset_code,
                    ulong num_segments, PRISM_BUF(T, out), ulong per_item,
                    __global uchar *scratch, ulong irregular_offset,
                    ulong slots_offset, uint checked) {
  PRISM_BUF_AT(const T, in);
  PRISM_BUF_AT(const uchar, offsets);
  PRISM_BUF_AT(T, out);
  if (!*SCRATCH(volatile uint, scratch, irregular_offset))
    return;
  __local T buf[PRISM_WG];
  const uint lid = get_local_id(0);
  (void)per_item;
  for (ulong s = get_group_id(0); s < num_segments; s += get_num_groups(0)) {
    uint ok_lo, ok_hi;
    const ulong lo = offset_load(offsets, s, offset_code, n, &ok_lo);
    const ulong hi = offset_load(offsets, s + 1, offset_code, n, &ok_hi);
    const int good = ok_lo && ok_hi && lo <= hi;
    T x = IDENTITY;
    if (good)
      for (ulong i = lo + lid; i < hi; i += PRISM_WG)
        x = op(x, in[i]);
    x = wg_reduce(x, buf);
    if (lid == 0) {
      out[s] = x;
      if (checked && !good)
        record_bad(scratch, slots_offset, s);
    }
    barrier(CLK_LOCAL_MEM_FENCE); /* buf is reused */
  }
}
