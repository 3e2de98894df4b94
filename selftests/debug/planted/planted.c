// SPDX-License-Identifier: GPL-2.0
/*
 * A test-only module with planted bugs, one per load, to prove that the
 * debug-kernel runs of the VM harness catch what they claim to catch
 * (selftests/debug/selftest.sh).  Never part of uet.ko.
 *
 *   modprobe planted bug=oob       out-of-bounds write   -> KASAN
 *   modprobe planted bug=leak      lost allocation       -> kmemleak
 *   modprobe planted bug=lockinv   lock-order inversion  -> lockdep
 */
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#define PLANTED_SIZE 16

static char *bug = "";
module_param(bug, charp, 0444);
MODULE_PARM_DESC(bug, "which bug to plant: oob, leak or lockinv");

static DEFINE_MUTEX(planted_a);
static DEFINE_MUTEX(planted_b);

static noinline void planted_oob(void)
{
	char *p = kmalloc(PLANTED_SIZE, GFP_KERNEL);
	size_t i = PLANTED_SIZE;

	if (!p)
		return;
	/* keep the compiler from proving the write out of bounds */
	OPTIMIZER_HIDE_VAR(i);
	p[i] = 'x';
	kfree(p);
}

static noinline void planted_leak(void)
{
	char *p = kmalloc(PLANTED_SIZE * 8, GFP_KERNEL);

	if (p)
		memset(p, 0xa5, PLANTED_SIZE * 8);
}

/* A then B, later B then A: never a deadlock here, always a lockdep report. */
static noinline void planted_lockinv(void)
{
	mutex_lock(&planted_a);
	mutex_lock(&planted_b);
	mutex_unlock(&planted_b);
	mutex_unlock(&planted_a);

	mutex_lock(&planted_b);
	mutex_lock(&planted_a);
	mutex_unlock(&planted_a);
	mutex_unlock(&planted_b);
}

static int __init planted_init(void)
{
	if (!strcmp(bug, "oob"))
		planted_oob();
	else if (!strcmp(bug, "leak"))
		planted_leak();
	else if (!strcmp(bug, "lockinv"))
		planted_lockinv();
	else
		return -EINVAL;
	pr_info("planted: %s\n", bug);
	return 0;
}

static void __exit planted_exit(void)
{
}

module_init(planted_init);
module_exit(planted_exit);
MODULE_DESCRIPTION("Planted bugs for the uet debug-kernel harness self-test");
MODULE_LICENSE("GPL");
