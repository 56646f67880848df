/* SPDX-License-Identifier: MIT */
/*
 * segmented.cl: segmented scan (by head flags or by offsets) and segmented
 * reduce (by offsets): what both strategies share, the segmented operator,
 * flags, offsets and marks, the merge-path search, and the kernels that
 * clear scratch and mark the segments (seg_init, seg_mark). It is built
 * alone for those two, and ahead of each strategy's file:
 *   segmented_lookback.cl  GPUs: tiles with decoupled look-back, as
 *                          backend_cuda/segmented_scan.cu and
 *                          segmented_reduce.cu, phase for phase;
 *   segmented_chunks.cl    CPUs: contiguous chunks per work-item,
 *                          reduce-then-scan, no look-back.
 * The design below holds for both. Options: common.cl's (each strategy's
 * file names its own). Flag and offset types arrive as run-time arguments
 * (flag_bytes 1, 4 or 8; offset_code OFFSET_SIGNED | OFFSET_WIDE), so one
 * program per element type and operator serves every flag and offset type.
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

#define KIND_NONE 0u
#define KIND_START 1u
#define KIND_END 2u

#define SLOT_SHIFT 30
#define SLOT_MASK ((1ul << SLOT_SHIFT) - 1)
#define NO_BAD_SLOT UINT_MAX

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
__kernel void seg_mark(PRISM_BUF(const uchar, offsets), uint offset_code,
                       ulong num_segments, ulong n, ulong base, ulong per_item,
                       __global uchar *scratch, ulong starts_offset,
                       ulong ends_offset, ulong slots_offset, uint checked) {
  PRISM_BUF_AT(const uchar, offsets);
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
