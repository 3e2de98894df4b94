/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet memory: the regions the engine reads from and writes to, and the
 * scatter/gather lists that name parts of them.  The verbs layer describes
 * its MRs with these (pinned user pages, or kernel memory); the SES layer
 * copies packets in and out through them, bounds-checked.
 */
#ifndef _UET_MEM_H
#define _UET_MEM_H

#include <linux/mm_types.h>
#include <linux/skbuff.h>
#include <linux/types.h>

/**
 * struct uet_mem - a memory region
 * @iova: the address its first byte is known by.
 * @length: its size in bytes.
 * @pages: its pages, in order; %NULL: kernel memory, virtually contiguous
 *	(kmalloc, vmalloc, the kernel addresses of a DMA-virt device), whose
 *	@iova is its kernel address.
 * @offset: with @pages: the offset of the first byte in @pages[0].
 * @npages: with @pages: how many.
 *
 * Constant while registered; its owner keeps it alive until no posted
 * work and no RI table entry refers to it.
 */
struct uet_mem {
	u64 iova;
	u64 length;
	struct page **pages;
	unsigned int offset;
	unsigned int npages;
};

/**
 * struct uet_sge - a piece of a region
 * @mem: the region.
 * @addr: the piece's first byte, as an address inside @mem.
 * @len: its length.
 */
struct uet_sge {
	const struct uet_mem *mem;
	u64 addr;
	u32 len;
};

/*
 * Scatter/gather entries of one work request, at most: as many as rxe's;
 * also the limit the device reports.
 */
#define UET_MAX_SGE	32

bool uet_mem_contains(const struct uet_mem *mem, u64 iova, u64 len);
int uet_mem_copy(const struct uet_mem *mem, u64 iova, void *buf, u32 len,
		 bool to_mem);
int uet_mem_copy_skb(const struct uet_mem *mem, u64 iova,
		     const struct sk_buff *skb, unsigned int off, u32 len);
u64 uet_sgl_len(const struct uet_sge *sge, unsigned int nsge);
int uet_sgl_copy(const struct uet_sge *sge, unsigned int nsge, u64 off,
		 void *buf, u32 len, bool to_mem);
int uet_sgl_copy_skb(const struct uet_sge *sge, unsigned int nsge, u64 off,
		     const struct sk_buff *skb, unsigned int skb_off, u32 len);

#endif /* _UET_MEM_H */
