/* SPDX-License-Identifier: MIT */
/*
 * spmv.cl: SpMV, y = alpha * A * x + beta * y, on the merge-path partition
 * core planned (core/backend.h, prism__spmv_args; Merrill & Garland, SC'16),
 * as backend_cuda/spmv.cu does it.
 *
 * Options (besides common.cl's; T is float or double, the operator SUM):
 *   PRISM_SPMV_SERIAL  0: spmv_tiles, a work-group per tile (GPUs);
 *                      1: spmv_tiles_serial, a work-item per tile (CPUs).
 *   PRISM_ITEMS        spmv_tiles: merge items per work-item.
 *   PRISM_SPMV_LOCAL   spmv_tiles: the __local bytes the host stated for
 *                      its shape (tuning.h's PRISM__CL_SPMV_LOCAL).
 * spmv_fix_short and spmv_fix_long, which finish the rows split between
 * tiles, are in every build.
 *
 * Every slot of every tile is written, nothing depends on timing and there
 * are no atomics: the same bits every run on a device.
 */

#ifndef PRISM_SPMV_SERIAL
#define PRISM_SPMV_SERIAL 0
#endif

/* Bit 63 of a tile's r0 in coords: its first row began in an earlier tile
 * (core/backend.h, PRISM__SPMV_HEAD_SPLIT). */
#define HEAD_SPLIT ((ulong)1 << 63)

/* What a slot with no sum holds: adds as nothing. */
#define NEG_ZERO (-(T)0)

/* y[row] = alpha * s + beta * y[row]; y is not read when beta is 0. */
void finish_row(__global T *y, ulong row, T s, T alpha, T beta) {
  T v = alpha * s;
  if (beta != (T)0)
    v = v + beta * y[row];
  y[row] = v;
}

#if !PRISM_SPMV_SERIAL

#define SPMV_TILE (PRISM_WG * PRISM_ITEMS)

/* (key, value) pairs scanned by key: a . b = (b.key, a.key == b.key ?
 * a.value + b.value : b.value). With keys that never decrease along the
 * work-items, a work-item's exclusive prefix holds what the work-items
 * before it summed of the row open at its start. */
typedef struct keyed_sum {
  uint key;
  T value;
} keyed_sum;

keyed_sum keyed_combine(keyed_sum a, keyed_sum b) {
  keyed_sum c;
  c.key = b.key;
  c.value = a.key == b.key ? a.value + b.value : b.value;
  return c;
}

/* Work-item 0's exclusive prefix (never read). */
keyed_sum keyed_none(void) {
  keyed_sum c;
  c.key = UINT_MAX;
  c.value = NEG_ZERO;
  return c;
}

/* Exclusive keyed scan over the work-group (common.cl's Hillis-Steele
 * scan: a fixed tree, 2 * PRISM_WG pairs of local memory). */
PRISM_DEFINE_WG_SCAN(block_keyed_scan, keyed_sum, keyed_combine, keyed_none())

/*
 * spmv_tiles: work-group t owns tile t of SPMV_TILE merge items.
 *   1. The tile's row ends (relative to its first entry) and its products
 *      a_z * x[col_z] go to local memory, coalesced: every entry is read
 *      once, x gathered once per entry.
 *   2. Each work-item finds its own PRISM_ITEMS-item stretch of the tile's
 *      merge path by a binary search in local memory and walks it: an
 *      entry adds its product, a row end finishes the row. Rows a
 *      work-item both begins and ends are written at once.
 *   3. The first row each work-item ends may have begun in earlier
 *      work-items: an exclusive work-group scan of (open row, partial sum)
 *      pairs, keyed by row, gives each what the work-items before it
 *      summed of that row.
 *   4. The tile's first row, when it began in an earlier tile, goes to the
 *      tile's head slot partials[2t] instead of y; what the tile summed of
 *      the row open at its end (the scan's aggregate) to its carry slot
 *      partials[2t + 1].
 * Traffic: each entry, column index and row offset read once, x once per
 * entry, each row's y read (beta != 0) and written once; two slots a tile.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
spmv_tiles(PRISM_BUF(const uint, row_offsets), PRISM_BUF(const uint, cols),
           PRISM_BUF(const T, values), PRISM_BUF(const T, x), PRISM_BUF(T, y),
           PRISM_BUF(const ulong, coords), PRISM_BUF(T, partials), T alpha,
           T beta) {
  PRISM_BUF_AT(const uint, row_offsets);
  PRISM_BUF_AT(const uint, cols);
  PRISM_BUF_AT(const T, values);
  PRISM_BUF_AT(const T, x);
  PRISM_BUF_AT(T, y);
  PRISM_BUF_AT(const ulong, coords);
  PRISM_BUF_AT(T, partials);
  __local uint row_end[SPMV_TILE + 1]; /* relative to the tile's first entry */
  __local T product[SPMV_TILE];
  __local keyed_sum scan[2 * PRISM_WG];
  PRISM_LOCAL_FITS(sizeof row_end + sizeof product + sizeof scan,
                   PRISM_SPMV_LOCAL);
  const int lid = (int)get_local_id(0);
  const ulong t = get_group_id(0);
  const ulong head = coords[2 * t], z0 = coords[2 * t + 1];
  const ulong r0 = head & ~HEAD_SPLIT, r1 = coords[2 * t + 2] & ~HEAD_SPLIT;
  const ulong z1 = coords[2 * t + 3];
  const int nr = (int)(r1 - r0), nz = (int)(z1 - z0);
  /* The tile's first row began in an earlier tile: it is a split row. */
  const int head_split = nr > 0 && (head & HEAD_SPLIT) != 0;

  /* nr, nz <= SPMV_TILE: PRISM_ITEMS strided rounds stage them, every
   * load of a round issued before the first is used (the gathers of x
   * too), so a work-item keeps PRISM_ITEMS loads in flight, not one. The
   * loads take no branch: a round past nz reads entry nz - 1 again (a tile
   * without entries reads none), so no load waits behind another's test
   * (NVIDIA's compiler kept a branch around each f64 gather). */
  uint col[PRISM_ITEMS];
  T value[PRISM_ITEMS], xs[PRISM_ITEMS];
  if (nz > 0) {
#pragma unroll
    for (int k = 0; k < PRISM_ITEMS; k++) {
      const int i = min(lid + k * PRISM_WG, nz - 1);
      col[k] = cols[z0 + i];
      value[k] = values[z0 + i];
    }
#pragma unroll
    for (int k = 0; k < PRISM_ITEMS; k++)
      xs[k] = x[col[k]];
  }
#pragma unroll
  for (int k = 0; k < PRISM_ITEMS; k++) {
    const int i = lid + k * PRISM_WG;
    if (i < nr)
      row_end[i] = row_offsets[r0 + 1 + i] - (uint)z0;
  }
  if (lid == 0) {
    row_end[nr] = (uint)nz; /* row r1 stays open */
    if (!head_split)
      partials[2 * t] = NEG_ZERO;
  }
#pragma unroll
  for (int k = 0; k < PRISM_ITEMS; k++) {
    const int i = lid + k * PRISM_WG;
    if (i < nz)
      product[i] = value[k] * xs[k];
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  /* This work-item's stretch [d, d_end) of the tile's nr + nz items. */
  const int items = nr + nz;
  const int d = min(lid * PRISM_ITEMS, items);
  const int d_end = min(d + PRISM_ITEMS, items);
  int lo = max(d - nz, 0), hi = min(d, nr);
  while (lo < hi) { /* row ends before item d: row_end[i] + i < d */
    const int mid = (lo + hi) >> 1;
    if ((int)row_end[mid] + mid < d)
      lo = mid + 1;
    else
      hi = mid;
  }
  int ri = lo, zi = d - lo;

  T acc = (T)0, first_sum = (T)0;
  int first_row = -1;
#pragma unroll
  for (int k = 0; k < PRISM_ITEMS; k++) {
    if (ri + zi < d_end) {
      if ((int)row_end[ri] <= zi) { /* row ri ends here */
        if (first_row < 0) {
          first_row = ri;
          first_sum = acc;
        } else {
          finish_row(y, r0 + ri, acc, alpha, beta);
        }
        acc = (T)0;
        ri++;
      } else {
        acc += product[zi];
        zi++;
      }
    }
  }

  keyed_sum mine, total;
  mine.key = (uint)ri;
  mine.value = acc;
  const keyed_sum prefix = block_keyed_scan(mine, scan, &total);
  if (first_row >= 0) {
    T s = first_sum;
    if (lid > 0 && prefix.key == (uint)first_row)
      s = prefix.value + first_sum;
    if (first_row == 0 && head_split)
      partials[2 * t] = s;
    else
      finish_row(y, r0 + first_row, s, alpha, beta);
  }
  if (lid == PRISM_WG - 1)
    partials[2 * t + 1] = total.value;
}

#else /* PRISM_SPMV_SERIAL */

/*
 * spmv_tiles_serial: work-item t (a work-group of its own) owns tile t and
 * walks it straight from global memory: the serial CSR loop over the rows
 * it ends, the first to the head slot when it began in an earlier tile,
 * then what it holds of the row open at its end to the carry slot. A CPU
 * core streams the tile's entries, column indexes and row offsets once
 * each, x gathered through its caches; there is nothing for local memory
 * or a scan to do.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
spmv_tiles_serial(PRISM_BUF(const uint, row_offsets),
                  PRISM_BUF(const uint, cols), PRISM_BUF(const T, values),
                  PRISM_BUF(const T, x), PRISM_BUF(T, y),
                  PRISM_BUF(const ulong, coords), PRISM_BUF(T, partials),
                  T alpha, T beta) {
  PRISM_BUF_AT(const uint, row_offsets);
  PRISM_BUF_AT(const uint, cols);
  PRISM_BUF_AT(const T, values);
  PRISM_BUF_AT(const T, x);
  PRISM_BUF_AT(T, y);
  PRISM_BUF_AT(const ulong, coords);
  PRISM_BUF_AT(T, partials);
  const ulong t = get_global_id(0);
  const ulong head = coords[2 * t], z0 = coords[2 * t + 1];
  const ulong r0 = head & ~HEAD_SPLIT, r1 = coords[2 * t + 2] & ~HEAD_SPLIT;
  const ulong z1 = coords[2 * t + 3];
  const uint z0_low = (uint)z0;
/* Row i's end, from its low 32 bits (core/backend.h). */
#define ROW_END(i) (z0 + (uint)(row_offsets[(i) + 1] - z0_low))
  ulong r = r0, z = z0;
  if (r1 > r0 && (head & HEAD_SPLIT) != 0) { /* a split row: the head slot */
    T acc = (T)0;
    for (const ulong end = ROW_END(r0); z < end; z++)
      acc += values[z] * x[cols[z]];
    partials[2 * t] = acc;
    r++;
  } else {
    partials[2 * t] = NEG_ZERO;
  }
  for (; r < r1; r++) {
    T acc = (T)0;
    for (const ulong end = ROW_END(r); z < end; z++)
      acc += values[z] * x[cols[z]];
    finish_row(y, r, acc, alpha, beta);
  }
#undef ROW_END
  T carry = (T)0; /* row r1, open at the tile's end */
  for (; z < z1; z++)
    carry += values[z] * x[cols[z]];
  partials[2 * t + 1] = carry;
}

#endif /* PRISM_SPMV_SERIAL */

/*
 * spmv_fix_short: the short split rows begin .. end - 1 (at most
 * PRISM__SPMV_SHORT_SPLIT slots each), per_item of them to a work-item
 * (one on GPUs; CPUs run a work-item per group), each row's slots first ..
 * last added in order.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
spmv_fix_short(PRISM_BUF(const ulong, split), ulong begin, ulong end,
               ulong per_item, PRISM_BUF(const T, partials), PRISM_BUF(T, y),
               T alpha, T beta) {
  PRISM_BUF_AT(const ulong, split);
  PRISM_BUF_AT(const T, partials);
  PRISM_BUF_AT(T, y);
  const ulong from = begin + get_global_id(0) * per_item;
  const ulong to = min(from + per_item, end);
  for (ulong i = from; i < to; i++) {
    const ulong row = split[3 * i], first = split[3 * i + 1],
                last = split[3 * i + 2];
    T s = partials[first];
    for (ulong j = first + 1; j <= last; j++)
      s += partials[j];
    finish_row(y, row, s, alpha, beta);
  }
}

/*
 * spmv_fix_long: work-group i owns long split row i: each work-item adds
 * the slots first + lid, first + lid + PRISM_WG, ... in order, then
 * common.cl's fixed tree over the work-group, so a row of 10^7 entries
 * among rows of 2 costs one group's read of its few thousand slots.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
spmv_fix_long(PRISM_BUF(const ulong, split), PRISM_BUF(const T, partials),
              PRISM_BUF(T, y), T alpha, T beta) {
  PRISM_BUF_AT(const ulong, split);
  PRISM_BUF_AT(const T, partials);
  PRISM_BUF_AT(T, y);
  __local T buf[PRISM_WG];
  const ulong i = get_group_id(0);
  const ulong row = split[3 * i], first = split[3 * i + 1],
              last = split[3 * i + 2];
  T s = NEG_ZERO;
  for (ulong j = first + get_local_id(0); j <= last; j += PRISM_WG)
    s += partials[j];
  s = wg_reduce(s, buf);
  if (get_local_id(0) == 0)
    finish_row(y, row, s, alpha, beta);
}
