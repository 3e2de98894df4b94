// SPDX-License-Identifier: GPL-2.0
/*
 * The fabric lab's start line, preloaded into perftest's clients: a
 * client that is about to send its first request writes its pid to a file
 * and stops itself (SIGSTOP).  lab.sh waits until every client of a run
 * has stopped there and then lets them all go (SIGCONT) at once, so that
 * the flows of an incast start together however long each process took
 * to start under TCG.
 *
 * Where that is: perftest 4.5's ib_send_bw moves its queue pair to RTS in
 * ctx_connect() and then shakes hands with its server over TCP (a write
 * and then a read(), as the client) three times before run_iter_bw()
 * posts its first send: once after ctx_connect(), once per queue pair to
 * print the remote's data (one here), and once after posting its work
 * requests (src/send_bw.c, ctx_hand_shake() in
 * src/perftest_communication.c).  So the start line is the third read()
 * of a socket after the queue pair reached RTS.  Past it no packet of
 * the run's TCP crosses the bottleneck before the data: there RED drops
 * what is not ECN-capable, and a dropped handshake waited out TCP's
 * backed-off retransmission timeout, ten seconds and more.
 *
 * Environment: UET_LAB_HOLD, the file the pid goes to (written whole, by a
 * rename); a client without it is not held.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>
#include <infiniband/verbs.h>

/* the handshakes between RTS and the first send (see above) */
#define HANDSHAKES_BEFORE_SEND	3

typedef int (*modify_qp_fn)(struct ibv_qp *, struct ibv_qp_attr *, int);
typedef ssize_t (*read_fn)(int, void *, size_t);

/* the handshakes still to come before the first send; -1 before RTS */
static int handshakes = -1;

static void hold(void)
{
	const char *path = getenv("UET_LAB_HOLD");
	char tmp[PATH_MAX];
	FILE *f;
	int ok;

	if (!path)
		return;
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		perror("lab hold");
		return;
	}
	ok = fprintf(f, "%d\n", (int)getpid()) > 0;
	if (fclose(f) || !ok || rename(tmp, path)) {
		perror("lab hold");
		return;
	}
	raise(SIGSTOP);
}

int ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask)
{
	static modify_qp_fn next;
	int ret;

	if (!next)
		next = (modify_qp_fn)dlsym(RTLD_NEXT, "ibv_modify_qp");
	if (!next)
		return ENOSYS;
	ret = next(qp, attr, mask);
	if (!ret && (mask & IBV_QP_STATE) && attr->qp_state == IBV_QPS_RTS &&
	    handshakes < 0)
		handshakes = HANDSHAKES_BEFORE_SEND;
	return ret;
}

ssize_t read(int fd, void *buf, size_t count)
{
	static read_fn next;
	struct stat st;
	ssize_t ret;

	if (!next)
		next = (read_fn)dlsym(RTLD_NEXT, "read");
	if (!next) {
		errno = ENOSYS;
		return -1;
	}
	ret = next(fd, buf, count);
	/* a completion channel is read too, but is no socket */
	if (ret > 0 && handshakes > 0 && !fstat(fd, &st) &&
	    S_ISSOCK(st.st_mode) && --handshakes == 0)
		hold();
	return ret;
}
