/* SPDX-License-Identifier: MIT */
/*
 * Transpose (core/backend.h, prism__transpose_args): out[b][c][r] =
 * in[b][r][c], elements of 1, 2, 4 or 8 bytes moved bit for bit.
 *
 * transpose_tiles: a block moves one tile of tr x tc elements (powers of
 * two, tr * tc = TRANSPOSE_TILE) at a time through shared memory:
 *   1. the tile's rows are read, thread i taking the tile's elements i,
 *      i + THREADS, ... in row-major order, so a warp reads consecutive
 *      elements of a row (a whole row and the next ones when tc is small:
 *      a tall, skinny matrix's tile is one contiguous stretch);
 *   2. and written in the output's row-major order (the input's columns),
 *      so a warp writes consecutive elements of an output row.
 * Rows of the tile are padded to an odd number of words, so reading a
 * column of it touches as many banks as there are lanes. The tile is square
 * (SIDE x SIDE) unless a side of the matrix is shorter; then the short side is
 * covered whole and the long one takes the rest of the tile, which keeps
 * both sides' accesses contiguous for 3 x 10^8 and 10^8 x 3 alike.
 * Matrices of one row or one column are the same bytes transposed:
 * core copies them.
 */
#include "cuda_internal.h"
#include "tuning.cuh"

#include <stdint.h>

namespace prism_cuda {
namespace {

constexpr int TRANSPOSE_ROUNDS = TRANSPOSE_TILE / TRANSPOSE_THREADS;
/* Rows are padded to an odd number of 32-bit words (1-byte elements by
 * 4, 2-byte by 2, others by one element), so the lanes reading a column
 * of the tile, one row each, hit different banks; with tc >= 2, a tile
 * takes at most TILE + pad * TILE / 2 elements. */
template <class E> __host__ __device__ constexpr int row_pad() {
  return sizeof(E) < 4 ? int(4 / sizeof(E)) : 1;
}
template <class E> __host__ __device__ constexpr int tile_shared() {
  return TRANSPOSE_TILE + row_pad<E>() * TRANSPOSE_TILE / 2;
}

/* Element i of a tile's pass, as (major, minor) in a layout whose minor
 * side is 1 << log_minor. */
struct TileIndex {
  int major, minor;
};

__device__ __forceinline__ TileIndex tile_index(int i, int log_minor) {
  return {i >> log_minor, i & ((1 << log_minor) - 1)};
}

template <class E>
__global__ void __launch_bounds__(TRANSPOSE_THREADS, TRANSPOSE_MIN_BLOCKS)
    transpose_tiles(const E *__restrict__ in, E *__restrict__ out,
                    uint64_t rows, uint64_t cols, int log_tr, int log_tc,
                    uint64_t tiles_r, uint64_t tiles_c, uint64_t tiles) {
  __shared__ E tile[tile_shared<E>()];
  const int stride = (1 << log_tc) + row_pad<E>();
  const int tid = int(threadIdx.x);
  const uint64_t per_matrix = tiles_r * tiles_c;
  for (uint64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const uint64_t b = t / per_matrix, in_matrix = t % per_matrix;
    const uint64_t r0 = in_matrix / tiles_c << log_tr;
    const uint64_t c0 = in_matrix % tiles_c << log_tc;
    /* The tile's corner in both matrices, and how much of it is inside. */
    const E *src = in + b * rows * cols + r0 * cols + c0;
    E *dst = out + b * rows * cols + c0 * rows + r0;
    const int nr =
        int(rows - r0 < (uint64_t(1) << log_tr) ? rows - r0 : 1u << log_tr);
    const int nc =
        int(cols - c0 < (uint64_t(1) << log_tc) ? cols - c0 : 1u << log_tc);
    E v[TRANSPOSE_ROUNDS];
#pragma unroll
    for (int k = 0; k < TRANSPOSE_ROUNDS; k++) {
      const TileIndex e = tile_index(k * TRANSPOSE_THREADS + tid, log_tc);
      if (e.major < nr && e.minor < nc)
        v[k] = src[uint64_t(e.major) * cols + unsigned(e.minor)];
    }
#pragma unroll
    for (int k = 0; k < TRANSPOSE_ROUNDS; k++) {
      const TileIndex e = tile_index(k * TRANSPOSE_THREADS + tid, log_tc);
      if (e.major < nr && e.minor < nc)
        tile[e.major * stride + e.minor] = v[k];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TRANSPOSE_ROUNDS; k++) {
      /* Output row e.major is the tile's column, e.minor its row. */
      const TileIndex e = tile_index(k * TRANSPOSE_THREADS + tid, log_tr);
      if (e.major < nc && e.minor < nr)
        dst[uint64_t(e.major) * rows + unsigned(e.minor)] =
            tile[e.minor * stride + e.major];
    }
    __syncthreads();
  }
}

template <class E>
prism_status transpose_typed(prism_context *ctx, prism__cuda_ctx *c,
                             const prism__transpose_args *a) {
  int log_tr, log_tc;
  prism__transpose_shape(a->rows, a->cols, prism__log2_floor(TRANSPOSE_TILE),
                         prism__log2_floor(TRANSPOSE_SIDE), &log_tr, &log_tc);
  const uint64_t tiles_r = (a->rows + (uint64_t(1) << log_tr) - 1) >> log_tr;
  const uint64_t tiles_c = (a->cols + (uint64_t(1) << log_tc) - 1) >> log_tc;
  const uint64_t tiles = tiles_r * tiles_c * a->batch;
  const uint64_t cap = uint64_t(c->sm_count) * 64;
  const unsigned blocks = unsigned(tiles < cap ? tiles : cap);
  transpose_tiles<E><<<blocks, TRANSPOSE_THREADS, 0, c->stream>>>(
      mem_ptr<const E>(a->in), mem_ptr<E>(a->out), a->rows, a->cols, log_tr,
      log_tc, tiles_r, tiles_c, tiles);
  return prism__cuda_check_launch(ctx, "transpose_tiles");
}

} // namespace
} // namespace prism_cuda

extern "C" prism_status prism__cuda_transpose(prism_context *ctx,
                                              const prism__transpose_args *a) {
  prism__cuda_ctx *c = NULL;
  prism_status st = prism__cuda_enter(ctx, &c);
  if (st != PRISM_OK)
    return st;
  switch (a->element_size) {
  case 1:
    return prism_cuda::transpose_typed<uint8_t>(ctx, c, a);
  case 2:
    return prism_cuda::transpose_typed<uint16_t>(ctx, c, a);
  case 4:
    return prism_cuda::transpose_typed<uint32_t>(ctx, c, a);
  default:
    return prism_cuda::transpose_typed<uint64_t>(ctx, c, a);
  }
}
