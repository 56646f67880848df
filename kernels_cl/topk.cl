/* SPDX-License-Identifier: MIT */
/*
 * topk.cl: top-k (core/backend.h, prism__topk_args), as backend_cuda/topk.cu
 * does it, kernel for kernel (a work-group for a block, local memory for
 * shared memory). Every key is chosen by its image (key_order.h) xor flip,
 * flip being all ones for descending order: the k least (image, column)
 * pairs of each row, so ties go to the lower column and the result is the
 * first k of a stable sort.
 *
 * topk_rows (a row of at most a tile, wg x items keys): work-group g owns
 * row base + g and its k outputs. The row is read striped (coalesced) into
 * local memory and each work-item takes items consecutive columns from
 * there (blocked), as images in registers. A radix select, 8 bits a pass
 * from the top, finds the threshold prefix: histogram (local atomics) of
 * the next digit of the keys whose bits above it equal the prefix so far,
 * a work-group scan of the 256 counts, the digit where the running count
 * reaches want; it stops when that digit's bucket is wholly in or the
 * image is used up. Keys below the prefix are in, and of those equal to it
 * the need = want with the lowest columns: one work-group scan of each
 * work-item's (below, equal) counts gives every item its rank among the
 * equal ones and its output position, in column order (the blocked layout
 * makes column order the scan order). Unsorted, each work-item writes its
 * chosen keys at row * k + position; sorted, the chosen (image, column)
 * pairs go to local memory at their positions, padded to a power of two
 * with (all ones, all ones), a bitonic sort orders them, and rank r < k
 * is written from the row's key and value at the rank's column. Traffic:
 * the row's keys read once (and the chosen ones again, from cache), k keys
 * and values written.
 *
 * A longer row: a radix select over the whole device on the composite
 * (image, column), 11 bits a pass, image bits first, then column bits
 * (CB = ceil(log2(cols)) of them), so the k-th is one element and the
 * chosen set is "composite prefix <= the threshold's". The row's state
 * (topk_state) is in scratch, with 2048 bins, two candidate buffers of
 * (key bits, column) and the chosen list of k (key bits, column); per row
 * the host queues topk_init, then pass / choose pairs, one per digit and
 * one more (the emit pass), which return at once once the row is done.
 *
 * topk_init (one work-group): the state (want k, every bit open, the row
 * the source, no candidates kept) and the bins cleared.
 *
 * topk_pass (a persistent grid, a few work-groups per compute unit, each
 * over tiles of wg x items elements of the source, the row or a candidate
 * buffer: grid-stride on GPUs, a contiguous range per group where
 * PRISM_TOPK_CHUNKED): each element's (image >> img_left, column >>
 * col_left) is compared with the prefix. Below goes to the chosen list,
 * when the pass keeps candidates or emits: a source read without keeping
 * stays the source, so each of its keys below the prefix goes out once, in
 * the pass that leaves it or in the emit pass (taking them in every pass
 * would take them again while a bucket too large for the buffers keeps
 * the row the source). Equal goes to the chosen list in the emit pass;
 * else it counts in the histogram of the next digit and, when the pass
 * keeps candidates, goes to the candidate buffer that is not the source.
 * Appends are aggregated per tile: local atomics give each work-item its
 * place in the group's share, one global atomic per list the share. The
 * histogram is the group's in local memory, added to the global bins once
 * at the end (non-zero bins only).
 *
 * topk_choose (one work-group): scans the bins (clearing them), picks the
 * digit where the running count reaches want, extends the prefix, moves
 * the source to the buffer just written, keeps candidates next pass when
 * the new bucket fits a buffer, and enters the emit phase when that whole
 * bucket is wanted (at the latest when every bit is fixed). After the
 * emit pass it marks the row done.
 *
 * Then, sorted, the host sorts the chosen list by composite: topk_compose
 * makes one ulong image << 32 | column per entry for 4-byte keys of at
 * most 2^32 columns, for one radix sort (sort.c); else a stable sort by
 * column and then by key. topk_finish, a work-item per rank r < k,
 * gathers the key and value (or the column itself) at the r-th chosen
 * column from the row. Traffic, a long row: the row read by the first pass
 * and the second (which keeps the candidates of the first digit's
 * bucket), then only candidates; the k chosen written once, sorted and
 * gathered.
 *
 * Options (besides common.cl's, which name the key's bits as T: U32 or
 * U64, and PRISM_OP_SUM; PRISM_WG is the work-group of topk_rows, or of
 * topk_init, topk_pass and topk_choose):
 *   PRISM_KEY_IMAGE       the key_order.h macro of the key type.
 *   PRISM_VALUE_BYTES     values_out's element: 4 or 8 (0: no values).
 *   PRISM_ITEMS           keys per work-item (a row's tile, or a pass's).
 *   PRISM_TOPK_ROWS_LOCAL topk_rows' __local bytes as the host stated them
 *                         (tuning.h's PRISM__CL_TOPK_ROWS_LOCAL); builds
 *                         topk_rows alone. Without it the long-row kernels
 *                         are built, with:
 *   PRISM_TOPK_WIDE       1: columns as ulong (cols > 2^32); 0: uint.
 *   PRISM_TOPK_CHUNKED    1: a contiguous range of the source per group.
 *   PRISM_FINISH_WG       topk_compose's and topk_finish's work-group.
 */

#ifndef PRISM_KEY_IMAGE
#error "topk.cl: no PRISM_KEY_IMAGE option given"
#endif
#ifndef PRISM_VALUE_BYTES
#define PRISM_VALUE_BYTES 0
#endif
#ifndef PRISM_ITEMS
#define PRISM_ITEMS 1
#endif

#define K T
#define KEY_BITS (T_BYTES * 8)
#define KEY_ONES ((K)0 - (K)1)

/* Values move as opaque bits; V names a type even without values, so the
 * kernels' signatures do not change (the host passes a NULL buffer). */
#if PRISM_VALUE_BYTES == 8
#define V ulong
#else
#define V uint
#endif

/* What values_out receives (values_mode). */
#define VALUES_NONE 0u
#define VALUES_IN 1u      /* values_in at the chosen column */
#define VALUES_COLUMNS 2u /* the column itself */

/* A key's place in the order: its image xor flip. */
K topk_image(K key, K flip) {
  return (K)(PRISM_KEY_IMAGE(key) ^ flip);
}

#define TOPK_ADD(a, b) ((a) + (b))

/* A local histogram's increment: a plain one for a work-group of one
 * work-item (CPUs; a locked increment each cost PoCL 2x), else atomic. */
#if PRISM_WG == 1
#define HIST_INC(bin) (++*(bin))
#else
#define HIST_INC(bin) atomic_inc(bin)
#endif

#ifdef PRISM_TOPK_ROWS_LOCAL

/* ---- rows: a row of at most a tile in one work-group -------------------- */

#define ROWS_TILE (PRISM_WG * PRISM_ITEMS)
#define ROWS_DIGIT_BITS 8u
#define ROWS_RADIX (1u << ROWS_DIGIT_BITS)
/* Histogram bins per work-item in the digit scan. */
#define ROWS_BINS_PER ((ROWS_RADIX + PRISM_WG - 1) / PRISM_WG)
/* The (below, equal) counts of a work-item travel as one uint, 16 bits
 * each: every exclusive count is below the tile. */
#define ROWS_COUNT_BITS 16u
#if ROWS_TILE > 32768
#error "topk.cl: a row tile holds at most 32768 keys (16-bit counts)"
#endif

PRISM_DEFINE_WG_SCAN(topk_scan_uint, uint, TOPK_ADD, 0u)

/* Writes rank (or position) r of the row from column col of the input. */
void rows_write(__global const K *keys_in, __global const V *values_in,
                __global K *keys_out, __global V *values_out, uint values_mode,
                uint want_keys, ulong in_at, ulong out_at, uint col) {
  if (want_keys)
    keys_out[out_at] = keys_in[in_at + col];
  if (values_mode == VALUES_IN)
    values_out[out_at] = values_in[in_at + col];
  else if (values_mode == VALUES_COLUMNS)
    values_out[out_at] = (V)col;
}

/*
 * topk_rows: work-group base + g chooses the k of row r = base + g of
 * keys_in (cols <= ROWS_TILE keys) and writes them at r * k of keys_out
 * and values_out (values_mode and want_keys say which; absent ones are
 * NULL buffers). sorted: rank order, m the power of two >= k the bitonic
 * sort runs over; else column order.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
topk_rows(PRISM_BUF(const K, keys_in), PRISM_BUF(const V, values_in),
          PRISM_BUF(K, keys_out), PRISM_BUF(V, values_out), uint values_mode,
          uint want_keys, ulong cols, ulong k, uint sorted, uint m, ulong base,
          K flip) {
  PRISM_BUF_AT(const K, keys_in);
  PRISM_BUF_AT(const V, values_in);
  PRISM_BUF_AT(K, keys_out);
  PRISM_BUF_AT(V, values_out);
  __local K s_img[ROWS_TILE];
  __local uint s_col[ROWS_TILE];
  __local uint hist[ROWS_RADIX];
  __local uint scan_buf[2 * PRISM_WG];
  __local uint found[3]; /* the digit, the count before it, its count */
  PRISM_LOCAL_FITS(sizeof s_img + sizeof s_col + sizeof hist + sizeof scan_buf +
                       sizeof found,
                   PRISM_TOPK_ROWS_LOCAL);
  const uint lid = get_local_id(0);
  const uint n = (uint)cols;
  const ulong row = base + get_group_id(0);
  const ulong in_at = row * cols, out_at = row * k;

  /* Striped loads, blocked images: work-item lid owns columns
   * lid * PRISM_ITEMS + i. The loads stop at the row's end (not the
   * tile's: PoCL's masked vector loads past it ran 10x slower). */
  for (uint j = lid; j < n; j += PRISM_WG)
    s_img[j] = keys_in[in_at + j];
  barrier(CLK_LOCAL_MEM_FENCE);
  /* Loops over a work-item's items stop at its last column, so a short
   * row costs its length, not the tile's. */
  const uint first = lid * PRISM_ITEMS;
  const uint owned = first < n ? min((uint)PRISM_ITEMS, n - first) : 0u;
  K img[PRISM_ITEMS];
  for (uint i = 0; i < PRISM_ITEMS; i++) {
    if (i >= owned)
      break;
    img[i] = topk_image(s_img[first + i], flip);
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  /* The radix select: prefix holds the image's top KEY_BITS - s bits of
   * the k-th key, want how many of the keys with that prefix are in. */
  K prefix = 0;
  uint s = KEY_BITS, want = (uint)k;
  for (;;) {
    s -= ROWS_DIGIT_BITS;
    for (uint b = lid; b < ROWS_RADIX; b += PRISM_WG)
      hist[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = 0; i < PRISM_ITEMS; i++) {
      if (i >= owned)
        break;
      if (s + ROWS_DIGIT_BITS == KEY_BITS ||
          (img[i] >> (s + ROWS_DIGIT_BITS)) == prefix)
        HIST_INC(&hist[(uint)(img[i] >> s) & (ROWS_RADIX - 1)]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    uint mine = 0;
    for (uint q = 0; q < ROWS_BINS_PER; q++) {
      const uint b = lid * ROWS_BINS_PER + q;
      mine += b < ROWS_RADIX ? hist[b] : 0u;
    }
    uint total;
    uint running = topk_scan_uint(mine, scan_buf, &total);
    for (uint q = 0; q < ROWS_BINS_PER; q++) {
      const uint b = lid * ROWS_BINS_PER + q;
      const uint c = b < ROWS_RADIX ? hist[b] : 0u;
      if (running < want && want <= running + c) {
        found[0] = b;
        found[1] = running;
        found[2] = c;
      }
      running += c;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint d = found[0], count = found[2];
    want -= found[1];
    prefix = (K)((prefix << ROWS_DIGIT_BITS) | d);
    if (count == want || s == 0)
      break;
  }

  /* In: below the prefix, and the need = want equal ones of the lowest
   * columns. One scan of (below, equal) counts in column order. */
  const uint need = want;
  uint below = 0, equal = 0;
  for (uint i = 0; i < PRISM_ITEMS; i++) {
    if (i >= owned)
      break;
    const K hi = img[i] >> s;
    below += hi < prefix;
    equal += hi == prefix;
  }
  uint total;
  const uint before =
      topk_scan_uint((below << ROWS_COUNT_BITS) | equal, scan_buf, &total);
  uint below_seen = before >> ROWS_COUNT_BITS;
  uint equal_seen = before & ((1u << ROWS_COUNT_BITS) - 1);
  for (uint i = 0; i < PRISM_ITEMS; i++) {
    if (i >= owned)
      break;
    const K hi = img[i] >> s;
    const uint is_below = hi < prefix, is_equal = hi == prefix;
    if (is_below || (is_equal && equal_seen < need)) {
      const uint pos = below_seen + min(equal_seen, need);
      if (sorted) {
        s_img[pos] = img[i];
        s_col[pos] = first + i;
      } else {
        rows_write(keys_in, values_in, keys_out, values_out, values_mode,
                   want_keys, in_at, out_at + pos, first + i);
      }
    }
    below_seen += is_below;
    equal_seen += is_equal;
  }
  if (!sorted)
    return;

  /* Sorted: pad to m, bitonic sort by (image, column), write by rank. */
  for (uint p = (uint)k + lid; p < m; p += PRISM_WG) {
    s_img[p] = KEY_ONES;
    s_col[p] = UINT_MAX;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint size = 2; size <= m; size <<= 1)
    for (uint stride = size >> 1; stride > 0; stride >>= 1) {
      for (uint t = lid; t < (m >> 1); t += PRISM_WG) {
        const uint lo = 2 * t - (t & (stride - 1)), hi = lo + stride;
        const K a = s_img[lo], b = s_img[hi];
        const uint ca = s_col[lo], cb = s_col[hi];
        const int after = a > b || (a == b && ca > cb);
        /* Stores either way, by select: no branch on the data (which a
         * CPU's work-item mispredicts half the time). */
        const int swap = after == ((lo & size) == 0);
        s_img[lo] = swap ? b : a;
        s_img[hi] = swap ? a : b;
        s_col[lo] = swap ? cb : ca;
        s_col[hi] = swap ? ca : cb;
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  for (uint r = lid; r < (uint)k; r += PRISM_WG)
    rows_write(keys_in, values_in, keys_out, values_out, values_mode, want_keys,
               in_at, out_at + r, s_col[r]);
}

#else /* !PRISM_TOPK_ROWS_LOCAL */

/* ---- long rows: the select over the device ------------------------------ */

#ifndef PRISM_TOPK_WIDE
#define PRISM_TOPK_WIDE 0
#endif
#ifndef PRISM_TOPK_CHUNKED
#define PRISM_TOPK_CHUNKED 0
#endif
#ifndef PRISM_FINISH_WG
#define PRISM_FINISH_WG PRISM_WG
#endif

/* A column: 32 bits unless cols > 2^32. */
#if PRISM_TOPK_WIDE
#define C ulong
#else
#define C uint
#endif

/*
 * A row's select, in scratch (backend_cuda/topk.cu's TopkState, member for
 * member). prefix_img / prefix_col: the fixed top bits of the composite
 * (img_left, col_left: the bits below them still open); want: how many of
 * the keys equal to the prefix are still wanted; chosen: the chosen list's
 * length; cand[b]: candidate buffer b's length; source: what the next pass
 * reads (SOURCE_ROW, or 1 + b: candidate buffer b); write: whether it
 * keeps candidates; phase: PHASE_*.
 */
typedef struct topk_state {
  ulong prefix_img, prefix_col;
  ulong want, chosen, cand[2];
  uint img_left, col_left, source, write, phase;
} topk_state;

#define SOURCE_ROW 0u
#define PHASE_SELECT 0u
#define PHASE_EMIT 1u /* the next pass takes the prefix's bucket whole */
#define PHASE_DONE 2u

/* 11-bit digits (CUDA's TOPK_DIGIT_BITS). */
#define TOPK_DIGIT_BITS 11u
#define TOPK_BINS (1u << TOPK_DIGIT_BITS)
#define PASS_TILE (PRISM_WG * PRISM_ITEMS)
#define BINS_PER ((TOPK_BINS + PRISM_WG - 1) / PRISM_WG)

/* Which buffer a pass reading source writes its candidates to. */
uint cand_dest(uint source) {
  return source == 1 ? 1u : 0u;
}

/*
 * 64-bit atomics where the device has them; else counts and bins in 32
 * bits (the host refuses cols >= 2^32 there), a count's low word being
 * the ulong's lower-addressed half on a little-endian device.
 */
#ifdef cl_khr_int64_base_atomics
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define BIN ulong
ulong count_add(__global ulong *word, uint v) {
  return atom_add((volatile __global ulong *)word, (ulong)v);
}
void bin_add(__global BIN *bin, uint v) {
  atom_add((volatile __global ulong *)bin, (ulong)v);
}
#else
#define BIN uint
ulong count_add(__global ulong *word, uint v) {
#ifdef __ENDIAN_LITTLE__
  __global uint *low = (__global uint *)word;
#else
  __global uint *low = (__global uint *)word + 1;
#endif
  return atomic_add(low, v);
}
void bin_add(__global BIN *bin, uint v) {
  atomic_add(bin, v);
}
#endif

/* x >> s, 0 for a shift by the whole width. */
ulong shr(ulong x, uint s) {
  return s >= 64 ? 0ul : x >> s;
}

/* topk_init: one work-group sets the row's state (want k, every bit open)
 * and clears the bins. */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
topk_init(__global uchar *scratch, ulong state_at, ulong bins_at, ulong want,
          uint img_bits, uint col_bits) {
  __global topk_state *st = SCRATCH(topk_state, scratch, state_at);
  __global BIN *bins = SCRATCH(BIN, scratch, bins_at);
  for (uint b = get_local_id(0); b < TOPK_BINS; b += PRISM_WG)
    bins[b] = 0;
  if (get_local_id(0) == 0) {
    topk_state s;
    s.prefix_img = s.prefix_col = 0;
    s.want = want;
    s.chosen = s.cand[0] = s.cand[1] = 0;
    s.img_left = img_bits;
    s.col_left = col_bits;
    s.source = SOURCE_ROW;
    s.write = 0;
    s.phase = PHASE_SELECT;
    *st = s;
  }
}

/*
 * topk_pass: one pass over the source of the row (cols keys of keys_in
 * from row_at). scratch holds the state at state_at, the bins at bins_at,
 * candidate buffer b at cand_at + b * cand_bytes (cap keys, then cap
 * columns at cand_cols_off), the chosen list at chosen_at (k keys, then k
 * columns at chosen_cols_off).
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
topk_pass(PRISM_BUF(const K, keys_in), ulong row_at, ulong cols, K flip,
          __global uchar *scratch, ulong state_at, ulong bins_at, ulong cand_at,
          ulong cand_bytes, ulong cand_cols_off, ulong cap, ulong chosen_at,
          ulong chosen_cols_off, ulong k) {
  PRISM_BUF_AT(const K, keys_in);
  __local uint hist[TOPK_BINS];
  __local uint share[2];  /* the tile's appends: chosen, candidates */
  __local ulong start[2]; /* where the group's share starts in each list */
  __global topk_state *st = SCRATCH(topk_state, scratch, state_at);
  const topk_state s = *st;
  if (s.phase == PHASE_DONE)
    return;
  const uint lid = get_local_id(0);
  const uint emit = s.phase == PHASE_EMIT;
  const ulong count = s.source == SOURCE_ROW ? cols : s.cand[s.source - 1];
  const uint keep = s.write && !emit;
  /* A source read while keep is off stays the source, so its keys below
   * the prefix are taken once: in the pass that keeps candidates (and
   * leaves it) or in the emit pass. */
  const uint out_below = keep || emit;
  const uint dest = cand_dest(s.source);
  /* The next digit: the image's bits while some are open, then the
   * column's. */
  const uint on_img = s.img_left > 0;
  const uint open = on_img ? s.img_left : s.col_left;
  const uint width = min(open, TOPK_DIGIT_BITS);
  const uint shift = open - width;
  const ulong dmask = (1ul << width) - 1ul;

  const ulong src_at = cand_at + (s.source - 1) * cand_bytes;
  __global const K *src_keys = s.source == SOURCE_ROW
                                   ? keys_in + row_at
                                   : SCRATCH(const K, scratch, src_at);
  __global const C *src_cols =
      SCRATCH(const C, scratch, src_at + cand_cols_off);
  __global K *dst_keys = SCRATCH(K, scratch, cand_at + dest * cand_bytes);
  __global C *dst_cols =
      SCRATCH(C, scratch, cand_at + dest * cand_bytes + cand_cols_off);
  __global K *chosen_keys = SCRATCH(K, scratch, chosen_at);
  __global C *chosen_cols = SCRATCH(C, scratch, chosen_at + chosen_cols_off);

  if (!emit)
    for (uint b = lid; b < TOPK_BINS; b += PRISM_WG)
      hist[b] = 0;
  if (lid == 0)
    share[0] = share[1] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);

  /* This group's tiles: every groups-th, or a contiguous range. */
  const ulong group = get_group_id(0), groups = get_num_groups(0);
#if PRISM_TOPK_CHUNKED
  const ulong tiles = (count + PASS_TILE - 1) / PASS_TILE;
  const ulong per = (tiles + groups - 1) / groups;
  const ulong first = group * per * PASS_TILE;
  const ulong end = min(first + per * PASS_TILE, count);
  const ulong step = PASS_TILE;
#else
  const ulong first = group * PASS_TILE, end = count;
  const ulong step = groups * PASS_TILE;
#endif
  for (ulong base = first; base < end; base += step) {
    K key[PRISM_ITEMS];
    C col[PRISM_ITEMS];
    uint chosen[PRISM_ITEMS], kept[PRISM_ITEMS];
    uint n_chosen = 0, n_kept = 0;
    for (uint i = 0; i < PRISM_ITEMS; i++) {
      const ulong at = base + i * PRISM_WG + lid;
      const uint in = at < end;
      key[i] = in ? src_keys[at] : (K)0;
      col[i] = in ? (s.source == SOURCE_ROW ? (C)at : src_cols[at]) : (C)0;
      const ulong img = (ulong)topk_image(key[i], flip);
      const ulong ti = shr(img, s.img_left), tc = shr(col[i], s.col_left);
      const uint below = in && (ti < s.prefix_img ||
                                (ti == s.prefix_img && tc < s.prefix_col));
      const uint equal = in && ti == s.prefix_img && tc == s.prefix_col;
      chosen[i] = (below && out_below) || (equal && emit);
      kept[i] = equal && keep;
      n_chosen += chosen[i];
      n_kept += kept[i];
      if (equal && !emit) {
        const ulong field = on_img ? img : (ulong)col[i];
        const uint digit = (uint)((field >> shift) & dmask);
        HIST_INC(&hist[digit]);
      }
    }
    /* The tile's appends: each work-item's place in the group's share
     * from local atomics, the share's from one global atomic a list. */
    const uint at_chosen = n_chosen ? atomic_add(&share[0], n_chosen) : 0u;
    const uint at_kept = n_kept ? atomic_add(&share[1], n_kept) : 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
      start[0] = share[0] ? count_add(&st->chosen, share[0]) : 0;
      start[1] = share[1] ? count_add(&st->cand[dest], share[1]) : 0;
      share[0] = share[1] = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    ulong to_chosen = start[0] + at_chosen, to_kept = start[1] + at_kept;
    for (uint i = 0; i < PRISM_ITEMS; i++) {
      if (chosen[i]) {
        const ulong at = to_chosen++;
        if (at < k) {
          chosen_keys[at] = key[i];
          chosen_cols[at] = col[i];
        }
      } else if (kept[i]) {
        const ulong at = to_kept++;
        if (at < cap) {
          dst_keys[at] = key[i];
          dst_cols[at] = col[i];
        }
      }
    }
  }
  if (emit)
    return;
  barrier(CLK_LOCAL_MEM_FENCE);
  __global BIN *bins = SCRATCH(BIN, scratch, bins_at);
  for (uint b = lid; b < TOPK_BINS; b += PRISM_WG)
    if (hist[b])
      bin_add(&bins[b], hist[b]);
}

/* Work-group exclusive scan of ulong counts. */
PRISM_DEFINE_WG_SCAN(topk_scan_ulong, ulong, TOPK_ADD, 0ul)

/*
 * topk_choose: one work-group scans the bins at bins_at (clearing them),
 * extends the prefix of the state at state_at by the digit where the
 * running count reaches want, and enters the emit phase when that whole
 * bucket is wanted; after an emit pass, marks the row done. cap: a
 * candidate buffer's capacity.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
topk_choose(__global uchar *scratch, ulong state_at, ulong bins_at, ulong cap) {
  __local ulong scan_buf[2 * PRISM_WG];
  __global topk_state *st = SCRATCH(topk_state, scratch, state_at);
  __global BIN *bins = SCRATCH(BIN, scratch, bins_at);
  const uint lid = get_local_id(0);
  const topk_state s = *st;
  /* Every work-item has read the state before one changes it. */
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (s.phase != PHASE_SELECT) {
    if (lid == 0)
      st->phase = PHASE_DONE;
    return;
  }
  ulong sum = 0;
  for (uint i = 0; i < BINS_PER; i++) {
    const uint b = lid * BINS_PER + i;
    sum += b < TOPK_BINS ? (ulong)bins[b] : 0ul;
  }
  ulong total;
  ulong before = topk_scan_ulong(sum, scan_buf, &total);
  for (uint i = 0; i < BINS_PER; i++) {
    const uint b = lid * BINS_PER + i;
    if (b >= TOPK_BINS)
      break;
    const ulong c = bins[b];
    bins[b] = 0;
    if (before < s.want && s.want <= before + c) {
      topk_state n = s;
      n.want = s.want - before;
      const uint on_img = s.img_left > 0;
      const uint open = on_img ? s.img_left : s.col_left;
      const uint width = min(open, TOPK_DIGIT_BITS);
      if (on_img) {
        n.prefix_img = (s.prefix_img << width) | b;
        n.img_left = open - width;
      } else {
        n.prefix_col = (s.prefix_col << width) | b;
        n.col_left = open - width;
      }
      if (s.write)
        n.source = cand_dest(s.source) + 1;
      n.write = c <= cap;
      n.cand[cand_dest(n.source)] = 0;
      n.phase = c == n.want ? PHASE_EMIT : PHASE_SELECT;
      *st = n;
    }
    before += c;
  }
}

/* topk_compose: the chosen list as composites image << 32 | column (4-byte
 * keys, 32-bit columns) at composite_at, for one radix sort; a work-item
 * an entry. */
__kernel __attribute__((reqd_work_group_size(PRISM_FINISH_WG, 1, 1))) void
topk_compose(__global uchar *scratch, ulong chosen_at, ulong chosen_cols_off,
             K flip, ulong k, ulong composite_at, ulong base) {
  const ulong r = base + get_global_id(0);
  if (r >= k)
    return;
  const K key = SCRATCH(const K, scratch, chosen_at)[r];
  const C col = SCRATCH(const C, scratch, chosen_at + chosen_cols_off)[r];
  SCRATCH(ulong, scratch, composite_at)
  [r] = (ulong)topk_image(key, flip) << 32 | (ulong)col;
}

/*
 * topk_finish: work-item base + g writes rank (or list position) r < k of
 * the row: the key and value (or the column itself) at the r-th chosen
 * column, from the chosen list (chosen_at + chosen_cols_off) or, when
 * composite, the low half of the sorted composite at composite_at; from
 * the row at row_at of the inputs to out_at of the outputs.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_FINISH_WG, 1, 1))) void
topk_finish(PRISM_BUF(const K, keys_in), PRISM_BUF(const V, values_in),
            PRISM_BUF(K, keys_out), PRISM_BUF(V, values_out), uint values_mode,
            uint want_keys, ulong row_at, ulong out_at, ulong k,
            __global const uchar *scratch, ulong chosen_cols_at, uint composite,
            ulong composite_at, ulong base) {
  PRISM_BUF_AT(const K, keys_in);
  PRISM_BUF_AT(const V, values_in);
  PRISM_BUF_AT(K, keys_out);
  PRISM_BUF_AT(V, values_out);
  const ulong r = base + get_global_id(0);
  if (r >= k)
    return;
  const ulong col =
      composite ? SCRATCH(const ulong, scratch, composite_at)[r] & 0xfffffffful
                : (ulong)SCRATCH(const C, scratch, chosen_cols_at)[r];
  if (want_keys)
    keys_out[out_at + r] = keys_in[row_at + col];
  if (values_mode == VALUES_IN)
    values_out[out_at + r] = values_in[row_at + col];
  else if (values_mode == VALUES_COLUMNS)
    values_out[out_at + r] = (V)col;
}

#endif /* PRISM_TOPK_ROWS_LOCAL */
