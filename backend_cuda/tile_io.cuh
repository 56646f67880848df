/* SPDX-License-Identifier: MIT */
/*
 * Tile loads and stores in "blocked" order: thread t of a block owns ITEMS
 * consecutive elements [t * ITEMS, (t + 1) * ITEMS) of the tile, which the
 * thread-serial part of a scan wants, while global memory is read and written
 * "striped" (consecutive lanes, consecutive 16-byte vectors), which DRAM
 * wants. Each warp converts between the two through its own slice of shared
 * memory, so only __syncwarp is needed, never a block barrier.
 *
 * A warp owns 32 * ITEMS consecutive elements of the tile and touches no
 * other, and loads all of them before it stores any: scans in place are safe.
 */
#ifndef PRISM_BACKEND_CUDA_TILE_IO_CUH
#define PRISM_BACKEND_CUDA_TILE_IO_CUH

#include "block.cuh"
#include "ops.cuh"

namespace prism_cuda {

template <class T, int ITEMS> struct WarpTile {
  static constexpr int WARP_ITEMS = WARP_THREADS * ITEMS;
  // One pad element per 128 bytes (32 banks x 4 bytes): each row of the
  // slice starts one bank later than the one before, which makes the
  // striped vector accesses and the blocked per-thread accesses free of bank
  // conflicts for 4- and 8-byte T with 64 bytes of items per thread.
  static constexpr int PAD_EVERY = 128 / int(sizeof(T));
  static constexpr int SMEM_ITEMS = WARP_ITEMS + WARP_ITEMS / PAD_EVERY;
  static_assert(ITEMS % Vec16<T>::N == 0, "items must fill whole vectors");

  static __device__ __forceinline__ int slot(int i) {
    return i + i / PAD_EVERY;
  }

  /* Loads the warp's elements src[0, valid) into items (blocked); the rest
   * of items get fill. vec: src is 16-byte aligned and valid is the whole
   * warp's share, so 128-bit loads can be used. Callers decide vec from
   * the actual base pointer (a view is only element-aligned): a warp's
   * slice starts WARP_ITEMS * sizeof(T), a multiple of 16 bytes, after
   * the tile's, so an aligned base gives aligned slices; src itself needs
   * only T's alignment when vec is false. */
  static __device__ __forceinline__ void
  load(const T *src, int valid, bool vec, T fill, T *smem, T (&items)[ITEMS]) {
    using V = Vec16<T>;
    const int lane = lane_id();
    __syncwarp(); // a previous store's striped reads of smem are done
    if (vec) {
      const V *vsrc = reinterpret_cast<const V *>(src);
#pragma unroll
      for (int k = 0; k < ITEMS / V::N; ++k) {
        const int v = k * WARP_THREADS + lane;
        V x = vsrc[v];
#pragma unroll
        for (int c = 0; c < V::N; ++c)
          smem[slot(v * V::N + c)] = x.v[c];
      }
    } else {
#pragma unroll
      for (int k = 0; k < ITEMS; ++k) {
        const int i = k * WARP_THREADS + lane;
        smem[slot(i)] = i < valid ? src[i] : fill;
      }
    }
    __syncwarp();
#pragma unroll
    for (int j = 0; j < ITEMS; ++j)
      items[j] = smem[slot(lane * ITEMS + j)];
  }

  /* Stores items (blocked) to dst[0, valid); vec as for load (dst
   * 16-byte aligned). */
  static __device__ __forceinline__ void
  store(T *dst, int valid, bool vec, T *smem, const T (&items)[ITEMS]) {
    using V = Vec16<T>;
    const int lane = lane_id();
    __syncwarp(); // the load's blocked reads of smem are done
#pragma unroll
    for (int j = 0; j < ITEMS; ++j)
      smem[slot(lane * ITEMS + j)] = items[j];
    __syncwarp();
    if (vec) {
      V *vdst = reinterpret_cast<V *>(dst);
#pragma unroll
      for (int k = 0; k < ITEMS / V::N; ++k) {
        const int v = k * WARP_THREADS + lane;
        V x;
#pragma unroll
        for (int c = 0; c < V::N; ++c)
          x.v[c] = smem[slot(v * V::N + c)];
        vdst[v] = x;
      }
    } else {
#pragma unroll
      for (int k = 0; k < ITEMS; ++k) {
        const int i = k * WARP_THREADS + lane;
        if (i < valid)
          dst[i] = smem[slot(i)];
      }
    }
  }
};

} // namespace prism_cuda

#endif /* PRISM_BACKEND_CUDA_TILE_IO_CUH */
