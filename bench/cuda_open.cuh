/* SPDX-License-Identifier: MIT */
/*
 * What the bench's own CUDA references (bfs_naive.cu, spmv_ref.cu,
 * dense_ref.cu) do first: find the device, name it and make it current.
 */
#ifndef PRISM_BENCH_CUDA_OPEN_CUH
#define PRISM_BENCH_CUDA_OPEN_CUH

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>

enum class cuda_open { ok, skipped, failed };

/* skipped: no such device (why in msg); failed: the runtime call *what
 * failed with *err (the caller reports it); ok: name holds the device's
 * name and it is current. */
inline cuda_open bench_cuda_open(int device, char *name, size_t name_size,
                                 char *msg, size_t msg_size, cudaError_t *err,
                                 const char **what) {
  int count = 0;
  *err = cudaGetDeviceCount(&count);
  if (*err != cudaSuccess) {
    cudaGetLastError();
    snprintf(msg, msg_size, "no CUDA device (%s)", cudaGetErrorString(*err));
    return cuda_open::skipped;
  }
  if (device < 0 || device >= count) {
    snprintf(msg, msg_size, "no CUDA device %d (%d found)", device, count);
    return cuda_open::skipped;
  }
  cudaDeviceProp prop;
  if ((*err = cudaGetDeviceProperties(&prop, device)) != cudaSuccess) {
    *what = "cudaGetDeviceProperties";
    return cuda_open::failed;
  }
  snprintf(name, name_size, "%s", prop.name);
  if ((*err = cudaSetDevice(device)) != cudaSuccess) {
    *what = "cudaSetDevice";
    return cuda_open::failed;
  }
  return cuda_open::ok;
}

#endif /* PRISM_BENCH_CUDA_OPEN_CUH */
