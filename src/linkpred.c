/* linkpred.c: --link and --predict: the overhead model applied to gput's
 * own connection or options. */
#include "linkpred.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>

#include "ovhreport.h"

int
linkpred_from_socket(int fd, const struct xfer_params *p, struct ovh_conf *oc,
                     char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof ss, il;
	struct tcp_info ti;
	int mtu = 0;

	memset(oc, 0, sizeof *oc);
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) == -1) {
		snprintf(err, errlen, "getsockname: %s", strerror(errno));
		return -1;
	}
	oc->ipv6 = ss.ss_family == AF_INET6;
	sl = sizeof mtu;
	if ((oc->ipv6 ? getsockopt(fd, IPPROTO_IPV6, IPV6_MTU, &mtu, &sl)
	    : getsockopt(fd, IPPROTO_IP, IP_MTU, &mtu, &sl)) == -1 || mtu <= 0) {
		snprintf(err, errlen, "reading the path MTU: %s", strerror(errno));
		return -1;
	}
	oc->mtu = (unsigned)mtu;
	oc->proto = p->proto == PROTO_UDP ? OVH_UDP : OVH_TCP;
	if (oc->proto == OVH_TCP) {
		il = sizeof ti;
		if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &il) == -1) {
			snprintf(err, errlen, "TCP_INFO: %s", strerror(errno));
			return -1;
		}
		/* tcpi_snd_mss is the payload of a full segment, options excluded. */
		oc->mss = ti.tcpi_snd_mss;
		oc->tcp_opts = (ti.tcpi_options & TCPI_OPT_TIMESTAMPS) ? 12 : 0;
		oc->per_message = p->nodelay;
	}
	return 0;
}

void
linkpred_from_config(const struct config *c, struct ovh_conf *oc)
{
	memset(oc, 0, sizeof *oc);
	oc->proto = c->proto == PROTO_UDP ? OVH_UDP : OVH_TCP;
	oc->ipv6 = c->family == AF_INET6;
	oc->mtu = c->mtu;
	oc->tcp_opts = (oc->proto == OVH_TCP && !c->no_ts) ? 12 : 0;
	oc->per_message = c->loc.nodelay;
}

int
linkpred_report(FILE *f, const struct ovh_conf *oc, uint64_t msg,
                double link_bps, const struct report_row *rows, int nrows,
                char *err, size_t errlen)
{
	struct ovh_msg m;
	double expect;
	int i;

	if (ovh_message(oc, msg, &m, err, errlen) == -1)
		return -1;
	expect = ovh_expected_bps(&m, link_bps) / 1e6;
	fprintf(f, "link %g MBit/s: %s over IPv%d, MTU %u, ", link_bps / 1e6,
	        oc->proto == OVH_UDP ? "UDP" : "TCP", oc->ipv6 ? 6 : 4, oc->mtu);
	if (oc->proto == OVH_TCP)
		fprintf(f, "MSS %u, TCP options %u bytes", ovh_tcp_mss(oc), oc->tcp_opts);
	else
		fprintf(f, "datagram %llu bytes in %llu frame%s",
		        (unsigned long long)msg, (unsigned long long)m.frames,
		        m.frames == 1 ? "" : "s");
	fprintf(f, ": eta %.4f, expected %.4f MBit/s\n", m.eta, expect);
	for (i = 0; i < nrows; i++) {
		double got = report_mbit(rows[i].r->bytes, rows[i].r->real_ns);
		if (rows[i].r->real_ns == 0)
			fprintf(f, "%c: measured -, no time to compare\n", rows[i].tag);
		else
			fprintf(f, "%c: measured %.4f MBit/s, %.4f of expected\n",
			        rows[i].tag, got, got / expect);
	}
	return 0;
}

int
run_predict(const struct config *c)
{
	struct ovh_conf oc;
	struct ovh_msg m;
	char err[256];

	linkpred_from_config(c, &oc);
	if (ovh_message(&oc, c->loc.len, &m, err, sizeof err) == -1) {
		fprintf(stderr, "gput: --predict: %s\n", err);
		return 1;
	}
	ovh_print_breakdown(stdout, &oc, c->loc.len, &m, c->link_bps);
	return 0;
}
