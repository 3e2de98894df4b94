// SPDX-License-Identifier: GPL-2.0
/*
 * An MPI job as middleware.sh (and make bench) runs it over uet: a
 * ping-pong between ranks 0 and 1 over sizes, each message's bytes
 * checked by the rank that receives it, then allreduces whose sum every
 * rank checks against the one it computes itself.
 *
 * Usage: mpi_bench [-n ITERS] [-m MAX_BYTES] [-a ALLREDUCE_ELEMS]
 * Prints, on rank 0, one line per size:
 *   pingpong BYTES ITERS LAT_US MIB_S
 * and one line for the allreduce:
 *   allreduce ELEMS ITERS US_PER_CALL ok
 * Exits non-zero (on every rank, through MPI_Abort) at the first byte or
 * sum that is wrong.
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MIN_BYTES	1
#define PATTERN_MUL	31u	/* any odd number: every byte depends on i */

static unsigned char pattern(size_t i, int iter)
{
	return (unsigned char)(i * PATTERN_MUL + (unsigned int)iter);
}

static void fill(unsigned char *buf, size_t len, int iter)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = pattern(i, iter);
}

static void check(const unsigned char *buf, size_t len, int iter, int rank)
{
	for (size_t i = 0; i < len; i++) {
		if (buf[i] != pattern(i, iter)) {
			fprintf(stderr,
				"rank %d: byte %zu of %zu of message %d is 0x%02x, not 0x%02x\n",
				rank, i, len, iter, buf[i], pattern(i, iter));
			MPI_Abort(MPI_COMM_WORLD, 2);
		}
	}
}

/* Ranks 0 and 1 bounce a message ITERS times; each checks what it gets. */
static void pingpong(int rank, size_t len, int iters, unsigned char *buf)
{
	int peer = !rank;
	double t0;

	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	for (int it = 0; it < iters; it++) {
		if (rank == 0) {
			fill(buf, len, it);
			MPI_Send(buf, (int)len, MPI_BYTE, peer, it, MPI_COMM_WORLD);
			memset(buf, 0, len);
			MPI_Recv(buf, (int)len, MPI_BYTE, peer, it, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			check(buf, len, it + 1, rank);
		} else {
			MPI_Recv(buf, (int)len, MPI_BYTE, peer, it, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			check(buf, len, it, rank);
			fill(buf, len, it + 1);
			MPI_Send(buf, (int)len, MPI_BYTE, peer, it, MPI_COMM_WORLD);
		}
	}
	if (rank == 0) {
		double us = (MPI_Wtime() - t0) * 1e6 / iters / 2;

		printf("pingpong %zu %d %.1f %.2f\n", len, iters, us,
		       len / us * 1e6 / (1 << 20));
		fflush(stdout);
	}
}

/*
 * Every rank contributes v[i] = rank * elems + i + it; the sum over ranks
 * is known in closed form, and every rank checks every element of it.
 */
static void allreduce(int rank, int size, int elems, int iters)
{
	int64_t *v = malloc(sizeof(*v) * elems), *sum = malloc(sizeof(*sum) * elems);
	int64_t ranks = size, rsum = ranks * (ranks - 1) / 2;
	double t0;

	if (!v || !sum)
		MPI_Abort(MPI_COMM_WORLD, 3);
	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	for (int it = 0; it < iters; it++) {
		for (int i = 0; i < elems; i++)
			v[i] = (int64_t)rank * elems + i + it;
		MPI_Allreduce(v, sum, elems, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
		for (int i = 0; i < elems; i++) {
			int64_t want = rsum * elems + ranks * (i + it);

			if (sum[i] != want) {
				fprintf(stderr,
					"rank %d: allreduce %d element %d is %lld, not %lld\n",
					rank, it, i, (long long)sum[i], (long long)want);
				MPI_Abort(MPI_COMM_WORLD, 4);
			}
		}
	}
	if (rank == 0) {
		printf("allreduce %d %d %.1f ok\n", elems, iters,
		       (MPI_Wtime() - t0) * 1e6 / iters);
		fflush(stdout);
	}
	free(v);
	free(sum);
}

int main(int argc, char **argv)
{
	int rank, size, iters = 100, elems = 1 << 16, opt;
	size_t max = 1 << 20;
	char host[64];
	unsigned char *buf;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	while ((opt = getopt(argc, argv, "n:m:a:")) != -1) {
		switch (opt) {
		case 'n':
			iters = atoi(optarg);
			break;
		case 'm':
			max = strtoul(optarg, NULL, 0);
			break;
		case 'a':
			elems = atoi(optarg);
			break;
		default:
			if (rank == 0)
				fprintf(stderr, "usage: %s [-n ITERS] [-m MAX_BYTES] [-a ELEMS]\n",
					argv[0]);
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
	}
	if (size < 2 || iters < 1 || elems < 1 || max < MIN_BYTES) {
		if (rank == 0)
			fprintf(stderr, "needs two ranks or more and positive sizes\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	gethostname(host, sizeof(host));
	host[sizeof(host) - 1] = '\0';
	printf("rank %d of %d on %s\n", rank, size, host);
	fflush(stdout);

	buf = malloc(max);
	if (!buf)
		MPI_Abort(MPI_COMM_WORLD, 3);
	for (size_t len = MIN_BYTES; len <= max; len *= 4) {
		if (rank < 2)
			pingpong(rank, len, iters, buf);
		else
			MPI_Barrier(MPI_COMM_WORLD);
	}
	allreduce(rank, size, elems, iters);
	free(buf);
	MPI_Finalize();
	return 0;
}
