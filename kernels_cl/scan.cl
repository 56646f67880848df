/*
 * scan.cl: single-pass scan with decoupled look-back (Merrill & Garland
 * 2016), for devices whose running work-groups make progress (GPUs).
 *
 * Options (besides common.cl's):
 *   PRISM_ITEMS      elements per work-item in a tile; odd, so the
 *                    work-item-serial passes over local memory touch every
 *                    bank once.
 *   PRISM_LB_WINDOW  predecessor statuses read at once during look-back.
 *
 * Tile status (same layout as the CUDA backend), in the scratch buffer:
 *   status_flag[t]       uint: STATUS_EMPTY, STATUS_AGGREGATE, STATUS_PREFIX
 *   status_aggregate[t]  T: op of tile t's elements
 *   status_prefix[t]     T: op of tiles 0..t's elements
 *   ticket               uint: the next tile id to hand out
 * A writer stores the value, fences, then sets the flag atomically; a
 * reader loads the flag (volatile), fences, then loads the value.
 */

#ifndef PRISM_ITEMS
#define PRISM_ITEMS 1
#endif
#ifndef PRISM_LB_WINDOW
#define PRISM_LB_WINDOW 32
#endif

#define TILE (PRISM_WG * PRISM_ITEMS)

#define STATUS_EMPTY 0u
#define STATUS_AGGREGATE 1u
#define STATUS_PREFIX 2u

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

/* scan_init: clear every tile's status and the ticket before a look-back
 * scan; one work-item per tile. */
__kernel void scan_init(__global uchar *scratch, ulong ticket_offset,
                        ulong flag_offset, uint tiles) {
  const uint t = get_global_id(0);
  if (t < tiles)
    SCRATCH(uint, scratch, flag_offset)[t] = STATUS_EMPTY;
  if (t == 0)
    *SCRATCH(uint, scratch, ticket_offset) = 0;
}

/*
 * Look-back for tile t with aggregate total: publish the aggregate, then
 * walk predecessors PRISM_LB_WINDOW at a time (work-item j reads tile
 * next - j), folding aggregates until a tile with its inclusive prefix is
 * found; publish t's inclusive prefix. Returns t's exclusive prefix. The
 * walk's state lives in local memory so every work-item takes the same
 * branches around the barriers; work-item 0 alone folds the window.
 */
T look_back(uint t, T total, __global volatile uint *flag,
            __global volatile T *aggregate, __global volatile T *prefix,
            __local uint *window_flag, __local T *window_value, __local T *run,
            __local long *next) {
  const uint lid = get_local_id(0);
  if (t == 0) {
    if (lid == 0) {
      prefix[0] = total;
      mem_fence(CLK_GLOBAL_MEM_FENCE);
      atomic_xchg(&flag[0], STATUS_PREFIX);
    }
    return IDENTITY;
  }
  if (lid == 0) {
    aggregate[t] = total;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    atomic_xchg(&flag[t], STATUS_AGGREGATE);
    *run = IDENTITY;
    *next = (long)t - 1;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  while (*next >= 0) {
    const long nearest = *next;
    if (lid < PRISM_LB_WINDOW) {
      const long p = nearest - (long)lid;
      uint f = STATUS_EMPTY;
      T v = IDENTITY;
      if (p >= 0) {
        f = flag[p];
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        if (f == STATUS_PREFIX)
          v = prefix[p];
        else if (f == STATUS_AGGREGATE)
          v = aggregate[p];
      }
      window_flag[lid] = f;
      window_value[lid] = v;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
      /* Fold from the nearest predecessor outwards, stopping at the first
       * tile that has not published (retry from it) or at a prefix. */
      T r = *run;
      long resume = nearest - PRISM_LB_WINDOW;
      for (uint j = 0; j < PRISM_LB_WINDOW; j++) {
        const uint f = window_flag[j];
        if (f == STATUS_EMPTY) {
          resume = nearest - (long)j;
          break;
        }
        r = op(window_value[j], r);
        if (f == STATUS_PREFIX) {
          resume = -1;
          break;
        }
      }
      *run = r;
      *next = resume;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const T exclusive = *run;
  if (lid == 0) {
    prefix[t] = op(exclusive, total);
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    atomic_xchg(&flag[t], STATUS_PREFIX);
  }
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
scan_lookback(__global const T *in, __global T *out, ulong n, uint exclusive,
              __global uchar *scratch, ulong ticket_offset, ulong flag_offset,
              ulong aggregate_offset, ulong prefix_offset) {
  __local T tile[TILE];
  __local T buf[2 * PRISM_WG];
  __local uint window_flag[PRISM_LB_WINDOW];
  __local T window_value[PRISM_LB_WINDOW];
  __local T run;
  __local long next;
  __local uint drawn;

  if (get_local_id(0) == 0)
    drawn = atomic_inc(SCRATCH(uint, scratch, ticket_offset));
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint t = drawn;
  const ulong base = (ulong)t * TILE;

  tile_load(in, n, base, tile);
  T total;
  const T mine = wg_scan_exclusive(tile_thread_reduce(tile), buf, &total);
  const T before =
      look_back(t, total, SCRATCH(volatile uint, scratch, flag_offset),
                SCRATCH(volatile T, scratch, aggregate_offset),
                SCRATCH(volatile T, scratch, prefix_offset), window_flag,
                window_value, &run, &next);
  tile_thread_scan(tile, op(before, mine), exclusive);
  tile_store(out, n, base, tile);
}

/*
 * scan_single_block: one work-group walks all tiles in order, carrying the
 * prefix in a register: for small n, where one launch beats the look-back's
 * two. Same tile steps as scan_lookback.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
scan_single_block(__global const T *in, __global T *out, ulong n,
                  uint exclusive) {
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
