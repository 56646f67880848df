/* SPDX-License-Identifier: MIT */
/*
 * sort_onesweep.cl: one radix pass in one launch (Onesweep, Adinets &
 * Merrill 2022), for devices whose running work-groups make progress
 * (GPUs). Digit starts come from sort_upsweep.cl.
 *
 * Tile status (scratch, cleared by lookback_init before each pass):
 *   ticket                    uint: the next tile id to hand out
 *   status[t * RADIX + d]     ulong: tile t's count of digit d
 * A status word is one of lookback.cl's count words: its flag
 * (PRISM_LB_AGGREGATE: the tile's own count; PRISM_LB_PREFIX: the count
 * over tiles 0..t) with the count, published by one volatile 64-bit store.
 * Each digit's chain is walked by one work-item alone (lb_walk_counts):
 * the tile has RADIX chains to walk at once, which the work-group walk of
 * the other look-backs would take one after another.
 */

/*
 * sort_onesweep: the work-group owns the tile whose id it draws from the
 * ticket (draw order, not get_group_id, so every predecessor it waits on
 * is already running). Tile -> local memory -> stable rank by digit
 * (tile_rank) -> digit bounds -> aggregates published -> look-back per
 * digit, one work-item each -> scatter: each digit's keys of the tile land
 * in one contiguous run at digit_start + prefix. Keys and values are
 * the caller's or the alternates in the scratch, at byte offsets.
 * Partials meet in the tile status words. Traffic: n keys (and values) read
 * once and written once, plus RADIX words per tile.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
sort_onesweep(PRISM_BUF(const K, keys_in), PRISM_BUF(K, keys_out),
              PRISM_BUF(const V, values_in), PRISM_BUF(V, values_out), ulong n,
              uint shift, uint bits, K flip, __global uchar *scratch,
              ulong ticket_offset, ulong status_offset,
              ulong digit_start_offset) {
  PRISM_BUF_AT_ANY(const K, keys_in);
  PRISM_BUF_AT_ANY(K, keys_out);
  PRISM_BUF_AT_ANY(const V, values_in);
  PRISM_BUF_AT_ANY(V, values_out);
  __local K keys[TILE];
  __local ushort index[TILE];
  __local ushort counters[RANK_RADIX * PRISM_WG];
  __local ulong scan_buf[2 * PRISM_WG];
  __local uint start[RADIX], end[RADIX];
  __local ulong to[RADIX];
  __local uint drawn;
  PRISM_LOCAL_FITS(sizeof keys + sizeof index + sizeof counters +
                       sizeof scan_buf + sizeof start + sizeof end + sizeof to +
                       sizeof drawn,
                   PRISM_LOCAL_SORT(PRISM_WG, PRISM_ITEMS, sizeof(K), RADIX));
  const tile_refs tr = {keys, index, counters, scan_buf};
  const uint lid = get_local_id(0);

  const uint t = draw_tile(SCRATCH(uint, scratch, ticket_offset), &drawn);
  const ulong base = (ulong)t * TILE;
  const uint count = (uint)min((ulong)TILE, n - base);

  tile_load_keys(keys_in, base, count, tr);
  tile_rank(tr, count, shift, bits, flip);
  tile_digit_bounds(tr, count, shift, bits, flip, start, end);

  volatile __global ulong *status =
      SCRATCH(volatile ulong, scratch, status_offset);
  const uint own_flag = t == 0 ? PRISM_LB_PREFIX : PRISM_LB_AGGREGATE;
  for (uint d = lid; d < RADIX; d += PRISM_WG)
    lb_publish_count(status, (ulong)t * RADIX + d, own_flag, end[d] - start[d]);
  __global const ulong *digit_start =
      SCRATCH(ulong, scratch, digit_start_offset);
  for (uint d = lid; d < RADIX; d += PRISM_WG)
    to[d] = digit_start[d] +
            lb_walk_counts(status, RADIX, t, d, end[d] - start[d]) - start[d];
  barrier(CLK_LOCAL_MEM_FENCE);
  tile_scatter(tr, count, shift, bits, flip, to, keys_out, values_in,
               values_out, base);
}
