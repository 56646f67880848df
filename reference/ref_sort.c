/* SPDX-License-Identifier: MIT */
/* Sort: the reference order (a stable LSD radix sort), the serial qsort and
 * the check (see ref_sort.h). */
#include "ref_sort.h"

#include "key_order.h"
#include "ref_value.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* name, prism_type without prefix, the unsigned type of the key's bits. */
#define KEY_TYPES(X)                                                           \
  X(u32, U32, uint32_t)                                                        \
  X(i32, I32, uint32_t)                                                        \
  X(f32, F32, uint32_t)                                                        \
  X(u64, U64, uint64_t)                                                        \
  X(i64, I64, uint64_t)                                                        \
  X(f64, F64, uint64_t)

#define DIGIT_BITS 8

/* Bits [begin, end) of a 64-bit word: the part of the image that sorts. */
static uint64_t field_mask(unsigned begin, unsigned end) {
  uint64_t below_end = end >= 64 ? ~0ull : (1ull << end) - 1;
  return below_end & ~((1ull << begin) - 1);
}

/* ---- The reference order: a stable LSD radix sort ------------------------ */

/* The image of key i of in, as 64 bits. */
static uint64_t image_at(prism_type type, const void *in, size_t i) {
  switch (type) {
#define CASE(NAME, E, B)                                                       \
  case PRISM_##E: {                                                            \
    B b;                                                                       \
    memcpy(&b, (const char *)in + i * sizeof b, sizeof b);                     \
    return (uint64_t)PRISM_KEY_IMAGE_##E(b);                                   \
  }
    KEY_TYPES(CASE)
#undef CASE
  case PRISM_U8: /* not a key type */
    break;
  }
  return 0;
}

/* The part of key i's image that sorts: bits [begin, begin + width) moved
 * down to bit 0 (field: width ones), complemented for descending order. */
static uint64_t sort_field(prism_type type, const void *in, size_t i,
                           int descending, unsigned begin, uint64_t field) {
  uint64_t k = (image_at(type, in, i) >> begin) & field;
  return descending ? k ^ field : k;
}

/* Segments at most this long sort by insertion: a radix pass costs a
 * count per digit, too much for a million tiny segments. */
#define INSERTION_MAX 32

/* Sort the fields key[0, n) (width bits each) stably, carrying index
 * along: the sorted order ends in index (key is left scrambled). key2 and
 * index2 have room for n each. */
static void sort_fields(uint64_t *key, size_t *index, size_t n, unsigned width,
                        uint64_t *key2, size_t *index2) {
  if (n <= INSERTION_MAX) {
    for (size_t i = 1; i < n; i++) {
      uint64_t k = key[i];
      size_t x = index[i], j = i;
      for (; j > 0 && key[j - 1] > k; j--) {
        key[j] = key[j - 1];
        index[j] = index[j - 1];
      }
      key[j] = k;
      index[j] = x;
    }
    return;
  }
  size_t *from = index, *to = index2;
  for (unsigned shift = 0; shift < width; shift += DIGIT_BITS) {
    size_t count[1u << DIGIT_BITS] = {0};
    for (size_t i = 0; i < n; i++)
      count[(key[i] >> shift) & ((1u << DIGIT_BITS) - 1)]++;
    size_t sum = 0;
    for (size_t d = 0; d < (1u << DIGIT_BITS); d++) {
      size_t c = count[d];
      count[d] = sum;
      sum += c;
    }
    for (size_t i = 0; i < n; i++) {
      size_t at = count[(key[i] >> shift) & ((1u << DIGIT_BITS) - 1)]++;
      key2[at] = key[i];
      to[at] = from[i];
    }
    uint64_t *kt = key;
    key = key2;
    key2 = kt;
    size_t *it = from;
    from = to;
    to = it;
  }
  if (from != index) /* an odd number of passes */
    memcpy(index, from, n * sizeof *index);
}

/* The input index of the element that lands at each position of each
 * segment [offsets[s], offsets[s + 1]) into index (nsegs segments; NULL
 * offsets: one segment over [0, n)); positions outside every segment map
 * to themselves. 0 when the host is out of memory (index untouched). */
static int radix_order(prism_type type, const void *in, size_t n,
                       const uint64_t *offsets, size_t nsegs, int descending,
                       unsigned begin, unsigned end, size_t *index) {
  unsigned width = end - begin;
  uint64_t field = field_mask(0, width);
  size_t slots = n ? n : 1;
  uint64_t *key = malloc(slots * sizeof *key);
  uint64_t *key2 = malloc(slots * sizeof *key2);
  size_t *index2 = malloc(slots * sizeof *index2);
  if (!key || !key2 || !index2) {
    free(key);
    free(key2);
    free(index2);
    return 0;
  }
  for (size_t i = 0; i < n; i++) {
    key[i] = sort_field(type, in, i, descending, begin, field);
    index[i] = i;
  }
  if (!offsets) {
    sort_fields(key, index, n, width, key2, index2);
  } else {
    for (size_t s = 0; s < nsegs; s++) {
      uint64_t lo = offsets[s], hi = offsets[s + 1];
      if (lo <= hi && hi <= n) /* the contract; a bad segment stays */
        sort_fields(key + lo, index + lo, (size_t)(hi - lo), width, key2 + lo,
                    index2 + lo);
    }
  }
  free(key);
  free(key2);
  free(index2);
  return 1;
}

void ref_sort_order(prism_type key_type, const void *keys, size_t n,
                    int descending, unsigned begin_bit, unsigned end_bit,
                    size_t *perm) {
  if (!radix_order(key_type, keys, n, NULL, 0, descending, begin_bit, end_bit,
                   perm))
    abort();
}

size_t *ref_sort_order_new(prism_type key_type, const void *keys, size_t n,
                           int descending, unsigned begin_bit,
                           unsigned end_bit) {
  size_t *perm = malloc((n ? n : 1) * sizeof *perm);
  if (perm && !radix_order(key_type, keys, n, NULL, 0, descending, begin_bit,
                           end_bit, perm)) {
    free(perm);
    perm = NULL;
  }
  return perm;
}

size_t *ref_segmented_sort_order_new(prism_type key_type, const void *keys,
                                     size_t n, const uint64_t *offsets,
                                     size_t num_segments, int descending,
                                     unsigned begin_bit, unsigned end_bit) {
  size_t *perm = malloc((n ? n : 1) * sizeof *perm);
  if (perm && !radix_order(key_type, keys, n, offsets, num_segments, descending,
                           begin_bit, end_bit, perm)) {
    free(perm);
    perm = NULL;
  }
  return perm;
}

/* ---- The serial version: qsort ------------------------------------------- */

/* How the serial version keeps the keys: plain, or records of a key and its
 * input index (the value of a pair), each in a slot of the larger size. */
typedef struct sort_layout {
  size_t key;      /* bytes of a key */
  size_t index;    /* bytes of the index; 0: plain keys */
  size_t index_at; /* offset of the index in a record */
  size_t record;   /* bytes of an element of scratch */
} sort_layout;

static sort_layout layout_of(prism_type type, size_t value_size, unsigned begin,
                             unsigned end, size_t n) {
  sort_layout l;
  l.key = prism_type_size(type);
  int narrow = begin > 0 || end < l.key * 8; /* equal images, other keys */
  l.index = value_size ? value_size : narrow ? (n > UINT32_MAX ? 8 : 4) : 0;
  if (l.index == 0) {
    l.index_at = 0;
    l.record = l.key;
  } else {
    l.index_at = l.key > l.index ? l.key : l.index;
    l.record = 2 * l.index_at;
  }
  return l;
}

/* qsort's comparators take no context: the field and order of the sort
 * under way (one sort runs at a time). */
static struct {
  uint64_t mask;
  int descending;
} sorting;

#define DEFINE_COMPARE(NAME, E, B)                                             \
  static B image_##NAME(const void *key) {                                     \
    B b;                                                                       \
    memcpy(&b, key, sizeof b);                                                 \
    return (B)(PRISM_KEY_IMAGE_##E(b) & (B)sorting.mask);                      \
  }                                                                            \
  static int compare_##NAME(const void *a, const void *b) {                    \
    B x = image_##NAME(a), y = image_##NAME(b);                                \
    int c = (x > y) - (x < y);                                                 \
    return sorting.descending ? -c : c;                                        \
  }                                                                            \
  static int compare_##NAME##_index4(const void *a, const void *b) {           \
    int c = compare_##NAME(a, b);                                              \
    if (c)                                                                     \
      return c;                                                                \
    uint32_t i, j;                                                             \
    memcpy(&i, (const char *)a + (sizeof(B) > 4 ? sizeof(B) : 4), 4);          \
    memcpy(&j, (const char *)b + (sizeof(B) > 4 ? sizeof(B) : 4), 4);          \
    return (i > j) - (i < j);                                                  \
  }                                                                            \
  static int compare_##NAME##_index8(const void *a, const void *b) {           \
    int c = compare_##NAME(a, b);                                              \
    if (c)                                                                     \
      return c;                                                                \
    uint64_t i, j;                                                             \
    memcpy(&i, (const char *)a + 8, 8);                                        \
    memcpy(&j, (const char *)b + 8, 8);                                        \
    return (i > j) - (i < j);                                                  \
  }
KEY_TYPES(DEFINE_COMPARE)

typedef int (*compare_fn)(const void *, const void *);

static compare_fn comparator(prism_type type, size_t index) {
  switch (type) {
#define CASE(NAME, E, B)                                                       \
  case PRISM_##E:                                                              \
    return index == 0   ? compare_##NAME                                       \
           : index == 4 ? compare_##NAME##_index4                              \
                        : compare_##NAME##_index8;
    KEY_TYPES(CASE)
#undef CASE
  case PRISM_U8: /* not taken by these primitives */
    break;
  }
  return NULL;
}

size_t ref_serial_sort_bytes(prism_type type, size_t value_size,
                             unsigned begin_bit, unsigned end_bit, size_t n) {
  sort_layout l = layout_of(type, value_size, begin_bit, end_bit, n);
  return n > SIZE_MAX / l.record ? SIZE_MAX : n * l.record;
}

void ref_serial_sort_load(prism_type type, size_t value_size,
                          unsigned begin_bit, unsigned end_bit, const void *in,
                          size_t n, void *scratch) {
  sort_layout l = layout_of(type, value_size, begin_bit, end_bit, n);
  const char *src = in;
  char *dst = scratch;
  if (l.index == 0) {
    memcpy(scratch, in, n * l.key);
    return;
  }
  for (size_t i = 0; i < n; i++, src += l.key, dst += l.record) {
    memcpy(dst, src, l.key);
    if (l.index == 4) {
      uint32_t index = (uint32_t)i;
      memcpy(dst + l.index_at, &index, 4);
    } else {
      uint64_t index = (uint64_t)i;
      memcpy(dst + l.index_at, &index, 8);
    }
  }
}

void ref_serial_sort(prism_type type, prism_order order, size_t value_size,
                     unsigned begin_bit, unsigned end_bit, void *scratch,
                     size_t n) {
  sort_layout l = layout_of(type, value_size, begin_bit, end_bit, n);
  sorting.mask = field_mask(begin_bit, end_bit);
  sorting.descending = order == PRISM_DESCENDING;
  qsort(scratch, n, l.record, comparator(type, l.index));
}

void ref_serial_segmented_sort(prism_type type, prism_order order,
                               size_t value_size, unsigned begin_bit,
                               unsigned end_bit, void *scratch, size_t n,
                               const uint64_t *offsets, size_t num_segments) {
  /* The layout of the whole scratch: its records carry their index in the
   * whole input, which breaks ties within a segment as well. */
  sort_layout l = layout_of(type, value_size, begin_bit, end_bit, n);
  compare_fn compare = comparator(type, l.index);
  sorting.mask = field_mask(begin_bit, end_bit);
  sorting.descending = order == PRISM_DESCENDING;
  for (size_t s = 0; s < num_segments; s++) {
    uint64_t lo = offsets[s], hi = offsets[s + 1];
    if (lo < hi && hi <= n) /* the contract; a bad segment stays */
      qsort((char *)scratch + lo * l.record, (size_t)(hi - lo), l.record,
            compare);
  }
}

void ref_serial_sort_store(prism_type type, size_t value_size,
                           unsigned begin_bit, unsigned end_bit,
                           const void *scratch, size_t n, void *result) {
  sort_layout l = layout_of(type, value_size, begin_bit, end_bit, n);
  const char *src = scratch;
  char *keys = result, *values = keys + n * l.key;
  if (l.index == 0) {
    memcpy(result, scratch, n * l.key);
    return;
  }
  for (size_t i = 0; i < n; i++, src += l.record) {
    memcpy(keys + i * l.key, src, l.key);
    if (value_size)
      memcpy(values + i * value_size, src + l.index_at, value_size);
  }
}

/* ---- The check ----------------------------------------------------------- */

/* A key for messages: its value, and for floats its bits too. */
static void format_key(prism_type type, const void *key, char *buf,
                       size_t size) {
  char value[32];
  uint32_t b32;
  uint64_t b64;
  ref_format(type, key, value, sizeof value);
  if (type == PRISM_F32) {
    memcpy(&b32, key, 4);
    snprintf(buf, size, "%s (0x%08" PRIx32 ")", value, b32);
  } else if (type == PRISM_F64) {
    memcpy(&b64, key, 8);
    snprintf(buf, size, "%s (0x%016" PRIx64 ")", value, b64);
  } else {
    snprintf(buf, size, "%s", value);
  }
}

int ref_check_sort(prism_type type, size_t value_size, const void *in, size_t n,
                   const size_t *order, const void *got, char *msg,
                   size_t msg_size) {
  size_t ks = prism_type_size(type);
  const char *keys = got, *values = keys + n * ks, *src = in;
  for (size_t i = 0; i < n; i++) {
    const char *g = keys + i * ks, *w = src + order[i] * ks;
    if (memcmp(g, w, ks) != 0) {
      char gs[96], ws[96];
      format_key(type, g, gs, sizeof gs);
      format_key(type, w, ws, sizeof ws);
      snprintf(msg, msg_size,
               "key %zu: got %s, the stable sort by key image gives %s "
               "(input %zu)",
               i, gs, ws, order[i]);
      return 0;
    }
    if (value_size) { /* the values are the input indices */
      uint64_t v = 0, w_index = (uint64_t)order[i];
      if (value_size == 4) {
        uint32_t v32;
        memcpy(&v32, values + i * 4, 4);
        v = v32;
        w_index = (uint32_t)w_index;
      } else {
        memcpy(&v, values + i * 8, 8);
      }
      if (v != w_index) {
        snprintf(msg, msg_size,
                 "value %zu: got %" PRIu64 ", the stable sort gives %" PRIu64
                 " (a value apart from its key, or equal keys out of input "
                 "order)",
                 i, v, w_index);
        return 0;
      }
    }
  }
  return 1;
}
