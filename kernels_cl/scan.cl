/* SPDX-License-Identifier: MIT */
/*
 * scan.cl: single-pass scan with decoupled look-back (Merrill & Garland
 * 2016), for devices whose running work-groups make progress (GPUs).
 *
 * Options (besides common.cl's):
 *   PRISM_ITEMS      elements per work-item in a tile; odd, so the
 *                    work-item-serial passes over local memory touch every
 *                    bank once.
 *   PRISM_LB_WINDOW  predecessor statuses read at once during look-back
 *                    (lookback.cl).
 *
 * Tile status (lookback.cl's value words, the layout of the CUDA
 * backend's), in the scratch buffer, cleared to 0 by lookback_init before
 * each look-back scan:
 *   ticket                              uint: the next tile id to hand out
 *   status_aggregate[t * LB_WORDS + h]  ulong: op of tile t's elements
 *   status_prefix[t * LB_WORDS + h]     ulong: op of tiles 0..t's elements
 */

#ifndef PRISM_ITEMS
#define PRISM_ITEMS 1
#endif

#define TILE (PRISM_WG * PRISM_ITEMS)

/* Tile [base, base + TILE) into local memory, striped so the global reads
 * coalesce; elements past n read as the identity. */
void tile_load(__global const T *in, ulong n, ulong base, __local T *tile) {
  const uint lid = get_local_id(0);
  for (uint k = 0; k < PRISM_ITEMS; k++) {
    const uint j = k * PRISM_WG + lid;
    tile[j] = base + j < n ? in[base + j] : IDENTITY;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

/* The op of this work-item's PRISM_ITEMS consecutive tile elements. */
T tile_thread_reduce(__local const T *tile) {
  __local const T *mine = tile + get_local_id(0) * PRISM_ITEMS;
  T x = mine[0];
  for (uint k = 1; k < PRISM_ITEMS; k++)
    x = op(x, mine[k]);
  return x;
}

/* Replace this work-item's elements by their scan, starting from carry. */
void tile_thread_scan(__local T *tile, T carry, uint exclusive) {
  __local T *mine = tile + get_local_id(0) * PRISM_ITEMS;
  for (uint k = 0; k < PRISM_ITEMS; k++) {
    const T next = op(carry, mine[k]);
    mine[k] = exclusive ? carry : next;
    carry = next;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

/* The tile back to global memory, striped; nothing past n is written. */
void tile_store(__global T *out, ulong n, ulong base, __local const T *tile) {
  const uint lid = get_local_id(0);
  for (uint k = 0; k < PRISM_ITEMS; k++) {
    const uint j = k * PRISM_WG + lid;
    if (base + j < n)
      out[base + j] = tile[j];
  }
}

/* The look-back's state in local memory (lookback.cl's walk): the window
 * of predecessor flags and values, the run at value[PRISM_LB_WINDOW]. */
typedef struct scan_lb_state {
  uint flag[PRISM_LB_WINDOW];
  T value[PRISM_LB_WINDOW + 1];
  long next;
} scan_lb_state;

/* What tile p has published, and its value. */
uint scan_status_read(lb_values s, ulong p, T *value) {
  uint kind;
  return lb_read_value(s, p, value, &kind);
}

PRISM_DEFINE_LOOKBACK(scan_walk, T, scan_lb_state, lb_values, scan_status_read,
                      LB_PUT, LB_GET, op, IDENTITY)

/*
 * Look-back for tile t with aggregate total: publish the aggregate (tile
 * 0: its prefix, and done), walk the predecessors for the op of every
 * tile before t, publish t's inclusive prefix. Returns t's exclusive
 * prefix.
 */
T scan_tile_lookback(uint t, T total, lb_values s, __local scan_lb_state *lb) {
  const uint lid = get_local_id(0);
  if (lid == 0)
    lb_publish_value(t == 0 ? s.prefix : s.aggregate, t, total, 0);
  if (t == 0)
    return IDENTITY;
  const T exclusive = scan_walk(t, s, lb);
  if (lid == 0)
    lb_publish_value(s.prefix, t, op(exclusive, total), 0);
  return exclusive;
}

/*
 * scan_lookback: work-group owns the tile whose id it draws from the ticket
 * (draw order, not get_group_id, so every predecessor it waits on is
 * already running). Tile -> local memory -> work-item-serial reduce of
 * PRISM_ITEMS -> work-group scan -> look-back for the tile's prefix ->
 * work-item-serial rescan -> out. Partials meet in the tile status arrays.
 * Traffic: n elements read and n written, plus a few words per tile.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
scan_lookback(PRISM_BUF(const T, in), PRISM_BUF(T, out), ulong n,
              uint exclusive, __global uchar *scratch, ulong ticket_offset,
              ulong aggregate_offset, ulong prefix_offset) {
  PRISM_BUF_AT(const T, in);
  PRISM_BUF_AT(T, out);
  __local T tile[TILE];
  __local T buf[2 * PRISM_WG];
  __local scan_lb_state lb;
  __local uint drawn;
  PRISM_LOCAL_FITS(
      sizeof tile + sizeof buf + sizeof lb + sizeof drawn,
      PRISM_LOCAL_SCAN(PRISM_WG, PRISM_ITEMS, T_BYTES, PRISM_LB_WINDOW));

  const uint t = draw_tile(SCRATCH(uint, scratch, ticket_offset), &drawn);
  const ulong base = (ulong)t * TILE;
  const lb_values status =
      lb_values_at(scratch, aggregate_offset, prefix_offset);

  tile_load(in, n, base, tile);
  T total;
  const T mine = wg_scan_exclusive(tile_thread_reduce(tile), buf, &total);
  const T before = scan_tile_lookback(t, total, status, &lb);
  tile_thread_scan(tile, op(before, mine), exclusive);
  tile_store(out, n, base, tile);
}

/*
 * scan_single_block: one work-group walks all tiles in order, carrying the
 * prefix in a register: for small n, where one launch beats the look-back's
 * two. Same tile steps as scan_lookback.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
scan_single_block(PRISM_BUF(const T, in), PRISM_BUF(T, out), ulong n,
                  uint exclusive) {
  PRISM_BUF_AT(const T, in);
  PRISM_BUF_AT(T, out);
  __local T tile[TILE];
  __local T buf[2 * PRISM_WG];
  T carry = IDENTITY;
  for (ulong base = 0; base < n; base += TILE) {
    tile_load(in, n, base, tile);
    T total;
    const T mine = wg_scan_exclusive(tile_thread_reduce(tile), buf, &total);
    tile_thread_scan(tile, op(carry, mine), exclusive);
    tile_store(out, n, base, tile);
    barrier(CLK_LOCAL_MEM_FENCE); /* the next tile_load reuses tile */
    carry = op(carry, total);
  }
}
