/* SPDX-License-Identifier: MIT */
#include "device_info.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The host CPU's model name, as /proc/cpuinfo's "model name" gives it
 * (x86; other hosts may have none), or "". */
static void cpu_model(char *buf, size_t size) {
  char line[512];
  FILE *f = fopen("/proc/cpuinfo", "r");
  buf[0] = '\0';
  if (!f)
    return;
  while (fgets(line, sizeof line, f)) {
    char *colon = strchr(line, ':');
    if (strncmp(line, "model name", 10) != 0 || !colon)
      continue;
    const char *v = colon + 1;
    while (*v == ' ' || *v == '\t')
      v++;
    snprintf(buf, size, "%s", v);
    size_t len = strlen(buf);
    while (len > 0 && isspace((unsigned char)buf[len - 1]))
      buf[--len] = '\0';
    break;
  }
  fclose(f);
}

static int is_pocl(const device_info *info) {
  return strstr(info->platform, "Portable Computing Language") != NULL ||
         strstr(info->platform_version, "PoCL") != NULL;
}

/* The tuning policy, as the context reports it, and whether the
 * environment forced it. */
static void policy(prism_context *ctx, device_info *info) {
  const char *force = getenv("PRISM_OPENCL_POLICY");
  int forced =
      prism_context_backend(ctx) == PRISM_BACKEND_OPENCL && force && *force;
  snprintf(info->policy, sizeof info->policy, "%s", prism_context_policy(ctx));
  snprintf(info->policy_source, sizeof info->policy_source, "%s",
           forced ? "prism_context_policy, forced by PRISM_OPENCL_POLICY"
                  : "prism_context_policy");
}

/* NVIDIA's OpenCL gives less than the L2 as CL_DEVICE_GLOBAL_MEM_CACHE_SIZE
 * (the SMs' L1s, by other tools' listings; not measured here): the last
 * level is the L2, which CUDA tells when the bench has CUDA. */
static void nvidia_l2(device_info *info) {
#ifdef PRISM_BENCH_HAVE_CUDA
  if (!info->is_gpu || !strstr(info->platform, "NVIDIA"))
    return;
  unsigned long long l2 = device_info_cuda_l2(info->name);
  if (l2 > info->cache_bytes) {
    info->cache_bytes = l2;
    snprintf(info->cache_source, sizeof info->cache_source,
             "cudaDevAttrL2CacheSize of the same GPU");
  }
#else
  (void)info;
#endif
}

void device_info_fill(prism_context *ctx, int device, device_info *info) {
  memset(info, 0, sizeof *info);
  prism_backend backend = prism_context_backend(ctx);
  snprintf(info->backend, sizeof info->backend, "%s",
           prism_backend_name(backend));
  snprintf(info->name, sizeof info->name, "%s", prism_context_device_name(ctx));
  snprintf(info->platform, sizeof info->platform, "%s",
           prism_context_platform_name(ctx));
  info->is_cpu = prism_context_is_cpu(ctx);
  snprintf(info->full_name, sizeof info->full_name, "%s", info->name);
  if (backend == PRISM_BACKEND_OPENCL) {
#ifdef PRISM_BENCH_HAVE_OPENCL
    device_info_opencl(device, info);
#endif
    nvidia_l2(info);
    if (info->is_cpu && is_pocl(info)) {
      char model[DEVICE_INFO_TEXT];
      cpu_model(model, sizeof model);
      if (model[0])
        snprintf(info->full_name, sizeof info->full_name, "%s", model);
    }
    policy(ctx, info);
  } else if (backend == PRISM_BACKEND_CUDA) {
    info->is_gpu = 1;
#ifdef PRISM_BENCH_HAVE_CUDA
    device_info_cuda(device, info);
#endif
    policy(ctx, info);
  }
}

int device_info_list(FILE *out) {
  int count = 0;
  fprintf(out, "cuda:");
#ifdef PRISM_BENCH_HAVE_CUDA
  count += device_info_cuda_list(out);
#else
  fprintf(out, " not built into prism-bench\n");
#endif
  fprintf(out, "opencl:");
#ifdef PRISM_BENCH_HAVE_OPENCL
  count += device_info_opencl_list(out);
#else
  fprintf(out, " not built into prism-bench\n");
#endif
  return count;
}
