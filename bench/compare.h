/* SPDX-License-Identifier: MIT */
/*
 * `prism-bench compare A.json B.json ... [--svg FILE] [--output FILE]
 * [--base LABEL]`: results written with --json (other machines, other
 * vendors), side by side. Rows are matched by primitive, variant, type and
 * n; each series (a device and backend of one file, references included)
 * gets a column of throughput and the ratio to the base series (the first,
 * unless --base names another). --svg draws the same as charts
 * (plot_svg.h).
 */
#ifndef PRISM_BENCH_COMPARE_H
#define PRISM_BENCH_COMPARE_H

/* argv[0] is "compare". Returns prism-bench's exit code. */
int compare_main(int argc, char **argv);

#endif /* PRISM_BENCH_COMPARE_H */
