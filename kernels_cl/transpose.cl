/* SPDX-License-Identifier: MIT */
/*
 * transpose.cl: out[b][c][r] = in[b][r][c] (core/backend.h,
 * prism__transpose_args), elements of 1, 2, 4 or 8 bytes moved bit for
 * bit. transpose_tiles is backend_cuda/transpose.cu's kernel of the same
 * name, step for step (a work-group for a block, local memory for shared
 * memory); transpose_blocks is the CPU policy's.
 *
 * Options (besides common.cl's, whose T goes unused here):
 *   PRISM_ELEM_BYTES         the element size: E is uchar, ushort, uint or
 *                            ulong.
 *   PRISM_PACK               transpose_tiles: 1, or the elements of a word
 *                            in core/backend.h's packed path (4 for 1-byte
 *                            elements, 2 for 2- and 4-byte ones): E is
 *                            then that word (uint; ulong for 4-byte
 *                            elements) and the unit a PRISM_PACK x
 *                            PRISM_PACK block.
 *   PRISM_TRANSPOSE_BLOCKED  0: transpose_tiles (GPUs); 1: transpose_blocks
 *                            (CPUs).
 *   PRISM_TILE               transpose_tiles: units per tile (elements, or
 *                            blocks when packed), a power of two and a
 *                            multiple of PRISM_WG.
 *   PRISM_TRANSPOSE_LOCAL    transpose_tiles: the __local bytes the host
 *                            stated (tuning.h's PRISM__CL_TRANSPOSE_LOCAL).
 *
 * Both take the tile's shape from the host: tr x tc = 2^log_tr x 2^log_tc
 * elements, tiles_r x tiles_c tiles per matrix, tiles in all; tile t is
 * tile t % (tiles_r * tiles_c) of matrix t / (tiles_r * tiles_c), in
 * row-major order over the matrix. Matrices of one row or one column are
 * the same bytes transposed: core copies them.
 */

#ifndef PRISM_PACK
#define PRISM_PACK 1
#endif
#define V PRISM_PACK

#if V > 1 && PRISM_ELEM_BYTES == 4
#define E ulong
#elif V > 1
#define E uint
#elif PRISM_ELEM_BYTES == 1
#define E uchar
#elif PRISM_ELEM_BYTES == 2
#define E ushort
#elif PRISM_ELEM_BYTES == 4
#define E uint
#else
#define E ulong
#endif

#ifndef PRISM_TRANSPOSE_BLOCKED
#define PRISM_TRANSPOSE_BLOCKED 0
#endif

/* Where tile t lies: its matrix's start b * rows * cols, its corner
 * (r0, c0), and how many of its rows and columns are inside the matrix. */
typedef struct tile_place {
  ulong matrix, r0, c0;
  int nr, nc;
} tile_place;

tile_place place_of(ulong t, ulong rows, ulong cols, int log_tr, int log_tc,
                    ulong tiles_r, ulong tiles_c) {
  const ulong per_matrix = tiles_r * tiles_c;
  const ulong b = t / per_matrix, in_matrix = t % per_matrix;
  tile_place p;
  p.matrix = b * rows * cols;
  p.r0 = in_matrix / tiles_c << log_tr;
  p.c0 = in_matrix % tiles_c << log_tc;
  p.nr = (int)min(rows - p.r0, (ulong)1 << log_tr);
  p.nc = (int)min(cols - p.c0, (ulong)1 << log_tc);
  return p;
}

#if !PRISM_TRANSPOSE_BLOCKED

#define TRANSPOSE_ROUNDS (PRISM_TILE / PRISM_WG)
/* Rows padded to an odd number of 32-bit words (core/backend.h, beside
 * prism__transpose_shape): at most TILE + PAD * TILE / 2 units (tc >= 2),
 * in each of V planes. */
#define ROW_PAD (V == 1 && PRISM_ELEM_BYTES < 4 ? 4 / PRISM_ELEM_BYTES : 1)
#define TRANSPOSE_SHARED (PRISM_TILE + ROW_PAD * PRISM_TILE / 2)

/* A V x V block of elements given as its V rows' words into its V
 * columns' words: out[k] holds element k of each in[j], j in order
 * (element k of a word: its k-th in memory order). backend_cuda/
 * transpose.cu's block_transpose, there by byte permutes and shifts. */
void block_transpose(const E *in, E *out) {
#if V == 4
  const uchar4 a = as_uchar4(in[0]), b = as_uchar4(in[1]), c = as_uchar4(in[2]),
               d = as_uchar4(in[3]);
  out[0] = as_uint((uchar4)(a.s0, b.s0, c.s0, d.s0));
  out[1] = as_uint((uchar4)(a.s1, b.s1, c.s1, d.s1));
  out[2] = as_uint((uchar4)(a.s2, b.s2, c.s2, d.s2));
  out[3] = as_uint((uchar4)(a.s3, b.s3, c.s3, d.s3));
#elif V == 2 && PRISM_ELEM_BYTES == 4
  const uint2 a = as_uint2(in[0]), b = as_uint2(in[1]);
  out[0] = as_ulong((uint2)(a.s0, b.s0));
  out[1] = as_ulong((uint2)(a.s1, b.s1));
#elif V == 2
  const ushort2 a = as_ushort2(in[0]), b = as_ushort2(in[1]);
  out[0] = as_uint((ushort2)(a.s0, b.s0));
  out[1] = as_uint((ushort2)(a.s1, b.s1));
#else
  out[0] = in[0];
#endif
}

/*
 * transpose_tiles: a work-group moves one tile of tr x tc units at a time
 * through local memory:
 *   1. the tile's rows are read, work-item i taking the tile's units i,
 *      i + PRISM_WG, ... in row-major order, so neighbouring work-items
 *      read consecutive units of a row (a whole row and the next ones
 *      when tc is small: a tall, skinny matrix's tile is one contiguous
 *      stretch);
 *   2. and written in the output's row-major order (the input's columns),
 *      so neighbouring work-items write consecutive units of an output
 *      row.
 * A unit is an element (V = 1) or a V x V block (rows and cols then count
 * blocks: unit (r, c) is the words in[(V r + j) cols + c], j < V, and
 * goes, transposed by block_transpose, to out[(V c + k) rows + r]). Rows
 * of the tile are padded to an odd number of words, so reading a column
 * of it touches as many banks as there are lanes. Unit i of a pass is
 * (major, minor) = (i >> log_minor, i & (2^log_minor - 1)).
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
transpose_tiles(PRISM_BUF(const E, in), PRISM_BUF(E, out), ulong rows,
                ulong cols, int log_tr, int log_tc, ulong tiles_r,
                ulong tiles_c, ulong tiles) {
  PRISM_BUF_AT(const E, in);
  PRISM_BUF_AT(E, out);
  __local E tile[V][TRANSPOSE_SHARED];
  PRISM_LOCAL_FITS(sizeof tile, PRISM_TRANSPOSE_LOCAL);
  const int stride = (1 << log_tc) + ROW_PAD;
  const int tid = (int)get_local_id(0);
  const int mask_c = (1 << log_tc) - 1, mask_r = (1 << log_tr) - 1;
  for (ulong t = get_group_id(0); t < tiles; t += get_num_groups(0)) {
    /* The tile's corner in both matrices, and how much of it is inside. */
    const tile_place p =
        place_of(t, rows, cols, log_tr, log_tc, tiles_r, tiles_c);
    __global const E *src = in + (p.matrix + p.r0 * cols) * V + p.c0;
    __global E *dst = out + (p.matrix + p.c0 * rows) * V + p.r0;
    E v[TRANSPOSE_ROUNDS][V];
#pragma unroll
    for (int k = 0; k < TRANSPOSE_ROUNDS; k++) {
      const int i = k * PRISM_WG + tid;
      const int major = i >> log_tc, minor = i & mask_c;
      if (major < p.nr && minor < p.nc)
#pragma unroll
        for (int j = 0; j < V; j++)
          v[k][j] = src[((ulong)major * V + j) * cols + (uint)minor];
    }
#pragma unroll
    for (int k = 0; k < TRANSPOSE_ROUNDS; k++) {
      const int i = k * PRISM_WG + tid;
      const int major = i >> log_tc, minor = i & mask_c;
      E w[V];
      block_transpose(v[k], w);
      if (major < p.nr && minor < p.nc)
#pragma unroll
        for (int j = 0; j < V; j++)
          tile[j][major * stride + minor] = w[j];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int k = 0; k < TRANSPOSE_ROUNDS; k++) {
      /* Output row major is the tile's column, minor its row. */
      const int i = k * PRISM_WG + tid;
      const int major = i >> log_tr, minor = i & mask_r;
      if (major < p.nc && minor < p.nr)
#pragma unroll
        for (int j = 0; j < V; j++)
          dst[((ulong)major * V + j) * rows + (uint)minor] =
              tile[j][minor * stride + major];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

#else /* PRISM_TRANSPOSE_BLOCKED */

/* The nr x nc elements of a tile one at a time, the longer side inside:
 * an output row's (an input column's) nr elements written in order, or an
 * input row's nc elements read in order. */
void move_elements(__global const E *src, __global E *dst, ulong rows,
                   ulong cols, int nr, int nc) {
  if (nr >= nc) {
    for (int c = 0; c < nc; c++) {
      __global E *row = dst + (ulong)c * rows;
      for (int r = 0; r < nr; r++)
        row[r] = src[(ulong)r * cols + (uint)c];
    }
  } else {
    for (int r = 0; r < nr; r++) {
      __global const E *row = src + (ulong)r * cols;
      for (int c = 0; c < nc; c++)
        dst[(ulong)c * rows + (uint)r] = row[c];
    }
  }
}

/*
 * transpose_blocks: work-item g moves the tiles [g * per_item, (g + 1) *
 * per_item) (a contiguous range: neighbouring tiles of a row of tiles)
 * straight from global memory, one element at a time along the tile's
 * longer side: a square tile's output rows in order, each read from the
 * tile's tr input rows, whose lines stay in L1 across the tile; a skinny
 * tile's long contiguous stretches on both sides, as on GPUs.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
transpose_blocks(PRISM_BUF(const E, in), PRISM_BUF(E, out), ulong rows,
                 ulong cols, int log_tr, int log_tc, ulong tiles_r,
                 ulong tiles_c, ulong tiles, ulong per_item) {
  PRISM_BUF_AT(const E, in);
  PRISM_BUF_AT(E, out);
  const ulong first = get_global_id(0) * per_item;
  const ulong end = min(first + per_item, tiles);
  for (ulong t = first; t < end; t++) {
    const tile_place p =
        place_of(t, rows, cols, log_tr, log_tc, tiles_r, tiles_c);
    __global const E *src = in + p.matrix + p.r0 * cols + p.c0;
    __global E *dst = out + p.matrix + p.c0 * rows + p.r0;
    move_elements(src, dst, rows, cols, p.nr, p.nc);
  }
}

#endif /* PRISM_TRANSPOSE_BLOCKED */
