/* SPDX-License-Identifier: MIT */
/*
 * stencil.cl: out(p) = the sum over the box of radius r of w(d) *
 * in(p + d) (core/backend.h, prism__stencil_args), summed exactly as the
 * contract fixes it (taps in the order dz, dy, dx, zero weights skipped,
 * fused multiply-adds from +0.0), so every kernel here gives the bits of
 * the serial loop. What differs between them is only where in(p + d) is
 * read from.
 *
 * stencil_1d, stencil_2d, stencil_2d_box, stencil_3d_ring and
 * stencil_direct are backend_cuda/stencil.cu's kernels of the same names,
 * step for step (a work-group for a block, local memory for shared memory,
 * the 32 x ROWS blocks as work-groups of 32 ROWS work-items, lane lid % 32
 * of row lid / 32; CUDA's template radius and star flag as the options
 * PRISM_R and PRISM_STAR, its per-type shapes as options the host sets):
 * stencil_1d: a work-group stages a stretch of PRISM_WG x PRISM_ITEMS
 *   points and r on each side in local memory, then each work-item sums
 *   PRISM_ITEMS points.
 * stencil_2d: a work-group stages a (32 x PRISM_COLS) x (PRISM_ROWS x
 *   PRISM_ITEMS) tile and its halo of r in local memory; each work-item
 *   sums PRISM_COLS x PRISM_ITEMS points, a tap's weight loaded once for
 *   all of them: star-shaped weights (the axes only), radius 0 and full
 *   boxes of radius 1 and 2.
 * stencil_2d_box (r = PRISM_R, 3 .. 8 as the host dispatches it; the
 *   kernel takes 1 .. 8): full boxes (conv2d), each
 *   work-item PRISM_ITEMS consecutive rows of a column from a window of
 *   rows kept in registers, so a value read from local memory serves
 *   2r + 1 rows' worth of taps.
 * stencil_3d_ring (r = PRISM_R, 1 or 2): a work-group owns a 32 x
 *   (PRISM_ROWS x PRISM_ITEMS) column of the grid (PRISM_ITEMS points of a
 *   plane per work-item) and marches along z over a chunk of PRISM_CHUNK
 *   planes, keeping the 2r + 1 planes (with halos) the current plane reads
 *   in a ring in local memory: each plane is read from memory once per
 *   chunk, the next one's loads in flight while the current one is summed.
 * stencil_direct: a point per work-item, every tap read through the
 *   caches; 3-D boxes of a larger radius (whose taps outnumber the bytes
 *   moved many times over) and radius 0 in 3-D (every 3-D radius off the
 *   ring).
 * stencil_rows, the CPU policy's: a work-item sums a run of points along x
 *   of one row (or whole rows) tap by tap, straight from global memory:
 *   out(p) starts at +0.0 and takes each tap's fma in the contract's order,
 *   the run's inner loop a unit-stride multiply-add the compiler
 *   vectorises; the core's caches hold the run's rows.
 *
 * Options (besides common.cl's; T is float or double, the operator SUM):
 *   PRISM_STENCIL_1D, _2D, _2D_BOX, _3D_RING, _DIRECT, _ROWS  the kernel
 *                  built.
 *   PRISM_R        the radius at compile time (1, 2, 3; the box 1 .. 8;
 *                  the ring 1 or 2), or 0: the radius argument at run time
 *                  (up to PRISM_MAX_R, PRISM_STENCIL_MAX_RADIUS).
 *   PRISM_STAR     1: the weights are zero off the axes.
 *   PRISM_ITEMS    1-D: points per work-item; 2-D: rows of PRISM_COLS
 *                  points; the box: consecutive rows of a column; the
 *                  ring: points a plane.
 *   PRISM_COLS     2-D: points per work-item along x, 32 apart.
 *   PRISM_ROWS     2-D, the box and the ring: work-groups of 32 x
 *                  PRISM_ROWS.
 *   PRISM_CHUNK    the ring: planes per chunk.
 *   PRISM_STENCIL_LOCAL  the tile kernels: the __local bytes the host
 *                  stated (tuning.h's PRISM__CL_STENCIL_*_LOCAL).
 *
 * Staging maps an index outside the grid by the border mode (zero: the
 * value 0; clamp: the nearest index; periodic: the index modulo the
 * extent, for any radius); tiles inside the grid take no other branch.
 * Indices are long: grids up to 2^31 along an axis, beyond 2^32 points.
 */

#ifndef PRISM_R
#define PRISM_R 0
#endif
#ifndef PRISM_STAR
#define PRISM_STAR 0
#endif

/* prism_border's values. */
#define BORDER_ZERO 0
#define BORDER_CLAMP 1

/* PRISM_R > 0: the radius at compile time; 0: r at run time, up to
 * PRISM_MAX_R. */
#if PRISM_R > 0
#define RMAX PRISM_R
#define RADIUS(r) PRISM_R
#else
#define RMAX PRISM_MAX_R
#define RADIUS(r) (r)
#endif

/* An index along an axis of extent n, mapped into the grid; -1 for a
 * zero-border point outside it. */
long map_index(long i, long n, int border) {
  if (i >= 0 && i < n)
    return i;
  if (border == BORDER_ZERO)
    return -1;
  if (border == BORDER_CLAMP)
    return i < 0 ? 0 : n - 1;
  return (i % n + n) % n;
}

/* Tap j (0 .. taps - 1) of a star or a full box, in the contract's order:
 * its offset (dx, dy). A star's taps: dy = -r .. -1 on the y axis, the x
 * axis dx = -r .. r, then dy = 1 .. r. */
void tap_2d(int star, int j, int r, int *dx, int *dy) {
  if (star) {
    if (j < r) {
      *dx = 0;
      *dy = j - r;
    } else if (j < 3 * r + 1) {
      *dx = j - 2 * r;
      *dy = 0;
    } else {
      *dx = 0;
      *dy = j - 3 * r;
    }
  } else {
    const int side = 2 * r + 1;
    *dx = j % side - r;
    *dy = j / side - r;
  }
}

/* ---- 1-D ----------------------------------------------------------------- */

#if defined(PRISM_STENCIL_1D)

#define TILE_1D (PRISM_WG * PRISM_ITEMS)
#define ROUNDS_1D ((TILE_1D + 2 * RMAX + PRISM_WG - 1) / PRISM_WG)

__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
stencil_1d(PRISM_BUF(const T, in), PRISM_BUF(T, out), PRISM_BUF(const T, w),
           long nx, int r_arg, int border, ulong tiles) {
  PRISM_BUF_AT(const T, in);
  PRISM_BUF_AT(T, out);
  PRISM_BUF_AT(const T, w);
  __local T s[TILE_1D + 2 * RMAX];
  __local T sw[2 * RMAX + 1];
  PRISM_LOCAL_FITS(sizeof s + sizeof sw, PRISM_STENCIL_LOCAL);
  const int r = RADIUS(r_arg);
  const int tid = (int)get_local_id(0);
  for (int i = tid; i < 2 * r + 1; i += PRISM_WG)
    sw[i] = w[i];
  for (ulong t = get_group_id(0); t < tiles; t += get_num_groups(0)) {
    const long x0 = (long)t * TILE_1D;
    T v[ROUNDS_1D];
#pragma unroll
    for (int k = 0; k < ROUNDS_1D; k++) {
      const int i = k * PRISM_WG + tid;
      v[k] = (T)0;
      if (i < TILE_1D + 2 * r) {
        const long x = map_index(x0 - r + i, nx, border);
        if (x >= 0)
          v[k] = in[x];
      }
    }
#pragma unroll
    for (int k = 0; k < ROUNDS_1D; k++) {
      const int i = k * PRISM_WG + tid;
      if (i < TILE_1D + 2 * r)
        s[i] = v[k];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    T acc[PRISM_ITEMS];
#pragma unroll
    for (int k = 0; k < PRISM_ITEMS; k++)
      acc[k] = (T)0;
#if PRISM_R > 0
#pragma unroll
#endif
    for (int d = 0; d <= 2 * r; d++) {
      const T wt = sw[d];
      if (wt != (T)0) {
#pragma unroll
        for (int k = 0; k < PRISM_ITEMS; k++)
          acc[k] = fma(wt, s[k * PRISM_WG + tid + d], acc[k]);
      }
    }
#pragma unroll
    for (int k = 0; k < PRISM_ITEMS; k++) {
      const long x = x0 + k * PRISM_WG + tid;
      if (x < nx)
        out[x] = acc[k];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

#endif /* PRISM_STENCIL_1D */

/* ---- 2-D ----------------------------------------------------------------- */

#if defined(PRISM_STENCIL_2D)

#define TX_2D (32 * PRISM_COLS)
#define TY_2D (PRISM_ROWS * PRISM_ITEMS)
#define WMAX (TX_2D + 2 * RMAX)
#define HMAX (TY_2D + 2 * RMAX)
#define XR ((WMAX + 31) / 32)
#define YR ((HMAX + PRISM_ROWS - 1) / PRISM_ROWS)
#if PRISM_STAR
#define TAPS_MAX (4 * RMAX + 1)
#else
#define TAPS_MAX ((2 * RMAX + 1) * (2 * RMAX + 1))
#endif

__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
stencil_2d(PRISM_BUF(const T, in), PRISM_BUF(T, out), PRISM_BUF(const T, w),
           long nx, long ny, int r_arg, int border, ulong tiles_x,
           ulong tiles) {
  PRISM_BUF_AT(const T, in);
  PRISM_BUF_AT(T, out);
  PRISM_BUF_AT(const T, w);
  __local T s[HMAX * WMAX];
  __local T sw[(2 * RMAX + 1) * (2 * RMAX + 1)];
  PRISM_LOCAL_FITS(sizeof s + sizeof sw, PRISM_STENCIL_LOCAL);
  const int r = RADIUS(r_arg);
  const int W = TX_2D + 2 * r, H = TY_2D + 2 * r;
  const int side = 2 * r + 1;
  const int taps = PRISM_STAR ? 4 * r + 1 : side * side;
  const int tid = (int)get_local_id(0);
  const int tx = tid % 32, ty = tid / 32;
  for (int i = tid; i < side * side; i += PRISM_WG)
    sw[i] = w[i];
  for (ulong t = get_group_id(0); t < tiles; t += get_num_groups(0)) {
    const long x0 = (long)(t % tiles_x) * TX_2D;
    const long y0 = (long)(t / tiles_x) * TY_2D;
    T v[YR][XR];
#pragma unroll
    for (int a = 0; a < YR; a++) {
      const int ly = a * PRISM_ROWS + ty;
      const long y = ly < H ? map_index(y0 - r + ly, ny, border) : -1;
#pragma unroll
      for (int b = 0; b < XR; b++) {
        const int lx = b * 32 + tx;
        v[a][b] = (T)0;
        if (y >= 0 && lx < W) {
          const long x = map_index(x0 - r + lx, nx, border);
          if (x >= 0)
            v[a][b] = in[y * nx + x];
        }
      }
    }
#pragma unroll
    for (int a = 0; a < YR; a++) {
      const int ly = a * PRISM_ROWS + ty;
#pragma unroll
      for (int b = 0; b < XR; b++) {
        const int lx = b * 32 + tx;
        if (ly < H && lx < W)
          s[ly * W + lx] = v[a][b];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    T acc[PRISM_ITEMS][PRISM_COLS];
#pragma unroll
    for (int a = 0; a < PRISM_ITEMS; a++)
#pragma unroll
      for (int b = 0; b < PRISM_COLS; b++)
        acc[a][b] = (T)0;
#if PRISM_R > 0
#pragma unroll
#endif
    for (int j = 0; j < taps; j++) {
      int dx, dy;
      tap_2d(PRISM_STAR, j, r, &dx, &dy);
      const T wt = sw[(dy + r) * side + dx + r];
      if (wt != (T)0) {
#pragma unroll
        for (int a = 0; a < PRISM_ITEMS; a++) {
          __local const T *row =
              s + (a * PRISM_ROWS + ty + r + dy) * W + r + dx;
#pragma unroll
          for (int b = 0; b < PRISM_COLS; b++)
            acc[a][b] = fma(wt, row[tx + 32 * b], acc[a][b]);
        }
      }
    }
#pragma unroll
    for (int a = 0; a < PRISM_ITEMS; a++) {
      const long y = y0 + a * PRISM_ROWS + ty;
#pragma unroll
      for (int b = 0; b < PRISM_COLS; b++) {
        const long x = x0 + b * 32 + tx;
        if (y < ny && x < nx)
          out[y * nx + x] = acc[a][b];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

#endif /* PRISM_STENCIL_2D */

/* Full 2-D boxes (conv2d): a work-item owns Q = PRISM_ITEMS consecutive
 * rows of one column and sums them with box_column's window of rows. The
 * tile, 32 x (PRISM_ROWS x Q) points with its halo, is staged by a flat
 * index over it (all work-items busy). */
#if defined(PRISM_STENCIL_2D_BOX)

#if PRISM_R < 1 || PRISM_R > PRISM_MAX_R
#error "stencil_2d_box is made for PRISM_R 1 .. PRISM_MAX_R"
#endif
#if PRISM_WG != 32 * PRISM_ROWS
#error "stencil_2d_box runs in work-groups of 32 x PRISM_ROWS"
#endif

#define R PRISM_R
#define Q PRISM_ITEMS
#define SIDE (2 * R + 1)
#define W_BOX (32 + 2 * R)
#define H_BOX (PRISM_ROWS * Q + 2 * R)
#define ROUNDS_BOX ((W_BOX * H_BOX + PRISM_WG - 1) / PRISM_WG)

/* One column's Q consecutive points of a full box of radius R, from the
 * staged tile: base is the column's top-left tap (row -R, column -R of its
 * first point), rows w_row apart. The box's rows dy = -R .. R are walked
 * with a window of Q rows x (2R + 1) values in registers: moving to the
 * next dy drops the window's first row and reads one new one, so (Q +
 * 2R)(2R + 1) values are read from local memory for Q (2R + 1)^2
 * multiply-adds, each point's terms still in the contract's order (dy,
 * then dx). backend_cuda/stencil.cu's box_column. */
void box_column(__local const T *base, int w_row, __local const T *sw, T *acc) {
  T win[Q][SIDE];
#pragma unroll
  for (int q = 0; q < Q; q++) {
    acc[q] = (T)0;
#pragma unroll
    for (int j = 0; j < SIDE; j++)
      win[q][j] = base[q * w_row + j];
  }
#pragma unroll
  for (int dy = 0; dy < SIDE; dy++) {
    if (dy > 0) {
#pragma unroll
      for (int q = 0; q + 1 < Q; q++)
#pragma unroll
        for (int j = 0; j < SIDE; j++)
          win[q][j] = win[q + 1][j];
#pragma unroll
      for (int j = 0; j < SIDE; j++)
        win[Q - 1][j] = base[(Q - 1 + dy) * w_row + j];
    }
#pragma unroll
    for (int dx = 0; dx < SIDE; dx++) {
      const T wt = sw[dy * SIDE + dx];
      if (wt != (T)0) {
#pragma unroll
        for (int q = 0; q < Q; q++)
          acc[q] = fma(wt, win[q][dx], acc[q]);
      }
    }
  }
}

__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
stencil_2d_box(PRISM_BUF(const T, in), PRISM_BUF(T, out), PRISM_BUF(const T, w),
               long nx, long ny, int border, ulong tiles_x, ulong tiles) {
  PRISM_BUF_AT(const T, in);
  PRISM_BUF_AT(T, out);
  PRISM_BUF_AT(const T, w);
  __local T s[W_BOX * H_BOX];
  __local T sw[SIDE * SIDE];
  PRISM_LOCAL_FITS(sizeof s + sizeof sw, PRISM_STENCIL_LOCAL);
  const int tid = (int)get_local_id(0);
  const int tx = tid % 32, ty = tid / 32;
  for (int i = tid; i < SIDE * SIDE; i += PRISM_WG)
    sw[i] = w[i];
  for (ulong t = get_group_id(0); t < tiles; t += get_num_groups(0)) {
    const long x0 = (long)(t % tiles_x) * 32;
    const long y0 = (long)(t / tiles_x) * (PRISM_ROWS * Q);
    T v[ROUNDS_BOX];
#pragma unroll
    for (int k = 0; k < ROUNDS_BOX; k++) {
      const int i = k * PRISM_WG + tid;
      v[k] = (T)0;
      if (i < W_BOX * H_BOX) {
        const long y = map_index(y0 - R + i / W_BOX, ny, border);
        const long x = map_index(x0 - R + i % W_BOX, nx, border);
        if (x >= 0 && y >= 0)
          v[k] = in[y * nx + x];
      }
    }
#pragma unroll
    for (int k = 0; k < ROUNDS_BOX; k++) {
      const int i = k * PRISM_WG + tid;
      if (i < W_BOX * H_BOX)
        s[i] = v[k];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    T acc[Q];
    box_column(s + ty * Q * W_BOX + tx, W_BOX, sw, acc);
    const long x = x0 + tx;
#pragma unroll
    for (int q = 0; q < Q; q++) {
      const long y = y0 + ty * Q + q;
      if (x < nx && y < ny)
        out[y * nx + x] = acc[q];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

#endif /* PRISM_STENCIL_2D_BOX */

/* ---- 3-D ----------------------------------------------------------------- */

#if defined(PRISM_STENCIL_3D_RING)

#if PRISM_R < 1 || PRISM_R > 2
#error "stencil_3d_ring is made for PRISM_R 1 and 2"
#endif

#define R PRISM_R
#define TX_3D 32
#define TY_3D (PRISM_ROWS * PRISM_ITEMS)
#define PW (TX_3D + 2 * R)
#define PH (TY_3D + 2 * R)
#define PLANE (PW * PH)
#define ROUNDS_3D ((PLANE + PRISM_WG - 1) / PRISM_WG)
#define SLOTS (2 * R + 1)
#define SIDE (2 * R + 1)
#if PRISM_STAR
#define TAPS_3D (6 * R + 1)
#else
#define TAPS_3D (SIDE * SIDE * SIDE)
#endif

/* Tap j of a 3-D star or box in the contract's order: (dx, dy, dz). A
 * star's: dz = -R .. -1, then the plane's star (as tap_2d), then
 * dz = 1 .. R. */
void tap_3d(int j, int *dx, int *dy, int *dz) {
  if (PRISM_STAR) {
    if (j < R) {
      *dx = *dy = 0;
      *dz = j - R;
    } else if (j < 5 * R + 1) {
      tap_2d(1, j - R, R, dx, dy);
      *dz = 0;
    } else {
      *dx = *dy = 0;
      *dz = j - 5 * R;
    }
  } else {
    *dx = j % SIDE - R;
    *dy = j / SIDE % SIDE - R;
    *dz = j / (SIDE * SIDE) - R;
  }
}

/* Plane z of the grid into v (any z: mapped by the border), this
 * work-item's part of it at the offsets xy (-1: outside, zero border). */
void fetch_plane(T *v, const long *xy, __global const T *in, long z, long nz,
                 long plane_stride, int border) {
  const long zm = map_index(z, nz, border);
#pragma unroll
  for (int k = 0; k < ROUNDS_3D; k++)
    v[k] = zm >= 0 && xy[k] >= 0 ? in[zm * plane_stride + xy[k]] : (T)0;
}

/* v into the ring's slot of plane z0 + zi (zi from -R to PRISM_CHUNK +
 * R - 1). */
void store_plane(__local T *ring, const T *v, int zi, int tid) {
  __local T *p = ring + (zi + R) % SLOTS * PLANE;
#pragma unroll
  for (int k = 0; k < ROUNDS_3D; k++) {
    const int i = k * PRISM_WG + tid;
    if (i < PLANE)
      p[i] = v[k];
  }
}

__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
stencil_3d_ring(PRISM_BUF(const T, in), PRISM_BUF(T, out),
                PRISM_BUF(const T, w), long nx, long ny, long nz, int border,
                ulong tiles_x, ulong tiles_y, ulong tiles) {
  PRISM_BUF_AT(const T, in);
  PRISM_BUF_AT(T, out);
  PRISM_BUF_AT(const T, w);
  __local T ring[SLOTS * PLANE];
  __local T sw[SIDE * SIDE * SIDE];
  PRISM_LOCAL_FITS(sizeof ring + sizeof sw, PRISM_STENCIL_LOCAL);
  const int tid = (int)get_local_id(0);
  const int tx = tid % 32, ty = tid / 32;
  for (int i = tid; i < SIDE * SIDE * SIDE; i += PRISM_WG)
    sw[i] = w[i];
  const ulong per_layer = tiles_x * tiles_y;
  for (ulong t = get_group_id(0); t < tiles; t += get_num_groups(0)) {
    const long x0 = (long)(t % tiles_x) * TX_3D;
    const long y0 = (long)(t / tiles_x % tiles_y) * TY_3D;
    const long z0 = (long)(t / per_layer) * PRISM_CHUNK;
    const long z_end = z0 + PRISM_CHUNK < nz ? z0 + PRISM_CHUNK : nz;
    /* This work-item's part of a plane: its (x, y) in the grid, mapped
     * once for the chunk (-1: outside, zero border). */
    long xy[ROUNDS_3D];
#pragma unroll
    for (int k = 0; k < ROUNDS_3D; k++) {
      const int i = k * PRISM_WG + tid;
      xy[k] = -1;
      if (i < PLANE) {
        const long x = map_index(x0 - R + i % PW, nx, border);
        const long y = map_index(y0 - R + i / PW, ny, border);
        if (x >= 0 && y >= 0)
          xy[k] = y * nx + x;
      }
    }
    const long plane_stride = nx * ny;
    T v[ROUNDS_3D];
    /* Planes by their place in the chunk, zi = z - z0, in int. */
    for (int zi = -R; zi < R; zi++) {
      fetch_plane(v, xy, in, z0 + zi, nz, plane_stride, border);
      store_plane(ring, v, zi, tid);
    }
    fetch_plane(v, xy, in, z0 + R, nz, plane_stride, border);
    for (long z = z0; z < z_end; z++) {
      const int zi = (int)(z - z0);
      store_plane(ring, v, zi + R, tid);
      barrier(CLK_LOCAL_MEM_FENCE);
      if (z + 1 < z_end)
        fetch_plane(v, xy, in, z + 1 + R, nz, plane_stride, border);
      T acc[PRISM_ITEMS];
#pragma unroll
      for (int a = 0; a < PRISM_ITEMS; a++)
        acc[a] = (T)0;
#pragma unroll
      for (int j = 0; j < TAPS_3D; j++) {
        int dx, dy, dz;
        tap_3d(j, &dx, &dy, &dz);
        const T wt = sw[((dz + R) * SIDE + dy + R) * SIDE + dx + R];
        if (wt != (T)0) {
          __local const T *p = ring + (zi + dz + R) % SLOTS * PLANE +
                               (ty + R + dy) * PW + tx + R + dx;
#pragma unroll
          for (int a = 0; a < PRISM_ITEMS; a++)
            acc[a] = fma(wt, p[a * PRISM_ROWS * PW], acc[a]);
        }
      }
      const long x = x0 + tx;
#pragma unroll
      for (int a = 0; a < PRISM_ITEMS; a++) {
        const long y = y0 + a * PRISM_ROWS + ty;
        if (x < nx && y < ny)
          out[z * plane_stride + y * nx + x] = acc[a];
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
}

#endif /* PRISM_STENCIL_3D_RING */

/* ---- any shape, through the caches ----------------------------------------
 */

#if defined(PRISM_STENCIL_DIRECT)

__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
stencil_direct(PRISM_BUF(const T, in), PRISM_BUF(T, out), PRISM_BUF(const T, w),
               long nx, long ny, long nz, int dims, int r, int border,
               ulong points) {
  PRISM_BUF_AT(const T, in);
  PRISM_BUF_AT(T, out);
  PRISM_BUF_AT(const T, w);
  const int side = 2 * r + 1;
  const int rz = dims >= 3 ? r : 0, ry = dims >= 2 ? r : 0;
  for (ulong p = get_global_id(0); p < points; p += get_global_size(0)) {
    const long x = (long)(p % (ulong)nx);
    const long y = (long)(p / (ulong)nx % (ulong)ny);
    const long z = (long)(p / ((ulong)nx * (ulong)ny));
    T acc = (T)0;
    for (int dz = -rz; dz <= rz; dz++) {
      const long zm = map_index(z + dz, nz, border);
      for (int dy = -ry; dy <= ry; dy++) {
        const long ym = map_index(y + dy, ny, border);
        __global const T *wr = w + ((dz + rz) * side + (dy + ry)) * side + r;
        for (int dx = -r; dx <= r; dx++) {
          const T wt = wr[dx];
          if (wt == (T)0)
            continue;
          const long xm = map_index(x + dx, nx, border);
          const T v = zm >= 0 && ym >= 0 && xm >= 0
                          ? in[(zm * ny + ym) * nx + xm]
                          : (T)0;
          acc = fma(wt, v, acc);
        }
      }
    }
    out[p] = acc;
  }
}

#endif /* PRISM_STENCIL_DIRECT */

/* ---- CPUs: runs of a row, tap by tap ------------------------------------- */

#if defined(PRISM_STENCIL_ROWS)

/*
 * stencil_rows: work-item g owns, when a row (y, z) holds runs_per_row > 1
 * runs of run points, run g % runs_per_row of row g / runs_per_row;
 * otherwise the rows [g * rows_per_item, (g + 1) * rows_per_item), whole.
 * Its points start at +0.0 in out, then every tap with a weight other than
 * 0.0, in the contract's order, adds its fma to all of them: the run
 * [x0, x1) splits into the points whose neighbour x + dx is inside the
 * grid (a plain unit-stride loop) and those at the ends, mapped by the
 * border; a row outside the grid (zero border) reads 0.0 for every point,
 * which the fma still takes (a NaN or infinite weight makes it NaN).
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
stencil_rows(PRISM_BUF(const T, in), PRISM_BUF(T, out), PRISM_BUF(const T, w),
             long nx, long ny, long nz, int dims, int r, int border,
             ulong runs_per_row, ulong rows_per_item, ulong run) {
  PRISM_BUF_AT(const T, in);
  PRISM_BUF_AT(T, out);
  PRISM_BUF_AT(const T, w);
  const ulong g = get_global_id(0);
  const ulong rows = (ulong)ny * (ulong)nz;
  ulong row0, row1;
  long x0, x1;
  if (runs_per_row > 1) {
    row0 = g / runs_per_row;
    row1 = min(row0 + 1, rows);
    x0 = (long)(g % runs_per_row * run);
    x1 = min(x0 + (long)run, nx);
  } else {
    row0 = g * rows_per_item;
    row1 = min(row0 + rows_per_item, rows);
    x0 = 0;
    x1 = nx;
  }
  const int side = 2 * r + 1;
  const int rz = dims >= 3 ? r : 0, ry = dims >= 2 ? r : 0;
  for (ulong row = row0; row < row1; row++) {
    const long y = (long)(row % (ulong)ny), z = (long)(row / (ulong)ny);
    __global T *o = out + row * (ulong)nx;
    for (long x = x0; x < x1; x++)
      o[x] = (T)0;
    for (int dz = -rz; dz <= rz; dz++) {
      const long zm = map_index(z + dz, nz, border);
      for (int dy = -ry; dy <= ry; dy++) {
        const long ym = map_index(y + dy, ny, border);
        __global const T *src =
            zm >= 0 && ym >= 0 ? in + (zm * ny + ym) * nx : 0;
        __global const T *wr = w + ((dz + rz) * side + (dy + ry)) * side + r;
        for (int dx = -r; dx <= r; dx++) {
          const T wt = wr[dx];
          if (wt == (T)0)
            continue;
          if (!src) {
            for (long x = x0; x < x1; x++)
              o[x] = fma(wt, (T)0, o[x]);
            continue;
          }
          /* [lo, hi): x + dx inside [0, nx). */
          const long lo = clamp((long)-dx, x0, x1);
          const long hi = clamp(nx - dx, lo, x1);
          for (long x = x0; x < lo; x++) {
            const long xm = map_index(x + dx, nx, border);
            o[x] = fma(wt, xm >= 0 ? src[xm] : (T)0, o[x]);
          }
          for (long x = lo; x < hi; x++)
            o[x] = fma(wt, src[x + dx], o[x]);
          for (long x = hi; x < x1; x++) {
            const long xm = map_index(x + dx, nx, border);
            o[x] = fma(wt, xm >= 0 ? src[xm] : (T)0, o[x]);
          }
        }
      }
    }
  }
}

#endif /* PRISM_STENCIL_ROWS */
