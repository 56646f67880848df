/* SPDX-License-Identifier: MIT */
/*
 * histogram.cl: samples counted per bin (prism_histogram_even,
 * prism_histogram_range), each sample's bin computed exactly as core mapped
 * it (core/backend.h, prism__histogram_args): the mapping, and the GPU
 * policy's strategy (the CUDA backend's design, same names):
 *   histogram_bytes   1-byte samples: per-work-group local counters per
 *                     byte value, mapped to bins once at the end
 *   histogram_blocks  wider samples: per-work-group histograms of one bin
 *                     range in local memory, merged with global atomics
 *   histogram_atomic  too many bins for that: global atomics into counts
 * The CPU policy's strategy is in histogram_chunks.cl, built with this
 * file ahead of it.
 *
 * The host builds with the sample type as T (PRISM_TYPE_*, never remapped
 * to unsigned) and:
 *   PRISM_COUNTER_BYTES  4 or 8: u32 or u64 counters
 *   PRISM_WG             work-items per work-group
 *   PRISM_VEC            samples per 16-byte vector (GPU tiles), or 1: the
 *                        scalar build, for samples that do not start on
 *                        16 bytes (the host checks the view's offset)
 *   PRISM_ITEMS          samples per work-item and tile (GPU tiles)
 *   PRISM_COPIES         tables per chunk (CPU policy)
 * How samples become bins (the mode, BIN_SHIFT .. BIN_SEARCH below) is a
 * kernel argument, so one program serves every mapping of a type: the GPU
 * kernels branch on it once per tile, the CPU loop is written once per
 * mode (count_chunk, inlined with a constant mode).
 */

/* (x - lower) * scale is computed as written: rounded twice. */
#pragma OPENCL FP_CONTRACT OFF

#define BIN_SHIFT 0     /* (x - lower) >> shift, counted when <= span */
#define BIN_SHIFT_ALL 1 /* the same, the bounds covering the type */
#define BIN_DIVIDE 2    /* (x - lower) / width, counted when <= span */
#define BIN_SCALE 3     /* floor((x - lower) * bins / (span + 1)), exactly */
#define BIN_FLOAT 4     /* (x - lower) * scale, truncated, capped */
#define BIN_SEARCH 5    /* binary search over the edges */
#define BIN_RAW 6       /* 1-byte samples counted by value (CPU tables) */

#ifndef PRISM_COUNTER_BYTES
#define PRISM_COUNTER_BYTES 4
#endif
#ifndef PRISM_ITEMS
#define PRISM_ITEMS PRISM_VEC
#endif
#ifndef PRISM_COPIES
#define PRISM_COPIES 1
#endif

/* A sample that is not counted. Above every bin: bins <= 2^31. */
#define NO_BIN 0xffffffffu

/* Integer samples' differences are taken in U. */
#if T_BYTES == 8
#define U ulong
#else
#define U uint
#endif

/* Work-items sharing one replica of a work-group's counters: a warp. */
#define REPLICA_SPAN 32

/* Store a vector of PRISM_VEC samples to a private array. */
#if PRISM_VEC == 1
#define VSTORE(x, offset, p) ((p)[offset] = (x))
#else
#define VSTORE PRISM_CAT(vstore, PRISM_VEC)
#endif

/* 16 bytes of 1-byte samples as a uint4, vector v of p: through a cast
 * pointer when the samples start on 16 bytes (PRISM_VEC 16), else with
 * vload16, which needs no alignment beyond a byte's (the scalar build). */
#if PRISM_VEC == 16
#define LOAD_BYTES16(p, v) (((__global const uint4 *)(p))[v])
#else
#define LOAD_BYTES16(p, v) as_uint4(vload16(v, p))
#endif

/* The mapping; kernels take it as arguments (MAP_PARAMS) and gather it
 * here. */
typedef struct bin_map {
  T lower, upper, scale;
  U span, width;
  ulong range; /* BIN_SCALE: span + 1, 0 standing for 2^64 */
  uint shift, bins;
  int mode;
} bin_map;

#define MAP_PARAMS                                                             \
  int mode, T lower, T upper, T scale, U span, U width, ulong range,           \
      uint shift, uint bins
#define MAP_INIT                                                               \
  { lower, upper, scale, span, width, range, shift, bins, mode }

#if T_BYTES == 8 && !T_IS_FLOAT
/* floor(d * bins / range) for 64-bit d, exactly: the product takes 96 bits.
 * The quotient is below bins <= 2^31, so a restoring division over the
 * product's low 32 bits finds it, the remainder starting as the product
 * shifted right by 32 (below range, since the quotient is). */
uint scale_bin64(ulong d, uint bins, ulong range) {
  const ulong lo = d * bins, hi = mul_hi(d, (ulong)bins);
  if (range == 0) /* span + 1 = 2^64 */
    return (uint)hi;
  ulong r = (hi << 32) | (lo >> 32);
  uint q = 0;
  for (int i = 31; i >= 0; --i) {
    const ulong carry = r >> 63;
    r = (r << 1) | ((lo >> i) & 1);
    q <<= 1;
    if (carry || r >= range) {
      r -= range;
      q |= 1;
    }
  }
  return q;
}
#endif

/* The bin of x, or NO_BIN, by a computed mode (every mode but
 * BIN_SEARCH). Callers pass a constant mode where it matters, so that
 * inlining leaves only that mode's arithmetic. */
uint bin_as(int mode, const bin_map *m, T x) {
#if T_IS_FLOAT
  (void)mode;
  if (!(m->lower <= x && x < m->upper)) /* NaN fails too */
    return NO_BIN;
  return min((uint)((x - m->lower) * m->scale), m->bins - 1);
#else
  const U d = (U)x - (U)m->lower;
  if (mode == BIN_SHIFT_ALL)
    return (uint)(d >> m->shift);
  if (d > m->span)
    return NO_BIN;
  if (mode == BIN_SHIFT)
    return (uint)(d >> m->shift);
  if (mode == BIN_DIVIDE)
    return (uint)(d / m->width);
#if T_BYTES == 8
  return scale_bin64(d, m->bins, m->range);
#else
  return (uint)((ulong)d * m->bins / m->range);
#endif
#endif
}

/* The bin of x among count bins with edges e[0..count]: the last edge at
 * or below x, by a binary search of a fixed number of steps. One copy per
 * address space of the edges. */
#define PRISM_DEFINE_SEARCH(NAME, SPACE)                                       \
  uint NAME(SPACE const T *e, uint count, T x) {                               \
    if (!(e[0] <= x && x < e[count])) /* NaN fails too */                      \
      return NO_BIN;                                                           \
    uint lo = 0, len = count; /* e[lo] <= x < e[lo + len] */                   \
    while (len > 1) {                                                          \
      const uint step = len >> 1;                                              \
      lo = e[lo + step] <= x ? lo + step : lo;                                 \
      len -= step;                                                             \
    }                                                                          \
    return lo;                                                                 \
  }
PRISM_DEFINE_SEARCH(search_local, __local)
PRISM_DEFINE_SEARCH(search_global, __global)

/* Add c to counter bin of counts (PRISM_COUNTER_BYTES wide) atomically.
 * u64 counters take two 32-bit atomics, so no 64-bit atomics are needed:
 * the low word's atomic_add returns what it held, and when the add wraps
 * it, the high word gains the carry (c < 2^32, so one carry at most). */
void add_count(__global uint *counts, uint bin, uint c) {
#if PRISM_COUNTER_BYTES == 8
#if defined(__ENDIAN_LITTLE__)
  __global uint *low = counts + 2 * (ulong)bin, *high = low + 1;
#else
  __global uint *high = counts + 2 * (ulong)bin, *low = high + 1;
#endif
  const uint old = atomic_add(low, c);
  if (old + c < old)
    atomic_inc(high);
#else
  atomic_add(counts + bin, c);
#endif
}

/* One add per run of equal bins, to the work-group's local replica
 * (to_local) or to counts. */
void add_run(int to_local, __local uint *hist, __global uint *counts, uint bin,
             uint c) {
  if (bin == NO_BIN)
    return;
  if (to_local)
    atomic_add(hist + bin, c);
  else
    add_count(counts, bin, c);
}

/* count_items: adds PRISM_ITEMS bins (NO_BIN: nothing), each run of equal
 * bins with one add_run; the run in progress (*run, *len) carries over to
 * the next call. */
void count_items(const uint *bin, uint *run, uint *len, int to_local,
                 __local uint *hist, __global uint *counts) {
  for (int j = 0; j < PRISM_ITEMS; j++) {
    if (bin[j] == *run) {
      ++*len;
    } else {
      add_run(to_local, hist, counts, *run, *len);
      *run = bin[j];
      *len = 1;
    }
  }
}

/*
 * item_bins: the bins of a work-item's PRISM_ITEMS samples, relative to
 * the range [first, first + count), NO_BIN where not counted here; one
 * branch on the mode for all of them. BIN_SEARCH searches the range's own
 * count + 1 edges (in local memory when to_local).
 */
void item_bins(const bin_map *m, const T *x, int to_local,
               __local const T *local_edges, __global const T *edges,
               uint first, uint count, uint *bin) {
  if (m->mode == BIN_SEARCH) {
    for (int j = 0; j < PRISM_ITEMS; j++)
      bin[j] = to_local ? search_local(local_edges, count, x[j])
                        : search_global(edges, count, x[j]);
    return;
  }
#if T_IS_FLOAT
  for (int j = 0; j < PRISM_ITEMS; j++)
    bin[j] = bin_as(BIN_FLOAT, m, x[j]);
#else
  switch (m->mode) {
  case BIN_SHIFT_ALL:
    for (int j = 0; j < PRISM_ITEMS; j++)
      bin[j] = bin_as(BIN_SHIFT_ALL, m, x[j]);
    break;
  case BIN_SHIFT:
    for (int j = 0; j < PRISM_ITEMS; j++)
      bin[j] = bin_as(BIN_SHIFT, m, x[j]);
    break;
  case BIN_DIVIDE:
    for (int j = 0; j < PRISM_ITEMS; j++)
      bin[j] = bin_as(BIN_DIVIDE, m, x[j]);
    break;
  default:
    for (int j = 0; j < PRISM_ITEMS; j++)
      bin[j] = bin_as(BIN_SCALE, m, x[j]);
    break;
  }
#endif
  for (int j = 0; j < PRISM_ITEMS; j++) {
    const uint rel = bin[j] - first; /* NO_BIN - first >= count */
    bin[j] = rel < count ? rel : NO_BIN;
  }
}

/*
 * count_tiles: the part of the samples a work-group owns. Tiles of
 * PRISM_WG * PRISM_ITEMS samples; group slice of slices takes tiles slice,
 * slice + slices, ... Each work-item loads its PRISM_ITEMS samples of a
 * tile as 16-byte vectors (vector k of work-item t is the tile's vector
 * k * PRISM_WG + t: coalesced) before counting any, then adds each run of
 * equal bins once. The last, partial tile is loaded element by element by
 * the slice whose turn it is.
 */
void count_tiles(__global const T *samples, ulong n, const bin_map *m,
                 int to_local, __local uint *hist, __local const T *local_edges,
                 __global uint *counts, __global const T *edges, uint first,
                 uint count, ulong slice, ulong slices) {
#define VECS (PRISM_ITEMS / PRISM_VEC)
  const ulong tile_items = (ulong)PRISM_WG * PRISM_ITEMS;
  const ulong full_tiles = n / tile_items;
  const uint lid = get_local_id(0);
  uint run = NO_BIN, len = 0;
  T x[PRISM_ITEMS];
  uint bin[PRISM_ITEMS];

  for (ulong tile = slice; tile < full_tiles; tile += slices) {
    const ulong v0 = tile * (PRISM_WG * VECS) + lid;
    for (int k = 0; k < VECS; k++)
      VSTORE(LOAD_VEC(samples, v0 + (ulong)k * PRISM_WG), 0, x + k * PRISM_VEC);
    item_bins(m, x, to_local, local_edges, edges, first, count, bin);
    count_items(bin, &run, &len, to_local, hist, counts);
  }

  if (full_tiles * tile_items < n && full_tiles % slices == slice) {
    const ulong v0 = full_tiles * (PRISM_WG * VECS) + lid;
    ulong at[PRISM_ITEMS];
    for (int j = 0; j < PRISM_ITEMS; j++) {
      at[j] =
          (v0 + (ulong)(j / PRISM_VEC) * PRISM_WG) * PRISM_VEC + j % PRISM_VEC;
      x[j] = at[j] < n ? samples[at[j]] : (T)0;
    }
    item_bins(m, x, to_local, local_edges, edges, first, count, bin);
    for (int j = 0; j < PRISM_ITEMS; j++)
      bin[j] = at[j] < n ? bin[j] : NO_BIN;
    count_items(bin, &run, &len, to_local, hist, counts);
  }
  add_run(to_local, hist, counts, run, len);
#undef VECS
}

/*
 * histogram_blocks: ownership: work-group g owns bin range g % ranges
 * (bins [first, first + count), count <= range_bins) and input slice
 * g / ranges (its tiles, count_tiles); each warp's worth of work-items
 * (REPLICA_SPAN) counts into local replica (lid / REPLICA_SPAN) % replicas.
 * Partials meet: local atomics within the group (32-bit: the host keeps
 * each group under 2^32 samples), then one global atomic (two words for
 * u64 counters, add_count) per non-zero counter of the range, summed over
 * the replicas, into counts, which the host zeroed.
 * Traffic: each sample read once per range (coalesced 16-byte loads; the
 * ranges' groups of a slice are neighbours, so mostly from L2 after the
 * first); local atomics per run of equal bins; at most range_bins global
 * atomics per group.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
histogram_blocks(PRISM_BUF(const T, samples), ulong n, MAP_PARAMS,
                 __global const uchar *scratch, ulong edges_offset,
                 uint range_bins, uint ranges, uint replicas,
                 PRISM_BUF(uint, counts), __local uint *hist,
                 __local T *local_edges) {
  PRISM_BUF_AT(const T, samples);
  PRISM_BUF_AT(uint, counts);
  const bin_map m = MAP_INIT;
  const uint lid = get_local_id(0);
  const uint group = get_group_id(0);
  const uint part = group % ranges;
  const ulong slice = group / ranges, slices = get_num_groups(0) / ranges;
  const uint first = part * range_bins;
  const uint count = min(range_bins, bins - first);
  __global const T *edges = SCRATCH(const T, scratch, edges_offset);

  for (uint i = lid; i < replicas * range_bins; i += PRISM_WG)
    hist[i] = 0;
  if (mode == BIN_SEARCH)
    for (uint i = lid; i <= count; i += PRISM_WG)
      local_edges[i] = edges[first + i];
  barrier(CLK_LOCAL_MEM_FENCE);

  count_tiles(samples, n, &m, 1,
              hist + (lid / REPLICA_SPAN) % replicas * range_bins, local_edges,
              counts, edges, first, count, slice, slices);
  barrier(CLK_LOCAL_MEM_FENCE);

  for (uint b = lid; b < count; b += PRISM_WG) {
    uint sum = 0;
    for (uint r = 0; r < replicas; r++)
      sum += hist[r * range_bins + b];
    if (sum != 0)
      add_count(counts, first + b, sum);
  }
}

/*
 * histogram_atomic: ownership: work-group g owns tiles g, g + groups, ...
 * (count_tiles) and no counter. Partials meet: global atomics into counts
 * (zeroed by the host), one per run of equal bins in a work-item.
 * BIN_SEARCH searches every edge, in global memory.
 * Traffic: each sample read once (coalesced 16-byte loads); one global
 * atomic per run, as scattered as the bins.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
histogram_atomic(PRISM_BUF(const T, samples), ulong n, MAP_PARAMS,
                 __global const uchar *scratch, ulong edges_offset,
                 PRISM_BUF(uint, counts)) {
  PRISM_BUF_AT(const T, samples);
  PRISM_BUF_AT(uint, counts);
  const bin_map m = MAP_INIT;
  count_tiles(samples, n, &m, 0, 0, 0, counts,
              SCRATCH(const T, scratch, edges_offset), 0, bins, get_group_id(0),
              get_num_groups(0));
}

#if T_BYTES == 1
/* The bin of byte value x, or NO_BIN: by the mapping or the edges. */
uint value_bin(const bin_map *m, __global const T *edges, T x) {
  return m->mode == BIN_SEARCH ? search_global(edges, m->bins, x)
                               : bin_as(m->mode, m, x);
}

/* count_bytes: a work-item's 16 bytes into its replica h, a counter per
 * byte value: one atomic when they all hold one value (skewed input), else
 * one per byte. */
void count_bytes(uint4 w, __local uint *h) {
  if (w.x == w.y && w.x == w.z && w.x == w.w &&
      w.x == (w.x & 0xffu) * 0x01010101u) {
    atomic_add(h + (w.x & 0xffu), 16u);
    return;
  }
  const uint words[4] = {w.x, w.y, w.z, w.w};
  for (int k = 0; k < 4; k++)
    for (int b = 0; b < 32; b += 8)
      atomic_inc(h + ((words[k] >> b) & 0xffu));
}

/*
 * histogram_bytes: 1-byte samples, any bins and mapping. Ownership:
 * work-group g owns tiles g, g + groups, ... of PRISM_WG * PRISM_ITEMS
 * bytes and replicas x 256 local counters, one per byte value (each
 * REPLICA_SPAN work-items share replica (lid / REPLICA_SPAN) % replicas):
 * a sample's value is its counter, so counting does no bin arithmetic.
 * Partials meet at the end: work-item v < 256 sums value v over the
 * replicas, maps v to its bin and adds the sum to counts with one global
 * atomic (add_count; the host zeroed counts).
 * Traffic: each sample read once (coalesced 16-byte loads); one local
 * atomic per byte (one per 16 bytes of one value); at most 256 global
 * atomics per group.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
histogram_bytes(PRISM_BUF(const T, samples), ulong n, MAP_PARAMS,
                __global const uchar *scratch, ulong edges_offset,
                uint replicas, PRISM_BUF(uint, counts), __local uint *hist) {
  PRISM_BUF_AT(const T, samples);
  PRISM_BUF_AT(uint, counts);
  const bin_map m = MAP_INIT;
  const uint lid = get_local_id(0);
  __global const T *edges = SCRATCH(const T, scratch, edges_offset);
  for (uint i = lid; i < replicas * 256; i += PRISM_WG)
    hist[i] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  __local uint *mine = hist + (lid / REPLICA_SPAN) % replicas * 256;

#define VECS (PRISM_ITEMS / 16)
  const ulong tile_items = (ulong)PRISM_WG * PRISM_ITEMS;
  const ulong full_tiles = n / tile_items;
  const ulong group = get_group_id(0), groups = get_num_groups(0);
  for (ulong tile = group; tile < full_tiles; tile += groups) {
    const ulong v0 = tile * (PRISM_WG * VECS) + lid;
    uint4 v[VECS];
    for (int k = 0; k < VECS; k++)
      v[k] = LOAD_BYTES16(samples, v0 + (ulong)k * PRISM_WG);
    for (int k = 0; k < VECS; k++)
      count_bytes(v[k], mine);
  }
#undef VECS
  /* The last, partial tile, a byte at a time, by the group whose turn it
   * is. */
  const ulong rest = full_tiles * tile_items;
  if (rest < n && full_tiles % groups == group)
    for (ulong i = rest + lid; i < n; i += PRISM_WG)
      atomic_inc(mine + samples[i]);
  barrier(CLK_LOCAL_MEM_FENCE);

  for (uint value = lid; value < 256; value += PRISM_WG) {
    uint sum = 0;
    for (uint r = 0; r < replicas; r++)
      sum += hist[r * 256 + value];
    const uint b = value_bin(&m, edges, (T)value);
    if (sum != 0 && b != NO_BIN)
      add_count(counts, b, sum);
  }
}
#endif
