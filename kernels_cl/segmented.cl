/* SPDX-License-Identifier: MIT */
/*
 * segmented.cl: segmented scan (by head flags or by offsets) and segmented
 * reduce (by offsets). The same design as backend_cuda/segmented.cu, phase
 * for phase.
 *
 * Options (besides common.cl's):
 *   PRISM_SEG_CHUNKED  1: the CPU shapes (contiguous chunks per work-item,
 *                      reduce-then-scan, no look-back); 0: the GPU shapes
 *                      (tiles with decoupled look-back).
 *   PRISM_ITEMS        scan: elements per work-item in a tile (GPU).
 *   PRISM_MERGE_ITEMS  reduce: merge items per work-item in a tile (GPU).
 *   PRISM_LB_WINDOW    predecessor statuses read at once in a look-back
 *                      (lookback.cl).
 * Flag and offset types arrive as run-time arguments (flag_bytes 1, 4 or
 * 8; offset_code OFFSET_SIGNED | OFFSET_WIDE), so one program per element
 * type and operator serves every flag and offset type.
 *
 * The segmented operator. Each element carries a mark: KIND_START (a head
 * flag, or the start of a good segment), KIND_END (the end of a good
 * segment that no other starts at) or KIND_NONE. A run of elements folds
 * to a pair (value, kind): kind is the last mark in the run, value the op
 * of the elements from that mark on (all of them when there is none), and
 *   (v1, k1) + (v2, k2) = k2 ? (v2, k2) : (v1 op v2, k1),
 * which is associative. An element is scanned when the pair of everything
 * up to it has kind KIND_START: the scan by flags marks element 0 a start,
 * so every element is; the scan by offsets leaves the others unchanged.
 *
 * Scan by offsets: seg_mark turns the offsets into two bitmaps in scratch,
 * starts and ends (one bit per element, 32 to a uint), set with atomic_or,
 * after seg_init cleared them; the scans read a bit where the scan by
 * flags reads a flag. That keeps the scans the same for both and makes any
 * offsets, even decreasing ones, mean what prism.h says.
 *
 * Reduce: a merge path (Merrill & Garland 2016, merge-based SpMV) over the
 * n elements and the num_segments + 1 bounds B_k = offsets[k] clamped to
 * [0, n]; element j comes before bound k when j < B_k. Every tile (GPU)
 * or chunk (CPU) gets the same number of merge items whatever the segment
 * lengths: a huge segment spreads over many, tiny and empty ones share
 * one. Bound k ends segment k - 1: its running value is the segment's
 * reduction. Values still open at a tile's end are its pair's value, and
 * meet the next tiles' through the same look-back (GPU) or a scan of the
 * chunk pairs (CPU) as the scans. The merge needs bounds that never
 * decrease: each tile checks the bounds it reads and its split points;
 * when any fails (a decreasing segment), the flag irregular is raised and
 * seg_reduce_segments, launched after, redoes every segment on its own, so
 * every good segment is exact for any offsets.
 *
 * Checked calls: bad segments lower 32-bit first-bad slots in scratch with
 * atomic_min, slot s >> SLOT_SHIFT holding the low bits of s (no 64-bit
 * atomics needed); the host reads the slots back.
 */

#define OFFSET_SIGNED 1u
#define OFFSET_WIDE 2u

#define KIND_NONE 0u
#define KIND_START 1u
#define KIND_END 2u

#define SLOT_SHIFT 30
#define SLOT_MASK ((1ul << SLOT_SHIFT) - 1)
#define NO_BAD_SLOT UINT_MAX

#ifndef PRISM_SEG_CHUNKED
#define PRISM_SEG_CHUNKED 0
#endif
#ifndef PRISM_ITEMS
#define PRISM_ITEMS 1
#endif
#ifndef PRISM_MERGE_ITEMS
#define PRISM_MERGE_ITEMS 1
#endif

typedef struct seg_pair {
  T value;
  uint kind;
} seg_pair;

#define SEG_NONE ((seg_pair){IDENTITY, KIND_NONE})

seg_pair seg_make(T value, uint kind) {
  seg_pair p;
  p.value = value;
  p.kind = kind;
  return p;
}

/* The segmented operator: a before b. */
seg_pair seg_combine(seg_pair a, seg_pair b) {
  return b.kind ? b : seg_make(op(a.value, b.value), a.kind);
}

/* One element after the pair a. */
seg_pair seg_push(seg_pair a, T x, uint mark) {
  return mark ? seg_make(x, mark) : seg_make(op(a.value, x), a.kind);
}

/*
 * Work-group exclusive segmented scan of one pair per work-item: the
 * Hillis-Steele of common.cl with the pairs split into values and kinds,
 * local arrays of 2 * PRISM_WG each. Not an array of seg_pair: NVIDIA's
 * OpenCL compiler (H200, CUDA 13.0 driver) loses the values of 8-byte
 * pairs kept in local memory as structs. Returns the work-item's
 * exclusive prefix and sets *total; ends with a barrier.
 */
seg_pair wg_seg_scan_exclusive(seg_pair x, __local T *values,
                               __local uint *kinds, seg_pair *total) {
  const uint lid = get_local_id(0);
  uint in = 0;
  values[lid] = x.value;
  kinds[lid] = x.kind;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint off = 1; off < PRISM_WG; off <<= 1) {
    seg_pair v = seg_make(values[in + lid], kinds[in + lid]);
    if (lid >= off)
      v = seg_combine(seg_make(values[in + lid - off], kinds[in + lid - off]),
                      v);
    values[(PRISM_WG - in) + lid] = v.value;
    kinds[(PRISM_WG - in) + lid] = v.kind;
    in = PRISM_WG - in;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const seg_pair exclusive =
      lid > 0 ? seg_make(values[in + lid - 1], kinds[in + lid - 1]) : SEG_NONE;
  *total = seg_make(values[in + PRISM_WG - 1], kinds[in + PRISM_WG - 1]);
  barrier(CLK_LOCAL_MEM_FENCE);
  return exclusive;
}

/* ---- flags, offsets, marks ---------------------------------------------- */

/* Whether flag i is non-zero, all flag_bytes of it. */
uint flag_set(__global const uchar *flags, ulong i, uint flag_bytes) {
  if (flag_bytes == 1)
    return flags[i] != 0;
  if (flag_bytes == 4)
    return ((__global const uint *)flags)[i] != 0;
  return ((__global const ulong *)flags)[i] != 0;
}

/* Offset s clamped to [0, n]; *ok = whether it lay in [0, n]. */
ulong offset_load(__global const uchar *offsets, ulong s, uint code, ulong n,
                  uint *ok) {
  ulong v;
  int negative;
  if (code & OFFSET_WIDE) {
    v = ((__global const ulong *)offsets)[s];
    negative = (code & OFFSET_SIGNED) && (long)v < 0;
  } else {
    const uint w = ((__global const uint *)offsets)[s];
    negative = (code & OFFSET_SIGNED) && (int)w < 0;
    v = w;
  }
  *ok = !negative && v <= n;
  return negative ? 0 : min(v, n);
}

uint bit_set(__global const uint *bits, ulong i) {
  return (bits[i >> 5] >> (i & 31)) & 1u;
}

/* The mark of element i: a flag (element 0 always starts), or the bits
 * seg_mark left. */
uint mark_at(ulong i, uint by_offsets, __global const uchar *flags,
             uint flag_bytes, __global const uint *starts,
             __global const uint *ends) {
  if (!by_offsets)
    return i == 0 || flag_set(flags, i, flag_bytes) ? KIND_START : KIND_NONE;
  if (bit_set(starts, i))
    return KIND_START;
  return bit_set(ends, i) ? KIND_END : KIND_NONE;
}

/* Records bad segment s in its first-bad slot. */
void record_bad(__global uchar *scratch, ulong slots_offset, ulong s) {
  atomic_min(SCRATCH(uint, scratch, slots_offset) + (s >> SLOT_SHIFT),
             (uint)(s & SLOT_MASK));
}

/*
 * seg_init: zeroes zero_words 64-bit words at zero_offset (tile status,
 * ticket, flags, bitmaps) and sets slot_count first-bad slots to
 * NO_BAD_SLOT; work-item g takes per_item of each, from g * per_item.
 */
__kernel void seg_init(__global uchar *scratch, ulong zero_offset,
                       ulong zero_words, ulong slots_offset, ulong slot_count,
                       ulong per_item) {
  const ulong first = get_global_id(0) * per_item;
  for (ulong w = first; w < min(first + per_item, zero_words); w++)
    SCRATCH(ulong, scratch, zero_offset)[w] = 0;
  for (ulong w = first; w < min(first + per_item, slot_count); w++)
    SCRATCH(uint, scratch, slots_offset)[w] = NO_BAD_SLOT;
}

/* One bit into a bitmap, or into the pending word first: consecutive good
 * segments mostly land in the same word, so one atomic_or per word. */
void bits_flush(__global uint *bits, ulong *word, uint *pending) {
  if (*pending)
    atomic_or(bits + *word, *pending);
  *pending = 0;
}

void bits_add(__global uint *bits, ulong i, ulong *word, uint *pending) {
  if (i >> 5 != *word) {
    bits_flush(bits, word, pending);
    *word = i >> 5;
  }
  *pending |= 1u << (i & 31);
}

/*
 * seg_mark: work-item g owns segments [(base + g) * per_item, + per_item)
 * (a few on GPUs, a contiguous share on CPUs). A good non-empty segment
 * sets its start bit and, below n, its end bit. Checked: the work-item's
 * first bad segment goes to its slot. Traffic: the offsets read once, two
 * bits written per segment (fewer atomics where segments share a word).
 */
__kernel void seg_mark(__global const uchar *offsets, uint offset_code,
                       ulong num_segments, ulong n, ulong base, ulong per_item,
                       __global uchar *scratch, ulong starts_offset,
                       ulong ends_offset, ulong slots_offset, uint checked) {
  const ulong first = (base + get_global_id(0)) * per_item;
  const ulong end = min(first + per_item, num_segments);
  __global uint *starts = SCRATCH(uint, scratch, starts_offset);
  __global uint *ends = SCRATCH(uint, scratch, ends_offset);
  ulong start_word = 0, end_word = 0, bad = ~0ul;
  uint start_bits = 0, end_bits = 0, ok_lo = 0, ok_hi;
  ulong lo =
      first < end ? offset_load(offsets, first, offset_code, n, &ok_lo) : 0;
  for (ulong s = first; s < end; s++) {
    const ulong hi = offset_load(offsets, s + 1, offset_code, n, &ok_hi);
    if (!(ok_lo && ok_hi && lo <= hi))
      bad = min(bad, s);
    else if (lo < hi) {
      bits_add(starts, lo, &start_word, &start_bits);
      if (hi < n)
        bits_add(ends, hi, &end_word, &end_bits);
    }
    lo = hi;
    ok_lo = ok_hi;
  }
  bits_flush(starts, &start_word, &start_bits);
  bits_flush(ends, &end_word, &end_bits);
  if (checked && bad != ~0ul)
    record_bad(scratch, slots_offset, bad);
}

/*
 * seg_reduce_segments: every segment on its own, for offsets the merge
 * path cannot take (launched after the merge kernels; returns at once
 * unless they raised irregular). GPU: work-group
 * per segment, strided loads and a work-group tree. CPU: work-item per
 * contiguous run of per_item segments, serial. Traffic: each good
 * segment's elements read once, out written once.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
seg_reduce_segments(__global const T *in, ulong n,
                    __global const uchar *offsets, uint offset_code,
                    ulong num_segments, __global T *out, ulong per_item,
                    __global uchar *scratch, ulong irregular_offset,
                    ulong slots_offset, uint checked) {
  if (!*SCRATCH(volatile uint, scratch, irregular_offset))
    return;
#if PRISM_SEG_CHUNKED
  const ulong first = get_global_id(0) * per_item;
  for (ulong s = first; s < min(first + per_item, num_segments); s++) {
    uint ok_lo, ok_hi;
    const ulong lo = offset_load(offsets, s, offset_code, n, &ok_lo);
    const ulong hi = offset_load(offsets, s + 1, offset_code, n, &ok_hi);
    const int good = ok_lo && ok_hi && lo <= hi;
    out[s] = good ? fold_elements(in, lo, hi, IDENTITY) : IDENTITY;
    if (checked && !good)
      record_bad(scratch, slots_offset, s);
  }
#else
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
#endif
}

/* Bounds consumed at diagonal d of the merge of the bounds (k <= S) and
 * the n elements: the first k with B_k > d - k - 1 (bound k comes before
 * element j when B_k <= j). Any bounds give an answer in range; only
 * non-decreasing ones give the merge. */
ulong merge_search(__global const uchar *offsets, uint code, ulong n,
                   ulong num_segments, ulong d) {
  ulong lo = d > n ? d - n : 0, hi = min(d, num_segments + 1);
  while (lo < hi) {
    const ulong mid = (lo + hi) / 2;
    uint ok;
    if (offset_load(offsets, mid, code, n, &ok) + mid + 1 <= d)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

#if !PRISM_SEG_CHUNKED
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

PRISM_DEFINE_LOOK_BACK(seg_walk, seg_pair, seg_lb_state, lb_values,
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
seg_pair seg_look_back(uint t, seg_pair total, uint wait, lb_values s,
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
seg_scan_lookback(__global const T *in, __global T *out, ulong n,
                  uint exclusive, uint by_offsets, __global const uchar *flags,
                  uint flag_bytes, __global uchar *scratch, ulong ticket_offset,
                  ulong aggregate_offset, ulong prefix_offset,
                  ulong starts_offset, ulong ends_offset) {
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

  const uint t = lb_ticket(SCRATCH(uint, scratch, ticket_offset), &drawn);
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
      seg_look_back(t, total, mark[0] == KIND_NONE, status, &lb);
  seg_thread_scan(tile, mark, seg_combine(before, mine), exclusive);
  seg_tile_store(out, n, base, tile, mark);
}

/*
 * seg_scan_single_block: one work-group walks every tile in order with the
 * running pair in a register: small n, one launch (after the marks). Same
 * tile steps as seg_scan_lookback.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
seg_scan_single_block(__global const T *in, __global T *out, ulong n,
                      uint exclusive, uint by_offsets,
                      __global const uchar *flags, uint flag_bytes,
                      __global uchar *scratch, ulong starts_offset,
                      ulong ends_offset) {
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
seg_reduce_search(__global const uchar *offsets, uint offset_code, ulong n,
                  ulong num_segments, uint tiles, __global uchar *scratch,
                  ulong splits_offset, ulong ticket_offset,
                  ulong aggregate_offset, ulong prefix_offset,
                  ulong slots_offset, ulong slot_count) {
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
seg_reduce_tiles(__global const T *in, ulong n, __global const uchar *offsets,
                 uint offset_code, ulong num_segments, __global T *out,
                 __global uchar *scratch, ulong splits_offset,
                 ulong ticket_offset, ulong aggregate_offset,
                 ulong prefix_offset, ulong slots_offset, uint checked) {
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
  const uint t = lb_ticket(SCRATCH(uint, scratch, ticket_offset), &drawn);
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
      seg_look_back(t, total, kb0 > 0 || tb == 0, status, &lb);

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

#else
/* ---- CPU: chunked scans ------------------------------------------------- */

/*
 * seg_scan_reduce_chunks: work-item g writes the pair of its chunk
 * [g * chunk, (g + 1) * chunk) to kinds[g], values[g]. Traffic: n elements
 * and their marks read, chunks written.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
seg_scan_reduce_chunks(__global const T *in, ulong n, ulong chunk,
                       uint by_offsets, __global const uchar *flags,
                       uint flag_bytes, __global uchar *scratch,
                       ulong starts_offset, ulong ends_offset,
                       ulong kinds_offset, ulong values_offset) {
  const ulong g = get_global_id(0);
  const ulong first = min(g * chunk, n), end = min(first + chunk, n);
  __global const uint *starts = SCRATCH(const uint, scratch, starts_offset);
  __global const uint *ends = SCRATCH(const uint, scratch, ends_offset);
  seg_pair p = SEG_NONE;
  for (ulong i = first; i < end; i++)
    p = seg_push(p, in[i],
                 mark_at(i, by_offsets, flags, flag_bytes, starts, ends));
  SCRATCH(uint, scratch, kinds_offset)[g] = p.kind;
  SCRATCH(T, scratch, values_offset)[g] = p.value;
}

/*
 * seg_scan_partials: one work-group turns count chunk pairs into the
 * pairs before each chunk, in place: each work-item folds a contiguous
 * run, the runs meet in a work-group segmented scan, each work-item
 * rewrites its run.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
seg_scan_partials(__global uchar *scratch, ulong kinds_offset,
                  ulong values_offset, uint count) {
  __local T scan_values[2 * PRISM_WG];
  __local uint scan_kinds[2 * PRISM_WG];
  __global uint *kinds = SCRATCH(uint, scratch, kinds_offset);
  __global T *values = SCRATCH(T, scratch, values_offset);
  const uint per = (count + PRISM_WG - 1) / PRISM_WG;
  const uint first = min((uint)get_local_id(0) * per, count);
  const uint end = min(first + per, count);
  seg_pair p = SEG_NONE;
  for (uint i = first; i < end; i++)
    p = seg_combine(p, seg_make(values[i], kinds[i]));
  seg_pair total;
  seg_pair carry = wg_seg_scan_exclusive(p, scan_values, scan_kinds, &total);
  for (uint i = first; i < end; i++) {
    const seg_pair v = seg_make(values[i], kinds[i]);
    kinds[i] = carry.kind;
    values[i] = carry.value;
    carry = seg_combine(carry, v);
  }
}

/*
 * seg_scan_chunks: work-item g scans its chunk serially from the pair
 * before it (from seg_scan_partials, or SEG_NONE when has_prefix is 0),
 * writing the elements inside segments. Each work-item reads and writes
 * only its own chunk, so in == out is safe. Traffic: n read, at most n
 * written, the marks read.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
seg_scan_chunks(__global const T *in, __global T *out, ulong n, ulong chunk,
                uint exclusive, uint by_offsets, __global const uchar *flags,
                uint flag_bytes, __global uchar *scratch, ulong starts_offset,
                ulong ends_offset, ulong kinds_offset, ulong values_offset,
                uint has_prefix) {
  const ulong g = get_global_id(0);
  const ulong first = min(g * chunk, n), end = min(first + chunk, n);
  __global const uint *starts = SCRATCH(const uint, scratch, starts_offset);
  __global const uint *ends = SCRATCH(const uint, scratch, ends_offset);
  seg_pair carry = SEG_NONE;
  if (has_prefix)
    carry = seg_make(SCRATCH(T, scratch, values_offset)[g],
                     SCRATCH(uint, scratch, kinds_offset)[g]);
  for (ulong i = first; i < end; i++) {
    const uint m = mark_at(i, by_offsets, flags, flag_bytes, starts, ends);
    const T before = m ? IDENTITY : carry.value;
    carry = seg_push(carry, in[i], m);
    if (carry.kind == KIND_START)
      out[i] = exclusive ? before : carry.value;
  }
}

/* ---- CPU: chunked reduce ------------------------------------------------ */

/* Where a chunk's first bound's segment waits for the carry. */
#define NO_FIRST (~0ul)

/*
 * seg_reduce_chunks: work-item g owns merge diagonals [g, g + 1) * chunk:
 * bounds [kb0, kb1), elements [ke0, ke1), found by two merge-path
 * searches; it checks them (non-decreasing, the splits valid; else
 * irregular). It walks its items serially: a bound closes a segment and
 * writes it, except the chunk's first (g > 0), whose value still lacks
 * what earlier chunks hold: that bound's index and value go to
 * first_bound[g], first_value[g], and the chunk's pair (the value after
 * its last bound) to kinds[g], values[g], for seg_scan_partials and
 * seg_reduce_carries. Traffic: elements read once, offsets about twice.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
seg_reduce_chunks(__global const T *in, ulong n, __global const uchar *offsets,
                  uint offset_code, ulong num_segments, __global T *out,
                  ulong chunk, __global uchar *scratch, ulong kinds_offset,
                  ulong values_offset, ulong first_bound_offset,
                  ulong first_value_offset, ulong irregular_offset,
                  ulong slots_offset, uint checked) {
  const ulong g = get_global_id(0);
  const ulong total = n + num_segments + 1;
  const ulong d0 = min(g * chunk, total), d1 = min(d0 + chunk, total);
  const ulong kb0 = merge_search(offsets, offset_code, n, num_segments, d0);
  const ulong kb1 = merge_search(offsets, offset_code, n, num_segments, d1);
  const ulong ke0 = d0 - kb0, ke1 = d1 - kb1;
  SCRATCH(ulong, scratch, first_bound_offset)[g] = NO_FIRST;

  /* The bounds kb0 - 1 .. kb1 must not decrease, and the splits must lie
   * between them. */
  int broken = kb0 > kb1 || ke0 > ke1;
  uint ok;
  ulong prev = kb0 > 0 ? offset_load(offsets, kb0 - 1, offset_code, n, &ok) : 0;
  broken |= prev > ke0;
  for (ulong k = kb0; !broken && k <= min(kb1, num_segments); k++) {
    const ulong b = offset_load(offsets, k, offset_code, n, &ok);
    broken = b < prev || (k < kb1 ? b < ke0 || b > ke1 : b < ke1);
    prev = b;
  }
  if (broken) {
    *SCRATCH(volatile uint, scratch, irregular_offset) = 1;
    SCRATCH(uint, scratch, kinds_offset)[g] = KIND_START;
    SCRATCH(T, scratch, values_offset)[g] = IDENTITY;
    return;
  }

  uint ok_prev = 0;
  prev = kb0 > 0 ? offset_load(offsets, kb0 - 1, offset_code, n, &ok_prev) : 0;
  ulong e = ke0;
  T acc = IDENTITY;
  for (ulong k = kb0; k < kb1; k++) {
    const ulong b = offset_load(offsets, k, offset_code, n, &ok);
    acc = fold_elements(in, e, b, acc);
    e = b;
    if (k > 0) {
      const int good = ok_prev && ok;
      if (checked && !good)
        record_bad(scratch, slots_offset, k - 1);
      if (g > 0 && k == kb0) {
        SCRATCH(ulong, scratch, first_bound_offset)[g] = k | (ulong)good << 63;
        SCRATCH(T, scratch, first_value_offset)[g] = acc;
      } else {
        out[k - 1] = good ? acc : IDENTITY;
      }
    }
    acc = IDENTITY;
    prev = b;
    ok_prev = ok;
  }
  acc = fold_elements(in, e, ke1, acc);
  SCRATCH(uint, scratch, kinds_offset)[g] = kb1 > kb0 ? KIND_START : KIND_NONE;
  SCRATCH(T, scratch, values_offset)[g] = acc;
}

/*
 * seg_reduce_carries: work-item g completes its chunk's first segment
 * with the pair before the chunk (seg_scan_partials made it). Traffic:
 * a few words per chunk.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
seg_reduce_carries(__global T *out, uint count, __global uchar *scratch,
                   ulong values_offset, ulong first_bound_offset,
                   ulong first_value_offset) {
  const uint g = get_global_id(0);
  if (g >= count)
    return;
  const ulong first = SCRATCH(ulong, scratch, first_bound_offset)[g];
  if (first == NO_FIRST)
    return;
  const ulong k = first & ~(1ul << 63);
  const T value = op(SCRATCH(T, scratch, values_offset)[g],
                     SCRATCH(T, scratch, first_value_offset)[g]);
  out[k - 1] = first >> 63 ? value : IDENTITY;
}
#endif
