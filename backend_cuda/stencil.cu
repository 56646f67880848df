/* SPDX-License-Identifier: MIT */
/*
 * Stencils (core/backend.h, prism__stencil_args): out(p) = the sum over
 * the box of radius r of w(d) * in(p + d), summed exactly as the contract
 * fixes it (taps in the order dz, dy, dx, zero weights skipped, fused
 * multiply-adds from +0.0), so every kernel here gives the bits of the
 * serial loop. What differs between them is only where in(p + d) is read
 * from:
 *
 * stencil_1d: a block stages a stretch of THREADS x ITEMS points and r on
 *   each side in shared memory, then each thread sums ITEMS points.
 * stencil_2d: a block stages a (32 x COLS) x (ROWS x ITEMS) tile and its
 *   halo of r in shared memory; each thread sums COLS x ITEMS points, a
 *   tap's weight loaded once for all of them: star-shaped weights (the
 *   axes only), radius 0 and full boxes of radius 1 and 2.
 * stencil_2d_box: full boxes of radius 3 and more (conv2d), each thread a
 *   few consecutive rows of a column from a window of rows kept in
 *   registers, so a value read from shared memory serves 2r + 1 rows'
 *   worth of taps.
 * stencil_3d_ring (r <= RING_MAX_R): a block owns a 32 x (ROWS x ITEMS)
 *   column of the grid (ITEMS points of a plane per thread) and marches
 *   along z over a chunk of planes, keeping the 2r + 1 planes (with halos)
 *   the current plane reads in a ring in shared memory: each plane is read
 *   from memory once per chunk, the next one's loads in flight while the
 *   current one is summed.
 * stencil_direct: a point per thread, every tap read through the caches;
 *   3-D boxes of a larger radius (whose taps outnumber the bytes moved
 *   many times over) and radius 0 in 3-D.
 *
 * Staging maps an index outside the grid by the border mode (zero: the
 * value 0; clamp: the nearest index; periodic: the index modulo the
 * extent, for any radius); tiles inside the grid take no other branch.
 */
#include "cuda_internal.h"
#include "tuning.cuh"

#include <stdint.h>

namespace prism_cuda {
namespace {

constexpr int MAX_R = PRISM_STENCIL_MAX_RADIUS;

template <class T> struct StencilGrid {
  const T *in;
  T *out;
  const T *w; /* (2r + 1)^dims, dx fastest */
  int64_t nx, ny, nz;
  int r;
  int border;
};

/* An index along an axis of extent n, mapped into the grid; -1 for a
 * zero-border point outside it. */
__device__ __forceinline__ int64_t map_index(int64_t i, int64_t n, int border) {
  if (i >= 0 && i < n)
    return i;
  if (border == PRISM_BORDER_ZERO)
    return -1;
  if (border == PRISM_BORDER_CLAMP)
    return i < 0 ? 0 : n - 1;
  const int64_t m = i % n;
  return m < 0 ? m + n : m;
}

template <class T> __device__ __forceinline__ T fma_t(T a, T b, T c);
template <> __device__ __forceinline__ float fma_t(float a, float b, float c) {
  return __fmaf_rn(a, b, c);
}
template <>
__device__ __forceinline__ double fma_t(double a, double b, double c) {
  return __fma_rn(a, b, c);
}

/* ---- 1-D ----------------------------------------------------------------- */

/* R > 0: the radius at compile time; R = 0: g.r at run time. */
template <class T, int R>
__global__ void __launch_bounds__(STENCIL_THREADS)
    stencil_1d(StencilGrid<T> g, uint64_t tiles) {
  constexpr int TILE = STENCIL_THREADS * STENCIL_ITEMS_1D;
  constexpr int RMAX = R > 0 ? R : MAX_R;
  constexpr int ROUNDS =
      (TILE + 2 * RMAX + STENCIL_THREADS - 1) / STENCIL_THREADS;
  __shared__ T s[TILE + 2 * RMAX];
  __shared__ T sw[2 * RMAX + 1];
  const int r = R > 0 ? R : g.r;
  const int tid = int(threadIdx.x);
  if (tid < 2 * r + 1)
    sw[tid] = g.w[tid];
  for (uint64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const int64_t x0 = int64_t(t) * TILE;
    T v[ROUNDS];
#pragma unroll
    for (int k = 0; k < ROUNDS; k++) {
      const int i = k * STENCIL_THREADS + tid;
      v[k] = T(0);
      if (i < TILE + 2 * r) {
        const int64_t x = map_index(x0 - r + i, g.nx, g.border);
        if (x >= 0)
          v[k] = g.in[x];
      }
    }
#pragma unroll
    for (int k = 0; k < ROUNDS; k++) {
      const int i = k * STENCIL_THREADS + tid;
      if (i < TILE + 2 * r)
        s[i] = v[k];
    }
    __syncthreads();
    T acc[STENCIL_ITEMS_1D];
#pragma unroll
    for (int k = 0; k < STENCIL_ITEMS_1D; k++)
      acc[k] = T(0);
    constexpr int UNROLL = R > 0 ? 2 * R + 1 : 1;
#pragma unroll UNROLL
    for (int d = 0; d <= 2 * RMAX; d++) {
      if (d > 2 * r)
        break;
      const T w = sw[d];
      if (w != T(0)) {
#pragma unroll
        for (int k = 0; k < STENCIL_ITEMS_1D; k++)
          acc[k] = fma_t(w, s[k * STENCIL_THREADS + tid + d], acc[k]);
      }
    }
#pragma unroll
    for (int k = 0; k < STENCIL_ITEMS_1D; k++) {
      const int64_t x = x0 + k * STENCIL_THREADS + tid;
      if (x < g.nx)
        g.out[x] = acc[k];
    }
    __syncthreads();
  }
}

/* ---- 2-D ----------------------------------------------------------------- */

/* Points per thread along x: 32 x that many columns a tile (more for
 * 4-byte values, so a thread keeps as many bytes in flight). */
template <class T> __host__ __device__ constexpr int cols_2d() {
  return sizeof(T) == 4 ? STENCIL_COLS_2D_4 : STENCIL_COLS_2D_8;
}
constexpr int TY_2D = STENCIL_ROWS_2D * STENCIL_ITEMS_2D;

/* Tap j (0 .. taps - 1) of a star or a full box, in the contract's order:
 * its offset (dx, dy). A star's taps: dy = -r .. -1 on the y axis, the x
 * axis dx = -r .. r, then dy = 1 .. r. */
template <bool STAR>
__device__ __forceinline__ void tap_2d(int j, int r, int *dx, int *dy) {
  if (STAR) {
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

/* One column's Q consecutive points of a full box of radius R, from the
 * staged tile: base is the column's top-left tap (row -R, column -R of
 * its first point), rows W apart. The box's rows dy = -R .. R are walked
 * with a window of Q rows x (2R + 1) values in registers: moving to the
 * next dy drops the window's first row and reads one new one, so (Q +
 * 2R)(2R + 1) values are read from shared memory for Q (2R + 1)^2
 * multiply-adds, each point's terms still in the contract's order (dy,
 * then dx). */
template <class T, int R, int Q>
__device__ __forceinline__ void box_column(const T *base, int W, const T *sw,
                                           T (&acc)[Q]) {
  constexpr int SIDE = 2 * R + 1;
  T win[Q][SIDE];
#pragma unroll
  for (int q = 0; q < Q; q++) {
    acc[q] = T(0);
#pragma unroll
    for (int j = 0; j < SIDE; j++)
      win[q][j] = base[q * W + j];
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
        win[Q - 1][j] = base[(Q - 1 + dy) * W + j];
    }
#pragma unroll
    for (int dx = 0; dx < SIDE; dx++) {
      const T w = sw[dy * SIDE + dx];
      if (w != T(0)) {
#pragma unroll
        for (int q = 0; q < Q; q++)
          acc[q] = fma_t(w, win[q][dx], acc[q]);
      }
    }
  }
}

template <class T, int R, bool STAR>
__global__ void __launch_bounds__(32 * STENCIL_ROWS_2D)
    stencil_2d(StencilGrid<T> g, uint64_t tiles_x, uint64_t tiles) {
  constexpr int RMAX = R > 0 ? R : MAX_R;
  constexpr int XI = cols_2d<T>(), TX_2D = 32 * XI;
  constexpr int WMAX = TX_2D + 2 * RMAX, HMAX = TY_2D + 2 * RMAX;
  constexpr int XR = (WMAX + 31) / 32;
  constexpr int YR = (HMAX + STENCIL_ROWS_2D - 1) / STENCIL_ROWS_2D;
  constexpr int TAPS_MAX =
      STAR ? 4 * RMAX + 1 : (2 * RMAX + 1) * (2 * RMAX + 1);
  /* Full boxes of a radius known here: box_column's window. */
  constexpr bool WINDOW = STENCIL_WINDOW_2D && !STAR && R > 0;
  __shared__ T s[HMAX * WMAX];
  __shared__ T sw[(2 * RMAX + 1) * (2 * RMAX + 1)];
  const int r = R > 0 ? R : g.r;
  const int W = R > 0 ? WMAX : TX_2D + 2 * r;
  const int H = R > 0 ? HMAX : TY_2D + 2 * r;
  const int side = 2 * r + 1;
  const int taps = STAR ? 4 * r + 1 : side * side;
  const int tx = int(threadIdx.x), ty = int(threadIdx.y);
  for (int i = ty * 32 + tx; i < side * side; i += 32 * STENCIL_ROWS_2D)
    sw[i] = g.w[i];
  for (uint64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const int64_t x0 = int64_t(t % tiles_x) * TX_2D;
    const int64_t y0 = int64_t(t / tiles_x) * TY_2D;
    T v[YR][XR];
#pragma unroll
    for (int a = 0; a < YR; a++) {
      const int ly = a * STENCIL_ROWS_2D + ty;
      const int64_t y = ly < H ? map_index(y0 - r + ly, g.ny, g.border) : -1;
#pragma unroll
      for (int b = 0; b < XR; b++) {
        const int lx = b * 32 + tx;
        v[a][b] = T(0);
        if (y >= 0 && lx < W) {
          const int64_t x = map_index(x0 - r + lx, g.nx, g.border);
          if (x >= 0)
            v[a][b] = g.in[y * g.nx + x];
        }
      }
    }
#pragma unroll
    for (int a = 0; a < YR; a++) {
      const int ly = a * STENCIL_ROWS_2D + ty;
#pragma unroll
      for (int b = 0; b < XR; b++) {
        const int lx = b * 32 + tx;
        if (ly < H && lx < W)
          s[ly * W + lx] = v[a][b];
      }
    }
    __syncthreads();
    if constexpr (WINDOW) {
      /* Full boxes of a known radius: a thread's ITEMS rows are
       * consecutive, each of its columns summed by box_column. */
#pragma unroll
      for (int b = 0; b < XI; b++) {
        T col[STENCIL_ITEMS_2D];
        box_column<T, RMAX, STENCIL_ITEMS_2D>(
            s + ty * STENCIL_ITEMS_2D * W + 32 * b + tx, W, sw, col);
        const int64_t x = x0 + b * 32 + tx;
#pragma unroll
        for (int a = 0; a < STENCIL_ITEMS_2D; a++) {
          const int64_t y = y0 + ty * STENCIL_ITEMS_2D + a;
          if (y < g.ny && x < g.nx)
            g.out[y * g.nx + x] = col[a];
        }
      }
    } else {
      T acc[STENCIL_ITEMS_2D][XI];
#pragma unroll
      for (int a = 0; a < STENCIL_ITEMS_2D; a++)
#pragma unroll
        for (int b = 0; b < XI; b++)
          acc[a][b] = T(0);
      constexpr int UNROLL = R > 0 ? TAPS_MAX : 1;
#pragma unroll UNROLL
      for (int j = 0; j < TAPS_MAX; j++) {
        if (j >= taps)
          break;
        int dx, dy;
        tap_2d<STAR>(j, r, &dx, &dy);
        const T w = sw[(dy + r) * side + dx + r];
        if (w != T(0)) {
#pragma unroll
          for (int a = 0; a < STENCIL_ITEMS_2D; a++) {
            const T *row = s + (a * STENCIL_ROWS_2D + ty + r + dy) * W + r + dx;
#pragma unroll
            for (int b = 0; b < XI; b++)
              acc[a][b] = fma_t(w, row[tx + 32 * b], acc[a][b]);
          }
        }
      }
#pragma unroll
      for (int a = 0; a < STENCIL_ITEMS_2D; a++) {
        const int64_t y = y0 + a * STENCIL_ROWS_2D + ty;
#pragma unroll
        for (int b = 0; b < XI; b++) {
          const int64_t x = x0 + b * 32 + tx;
          if (y < g.ny && x < g.nx)
            g.out[y * g.nx + x] = acc[a][b];
        }
      }
    }
    __syncthreads();
  }
}

/* Full 2-D boxes (conv2d): a thread owns Q = STENCIL_BOX_ROWS consecutive
 * rows of one column and sums them with box_column's window of rows. The
 * tile, 32 x (ROWS x Q) points with its halo, is staged by a flat index
 * over it (all lanes busy). */
template <class T, int R>
__global__ void __launch_bounds__(32 * STENCIL_ROWS_2D, 2)
    stencil_2d_box(StencilGrid<T> g, uint64_t tiles_x, uint64_t tiles) {
  constexpr int THREADS = 32 * STENCIL_ROWS_2D, Q = STENCIL_BOX_ROWS;
  constexpr int SIDE = 2 * R + 1, W = 32 + 2 * R;
  constexpr int H = STENCIL_ROWS_2D * Q + 2 * R;
  constexpr int ROUNDS = (W * H + THREADS - 1) / THREADS;
  __shared__ T s[W * H];
  __shared__ T sw[SIDE * SIDE];
  const int tx = int(threadIdx.x), ty = int(threadIdx.y);
  const int tid = ty * 32 + tx;
  for (int i = tid; i < SIDE * SIDE; i += THREADS)
    sw[i] = g.w[i];
  for (uint64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const int64_t x0 = int64_t(t % tiles_x) * 32;
    const int64_t y0 = int64_t(t / tiles_x) * (STENCIL_ROWS_2D * Q);
    T v[ROUNDS];
#pragma unroll
    for (int k = 0; k < ROUNDS; k++) {
      const int i = k * THREADS + tid;
      v[k] = T(0);
      if (i < W * H) {
        const int64_t y = map_index(y0 - R + i / W, g.ny, g.border);
        const int64_t x = map_index(x0 - R + i % W, g.nx, g.border);
        if (x >= 0 && y >= 0)
          v[k] = g.in[y * g.nx + x];
      }
    }
#pragma unroll
    for (int k = 0; k < ROUNDS; k++) {
      const int i = k * THREADS + tid;
      if (i < W * H)
        s[i] = v[k];
    }
    __syncthreads();
    T acc[Q];
    box_column<T, R, Q>(s + ty * Q * W + tx, W, sw, acc);
    const int64_t x = x0 + tx;
#pragma unroll
    for (int q = 0; q < Q; q++) {
      const int64_t y = y0 + ty * Q + q;
      if (x < g.nx && y < g.ny)
        g.out[y * g.nx + x] = acc[q];
    }
    __syncthreads();
  }
}

/* ---- 3-D ----------------------------------------------------------------- */

constexpr int TX_3D = 32;
/* Points per thread a plane: STENCIL_ITEMS_3D, halved while the ring
 * would pass 48 KiB of static shared memory (f64, r = 2). */
template <class T, int R> __host__ __device__ constexpr int ring_items() {
  int items = STENCIL_ITEMS_3D;
  while (items > 1 && (2 * R + 1) * (32 + 2 * R) *
                              (STENCIL_ROWS_3D * items + 2 * R) *
                              int(sizeof(T)) >
                          48 * 1024 - 1024)
    items /= 2;
  return items;
}

/* Tap j of a 3-D star or box in the contract's order: (dx, dy, dz). A
 * star's: dz = -r .. -1, then the plane's star (as tap_2d), then
 * dz = 1 .. r. */
template <bool STAR, int R>
__device__ __forceinline__ void tap_3d(int j, int *dx, int *dy, int *dz) {
  if (STAR) {
    if (j < R) {
      *dx = *dy = 0;
      *dz = j - R;
    } else if (j < 5 * R + 1) {
      tap_2d<true>(j - R, R, dx, dy);
      *dz = 0;
    } else {
      *dx = *dy = 0;
      *dz = j - 5 * R;
    }
  } else {
    constexpr int side = 2 * R + 1;
    *dx = j % side - R;
    *dy = j / side % side - R;
    *dz = j / (side * side) - R;
  }
}

template <class T, int R, bool STAR>
__global__ void __launch_bounds__(32 * STENCIL_ROWS_3D, STENCIL_MIN_BLOCKS_3D)
    stencil_3d_ring(StencilGrid<T> g, uint64_t tiles_x, uint64_t tiles_y,
                    uint64_t tiles) {
  constexpr int THREADS = 32 * STENCIL_ROWS_3D;
  constexpr int ITEMS = ring_items<T, R>();
  constexpr int TY_3D = STENCIL_ROWS_3D * ITEMS;
  constexpr int PW = TX_3D + 2 * R, PH = TY_3D + 2 * R, PLANE = PW * PH;
  constexpr int ROUNDS = (PLANE + THREADS - 1) / THREADS;
  constexpr int SLOTS = 2 * R + 1, SIDE = 2 * R + 1;
  constexpr int TAPS = STAR ? 6 * R + 1 : SIDE * SIDE * SIDE;
  __shared__ T ring[SLOTS * PLANE];
  __shared__ T sw[SIDE * SIDE * SIDE];
  const int tx = int(threadIdx.x), ty = int(threadIdx.y);
  const int tid = ty * 32 + tx;
  for (int i = tid; i < SIDE * SIDE * SIDE; i += THREADS)
    sw[i] = g.w[i];
  const uint64_t per_layer = tiles_x * tiles_y;
  for (uint64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const int64_t x0 = int64_t(t % tiles_x) * TX_3D;
    const int64_t y0 = int64_t(t / tiles_x % tiles_y) * TY_3D;
    const int64_t z0 = int64_t(t / per_layer) * STENCIL_CHUNK_3D;
    const int64_t z_end =
        z0 + STENCIL_CHUNK_3D < g.nz ? z0 + STENCIL_CHUNK_3D : g.nz;
    /* This thread's part of a plane: its (x, y) in the grid, mapped once
     * for the chunk (-1: outside, zero border). */
    int64_t xy[ROUNDS];
#pragma unroll
    for (int k = 0; k < ROUNDS; k++) {
      const int i = k * THREADS + tid;
      xy[k] = -1;
      if (i < PLANE) {
        const int64_t x = map_index(x0 - R + i % PW, g.nx, g.border);
        const int64_t y = map_index(y0 - R + i / PW, g.ny, g.border);
        if (x >= 0 && y >= 0)
          xy[k] = y * g.nx + x;
      }
    }
    const int64_t plane_stride = g.nx * g.ny;
    /* AHEAD planes in registers on their way: plane z + R + u is fetched
     * into v[u % AHEAD] while planes before it are summed. */
    constexpr int AHEAD = STENCIL_AHEAD_3D;
    T v[AHEAD][ROUNDS];
    /* Plane z of the grid into registers (any z: mapped by the border). */
    auto fetch = [&](int64_t z, T(&buf)[ROUNDS]) {
      const int64_t zm = map_index(z, g.nz, g.border);
#pragma unroll
      for (int k = 0; k < ROUNDS; k++)
        buf[k] = zm >= 0 && xy[k] >= 0 ? g.in[zm * plane_stride + xy[k]] : T(0);
    };
    auto store = [&](int64_t z, const T(&buf)[ROUNDS]) {
      T *p = ring + (int(z - z0) + R) % SLOTS * PLANE;
#pragma unroll
      for (int k = 0; k < ROUNDS; k++) {
        const int i = k * THREADS + tid;
        if (i < PLANE)
          p[i] = buf[k];
      }
    };
    for (int64_t z = z0 - R; z < z0 + R; z++) {
      fetch(z, v[0]);
      store(z, v[0]);
    }
#pragma unroll
    for (int u = 0; u < AHEAD; u++)
      if (z0 + u < z_end)
        fetch(z0 + u + R, v[u]);
    for (int64_t zb = z0; zb < z_end; zb += AHEAD) {
#pragma unroll
      for (int u = 0; u < AHEAD; u++) {
        const int64_t z = zb + u;
        if (z >= z_end) /* the same for the whole block */
          break;
        store(z + R, v[u]);
        __syncthreads();
        if (z + AHEAD < z_end)
          fetch(z + AHEAD + R, v[u]);
        T acc[ITEMS];
#pragma unroll
        for (int a = 0; a < ITEMS; a++)
          acc[a] = T(0);
#pragma unroll
        for (int j = 0; j < TAPS; j++) {
          int dx, dy, dz;
          tap_3d<STAR, R>(j, &dx, &dy, &dz);
          const T w = sw[((dz + R) * SIDE + dy + R) * SIDE + dx + R];
          if (w != T(0)) {
            const T *p = ring + (int(z - z0) + dz + R) % SLOTS * PLANE +
                         (ty + R + dy) * PW + tx + R + dx;
#pragma unroll
            for (int a = 0; a < ITEMS; a++)
              acc[a] = fma_t(w, p[a * STENCIL_ROWS_3D * PW], acc[a]);
          }
        }
        const int64_t x = x0 + tx;
#pragma unroll
        for (int a = 0; a < ITEMS; a++) {
          const int64_t y = y0 + a * STENCIL_ROWS_3D + ty;
          if (x < g.nx && y < g.ny)
            g.out[z * plane_stride + y * g.nx + x] = acc[a];
        }
        __syncthreads();
      }
    }
  }
}

/* ---- any shape, through the caches ----------------------------------------
 */

template <class T>
__global__ void __launch_bounds__(STENCIL_THREADS)
    stencil_direct(StencilGrid<T> g, int dims, uint64_t points) {
  const int r = g.r, side = 2 * r + 1;
  const int rz = dims >= 3 ? r : 0, ry = dims >= 2 ? r : 0;
  for (uint64_t p = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; p < points;
       p += uint64_t(gridDim.x) * blockDim.x) {
    const int64_t x = int64_t(p % uint64_t(g.nx));
    const int64_t y = int64_t(p / uint64_t(g.nx) % uint64_t(g.ny));
    const int64_t z = int64_t(p / (uint64_t(g.nx) * uint64_t(g.ny)));
    T acc = T(0);
    for (int dz = -rz; dz <= rz; dz++) {
      const int64_t zm = map_index(z + dz, g.nz, g.border);
      for (int dy = -ry; dy <= ry; dy++) {
        const int64_t ym = map_index(y + dy, g.ny, g.border);
        const T *w = g.w + ((dz + rz) * side + (dy + ry)) * side + r;
        for (int dx = -r; dx <= r; dx++) {
          const T wt = __ldg(w + dx);
          if (wt == T(0))
            continue;
          const int64_t xm = map_index(x + dx, g.nx, g.border);
          const T v = zm >= 0 && ym >= 0 && xm >= 0
                          ? __ldg(g.in + (zm * g.ny + ym) * g.nx + xm)
                          : T(0);
          acc = fma_t(wt, v, acc);
        }
      }
    }
    g.out[p] = acc;
  }
}

/* ---- dispatch ------------------------------------------------------------ */

unsigned grid_of(prism__cuda_ctx *c, uint64_t tiles, int threads) {
  const uint64_t cap =
      uint64_t(c->sm_count) * uint64_t(c->max_threads_per_sm / threads) * 8;
  return unsigned(tiles < cap ? tiles : (cap > 0 ? cap : 1));
}

template <class T, int R>
void launch_1d(prism__cuda_ctx *c, const StencilGrid<T> &g) {
  constexpr uint64_t TILE = STENCIL_THREADS * STENCIL_ITEMS_1D;
  const uint64_t tiles = (uint64_t(g.nx) + TILE - 1) / TILE;
  stencil_1d<T, R>
      <<<grid_of(c, tiles, STENCIL_THREADS), STENCIL_THREADS, 0, c->stream>>>(
          g, tiles);
}

template <class T, int R, bool STAR>
void launch_2d(prism__cuda_ctx *c, const StencilGrid<T> &g) {
  constexpr uint64_t TX_2D = 32 * cols_2d<T>();
  const uint64_t tiles_x = (uint64_t(g.nx) + TX_2D - 1) / TX_2D;
  const uint64_t tiles_y = (uint64_t(g.ny) + TY_2D - 1) / TY_2D;
  const uint64_t tiles = tiles_x * tiles_y * uint64_t(g.nz);
  const dim3 block(32, STENCIL_ROWS_2D);
  stencil_2d<T, R, STAR>
      <<<grid_of(c, tiles, 32 * STENCIL_ROWS_2D), block, 0, c->stream>>>(
          g, tiles_x, tiles);
}

template <class T, int R, bool STAR>
void launch_3d(prism__cuda_ctx *c, const StencilGrid<T> &g) {
  constexpr int TY_3D = STENCIL_ROWS_3D * ring_items<T, R>();
  const uint64_t tiles_x = (uint64_t(g.nx) + TX_3D - 1) / TX_3D;
  const uint64_t tiles_y = (uint64_t(g.ny) + TY_3D - 1) / TY_3D;
  const uint64_t tiles_z =
      (uint64_t(g.nz) + STENCIL_CHUNK_3D - 1) / STENCIL_CHUNK_3D;
  const uint64_t tiles = tiles_x * tiles_y * tiles_z;
  const dim3 block(32, STENCIL_ROWS_3D);
  stencil_3d_ring<T, R, STAR>
      <<<grid_of(c, tiles, 32 * STENCIL_ROWS_3D), block, 0, c->stream>>>(
          g, tiles_x, tiles_y, tiles);
}

template <class T>
void launch_direct(prism__cuda_ctx *c, const StencilGrid<T> &g, int dims) {
  const uint64_t points = uint64_t(g.nx) * uint64_t(g.ny) * uint64_t(g.nz);
  const uint64_t blocks = (points + STENCIL_THREADS - 1) / STENCIL_THREADS;
  stencil_direct<T>
      <<<grid_of(c, blocks, STENCIL_THREADS), STENCIL_THREADS, 0, c->stream>>>(
          g, dims, points);
}

template <class T, int R>
void launch_2d_box(prism__cuda_ctx *c, const StencilGrid<T> &g) {
  constexpr uint64_t TY = STENCIL_ROWS_2D * STENCIL_BOX_ROWS;
  const uint64_t tiles_x = (uint64_t(g.nx) + 31) / 32;
  const uint64_t tiles_y = (uint64_t(g.ny) + TY - 1) / TY;
  const uint64_t tiles = tiles_x * tiles_y;
  const dim3 block(32, STENCIL_ROWS_2D);
  stencil_2d_box<T, R>
      <<<grid_of(c, tiles, 32 * STENCIL_ROWS_2D), block, 0, c->stream>>>(
          g, tiles_x, tiles);
}

/* Full boxes of radius 3 and more: stencil_2d_box, its radius at compile
 * time; the rest (stars, radius 0, and boxes of radius 1 and 2, whose few
 * taps leave them bound by memory, where stencil_2d's wider tiles measured
 * faster: docs/results/h200-dense.txt) stencil_2d. */
template <class T, bool STAR>
void launch_2d_radius(prism__cuda_ctx *c, const StencilGrid<T> &g) {
  static_assert(PRISM_STENCIL_MAX_RADIUS == 8, "a box kernel per radius");
  if (!STAR) {
    switch (g.r) {
    case 3:
      return launch_2d_box<T, 3>(c, g);
    case 4:
      return launch_2d_box<T, 4>(c, g);
    case 5:
      return launch_2d_box<T, 5>(c, g);
    case 6:
      return launch_2d_box<T, 6>(c, g);
    case 7:
      return launch_2d_box<T, 7>(c, g);
    case 8:
      return launch_2d_box<T, 8>(c, g);
    default:
      break;
    }
  }
  switch (g.r) {
  case 1:
    return launch_2d<T, 1, STAR>(c, g);
  case 2:
    return launch_2d<T, 2, STAR>(c, g);
  case 3:
    return launch_2d<T, 3, STAR>(c, g);
  default:
    return launch_2d<T, 0, STAR>(c, g);
  }
}

template <class T, bool STAR>
void launch_3d_radius(prism__cuda_ctx *c, const StencilGrid<T> &g) {
  static_assert(STENCIL_RING_MAX_R == 2,
                "the ring kernels are made for r 1, 2");
  if (g.r == 1)
    return launch_3d<T, 1, STAR>(c, g);
  return launch_3d<T, 2, STAR>(c, g);
}

template <class T>
prism_status stencil_typed(prism_context *ctx, prism__cuda_ctx *c,
                           const prism__stencil_args *a) {
  StencilGrid<T> g;
  g.in = mem_ptr<const T>(a->in);
  g.out = mem_ptr<T>(a->out);
  g.w = mem_ptr<const T>(a->weights);
  g.nx = int64_t(a->nx);
  g.ny = int64_t(a->ny);
  g.nz = int64_t(a->nz);
  g.r = int(a->radius);
  g.border = int(a->border);
  const char *kernel;
  if (a->dims == 1) {
    kernel = "stencil_1d";
    switch (g.r) {
    case 1:
      launch_1d<T, 1>(c, g);
      break;
    case 2:
      launch_1d<T, 2>(c, g);
      break;
    case 3:
      launch_1d<T, 3>(c, g);
      break;
    default:
      launch_1d<T, 0>(c, g);
    }
  } else if (a->dims == 2) {
    kernel = "stencil_2d";
    if (a->star)
      launch_2d_radius<T, true>(c, g);
    else
      launch_2d_radius<T, false>(c, g);
  } else if (g.r >= 1 && g.r <= STENCIL_RING_MAX_R) {
    kernel = "stencil_3d_ring";
    if (a->star)
      launch_3d_radius<T, true>(c, g);
    else
      launch_3d_radius<T, false>(c, g);
  } else {
    kernel = "stencil_direct";
    launch_direct<T>(c, g, int(a->dims));
  }
  return prism__cuda_check_launch(ctx, kernel);
}

} // namespace
} // namespace prism_cuda

extern "C" prism_status prism__cuda_stencil(prism_context *ctx,
                                            const prism__stencil_args *a) {
  prism__cuda_ctx *c = NULL;
  prism_status st = prism__cuda_enter(ctx, &c);
  if (st != PRISM_OK)
    return st;
  if (a->type == PRISM_F64)
    return prism_cuda::stencil_typed<double>(ctx, c, a);
  return prism_cuda::stencil_typed<float>(ctx, c, a);
}
