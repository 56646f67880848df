/* SPDX-License-Identifier: MIT */
/*
 * bfs.cl: breadth-first search, direction-optimising (Beamer et al.
 * 2012). The port of backend_cuda/bfs*.cu*: the same step protocol, state
 * layout, phases and names, with the work-group where CUDA has the warp
 * (OpenCL C 1.2 has no sub-groups): a group's collectives go through local
 * memory.
 *
 * Options (besides common.cl's, whose type and operator are unused here):
 *   PRISM_BFS_PARENTS          1: also write parents.
 *   PRISM_BFS_TD_ITEMS         top-down edges per work-item and pass.
 *   PRISM_BFS_CHUNK_PASSES     passes per item: an item holds
 *                              PRISM_WG x TD_ITEMS x CHUNK_PASSES edges.
 *   PRISM_BFS_SMALL_DEGREE     out-degree up to which a frontier vertex is
 *                              expanded within its tile; above, in items.
 *   PRISM_BFS_TD_FILTER_EDGES  top-down: candidates are filtered by a plain
 *                              load of their bitmap word (before the
 *                              atomic_or) in steps whose frontier has more
 *                              out-edges than this.
 *   PRISM_BFS_BU_THREAD_EDGES  bottom-up: in-edges a work-item scans
 *                              alone; the rest of a longer list is scanned
 *                              by the whole group (0: no limit).
 *   PRISM_BFS_BU_BATCH         bottom-up: in-edges loaded at once.
 *   PRISM_BFS_TILE_WORDS       bottom-up and convert: bitmap words (32
 *                              vertices each) per tile.
 *   PRISM_BFS_CONTIGUOUS       1: each group takes one contiguous range of
 *                              tiles (CPUs); 0: tiles round robin (GPUs).
 *   PRISM_BFS_PERSISTENT       1: the program has bfs_persistent; 0:
 *                              bfs_step (each is slow to build on PoCL).
 *   PRISM_BFS_DISCOVERY_POLLS  bfs_persistent: reads of the arrival count
 *                              without a change after which a group stops
 *                              waiting for more groups to arrive.
 *   PRISM_BFS_PTX_FENCE        1: DEVICE_FENCE and the barrier polls in PTX
 *                              (NVIDIA's OpenCL).
 *
 * The step protocol (core/bfs_step.h says it at length, and defines the
 * state and its transitions for both backends): step
 * k runs the phase of S_k (TOP_DOWN, BOTTOM_UP, CONVERT or DONE). Every
 * group derives S_k at the start of step k from S_{k-1} (state[(k-1) & 1])
 * and what step k-1 added up (acc[(k-1) % 3]); group 0 stores S_k at
 * state[k & 1], clears acc[(k+1) % 3] and copies a DONE state to result.
 * The steps run
 * - in bfs_persistent, one launch for the whole search, as CUDA's: the
 *   groups that run at once (discover) meet at a barrier between steps
 *   (group_barrier). Unlike CUDA's, every step runs on all of them: a team
 *   of groups for the small top-down steps measured slower on the H200's
 *   OpenCL (docs/results/tuning-opencl.md, BFS), and no group gathers its
 *   first tile before the step's state is known (CUDA's Ahead);
 * - or in bfs_step, one launch per step (CPUs, GPUs other than NVIDIA's,
 *   devices with a watchdog on long kernels: backend_opencl/tuning.c):
 *   the launch boundary is the only synchronisation between groups.
 *
 * Layout (the scratch buffer; backend_opencl/bfs.c carves it):
 *   control     bfs_control at byte 0
 *   visited[2]  bitmaps of ceil(n / 32) words; bits past n are set
 *   small[2]    queues of entries (vertex, out-degree, first out-edge as
 *               two words): frontier vertices of out-degree <=
 *               SMALL_DEGREE (and, queued by a small top-down step,
 *               larger ones with no edges here: theirs go out as items)
 *   items[2]    queues of (vertex, chunk) for the larger vertices
 *
 * 64-bit counters are added by one 64-bit atomic where the device has
 * cl_khr_int64_base_atomics, else as two 32-bit atomics with a carry
 * (OpenCL 1.2 has no 64-bit atomics in its core); they are read only in a
 * later step.
 */

#ifndef PRISM_BFS_PARENTS
#define PRISM_BFS_PARENTS 0
#endif
#ifndef PRISM_BFS_TD_ITEMS
#define PRISM_BFS_TD_ITEMS 4
#endif
#ifndef PRISM_BFS_CHUNK_PASSES
#define PRISM_BFS_CHUNK_PASSES 1
#endif
#ifndef PRISM_BFS_SMALL_DEGREE
#define PRISM_BFS_SMALL_DEGREE 32
#endif
#ifndef PRISM_BFS_TD_FILTER_EDGES
#define PRISM_BFS_TD_FILTER_EDGES 0
#endif
#ifndef PRISM_BFS_BU_THREAD_EDGES
#define PRISM_BFS_BU_THREAD_EDGES 32
#endif
#ifndef PRISM_BFS_BU_BATCH
#define PRISM_BFS_BU_BATCH 4
#endif
#ifndef PRISM_BFS_TILE_WORDS
#define PRISM_BFS_TILE_WORDS 8
#endif
#ifndef PRISM_BFS_CONTIGUOUS
#define PRISM_BFS_CONTIGUOUS 0
#endif
#ifndef PRISM_BFS_PERSISTENT
#define PRISM_BFS_PERSISTENT 0
#endif
#ifndef PRISM_BFS_DISCOVERY_POLLS
#define PRISM_BFS_DISCOVERY_POLLS 1024
#endif
#ifndef PRISM_BFS_PTX_FENCE
#define PRISM_BFS_PTX_FENCE 0
#endif

#define TD_ITEMS PRISM_BFS_TD_ITEMS
#define PASS_EDGES (PRISM_WG * TD_ITEMS)
#define CHUNK_EDGES (PASS_EDGES * PRISM_BFS_CHUNK_PASSES)
#define TILE_VERTICES (PRISM_BFS_TILE_WORDS * 32)
/* Bottom-up lists left for the group phase, at most one per vertex. */
#if PRISM_BFS_BU_THREAD_EDGES > 0
#define PENDING_SLOTS TILE_VERTICES
#else
#define PENDING_SLOTS 1
#endif
#define NO_HIT UINT_MAX
/* ulong scratch: bottom-up's pending in-edge ranges, then flush's sums. */
#define WIDE_SLOTS                                                             \
  (3 * PRISM_WG > 2 * PENDING_SLOTS ? 3 * PRISM_WG : 2 * PENDING_SLOTS)

/*
 * Bottom-up and convert: work-item l owns the tile's vertices l, l + WG,
 * ... (WG a power of two): bits OWN_BITS(l) of words OWN_WORD(l),
 * OWN_WORD(l) + WORD_STRIDE, ...: at most OWN_WORDS words. A GPU group
 * gives one vertex to each work-item; a group of one takes whole words.
 */
#if PRISM_WG >= 32
#define WORD_STRIDE (PRISM_WG / 32)
#define OWN_WORD(l) ((l) / 32)
#define OWN_BITS(l) (1u << ((l) % 32))
#else
#define WORD_STRIDE 1
#define OWN_WORD(l) 0u
#define OWN_BITS(l) ((~0u / ((1u << PRISM_WG) - 1u)) << (l))
#endif
#define OWN_WORDS ((PRISM_BFS_TILE_WORDS + WORD_STRIDE - 1) / WORD_STRIDE)

/* S_k: core/bfs_step.h's state, as CUDA's and the host's. */
typedef prism_bfs_state bfs_state;
typedef char
    bfs_state_is_the_hosts[sizeof(bfs_state) == PRISM_BFS_STATE_BYTES ? 1 : -1];

/* What a step adds up: the next queues' cursors, the new frontier's size
 * (64-bit counts as low and high words). */
typedef struct bfs_accum {
  uint small, items;
  uint vertices[2], out_edges[2], in_edges[2];
} bfs_accum;

/* grid_barrier: the counter of bfs_persistent's barrier; arrivals, groups:
 * discover's count of the groups that arrived (the top bit set once
 * closed) and of those taking part (0 until known). Zero at the start of a
 * search. */
typedef struct bfs_control {
  bfs_state state[2];
  bfs_state result;
  bfs_accum acc[3];
  uint grid_barrier, arrivals, groups;
} bfs_control;

/* The CSR and its transpose (the same arrays for an undirected graph). */
typedef struct bfs_graph {
  __global const ulong *offsets;
  __global const uint *cols;
  __global const ulong *in_offsets;
  __global const uint *in_cols;
  ulong m;
  uint n, words, directed;
} bfs_graph;

/* The search's device memory and options. */
typedef struct bfs_search {
  __global bfs_control *control;
  __global uint *visited[2];
  __global uint4 *small[2];
  __global uint2 *items[2];
  uint item_capacity;
  __global int *levels;
  __global int *parents;
  float alpha, beta;
} bfs_search;

/* The groups taking part in a step: this one is group id of count. */
typedef struct bfs_groups {
  uint id, count;
} bfs_groups;

/* By parity, without indexing the arrays (which would put the struct in
 * private memory). */
__global uint *bitmap(const bfs_search *x, uint p) {
  return p ? x->visited[1] : x->visited[0];
}
__global uint4 *small_queue(const bfs_search *x, uint p) {
  return p ? x->small[1] : x->small[0];
}
__global uint2 *item_queue(const bfs_search *x, uint p) {
  return p ? x->items[1] : x->items[0];
}

/* A work-item's share of the counts a step adds up. */
typedef struct bfs_tally {
  ulong vertices, out_edges, in_edges;
} bfs_tally;

#define ADD_UINT(a, b) ((a) + (b))
PRISM_DEFINE_WG_SCAN(wg_scan_uint, uint, ADD_UINT, 0u)

/* ---- the step protocol ------------------------------------------------- */

ulong counter_get(__global const uint *c) {
  return (ulong)c[1] << 32 | c[0];
}

/* The thresholds of the direction switch, and the vertex count. */
prism_bfs_switch switch_of(const bfs_search *x, uint n) {
  const prism_bfs_switch h = {x->alpha, x->beta, n};
  return h;
}

/* S_k from S_{k-1} and what step k-1 added up (core/bfs_step.h). */
bfs_state advance(bfs_state s, __global const bfs_accum *a, const bfs_search *x,
                  uint n) {
  const prism_bfs_sums sums = {a->small, a->items, counter_get(a->vertices),
                               counter_get(a->out_edges),
                               counter_get(a->in_edges)};
  return prism_bfs_advance(s, sums, switch_of(x, n));
}

#ifdef cl_khr_int64_base_atomics
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#endif

/* c += v, c a 64-bit counter as two words (low first, 8-byte aligned in
 * bfs_accum): one 64-bit atomic whose result is not waited for, or
 * without them the low word's carry goes to the high word, so the sum is
 * exact in any order. */
void counter_add(__global uint *c, ulong v) {
#ifdef cl_khr_int64_base_atomics
  if (v)
    atom_add((volatile __global ulong *)c, v);
#else
  const uint lo = (uint)v;
  uint hi = (uint)(v >> 32);
  if (lo && atomic_add(&c[0], lo) + lo < lo)
    hi++;
  if (hi)
    atomic_add(&c[1], hi);
#endif
}

/* ---- work distribution ------------------------------------------------- */

/* This group's tiles of count: first, first + step, ... below end. */
void group_tiles(ulong count, const bfs_groups *groups, ulong *first,
                 ulong *end, ulong *step) {
  const ulong g = groups->id, n = groups->count;
#if PRISM_BFS_CONTIGUOUS
  *first = count * g / n;
  *end = count * (g + 1) / n;
  *step = 1;
#else
  *first = g;
  *end = count;
  *step = n;
#endif
}

/* This group's bitmap tiles (PRISM_BFS_TILE_WORDS words each) of a bitmap
 * of words words: bottom-up and convert walk the same ones. */
void group_bitmap_tiles(uint words, const bfs_groups *groups, ulong *first,
                        ulong *end, ulong *step) {
  group_tiles(words / PRISM_BFS_TILE_WORDS +
                  (words % PRISM_BFS_TILE_WORDS != 0),
              groups, first, end, step);
}

/* Items of a vertex of out-degree d. */
uint chunks_of(ulong d) {
  return (uint)((d + CHUNK_EDGES - 1) / CHUNK_EDGES);
}

/* ---- queues ------------------------------------------------------------ */

/*
 * reserve: places in the next queues for this work-item's small vertices
 * and items: offsets within the group from local atomics, the group's
 * totals from one global atomic per queue. l: four local words. Every
 * work-item calls it.
 */
void reserve(__global bfs_accum *acc, uint small, uint items, uint *small_at,
             uint *items_at, __local uint *l) {
  const uint lid = get_local_id(0);
  if (lid == 0) {
    l[0] = 0;
    l[1] = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint small_off = small ? atomic_add(&l[0], small) : 0u;
  const uint items_off = items ? atomic_add(&l[1], items) : 0u;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    l[2] = l[0] ? atomic_add(&acc->small, l[0]) : 0u;
    l[3] = l[1] ? atomic_add(&acc->items, l[1]) : 0u;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  *small_at = l[2] + small_off;
  *items_at = l[3] + items_off;
}

/* A small-queue entry: vertex v, its out-degree d (0 for a vertex queued
 * as items) and its first out-edge. */
uint4 make_entry(uint v, uint d, ulong begin) {
  return (uint4)(v, d, (uint)begin, (uint)(begin >> 32));
}

/* The items of vertex v (out-degree d) at *items_at. */
void enqueue_items(const bfs_search *x, uint parity, uint v, ulong d,
                   uint *items_at) {
  const uint c = chunks_of(d);
  for (uint j = 0; j < c; j++, (*items_at)++)
    if (*items_at < x->item_capacity)
      item_queue(x, parity)[*items_at] = (uint2)(v, j);
}

/* Vertex v (out-degree d from begin) at the reserved places: the small
 * queue or items. */
void enqueue(const bfs_search *x, uint parity, uint v, ulong begin, ulong d,
             uint *small_at, uint *items_at) {
  if (d <= PRISM_BFS_SMALL_DEGREE)
    small_queue(x, parity)[(*small_at)++] = make_entry(v, (uint)d, begin);
  else
    enqueue_items(x, parity, v, d, items_at);
}

/* ---- top-down ---------------------------------------------------------- */

/*
 * claim: this work-item's candidate vertices (bit k of mask: nbr[k],
 * reached from src[k]) at level + 1; atomic_or claims, and the claimant
 * writes level and parent, loads its offsets, queues it and counts.
 * - A large step (filter; bandwidth-bound): a plain load of the bitmap
 *   word drops the visited candidates first (most of them); queue places
 *   are reserved once the degrees are known: small-queue entries for the
 *   small vertices, items for the large ones.
 * - A small step (latency-bound): every claimed vertex takes a
 *   small-queue entry (a large one with no edges), reserved while its
 *   offsets are still loading; then the items of the large ones.
 * Every work-item calls it.
 */
void claim(const bfs_graph *g, const bfs_search *x, const bfs_state *st,
           __global bfs_accum *acc, bfs_tally *t, int filter,
           const uint nbr[TD_ITEMS], const uint src[TD_ITEMS], uint mask,
           __local uint *l_reserve) {
  __global uint *visited = bitmap(x, st->visited_parity);
  if (filter) {
    uint word[TD_ITEMS];
    for (uint k = 0; k < TD_ITEMS; k++)
      word[k] = (mask >> k) & 1u ? visited[nbr[k] >> 5] : 0u;
    for (uint k = 0; k < TD_ITEMS; k++)
      if ((word[k] >> (nbr[k] & 31u)) & 1u)
        mask &= ~(1u << k);
  }
  // Every atomic_or goes out before any result is looked at: no atomic's
  // guard depends on another's result.
  uint old[TD_ITEMS];
  for (uint k = 0; k < TD_ITEMS; k++)
    old[k] = (mask >> k) & 1u
                 ? atomic_or(&visited[nbr[k] >> 5], 1u << (nbr[k] & 31u))
                 : 0u;
  for (uint k = 0; k < TD_ITEMS; k++)
    if ((old[k] >> (nbr[k] & 31u)) & 1u)
      mask &= ~(1u << k);
  // The offsets' first use comes after the small step's reservation.
  ulong begin[TD_ITEMS], degree[TD_ITEMS];
  for (uint k = 0; k < TD_ITEMS; k++) {
    begin[k] = degree[k] = 0;
    if ((mask >> k) & 1u) {
      const uint v = nbr[k];
      x->levels[v] = (int)(st->level + 1u);
#if PRISM_BFS_PARENTS
      x->parents[v] = (int)src[k];
#endif
      begin[k] = g->offsets[v];
      degree[k] = g->offsets[v + 1];
    }
  }
  const uint parity = st->queue_parity ^ 1u;
  uint small_at = 0, items_at = 0, small = 0, items = 0, unused;
  if (!filter)
    reserve(acc, popcount(mask), 0u, &small_at, &unused, l_reserve);
  for (uint k = 0; k < TD_ITEMS; k++)
    if ((mask >> k) & 1u) {
      const uint v = nbr[k];
      degree[k] -= begin[k];
      if (degree[k] > PRISM_BFS_SMALL_DEGREE)
        items += chunks_of(degree[k]);
      else
        small++;
      t->vertices += 1;
      t->out_edges += degree[k];
      t->in_edges +=
          g->directed ? g->in_offsets[v + 1] - g->in_offsets[v] : degree[k];
    }
  // A large step reserves both queues here, a small one only the items.
  reserve(acc, filter ? small : 0u, items, filter ? &small_at : &unused,
          &items_at, l_reserve);
  for (uint k = 0; k < TD_ITEMS; k++)
    if ((mask >> k) & 1u) {
      const int large = degree[k] > PRISM_BFS_SMALL_DEGREE;
      if (!large || !filter)
        small_queue(x, parity)[small_at++] =
            make_entry(nbr[k], large ? 0u : (uint)degree[k], begin[k]);
      if (large)
        enqueue_items(x, parity, nbr[k], degree[k], &items_at);
    }
}

/* The tile entry whose edge range holds edge e: how many inclusive
 * prefixes are <= e (e < the tile's total). */
uint group_owner(__local const uint *incl, uint e) {
  uint lo = 0, hi = PRISM_WG;
  while (lo < hi) {
    const uint mid = (lo + hi) / 2;
    if (incl[mid] <= e)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/*
 * top_down: expand the frontier queues.
 * - Small queue: the group takes tiles of PRISM_WG vertices; a group scan
 *   of their out-degrees lays their edges end to end, and each pass hands
 *   work-item l the edges pass + l + WG j (j < TD_ITEMS), found by binary
 *   search over the scan: every work-item busy whatever the degrees.
 * - Items: the group takes one item at a time: CHUNK_EDGES consecutive
 *   edges of one vertex, CHUNK_PASSES passes.
 * Traffic: per frontier vertex its entry (16 bytes); per edge its column,
 * in a large step a bitmap word; per new vertex an atomic_or, a level (and
 * parent), its offsets, a queue entry.
 */
void top_down(const bfs_graph *g, const bfs_search *x, const bfs_state *st,
              const bfs_groups *groups, __global bfs_accum *acc, bfs_tally *t,
              __local uint *l_vertex, __local ulong *l_begin,
              __local uint *l_incl, __local uint *l_scan,
              __local uint *l_reserve) {
  const uint lid = get_local_id(0);
  const int filter = st->frontier_edges > PRISM_BFS_TD_FILTER_EDGES;
  const uint count = st->small_count;
  __global const uint4 *queue = small_queue(x, st->queue_parity);
  ulong first, end, step;
  group_tiles(count / PRISM_WG + (count % PRISM_WG != 0), groups, &first, &end,
              &step);
  for (ulong tile = first; tile < end; tile += step) {
    const ulong i = tile * PRISM_WG + lid;
    uint v = 0, degree = 0;
    ulong begin = 0;
    if (i < count) {
      const uint4 e = queue[i];
      v = e.x;
      degree = e.y;
      begin = (ulong)e.w << 32 | e.z;
    }
    uint total;
    const uint excl = wg_scan_uint(degree, l_scan, &total);
    l_vertex[lid] = v;
    l_begin[lid] = begin;
    l_incl[lid] = excl + degree;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint pass = 0; pass < total; pass += PASS_EDGES) {
      uint nbr[TD_ITEMS], src[TD_ITEMS], mask = 0;
      for (uint k = 0; k < TD_ITEMS; k++) {
        const uint e = pass + k * PRISM_WG + lid;
        nbr[k] = src[k] = 0;
        if (e < total) {
          const uint owner = group_owner(l_incl, e);
          const uint start = owner ? l_incl[owner - 1] : 0u;
          nbr[k] = g->cols[l_begin[owner] + (e - start)];
          src[k] = l_vertex[owner];
          mask |= 1u << k;
        }
      }
      claim(g, x, st, acc, t, filter, nbr, src, mask, l_reserve);
    }
  }
  __global const uint2 *items = item_queue(x, st->queue_parity);
  group_tiles(st->item_count, groups, &first, &end, &step);
  for (ulong j = first; j < end; j += step) {
    const uint2 item = items[j];
    const ulong row_end = g->offsets[item.x + 1];
    const ulong row = g->offsets[item.x] + (ulong)item.y * CHUNK_EDGES;
    for (uint pass = 0; pass < PRISM_BFS_CHUNK_PASSES; pass++) {
      uint nbr[TD_ITEMS], src[TD_ITEMS], mask = 0;
      for (uint k = 0; k < TD_ITEMS; k++) {
        const ulong e = row + pass * PASS_EDGES + k * PRISM_WG + lid;
        src[k] = item.x;
        nbr[k] = 0;
        if (e < row_end) {
          nbr[k] = g->cols[e];
          mask |= 1u << k;
        }
      }
      claim(g, x, st, acc, t, filter, nbr, src, mask, l_reserve);
    }
  }
}

/* ---- bottom-up --------------------------------------------------------- */

int visited_bit(__global const uint *bits, uint u) {
  return (bits[u >> 5] >> (u & 31u)) & 1u;
}

/* The index of the lowest set bit of bits (not 0). */
uint lowest_bit(uint bits) {
  return 31u - clz(bits & (0u - bits));
}

/*
 * next_tile: from tile on (step apart, below end), the first tile of
 * TILE_WORDS bitmap words with a bit set in have & ~done (have 0: every
 * bit), or end. Every work-item loads all of a tile's words (the same
 * addresses across the group: broadcasts) and comes to the same answer, so
 * the group passes over tiles with nothing to do without a barrier. fill
 * (0: none) gets the passed tiles' words, all set. mine: the work-item's
 * bits of the tile found (see OWN_WORD). Called in the condition of a loop
 * over tiles, it leaves the loop's barriers under that uniform condition
 * alone: a `continue` past them miscompiles on PoCL 3.1.
 */
ulong next_tile(ulong tile, ulong end, ulong step, uint words,
                __global const uint *have, __global const uint *done,
                __global uint *fill, uint mine[OWN_WORDS]) {
  const uint lid = get_local_id(0);
  for (; tile < end; tile += step) {
    const uint w0 = (uint)tile * PRISM_BFS_TILE_WORDS;
    uint any = 0;
    for (uint j = 0; j < PRISM_BFS_TILE_WORDS; j++) {
      const uint w = w0 + j;
      const uint bits = w < words ? (have ? have[w] : ~0u) & ~done[w] : 0u;
      any |= bits;
      if (j % WORD_STRIDE == OWN_WORD(lid))
        mine[j / WORD_STRIDE] = bits & OWN_BITS(lid);
    }
    if (any)
      break;
    if (fill)
      for (uint j = lid; j < PRISM_BFS_TILE_WORDS && w0 + j < words;
           j += PRISM_WG)
        fill[w0 + j] = ~0u;
  }
  return tile;
}

/* Vertex v (bit lane of tile word w) found from parent. */
void record(const bfs_graph *g, const bfs_search *x, const bfs_state *st,
            bfs_tally *t, uint v, uint parent, ulong in_degree,
            __local uint *l_found_word) {
  atomic_or(l_found_word, 1u << (v & 31u));
  x->levels[v] = (int)(st->level + 1u);
#if PRISM_BFS_PARENTS
  x->parents[v] = (int)parent;
#else
  (void)parent;
#endif
  t->vertices += 1;
  t->out_edges += g->directed ? g->offsets[v + 1] - g->offsets[v] : in_degree;
  t->in_edges += in_degree;
}

/*
 * bottom_up: the group takes tiles of TILE_WORDS bitmap words, passing
 * over those without an unvisited vertex (most of them late in a search;
 * next_tile stores their new words, all set). In the others an unvisited
 * vertex (work-item l's: see OWN_WORD) scans its in-edges for a neighbour
 * set in the old bitmap (visited before this step: by the BFS invariant,
 * exactly the frontier among its in-neighbours) and stops at the first.
 * - Thread phase: the work-item alone, BU_BATCH edges per load round, up
 *   to BU_THREAD_EDGES edges.
 * - Group phase: the rest of each longer list (queued in local memory),
 *   the whole group at a time, the first hit by local atomic_min.
 * The group writes the tile's new bitmap words (old | found) and the found
 * vertices' levels and parents. Every word of the new bitmap is written,
 * as the two bitmaps alternate. A barrier follows the last local access
 * (flush reuses l_pend_from and l_pend_to). Traffic: one old and one new
 * word per 32 vertices; per unvisited vertex its in-offsets and the
 * in-edges scanned.
 */
void bottom_up(const bfs_graph *g, const bfs_search *x, const bfs_state *st,
               const bfs_groups *groups, bfs_tally *t, __local uint *l_found,
               __local uint *l_pend_v, __local ulong *l_pend_from,
               __local ulong *l_pend_to, __local uint *l_pend_count,
               __local uint *l_first) {
  const uint lid = get_local_id(0);
  __global const uint *old_bits = bitmap(x, st->visited_parity);
  __global uint *new_bits = bitmap(x, st->visited_parity ^ 1u);
  const uint words = g->words;
  ulong first, end, step;
  group_bitmap_tiles(words, groups, &first, &end, &step);
  uint mine[OWN_WORDS];
  for (ulong tile = first; (tile = next_tile(tile, end, step, words, 0,
                                             old_bits, new_bits, mine)) < end;
       tile += step) {
    const uint w0 = (uint)tile * PRISM_BFS_TILE_WORDS;
    for (uint j = lid; j < PRISM_BFS_TILE_WORDS; j += PRISM_WG)
      l_found[j] = 0;
    if (lid == 0)
      *l_pend_count = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    // Thread phase.
    for (uint i = 0; i < OWN_WORDS; i++) {
      const uint j = OWN_WORD(lid) + i * WORD_STRIDE;
      if (j >= PRISM_BFS_TILE_WORDS)
        break;
      for (uint bits = mine[i]; bits; bits &= bits - 1) {
        const uint v = (w0 + j) * 32 + lowest_bit(bits);
        ulong next = g->in_offsets[v];
        const ulong stop_all = g->in_offsets[v + 1];
        const ulong in_degree = stop_all - next;
#if PRISM_BFS_BU_THREAD_EDGES > 0
        const ulong stop = in_degree > PRISM_BFS_BU_THREAD_EDGES
                               ? next + PRISM_BFS_BU_THREAD_EDGES
                               : stop_all;
#else
        const ulong stop = stop_all;
#endif
        int found = 0;
        uint parent = 0;
        for (; !found && next < stop; next += PRISM_BFS_BU_BATCH) {
          uint u[PRISM_BFS_BU_BATCH];
          for (uint k = 0; k < PRISM_BFS_BU_BATCH; k++)
            u[k] = next + k < stop ? g->in_cols[next + k] : 0u;
          for (uint k = PRISM_BFS_BU_BATCH; k-- > 0;)
            if (next + k < stop && visited_bit(old_bits, u[k])) {
              found = 1;
              parent = u[k];
            }
        }
        if (found) {
          record(g, x, st, t, v, parent, in_degree, &l_found[j]);
        } else if (stop < stop_all) {
          const uint slot = atomic_inc(l_pend_count);
          l_pend_v[slot] = v;
          l_pend_from[slot] = stop;
          l_pend_to[slot] = stop_all;
        }
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#if PRISM_BFS_BU_THREAD_EDGES > 0
    // Group phase.
    const uint pending = *l_pend_count;
    for (uint i = 0; i < pending; i++) {
      const uint v = l_pend_v[i];
      const ulong to = l_pend_to[i];
      uint hit = NO_HIT;
      for (ulong base = l_pend_from[i]; hit == NO_HIT && base < to;
           base += PRISM_WG * PRISM_BFS_BU_BATCH) {
        if (lid == 0)
          *l_first = NO_HIT;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint j = 0; j < PRISM_BFS_BU_BATCH; j++) {
          const uint at = j * PRISM_WG + lid;
          if (base + at < to && visited_bit(old_bits, g->in_cols[base + at]))
            atomic_min(l_first, at);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        hit = *l_first;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (hit != NO_HIT && lid == 0)
          record(g, x, st, t, v, g->in_cols[base + hit],
                 g->in_offsets[v + 1] - g->in_offsets[v],
                 &l_found[(v - w0 * 32) / 32]);
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
    for (uint j = lid; j < PRISM_BFS_TILE_WORDS && w0 + j < words;
         j += PRISM_WG)
      new_bits[w0 + j] = old_bits[w0 + j] | l_found[j];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

/* ---- convert ----------------------------------------------------------- */

/*
 * convert: the vertices the last bottom-up step found (set in the current
 * bitmap, not in the other) into the next queues, for a top-down step.
 * Tiles as bottom_up's, passing over those without a new vertex (most of
 * them: n_f < n / beta here); in the others each work-item walks its new
 * vertices (see OWN_WORD) twice: count, then write after reserve.
 * Traffic: two words per 32 vertices, offsets and a queue entry per
 * frontier vertex.
 */
void convert(const bfs_graph *g, const bfs_search *x, const bfs_state *st,
             const bfs_groups *groups, __global bfs_accum *acc,
             __local uint *l_reserve) {
  const uint lid = get_local_id(0);
  __global const uint *cur = bitmap(x, st->visited_parity);
  __global const uint *prev = bitmap(x, st->visited_parity ^ 1u);
  const uint parity = st->queue_parity ^ 1u;
  const uint words = g->words;
  ulong first, end, step;
  group_bitmap_tiles(words, groups, &first, &end, &step);
  uint mine[OWN_WORDS];
  for (ulong tile = first;
       (tile = next_tile(tile, end, step, words, cur, prev, 0, mine)) < end;
       tile += step) {
    const uint w0 = (uint)tile * PRISM_BFS_TILE_WORDS;
    uint small = 0, items = 0;
    for (uint i = 0; i < OWN_WORDS; i++) {
      const uint j = OWN_WORD(lid) + i * WORD_STRIDE;
      if (j >= PRISM_BFS_TILE_WORDS)
        break;
      for (uint bits = mine[i]; bits; bits &= bits - 1) {
        const uint v = (w0 + j) * 32 + lowest_bit(bits);
        const ulong d = g->offsets[v + 1] - g->offsets[v];
        if (d <= PRISM_BFS_SMALL_DEGREE)
          small++;
        else
          items += chunks_of(d);
      }
    }
    uint small_at, items_at;
    reserve(acc, small, items, &small_at, &items_at, l_reserve);
    for (uint i = 0; i < OWN_WORDS; i++) {
      const uint j = OWN_WORD(lid) + i * WORD_STRIDE;
      if (j >= PRISM_BFS_TILE_WORDS)
        break;
      for (uint bits = mine[i]; bits; bits &= bits - 1) {
        const uint v = (w0 + j) * 32 + lowest_bit(bits);
        const ulong begin = g->offsets[v];
        enqueue(x, parity, v, begin, g->offsets[v + 1] - begin, &small_at,
                &items_at);
      }
    }
  }
}

/* ---- kernels ----------------------------------------------------------- */

/*
 * flush: the group's tallies into the step's accumulator: one tree over
 * the three counters in local memory (l: 3 x PRISM_WG values), each round
 * halving the partial sums left, and in the last round (one left)
 * work-item 0 adds the group's. A group whose work-items all tallied
 * nothing (l_tallied still 0, as derive's barrier left it) runs
 * no round. The adds sit before the round's barrier rather than after the
 * loop: PoCL 3.1 can run a work-item 0 branch at the kernel's end on every
 * work-item. Every work-item calls it.
 */
void flush(bfs_tally t, __global bfs_accum *acc, __local ulong *l,
           __local uint *l_tallied) {
  const uint lid = get_local_id(0);
  l[lid] = t.vertices;
  l[PRISM_WG + lid] = t.out_edges;
  l[2 * PRISM_WG + lid] = t.in_edges;
  if (t.vertices | t.out_edges | t.in_edges)
    atomic_or(l_tallied, 1u);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint left = *l_tallied ? PRISM_WG : 0; left > 0; left /= 2) {
    const uint pairs = left / 2;
    if (pairs) {
      if (lid < pairs) {
        l[lid] += l[lid + pairs];
        l[PRISM_WG + lid] += l[PRISM_WG + lid + pairs];
        l[2 * PRISM_WG + lid] += l[2 * PRISM_WG + lid + pairs];
      }
    } else if (lid == 0) {
      counter_add(acc->vertices, l[0]);
      counter_add(acc->out_edges, l[PRISM_WG]);
      counter_add(acc->in_edges, l[2 * PRISM_WG]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

bfs_graph make_graph(__global const ulong *offsets, __global const uint *cols,
                     __global const ulong *in_offsets,
                     __global const uint *in_cols, ulong m, uint n,
                     uint directed) {
  bfs_graph g;
  g.offsets = offsets;
  g.cols = cols;
  g.in_offsets = in_offsets;
  g.in_cols = in_cols;
  g.m = m;
  g.n = n;
  g.words = n / 32 + (n % 32 != 0);
  g.directed = directed;
  return g;
}

bfs_search make_search(__global uchar *scratch, ulong visited_off,
                       ulong visited_bytes, ulong small_off, ulong small_bytes,
                       ulong items_off, ulong items_bytes, uint item_capacity,
                       __global int *levels, __global int *parents, float alpha,
                       float beta) {
  bfs_search x;
  x.control = SCRATCH(bfs_control, scratch, 0);
  for (uint p = 0; p < 2; p++) {
    x.visited[p] = SCRATCH(uint, scratch, visited_off + p * visited_bytes);
    x.small[p] = SCRATCH(uint4, scratch, small_off + p * small_bytes);
    x.items[p] = SCRATCH(uint2, scratch, items_off + p * items_bytes);
  }
  x.item_capacity = item_capacity;
  x.levels = levels;
  x.parents = parents;
  x.alpha = alpha;
  x.beta = beta;
  return x;
}

#define BFS_KERNEL_ARGS                                                        \
  PRISM_BUF(const ulong, offsets), PRISM_BUF(const uint, cols),                \
      PRISM_BUF(const ulong, in_offsets), PRISM_BUF(const uint, in_cols),      \
      ulong m, uint n, uint directed, PRISM_BUF(int, levels),                  \
      PRISM_BUF(int, parents), __global uchar *scratch, ulong visited_off,     \
      ulong visited_bytes, ulong small_off, ulong small_bytes,                 \
      ulong items_off, ulong items_bytes, uint item_capacity, float alpha,     \
      float beta

#define BFS_SETUP                                                              \
  PRISM_BUF_AT(const ulong, offsets);                                          \
  PRISM_BUF_AT(const uint, cols);                                              \
  PRISM_BUF_AT(const ulong, in_offsets);                                       \
  PRISM_BUF_AT(const uint, in_cols);                                           \
  PRISM_BUF_AT(int, levels);                                                   \
  PRISM_BUF_AT(int, parents);                                                  \
  const bfs_graph g =                                                          \
      make_graph(offsets, cols, in_offsets, in_cols, m, n, directed);          \
  const bfs_search x = make_search(                                            \
      scratch, visited_off, visited_bytes, small_off, small_bytes, items_off,  \
      items_bytes, item_capacity, levels, parents, alpha, beta)

/*
 * bfs_init: one work-item seeds the search: the source's visited bit and
 * the bits past n in the (zeroed) first bitmap, its level and parent, its
 * queue entry (or items), and S_0.
 */
__kernel __attribute__((reqd_work_group_size(1, 1, 1))) void
bfs_init(BFS_KERNEL_ARGS, uint source) {
  BFS_SETUP;
  __global uint *bits = bitmap(&x, 0);
  bits[source >> 5] |= 1u << (source & 31u);
  if (n % 32)
    bits[g.words - 1] |= ~0u << (n % 32);
  levels[source] = 0;
#if PRISM_BFS_PARENTS
  parents[source] = (int)source;
#endif
  const ulong degree = offsets[source + 1] - offsets[source];
  uint small_at = 0, items_at = 0;
  enqueue(&x, 0, source, offsets[source], degree, &small_at, &items_at);
  const ulong in_degree =
      directed ? in_offsets[source + 1] - in_offsets[source] : degree;
  bfs_state st = {0};
  st.small_count = small_at;
  st.item_count = items_at;
  st.frontier_vertices = 1;
  st.frontier_edges = degree;
  st.unvisited_edges = m - in_degree;
  st.reached = 1;
  st.reached_edges = degree;
  st = prism_bfs_choose(st, 0, switch_of(&x, n));
  x.control->state[0] = st;
  if (st.phase == PRISM_BFS_PHASE_DONE)
    x.control->result = st;
}

/* A step's local memory. */
typedef struct bfs_locals {
  bfs_state state;
  uint vertex[PRISM_WG], incl[PRISM_WG], scan[2 * PRISM_WG];
  ulong begin[PRISM_WG], wide[WIDE_SLOTS];
  uint reserve[4];
  uint found[PRISM_BFS_TILE_WORDS], pend_v[PENDING_SLOTS];
  uint pend_count, first, tallied;
} bfs_locals;

/*
 * derive: S_k into l->state (work-item 0; group 0 of the step's groups
 * also stores it, clears acc[(k+1) % 3] and copies a DONE state to
 * result); a barrier follows. Every work-item calls it.
 */
void derive(const bfs_search *x, ulong k, uint group, uint n,
            __local bfs_locals *l) {
  if (get_local_id(0) == 0) {
    __global bfs_control *c = x->control;
    const bfs_state cur =
        k == 0 ? c->state[0]
               : advance(c->state[(k - 1) & 1], &c->acc[(k - 1) % 3], x, n);
    l->state = cur;
    l->tallied = 0;
    if (group == 0) {
      c->state[k & 1] = cur;
      const bfs_accum zero = {0};
      c->acc[(k + 1) % 3] = zero;
      if (cur.phase == PRISM_BFS_PHASE_DONE)
        c->result = cur;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

/* work: step k (state st, not DONE) on groups, then the group's tallies
 * into acc[k % 3]. Every work-item calls it. */
void work(const bfs_graph *g, const bfs_search *x, const bfs_state *st, ulong k,
          const bfs_groups *groups, __local bfs_locals *l) {
  __global bfs_accum *acc = &x->control->acc[k % 3];
  bfs_tally t = {0, 0, 0};
  if (st->phase == PRISM_BFS_PHASE_TOP_DOWN)
    top_down(g, x, st, groups, acc, &t, l->vertex, l->begin, l->incl, l->scan,
             l->reserve);
  else if (st->phase == PRISM_BFS_PHASE_BOTTOM_UP)
    bottom_up(g, x, st, groups, &t, l->found, l->pend_v, l->wide,
              l->wide + PENDING_SLOTS, &l->pend_count, &l->first);
  else
    convert(g, x, st, groups, acc, l->reserve);
  flush(t, acc, l->wide, &l->tallied);
}

#if !PRISM_BFS_PERSISTENT

/*
 * bfs_step: step k of the search (one launch per step; a launch after
 * DONE returns at once).
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
bfs_step(BFS_KERNEL_ARGS, ulong k) {
  __local bfs_locals l;
  BFS_SETUP;
  derive(&x, k, (uint)get_group_id(0), n, &l);
  const bfs_state st = l.state;
  if (st.phase == PRISM_BFS_PHASE_DONE)
    return;
  const bfs_groups all = {(uint)get_group_id(0), (uint)get_num_groups(0)};
  work(&g, &x, &st, k, &all, &l);
}

#else /* PRISM_BFS_PERSISTENT */

/* ---- the persistent search -------------------------------------------- */

/*
 * DEVICE_FENCE: orders a work-item's global accesses for every group of
 * the device, around the arrivals and waits of bfs_persistent. OpenCL
 * 1.2's mem_fence speaks only of the work-item's own order (with it the
 * search hung on NVIDIA's OpenCL); there the fence is CUDA's, in PTX (the
 * one its grid barrier takes), after which the group's plain loads see
 * what other groups wrote before their arrival. mem_fence serves CPUs,
 * whose caches are coherent (the GPU policy forced on PoCL, in tests).
 */
#if PRISM_BFS_PTX_FENCE
#define DEVICE_FENCE() __asm__ volatile("fence.acq_rel.gpu;" ::: "memory")
#else
#define DEVICE_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif

/*
 * poll_acquire: a poll's read of *p. With PTX it is CUDA's acquire load,
 * which orders what the work-item does after the read that ends the poll
 * (no fence after the poll, as in CUDA's barrier); elsewhere a plain
 * read, and POLL_DONE, a fence, follows the poll.
 */
#if PRISM_BFS_PTX_FENCE
uint poll_acquire(volatile __global const uint *p) {
  uint v;
  __asm__ volatile("ld.acquire.gpu.global.u32 %0, [%1];"
                   : "=r"(v)
                   : "l"(p)
                   : "memory");
  return v;
}
#define POLL_DONE()
#else
uint poll_acquire(volatile __global const uint *p) {
  return *p;
}
#define POLL_DONE() DEVICE_FENCE()
#endif

#define ARRIVALS_CLOSED 0x80000000u
#define NOT_TAKING_PART UINT_MAX

/*
 * discover: which groups of the launch run at once (occupancy discovery,
 * Sorensen et al., "Portable inter-workgroup barrier synchronisation for
 * GPUs", OOPSLA 2016). OpenCL does not promise that the groups of a launch
 * run together, so a barrier among all of them could wait for a group
 * that only starts once others have finished. Each group counts itself in
 * on arrival (c->arrivals); once every group of the launch has arrived,
 * or no other has for PRISM_BFS_DISCOVERY_POLLS reads of the count, it
 * closes the count. The groups counted before the close are running, and
 * a running group is not put aside for one not yet started, so they take
 * part: their number goes to c->groups, and each keeps its arrival index
 * as its group number. A group that arrives after the close returns at
 * once. Work-item 0; returns the group number or NOT_TAKING_PART, and the
 * number taking part in *groups.
 */
uint discover(__global bfs_control *c, uint *groups) {
  const uint launched = (uint)get_num_groups(0);
  const uint id = atomic_inc(&c->arrivals);
  if (id & ARRIVALS_CLOSED)
    return NOT_TAKING_PART;
  volatile __global const uint *arrivals = &c->arrivals;
  uint seen = id + 1u;
  for (uint still = 0; seen < launched && !(seen & ARRIVALS_CLOSED) &&
                       still < PRISM_BFS_DISCOVERY_POLLS;
       still++) {
    const uint now = *arrivals;
    if (now != seen)
      still = 0;
    seen = now;
  }
  const uint counted = atomic_or(&c->arrivals, ARRIVALS_CLOSED);
  if (!(counted & ARRIVALS_CLOSED)) {
    DEVICE_FENCE();
    atomic_xchg(&c->groups, counted);
  }
  volatile __global const uint *published = &c->groups;
  uint n;
  while ((n = *published) == 0)
    ;
  *groups = n;
  return id;
}

/*
 * group_barrier: a barrier among the groups 0 .. groups - 1 that take part
 * in bfs_persistent, on c->grid_barrier (zero at the start of the search),
 * as CUDA's: group 0 adds 2^31 - (groups - 1), the others 1, so the top bit
 * flips when the last arrives; a group knows which flip it waits for from
 * the barriers it has passed (*passed, work-item 0's count). Work-item 0
 * arrives after a device fence (the group's writes before it, through the
 * group barrier) and polls (poll_acquire: the read that sees the flip, or
 * a fence after it, orders what the group reads next). Every work-item
 * calls it.
 */
void group_barrier(__global bfs_control *c, uint groups, uint group,
                   __local uint *passed) {
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    const uint add = group == 0 ? 0x80000000u - (groups - 1u) : 1u;
    const uint flipped = (++*passed & 1u) << 31;
    DEVICE_FENCE();
    atomic_add(&c->grid_barrier, add);
    while ((poll_acquire(&c->grid_barrier) & 0x80000000u) != flipped)
      ;
    POLL_DONE();
  }
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}

/*
 * bfs_persistent: every step of the search in one launch, among the groups
 * discover lets take part, with a barrier after each step. Every group
 * derives the same states, so all leave together at DONE. The loop has no
 * break or continue: its barriers stay under plain conditions (see
 * next_tile).
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
bfs_persistent(BFS_KERNEL_ARGS) {
  __local bfs_locals l;
  __local uint l_group, l_groups, l_passed;
  BFS_SETUP;
  __global bfs_control *c = x.control;
  if (get_local_id(0) == 0) {
    uint groups = 0;
    l_group = discover(c, &groups);
    l_groups = groups;
    l_passed = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint group = l_group, groups = l_groups;
  if (group == NOT_TAKING_PART)
    return;
  const bfs_groups all = {group, groups};
  int done = 0;
  for (ulong k = 0; !done; k++) {
    derive(&x, k, group, n, &l);
    const bfs_state st = l.state;
    done = st.phase == PRISM_BFS_PHASE_DONE;
    if (!done) {
      work(&g, &x, &st, k, &all, &l);
      group_barrier(c, groups, group, &l_passed);
    }
  }
}

#endif /* PRISM_BFS_PERSISTENT */
