/* SPDX-License-Identifier: MIT */
/*
 * What prism-bench tells about a device beyond prism's own accessors: the
 * full name, driver and runtime versions, the last-level cache (which says
 * where %copy means something), and the tuning policy taken. The public API
 * names the device and the platform only, so the bench asks the drivers
 * itself: OpenCL (device_info_cl.c) and CUDA (device_info_cuda.cu), each
 * built only with its backend. Also --list-devices.
 */
#ifndef PRISM_BENCH_DEVICE_INFO_H
#define PRISM_BENCH_DEVICE_INFO_H

#include "prism.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DEVICE_INFO_TEXT 256

typedef struct device_info {
  char backend[16];                /* "cuda", "opencl" */
  char name[DEVICE_INFO_TEXT];     /* as prism reports it */
  char platform[DEVICE_INFO_TEXT]; /* as prism reports it */
  /* The device as a person would name it: PoCL's device name is the LLVM
   * target ("pthread-skylake-avx512-..."), so on PoCL CPU devices this is
   * the host CPU's model name from /proc/cpuinfo; elsewhere the name. */
  char full_name[DEVICE_INFO_TEXT];
  char platform_version[DEVICE_INFO_TEXT]; /* CL_PLATFORM_VERSION (PoCL's
                                              names its version and LLVM) */
  char device_version[DEVICE_INFO_TEXT];   /* CL_DEVICE_VERSION; CUDA:
                                              "compute capability 9.0" */
  char driver_version[DEVICE_INFO_TEXT];   /* CL_DRIVER_VERSION; CUDA: the
                                              driver's CUDA version */
  char runtime_version[DEVICE_INFO_TEXT];  /* CUDA runtime; "" for OpenCL */
  unsigned compute_units;                  /* CUs or SMs; 0 unknown */
  unsigned long long global_mem_bytes;     /* 0 unknown */
  unsigned long long cache_bytes;          /* last-level cache; 0 unknown */
  char cache_source[64];                   /* which query gave cache_bytes */
  int is_cpu, is_gpu;
  /* The tuning policy (prism_context_policy): OpenCL "gpu" or "cpu",
   * CUDA "cuda"; policy_source says whether the environment forced it. */
  char policy[16];
  char policy_source[128];
} device_info;

/* Fill info for ctx. device: the index the context was opened with (within
 * its backend, or its OpenCL platform), which tells identical devices
 * apart. What a driver does not tell stays empty or 0. */
void device_info_fill(prism_context *ctx, int device, device_info *info);

/* --list-devices: every backend, platform and device the bench can open,
 * with the indices --backend, --opencl-platform and --device take. Returns
 * the number of devices listed. */
int device_info_list(FILE *out);

/* ---- Per backend (device_info_cl.c, device_info_cuda.cu) ---- */

/* Fill info's driver fields for the OpenCL device that platform and name
 * (already in info) and device index say; 0 if none matched. */
int device_info_opencl(int device, device_info *info);
/* List OpenCL platforms and devices; returns the devices. */
int device_info_opencl_list(FILE *out);

/* The same for CUDA device `device`. */
int device_info_cuda(int device, device_info *info);
int device_info_cuda_list(FILE *out);
/* The L2 of the CUDA device called name (0: none), for NVIDIA's OpenCL
 * devices, whose global memory cache is reported smaller (device_info.c). */
unsigned long long device_info_cuda_l2(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* PRISM_BENCH_DEVICE_INFO_H */
