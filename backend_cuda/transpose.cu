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
 * 1-, 2- and 4-byte elements move as words where core/backend.h's
 * prism__transpose_pack says they can (4 or 2 elements to a 32-bit word,
 * 2 to a 64-bit one): the matrix is one of w x w blocks, a block's w words
 * are read from w consecutive rows, transposed in registers (byte
 * permutes, shifts) into the words of w consecutive output rows, and the
 * blocks then move through the tile as one-word elements do. Matrices of
 * one row or one column are the same bytes transposed: core copies them.
 */
#include "cuda_internal.h"
#include "tuning.cuh"

#include <stdint.h>

namespace prism_cuda {
namespace {

/* Rows are padded to an odd number of 32-bit words (1-byte elements by
 * 4, 2-byte by 2, others by one element), so the lanes reading a column
 * of the tile, one row each, hit different banks; with tc >= 2, a tile
 * takes at most TILE + pad * TILE / 2 elements. */
template <class E> __host__ __device__ constexpr int row_pad() {
  return sizeof(E) < 4 ? int(4 / sizeof(E)) : 1;
}

/* The moving unit: V words of type W, one from each of V consecutive rows
 * (V = 1: a single element of any size, W the element; V = 2 or 4: a V x
 * V block of 4-, 2- or 1-byte elements, core/backend.h's packed path), and
 * the tile shape for it: TILE units through a tile of SIDE x SIDE. */
template <class W, int V> struct Unit {
  static constexpr int TILE = V == 1 ? TRANSPOSE_TILE : TRANSPOSE_PACKED_TILE;
  static constexpr int SIDE = V == 1 ? TRANSPOSE_SIDE : TRANSPOSE_PACKED_SIDE;
  static constexpr int ROUNDS = TILE / TRANSPOSE_THREADS;
  static constexpr int SHARED = TILE + row_pad<W>() * TILE / 2;
};

/* A V x V block of elements given as its V rows' words into its V
 * columns' words: out[k] holds element k of each in[j], j in order
 * (little-endian words: element k is the word's k-th in memory order). */
__device__ __forceinline__ void block_transpose(const uint32_t (&in)[2],
                                                uint32_t (&out)[2]) {
  out[0] = __byte_perm(in[0], in[1], 0x5410);
  out[1] = __byte_perm(in[0], in[1], 0x7632);
}

__device__ __forceinline__ void block_transpose(const uint32_t (&in)[4],
                                                uint32_t (&out)[4]) {
  const uint32_t lo01 = __byte_perm(in[0], in[1], 0x5140);
  const uint32_t lo23 = __byte_perm(in[2], in[3], 0x5140);
  const uint32_t hi01 = __byte_perm(in[0], in[1], 0x7362);
  const uint32_t hi23 = __byte_perm(in[2], in[3], 0x7362);
  out[0] = __byte_perm(lo01, lo23, 0x5410);
  out[1] = __byte_perm(lo01, lo23, 0x7632);
  out[2] = __byte_perm(hi01, hi23, 0x5410);
  out[3] = __byte_perm(hi01, hi23, 0x7632);
}

__device__ __forceinline__ void block_transpose(const uint64_t (&in)[2],
                                                uint64_t (&out)[2]) {
  out[0] = (in[0] & 0xffffffffu) | in[1] << 32;
  out[1] = in[0] >> 32 | (in[1] & ~uint64_t(0xffffffffu));
}

template <class W>
__device__ __forceinline__ void block_transpose(const W (&in)[1], W (&out)[1]) {
  out[0] = in[0];
}

/* Element i of a tile's pass, as (major, minor) in a layout whose minor
 * side is 1 << log_minor. */
struct TileIndex {
  int major, minor;
};

__device__ __forceinline__ TileIndex tile_index(int i, int log_minor) {
  return {i >> log_minor, i & ((1 << log_minor) - 1)};
}

/* rows x cols units (of the matrix of V x V blocks when V > 1: rows / V x
 * cols / V, a row of them cols words long); unit (r, c) is the words
 * in[(V r + j) cols + c], j < V, and goes to out[(V c + k) rows + r]. */
template <class W, int V>
__global__ void __launch_bounds__(TRANSPOSE_THREADS, TRANSPOSE_MIN_BLOCKS)
    transpose_tiles(const W *__restrict__ in, W *__restrict__ out,
                    uint64_t rows, uint64_t cols, int log_tr, int log_tc,
                    uint64_t tiles_r, uint64_t tiles_c, uint64_t tiles) {
  using U = Unit<W, V>;
  __shared__ W tile[V][U::SHARED];
  const int stride = (1 << log_tc) + row_pad<W>();
  const int tid = int(threadIdx.x);
  const uint64_t per_matrix = tiles_r * tiles_c;
  for (uint64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const uint64_t b = t / per_matrix, in_matrix = t % per_matrix;
    const uint64_t r0 = in_matrix / tiles_c << log_tr;
    const uint64_t c0 = in_matrix % tiles_c << log_tc;
    /* The tile's corner in both matrices, and how much of it is inside. */
    const W *src = in + (b * rows * cols + r0 * cols) * V + c0;
    W *dst = out + (b * rows * cols + c0 * rows) * V + r0;
    const int nr =
        int(rows - r0 < (uint64_t(1) << log_tr) ? rows - r0 : 1u << log_tr);
    const int nc =
        int(cols - c0 < (uint64_t(1) << log_tc) ? cols - c0 : 1u << log_tc);
    W v[U::ROUNDS][V];
#pragma unroll
    for (int k = 0; k < U::ROUNDS; k++) {
      const TileIndex e = tile_index(k * TRANSPOSE_THREADS + tid, log_tc);
      if (e.major < nr && e.minor < nc)
#pragma unroll
        for (int j = 0; j < V; j++)
          v[k][j] = src[(uint64_t(e.major) * V + j) * cols + unsigned(e.minor)];
    }
#pragma unroll
    for (int k = 0; k < U::ROUNDS; k++) {
      const TileIndex e = tile_index(k * TRANSPOSE_THREADS + tid, log_tc);
      W w[V];
      block_transpose(v[k], w);
      if (e.major < nr && e.minor < nc)
#pragma unroll
        for (int j = 0; j < V; j++)
          tile[j][e.major * stride + e.minor] = w[j];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < U::ROUNDS; k++) {
      /* Output row e.major is the tile's column, e.minor its row. */
      const TileIndex e = tile_index(k * TRANSPOSE_THREADS + tid, log_tr);
      if (e.major < nc && e.minor < nr)
#pragma unroll
        for (int j = 0; j < V; j++)
          dst[(uint64_t(e.major) * V + j) * rows + unsigned(e.minor)] =
              tile[j][e.minor * stride + e.major];
    }
    __syncthreads();
  }
}

/* The launch for units W, V: a tile shape from core, a grid of at most 64
 * blocks per SM looping over the tiles. */
template <class W, int V>
prism_status transpose_typed(prism_context *ctx, prism__cuda_ctx *c,
                             const prism__transpose_args *a) {
  using U = Unit<W, V>;
  const prism__transpose_plan p = prism__transpose_plan_of(
      a, V, prism__log2_floor(U::TILE), prism__log2_floor(U::SIDE));
  const uint64_t cap = uint64_t(c->sm_count) * 64;
  const unsigned blocks = unsigned(p.tiles < cap ? p.tiles : cap);
  transpose_tiles<W, V><<<blocks, TRANSPOSE_THREADS, 0, c->stream>>>(
      mem_ptr<const W>(a->in), mem_ptr<W>(a->out), p.rows, p.cols, p.log_tr,
      p.log_tc, p.tiles_r, p.tiles_c, p.tiles);
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
  using namespace prism_cuda;
  if (prism__transpose_pack(a, (uintptr_t)prism__cuda_ptr(a->in),
                            (uintptr_t)prism__cuda_ptr(a->out)) > 1) {
    switch (a->element_size) {
    case 1:
      return transpose_typed<uint32_t, 4>(ctx, c, a);
    case 2:
      return transpose_typed<uint32_t, 2>(ctx, c, a);
    default:
      return transpose_typed<uint64_t, 2>(ctx, c, a);
    }
  }
  switch (a->element_size) {
  case 1:
    return transpose_typed<uint8_t, 1>(ctx, c, a);
  case 2:
    return transpose_typed<uint16_t, 1>(ctx, c, a);
  case 4:
    return transpose_typed<uint32_t, 1>(ctx, c, a);
  default:
    return transpose_typed<uint64_t, 1>(ctx, c, a);
  }
}
