// SPDX-License-Identifier: GPL-2.0
/*
 * uet memory: bounds-checked copies into and out of registered regions and
 * scatter/gather lists.  Every access of a packet to memory goes through
 * here, so that no packet, however forged, reaches outside a region.
 */
#include <linux/highmem.h>
#include <linux/overflow.h>

#include "mem.h"

/**
 * uet_mem_contains() - whether [@iova, @iova + @len) lies inside @mem
 * @mem: the region
 * @iova: first byte
 * @len: length; 0 is inside any region whose bounds hold @iova
 *
 * Return: true if inside, with no arithmetic overflow on the way.
 */
bool uet_mem_contains(const struct uet_mem *mem, u64 iova, u64 len)
{
	u64 end;

	if (check_add_overflow(iova, len, &end))
		return false;
	return iova >= mem->iova && end <= mem->iova + mem->length;
}

/*
 * Copy between the region's pages and @buf, or from @skb at @skb_off when
 * @skb is given (always into the region then).  The range is checked.
 */
static int mem_copy(const struct uet_mem *mem, u64 iova, void *buf,
		    const struct sk_buff *skb, unsigned int skb_off, u32 len,
		    bool to_mem)
{
	u64 pos;

	if (!uet_mem_contains(mem, iova, len))
		return -EFAULT;
	if (!mem->pages) {
		void *kva = (void *)(uintptr_t)iova;

		if (skb)
			return skb_copy_bits(skb, skb_off, kva, len);
		if (to_mem)
			memcpy(kva, buf, len);
		else
			memcpy(buf, kva, len);
		return 0;
	}

	pos = iova - mem->iova + mem->offset;
	while (len) {
		unsigned long idx = pos >> PAGE_SHIFT;
		unsigned int in_page = offset_in_page(pos);
		u32 n = min_t(u32, len, PAGE_SIZE - in_page);
		void *va;
		int err = 0;

		if (WARN_ON_ONCE(idx >= mem->npages))
			return -EFAULT;
		va = kmap_local_page(mem->pages[idx]) + in_page;
		if (skb)
			err = skb_copy_bits(skb, skb_off, va, n);
		else if (to_mem)
			memcpy(va, buf, n);
		else
			memcpy(buf, va, n);
		kunmap_local(va);
		if (err)
			return err;
		if (skb)
			skb_off += n;
		else
			buf += n;
		pos += n;
		len -= n;
	}
	return 0;
}

/**
 * uet_mem_copy() - copy between a region and kernel memory
 * @mem: the region
 * @iova: where in it
 * @buf: kernel memory
 * @len: bytes
 * @to_mem: from @buf into the region, else from the region into @buf
 *
 * Return: 0, or -EFAULT when the range is not inside the region.
 */
int uet_mem_copy(const struct uet_mem *mem, u64 iova, void *buf, u32 len,
		 bool to_mem)
{
	return mem_copy(mem, iova, buf, NULL, 0, len, to_mem);
}

/**
 * uet_mem_copy_skb() - copy packet data into a region
 * @mem: the region
 * @iova: where in it
 * @skb: the packet
 * @off: where the data starts in @skb
 * @len: bytes
 *
 * Return: 0, or -EFAULT when the range is not inside the region or @skb
 * holds fewer bytes.
 */
int uet_mem_copy_skb(const struct uet_mem *mem, u64 iova,
		     const struct sk_buff *skb, unsigned int off, u32 len)
{
	return mem_copy(mem, iova, NULL, skb, off, len, true) ? -EFAULT : 0;
}

/**
 * uet_sgl_len() - bytes a scatter/gather list holds
 * @sge: the list
 * @nsge: its entries
 *
 * Return: the sum of the entries' lengths.
 */
u64 uet_sgl_len(const struct uet_sge *sge, unsigned int nsge)
{
	u64 len = 0;

	while (nsge--)
		len += sge++->len;
	return len;
}

/*
 * Walk the list from byte @off of its concatenation, copying @len bytes
 * with @buf or from @skb.
 */
static int sgl_copy(const struct uet_sge *sge, unsigned int nsge, u64 off,
		    void *buf, const struct sk_buff *skb, unsigned int skb_off,
		    u32 len, bool to_mem)
{
	for (; nsge && len; sge++, nsge--) {
		u32 n;
		int err;

		if (off >= sge->len) {
			off -= sge->len;
			continue;
		}
		n = min_t(u64, len, sge->len - off);
		err = mem_copy(sge->mem, sge->addr + off, buf, skb, skb_off, n,
			       to_mem);
		if (err)
			return -EFAULT;
		off = 0;
		len -= n;
		if (skb)
			skb_off += n;
		else
			buf += n;
	}
	return len ? -EFAULT : 0;
}

/**
 * uet_sgl_copy() - copy between a scatter/gather list and kernel memory
 * @sge: the list
 * @nsge: its entries
 * @off: offset into the list's bytes, taken as one buffer
 * @buf: kernel memory
 * @len: bytes
 * @to_mem: from @buf into the list, else the other way
 *
 * Return: 0, or -EFAULT when the list ends before @off + @len or an entry
 * lies outside its region.
 */
int uet_sgl_copy(const struct uet_sge *sge, unsigned int nsge, u64 off,
		 void *buf, u32 len, bool to_mem)
{
	return sgl_copy(sge, nsge, off, buf, NULL, 0, len, to_mem);
}

/**
 * uet_sgl_copy_skb() - copy packet data into a scatter/gather list
 * @sge: the list
 * @nsge: its entries
 * @off: offset into the list's bytes, taken as one buffer
 * @skb: the packet
 * @skb_off: where the data starts in @skb
 * @len: bytes
 *
 * Return: 0, or -EFAULT as uet_sgl_copy().
 */
int uet_sgl_copy_skb(const struct uet_sge *sge, unsigned int nsge, u64 off,
		     const struct sk_buff *skb, unsigned int skb_off, u32 len)
{
	return sgl_copy(sge, nsge, off, NULL, skb, skb_off, len, true);
}
