/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet_advisor's policy under a queue (-q): the rate it advises while the
 * egress queue it watches holds more than its target
 * (Documentation/rate-advice.rst, "The element"); unit-tested in
 * selftests/unit/advisor_test.c.
 */
#ifndef _UET_ADVISOR_H
#define _UET_ADVISOR_H

#include <stdint.h>

/*
 * Advice under a queue is at most 1/UET_ADVISOR_QUEUE_CUT below the rate:
 * the senders, who move a quarter of the way to each advice, drain the
 * queue without falling so far below the link that it idles once the
 * queue is gone (an element that halved it cost the lab's incast a point
 * of goodput, the WAN six).
 */
#define UET_ADVISOR_QUEUE_CUT	8

/**
 * uet_advisor_queue_rate() - the rate to advise under a queue
 * @rate: the rate without one, Mbit/s (a flow's share of the link)
 * @backlog: the queue, bytes; negative if unknown
 * @link_mbps: the rate it drains at, Mbit/s (bits per us)
 * @target_us: the queue's delay the senders are let keep
 *
 * Return: @rate scaled by @target_us over the queue's delay, at most
 * 1/%UET_ADVISOR_QUEUE_CUT below it, at least 1; @rate itself while the
 * delay is within the target, or the backlog or the link's rate unknown.
 */
static inline uint32_t uet_advisor_queue_rate(uint32_t rate, long backlog,
					      uint32_t link_mbps,
					      uint32_t target_us)
{
	uint32_t least = rate - rate / UET_ADVISOR_QUEUE_CUT, scaled;
	uint64_t delay_us;

	if (backlog < 0 || !link_mbps)
		return rate;
	delay_us = (uint64_t)backlog * 8 / link_mbps;
	if (delay_us <= target_us)
		return rate;
	scaled = (uint32_t)((uint64_t)rate * target_us / delay_us);
	if (scaled < least)
		scaled = least;
	return scaled ? scaled : 1;
}

#endif /* _UET_ADVISOR_H */
