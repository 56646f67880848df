/* SPDX-License-Identifier: MIT */
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
 * itself, so a hash collision or a stale entry reads as a miss. With the
 * binary it holds the kernel names of the program built from source, so a
 * binary that is not this program's (built from another file) is refused
 * at load. Entries are written to a temporary file and renamed, so
 * concurrent processes never see half a file. Only a regular file is ever
 * read: anything else at an entry's path (a FIFO, a device, a directory)
 * is a miss that the next store replaces. A load never deletes an entry:
 * whatever makes a cached binary unusable, the caller builds from source
 * and stores over it, and if that build fails too (a transient condition)
 * the entry stays for the next process. Every failure here is silent: the
 * cache only ever saves time.
 */
#define _POSIX_C_SOURCE 200809L /* O_CLOEXEC, O_NOFOLLOW */

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
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

/* Bumped whenever the layout changes: an entry of another layout is a
 * miss and the store replaces it. */
#define CACHE_MAGIC "prism-cl-binary-3\n"
#define MAX_PATH_LEN 1024
#define MAX_KEY_LEN 4096
/* A binary larger than this is not a prism program: treat as corrupt. */
#define MAX_BINARY_BYTES ((uint64_t)1 << 30)
/* CL_PROGRAM_KERNEL_NAMES of any prism program fits easily. */
#define MAX_NAMES_BYTES ((uint64_t)1 << 16)

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

/* Entry layout: magic, then four uint64 (native order): the lengths of
 * key, kernel names and binary, and the FNV-1a of the bytes that follow;
 * then key, names (CL_PROGRAM_KERNEL_NAMES, no terminator) and binary. */
enum { HEAD_KEY, HEAD_NAMES, HEAD_BINARY, HEAD_SUM, HEAD_WORDS };
#define HEAD_BYTES (sizeof CACHE_MAGIC - 1 + HEAD_WORDS * sizeof(uint64_t))
#define MAX_ENTRY_BYTES                                                        \
  (HEAD_BYTES + MAX_KEY_LEN + MAX_NAMES_BYTES + MAX_BINARY_BYTES)

typedef struct entry {
  unsigned char *file; /* the whole file; the fields below point into it */
  const char *names;
  size_t names_len;
  const unsigned char *binary;
  size_t binary_len;
} entry;

/* The whole file at path, if it is a regular file of at most max bytes.
 * lstat first, so a device is never opened (opening some has effects);
 * O_NONBLOCK, so a FIFO put there in between cannot make open wait for a
 * writer; fstat then refuses all but regular files, which O_NONBLOCK does
 * not affect. */
static unsigned char *read_regular_file(const char *path, size_t max,
                                        size_t *size) {
  struct stat st;
  *size = 0;
  if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
    return NULL;
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return NULL;
  unsigned char *buf = NULL;
  size_t got = 0;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
      (uintmax_t)st.st_size <= max &&
      (buf = malloc((size_t)st.st_size)) != NULL) {
    while (got < (size_t)st.st_size) {
      ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        break;
      got += (size_t)r;
    }
    if (got != (size_t)st.st_size) {
      free(buf);
      buf = NULL;
    }
  }
  close(fd);
  *size = got;
  return buf;
}

/* The entry at path if it is whole, its key is key and its checksum holds;
 * else 0 (a miss, whatever the reason). */
static int read_entry(const char *path, const char *key, entry *out) {
  size_t size = 0;
  unsigned char *file = read_regular_file(path, MAX_ENTRY_BYTES, &size);
  if (!file)
    return 0;
  const size_t magic_len = sizeof CACHE_MAGIC - 1, key_len = strlen(key);
  uint64_t head[HEAD_WORDS];
  int ok = size >= HEAD_BYTES && memcmp(file, CACHE_MAGIC, magic_len) == 0;
  if (ok) {
    memcpy(head, file + magic_len, sizeof head);
    ok = head[HEAD_KEY] == key_len && head[HEAD_NAMES] > 0 &&
         head[HEAD_NAMES] <= MAX_NAMES_BYTES && head[HEAD_BINARY] > 0 &&
         head[HEAD_BINARY] <= MAX_BINARY_BYTES &&
         size - HEAD_BYTES == key_len + head[HEAD_NAMES] + head[HEAD_BINARY] &&
         memcmp(file + HEAD_BYTES, key, key_len) == 0 &&
         fnv1a(FNV_SEED_A, file + HEAD_BYTES, size - HEAD_BYTES) ==
             head[HEAD_SUM];
  }
  if (!ok) {
    free(file);
    return 0;
  }
  out->file = file;
  out->names = (const char *)file + HEAD_BYTES + key_len;
  out->names_len = (size_t)head[HEAD_NAMES];
  out->binary = file + HEAD_BYTES + key_len + out->names_len;
  out->binary_len = (size_t)head[HEAD_BINARY];
  return 1;
}

/* CL_PROGRAM_KERNEL_NAMES of a built program (malloc'd, terminated), or
 * NULL. */
static char *kernel_names(cl_program program) {
  size_t size = 0;
  if (clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &size) !=
          CL_SUCCESS ||
      size == 0 || size > MAX_NAMES_BYTES)
    return NULL;
  char *names = malloc(size + 1);
  if (names && clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, size, names,
                                NULL) != CL_SUCCESS) {
    free(names);
    return NULL;
  }
  if (names)
    names[size] = '\0';
  return names;
}

/* The length of the ';'-separated name at p. */
static size_t name_length(const char *p) {
  return strcspn(p, ";");
}

/* The name after the one at p (at the terminator after the last). */
static const char *next_name(const char *p) {
  p += name_length(p);
  return *p == ';' ? p + 1 : p;
}

/* Whether the name in [name, name + len) is one of list's. */
static int has_name(const char *list, const char *name, size_t len) {
  for (const char *p = list; *p; p = next_name(p))
    if (name_length(p) == len && memcmp(p, name, len) == 0)
      return 1;
  return 0;
}

static size_t count_names(const char *list) {
  size_t count = 0;
  for (const char *p = list; *p; p = next_name(p))
    count++;
  return count;
}

/* Whether two kernel name lists hold the same names, in any order: the
 * order is the driver's, and need not survive a trip through a binary.
 * A program's kernel names are distinct, so counts and inclusion decide. */
static int same_names(const char *a, const char *b) {
  if (count_names(a) != count_names(b))
    return 0;
  for (const char *p = a; *p; p = next_name(p))
    if (!has_name(b, p, name_length(p)))
      return 0;
  return 1;
}

/* The program built from e's binary, if the driver takes it and it holds
 * the kernels its source build held; else NULL. */
static cl_program program_from_entry(prism__cl *cl, const entry *e,
                                     const char *options) {
  const unsigned char *binaries[1] = {e->binary};
  cl_int status = CL_SUCCESS, err;
  cl_program program = clCreateProgramWithBinary(
      cl->context, 1, &cl->device, &e->binary_len, binaries, &status, &err);
  if (!program)
    return NULL;
  char *names = NULL, *stored = malloc(e->names_len + 1);
  int ok = stored != NULL && err == CL_SUCCESS && status == CL_SUCCESS &&
           clBuildProgram(program, 1, &cl->device, options, NULL, NULL) ==
               CL_SUCCESS &&
           (names = kernel_names(program)) != NULL;
  if (ok) {
    memcpy(stored, e->names, e->names_len);
    stored[e->names_len] = '\0';
    ok = same_names(stored, names);
  }
  free(stored);
  free(names);
  if (!ok) {
    clReleaseProgram(program);
    program = NULL;
  }
  return program;
}

cl_program prism__cl_disk_cache_load(prism__cl *cl,
                                     const prism__cl_source *source,
                                     const char *options) {
  char dir[MAX_PATH_LEN], path[MAX_PATH_LEN], key[MAX_KEY_LEN];
  entry e;
  if (!entry_path(cl, source, options, dir, path, key) ||
      !read_entry(path, key, &e))
    return NULL;
  cl_program program = program_from_entry(cl, &e, options);
  free(e.file);
  return program;
}

/* Write all of buf to fd. */
static int write_all(int fd, const void *buf, size_t size) {
  const unsigned char *p = buf;
  while (size > 0) {
    ssize_t w = write(fd, p, size);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return 0;
    p += w;
    size -= (size_t)w;
  }
  return 1;
}

/* A new temporary file next to path, for writing. O_EXCL: never into a
 * file already there, whatever it is. The name is this process's and this
 * context's, so one already there is left by a process that died with our
 * pid: remove it and try once more. */
static int create_temp(const char *path, const prism__cl *cl, char *tmp,
                       size_t size) {
  snprintf(tmp, size, "%s.tmp.%ld.%p", path, (long)getpid(), (const void *)cl);
  const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
  int fd = open(tmp, flags, 0644);
  if (fd < 0 && errno == EEXIST && remove(tmp) == 0)
    fd = open(tmp, flags, 0644);
  return fd;
}

/* Write the entry to a temporary file, then rename it over path. */
static void write_entry(const char *path, const prism__cl *cl, const char *key,
                        const char *names, const unsigned char *binary,
                        size_t binary_len) {
  const size_t key_len = strlen(key), names_len = strlen(names);
  uint64_t head[HEAD_WORDS];
  head[HEAD_KEY] = key_len;
  head[HEAD_NAMES] = names_len;
  head[HEAD_BINARY] = binary_len;
  uint64_t sum = fnv1a(FNV_SEED_A, (const unsigned char *)key, key_len);
  sum = fnv1a(sum, (const unsigned char *)names, names_len);
  head[HEAD_SUM] = fnv1a(sum, binary, binary_len);
  char tmp[MAX_PATH_LEN + 64];
  int fd = create_temp(path, cl, tmp, sizeof tmp);
  if (fd < 0)
    return;
  int ok = write_all(fd, CACHE_MAGIC, sizeof CACHE_MAGIC - 1) &&
           write_all(fd, head, sizeof head) && write_all(fd, key, key_len) &&
           write_all(fd, names, names_len) && write_all(fd, binary, binary_len);
  if (close(fd) != 0)
    ok = 0;
  if (!ok || rename(tmp, path) != 0)
    remove(tmp);
}

/* The program's binary (malloc'd), or NULL. */
static unsigned char *program_binary(cl_program program, size_t *size) {
  *size = 0;
  if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof *size, size,
                       NULL) != CL_SUCCESS ||
      *size == 0 || *size > MAX_BINARY_BYTES)
    return NULL;
  unsigned char *binary = malloc(*size);
  unsigned char *binaries[1] = {binary};
  if (binary && clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof binaries,
                                 binaries, NULL) != CL_SUCCESS) {
    free(binary);
    binary = NULL;
  }
  return binary;
}

void prism__cl_disk_cache_store(prism__cl *cl, const prism__cl_source *source,
                                const char *options, cl_program program) {
  char dir[MAX_PATH_LEN], path[MAX_PATH_LEN], key[MAX_KEY_LEN];
  if (!entry_path(cl, source, options, dir, path, key) || !make_dirs(dir))
    return;
  size_t size = 0;
  /* Without kernel names a load could not check the binary: no entry. */
  char *names = kernel_names(program);
  unsigned char *binary =
      names && names[0] ? program_binary(program, &size) : NULL;
  if (binary)
    write_entry(path, cl, key, names, binary, size);
  free(binary);
  free(names);
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
