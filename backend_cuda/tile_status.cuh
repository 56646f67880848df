/*
 * Tile status for the decoupled look-back scan (Merrill & Garland 2016), and
 * the look-back itself.
 *
 * Layout (the OpenCL port uses the same, for every type): three arrays in
 * scratch, indexed by tile id,
 *   status_flag[]       uint32: 0 = empty, 1 = aggregate, 2 = prefix
 *   status_aggregate[]  T: the tile's own total          (valid at flag >= 1)
 *   status_prefix[]     T: the total of tiles 0..tile     (valid at flag == 2)
 * A flag only grows, and a value is written once, before its flag. The
 * writer stores the value, fences, then stores the flag; the reader loads
 * the flag, fences, then loads the value. Flags and values go through
 * volatile accesses, which skip the SM's L1 (not coherent across SMs).
 */
#ifndef PRISM_BACKEND_CUDA_TILE_STATUS_CUH
#define PRISM_BACKEND_CUDA_TILE_STATUS_CUH

#include "block.cuh"

#include <cuda/atomic>

namespace prism_cuda {

enum : unsigned {
  STATUS_EMPTY = 0,
  STATUS_AGGREGATE = 1,
  STATUS_PREFIX = 2,
};

/* Orders the value before the flag (writer) and the flag before the value
 * (reader). A device-scope acquire-release fence is all this message passing
 * needs, and is lighter than __threadfence (a sequentially consistent
 * fence). */
__device__ __forceinline__ void status_fence() {
  cuda::atomic_thread_fence(cuda::memory_order_acq_rel,
                            cuda::thread_scope_device);
}

template <class T> __device__ __forceinline__ T load_volatile(const T *p) {
  return *reinterpret_cast<const volatile T *>(p);
}

template <class T> __device__ __forceinline__ void store_volatile(T *p, T v) {
  *reinterpret_cast<volatile T *>(p) = v;
}

template <class T> struct TileStatus {
  unsigned *flag;
  T *aggregate;
  T *prefix;

  /* One thread publishes a tile's aggregate or inclusive prefix. */
  __device__ __forceinline__ void publish(unsigned tile, unsigned kind,
                                          T value) const {
    store_volatile((kind == STATUS_PREFIX ? prefix : aggregate) + tile, value);
    status_fence();
    store_volatile(flag + tile, kind);
  }
};

/*
 * Called by one whole warp of the block that owns tile, once its aggregate
 * is known. Publishes the aggregate, walks back over the predecessors 32 at
 * a time (lane i reads tile - 1 - i), adding their aggregates until it meets
 * an inclusive prefix, publishes this tile's inclusive prefix and returns
 * the exclusive one (the same in every lane). Tile 0 publishes its prefix at
 * once. spin_ns: back-off between polls of a window with empty tiles.
 */
template <class Op, class T>
__device__ T lookback(const TileStatus<T> &status, unsigned tile, T aggregate,
                      unsigned spin_ns) {
  const int lane = lane_id();
  if (tile == 0) {
    if (lane == 0)
      status.publish(0, STATUS_PREFIX, aggregate);
    return Op::identity();
  }
  if (lane == 0)
    status.publish(tile, STATUS_AGGREGATE, aggregate);

  T exclusive = Op::identity();
  bool first_window = true;
  long long pred = (long long)tile - 1 - lane;
  for (;;) {
    // Before tile 0 there is nothing to add; a prefix flag stops the walk.
    unsigned flag = STATUS_PREFIX;
    if (pred >= 0)
      flag = load_volatile(status.flag + pred);
    // Lanes up to the nearest prefix (the lowest such lane) count; those
    // beyond are covered by it, so only counted lanes are waited for.
    unsigned prefixes, counted;
    for (;;) {
      prefixes = __ballot_sync(FULL_MASK, flag == STATUS_PREFIX);
      counted = ((prefixes & (0u - prefixes)) << 1) - 1u; // all if none
      if (!(__ballot_sync(FULL_MASK, flag == STATUS_EMPTY) & counted))
        break;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
      if (spin_ns)
        __nanosleep(spin_ns);
#endif
      if (flag == STATUS_EMPTY)
        flag = load_volatile(status.flag + pred);
    }
    status_fence();

    T value = Op::identity();
    if ((counted >> lane) & 1u && pred >= 0)
      value = load_volatile(
          (flag == STATUS_PREFIX ? status.prefix : status.aggregate) + pred);
    T window = warp_reduce<Op>(value);
    // The window lies before the tiles gathered so far.
    exclusive = first_window ? window : Op::apply(window, exclusive);
    first_window = false;
    if (prefixes)
      break;
    pred -= WARP_THREADS;
  }
  if (lane == 0)
    status.publish(tile, STATUS_PREFIX, Op::apply(exclusive, aggregate));
  return exclusive;
}

} // namespace prism_cuda

#endif /* PRISM_BACKEND_CUDA_TILE_STATUS_CUH */
