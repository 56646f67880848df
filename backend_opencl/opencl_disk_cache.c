/*
 * On-disk cache of built program binaries. Tests and short scripts create
 * many short-lived contexts, and a build from source costs up to a second
 * (PoCL's first build), so a binary built once is kept across processes.
 *
 * Where: $PRISM_CACHE_DIR, else $XDG_CACHE_HOME/prism, else ~/.cache/prism;
 * an empty PRISM_CACHE_DIR disables the cache. Key: platform, device,
 * driver and device versions, library version, build options and the
 * SHA-256 of every prelude file (common.cl, ...) and of the kernel file.
 * Each entry is one file named by a hash of the key and holding the key
 * itself, so a hash collision or a stale entry reads as a miss. Entries
 * are written to a temporary file and
 * renamed, so concurrent processes never see half a file; an entry the
 * driver rejects is deleted and rebuilt from source. Every failure here is
 * silent: the cache only ever saves time.
 */
#include "opencl_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)
#define CACHE_SUPPORTED 0
#else
#define CACHE_SUPPORTED 1
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#define CACHE_MAGIC "prism-cl-binary-2\n"
#define MAX_PATH_LEN 1024
#define MAX_KEY_LEN 4096
/* A binary larger than this is not a prism program: treat as corrupt. */
#define MAX_BINARY_BYTES ((uint64_t)1 << 30)

#if CACHE_SUPPORTED

/* The cache directory, or 0 when the cache is off. */
static int cache_dir(char *buf, size_t size) {
  const char *dir = getenv("PRISM_CACHE_DIR");
  int n;
  if (dir)
    n = snprintf(buf, size, "%s", dir);
  else if ((dir = getenv("XDG_CACHE_HOME")) != NULL && dir[0] == '/')
    n = snprintf(buf, size, "%s/prism", dir);
  else if ((dir = getenv("HOME")) != NULL && dir[0] != '\0')
    n = snprintf(buf, size, "%s/.cache/prism", dir);
  else
    return 0;
  return n > 0 && (size_t)n < size;
}

/* mkdir -p: each missing component, tolerating ones made meanwhile. */
static int make_dirs(char *path) {
  for (char *p = path + 1;; p++) {
    if (*p == '/' || *p == '\0') {
      char c = *p;
      *p = '\0';
      int ok = mkdir(path, 0755) == 0 || errno == EEXIST;
      *p = c;
      if (!ok)
        return 0;
      if (c == '\0')
        return 1;
    }
  }
}

static void device_string(cl_device_id d, cl_device_info what, char *buf,
                          size_t size) {
  if (clGetDeviceInfo(d, what, size, buf, NULL) != CL_SUCCESS)
    buf[0] = '\0';
  buf[size - 1] = '\0';
}

static int make_key(const prism__cl *cl, const prism__cl_source *source,
                    const char *options, char *key, size_t size) {
  char platform_version[256], device_version[256];
  if (clGetPlatformInfo(cl->platform, CL_PLATFORM_VERSION,
                        sizeof platform_version, platform_version,
                        NULL) != CL_SUCCESS)
    platform_version[0] = '\0';
  platform_version[sizeof platform_version - 1] = '\0';
  device_string(cl->device, CL_DEVICE_VERSION, device_version,
                sizeof device_version);
  int n =
      snprintf(key, size,
               "platform=%s\nplatform_version=%s\ndevice=%s\n"
               "device_version=%s\ndriver=%s\nprism=%s\noptions=%s\n",
               cl->platform_name, platform_version, cl->device_name,
               device_version, cl->driver_version, prism_version(), options);
  const prism__cl_source *parts[PRISM_CL_MAX_PRELUDE + 1];
  size_t count = prism__cl_prelude(source, parts);
  parts[count++] = source;
  for (size_t i = 0; i < count && n > 0 && (size_t)n < size; i++) {
    int more = snprintf(key + n, size - (size_t)n, "%s=%s\n",
                        parts[i] ? parts[i]->name : "?",
                        parts[i] ? parts[i]->sha256 : "");
    n = more < 0 ? -1 : n + more;
  }
  return n > 0 && (size_t)n < size;
}

/* FNV-1a, 64 bits, from seed. */
static uint64_t fnv1a(uint64_t seed, const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    seed = (seed ^ p[i]) * 0x100000001b3ull;
  return seed;
}

#define FNV_SEED_A 0xcbf29ce484222325ull
#define FNV_SEED_B 0x84222325cbf29ce4ull

/* 128 bits of hash over the key: names the file only; the key stored
 * inside is what decides a hit. */
static void key_hash(const char *key, char out[33]) {
  const unsigned char *k = (const unsigned char *)key;
  snprintf(out, 33, "%016llx%016llx",
           (unsigned long long)fnv1a(FNV_SEED_A, k, strlen(key)),
           (unsigned long long)fnv1a(FNV_SEED_B, k, strlen(key)));
}

static int entry_path(const prism__cl *cl, const prism__cl_source *source,
                      const char *options, char *dir, char *path, char *key) {
  if (!cache_dir(dir, MAX_PATH_LEN) || dir[0] == '\0' ||
      !make_key(cl, source, options, key, MAX_KEY_LEN))
    return 0;
  char hash[33];
  key_hash(key, hash);
  int n = snprintf(path, MAX_PATH_LEN, "%s/%.*s-%s.bin", dir,
                   (int)strcspn(source->name, "."), source->name, hash);
  return n > 0 && n < MAX_PATH_LEN;
}

/* The binary stored at path if the entry's key is key, else NULL; *corrupt
 * says the file is damaged (truncated, trailing bytes, absurd length, or a
 * binary that does not match its checksum). Layout: magic, key, length
 * (uint64), checksum (uint64 FNV-1a of the binary), binary. */
static unsigned char *read_entry(const char *path, const char *key,
                                 size_t *size, int *corrupt) {
  *corrupt = 0;
  *size = 0;
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  const size_t magic_len = strlen(CACHE_MAGIC), key_len = strlen(key);
  char *head = malloc(magic_len + key_len);
  unsigned char *binary = NULL;
  uint64_t len = 0, sum = 0;
  if (!head) {
    /* out of host memory: a miss */
  } else if (fread(head, 1, magic_len + key_len, f) != magic_len + key_len) {
    *corrupt = 1;
  } else if (memcmp(head, CACHE_MAGIC, magic_len) != 0 ||
             memcmp(head + magic_len, key, key_len) != 0) {
    /* another key under the same name: a miss; the store replaces it */
  } else if (fread(&len, sizeof len, 1, f) != 1 ||
             fread(&sum, sizeof sum, 1, f) != 1 || len == 0 ||
             len > MAX_BINARY_BYTES || (binary = malloc((size_t)len)) == NULL ||
             fread(binary, 1, (size_t)len, f) != len || fgetc(f) != EOF ||
             fnv1a(FNV_SEED_A, binary, (size_t)len) != sum) {
    free(binary);
    binary = NULL;
    *corrupt = 1;
  } else {
    *size = (size_t)len;
  }
  free(head);
  fclose(f);
  return binary;
}

cl_program prism__cl_disk_cache_load(prism__cl *cl,
                                     const prism__cl_source *source,
                                     const char *options) {
  char dir[MAX_PATH_LEN], path[MAX_PATH_LEN], key[MAX_KEY_LEN];
  if (!entry_path(cl, source, options, dir, path, key))
    return NULL;
  size_t size = 0;
  int corrupt = 0;
  unsigned char *binary = read_entry(path, key, &size, &corrupt);
  if (!binary) {
    if (corrupt)
      remove(path);
    return NULL;
  }
  const unsigned char *binaries[1] = {binary};
  cl_int status = CL_SUCCESS, err;
  cl_program program = clCreateProgramWithBinary(
      cl->context, 1, &cl->device, &size, binaries, &status, &err);
  free(binary);
  if (program && (err != CL_SUCCESS || status != CL_SUCCESS ||
                  clBuildProgram(program, 1, &cl->device, options, NULL,
                                 NULL) != CL_SUCCESS)) {
    clReleaseProgram(program);
    program = NULL;
  }
  if (!program)
    remove(path); /* the driver rejects it: rebuild from source */
  return program;
}

void prism__cl_disk_cache_store(prism__cl *cl, const prism__cl_source *source,
                                const char *options, cl_program program) {
  char dir[MAX_PATH_LEN], path[MAX_PATH_LEN], key[MAX_KEY_LEN];
  char tmp[MAX_PATH_LEN + 64];
  if (!entry_path(cl, source, options, dir, path, key) || !make_dirs(dir))
    return;
  size_t size = 0;
  if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size,
                       NULL) != CL_SUCCESS ||
      size == 0)
    return;
  unsigned char *binary = malloc(size);
  unsigned char *binaries[1] = {binary};
  if (!binary || clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof binaries,
                                  binaries, NULL) != CL_SUCCESS) {
    free(binary);
    return;
  }
  snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%p", path, (long)getpid(), (void *)cl);
  FILE *f = fopen(tmp, "wb");
  uint64_t len = size, sum = fnv1a(FNV_SEED_A, binary, size);
  int ok = f != NULL;
  ok = ok &&
       fwrite(CACHE_MAGIC, 1, strlen(CACHE_MAGIC), f) == strlen(CACHE_MAGIC);
  ok = ok && fwrite(key, 1, strlen(key), f) == strlen(key);
  ok = ok && fwrite(&len, sizeof len, 1, f) == 1;
  ok = ok && fwrite(&sum, sizeof sum, 1, f) == 1;
  ok = ok && fwrite(binary, 1, size, f) == size;
  if (f && fclose(f) != 0)
    ok = 0;
  if (!ok || rename(tmp, path) != 0)
    remove(tmp);
  free(binary);
}

#else /* !CACHE_SUPPORTED */

cl_program prism__cl_disk_cache_load(prism__cl *cl,
                                     const prism__cl_source *source,
                                     const char *options) {
  (void)cl;
  (void)source;
  (void)options;
  return NULL;
}

void prism__cl_disk_cache_store(prism__cl *cl, const prism__cl_source *source,
                                const char *options, cl_program program) {
  (void)cl;
  (void)source;
  (void)options;
  (void)program;
}

#endif
