/* SPDX-License-Identifier: MIT */
/*
 * sort_keys.cl: built ahead of every sort_*.cl file (after common.cl and
 * key_order.h): keys, values, digits, and the work-group pieces the sort
 * kernels share.
 *
 * Options (besides common.cl's, which name the key's bits as T: U32 or
 * U64, and PRISM_OP_SUM):
 *   PRISM_KEY_IMAGE    the key_order.h macro of the key type, e.g.
 *                      PRISM_KEY_IMAGE_F32.
 *   PRISM_VALUE_BYTES  0 (keys only), 4 or 8.
 *   PRISM_RADIX_BITS   bits per digit (8: 256 digits).
 *   PRISM_ITEMS        keys per work-item in a tile (tile kernels).
 *
 * Kernels see a key as its bits (K = T) and never as a number: sorting
 * needs only the image, so f64 keys need no cl_khr_fp64. The digit of a
 * key in a pass is bits [shift, shift + bits) of its image xor flip, flip
 * being all ones for descending order (the complemented image).
 */

#ifndef PRISM_KEY_IMAGE
#error "sort_keys.cl: no PRISM_KEY_IMAGE option given"
#endif
#ifndef PRISM_VALUE_BYTES
#define PRISM_VALUE_BYTES 0
#endif
#ifndef PRISM_RADIX_BITS
#define PRISM_RADIX_BITS 8
#endif
#ifndef PRISM_ITEMS
#define PRISM_ITEMS 1
#endif

#define K T
#define RADIX (1u << PRISM_RADIX_BITS)
#define TILE (PRISM_WG * PRISM_ITEMS)

/* Values move as opaque bits; V names a type even for keys only, so the
 * kernels' signatures do not change (the host passes a NULL buffer). */
#if PRISM_VALUE_BYTES == 8
#define V ulong
#else
#define V uint
#endif

/* The digit of key k in the pass (shift, bits, flip). */
uint key_digit(K k, uint shift, uint bits, K flip) {
  const K image = PRISM_KEY_IMAGE(k) ^ flip;
  return (uint)PRISM_KEY_DIGIT(image, shift, bits);
}

/* Work-group exclusive scan of one ulong count per work-item (common.cl's
 * wg_scan_exclusive, for counts rather than T); buf holds 2 * PRISM_WG. */
#define PRISM_ADD_COUNTS(a, b) ((a) + (b))
PRISM_DEFINE_WG_SCAN(wg_scan_ulong, ulong, PRISM_ADD_COUNTS, 0)

/*
 * Exclusive scan, in place, of count ulongs in global memory by one
 * work-group: each work-item sums a contiguous run, the runs meet in
 * wg_scan_ulong, each work-item rewrites its run from its prefix plus
 * start. Returns the total.
 */
ulong wg_scan_runs(__global ulong *p, ulong count, ulong start,
                   __local ulong *buf) {
  const ulong per = (count + PRISM_WG - 1) / PRISM_WG;
  const ulong first = min((ulong)get_local_id(0) * per, count);
  const ulong end = min(first + per, count);
  ulong x = 0;
  for (ulong i = first; i < end; i++)
    x += p[i];
  ulong total;
  ulong carry = start + wg_scan_ulong(x, buf, &total);
  for (ulong i = first; i < end; i++) {
    const ulong v = p[i];
    p[i] = carry;
    carry += v;
  }
  return total;
}

/* ---- Tiles: stable ranking of TILE keys in local memory ----------------- */

/* Bits ranked per round: 2^RANK_BITS counters per work-item
 * (local_memory.h counts them). */
#define RANK_BITS PRISM_SORT_RANK_BITS
#define RANK_RADIX (1u << RANK_BITS)

/*
 * The tile in local memory: keys, and each key's position in the tile as
 * loaded (its source index: values are fetched through it, and positions
 * at or past count are padding, which takes the highest digit so it sorts
 * after every real key of the tile).
 */
typedef struct tile_refs {
  __local K *keys;
  __local ushort *index;
  __local ushort *counters; /* RANK_RADIX * PRISM_WG */
  __local ulong *scan_buf;  /* 2 * PRISM_WG */
} tile_refs;

/* Keys [base, base + count) of in into the tile, striped so the global
 * reads coalesce. Ends with a barrier. */
void tile_load_keys(__global const K *in, ulong base, uint count, tile_refs t) {
  const uint lid = get_local_id(0);
  for (uint k = 0; k < PRISM_ITEMS; k++) {
    const uint j = k * PRISM_WG + lid;
    t.keys[j] = j < count ? in[base + j] : 0;
    t.index[j] = (ushort)j;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

/* The digit of the tile's entry (key, source index). */
uint tile_digit(K key, uint index, uint count, uint shift, uint bits, K flip) {
  return index < count ? key_digit(key, shift, bits, flip) : RADIX - 1;
}

/*
 * Exclusive scan of the counters in digit-major order (counter r of
 * work-item w at r * PRISM_WG + w): afterwards counter (r, w) is the number
 * of tile keys whose rank digit is below r, plus those equal to r owned by
 * work-items below w. Each work-item scans RANK_RADIX consecutive
 * counters; the runs meet in wg_scan_ulong.
 */
void tile_scan_counters(tile_refs t) {
  __local ushort *run = t.counters + get_local_id(0) * RANK_RADIX;
  uint sum = 0;
  for (uint r = 0; r < RANK_RADIX; r++)
    sum += run[r];
  ulong total;
  uint carry = (uint)wg_scan_ulong(sum, t.scan_buf, &total);
  for (uint r = 0; r < RANK_RADIX; r++) {
    const uint v = run[r];
    run[r] = (ushort)carry;
    carry += v;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

/*
 * Sort the tile stably by digit, RANK_BITS bits per round from the low
 * end (a stable LSD sort inside the tile). Ownership is blocked: work-item
 * w owns positions [w * PRISM_ITEMS, (w + 1) * PRISM_ITEMS), so ordering
 * by (rank digit, work-item, item) is input order. Each work-item counts
 * its keys per rank digit in its own counters (no atomics), the counters
 * are scanned digit-major, and each key moves to counter + its rank among
 * the work-item's own keys of that digit. Keys are held in registers
 * across the barrier so the tile is rewritten in place.
 */
void tile_rank(tile_refs t, uint count, uint shift, uint bits, K flip) {
  const uint lid = get_local_id(0);
  const uint own = lid * PRISM_ITEMS;
  for (uint round = 0; round * RANK_BITS < bits; round++) {
    K key[PRISM_ITEMS];
    ushort index[PRISM_ITEMS], rank[PRISM_ITEMS];
    uchar digit[PRISM_ITEMS];
    for (uint r = 0; r < RANK_RADIX; r++)
      t.counters[r * PRISM_WG + lid] = 0;
    for (uint k = 0; k < PRISM_ITEMS; k++) {
      key[k] = t.keys[own + k];
      index[k] = t.index[own + k];
      digit[k] =
          (uchar)((tile_digit(key[k], index[k], count, shift, bits, flip) >>
                   (round * RANK_BITS)) &
                  (RANK_RADIX - 1));
      rank[k] = t.counters[digit[k] * PRISM_WG + lid]++;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    tile_scan_counters(t);
    for (uint k = 0; k < PRISM_ITEMS; k++) {
      const uint to = t.counters[digit[k] * PRISM_WG + lid] + rank[k];
      t.keys[to] = key[k];
      t.index[to] = index[k];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

/*
 * After tile_rank: the first position of each digit among the count real
 * keys (start) and one past its last (end); start = end = 0 for digits
 * the tile lacks. Neighbours differ exactly at digit boundaries. Ends with
 * a barrier.
 */
void tile_digit_bounds(tile_refs t, uint count, uint shift, uint bits, K flip,
                       __local uint *start, __local uint *end) {
  const uint lid = get_local_id(0);
  for (uint d = lid; d < RADIX; d += PRISM_WG)
    start[d] = end[d] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = lid; i < count; i += PRISM_WG) {
    const uint d = key_digit(t.keys[i], shift, bits, flip);
    if (i == 0 || key_digit(t.keys[i - 1], shift, bits, flip) != d)
      start[d] = i;
    if (i + 1 == count || key_digit(t.keys[i + 1], shift, bits, flip) != d)
      end[d] = i + 1;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

/*
 * The ranked tile to its places: sorted position i of digit d goes to
 * to[d] + i (to[d] = the digit's first output position less start[d]),
 * striped so neighbouring work-items write neighbouring positions within a
 * digit's run. Values come from values_in at the key's source index.
 */
void tile_scatter(tile_refs t, uint count, uint shift, uint bits, K flip,
                  __local const ulong *to, __global K *keys_out,
                  __global const V *values_in, __global V *values_out,
                  ulong base) {
  for (uint i = get_local_id(0); i < count; i += PRISM_WG) {
    const K key = t.keys[i];
    const ulong pos = to[key_digit(key, shift, bits, flip)] + i;
    keys_out[pos] = key;
#if PRISM_VALUE_BYTES
    values_out[pos] = values_in[base + t.index[i]];
#endif
  }
}
