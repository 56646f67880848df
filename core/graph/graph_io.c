/* SPDX-License-Identifier: MIT */
/*
 * Graph and matrix files: Matrix Market and SNAP-style edge lists into a
 * host CSR (with values for prism_csr_matrix_load), and a CSR out as Matrix
 * Market.
 *
 * The loaders trust nothing a file says about its size. Entries go into an
 * array that grows (doubling) as they arrive, within options->max_edges; a
 * declared count is checked against the limits and against what came, and
 * never allocated for. Every vertex id is checked (against the declared rows
 * and columns, or options->max_vertices) before it is kept, and the vertex
 * count against the bytes the file held (vertex_bound) before the CSR is
 * allocated; nothing is allocated per declared column. Lines are read
 * through one fixed buffer: a data line longer than IO_LINE_MAX is an
 * error, a comment line may be any length. Errors name the line and what
 * was expected there.
 *
 * Values are scanned by hand (is_integer, is_real) and only then converted
 * by strtof or strtod, under the C locale, so that neither the syntax nor
 * the decimal point depends on the caller's locale. Once the file is read,
 * the options act on the entries in a fixed order: symmetric expansion
 * and symmetrize, dropping self loops (as entries arrive), relabelling
 * (ids registered as they arrive, numbered at the end), then merging
 * duplicates (each row sorted stably by column, so repeats meet in file
 * order). prism.h names merging before relabelling: the same result, as
 * the numbering keeps the ids' order.
 *
 * Saving never destroys what prism did not make: a regular file is replaced
 * by renaming a finished temporary file over it, anything else (a device, a
 * FIFO) is written in place and left alone when writing fails.
 */
#define _POSIX_C_SOURCE 200809L /* fdopen, fileno, lstat, readlink, fsync */
#include "csr.h"
#include "error.h"

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef PRISM_FUZZ_SMALL_BUFFERS
#define IO_CHUNK (1u << 20)       /* bytes read at a time */
#define IO_LINE_MAX (1u << 16)    /* longest data line */
#define IO_FIRST_EDGES (1u << 16) /* first allocation, whatever is declared */
#else
/* The fuzz targets' inputs are short: small buffers let them cross chunk
 * boundaries, the line limit and the growth of the edge array. */
#define IO_CHUNK 256u
#define IO_LINE_MAX 96u
#define IO_FIRST_EDGES 4u
#endif
#define IO_SHOWN_PATH 160    /* a longer path shows its tail in messages */
#define IO_SHOWN_TOKEN 40    /* a longer token shows its head */
#define IO_MAX_LINKS 40      /* symbolic links followed to a save's target */
#define IO_TEMP_TRIES 100    /* names tried for a save's temporary file */
#define IO_TEMP_NAME_MAX 200 /* bytes of the target's name the temp keeps */

static const char load_fn[] = "prism_csr_load";
static const char matrix_load_fn[] = "prism_csr_matrix_load";
static const char save_fn[] = "prism_csr_save_matrix_market";

/* ---- Messages ------------------------------------------------------------ */

static const char *shown_path(const char *path) {
  size_t len = strlen(path);
  return len > IO_SHOWN_PATH ? path + (len - IO_SHOWN_PATH) : path;
}

/* "fn: cannot <verb> 'path': reason". The system running out of memory
 * is PRISM_OUT_OF_MEMORY, anything else about the file is the caller's. */
static prism_status path_fail(const char *fn, const char *verb,
                              const char *path, int err) {
  return prism__fail(
      NULL, err == ENOMEM ? PRISM_OUT_OF_MEMORY : PRISM_INVALID_ARGUMENT,
      "%s: cannot %s '%s%s': %s", fn, verb,
      strlen(path) > IO_SHOWN_PATH ? "..." : "", shown_path(path),
      strerror(err));
}

static prism_status no_buffer(const char *fn) {
  return prism__fail(NULL, PRISM_OUT_OF_MEMORY,
                     "%s: cannot allocate an I/O buffer", fn);
}

/* A token as messages show it: quoted, unprintable bytes as \xNN, long
 * tokens cut. An empty token is the end of the line. */
static const char *shown_token(const char *tok, size_t len, char *buf,
                               size_t size) {
  if (len == 0)
    return "end of line";
  size_t o = 0;
  buf[o++] = '\'';
  for (size_t i = 0; i < len && i < IO_SHOWN_TOKEN && o + 8 < size; i++) {
    unsigned char c = (unsigned char)tok[i];
    if (c >= 0x20 && c < 0x7F)
      buf[o++] = (char)c;
    else
      o += (size_t)snprintf(buf + o, size - o, "\\x%02X", c);
  }
  if (len > IO_SHOWN_TOKEN && o + 4 < size) {
    memcpy(buf + o, "...", 3);
    o += 3;
  }
  buf[o++] = '\'';
  buf[o] = '\0';
  return buf;
}

/* ---- Reading lines ------------------------------------------------------- */

typedef struct reader {
  FILE *f;
  const char *path;
  const char *fn;       /* the entry point, for messages */
  const char *comments; /* characters that start a comment line */
  char *buf;            /* IO_CHUNK bytes; unread bytes are [begin, end) */
  size_t begin, end;
  int eof;
  uint64_t line;  /* number of the line last returned */
  uint64_t bytes; /* read so far: all of the file once eof is set */
  char *token;    /* IO_LINE_MAX + 1 bytes: a value, NUL-terminated */
} reader;

static prism_status io_fail(const reader *r, uint64_t line, prism_status st,
                            const char *fmt, ...) PRISM__PRINTF(4, 5);

static prism_status io_fail(const reader *r, uint64_t line, prism_status st,
                            const char *fmt, ...) {
  char what[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  return prism__fail(NULL, st, "%s: %s%s: line %llu: %s", r->fn,
                     strlen(r->path) > IO_SHOWN_PATH ? "..." : "",
                     shown_path(r->path), (unsigned long long)line, what);
}

static int is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Read more after the unread bytes (moved to the front). */
static prism_status reader_fill(reader *r) {
  if (r->begin > 0) {
    memmove(r->buf, r->buf + r->begin, r->end - r->begin);
    r->end -= r->begin;
    r->begin = 0;
  }
  errno = 0; /* so a failed read's reason is its own */
  size_t got = fread(r->buf + r->end, 1, IO_CHUNK - r->end, r->f);
  r->end += got;
  r->bytes += got;
  if (got == 0) {
    if (ferror(r->f))
      return path_fail(r->fn, "read", r->path, errno ? errno : EIO);
    r->eof = 1;
  }
  return PRISM_OK;
}

/* NUL is tested apart: strchr finds it as the comments' terminator, and a
 * line of NULs taken for a comment let junk load and a stream of NULs
 * without a newline (/dev/zero) be skipped for ever. */
static int starts_comment(const reader *r, const char *s, size_t len) {
  size_t i = 0;
  while (i < len && is_blank(s[i]))
    i++;
  return i < len && s[i] != '\0' && strchr(r->comments, s[i]) != NULL;
}

/* Drop the rest of an over-long comment line, up to its newline. */
static prism_status skip_line(reader *r) {
  for (;;) {
    char *nl = memchr(r->buf + r->begin, '\n', r->end - r->begin);
    if (nl) {
      r->begin = (size_t)(nl - r->buf) + 1;
      return PRISM_OK;
    }
    r->begin = r->end;
    if (r->eof)
      return PRISM_OK;
    prism_status st = reader_fill(r);
    if (st != PRISM_OK)
      return st;
  }
}

static prism_status line_too_long(const reader *r) {
  return io_fail(r, r->line, PRISM_INVALID_ARGUMENT,
                 "line longer than %u bytes; expected a short data line",
                 IO_LINE_MAX);
}

/* The next line without its '\n' (a last line may lack one). *got is 0 at
 * the end of the file. */
static prism_status next_line(reader *r, const char **s, size_t *len,
                              int *got) {
  for (;;) {
    size_t avail = r->end - r->begin;
    char *head = r->buf + r->begin;
    char *nl = memchr(head, '\n', avail);
    if (nl || (r->eof && avail > 0)) {
      *s = head;
      *len = nl ? (size_t)(nl - head) : avail;
      r->begin += nl ? *len + 1 : avail;
      r->line++;
      *got = 1;
      if (*len > IO_LINE_MAX && !starts_comment(r, head, *len))
        return line_too_long(r);
      return PRISM_OK;
    }
    if (r->eof) {
      *got = 0;
      return PRISM_OK;
    }
    prism_status st;
    if (avail > IO_LINE_MAX) {
      r->line++;
      if (!starts_comment(r, head, avail))
        return line_too_long(r);
      if ((st = skip_line(r)) != PRISM_OK)
        return st;
      continue;
    }
    if ((st = reader_fill(r)) != PRISM_OK)
      return st;
  }
}

/* ---- Tokens -------------------------------------------------------------- */

typedef struct cursor {
  const char *p, *end;
} cursor;

/* The next whitespace-separated token; len 0 at the end of the line. */
static void next_token(cursor *c, const char **tok, size_t *len) {
  while (c->p < c->end && is_blank(*c->p))
    c->p++;
  *tok = c->p;
  while (c->p < c->end && !is_blank(*c->p))
    c->p++;
  *len = (size_t)(c->p - *tok);
}

static int is_blank_line(const char *s, size_t len) {
  for (size_t i = 0; i < len; i++)
    if (!is_blank(s[i]))
      return 0;
  return 1;
}

static int token_is(const char *tok, size_t len, const char *word) {
  size_t i = 0;
  for (; i < len && word[i]; i++) {
    char a = tok[i], b = word[i];
    if (a >= 'A' && a <= 'Z')
      a = (char)(a - 'A' + 'a');
    if (a != b)
      return 0;
  }
  return i == len && word[i] == '\0';
}

typedef enum number_kind {
  NUMBER_OK,
  NUMBER_BAD,
  NUMBER_NEGATIVE,
  NUMBER_TOO_LARGE
} number_kind;

/* A non-negative decimal integer. */
static number_kind parse_u64(const char *tok, size_t len, uint64_t *value) {
  if (len == 0)
    return NUMBER_BAD;
  size_t i = tok[0] == '+' || tok[0] == '-';
  if (i == len)
    return NUMBER_BAD;
  uint64_t v = 0;
  int big = 0;
  for (size_t k = i; k < len; k++) {
    if (tok[k] < '0' || tok[k] > '9')
      return NUMBER_BAD;
    unsigned d = (unsigned)(tok[k] - '0');
    if (v > (UINT64_MAX - d) / 10)
      big = 1;
    else
      v = v * 10 + d;
  }
  if (tok[0] == '-' && (v != 0 || big))
    return NUMBER_NEGATIVE;
  *value = v;
  return big ? NUMBER_TOO_LARGE : NUMBER_OK;
}

static size_t skip_digits(const char *tok, size_t len, size_t i) {
  while (i < len && tok[i] >= '0' && tok[i] <= '9')
    i++;
  return i;
}

/* [+-]digits */
static int is_integer(const char *tok, size_t len) {
  size_t i = len > 0 && (tok[0] == '+' || tok[0] == '-');
  return i < len && skip_digits(tok, len, i) == len;
}

/* [+-]inf, [+-]infinity or [+-]nan (any case): 1 and its value. */
static int special_value(const char *tok, size_t len, double *value) {
  int negative = len > 0 && tok[0] == '-';
  size_t i = len > 0 && (tok[0] == '+' || tok[0] == '-');
  if (token_is(tok + i, len - i, "inf") ||
      token_is(tok + i, len - i, "infinity"))
    *value = negative ? -(double)INFINITY : (double)INFINITY;
  else if (token_is(tok + i, len - i, "nan"))
    *value = negative ? -(double)NAN : (double)NAN;
  else
    return 0;
  return 1;
}

/* A decimal floating-point number as C's strtod reads it (without hex),
 * inf, infinity or nan; checked by hand so the locale cannot matter. */
static int is_real(const char *tok, size_t len) {
  double special;
  if (special_value(tok, len, &special))
    return 1;
  size_t i = len > 0 && (tok[0] == '+' || tok[0] == '-');
  size_t int_end = skip_digits(tok, len, i), digits = int_end - i;
  i = int_end;
  if (i < len && tok[i] == '.') {
    size_t frac_end = skip_digits(tok, len, i + 1);
    digits += frac_end - (i + 1);
    i = frac_end;
  }
  if (digits == 0)
    return 0;
  if (i < len && (tok[i] == 'e' || tok[i] == 'E')) {
    i++;
    if (i < len && (tok[i] == '+' || tok[i] == '-'))
      i++;
    size_t exp_end = skip_digits(tok, len, i);
    if (exp_end == i)
      return 0;
    i = exp_end;
  }
  return i == len;
}

/* ---- What a load asks for ------------------------------------------------ */

/* One load's options, checked, and what its entry point adds. */
typedef struct load_spec {
  const char *fn;      /* the entry point, for messages */
  size_t max_vertices; /* options->max_vertices, at most 2^32 - 1 */
  size_t max_edges;    /* options->max_edges */
  int index_base;      /* edge lists: 0 or 1 */
  int symmetrize, drop_self_loops, merge_duplicates, relabel;
  size_t value_size; /* 4 (f32) or 8 (f64); 0: a graph, values ignored */
} load_spec;

/* ---- Values -------------------------------------------------------------- */

/* 1.0 in the load's value type (a pattern entry, an edge without one). */
static void unit_value(size_t value_size, void *out) {
  if (value_size == sizeof(float)) {
    float one = 1.0f;
    memcpy(out, &one, sizeof one);
  } else {
    double one = 1.0;
    memcpy(out, &one, sizeof one);
  }
}

/* Clinger's fast path: a token of m * 10^e with m and 10^|e| both exact in
 * the value type (m < 2^53 and |e| <= 22 for f64, m < 2^24 and |e| <= 10
 * for f32) is one correctly rounded multiply or divide, as strtod would
 * round it. 0 where it does not apply (the caller falls back to strtod),
 * and wherever arithmetic is not done in the type itself. */
static int fast_decimal(const char *tok, size_t len, size_t value_size,
                        void *out) {
#if FLT_EVAL_METHOD == 0
  static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                 1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  uint64_t m = 0;
  int digits = 0, negative = tok[0] == '-';
  long e = 0;
  size_t i = tok[0] == '+' || tok[0] == '-';
  for (int frac = 0; i < len; i++) {
    char c = tok[i];
    if (c == '.') {
      frac = 1;
      continue;
    }
    if (c == 'e' || c == 'E')
      break;
    if (m == 0 && c == '0') { /* a leading zero */
      e -= frac;
      continue;
    }
    if (++digits > 19)
      return 0;
    m = m * 10 + (uint64_t)(c - '0');
    e -= frac;
  }
  if (i < len) { /* the exponent: the scanner checked its digits */
    int negative_exp = tok[++i] == '-';
    i += tok[i] == '+' || tok[i] == '-';
    long x = 0;
    for (; i < len; i++)
      if ((x = x * 10 + (tok[i] - '0')) > 1000)
        return 0;
    e += negative_exp ? -x : x;
  }
  if (m == 0) { /* a signed zero, whatever the exponent */
    if (value_size == sizeof(float))
      memcpy(out, &(float){negative ? -0.0f : 0.0f}, sizeof(float));
    else
      memcpy(out, &(double){negative ? -0.0 : 0.0}, sizeof(double));
    return 1;
  }
  long a = e < 0 ? -e : e;
  if (value_size == sizeof(float)) {
    if (m > ((uint64_t)1 << 24) || a > 10)
      return 0;
    float f = (float)m, p = (float)pow10[a];
    f = e < 0 ? f / p : f * p;
    f = negative ? -f : f;
    memcpy(out, &f, sizeof f);
    return 1;
  }
  if (m > ((uint64_t)1 << 53) || a > 22)
    return 0;
  double d = (double)m, p = pow10[a];
  d = e < 0 ? d / p : d * p;
  d = negative ? -d : d;
  memcpy(out, &d, sizeof d);
  return 1;
#else
  (void)tok;
  (void)len;
  (void)value_size;
  (void)out;
  return 0;
#endif
}

/* The value of tok, which is_integer or is_real accepted, rounded to the
 * nearest value of the load's type (strtof for f32: no double rounding),
 * by fast_decimal where it can. strtof and strtod see only the digits, sign,
 * '.' and exponent the scanner let through, under the C locale load_from set. A
 * finite token that rounds to infinity is refused. */
static prism_status convert_value(reader *r, const char *tok, size_t len,
                                  size_t value_size, void *out) {
  double special;
  int infinite;
  if (special_value(tok, len, &special)) {
    if (value_size == sizeof(float)) {
      float f = (float)special;
      memcpy(out, &f, sizeof f);
    } else {
      memcpy(out, &special, sizeof special);
    }
    return PRISM_OK;
  }
  if (fast_decimal(tok, len, value_size, out))
    return PRISM_OK;
  memcpy(r->token, tok, len); /* len <= IO_LINE_MAX: a data line's token */
  r->token[len] = '\0';
  if (value_size == sizeof(float)) {
    float f = strtof(r->token, NULL);
    infinite = isinf(f);
    memcpy(out, &f, sizeof f);
  } else {
    double d = strtod(r->token, NULL);
    infinite = isinf(d);
    memcpy(out, &d, sizeof d);
  }
  if (!infinite)
    return PRISM_OK;
  char shown[64];
  return io_fail(r, r->line, PRISM_INVALID_ARGUMENT,
                 "the entry's value %s is too large for %s (it would round "
                 "to infinity); expected a magnitude of at most %g, or inf",
                 shown_token(tok, len, shown, sizeof shown),
                 value_size == sizeof(float) ? "f32" : "f64",
                 value_size == sizeof(float) ? (double)FLT_MAX : DBL_MAX);
}

/* ---- Edges as they arrive ------------------------------------------------ */

typedef struct edge_store {
  uint32_t *pairs;       /* count x (source, target) */
  unsigned char *values; /* count x value_size bytes; NULL for a graph */
  size_t value_size;
  size_t count, capacity;
  size_t loops;     /* self loops among them */
  int both_ways;    /* each pair is also its reverse (a self loop once) */
  int drop_loops;   /* self loops are not kept */
  size_t max_edges; /* on directed edges */
} edge_store;

static edge_store store_for(const load_spec *spec, int both_ways) {
  edge_store s;
  memset(&s, 0, sizeof s);
  s.value_size = spec->value_size;
  s.both_ways = both_ways;
  s.drop_loops = spec->drop_self_loops != 0;
  s.max_edges = spec->max_edges;
  return s;
}

static void store_free(edge_store *s) {
  free(s->pairs);
  free(s->values);
  s->pairs = NULL;
  s->values = NULL;
}

static size_t store_edges(const edge_store *s) {
  return s->both_ways ? 2 * s->count - s->loops : s->count;
}

/* Room for one more pair (and its value): the arrays double. */
static prism_status store_grow(edge_store *s, const reader *r) {
  size_t cap = s->capacity < IO_FIRST_EDGES ? IO_FIRST_EDGES : s->capacity * 2;
  if (cap > SIZE_MAX / (2 * sizeof *s->pairs))
    cap = SIZE_MAX / (2 * sizeof *s->pairs);
  uint32_t *grown =
      cap > s->capacity ? realloc(s->pairs, cap * 2 * sizeof *s->pairs) : NULL;
  if (grown)
    s->pairs = grown;
  unsigned char *values =
      grown && s->value_size ? realloc(s->values, cap * s->value_size) : NULL;
  if (values)
    s->values = values;
  if (!grown || (s->value_size && !values))
    return io_fail(r, r->line, PRISM_OUT_OF_MEMORY,
                   "cannot hold more than %zu entries in memory", s->capacity);
  s->capacity = cap;
  return PRISM_OK;
}

/* Keep the entry u -> v (value: value_size bytes, ignored for a graph). */
static prism_status store_add(edge_store *s, const reader *r, uint32_t u,
                              uint32_t v, const void *value) {
  if (s->drop_loops && u == v)
    return PRISM_OK;
  size_t adds = s->both_ways && u != v ? 2 : 1;
  if (store_edges(s) + adds > s->max_edges)
    return io_fail(r, r->line, PRISM_INVALID_ARGUMENT,
                   "more than options->max_edges = %zu edges", s->max_edges);
  if (s->count == s->capacity) {
    prism_status st = store_grow(s, r);
    if (st != PRISM_OK)
      return st;
  }
  s->pairs[2 * s->count] = u;
  s->pairs[2 * s->count + 1] = v;
  if (s->value_size)
    memcpy(s->values + s->count * s->value_size, value, s->value_size);
  s->count++;
  s->loops += u == v;
  return PRISM_OK;
}

/* The most vertices a file of `bytes` bytes may give. The CSR takes 8
 * bytes a vertex, edges or not, so a count the file merely states (its
 * rows, or one large id) must be paid for by bytes it holds: the row
 * offsets then take at most 8 MiB plus 128 bytes per byte of the file. */
static uint64_t vertex_bound(uint64_t bytes) {
  if (bytes > (UINT64_MAX - PRISM__FREE_VERTICES) / PRISM__VERTICES_PER_BYTE)
    return UINT64_MAX;
  return PRISM__FREE_VERTICES + PRISM__VERTICES_PER_BYTE * bytes;
}

/* n vertices, what line `line` says, within vertex_bound of the file
 * (read to its end by now: the count is checked before allocating). */
static prism_status check_vertex_bound(const reader *r, uint64_t line,
                                       uint64_t n, const char *what) {
  uint64_t bound = vertex_bound(r->bytes);
  if (n <= bound)
    return PRISM_OK;
  return io_fail(r, line, PRISM_INVALID_ARGUMENT,
                 "%llu vertices (%s) in a file of %llu bytes; expected at "
                 "most %llu (%u + %u per byte of the file: the loader "
                 "allocates only for what a file holds)",
                 (unsigned long long)n, what, (unsigned long long)r->bytes,
                 (unsigned long long)bound, PRISM__FREE_VERTICES,
                 PRISM__VERTICES_PER_BYTE);
}

/* ---- Relabelling --------------------------------------------------------- */

/* The distinct ids of a file (options->relabel), numbered in the order
 * they first appear while it is read, through an open-addressing table;
 * renumbered in ascending order once it is read (a radix sort of the
 * table). Memory follows the distinct ids (16 to 32 bytes each in the
 * table, with load at most 1/2), never the ids' magnitude. */
typedef struct id_slot {
  uint64_t id;
  uint32_t index; /* provisional index; ID_EMPTY: a free slot */
} id_slot;

typedef struct id_map {
  id_slot *slots;
  size_t slot_count; /* a power of two, at least twice count; or 0 */
  size_t count;      /* distinct ids so far */
  size_t max_count;  /* options->max_vertices */
} id_map;

#define ID_EMPTY UINT32_MAX /* never an index: at most 2^32 - 1 ids */
#define ID_FIRST_SLOTS 64u  /* the table's first size */
#define RADIX_BITS 11       /* digit of the ids' sort: 6 passes at most */

static void id_map_free(id_map *m) {
  free(m->slots);
  m->slots = NULL;
}

/* splitmix64's finaliser: ids of a file are often dense or strided. */
static uint64_t id_hash(uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/* The slot holding id, or the free one where it would go. */
static size_t id_probe(const id_slot *slots, size_t slot_count, uint64_t id) {
  size_t mask = slot_count - 1, i = (size_t)id_hash(id) & mask;
  while (slots[i].index != ID_EMPTY && slots[i].id != id)
    i = (i + 1) & mask;
  return i;
}

/* Twice the slots, the ids moved over. */
static prism_status id_map_grow(id_map *m, const reader *r) {
  size_t slots = m->slot_count ? 2 * m->slot_count : ID_FIRST_SLOTS;
  id_slot *table =
      slots <= SIZE_MAX / sizeof *table ? malloc(slots * sizeof *table) : NULL;
  if (!table)
    return io_fail(r, r->line, PRISM_OUT_OF_MEMORY,
                   "cannot hold more than %zu distinct ids in memory "
                   "(options->relabel)",
                   m->count);
  for (size_t i = 0; i < slots; i++)
    table[i].index = ID_EMPTY;
  for (size_t i = 0; i < m->slot_count; i++)
    if (m->slots[i].index != ID_EMPTY)
      table[id_probe(table, slots, m->slots[i].id)] = m->slots[i];
  free(m->slots);
  m->slots = table;
  m->slot_count = slots;
  return PRISM_OK;
}

/* The provisional index of id (as the file writes it), numbering it if it
 * is new: at most max_count distinct ids. */
static prism_status id_index(id_map *m, const reader *r, uint64_t id,
                             uint32_t *index) {
  if (2 * (m->count + 1) > m->slot_count) {
    prism_status st = id_map_grow(m, r);
    if (st != PRISM_OK)
      return st;
  }
  id_slot *slot = &m->slots[id_probe(m->slots, m->slot_count, id)];
  if (slot->index == ID_EMPTY) {
    if (m->count >= m->max_count)
      return io_fail(r, r->line, PRISM_INVALID_ARGUMENT,
                     "more than options->max_vertices = %zu distinct vertex "
                     "ids (options->relabel)",
                     m->max_count);
    slot->id = id;
    slot->index = (uint32_t)m->count++;
  }
  *index = slot->index;
  return PRISM_OK;
}

/* a[0..n) by id: least significant digit first, a pass skipped where
 * every id has the same digit (ids below 2^33 take 3 passes). */
static void sort_ids(id_slot *a, id_slot *tmp, size_t n) {
  enum { DIGITS = 1u << RADIX_BITS };
  size_t start[DIGITS];
  id_slot *src = a, *dst = tmp;
  for (unsigned shift = 0; shift < 64; shift += RADIX_BITS) {
    memset(start, 0, sizeof start);
    for (size_t i = 0; i < n; i++)
      start[(src[i].id >> shift) & (DIGITS - 1)]++;
    if (n == 0 || start[(src[0].id >> shift) & (DIGITS - 1)] == n)
      continue;
    for (size_t d = 0, sum = 0; d < DIGITS; d++) {
      size_t c = start[d];
      start[d] = sum;
      sum += c;
    }
    for (size_t i = 0; i < n; i++)
      dst[start[(src[i].id >> shift) & (DIGITS - 1)]++] = src[i];
    id_slot *t = src;
    src = dst;
    dst = t;
  }
  if (src != a)
    memcpy(a, src, n * sizeof *a);
}

/* Renumber the stored pairs densely in ascending id order; the map (dense
 * index -> id) goes to *map (at least one entry, so never NULL). */
static prism_status id_map_finish(id_map *m, edge_store *s, const char *fn,
                                  uint64_t **map) {
  size_t k = m->count, w = 0;
  id_slot *ids = m->slots; /* its ids moved to the front */
  for (size_t i = 0; i < m->slot_count; i++)
    if (ids[i].index != ID_EMPTY)
      ids[w++] = ids[i];
  id_slot *tmp = malloc((k ? k : 1) * sizeof *tmp);
  uint64_t *sorted = malloc((k ? k : 1) * sizeof *sorted);
  uint32_t *rank = malloc((k ? k : 1) * sizeof *rank);
  if (!tmp || !sorted || !rank) {
    free(tmp);
    free(sorted);
    free(rank);
    return prism__fail(NULL, PRISM_OUT_OF_MEMORY,
                       "%s: cannot allocate the map of %zu vertex ids "
                       "(options->relabel)",
                       fn, k);
  }
  sort_ids(ids, tmp, k);
  free(tmp);
  for (size_t i = 0; i < k; i++) {
    sorted[i] = ids[i].id;
    rank[ids[i].index] = (uint32_t)i;
  }
  for (size_t i = 0; i < 2 * s->count; i++)
    s->pairs[i] = rank[s->pairs[i]];
  free(rank);
  *map = sorted;
  return PRISM_OK;
}

/* ---- Merging duplicates -------------------------------------------------- */

#define SORT_RUN 16 /* rows this short are sorted by insertion alone */

/* perm[0..n) (indices into col) ordered by column, stably: insertion-sorted
 * runs, then merged bottom-up between perm and tmp. */
static void sort_by_column(const uint32_t *col, size_t *perm, size_t *tmp,
                           size_t n) {
  for (size_t lo = 0; lo < n; lo += SORT_RUN) {
    size_t hi = n - lo < SORT_RUN ? n : lo + SORT_RUN;
    for (size_t i = lo + 1; i < hi; i++) {
      size_t x = perm[i], j = i;
      for (; j > lo && col[perm[j - 1]] > col[x]; j--)
        perm[j] = perm[j - 1];
      perm[j] = x;
    }
  }
  size_t *src = perm, *dst = tmp;
  for (size_t width = SORT_RUN; width < n; width *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * width) {
      size_t mid = n - lo < width ? n : lo + width;
      size_t hi = n - mid < width ? n : mid + width;
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi)
        dst[k++] = col[src[j]] < col[src[i]] ? src[j++] : src[i++];
      while (i < mid)
        dst[k++] = src[i++];
      while (j < hi)
        dst[k++] = src[j++];
    }
    size_t *t = src;
    src = dst;
    dst = t;
  }
  if (src != perm)
    memcpy(perm, src, n * sizeof *perm);
}

static int row_sorted(const uint32_t *col, uint64_t begin, uint64_t end) {
  for (uint64_t e = begin + 1; e < end; e++)
    if (col[e] < col[e - 1])
      return 0;
  return 1;
}

/* acc += v in the value type (f32 sums round to f32 at each step). */
static void add_value(unsigned char *acc, const unsigned char *v,
                      size_t value_size) {
  if (value_size == sizeof(float)) {
    float a, b;
    memcpy(&a, acc, sizeof a);
    memcpy(&b, v, sizeof b);
    a += b;
    memcpy(acc, &a, sizeof a);
  } else {
    double a, b;
    memcpy(&a, acc, sizeof a);
    memcpy(&b, v, sizeof b);
    a += b;
    memcpy(acc, &a, sizeof a);
  }
}

typedef struct row_scratch {
  size_t *perm, *tmp;
  uint32_t *col;
  unsigned char *values;
} row_scratch;

static void scratch_free(row_scratch *t) {
  free(t->perm);
  free(t->tmp);
  free(t->col);
  free(t->values);
}

/* Scratch for the longest row that needs sorting (rows in file order that
 * are already sorted, as most files write them, need none). */
static prism_status scratch_alloc(const prism_csr *g, size_t value_size,
                                  const char *fn, row_scratch *t) {
  memset(t, 0, sizeof *t);
  size_t longest = 0;
  for (size_t u = 0; u < g->num_vertices; u++) {
    uint64_t b = g->row_offsets[u], e = g->row_offsets[u + 1];
    if (e - b > longest && !row_sorted(g->col_indices, b, e))
      longest = (size_t)(e - b);
  }
  if (longest == 0)
    return PRISM_OK;
  t->perm = malloc(longest * sizeof *t->perm);
  t->tmp = malloc(longest * sizeof *t->tmp);
  t->col = malloc(longest * sizeof *t->col);
  t->values = value_size ? malloc(longest * value_size) : NULL;
  if (!t->perm || !t->tmp || !t->col || (value_size && !t->values)) {
    scratch_free(t);
    return prism__fail(NULL, PRISM_OUT_OF_MEMORY,
                       "%s: cannot allocate scratch to sort a row of %zu "
                       "entries (options->merge_duplicates)",
                       fn, longest);
  }
  return PRISM_OK;
}

/* options->merge_duplicates: each row sorted by column, stably (repeats
 * stay in file order), then each run of one column made one entry: a
 * graph keeps one, a matrix the sum of the run's values from left to
 * right. Compacts the arrays in place. */
static prism_status merge_duplicates(prism_csr_matrix *m, size_t value_size,
                                     const char *fn) {
  prism_csr *g = &m->csr;
  uint64_t *off = g->row_offsets;
  uint32_t *col = g->col_indices;
  unsigned char *val = m->values;
  row_scratch t;
  prism_status st = scratch_alloc(g, value_size, fn, &t);
  if (st != PRISM_OK)
    return st;
  uint64_t begin = 0, w = 0; /* w: entries kept so far */
  for (size_t u = 0; u < g->num_vertices; u++) {
    uint64_t end = off[u + 1], row = w;
    size_t len = (size_t)(end - begin);
    const uint32_t *src_col = col + begin;
    const unsigned char *src_val = val ? val + begin * value_size : NULL;
    if (!row_sorted(col, begin, end)) {
      for (size_t i = 0; i < len; i++)
        t.perm[i] = i;
      sort_by_column(src_col, t.perm, t.tmp, len);
      for (size_t i = 0; i < len; i++) {
        t.col[i] = src_col[t.perm[i]];
        if (val)
          memcpy(t.values + i * value_size, src_val + t.perm[i] * value_size,
                 value_size);
      }
      src_col = t.col;
      src_val = t.values;
    }
    /* Writing at w <= begin + i never overtakes what is still to read. */
    for (size_t i = 0; i < len; i++) {
      if (w > row && col[w - 1] == src_col[i]) {
        if (val)
          add_value(val + (w - 1) * value_size, src_val + i * value_size,
                    value_size);
        continue;
      }
      col[w] = src_col[i];
      if (val)
        memmove(val + w * value_size, src_val + i * value_size, value_size);
      w++;
    }
    off[u + 1] = w;
    begin = end;
  }
  scratch_free(&t);
  g->num_edges = (size_t)w;
  /* Give back what merging freed; a failed shrink keeps the larger block. */
  uint32_t *c = realloc(col, (w ? w : 1) * sizeof *col);
  if (c)
    g->col_indices = c;
  if (val) {
    unsigned char *v = realloc(val, (w ? w : 1) * value_size);
    if (v)
      m->values = v;
  }
  return PRISM_OK;
}

/* ---- The CSR ------------------------------------------------------------- */

/* The CSR of the stored edges, sorted by source, each row in arrival
 * order (a pair's reverse arrives with it), with their values. */
static prism_status store_to_csr(const edge_store *s, size_t n, const char *fn,
                                 prism_csr_matrix *out) {
  size_t m = store_edges(s), vs = s->value_size;
  prism_status st = prism__csr_alloc(n, m, !s->both_ways, fn, &out->csr);
  if (st != PRISM_OK)
    return st;
  unsigned char *val = NULL;
  if (vs && !(val = m <= SIZE_MAX / vs ? malloc((m ? m : 1) * vs) : NULL)) {
    prism_csr_free(&out->csr);
    return prism__fail(NULL, PRISM_OUT_OF_MEMORY,
                       "%s: cannot allocate the values of %zu entries", fn, m);
  }
  out->values = val;
  uint64_t *off = out->csr.row_offsets;
  uint32_t *col = out->csr.col_indices;
  const uint32_t *p = s->pairs;
  memset(off, 0, (n + 1) * sizeof *off);
  for (size_t i = 0; i < s->count; i++) {
    off[p[2 * i] + 1]++;
    if (s->both_ways && p[2 * i] != p[2 * i + 1])
      off[p[2 * i + 1] + 1]++;
  }
  for (size_t v = 0; v < n; v++)
    off[v + 1] += off[v];
  /* off[v] walks row v; afterwards it holds row v + 1's start. */
  for (size_t i = 0; i < s->count; i++) {
    uint32_t u = p[2 * i], v = p[2 * i + 1];
    if (val)
      memcpy(val + off[u] * vs, s->values + i * vs, vs);
    col[off[u]++] = v;
    if (s->both_ways && u != v) {
      if (val)
        memcpy(val + off[v] * vs, s->values + i * vs, vs);
      col[off[v]++] = u;
    }
  }
  for (size_t v = n; v > 0; v--)
    off[v] = off[v - 1];
  off[0] = 0;
  return PRISM_OK;
}

/* What both formats do once the file is read: relabel (n and cols are the
 * shape without it), build the CSR, merge duplicates. out owns what it
 * holds even on failure. */
static prism_status finish_load(const load_spec *spec, edge_store *s,
                                id_map *ids, size_t n, size_t cols,
                                prism_csr_matrix *out) {
  uint64_t *map = NULL;
  prism_status st;
  if (spec->relabel) {
    if ((st = id_map_finish(ids, s, spec->fn, &map)) != PRISM_OK)
      return st;
    n = cols = ids->count;
  }
  out->ids = map;
  if ((st = store_to_csr(s, n, spec->fn, out)) != PRISM_OK)
    return st;
  out->num_cols = cols;
  if (spec->merge_duplicates)
    st = merge_duplicates(out, spec->value_size, spec->fn);
  return st;
}

/* ---- Matrix Market ------------------------------------------------------- */

static const char mm_banner_expected[] =
    "the banner '%%MatrixMarket matrix coordinate ...'";

typedef enum mm_field { MM_PATTERN, MM_INTEGER, MM_REAL } mm_field;

/* The first non-blank line; *got 0 at the end of the file. */
static prism_status next_content_line(reader *r, cursor *c, int skip_comments,
                                      int *got) {
  for (;;) {
    const char *s = NULL;
    size_t len = 0;
    prism_status st = next_line(r, &s, &len, got);
    if (st != PRISM_OK || !*got)
      return st;
    if (is_blank_line(s, len) || (skip_comments && starts_comment(r, s, len)))
      continue;
    c->p = s;
    c->end = s + len;
    return PRISM_OK;
  }
}

/* As next_content_line, where the end of the file is an error: what was
 * expected is named. */
static prism_status require_line(reader *r, cursor *c, int skip_comments,
                                 const char *what) {
  int got;
  prism_status st = next_content_line(r, c, skip_comments, &got);
  if (st == PRISM_OK && !got)
    return io_fail(r, r->line + 1, PRISM_INVALID_ARGUMENT,
                   "expected %s, found end of file", what);
  return st;
}

static prism_status mm_word(reader *r, cursor *c, const char *what,
                            const char **tok, size_t *len) {
  next_token(c, tok, len);
  if (*len == 0)
    return io_fail(r, r->line, PRISM_INVALID_ARGUMENT,
                   "expected %s in the banner, found end of line", what);
  return PRISM_OK;
}

static prism_status mm_banner_line(reader *r, mm_field *field, int *symmetric) {
  cursor c;
  char shown[64];
  const char *tok;
  size_t len;
  prism_status st = require_line(r, &c, 0, mm_banner_expected);
  if (st != PRISM_OK)
    return st;
  next_token(&c, &tok, &len);
  if (!token_is(tok, len, "%%matrixmarket"))
    return io_fail(r, r->line, PRISM_INVALID_ARGUMENT, "expected %s, found %s",
                   mm_banner_expected,
                   shown_token(tok, len, shown, sizeof shown));
  if ((st = mm_word(r, &c, "the object ('matrix')", &tok, &len)) != PRISM_OK)
    return st;
  if (!token_is(tok, len, "matrix"))
    return io_fail(r, r->line, PRISM_INVALID_ARGUMENT,
                   "expected the object 'matrix', found %s",
                   shown_token(tok, len, shown, sizeof shown));
  if ((st = mm_word(r, &c, "the format ('coordinate')", &tok, &len)) !=
      PRISM_OK)
    return st;
  if (token_is(tok, len, "array"))
    return io_fail(r, r->line, PRISM_UNSUPPORTED,
                   "'array' (dense) matrices are not supported; expected "
                   "'coordinate'");
  if (!token_is(tok, len, "coordinate"))
    return io_fail(r, r->line, PRISM_INVALID_ARGUMENT,
                   "expected the format 'coordinate', found %s",
                   shown_token(tok, len, shown, sizeof shown));
  if ((st = mm_word(r, &c, "the field (pattern, integer or real)", &tok,
                    &len)) != PRISM_OK)
    return st;
  if (token_is(tok, len, "pattern"))
    *field = MM_PATTERN;
  else if (token_is(tok, len, "integer"))
    *field = MM_INTEGER;
  else if (token_is(tok, len, "real") || token_is(tok, len, "double"))
    *field = MM_REAL;
  else if (token_is(tok, len, "complex"))
    return io_fail(r, r->line, PRISM_UNSUPPORTED,
                   "'complex' matrices are not supported; expected the "
                   "field pattern, integer or real");
  else
    return io_fail(r, r->line, PRISM_INVALID_ARGUMENT,
                   "expected the field pattern, integer or real, found %s",
                   shown_token(tok, len, shown, sizeof shown));
  if ((st = mm_word(r, &c, "the symmetry (general or symmetric)", &tok,
                    &len)) != PRISM_OK)
    return st;
  if (token_is(tok, len, "general") || token_is(tok, len, "symmetric"))
    *symmetric = token_is(tok, len, "symmetric");
  else if (token_is(tok, len, "skew-symmetric") ||
           token_is(tok, len, "hermitian"))
    return io_fail(r, r->line, PRISM_UNSUPPORTED,
                   "%s matrices are not supported; expected the symmetry "
                   "general or symmetric",
                   shown_token(tok, len, shown, sizeof shown));
  else
    return io_fail(r, r->line, PRISM_INVALID_ARGUMENT,
                   "expected the symmetry general or symmetric, found %s",
                   shown_token(tok, len, shown, sizeof shown));
  next_token(&c, &tok, &len);
  if (len > 0)
    return io_fail(r, r->line, PRISM_INVALID_ARGUMENT,
                   "expected the end of the banner, found %s",
                   shown_token(tok, len, shown, sizeof shown));
  return PRISM_OK;
}

/* A non-negative integer token of the line at c, for what. */
static prism_status read_count(reader *r, cursor *c, const char *what,
                               uint64_t *value) {
  char shown[64];
  const char *tok;
  size_t len;
  next_token(c, &tok, &len);
  switch (parse_u64(tok, len, value)) {
  case NUMBER_OK:
    return PRISM_OK;
  case NUMBER_TOO_LARGE:
    return io_fail(r, r->line, PRISM_INVALID_ARGUMENT,
                   "%s %s is too large; expected at most %llu", what,
                   shown_token(tok, len, shown, sizeof shown),
                   (unsigned long long)UINT64_MAX);
  case NUMBER_NEGATIVE:
    return io_fail(r, r->line, PRISM_INVALID_ARGUMENT,
                   "%s %s is negative; expected a non-negative integer", what,
                   shown_token(tok, len, shown, sizeof shown));
  default:
    return io_fail(r, r->line, PRISM_INVALID_ARGUMENT,
                   "expected %s (a non-negative integer), found %s", what,
                   shown_token(tok, len, shown, sizeof shown));
  }
}

static prism_status expect_end(reader *r, cursor *c, const char *instead) {
  char shown[64];
  const char *tok;
  size_t len;
  next_token(c, &tok, &len);
  if (len == 0)
    return PRISM_OK;
  return io_fail(r, r->line, PRISM_INVALID_ARGUMENT, "expected %s, found %s",
                 instead, shown_token(tok, len, shown, sizeof shown));
}

/* The size line: rows x cols within the limits. A graph, a symmetric
 * file, symmetrize and relabel need a square matrix. */
static prism_status mm_size_line(reader *r, const load_spec *spec,
                                 int symmetric, uint64_t *rows, uint64_t *cols,
                                 uint64_t *entries, uint64_t *line) {
  cursor c;
  prism_status st =
      require_line(r, &c, 1, "the size line 'rows columns entries'");
  if (st != PRISM_OK)
    return st;
  *line = r->line;
  if ((st = read_count(r, &c, "the number of rows", rows)) != PRISM_OK ||
      (st = read_count(r, &c, "the number of columns", cols)) != PRISM_OK ||
      (st = read_count(r, &c, "the number of entries", entries)) != PRISM_OK ||
      (st = expect_end(r, &c, "the end of the size line")) != PRISM_OK)
    return st;
  const char *square = !spec->value_size  ? "(rows = columns) for a graph"
                       : symmetric        ? "for a symmetric matrix"
                       : spec->symmetrize ? "for options->symmetrize"
                       : spec->relabel
                           ? "for options->relabel (rows and columns are "
                             "numbered as one set of ids)"
                           : NULL;
  if (*rows != *cols && square)
    return io_fail(r, r->line, PRISM_INVALID_ARGUMENT,
                   "the matrix is %llu x %llu; expected a square matrix %s",
                   (unsigned long long)*rows, (unsigned long long)*cols,
                   square);
  if (*rows > spec->max_vertices)
    return io_fail(r, r->line, PRISM_INVALID_ARGUMENT,
                   "%llu rows; expected at most %zu vertices "
                   "(options->max_vertices, at most 2^32 - 1)",
                   (unsigned long long)*rows, spec->max_vertices);
  if (*cols > spec->max_vertices)
    return io_fail(r, r->line, PRISM_INVALID_ARGUMENT,
                   "%llu columns; expected at most %zu "
                   "(options->max_vertices, at most 2^32 - 1)",
                   (unsigned long long)*cols, spec->max_vertices);
  if (*entries > spec->max_edges)
    return io_fail(r, r->line, PRISM_INVALID_ARGUMENT,
                   "%llu entries declared; expected at most "
                   "options->max_edges = %zu",
                   (unsigned long long)*entries, spec->max_edges);
  return PRISM_OK;
}

/* A 1-based index token, within [1, bound], as the file writes it. */
static prism_status mm_index(reader *r, cursor *c, const char *what,
                             uint64_t bound, uint64_t *index) {
  char shown[64];
  const char *tok;
  size_t len;
  uint64_t v = 0;
  next_token(c, &tok, &len);
  number_kind k = parse_u64(tok, len, &v);
  if (k == NUMBER_BAD || k == NUMBER_NEGATIVE)
    return io_fail(r, r->line, PRISM_INVALID_ARGUMENT,
                   "expected %s (an integer from 1 to %llu), found %s", what,
                   (unsigned long long)bound,
                   shown_token(tok, len, shown, sizeof shown));
  if (k == NUMBER_TOO_LARGE || v == 0 || v > bound)
    return io_fail(r, r->line, PRISM_INVALID_ARGUMENT,
                   "%s %s is out of range; expected 1 to %llu (Matrix "
                   "Market indices start at 1)",
                   what, shown_token(tok, len, shown, sizeof shown),
                   (unsigned long long)bound);
  *index = v;
  return PRISM_OK;
}

/* The entry's value (checked; converted into value for a matrix), then the
 * end of the line. */
static prism_status mm_value(reader *r, cursor *c, mm_field field,
                             size_t value_size, void *value) {
  char shown[64];
  const char *tok;
  size_t len;
  if (field == MM_PATTERN) {
    if (value_size)
      unit_value(value_size, value);
    return expect_end(r, c, "the end of a pattern entry ('row column')");
  }
  next_token(c, &tok, &len);
  int ok = field == MM_INTEGER ? is_integer(tok, len) : is_real(tok, len);
  if (!ok)
    return io_fail(r, r->line, PRISM_INVALID_ARGUMENT,
                   "expected the entry's value (%s), found %s",
                   field == MM_INTEGER ? "an integer" : "a real number",
                   shown_token(tok, len, shown, sizeof shown));
  prism_status st =
      value_size ? convert_value(r, tok, len, value_size, value) : PRISM_OK;
  if (st != PRISM_OK)
    return st;
  return expect_end(r, c, "the end of the entry ('row column value')");
}

/* Row and column (1-based, as written) as the indices the store keeps. */
static prism_status entry_indices(reader *r, const load_spec *spec, id_map *ids,
                                  uint64_t u, uint64_t v, int base,
                                  uint32_t *iu, uint32_t *iv) {
  if (!spec->relabel) {
    *iu = (uint32_t)(u - (uint64_t)base);
    *iv = (uint32_t)(v - (uint64_t)base);
    return PRISM_OK;
  }
  prism_status st = id_index(ids, r, u, iu);
  return st != PRISM_OK ? st : id_index(ids, r, v, iv);
}

static prism_status load_matrix_market(reader *r, const load_spec *spec,
                                       prism_csr_matrix *out) {
  mm_field field = MM_PATTERN;
  int symmetric = 0;
  uint64_t rows = 0, cols = 0, declared = 0, size_line = 0, read = 0;
  prism_status st = mm_banner_line(r, &field, &symmetric);
  if (st != PRISM_OK || (st = mm_size_line(r, spec, symmetric, &rows, &cols,
                                           &declared, &size_line)) != PRISM_OK)
    return st;
  edge_store s = store_for(spec, symmetric || spec->symmetrize);
  id_map ids = {NULL, 0, 0, spec->max_vertices};
  for (;;) {
    cursor c;
    int got;
    uint64_t u, v;
    uint32_t iu, iv;
    double value; /* value_size bytes of it */
    if ((st = next_content_line(r, &c, 1, &got)) != PRISM_OK)
      break;
    if (!got) {
      if (read < declared)
        st = io_fail(r, r->line + 1, PRISM_INVALID_ARGUMENT,
                     "expected entry %llu of the %llu declared on line %llu, "
                     "found end of file",
                     (unsigned long long)read + 1, (unsigned long long)declared,
                     (unsigned long long)size_line);
      break;
    }
    if (read == declared) {
      st = io_fail(r, r->line, PRISM_INVALID_ARGUMENT,
                   "more entries than the %llu declared on line %llu; "
                   "expected end of file",
                   (unsigned long long)declared, (unsigned long long)size_line);
      break;
    }
    read++;
    if ((st = mm_index(r, &c, "a row index", rows, &u)) != PRISM_OK ||
        (st = mm_index(r, &c, "a column index", cols, &v)) != PRISM_OK ||
        (st = mm_value(r, &c, field, spec->value_size, &value)) != PRISM_OK ||
        (st = entry_indices(r, spec, &ids, u, v, 1, &iu, &iv)) != PRISM_OK ||
        (st = store_add(&s, r, iu, iv, &value)) != PRISM_OK)
      break;
  }
  if (st == PRISM_OK && !spec->relabel)
    st = check_vertex_bound(r, size_line, rows, "the rows declared");
  if (st == PRISM_OK)
    st = finish_load(spec, &s, &ids, (size_t)rows, (size_t)cols, out);
  store_free(&s);
  id_map_free(&ids);
  return st;
}

/* ---- Edge lists ---------------------------------------------------------- */

/* A vertex id as the file writes it: at least options->index_base and,
 * unless the load relabels, an index below options->max_vertices. */
static prism_status edge_id(reader *r, cursor *c, const char *what,
                            const load_spec *spec, uint64_t *id) {
  char shown[64];
  const char *tok;
  size_t len;
  uint64_t v = 0, base = (uint64_t)spec->index_base;
  next_token(c, &tok, &len);
  number_kind k = parse_u64(tok, len, &v);
  if (k == NUMBER_BAD)
    return io_fail(r, r->line, PRISM_INVALID_ARGUMENT,
                   "expected %s (a non-negative integer), found %s", what,
                   shown_token(tok, len, shown, sizeof shown));
  if (k == NUMBER_NEGATIVE)
    return io_fail(r, r->line, PRISM_INVALID_ARGUMENT,
                   "%s %s is negative; expected a non-negative integer", what,
                   shown_token(tok, len, shown, sizeof shown));
  if (k == NUMBER_OK && v < base)
    return io_fail(r, r->line, PRISM_INVALID_ARGUMENT,
                   "%s 0 in a 1-based edge list (options->index_base = 1); "
                   "expected ids from 1",
                   what);
  if (k == NUMBER_TOO_LARGE && spec->relabel)
    return io_fail(r, r->line, PRISM_INVALID_ARGUMENT,
                   "%s %s is out of range; expected at most %llu", what,
                   shown_token(tok, len, shown, sizeof shown),
                   (unsigned long long)UINT64_MAX);
  if (!spec->relabel &&
      (k == NUMBER_TOO_LARGE || v - base >= spec->max_vertices))
    return io_fail(r, r->line, PRISM_INVALID_ARGUMENT,
                   "%s %s is out of range; expected at most %zu vertices "
                   "(options->max_vertices, at most 2^32 - 1)",
                   what, shown_token(tok, len, shown, sizeof shown),
                   spec->max_vertices);
  *id = v;
  return PRISM_OK;
}

/* Further columns are numbers. A matrix takes the first as the entry's
 * value (1.0 without one); the rest (timestamps), like all of them for a
 * graph, are ignored. */
static prism_status edge_extra(reader *r, cursor *c, size_t value_size,
                               void *value) {
  char shown[64];
  if (value_size)
    unit_value(value_size, value);
  for (int first = 1;; first = 0) {
    const char *tok;
    size_t len;
    next_token(c, &tok, &len);
    if (len == 0)
      return PRISM_OK;
    if (!is_real(tok, len))
      return io_fail(r, r->line, PRISM_INVALID_ARGUMENT,
                     "expected end of line (or a number: a weight), found %s",
                     shown_token(tok, len, shown, sizeof shown));
    if (first && value_size) {
      prism_status st = convert_value(r, tok, len, value_size, value);
      if (st != PRISM_OK)
        return st;
    }
  }
}

static prism_status load_edge_list(reader *r, const load_spec *spec,
                                   prism_csr_matrix *out) {
  edge_store s = store_for(spec, spec->symmetrize);
  id_map ids = {NULL, 0, 0, spec->max_vertices};
  uint32_t max_id = 0;
  uint64_t max_line = 0; /* where max_id was first seen */
  uint64_t read = 0;     /* edge lines */
  prism_status st;
  for (;;) {
    cursor c;
    int got;
    uint64_t u, v;
    uint32_t iu, iv;
    double value; /* value_size bytes of it */
    if ((st = next_content_line(r, &c, 0, &got)) != PRISM_OK)
      break;
    if (!got) {
      if (read == 0)
        st = io_fail(r, r->line + 1, PRISM_INVALID_ARGUMENT,
                     "expected an edge (two vertex ids), found end of file; "
                     "the file holds no edges");
      break;
    }
    if (starts_comment(r, c.p, (size_t)(c.end - c.p))) {
      const char *tok;
      size_t len;
      next_token(&c, &tok, &len);
      if (read == 0 && token_is(tok, len, "%%matrixmarket")) {
        st = io_fail(r, r->line, PRISM_INVALID_ARGUMENT,
                     "a Matrix Market banner; expected an edge list (load "
                     "it as PRISM_GRAPH_MATRIX_MARKET or AUTO)");
        break;
      }
      continue;
    }
    read++;
    if ((st = edge_id(r, &c, "the source vertex id", spec, &u)) != PRISM_OK ||
        (st = edge_id(r, &c, "the target vertex id", spec, &v)) != PRISM_OK ||
        (st = edge_extra(r, &c, spec->value_size, &value)) != PRISM_OK ||
        (st = entry_indices(r, spec, &ids, u, v, spec->index_base, &iu, &iv)) !=
            PRISM_OK ||
        (st = store_add(&s, r, iu, iv, &value)) != PRISM_OK)
      break;
    /* A dropped self loop still names its vertex. */
    uint32_t hi = iu > iv ? iu : iv;
    if (hi > max_id || max_line == 0) {
      max_id = hi;
      max_line = r->line;
    }
  }
  if (st == PRISM_OK && !spec->relabel)
    st = check_vertex_bound(r, max_line, (uint64_t)max_id + 1,
                            "the largest id + 1");
  if (st == PRISM_OK)
    st = finish_load(spec, &s, &ids, (size_t)max_id + 1, (size_t)max_id + 1,
                     out);
  store_free(&s);
  id_map_free(&ids);
  return st;
}

/* ---- prism_csr_load and prism_csr_matrix_load ---------------------------- */

void prism_load_options_init(prism_load_options *options) {
  if (!options)
    return;
  memset(options, 0, sizeof *options);
  options->format = PRISM_GRAPH_AUTO;
  options->index_base = 0;
  options->symmetrize = 0;
  options->max_vertices = PRISM__CSR_MAX_VERTICES;
  options->max_edges = (size_t)1 << 34;
  options->drop_self_loops = 0;
  options->merge_duplicates = 0;
  options->relabel = 0;
}

/* Skip the blank space (blank lines too) before the file's first content,
 * however long, counting its lines: both loaders skip it anyway, and AUTO
 * then sees the first non-blank bytes wherever they are, not only within
 * the first chunk. */
static prism_status skip_leading_blanks(reader *r) {
  for (;;) {
    while (r->begin < r->end &&
           (is_blank(r->buf[r->begin]) || r->buf[r->begin] == '\n'))
      r->line += r->buf[r->begin++] == '\n';
    if (r->end - r->begin >= 2 || r->eof)
      return PRISM_OK;
    prism_status st = reader_fill(r);
    if (st != PRISM_OK)
      return st;
  }
}

/* AUTO, after skip_leading_blanks: Matrix Market when the first bytes are
 * "%%" (so a misspelt banner is reported as one). */
static prism_graph_format detect_format(const reader *r) {
  const char *p = r->buf + r->begin;
  return r->end - r->begin >= 2 && p[0] == '%' && p[1] == '%'
             ? PRISM_GRAPH_MATRIX_MARKET
             : PRISM_GRAPH_EDGE_LIST;
}

static prism_status load_file(reader *r, const load_spec *spec,
                              prism_graph_format format,
                              prism_csr_matrix *out) {
  prism_status st = reader_fill(r);
  if (st != PRISM_OK)
    return st;
  if (r->end == 0)
    return io_fail(r, 1, PRISM_INVALID_ARGUMENT,
                   "the file is empty; expected a Matrix Market file or an "
                   "edge list");
  if (r->end >= 3 && memcmp(r->buf, "\xEF\xBB\xBF", 3) == 0)
    r->begin = 3; /* a UTF-8 byte order mark */
  if ((st = skip_leading_blanks(r)) != PRISM_OK)
    return st;
  if (format == PRISM_GRAPH_AUTO)
    format = detect_format(r);
  if (format == PRISM_GRAPH_MATRIX_MARKET) {
    r->comments = "%";
    return load_matrix_market(r, spec, out);
  }
  r->comments = "#%";
  return load_edge_list(r, spec, out);
}

/* The checks every load starts with (out is zeroed by the caller): name
 * (the path, or what a stream is called) and the options (NULL:
 * defaults), into spec and *format. */
static prism_status load_args(const char *fn, const char *name,
                              const char *name_arg,
                              const prism_load_options *options,
                              size_t value_size, load_spec *spec,
                              prism_graph_format *format) {
  if (!name)
    return prism__fail(NULL, PRISM_NULL_POINTER, "%s: %s is NULL", fn,
                       name_arg);
  prism_load_options o;
  if (options)
    o = *options;
  else
    prism_load_options_init(&o);
  if (o.format != PRISM_GRAPH_AUTO && o.format != PRISM_GRAPH_MATRIX_MARKET &&
      o.format != PRISM_GRAPH_EDGE_LIST)
    return prism__fail(NULL, PRISM_INVALID_ARGUMENT,
                       "%s: options->format = %d is not a prism_graph_format",
                       fn, (int)o.format);
  if (o.index_base != 0 && o.index_base != 1)
    return prism__fail(NULL, PRISM_INVALID_ARGUMENT,
                       "%s: options->index_base = %d; must be 0 or 1", fn,
                       o.index_base);
  memset(spec, 0, sizeof *spec);
  spec->fn = fn;
  spec->max_vertices = o.max_vertices < PRISM__CSR_MAX_VERTICES
                           ? o.max_vertices
                           : PRISM__CSR_MAX_VERTICES;
  spec->max_edges = o.max_edges;
  spec->index_base = o.index_base;
  spec->symmetrize = o.symmetrize != 0;
  spec->drop_self_loops = o.drop_self_loops != 0;
  spec->merge_duplicates = o.merge_duplicates != 0;
  spec->relabel = o.relabel != 0;
  spec->value_size = value_size;
  *format = o.format;
  return PRISM_OK;
}

/* Values are converted under the C locale (convert_value), set for this
 * thread only while the file is read. */
static prism_status load_from(FILE *f, const char *name, const load_spec *spec,
                              prism_graph_format format,
                              prism_csr_matrix *out) {
  reader r;
  memset(&r, 0, sizeof r);
  r.f = f;
  r.path = name;
  r.fn = spec->fn;
  r.comments = "%";
  r.buf = malloc(IO_CHUNK);
  r.token = spec->value_size ? malloc(IO_LINE_MAX + 1) : NULL;
  locale_t c_locale =
      spec->value_size ? newlocale(LC_NUMERIC_MASK, "C", (locale_t)0) : NULL;
  prism_status st = PRISM_OK;
  if (!r.buf || (spec->value_size && (!r.token || !c_locale))) {
    st = no_buffer(spec->fn);
  } else {
    locale_t caller = c_locale ? uselocale(c_locale) : NULL;
    st = load_file(&r, spec, format, out);
    if (c_locale)
      uselocale(caller);
  }
  if (c_locale)
    freelocale(c_locale);
  free(r.token);
  free(r.buf);
  if (st != PRISM_OK)
    prism_csr_matrix_free(out);
  return st;
}

/* Open name as a path (open_name) or read f, and load it; a graph keeps only
 * the CSR. */
static prism_status load_graph(FILE *f, int open_name, const char *name,
                               const char *name_arg,
                               const prism_load_options *options,
                               prism_csr *out) {
  if (!out)
    return prism__fail(NULL, PRISM_NULL_POINTER, "%s: out is NULL", load_fn);
  memset(out, 0, sizeof *out);
  load_spec spec;
  prism_graph_format format = PRISM_GRAPH_AUTO;
  prism_status st =
      load_args(load_fn, name, name_arg, options, 0, &spec, &format);
  if (st != PRISM_OK)
    return st;
  FILE *opened = NULL;
  if (open_name && !(f = opened = fopen(name, "rb")))
    return path_fail(load_fn, "open", name, errno);
  if (!f)
    return prism__fail(NULL, PRISM_NULL_POINTER, "%s: f is NULL", load_fn);
  prism_csr_matrix m;
  memset(&m, 0, sizeof m);
  st = load_from(f, name, &spec, format, &m);
  if (opened)
    fclose(opened);
  if (st == PRISM_OK) {
    *out = m.csr;
    free(m.ids); /* a relabelled graph drops the map */
  }
  return st;
}

prism_status prism__csr_load_stream(FILE *f, const char *name,
                                    const prism_load_options *options,
                                    prism_csr *out) {
  return load_graph(f, 0, name, "name", options, out);
}

prism_status prism_csr_load(const char *path, const prism_load_options *options,
                            prism_csr *out) {
  return load_graph(NULL, 1, path, "path", options, out);
}

static prism_status load_matrix(FILE *f, int open_name, const char *name,
                                const char *name_arg,
                                const prism_load_options *options,
                                prism_type value_type, prism_csr_matrix *out) {
  const char *fn = matrix_load_fn;
  if (!out)
    return prism__fail(NULL, PRISM_NULL_POINTER, "%s: out is NULL", fn);
  memset(out, 0, sizeof *out);
  if (value_type != PRISM_F32 && value_type != PRISM_F64)
    return prism__fail(NULL, PRISM_INVALID_ARGUMENT,
                       "%s: value_type = %d (%s); must be PRISM_F32 or "
                       "PRISM_F64",
                       fn, (int)value_type, prism_type_name(value_type));
  load_spec spec;
  prism_graph_format format = PRISM_GRAPH_AUTO;
  prism_status st = load_args(fn, name, name_arg, options,
                              prism_type_size(value_type), &spec, &format);
  if (st != PRISM_OK)
    return st;
  FILE *opened = NULL;
  if (open_name && !(f = opened = fopen(name, "rb")))
    return path_fail(fn, "open", name, errno);
  if (!f)
    return prism__fail(NULL, PRISM_NULL_POINTER, "%s: f is NULL", fn);
  st = load_from(f, name, &spec, format, out);
  if (opened)
    fclose(opened);
  if (st == PRISM_OK)
    out->value_type = value_type;
  return st;
}

prism_status prism__csr_matrix_load_stream(FILE *f, const char *name,
                                           const prism_load_options *options,
                                           prism_type value_type,
                                           prism_csr_matrix *out) {
  return load_matrix(f, 0, name, "name", options, value_type, out);
}

prism_status prism_csr_matrix_load(const char *path,
                                   const prism_load_options *options,
                                   prism_type value_type,
                                   prism_csr_matrix *out) {
  return load_matrix(NULL, 1, path, "path", options, value_type, out);
}

/* ---- Saving -------------------------------------------------------------- */

typedef struct writer {
  FILE *f;
  char *buf;
  size_t len;
  int failed; /* errno of the first failed write */
} writer;

static void writer_flush(writer *w) {
  if (w->len > 0 && !w->failed && fwrite(w->buf, 1, w->len, w->f) != w->len)
    w->failed = errno ? errno : EIO;
  w->len = 0;
}

static void write_text(writer *w, const char *s) {
  size_t len = strlen(s);
  if (w->len + len > IO_CHUNK)
    writer_flush(w);
  memcpy(w->buf + w->len, s, len);
  w->len += len;
}

/* Decimal digits of v, then sep. */
static void write_u64(writer *w, uint64_t v, char sep) {
  char digits[24];
  int k = 0;
  do {
    digits[k++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  if (w->len + (size_t)k + 1 > IO_CHUNK)
    writer_flush(w);
  while (k > 0)
    w->buf[w->len++] = digits[--k];
  w->buf[w->len++] = sep;
}

/* An undirected CSR is saved as its lower triangle (entry u v with
 * v <= u, from row u), each edge once: that only gives the graph back if
 * each edge is listed both ways. A necessary condition, checked cheaply:
 * the lower entries, doubled less the self loops, are all the edges. */
static prism_status count_lower(const prism_csr *csr, uint64_t *entries) {
  uint64_t lower = 0, loops = 0;
  for (size_t u = 0; u < csr->num_vertices; u++)
    for (uint64_t e = csr->row_offsets[u]; e < csr->row_offsets[u + 1]; e++) {
      lower += csr->col_indices[e] <= u;
      loops += csr->col_indices[e] == u;
    }
  if (2 * lower - loops != csr->num_edges)
    return prism__fail(NULL, PRISM_INVALID_ARGUMENT,
                       "%s: csr->directed is 0 but its rows do not list each "
                       "edge both ways (%llu edges on or below the diagonal, "
                       "%llu self loops, %zu edges in all)",
                       save_fn, (unsigned long long)lower,
                       (unsigned long long)loops, csr->num_edges);
  *entries = lower;
  return PRISM_OK;
}

static uint64_t digits(uint64_t v) {
  uint64_t k = 1;
  while (v >= 10) {
    v /= 10;
    k++;
  }
  return k;
}

/* Bytes of the entry lines write_matrix_market writes. */
static uint64_t entry_bytes(const prism_csr *csr) {
  uint64_t bytes = 0;
  for (size_t u = 0; u < csr->num_vertices; u++)
    for (uint64_t e = csr->row_offsets[u]; e < csr->row_offsets[u + 1]; e++) {
      uint32_t v = csr->col_indices[e];
      if (csr->directed || v <= u)
        bytes += digits((uint64_t)u + 1) + digits((uint64_t)v + 1) + 2;
    }
  return bytes;
}

/* A graph of far more vertices than entries (mostly isolated) gets comment
 * lines after the banner, so that its file holds the bytes the loader asks
 * of its vertex count (vertex_bound) and loads back. */
static void write_padding(writer *w, const prism_csr *csr, uint64_t entries,
                          uint64_t banner) {
  static const char why[] = "% padding: prism_csr_load reads at most 2^20 "
                            "+ 16 vertices per byte of a file\n";
  static const char line[] = "%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%"
                             "%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%\n";
  uint64_t n = csr->num_vertices;
  if (n <= PRISM__FREE_VERTICES)
    return;
  uint64_t need = (n - PRISM__FREE_VERTICES + PRISM__VERTICES_PER_BYTE - 1) /
                  PRISM__VERTICES_PER_BYTE;
  uint64_t size =
      banner + 2 * digits(n) + digits(entries) + 3 + entry_bytes(csr);
  if (size >= need)
    return;
  write_text(w, why);
  for (uint64_t have = size + sizeof why - 1; have < need;) {
    uint64_t len =
        need - have < sizeof line - 1 ? need - have : sizeof line - 1;
    len = len < 2 ? 2 : len; /* "%\n" */
    write_text(w, line + (sizeof line - 1 - len));
    have += len;
  }
}

/* The file into w's stream, flushed: 0 or the errno of the first failure. */
static int write_matrix_market(writer *w, const prism_csr *csr,
                               uint64_t entries) {
  const char *banner =
      csr->directed ? "%%MatrixMarket matrix coordinate pattern general\n"
                    : "%%MatrixMarket matrix coordinate pattern symmetric\n";
  write_text(w, banner);
  write_padding(w, csr, entries, strlen(banner));
  write_u64(w, csr->num_vertices, ' ');
  write_u64(w, csr->num_vertices, ' ');
  write_u64(w, entries, '\n');
  for (size_t u = 0; u < csr->num_vertices; u++)
    for (uint64_t e = csr->row_offsets[u]; e < csr->row_offsets[u + 1]; e++) {
      uint32_t v = csr->col_indices[e];
      if (!csr->directed && v > u)
        continue;
      write_u64(w, (uint64_t)u + 1, ' ');
      write_u64(w, (uint64_t)v + 1, '\n');
    }
  writer_flush(w);
  errno = 0;
  if (!w->failed && fflush(w->f) != 0)
    w->failed = errno ? errno : EIO;
  return w->failed;
}

/* The checks before anything is created: the CSR, the path, and for an
 * undirected CSR the entries of its lower triangle. */
static prism_status save_args(const prism_csr *csr, const void *target,
                              const char *target_arg, uint64_t *entries) {
  prism_status st = prism__csr_check(NULL, csr, save_fn);
  if (st != PRISM_OK)
    return st;
  if (!target)
    return prism__fail(NULL, PRISM_NULL_POINTER, "%s: %s is NULL", save_fn,
                       target_arg);
  *entries = csr->num_edges;
  return csr->directed ? PRISM_OK : count_lower(csr, entries);
}

prism_status prism__csr_write_matrix_market(const prism_csr *csr, FILE *f,
                                            const char *name) {
  uint64_t entries;
  prism_status st = save_args(csr, f, "f", &entries);
  if (st != PRISM_OK)
    return st;
  if (!name)
    return prism__fail(NULL, PRISM_NULL_POINTER, "%s: name is NULL", save_fn);
  writer w = {f, malloc(IO_CHUNK), 0, 0};
  if (!w.buf)
    return no_buffer(save_fn);
  int err = write_matrix_market(&w, csr, entries);
  free(w.buf);
  return err ? path_fail(save_fn, "write", name, err) : PRISM_OK;
}

/* ---- Where a save writes ------------------------------------------------- */

/* The target of the symbolic link at path (st_size bytes, or more: a
 * link may change, or report 0), malloc'd; NULL with errno set. */
static char *read_link(const char *path, size_t size) {
  for (size = size < 64 ? 64 : size + 1;; size *= 2) {
    char *buf = malloc(size);
    if (!buf) {
      errno = ENOMEM;
      return NULL;
    }
    ssize_t n = readlink(path, buf, size);
    if (n >= 0 && (size_t)n < size) {
      buf[n] = '\0';
      return buf;
    }
    int err = errno;
    free(buf);
    if (n < 0) {
      errno = err;
      return NULL;
    }
  }
}

/* The bytes of path up to and including its last '/' (0 without one). */
static size_t dir_length(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? (size_t)(slash - path) + 1 : 0;
}

/* link as seen from the directory of the link at path, malloc'd. */
static char *link_target(const char *path, const char *link) {
  size_t dir = link[0] == '/' ? 0 : dir_length(path), len = strlen(link);
  char *p = malloc(dir + len + 1);
  if (!p) {
    errno = ENOMEM;
    return NULL;
  }
  memcpy(p, path, dir);
  memcpy(p + dir, link, len + 1);
  return p;
}

/* path with the symbolic links of its last component followed, malloc'd:
 * the rename replaces the file a link names, so the link stays one. A path
 * that names nothing (yet) is itself. NULL with errno set on failure. */
static char *follow_links(const char *path) {
  size_t len = strlen(path) + 1;
  char *p = malloc(len);
  if (!p) {
    errno = ENOMEM;
    return NULL;
  }
  memcpy(p, path, len);
  for (int hops = 0;; hops++) {
    struct stat st;
    if (lstat(p, &st) != 0 || !S_ISLNK(st.st_mode))
      return p;
    char *link = hops < IO_MAX_LINKS ? read_link(p, (size_t)st.st_size) : NULL;
    char *next = link ? link_target(p, link) : NULL;
    int err = hops < IO_MAX_LINKS ? errno : ELOOP;
    free(link);
    free(p);
    if (!next) {
      errno = err;
      return NULL;
    }
    p = next;
  }
}

/* A new file beside final, named after it. Created with O_EXCL (nothing
 * that was there is ever opened) and mode 0666, so the umask and a default
 * ACL give it what a plain fopen would: mkstemp's 0600 would need the
 * umask, which a process can only read by changing it. */
static int create_temp(const char *final, char **temp) {
  static atomic_uint serial;
  size_t dir = dir_length(final), base = strlen(final + dir);
  if (base > IO_TEMP_NAME_MAX)
    base = IO_TEMP_NAME_MAX;
  size_t size = dir + base + 64;
  char *name = malloc(size);
  if (!name) {
    errno = ENOMEM;
    return -1;
  }
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  for (int i = 0; i < IO_TEMP_TRIES; i++) {
    snprintf(name, size, "%.*s.tmp-%ld-%u-%lx", (int)(dir + base), final,
             (long)getpid(), atomic_fetch_add(&serial, 1),
             (unsigned long)now.tv_nsec);
    int fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
      *temp = name;
      return fd;
    }
    if (errno != EEXIST)
      break;
  }
  int err = errno;
  free(name);
  errno = err;
  return -1;
}

typedef struct save_target {
  const char *path; /* as the caller named it, for messages */
  char *final;      /* the file the rename replaces: path, links followed */
  char *temp;       /* written, then renamed to final; NULL: path itself */
  FILE *f;
} save_target;

/* Write path itself: what is not a regular file (a device, a FIFO) is
 * never replaced, and never removed when writing it fails. */
static prism_status open_in_place(save_target *t) {
  if (!(t->f = fopen(t->path, "wb")))
    return path_fail(save_fn, "create", t->path, errno);
  return PRISM_OK;
}

/* The replacement of an existing file keeps its mode and, where the
 * process may give it, its owner (chown first: it clears set-id bits). */
static int keep_mode_and_owner(int fd, const struct stat *old) {
  if (fchown(fd, old->st_uid, old->st_gid) != 0) {
    /* Another owner needs privileges: the file is ours, as a copy is. */
  }
  return fchmod(fd, old->st_mode & 07777);
}

static void drop_temp(save_target *t) {
  if (t->temp)
    unlink(t->temp);
  free(t->temp);
  free(t->final);
  t->temp = t->final = NULL;
}

static prism_status open_target(const char *path, save_target *t) {
  memset(t, 0, sizeof *t);
  t->path = path;
  if (!*path) /* as fopen says, before a temporary file names nothing */
    return path_fail(save_fn, "create", path, ENOENT);
  struct stat old;
  int exists = stat(path, &old) == 0;
  if (exists && !S_ISREG(old.st_mode))
    return open_in_place(t);
  if (!(t->final = follow_links(path)))
    return path_fail(save_fn, "create", path, errno);
  int fd = create_temp(t->final, &t->temp);
  if (fd < 0) {
    int err = errno;
    drop_temp(t);
    /* A writable file in a directory that takes no new ones is written in
     * place, as before: it may be left partial, but never removed. */
    if (exists && (err == EACCES || err == EPERM) && access(path, W_OK) == 0)
      return open_in_place(t);
    return path_fail(save_fn, "create", path, err);
  }
  if ((exists && keep_mode_and_owner(fd, &old) != 0) ||
      !(t->f = fdopen(fd, "wb"))) {
    int err = errno;
    close(fd);
    drop_temp(t);
    return path_fail(save_fn, "create", path, err);
  }
  return PRISM_OK;
}

/* Close; a temporary file, complete on disk, is renamed over the target.
 * On any failure only the temporary file, which prism made, is removed. */
static prism_status close_target(save_target *t, int err) {
  const char *verb = "write";
  if (!err && t->temp && fsync(fileno(t->f)) != 0 && errno != EINVAL)
    err = errno;
  errno = 0;
  if (fclose(t->f) != 0 && !err)
    err = errno ? errno : EIO;
  if (!err && t->temp && rename(t->temp, t->final) != 0) {
    err = errno;
    verb = "replace";
  }
  if (!err && t->temp) {
    free(t->temp); /* renamed: nothing left to remove */
    t->temp = NULL;
  }
  drop_temp(t);
  return err ? path_fail(save_fn, verb, t->path, err) : PRISM_OK;
}

prism_status prism_csr_save_matrix_market(const prism_csr *csr,
                                          const char *path) {
  uint64_t entries;
  prism_status st = save_args(csr, path, "path", &entries);
  if (st != PRISM_OK)
    return st;
  writer w = {NULL, malloc(IO_CHUNK), 0, 0};
  if (!w.buf)
    return no_buffer(save_fn);
  save_target t;
  if ((st = open_target(path, &t)) == PRISM_OK) {
    w.f = t.f;
    st = close_target(&t, write_matrix_market(&w, csr, entries));
  }
  free(w.buf);
  return st;
}
