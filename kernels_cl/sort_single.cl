/* SPDX-License-Identifier: MIT */
/*
 * sort_single.cl: the whole sort by one work-group in one launch, for
 * small n (a thousand keys cost one launch, not four per pass):
 * sort_single_block for a whole array, segsort_global for each segment of
 * a segmented sort's BLOCK class (a work-group a segment), both running
 * single_sort.
 *
 * Pass p reads src (keys_in, or the previous pass's output) and writes
 * keys_out when passes - 1 - p is even, else alt: the host arranges that
 * the first pass never writes what it reads (in-place sorts with an odd
 * number of passes start from a copy in alt). Within the work-group the
 * passes meet through global memory after a global barrier.
 */

/* The buffer pass p writes: the last pass lands in out. */
#define PASS_DST(p, passes, out, alt)                                          \
  ((((passes)-1u - (p)) & 1u) ? (alt) : (out))

#if PRISM_WG == 1
/*
 * One work-item (CPUs): a serial counting sort per pass, trivially stable.
 * counts holds RADIX. Traffic per pass: n keys read twice, written once.
 */
void single_pass(__global const K *src, __global K *dst, __global const V *vsrc,
                 __global V *vdst, ulong n, uint shift, uint bits, K flip,
                 __local ulong *counts) {
  for (uint d = 0; d < RADIX; d++)
    counts[d] = 0;
  for (ulong i = 0; i < n; i++)
    counts[key_digit(src[i], shift, bits, flip)]++;
  ulong sum = 0;
  for (uint d = 0; d < RADIX; d++) {
    const ulong c = counts[d];
    counts[d] = sum;
    sum += c;
  }
  for (ulong i = 0; i < n; i++) {
    const K key = src[i];
    const ulong pos = counts[key_digit(key, shift, bits, flip)]++;
    dst[pos] = key;
#if PRISM_VALUE_BYTES
    vdst[pos] = vsrc[i];
#endif
  }
}
#else
/*
 * A work-group: a local histogram of the pass's digits (local atomics: the
 * counts do not depend on order), their scan, then tile after tile in input
 * order, each ranked stably in local memory and scattered from the running
 * digit offsets. Traffic per pass: n keys read twice, written once.
 */
void single_pass(__global const K *src, __global K *dst, __global const V *vsrc,
                 __global V *vdst, ulong n, uint shift, uint bits, K flip,
                 __local ulong *to, tile_refs t, __local uint *start,
                 __local uint *end) {
  const uint lid = get_local_id(0);
  __local uint *hist = start; /* free until the first tile */
  for (uint d = lid; d < RADIX; d += PRISM_WG)
    hist[d] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (ulong i = lid; i < n; i += PRISM_WG)
    atomic_inc(&hist[key_digit(src[i], shift, bits, flip)]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    ulong sum = 0;
    for (uint d = 0; d < RADIX; d++) {
      to[d] = sum;
      sum += hist[d];
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (ulong base = 0; base < n; base += TILE) {
    const uint count = (uint)min((ulong)TILE, n - base);
    tile_load_keys(src, base, count, t);
    tile_rank(t, count, shift, bits, flip);
    tile_digit_bounds(t, count, shift, bits, flip, start, end);
    for (uint d = lid; d < RADIX; d += PRISM_WG)
      to[d] -= start[d];
    barrier(CLK_LOCAL_MEM_FENCE);
    tile_scatter(t, count, shift, bits, flip, to, dst, vsrc, vdst, base);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = lid; d < RADIX; d += PRISM_WG)
      to[d] += end[d];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
#endif

/*
 * The work-group's local memory for single_sort. OpenCL C 1.2 declares
 * __local variables only at kernel scope: each kernel declares them with
 * SINGLE_LOCALS(r), which also makes r, the refs single_sort takes.
 */
typedef struct single_refs {
  __local ulong *to; /* RADIX running digit destinations */
#if PRISM_WG > 1
  tile_refs t;
  __local uint *start, *end; /* RADIX digit bounds of a tile */
#endif
} single_refs;

#if PRISM_WG > 1
#define SINGLE_LOCALS(r)                                                       \
  __local ulong r##_to[RADIX];                                                 \
  __local K r##_keys[TILE];                                                    \
  __local ushort r##_index[TILE];                                              \
  __local ushort r##_counters[RANK_RADIX * PRISM_WG];                          \
  __local ulong r##_scan_buf[2 * PRISM_WG];                                    \
  __local uint r##_start[RADIX], r##_end[RADIX];                               \
  const single_refs r = {r##_to,                                               \
                         {r##_keys, r##_index, r##_counters, r##_scan_buf},    \
                         r##_start,                                            \
                         r##_end}
#else
#define SINGLE_LOCALS(r)                                                       \
  __local ulong r##_to[RADIX];                                                 \
  const single_refs r = {r##_to}
#endif

/*
 * Every pass over the n keys at keys_in (values at values_in), by this
 * work-group alone: bits [begin_bit, end_bit) in steps of
 * PRISM_RADIX_BITS, pass p writing PASS_DST's buffer, so the last lands in
 * keys_out (values_out). keys_alt and values_alt are as long as the keys.
 * The passes meet through global memory after a barrier.
 */
void single_sort(__global const K *keys_in, __global K *keys_out,
                 __global K *keys_alt, __global const V *values_in,
                 __global V *values_out, __global V *values_alt, ulong n,
                 uint begin_bit, uint end_bit, K flip, single_refs r) {
  const uint passes =
      (end_bit - begin_bit + PRISM_RADIX_BITS - 1) / PRISM_RADIX_BITS;
  __global const K *src = keys_in;
  __global const V *vsrc = values_in;
  for (uint p = 0; p < passes; p++) {
    const uint shift = begin_bit + p * PRISM_RADIX_BITS;
    const uint bits = min((uint)PRISM_RADIX_BITS, end_bit - shift);
    __global K *dst = PASS_DST(p, passes, keys_out, keys_alt);
    __global V *vdst = PASS_DST(p, passes, values_out, values_alt);
#if PRISM_WG == 1
    single_pass(src, dst, vsrc, vdst, n, shift, bits, flip, r.to);
#else
    single_pass(src, dst, vsrc, vdst, n, shift, bits, flip, r.to, r.t, r.start,
                r.end);
#endif
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    src = dst;
    vsrc = vdst;
  }
}

/*
 * sort_single_block: one work-group runs every pass over all n keys; it
 * owns the whole output. The alternates are the scratch's: keys_alt, and
 * values_alt from values_alt_at elements on.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
sort_single_block(PRISM_BUF(const K, keys_in), PRISM_BUF(K, keys_out),
                  __global K *keys_alt, PRISM_BUF(const V, values_in),
                  PRISM_BUF(V, values_out), __global V *values_alt,
                  ulong values_alt_at, ulong n, uint begin_bit, uint end_bit,
                  K flip) {
  PRISM_BUF_AT_ANY(const K, keys_in);
  PRISM_BUF_AT_ANY(K, keys_out);
  PRISM_BUF_AT_ANY(const V, values_in);
  PRISM_BUF_AT_ANY(V, values_out);
  SINGLE_LOCALS(r);
  single_sort(keys_in, keys_out, keys_alt, values_in, values_out,
              values_alt + values_alt_at, n, begin_bit, end_bit, flip, r);
}

/*
 * segsort_global (prism_segmented_sort's BLOCK class, named as the CUDA
 * kernel that sorts a segment with one block over global memory;
 * backend_opencl/segmented_sort.c; kernels_cl/segmented_sort.cl holds the
 * design): work-
 * group g sorts the segment spans[base + g] = (start, end), a whole
 * single_sort over [start, end) of the buffers, which it owns there. The
 * alternates are as long as the whole array, the segment at its own
 * positions in them. In place with an odd number of passes, the first
 * pass would write what it reads: the work-group copies the segment into
 * the alternate first and sorts from there. Traffic per pass as
 * single_pass's, over the segment's keys (and values).
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
segsort_global(PRISM_BUF(const K, keys_in), PRISM_BUF(K, keys_out),
               PRISM_BUF(K, keys_alt), PRISM_BUF(const V, values_in),
               PRISM_BUF(V, values_out), PRISM_BUF(V, values_alt),
               PRISM_BUF(const ulong, spans), ulong base, uint begin_bit,
               uint end_bit, K flip, uint keys_in_place, uint values_in_place) {
  PRISM_BUF_AT_ANY(const K, keys_in);
  PRISM_BUF_AT_ANY(K, keys_out);
  PRISM_BUF_AT_ANY(K, keys_alt);
  PRISM_BUF_AT_ANY(const V, values_in);
  PRISM_BUF_AT_ANY(V, values_out);
  PRISM_BUF_AT_ANY(V, values_alt);
  PRISM_BUF_AT_ANY(const ulong, spans);
  SINGLE_LOCALS(r);
  const ulong g = base + get_group_id(0);
  const ulong start = spans[2 * g], n = spans[2 * g + 1] - start;
  const uint passes =
      (end_bit - begin_bit + PRISM_RADIX_BITS - 1) / PRISM_RADIX_BITS;
  __global const K *src = keys_in + start;
  __global const V *vsrc = values_in + start;
  if (passes & 1u) {
    for (ulong i = get_local_id(0); i < n; i += PRISM_WG) {
      if (keys_in_place)
        keys_alt[start + i] = src[i];
#if PRISM_VALUE_BYTES
      if (values_in_place)
        values_alt[start + i] = vsrc[i];
#endif
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (keys_in_place)
      src = keys_alt + start;
#if PRISM_VALUE_BYTES
    if (values_in_place)
      vsrc = values_alt + start;
#endif
  }
  single_sort(src, keys_out + start, keys_alt + start, vsrc, values_out + start,
              values_alt + start, n, begin_bit, end_bit, flip, r);
}
