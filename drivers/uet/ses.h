/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet SES: the semantic sublayer.  Endpoints ({job, PIDonFEP} on a
 * device), messages cut into packets and put back together in the
 * receiver's buffers, and the completions that report both.  This is the
 * kernel API the verbs layer builds on.
 */
#ifndef _UET_SES_H
#define _UET_SES_H

#include <linux/in6.h>
#include <linux/skbuff.h>
#include <linux/types.h>

struct uet_ep;
struct uet_pds_pdc;

/* Widths of the SES header's job and PIDonFEP fields (wire.h). */
#define UET_JOB_BITS		24
#define UET_PID_BITS		12

/**
 * struct uet_comp - a completion
 * @cookie: what the caller passed with the send or the receive buffer.
 * @status: 0, or a negative errno: -EREMOTEIO when the target refused the
 *	message (@ses_rc says why), -EMSGSIZE when a message did not fit the
 *	receive buffer, -ETIMEDOUT when the PDC gave up, -ENETDOWN when the
 *	device went away.
 * @ses_rc: the target's SES return code (enum uet_ses_rc) with -EREMOTEIO.
 * @byte_len: receive: the message's length.
 * @recv: a receive (else a send) completion.
 */
struct uet_comp {
	u64 cookie;
	int status;
	u8 ses_rc;
	u32 byte_len;
	bool recv;
};

/*
 * Called for every completion, in order of posting for each kind (sends,
 * receives), from any context: it must not sleep nor call back into the
 * endpoint.
 */
typedef void (*uet_comp_fn)(struct uet_ep *ep, const struct uet_comp *comp,
			    void *priv);

struct uet_ep *uet_ep_open(const char *ibdev_name, u32 job, u16 pid,
			   uet_comp_fn comp, void *priv);
void uet_ep_close(struct uet_ep *ep);
int uet_ep_post_recv(struct uet_ep *ep, void *buf, u32 len, u64 cookie);
int uet_ep_send(struct uet_ep *ep, const struct in6_addr *dst, u16 dst_pid,
		u8 mode, const void *buf, u32 len, u64 cookie);

/* For the PDS (pds.c). */
u8 uet_ses_rcv(struct uet_pds_pdc *pdc, struct sk_buff *skb, u8 next_hdr,
	       u16 *msg_id);
void uet_ses_tx_done(struct sk_buff *skb, int err);
void uet_ses_tx_refused(struct sk_buff *skb, u8 rc);

struct uet_dev;
void uet_ses_init(struct uet_dev *udev);
void uet_ses_fini(struct uet_dev *udev);

#endif /* _UET_SES_H */
