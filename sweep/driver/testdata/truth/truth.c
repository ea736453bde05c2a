/*
 * truth: the ground-truth target of the driver's CPU-accounting test.
 *
 * A single-threaded HTTP/1.1 keep-alive server that burns a known amount of
 * CPU per request: it spins until its own CPU clock has advanced by -burn
 * microseconds. Being one thread with no runtime, its whole CPU use is the
 * burn plus a few syscalls per request, so sweep's CPU per request must come
 * out at the burn (within the syscall overhead).
 *
 *   truth PORT BURN_US
 *
 * It serves one connection at a time (enough for concurrency 1).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

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
	if (argc != 3) {
		fprintf(stderr, "usage: truth PORT BURN_US\n");
		return 2;
	}
	int port = atoi(argv[1]);
	long long burn_ns = atoll(argv[2]) * 1000LL;
	int ls = socket(AF_INET, SOCK_STREAM, 0);
	int one = 1;
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	struct sockaddr_in a = {0};
	a.sin_family = AF_INET;
	a.sin_port = htons(port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(ls, (struct sockaddr *)&a, sizeof a) < 0 || listen(ls, 64) < 0) {
		perror("truth: listen");
		return 1;
	}
	fprintf(stderr, "truth: listening on 127.0.0.1:%d, burning %lld us per request\n", port, burn_ns / 1000);
	static char buf[65536];
	for (;;) {
		int c = accept(ls, NULL, NULL);
		if (c < 0)
			continue;
		setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		size_t have = 0;
		for (;;) {
			ssize_t n = read(c, buf + have, sizeof buf - 1 - have);
			if (n <= 0)
				break;
			have += (size_t)n;
			buf[have] = 0;
			char *end;
			/* Requests carry no body (GET); answer every complete head. */
			while ((end = strstr(buf, "\r\n\r\n")) != NULL) {
				unsigned long long x = burn(burn_ns);
				char resp[128];
				int len = snprintf(resp, sizeof resp,
				                   "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n%02llx\n", x & 0xff);
				if (write(c, resp, (size_t)len) != len)
					break;
				size_t used = (size_t)(end + 4 - buf);
				memmove(buf, buf + used, have - used);
				have -= used;
				buf[have] = 0;
			}
			if (have >= sizeof buf - 1)
				break;
		}
		close(c);
	}
}
