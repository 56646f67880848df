/* SPDX-License-Identifier: MIT */
/*
 * segmented_chunks.cl: the CPU strategy of the segmented scans and reduce
 * (segmented.cl, built ahead of this file, holds the design): contiguous
 * chunks, one per work-item, reduce-then-scan, no look-back. Options:
 * common.cl's.
 */

/* ---- CPU: chunked scans ------------------------------------------------- */

/*
 * seg_scan_reduce_chunks: work-item g writes the pair of its chunk
 * [g * chunk, (g + 1) * chunk) to kinds[g], values[g]. Traffic: n elements
 * and their marks read, chunks written.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
seg_scan_reduce_chunks(PRISM_BUF(const T, in), ulong n, ulong chunk,
                       uint by_offsets, PRISM_BUF(const uchar, flags),
                       uint flag_bytes, __global uchar *scratch,
                       ulong starts_offset, ulong ends_offset,
                       ulong kinds_offset, ulong values_offset) {
  PRISM_BUF_AT(const T, in);
  PRISM_BUF_AT(const uchar, flags);
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
seg_scan_chunks(PRISM_BUF(const T, in), PRISM_BUF(T, out), ulong n, ulong chunk,
                uint exclusive, uint by_offsets, PRISM_BUF(const uchar, flags),
                uint flag_bytes, __global uchar *scratch, ulong starts_offset,
                ulong ends_offset, ulong kinds_offset, ulong values_offset,
                uint has_prefix) {
  PRISM_BUF_AT(const T, in);
  PRISM_BUF_AT(T, out);
  PRISM_BUF_AT(const uchar, flags);
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
seg_reduce_chunks(PRISM_BUF(const T, in), ulong n,
                  PRISM_BUF(const uchar, offsets), uint offset_code,
                  ulong num_segments, PRISM_BUF(T, out), ulong chunk,
                  __global uchar *scratch, ulong kinds_offset,
                  ulong values_offset, ulong first_bound_offset,
                  ulong first_value_offset, ulong irregular_offset,
                  ulong slots_offset, uint checked) {
  PRISM_BUF_AT(const T, in);
  PRISM_BUF_AT(const uchar, offsets);
  PRISM_BUF_AT(T, out);
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
seg_reduce_carries(PRISM_BUF(T, out), uint count, __global uchar *scratch,
                   ulong values_offset, ulong first_bound_offset,
                   ulong first_value_offset) {
  PRISM_BUF_AT(T, out);
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

/* ---- CPU: irregular offsets -------------------------------------------- */

/*
 * seg_reduce_segments: every segment on its own, for offsets the merge
 * path cannot take (launched after the merge kernels; returns at once
 * unless they raised irregular): a work-item per contiguous run of
 * per_item segments, serial. Traffic: each good segment's elements read
 * once, out written once.
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
}
