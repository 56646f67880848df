/* SPDX-License-Identifier: MIT */
/* device_info.h for CUDA: the runtime's and the driver's versions and the
 * device's properties, asked of the CUDA runtime. */
#include "device_info.h"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

namespace {

/* CUDA's version numbers are 1000 * major + 10 * minor. */
void version_text(int v, char *buf, size_t size) {
  if (v <= 0)
    snprintf(buf, size, "none");
  else
    snprintf(buf, size, "%d.%d", v / 1000, (v % 1000) / 10);
}

void versions(device_info *info) {
  int runtime = 0, driver = 0;
  char r[32], d[32];
  cudaRuntimeGetVersion(&runtime);
  cudaDriverGetVersion(&driver);
  version_text(runtime, r, sizeof r);
  version_text(driver, d, sizeof d);
  snprintf(info->runtime_version, sizeof info->runtime_version,
           "CUDA runtime %s", r);
  /* The driver API reports the newest CUDA it supports, not its own
   * release number (which needs NVML). */
  snprintf(info->driver_version, sizeof info->driver_version,
           "supports CUDA %s", d);
}

bool properties(int device, device_info *info, cudaDeviceProp *prop) {
  if (cudaGetDeviceProperties(prop, device) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  int l2 = 0;
  if (cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device) !=
      cudaSuccess) {
    cudaGetLastError();
    l2 = 0;
  }
  snprintf(info->device_version, sizeof info->device_version,
           "compute capability %d.%d", prop->major, prop->minor);
  info->compute_units = unsigned(prop->multiProcessorCount);
  info->global_mem_bytes = prop->totalGlobalMem;
  info->cache_bytes = unsigned(l2);
  if (l2 > 0)
    snprintf(info->cache_source, sizeof info->cache_source,
             "cudaDevAttrL2CacheSize");
  return true;
}

} // namespace

extern "C" int device_info_cuda(int device, device_info *info) {
  cudaDeviceProp prop;
  versions(info);
  if (!properties(device, info, &prop))
    return 0;
  snprintf(info->full_name, sizeof info->full_name, "%s", prop.name);
  return 1;
}

extern "C" unsigned long long device_info_cuda_l2(const char *name) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  for (int d = 0; d < count; d++) {
    cudaDeviceProp prop;
    device_info info;
    memset(&info, 0, sizeof info);
    if (properties(d, &info, &prop) && strcmp(prop.name, name) == 0)
      return info.cache_bytes;
  }
  return 0;
}

extern "C" int device_info_cuda_list(FILE *out) {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    fprintf(out, " no device (%s)\n", cudaGetErrorString(err));
    cudaGetLastError();
    return 0;
  }
  device_info info;
  memset(&info, 0, sizeof info);
  versions(&info);
  fprintf(out, " %d device%s, %s, %s\n", count, count == 1 ? "" : "s",
          info.runtime_version, info.driver_version);
  for (int d = 0; d < count; d++) {
    cudaDeviceProp prop;
    if (!properties(d, &info, &prop))
      continue;
    fprintf(out, "  --backend cuda --device %d: %s (%s, %u SMs, %.1f GiB)\n", d,
            prop.name, info.device_version, info.compute_units,
            double(info.global_mem_bytes) / (1u << 30));
  }
  return count;
}
