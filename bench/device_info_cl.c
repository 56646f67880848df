/* SPDX-License-Identifier: MIT */
/* device_info.h for OpenCL: the bench asks the ICD loader itself. */
#define CL_TARGET_OPENCL_VERSION 120
#include "device_info.h"

#if defined(__APPLE__)
#include <OpenCL/cl.h>
#else
#include <CL/cl.h>
#endif

#include <stdio.h>
#include <string.h>

#define MAX_PLATFORMS 16
#define MAX_DEVICES 64

static void platform_text(cl_platform_id p, cl_platform_info what, char *buf,
                          size_t size) {
  if (clGetPlatformInfo(p, what, size, buf, NULL) != CL_SUCCESS)
    buf[0] = '\0';
  buf[size - 1] = '\0';
}

static void device_text(cl_device_id d, cl_device_info what, char *buf,
                        size_t size) {
  if (clGetDeviceInfo(d, what, size, buf, NULL) != CL_SUCCESS)
    buf[0] = '\0';
  buf[size - 1] = '\0';
}

static cl_uint platforms(cl_platform_id *ids) {
  cl_uint count = 0;
  if (clGetPlatformIDs(MAX_PLATFORMS, ids, &count) != CL_SUCCESS)
    return 0;
  return count > MAX_PLATFORMS ? MAX_PLATFORMS : count;
}

/* Every device of the platform, as prism counts them (CL_DEVICE_TYPE_ALL,
 * in the driver's order). */
static cl_uint devices(cl_platform_id p, cl_device_id *ids) {
  cl_uint count = 0;
  if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, MAX_DEVICES, ids, &count) !=
      CL_SUCCESS)
    return 0;
  return count > MAX_DEVICES ? MAX_DEVICES : count;
}

static void fill(cl_platform_id p, cl_device_id d, device_info *info) {
  cl_device_type type = 0;
  cl_uint units = 0;
  cl_ulong mem = 0, cache = 0;
  platform_text(p, CL_PLATFORM_VERSION, info->platform_version,
                sizeof info->platform_version);
  device_text(d, CL_DEVICE_VERSION, info->device_version,
              sizeof info->device_version);
  device_text(d, CL_DRIVER_VERSION, info->driver_version,
              sizeof info->driver_version);
  if (clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, NULL) ==
      CL_SUCCESS)
    info->is_gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
  if (clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units,
                      NULL) == CL_SUCCESS)
    info->compute_units = units;
  if (clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem, NULL) ==
      CL_SUCCESS)
    info->global_mem_bytes = mem;
  if (clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof cache, &cache,
                      NULL) == CL_SUCCESS &&
      cache) {
    info->cache_bytes = cache;
    snprintf(info->cache_source, sizeof info->cache_source,
             "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE");
  }
}

/* prism names the context's platform and device; the index tells two
 * devices of one name apart. */
int device_info_opencl(int device, device_info *info) {
  cl_platform_id pids[MAX_PLATFORMS];
  cl_uint np = platforms(pids);
  for (cl_uint p = 0; p < np; p++) {
    char name[DEVICE_INFO_TEXT];
    platform_text(pids[p], CL_PLATFORM_NAME, name, sizeof name);
    if (strcmp(name, info->platform) != 0)
      continue;
    cl_device_id dids[MAX_DEVICES];
    cl_uint nd = devices(pids[p], dids);
    int match = -1;
    for (cl_uint d = 0; d < nd; d++) {
      device_text(dids[d], CL_DEVICE_NAME, name, sizeof name);
      if (strcmp(name, info->name) == 0 && (match < 0 || (int)d == device))
        match = (int)d;
    }
    if (match >= 0) {
      fill(pids[p], dids[match], info);
      return 1;
    }
  }
  return 0;
}

static void list_device(int index, cl_platform_id p, cl_device_id d,
                        FILE *out) {
  device_info info;
  memset(&info, 0, sizeof info);
  device_text(d, CL_DEVICE_NAME, info.name, sizeof info.name);
  fill(p, d, &info);
  fprintf(
      out, "    --device %d: %s (%s, %u compute units, %.1f GiB, driver %s)\n",
      index, info.name, info.is_gpu ? "GPU" : "not a GPU", info.compute_units,
      (double)info.global_mem_bytes / (1u << 30), info.driver_version);
}

int device_info_opencl_list(FILE *out) {
  cl_platform_id pids[MAX_PLATFORMS];
  cl_uint np = platforms(pids);
  int total = 0;
  if (np == 0) {
    fprintf(out, " no platform (is an ICD installed under "
                 "/etc/OpenCL/vendors?)\n");
    return 0;
  }
  fprintf(out, " %u platform%s\n", np, np == 1 ? "" : "s");
  for (cl_uint p = 0; p < np; p++) {
    char name[DEVICE_INFO_TEXT], version[DEVICE_INFO_TEXT];
    cl_device_id dids[MAX_DEVICES];
    cl_uint nd = devices(pids[p], dids);
    platform_text(pids[p], CL_PLATFORM_NAME, name, sizeof name);
    platform_text(pids[p], CL_PLATFORM_VERSION, version, sizeof version);
    fprintf(out,
            "  --backend opencl --opencl-platform %u: %s (%s), %u device%s\n",
            p, name, version, nd, nd == 1 ? "" : "s");
    for (cl_uint d = 0; d < nd; d++)
      list_device((int)d, pids[p], dids[d], out);
    total += (int)nd;
  }
  return total;
}
