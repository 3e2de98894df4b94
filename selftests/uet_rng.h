/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PRNG of the selftests' fuzzers (uet_inject, uet_nlfuzz): splitmix64,
 * so that a seed replays the same choices.  Each program sets rng to its
 * seed.
 */
#ifndef _UET_RNG_H
#define _UET_RNG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static uint64_t rng;

static inline uint64_t rnd64(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A number below @n, 0 if @n is 0. */
static inline uint32_t below(uint32_t n)
{
	return (uint32_t)(((rnd64() >> 32) * n) >> 32);
}

static inline bool one_in(uint32_t n)
{
	return below(n) == 0;
}

static inline uint64_t pick64(const uint64_t *v, size_t n)
{
	return v[below((uint32_t)n)];
}

/* One of the values given, each as likely. */
#define PICK(...) pick64((const uint64_t[]){ __VA_ARGS__ }, \
			 sizeof((const uint64_t[]){ __VA_ARGS__ }) / sizeof(uint64_t))

static inline void fill_random(uint8_t *p, size_t n)
{
	while (n--)
		*p++ = (uint8_t)rnd64();
}

#endif /* _UET_RNG_H */
