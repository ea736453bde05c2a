/*
 * burnstep: how much CPU one call of the truth server's burn() really uses
 * (sweep/driver/testdata/truth/truth.c; the function is copied verbatim).
 * burn(ns) spins until its CPU clock has advanced by ns, reading the clock
 * after every 5000 rounds of xorshift, so it overshoots by up to one such
 * step plus a clock read. Item 5 of BENCHMARKS.md adds the measured
 * overshoot to the truth server's known cost.
 *
 *   burnstep BURN_US...   prints "BURN_US<TAB>mean CPU µs per call" lines
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long long cpu_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static unsigned long long burn(long long ns) {
	unsigned long long x = 88172645463325252ULL;
	long long start = cpu_ns();
	while (cpu_ns() - start < ns) {
		for (int i = 0; i < 5000; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
		}
	}
	return x;
}

int main(int argc, char **argv) {
	if (argc < 2) {
		fprintf(stderr, "usage: burnstep BURN_US...\n");
		return 2;
	}
	for (int a = 1; a < argc; a++) {
		long long us = atoll(argv[a]);
		int calls = (int)(2000000 / (us + 10)); /* about 2 s of CPU */
		unsigned long long sink = 0;
		long long t0 = cpu_ns();
		for (int i = 0; i < calls; i++)
			sink += burn(us * 1000LL);
		long long t1 = cpu_ns();
		printf("%lld\t%.2f\n", us, (double)(t1 - t0) / calls / 1000.0);
		if (sink == 42)
			printf("#\n"); /* keep the result live */
	}
	return 0;
}
