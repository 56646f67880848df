/* SPDX-License-Identifier: MIT */
/* Top-k: a bounded heap per row, then a heapsort of it (see ref_topk.h). */
#include "ref_topk.h"

#include "key_order.h"

#include <stdint.h>
#include <stdlib.h>

/* Images are taken a chunk of keys at a time, into a buffer on the stack:
 * one typed loop per key type, one heap for all of them. */
#define CHUNK 256

/* A candidate: its image (complemented for descending order) and its
 * column. Candidates order by (image, column): the stable sort's order. */
typedef struct candidate {
  uint64_t image, col;
} candidate;

static int before(candidate a, candidate b) {
  return a.image < b.image || (a.image == b.image && a.col < b.col);
}

/* The images of keys [from, from + n) into out, each xor flip (all the
 * width's ones for descending order, else 0). */
#define IMAGE_LOOP(NAME, E, B)                                                 \
  static void images_##NAME(const void *keys, size_t from, size_t n,           \
                            int descending, uint64_t *out) {                   \
    const B flip = descending ? (B) ~(B)0 : (B)0;                              \
    const B *in = (const B *)keys + from;                                      \
    for (size_t i = 0; i < n; i++)                                             \
      out[i] = (uint64_t)(B)(PRISM_KEY_IMAGE_##E(in[i]) ^ flip);               \
  }

IMAGE_LOOP(u32, U32, uint32_t)
IMAGE_LOOP(i32, I32, uint32_t)
IMAGE_LOOP(f32, F32, uint32_t)
IMAGE_LOOP(u64, U64, uint64_t)
IMAGE_LOOP(i64, I64, uint64_t)
IMAGE_LOOP(f64, F64, uint64_t)

typedef void (*image_fn)(const void *, size_t, size_t, int, uint64_t *);

static image_fn image_loop(prism_type type) {
  switch (type) {
#define CASE(NAME, E)                                                          \
  case PRISM_##E:                                                              \
    return images_##NAME;
    CASE(u32, U32)
    CASE(i32, I32)
    CASE(f32, F32)
    CASE(u64, U64)
    CASE(i64, I64)
    CASE(f64, F64)
#undef CASE
  case PRISM_U8: /* not a key type */
    break;
  }
  return NULL;
}

/* Restore the max-heap heap[0, n) below position at: the root is the
 * candidate last in order, the one a better key displaces. */
static void sift_down(candidate *heap, size_t n, size_t at) {
  candidate c = heap[at];
  for (;;) {
    size_t child = 2 * at + 1;
    if (child >= n)
      break;
    if (child + 1 < n && before(heap[child], heap[child + 1]))
      child++;
    if (!before(c, heap[child]))
      break;
    heap[at] = heap[child];
    at = child;
  }
  heap[at] = c;
}

static void sift_up(candidate *heap, size_t at) {
  candidate c = heap[at];
  while (at > 0) {
    size_t parent = (at - 1) / 2;
    if (!before(heap[parent], c))
      break;
    heap[at] = heap[parent];
    at = parent;
  }
  heap[at] = c;
}

/* One row: the k best candidates in heap, then sorted into out. */
static void topk_row(image_fn images, const void *keys, size_t first,
                     size_t cols, size_t k, int descending, candidate *heap,
                     uint64_t *out) {
  uint64_t image[CHUNK];
  size_t held = 0;
  for (size_t c0 = 0; c0 < cols; c0 += CHUNK) {
    const size_t n = cols - c0 < CHUNK ? cols - c0 : CHUNK;
    images(keys, first + c0, n, descending, image);
    for (size_t i = 0; i < n; i++) {
      const candidate c = {image[i], c0 + i};
      if (held < k) {
        heap[held] = c;
        sift_up(heap, held++);
      } else if (c.image < heap[0].image) {
        /* Columns come in increasing order: an equal image is later in
         * the stable order than every candidate held, so only a smaller
         * image displaces the last one. */
        heap[0] = c;
        sift_down(heap, k, 0);
      }
    }
  }
  /* Heapsort: the last in order goes to the end each time. */
  for (size_t n = held; n > 1; n--) {
    candidate last = heap[0];
    heap[0] = heap[n - 1];
    heap[n - 1] = last;
    sift_down(heap, n - 1, 0);
  }
  for (size_t i = 0; i < held; i++)
    out[i] = heap[i].col;
}

int ref_topk(prism_type key_type, const void *keys, size_t rows, size_t cols,
             size_t k, int descending, uint64_t *cols_out) {
  const image_fn images = image_loop(key_type);
  if (!images || rows == 0 || k == 0)
    return 0;
  /* k <= cols by the contract; a longer k leaves the tail of each row's
   * k outputs unwritten. */
  candidate *heap = malloc((k < cols ? k : cols ? cols : 1) * sizeof *heap);
  if (!heap)
    return -1;
  for (size_t r = 0; r < rows; r++)
    topk_row(images, keys, r * cols, cols, k, descending, heap,
             cols_out + r * k);
  free(heap);
  return 0;
}
