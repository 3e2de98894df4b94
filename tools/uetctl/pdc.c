// SPDX-License-Identifier: GPL-2.0
/* uetctl pdc: the packet delivery contexts of a device. */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <uet/libuet.h>

#include "uetctl.h"

static int pdc_one(const struct uet_pdc_attrs *p, void *arg)
{
	char peer[INET6_ADDRSTRLEN];
	int *n = arg;

	peer_str(p->peer, peer, sizeof(peer));
	if (!opts.json) {
		printf("%s pdc %u rpdc %u %s %s mode %s peer %s job %u tc %u\n"
		       "    una %u nxt %u cack %u in-flight %u srtt-us %u rto-us %u"
		       " retransmits %" PRIu64 " timeouts %" PRIu64 "\n",
		       p->dev, p->lpdcid, p->rpdcid,
		       p->initiator ? "initiator" : "target",
		       uet_pdc_state_name(p->state) ?: "?",
		       uet_delivery_mode_name(p->mode) ?: "?", peer, p->job, p->tc,
		       p->tx_una, p->tx_nxt, p->rx_cack, p->in_flight, p->srtt_us,
		       p->rto_us, p->retransmits, p->timeouts);
		if (UET_HAS(p, UET_A_PDC_CWND))
			printf("    cc nscc context %u pdcs %u cwnd %u cwnd-max %u"
			       " cc-in-flight %u base-rtt-us %u delay-us %u"
			       " ecn-echoes %u cuts %u quick-adapts %u\n",
			       p->cc_context, p->cc_pdcs, p->cwnd, p->cwnd_max,
			       p->cc_in_flight, p->base_rtt_us, p->delay_us,
			       p->ecn_echoes, p->cc_cuts, p->quick_adapts);
		if (UET_HAS(p, UET_A_PDC_CREDIT))
			printf("    cc rccc credit %" PRId32 " granted %u"
			       " wanted %u\n", p->credit, p->credit_granted,
			       p->credit_wanted);
		else if (UET_HAS(p, UET_A_PDC_CREDIT_GRANTED))
			printf("    cc rccc granted %u wanted %u\n",
			       p->credit_granted, p->credit_wanted);
		if (UET_HAS(p, UET_A_PDC_RA_CAP_MBPS))
			printf("    rate-advice cap-mbps %u advised-mbps %u"
			       " age-ms %u\n", p->ra_cap_mbps,
			       p->ra_advised_mbps, p->ra_age_ms);
	} else {
		json_sep(*n);
		printf("{\"dev\":");
		json_string(p->dev);
		printf(",\"lpdcid\":%u,\"rpdcid\":%u,\"role\":\"%s\",\"state\":",
		       p->lpdcid, p->rpdcid, p->initiator ? "initiator" : "target");
		json_string(uet_pdc_state_name(p->state) ?: "?");
		printf(",\"mode\":");
		json_string(uet_delivery_mode_name(p->mode) ?: "?");
		printf(",\"peer\":");
		json_string(peer);
		printf(",\"job\":%u,\"tc\":%u,\"tx_una\":%u,\"tx_nxt\":%u,"
		       "\"rx_cack\":%u,\"in_flight\":%u,\"srtt_us\":%u,\"rto_us\":%u,"
		       "\"retransmits\":%" PRIu64 ",\"timeouts\":%" PRIu64,
		       p->job, p->tc, p->tx_una, p->tx_nxt, p->rx_cack, p->in_flight,
		       p->srtt_us, p->rto_us, p->retransmits, p->timeouts);
		if (UET_HAS(p, UET_A_PDC_CWND))
			printf(",\"cc\":{\"context\":%u,\"pdcs\":%u,"
			       "\"cwnd\":%u,\"cwnd_max\":%u,"
			       "\"in_flight\":%u,\"base_rtt_us\":%u,\"delay_us\":%u,"
			       "\"ecn_echoes\":%u,\"cuts\":%u,\"quick_adapts\":%u}",
			       p->cc_context, p->cc_pdcs, p->cwnd, p->cwnd_max,
			       p->cc_in_flight, p->base_rtt_us, p->delay_us,
			       p->ecn_echoes, p->cc_cuts, p->quick_adapts);
		if (UET_HAS(p, UET_A_PDC_CREDIT_GRANTED)) {
			printf(",\"credit\":{");
			if (UET_HAS(p, UET_A_PDC_CREDIT))
				printf("\"credit\":%" PRId32 ",", p->credit);
			printf("\"granted\":%u,\"wanted\":%u}",
			       p->credit_granted, p->credit_wanted);
		}
		if (UET_HAS(p, UET_A_PDC_RA_CAP_MBPS))
			printf(",\"rate_advice\":{\"cap_mbps\":%u,"
			       "\"advised_mbps\":%u,\"age_ms\":%u}",
			       p->ra_cap_mbps, p->ra_advised_mbps, p->ra_age_ms);
		printf("}");
	}
	(*n)++;
	return 0;
}

static int pdc_show(int argc, char **argv)
{
	struct uet_pdc_attrs p;
	char err[ARG_ERR_MAX];
	struct sel sel;
	int n = 0, ret;

	if (args_show(argc, argv, "id", UINT16_MAX, &sel, err))
		return usage_fail("pdc", err);
	if (!nl())
		return EXIT_RUNTIME;
	if (opts.json)
		json_begin_list();
	if (sel.has_id) {
		ret = uet_nl_pdc_get(nl(), sel.dev, (uint16_t)sel.id, &p);
		if (!ret)
			pdc_one(&p, &n);
	} else {
		ret = uet_nl_pdc_dump(nl(), sel.has_dev ? sel.dev : NULL, pdc_one, &n);
	}
	if (opts.json)
		json_end_list(n);
	return ret ? nl_fail("pdc show", ret) : 0;
}

static int pdc_close(int argc, char **argv)
{
	char err[ARG_ERR_MAX];
	struct sel sel;
	int ret;

	if (args_sel(argc, argv, "id", UINT16_MAX, &sel, err))
		return usage_fail("pdc", err);
	if (!sel.has_dev || !sel.has_id)
		return usage_fail("pdc", "pdc close needs dev DEV id LPDCID");
	if (!nl())
		return EXIT_RUNTIME;
	ret = uet_nl_pdc_close(nl(), sel.dev, (uint16_t)sel.id);
	return ret ? nl_fail("pdc close", ret) : 0;
}

static const struct uetctl_cmd pdc_cmds[] = {
	{ "show", pdc_show, "pdc show [dev DEV [id LPDCID]]" },
	{ "list", pdc_show, NULL },
	{ "close", pdc_close, "pdc close dev DEV id LPDCID" },
	{ NULL },
};

int do_pdc(int argc, char **argv)
{
	if (argc == 0)
		return pdc_show(0, argv);
	return dispatch(pdc_cmds, "pdc command", argc, argv);
}
