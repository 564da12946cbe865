/*
 * stream_triad.c - a STREAM-style triad, a[i] = b[i] + s * c[i], to measure the sustainable
 * memory bandwidth that bounds euler-implicit's sparse matrix-vector products.
 *
 * Build and run (jobs/benchmark.sh does both):
 *   gcc -O3 -march=native -fopenmp jobs/bench/stream_triad.c -o stream_triad
 *   OMP_NUM_THREADS=1 ./stream_triad [elements per array] [repeats]
 *
 * Bandwidth counts 24 bytes per element and pass (read b, read c, write a), as STREAM does: the
 * write-allocate read of `a` that a cache without streaming stores also performs is NOT counted,
 * so the same convention applies to the MatMult estimate (bytes that the algorithm must move).
 * The arrays default to 40 Mi doubles each (3 x 320 MiB), far larger than any cache here.
 * First touch is done by the same threads and static schedule as the timed loop, so that on a
 * NUMA machine every thread streams from its own memory.
 *
 * Output, one line, for scripts to parse:
 *   triad threads=T n=N repeats=R best_GBs=X median_GBs=Y worst_GBs=Z check=ok|FAILED
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp_double(const void *p, const void *q)
{
  double x = *(const double *)p, y = *(const double *)q;
  return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
  long n = argc > 1 ? atol(argv[1]) : 40L * 1024 * 1024;
  int repeats = argc > 2 ? atoi(argv[2]) : 20;
  if (n < 1000 || repeats < 1) {
    fprintf(stderr, "usage: %s [elements >= 1000] [repeats >= 1]\n", argv[0]);
    return 2;
  }
  double *a = aligned_alloc(64, (size_t)n * sizeof(double) + 64);
  double *b = aligned_alloc(64, (size_t)n * sizeof(double) + 64);
  double *c = aligned_alloc(64, (size_t)n * sizeof(double) + 64);
  double *gbs = malloc((size_t)repeats * sizeof(double));
  if (!a || !b || !c || !gbs) {
    fprintf(stderr, "stream_triad: out of memory for 3 x %ld doubles\n", n);
    return 1;
  }

#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) {
    a[i] = 0.0;
    b[i] = 1.0;
    c[i] = 2.0;
  }

  const double s = 3.0;
  /* One untimed pass to fault in pages and warm the threads, then the timed passes. */
  for (int r = -1; r < repeats; ++r) {
    double t0 = omp_get_wtime();
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
    double t = omp_get_wtime() - t0;
    if (r >= 0) gbs[r] = 24.0 * (double)n / t / 1e9;
    /* Feed the result back so that no pass can be optimised away or merged with the next. */
    double *tmp = b;
    b = a;
    a = tmp;
  }

  /* After the swaps the newest array (b) holds 1 + 6k after k passes; check three samples. */
  double expect = 1.0 + 6.0 * (double)(repeats + 1);
  int ok = fabs(b[0] - expect) < 1e-9 * expect && fabs(b[n - 1] - expect) < 1e-9 * expect &&
           fabs(b[n / 2] - expect) < 1e-9 * expect;

  qsort(gbs, (size_t)repeats, sizeof(double), cmp_double);
  double median = repeats % 2 ? gbs[repeats / 2] : 0.5 * (gbs[repeats / 2 - 1] + gbs[repeats / 2]);
  printf("triad threads=%d n=%ld repeats=%d best_GBs=%.2f median_GBs=%.2f worst_GBs=%.2f check=%s\n",
         omp_get_max_threads(), n, repeats, gbs[repeats - 1], median, gbs[0], ok ? "ok" : "FAILED");
  free(a);
  free(b);
  free(c);
  free(gbs);
  return ok ? 0 : 1;
}
