/* SPDX-License-Identifier: MIT */
/*
 * scan_chunks.cl: reduce-then-scan with few work-items and long contiguous
 * runs, for CPUs (PoCL) and any device where look-back is not safe.
 *
 * Work-item g owns elements [g * chunk, min(n, (g + 1) * chunk)), chunk a
 * multiple of PRISM_VEC, so its vector loads are aligned (the host builds
 * with PRISM_VEC 1 where in or out starts off a vector). Three launches:
 *   scan_reduce_chunks  the op of each chunk           (reads n)
 *   scan_partials       exclusive scan of those sums    (one work-group)
 *   scan_chunks         each chunk scanned from its prefix (reads n, writes n)
 * With a single chunk only scan_chunks runs.
 */

/* Lane shifts for the in-register scan: lane i takes lane i - k, the low
 * lanes take f. Spelled as vector literals, which compilers turn into
 * shuffles. */
#if PRISM_VEC == 1
#define SHIFT_1(v, f) (f)
#define LAST_LANE(v) (v)
#elif PRISM_VEC == 2
#define SHIFT_1(v, f) ((VT)((f), (v).s0))
#define LAST_LANE(v) ((v).s1)
#elif PRISM_VEC == 4
#define SHIFT_1(v, f) ((VT)((f), (v).s012))
#define SHIFT_2(v, f) ((VT)((f), (f), (v).s01))
#define LAST_LANE(v) ((v).s3)
#elif PRISM_VEC == 8
#define SHIFT_1(v, f) ((VT)((f), (v).s0123, (v).s456))
#define SHIFT_2(v, f) ((VT)((f), (f), (v).s0123, (v).s45))
#define SHIFT_4(v, f) ((VT)((f), (f), (f), (f), (v).s0123))
#define LAST_LANE(v) ((v).s7)
#elif PRISM_VEC == 16
#define SHIFT_1(v, f) ((VT)((f), (v).s01234567, (v).s89ab, (v).scde))
#define SHIFT_2(v, f) ((VT)((f), (f), (v).s01234567, (v).s89ab, (v).scd))
#define SHIFT_4(v, f) ((VT)((f), (f), (f), (f), (v).s01234567, (v).s89ab))
#define SHIFT_8(v, f)                                                          \
  ((VT)((f), (f), (f), (f), (f), (f), (f), (f), (v).s01234567))
#define LAST_LANE(v) ((v).sf)
#else
#error "scan_chunks.cl: PRISM_VEC must be 1, 2, 4, 8 or 16"
#endif

/* Inclusive scan across the lanes of *v, in place (log2(PRISM_VEC)
 * shift-op steps). v by address: no function takes a vector by value (see
 * common.cl). */
void scan_lanes(VT *v) {
  VT x = *v;
#if PRISM_VEC >= 2
  const VT by_1 = SHIFT_1(x, IDENTITY);
  x = opv(by_1, x);
#endif
#if PRISM_VEC >= 4
  const VT by_2 = SHIFT_2(x, IDENTITY);
  x = opv(by_2, x);
#endif
#if PRISM_VEC >= 8
  const VT by_4 = SHIFT_4(x, IDENTITY);
  x = opv(by_4, x);
#endif
#if PRISM_VEC >= 16
  const VT by_8 = SHIFT_8(x, IDENTITY);
  x = opv(by_8, x);
#endif
  *v = x;
}

/*
 * scan_reduce_chunks: work-item g writes sums[g], the op of its chunk,
 * folded in a private vector accumulator. Traffic: n read, chunks written.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
scan_reduce_chunks(PRISM_BUF(const T, in), ulong n, ulong chunk,
                   __global uchar *scratch, ulong sums_offset) {
  PRISM_BUF_AT(const T, in);
  const ulong g = get_global_id(0);
  const ulong first = min(g * chunk, n);
  const ulong end = min(first + chunk, n);
  const ulong vec_end = first + (end - first) / PRISM_VEC * PRISM_VEC;
  T x = fold_vectors(in, first / PRISM_VEC, vec_end / PRISM_VEC, 1);
  x = fold_elements(in, vec_end, end, x);
  SCRATCH(T, scratch, sums_offset)[g] = x;
}

/*
 * scan_partials: one work-group turns the count chunk sums into exclusive
 * prefixes, in place: each work-item folds a contiguous run, the runs meet
 * in a work-group scan, each work-item rewrites its run.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
scan_partials(__global uchar *scratch, ulong sums_offset, uint count) {
  __local T buf[2 * PRISM_WG];
  __global T *sums = SCRATCH(T, scratch, sums_offset);
  const uint per = (count + PRISM_WG - 1) / PRISM_WG;
  const uint first = min((uint)get_local_id(0) * per, count);
  const uint end = min(first + per, count);
  T x = IDENTITY;
  for (uint i = first; i < end; i++)
    x = op(x, sums[i]);
  T total;
  T carry = wg_scan_exclusive(x, buf, &total);
  for (uint i = first; i < end; i++) {
    const T v = sums[i];
    sums[i] = carry;
    carry = op(carry, v);
  }
}

/*
 * scan_chunks: work-item g scans its chunk serially from its prefix
 * (sums[g] from scan_partials, or the identity when has_prefix is 0),
 * PRISM_VEC elements per step: an in-register scan, the carry folded in
 * from the left, the last lane carried on. Each work-item reads and writes
 * only its own chunk, so in == out is safe. Traffic: n read, n written.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
scan_chunks(PRISM_BUF(const T, in), PRISM_BUF(T, out), ulong n, ulong chunk,
            uint exclusive, __global uchar *scratch, ulong sums_offset,
            uint has_prefix) {
  PRISM_BUF_AT(const T, in);
  PRISM_BUF_AT(T, out);
  const ulong g = get_global_id(0);
  const ulong first = min(g * chunk, n);
  const ulong end = min(first + chunk, n);
  const ulong vec_end = first + (end - first) / PRISM_VEC * PRISM_VEC;
  T carry = has_prefix ? SCRATCH(T, scratch, sums_offset)[g] : IDENTITY;
  for (ulong v = first / PRISM_VEC; v < vec_end / PRISM_VEC; v++) {
    VT lanes = LOAD_VEC(in, v);
    scan_lanes(&lanes);
    const VT carried = (VT)(carry);
    const VT inclusive = opv(carried, lanes);
    STORE_VEC(out, v, exclusive ? SHIFT_1(inclusive, carry) : inclusive);
    carry = LAST_LANE(inclusive);
  }
  for (ulong i = vec_end; i < end; i++) {
    const T next = op(carry, in[i]);
    out[i] = exclusive ? carry : next;
    carry = next;
  }
}
