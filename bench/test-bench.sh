#!/bin/sh
# SPDX-License-Identifier: MIT
# Tests of prism-bench itself, run by CTest (bench/CMakeLists.txt):
#   test-bench.sh json  BENCH DIR HAVE_ZLIB (1 or 0)
#     two tiny runs to JSON (PoCL on CI), each checked to parse; compare of
#     the two writes its table and an SVG with a line per series.
#   test-bench.sh graph BENCH DIR HAVE_ZLIB
#     a graph file that does not exist fails at option parsing (exit 2)
#     naming the path, before any device work; a gzip'd graph loads when
#     zlib was found (HAVE_ZLIB 1), or is refused saying it is
#     compressed.
#   test-bench.sh spmv BENCH DIR HAVE_ZLIB
#     spmv on four small generated matrices, f32 and f64, every row
#     verified and each prism row with its ratio to a reference; a Matrix
#     Market file with --spmv-beta; a missing --matrix file and a
#     generator without its size fail at option parsing (exit 2).
#   test-bench.sh dense BENCH DIR HAVE_ZLIB
#     transpose, stencil and conv2d on the small shapes (odd sides, skinny
#     and batched matrices, 1-, 2- and 3-D grids, grids smaller than the
#     box), f32 and f64, radii 0, 1 and 8, every border: every row
#     verified (prism against the serial loop's bits), each prism row of a
#     CPU device with its ratio to serial; a row in CSV; a bad shape and a
#     radius past the largest fail at option parsing (exit 2). Exit 77
#     when the backend implements neither (every prism row skipped as
#     unsupported).
#   test-bench.sh segmented-sort BENCH DIR HAVE_ZLIB
#     segmented-sort keys and pairs (4- and 8-byte values), both orders,
#     u32 and f64, over short, skewed and Pareto (power-law) segments:
#     every row verified, each prism row with its ratio to a reference
#     (serial C on CPU devices, CUB on NVIDIA ones in CUDA builds). Exit
#     77 when the backend does not implement it.
#   test-bench.sh topk BENCH DIR HAVE_ZLIB
#     topk keys only and with 4- and 8-byte column indices, u32 and f64,
#     one row and a batch of 16, k from 1 to 100: every row verified (keys
#     bit for bit, indices equal to ref_topk's), each prism row with its
#     ratio to a reference; a row count that does not divide n is a skip
#     saying so; --k 0 fails at option parsing (exit 2). Exit 77 when the
#     backend does not implement it.
# Exit 77 (skipped) when the machine has no device the bench can open.
set -u
step=$1 bench=$2 dir=$3 zlib=$4
rm -rf "$dir" && mkdir -p "$dir" || exit 1

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# A run; 77 when there is no device to measure.
run_bench() {
  "$bench" "$@" 2>"$dir/stderr"
  rc=$?
  if [ $rc -ne 0 ] && grep -q "no device to measure" "$dir/stderr"; then
    echo "skipped: no device" >&2
    exit 77
  fi
  [ $rc -eq 0 ] || { cat "$dir/stderr" >&2; fail "prism-bench $* exited $rc"; }
}

check_json() {
  if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["meta"]["devices"] and d["rows"], "no devices or rows"
bad = [r for r in d["rows"] if r["status"] != "ok"]
assert not bad, "a row is not ok: %r" % bad[0]' "$1" ||
      fail "$1 is not the JSON expected"
  fi
}

json_step() {
  for f in a b; do
    run_bench reduce,scan --type i32 --n 2^10,2^12 --reps 2 --json \
      --output "$dir/$f.json"
    check_json "$dir/$f.json"
  done
  "$bench" compare "$dir/a.json" "$dir/b.json" --svg "$dir/ab.svg" \
    >"$dir/compare.txt" || fail "compare exited $?"
  grep -q "^scan  *ex sum  *i32  *2^12 " "$dir/compare.txt" ||
    fail "compare has no scan row: $(cat "$dir/compare.txt")"
  grep -q "<svg" "$dir/ab.svg" || fail "no SVG written"
  [ "$(grep -c "<polyline" "$dir/ab.svg")" -ge 4 ] ||
    fail "the SVG lacks a line per series and chart"
  "$bench" compare "$dir/missing.json" 2>/dev/null && fail "compare of a missing file passed"
  return 0
}

graph_step() {
  missing=$dir/no-such-graph.mtx
  # PRISM_BACKEND=bogus: any device work would fail with another message.
  PRISM_BACKEND=bogus "$bench" bfs --graph "$missing" 2>"$dir/stderr"
  rc=$?
  [ $rc -eq 2 ] || fail "a missing graph file exited $rc, want 2"
  grep -q "$missing" "$dir/stderr" || fail "the message lacks the path: $(cat "$dir/stderr")"
  command -v gzip >/dev/null 2>&1 || { echo "no gzip: the gzip case is not run"; return 0; }
  printf '%%%%MatrixMarket matrix coordinate pattern symmetric\n4 4 3\n2 1\n3 2\n4 3\n' \
    >"$dir/path.mtx"
  gzip -c "$dir/path.mtx" >"$dir/path.mtx.gz"
  if [ "$zlib" = 1 ]; then
    run_bench bfs --graph "$dir/path.mtx.gz" --sources 2 --json --output "$dir/bfs.json"
    check_json "$dir/bfs.json"
  else
    PRISM_BACKEND=bogus "$bench" bfs --graph "$dir/path.mtx.gz" 2>"$dir/stderr"
    rc=$?
    [ $rc -eq 2 ] || fail "a gzip'd graph without zlib exited $rc, want 2"
    grep -q "gzip-compressed" "$dir/stderr" || fail "no word of compression: $(cat "$dir/stderr")"
  fi
}

# Every spmv row of $1 is there: one per matrix and type on each device,
# with its ratio to a reference.
check_spmv_rows() {
  command -v python3 >/dev/null 2>&1 || return 0
  python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
refs = ("serial", "cusparse", "warp")
rows = [r for r in d["rows"] if r["primitive"] == "spmv" and r["backend"] not in refs]
want = int(sys.argv[2]) * len(d["meta"]["devices"])
assert len(rows) == want, "%d prism spmv rows, want %d" % (len(rows), want)
assert all(r["ratio"] for r in rows), "an spmv row has no ratio"' "$1" "$2" ||
    fail "$1 lacks spmv rows"
}

spmv_step() {
  run_bench spmv --type f32,f64 --matrices laplace2d:32,laplace3d27:8,rmat:8,hugerow:2^10 \
    --reps 2 --json --output "$dir/spmv.json"
  check_json "$dir/spmv.json"
  check_spmv_rows "$dir/spmv.json" 8
  printf '%%%%MatrixMarket matrix coordinate real general\n3 4 6\n1 1 2.5\n1 4 -1\n2 2 1e-3\n3 1 -0.5\n3 3 4\n3 4 0.25\n' \
    >"$dir/small.mtx"
  run_bench spmv --type f32 --matrix "$dir/small.mtx" --spmv-beta 0.5 --reps 2 \
    --json --output "$dir/file.json"
  check_json "$dir/file.json"
  check_spmv_rows "$dir/file.json" 1
  missing=$dir/no-such-matrix.mtx
  PRISM_BACKEND=bogus "$bench" spmv --matrix "$missing" 2>"$dir/stderr"
  rc=$?
  [ $rc -eq 2 ] || fail "a missing matrix file exited $rc, want 2"
  grep -q "$missing" "$dir/stderr" || fail "the message lacks the path: $(cat "$dir/stderr")"
  PRISM_BACKEND=bogus "$bench" spmv --matrices laplace2d 2>"$dir/stderr"
  rc=$?
  [ $rc -eq 2 ] || fail "laplace2d without a size exited $rc, want 2"
  return 0
}

# The dense rows of $1: 77 when the backend implements none of them, else
# $2 prism rows on each device, each ok (or its type not on the device),
# those of CPU devices with a ratio; every reference row ok or skipped with
# its reason.
check_dense_rows() {
  command -v python3 >/dev/null 2>&1 || return 0
  python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
refs = ("serial", "naive", "cudnn")
dense = ("transpose", "stencil", "conv2d")
rows = [r for r in d["rows"] if r["primitive"] in dense and r["backend"] not in refs]
if rows and all(r["status"] == "skip" and "not implemented" in (r["note"] or "") for r in rows):
    print("skipped: " + rows[0]["note"], file=sys.stderr)
    sys.exit(77)
want = int(sys.argv[2]) * len(d["meta"]["devices"])
assert len(rows) == want, "%d prism dense rows, want %d" % (len(rows), want)
bad = [r for r in rows if r["status"] != "ok" and
       not (r["status"] == "skip" and r["note"] == "type not supported by device")]
assert not bad, "a prism row is not ok: %r" % bad[0]
# A reference may decline a case (the naive stencil past its tap limit,
# cuDNN past what it supports): skipped with the reason, never failed.
bad = [r for r in d["rows"] if r["backend"] in refs and
       not (r["status"] == "ok" or (r["status"] == "skip" and r["note"]))]
assert not bad, "a reference row is neither ok nor skipped: %r" % bad[0]
cpu = [dev["index"] for dev in d["meta"]["devices"] if dev["cpu"]]
assert all(r["ratio"] for r in rows if r["device_index"] in cpu), "a CPU row has no ratio"' "$1" "$2"
}

dense_step() {
  run_bench transpose,stencil,conv2d --shapes small --type f32,f64 --radius 0,1,8 \
    --border zero,clamp,periodic --reps 2 --json --output "$dir/dense.json"
  # transpose: 11 matrices and sizes; stencil: 4 grids, conv2d: 2, each
  # at 2 types x 3 radii x 3 borders.
  check_dense_rows "$dir/dense.json" 119
  rc=$?
  [ $rc -eq 77 ] && exit 77
  [ $rc -eq 0 ] || fail "$dir/dense.json is not the JSON expected"
  run_bench transpose --shapes 5x33x17 --element-size 2 --reps 2 --csv \
    --output "$dir/dense.csv"
  grep -q ",transpose,5x33x17,5x33x17,.*,2B,2805,.*,ok," "$dir/dense.csv" ||
    fail "no transpose row in the CSV: $(cat "$dir/dense.csv")"
  PRISM_BACKEND=bogus "$bench" transpose --shapes 3x 2>"$dir/stderr"
  rc=$?
  [ $rc -eq 2 ] || fail "the shape 3x exited $rc, want 2"
  grep -q "'3x' is not a shape" "$dir/stderr" || fail "no word of the shape: $(cat "$dir/stderr")"
  PRISM_BACKEND=bogus "$bench" stencil --radius 9 2>"$dir/stderr"
  rc=$?
  [ $rc -eq 2 ] || fail "--radius 9 exited $rc, want 2"
  return 0
}

# The segmented-sort rows of $1: 77 when the backend implements none, else
# $2 prism rows on each device, each with a ratio, and every row ok.
check_segmented_sort_rows() {
  command -v python3 >/dev/null 2>&1 || return 0
  python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
rows = [r for r in d["rows"] if r["primitive"] == "segmented-sort" and
        r["backend"] not in ("serial", "cub")]
if rows and all(r["status"] == "skip" and "not implemented" in (r["note"] or "") for r in rows):
    print("skipped: " + rows[0]["note"], file=sys.stderr)
    sys.exit(77)
want = int(sys.argv[2]) * len(d["meta"]["devices"])
assert len(rows) == want, "%d prism segmented-sort rows, want %d" % (len(rows), want)
bad = [r for r in d["rows"] if r["status"] != "ok"]
assert not bad, "a row is not ok: %r" % bad[0]
assert all(r["ratio"] for r in rows), "a segmented-sort row has no ratio"' "$1" "$2"
}

segmented_sort_step() {
  run_bench segmented-sort --type u32,f64 --values 0,4,8 \
    --order ascending,descending --segment 16,skew,pareto:64 --n 2^12 \
    --reps 2 --json --output "$dir/segmented-sort.json"
  # 2 types x 3 value sizes x 2 orders x 3 layouts.
  check_segmented_sort_rows "$dir/segmented-sort.json" 36
  rc=$?
  [ $rc -eq 77 ] && exit 77
  [ $rc -eq 0 ] || fail "$dir/segmented-sort.json is not the JSON expected"
  PRISM_BACKEND=bogus "$bench" segmented-sort --segment pareto:x 2>"$dir/stderr"
  rc=$?
  [ $rc -eq 2 ] || fail "--segment pareto:x exited $rc, want 2"
  return 0
}

# The topk rows of $1: 77 when the backend implements none, else $2 prism
# rows on each device, each with a ratio, and every row ok.
check_topk_rows() {
  command -v python3 >/dev/null 2>&1 || return 0
  python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
rows = [r for r in d["rows"] if r["primitive"] == "topk" and
        r["backend"] not in ("serial", "cub", "naive")]
if rows and all(r["status"] == "skip" and "not implemented" in (r["note"] or "") for r in rows):
    print("skipped: " + rows[0]["note"], file=sys.stderr)
    sys.exit(77)
want = int(sys.argv[2]) * len(d["meta"]["devices"])
assert len(rows) == want, "%d prism topk rows, want %d" % (len(rows), want)
bad = [r for r in d["rows"] if r["status"] != "ok"]
assert not bad, "a row is not ok: %r" % bad[0]
assert all(r["ratio"] for r in rows), "a topk row has no ratio"' "$1" "$2"
}

topk_step() {
  run_bench topk --type u32,f64 --values 0,4,8 --rows 1,16 --k 1,7,100 \
    --n 2^12 --reps 2 --json --output "$dir/topk.json"
  # 2 types x 3 value sizes x 2 row counts x 3 ks.
  check_topk_rows "$dir/topk.json" 36
  rc=$?
  [ $rc -eq 77 ] && exit 77
  [ $rc -eq 0 ] || fail "$dir/topk.json is not the JSON expected"
  run_bench topk --type u32 --rows 3 --k 1 --n 2^12 --reps 2 --csv \
    --output "$dir/topk.csv"
  grep -q ",topk,rows=3,.*,skip,.*do not make 3 rows" "$dir/topk.csv" ||
    fail "no skip row for 3 rows in the CSV: $(cat "$dir/topk.csv")"
  PRISM_BACKEND=bogus "$bench" topk --k 0 2>"$dir/stderr"
  rc=$?
  [ $rc -eq 2 ] || fail "--k 0 exited $rc, want 2"
  return 0
}

case $step in
json) json_step ;;
graph) graph_step ;;
spmv) spmv_step ;;
dense) dense_step ;;
segmented-sort) segmented_sort_step ;;
topk) topk_step ;;
*) fail "unknown step $step" ;;
esac
