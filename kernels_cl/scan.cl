/* SPDX-License-Identifier: MIT */
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
 * Tile status (core/lookback.h's value words, as the CUDA backend's), in
 * the scratch buffer, all cleared to 0 by scan_init before each look-back
 * scan:
 *   ticket                              uint: the next tile id to hand out
 *   status_aggregate[t * LB_WORDS + h]  ulong: op of tile t's elements
 *   status_prefix[t * LB_WORDS + h]     ulong: op of tiles 0..t's elements
 * Word h holds 32 bits of the value (h = 0 the low half) in its low half
 * and PRISM_LB_VALID in its high half, so one 64-bit store publishes flag
 * and bits together: a reader never sees a flag without its value, and no
 * fence is needed. (OpenCL 1.2's mem_fence orders accesses only as seen
 * from the work-group; NVIDIA compiles it to a CTA-scope barrier, and a
 * flag-then-value protocol built on it let other work-groups read stale
 * values.) An 8-byte value is valid when both its words are; each word is
 * written once, so two valid words belong to the same value. Aligned 64-bit
 * stores are single transactions on NVIDIA GPUs and on x86-64 CPUs (PoCL).
 * Words go through volatile accesses, which NVIDIA keeps out of the SM's L1
 * (not coherent across SMs).
 */

#ifndef PRISM_ITEMS
#define PRISM_ITEMS 1
#endif
#ifndef PRISM_LB_WINDOW
#define PRISM_LB_WINDOW 32
#endif

#define TILE (PRISM_WG * PRISM_ITEMS)

/* 64-bit status words per tile and array. */
#define LB_WORDS PRISM_LB_WORDS(T_BYTES)

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

/* One work-item publishes value as tile's entry of array: one 64-bit store
 * per word, each complete in itself, so their order does not matter. */
void status_publish(volatile __global ulong *array, uint tile, T value) {
  volatile __global ulong *words = array + (ulong)tile * LB_WORDS;
#if LB_WORDS == 1
  words[0] = PRISM_LB_VALUE_WORD(0u, as_uint(value));
#else
  const ulong bits = as_ulong(value);
  words[0] = PRISM_LB_VALUE_WORD(0u, (uint)bits);
  words[1] = PRISM_LB_VALUE_WORD(0u, (uint)(bits >> 32));
#endif
}

/* Whether loaded words hold a published value: all of them valid. */
bool status_valid(const ulong words[LB_WORDS]) {
  bool valid = true;
  for (uint h = 0; h < LB_WORDS; h++)
    valid &= PRISM_LB_WORD_VALID(words[h]);
  return valid;
}

/* The value that valid words hold. */
T status_value(const ulong words[LB_WORDS]) {
#if LB_WORDS == 1
  return AS_T(PRISM_LB_WORD_BITS(words[0]));
#else
  return AS_T((ulong)PRISM_LB_WORD_BITS(words[1]) << 32 |
              PRISM_LB_WORD_BITS(words[0]));
#endif
}

/* What tile p has published: PRISM_LB_PREFIX or PRISM_LB_AGGREGATE with
 * its value in *value, or PRISM_LB_EMPTY. Every word of both arrays is loaded
 * (volatile 64-bit loads) before any is looked at: one round of loads. */
uint status_read(volatile __global const ulong *aggregate,
                 volatile __global const ulong *prefix, ulong p, T *value) {
  ulong prefix_words[LB_WORDS], aggregate_words[LB_WORDS];
  for (uint h = 0; h < LB_WORDS; h++) {
    prefix_words[h] = prefix[p * LB_WORDS + h];
    aggregate_words[h] = aggregate[p * LB_WORDS + h];
  }
  if (status_valid(prefix_words)) {
    *value = status_value(prefix_words);
    return PRISM_LB_PREFIX;
  }
  if (status_valid(aggregate_words)) {
    *value = status_value(aggregate_words);
    return PRISM_LB_AGGREGATE;
  }
  return PRISM_LB_EMPTY;
}

/* scan_init: clear every tile's status words and the ticket before a
 * look-back scan; one work-item per tile. */
__kernel void scan_init(__global uchar *scratch, ulong ticket_offset,
                        ulong aggregate_offset, ulong prefix_offset,
                        uint tiles) {
  const uint t = get_global_id(0);
  if (t < tiles) {
    for (uint h = 0; h < LB_WORDS; h++) {
      const ulong w = (ulong)t * LB_WORDS + h;
      SCRATCH(ulong, scratch, aggregate_offset)[w] = 0;
      SCRATCH(ulong, scratch, prefix_offset)[w] = 0;
    }
  }
  if (t == 0)
    *SCRATCH(uint, scratch, ticket_offset) = 0;
}

/*
 * Look-back for tile t with aggregate total: publish the aggregate, then
 * walk predecessors PRISM_LB_WINDOW at a time (work-item j reads tile
 * next - j, its prefix and aggregate words in one round of loads), folding
 * aggregates until a tile with its inclusive prefix is found; publish t's
 * inclusive prefix. Tile 0 publishes only its prefix. Returns t's exclusive
 * prefix. The walk's state lives in local memory so every work-item takes
 * the same branches around the barriers; work-item 0 alone folds the
 * window.
 */
T look_back(uint t, T total, volatile __global ulong *aggregate,
            volatile __global ulong *prefix, __local uint *window_flag,
            __local T *window_value, __local T *run, __local long *next) {
  const uint lid = get_local_id(0);
  if (t == 0) {
    if (lid == 0)
      status_publish(prefix, 0, total);
    return IDENTITY;
  }
  if (lid == 0) {
    status_publish(aggregate, t, total);
    *run = IDENTITY;
    *next = (long)t - 1;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  while (*next >= 0) {
    const long nearest = *next;
    if (lid < PRISM_LB_WINDOW) {
      const long p = nearest - (long)lid;
      uint f = PRISM_LB_EMPTY;
      T v = IDENTITY;
      if (p >= 0)
        f = status_read(aggregate, prefix, (ulong)p, &v);
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
        if (f == PRISM_LB_EMPTY) {
          resume = nearest - (long)j;
          break;
        }
        r = op(window_value[j], r);
        if (f == PRISM_LB_PREFIX) {
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
  if (lid == 0)
    status_publish(prefix, t, op(exclusive, total));
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
              __global uchar *scratch, ulong ticket_offset,
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
      look_back(t, total, SCRATCH(volatile ulong, scratch, aggregate_offset),
                SCRATCH(volatile ulong, scratch, prefix_offset), window_flag,
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
