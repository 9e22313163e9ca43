/* SPDX-License-Identifier: BSD-2-Clause */
/* report_lat.c: the latency probes' lines and JSON. */
#include "report_lat.h"

static double
ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static double
ms_signed(int64_t ns)
{
	return (double)ns / 1e6;
}

static void
phase_line(FILE *f, const char *name, const struct lat_phase *p)
{
	fprintf(f, "latency %s: %llu sent, %llu answered, %llu lost", name,
	        (unsigned long long)p->sent, (unsigned long long)p->answered,
	        (unsigned long long)p->lost);
	if (p->answered > 0)
		fprintf(f, "; rtt min %.2f p50 %.2f p90 %.2f p99 %.2f max %.2f ms",
		        ms(p->min_ns), ms(p->p50_ns), ms(p->p90_ns), ms(p->p99_ns),
		        ms(p->max_ns));
	if (p->unsent > 0)
		fprintf(f, "; %llu due but not sent", (unsigned long long)p->unsent);
	if (p->have_owd && p->answered > 0)
		fprintf(f, "; one way p50 up %.2f down %.2f ms", ms_signed(p->up_p50_ns),
		        ms_signed(p->down_p50_ns));
	fputc('\n', f);
}

void
report_lat_text(FILE *f, const struct lat_result *l, int verbose)
{
	const struct lat_phase *i = &l->idle, *d = &l->loaded;

	if (!l->have)
		return;
	phase_line(f, "idle  ", i);
	phase_line(f, "loaded", d);
	if (i->answered > 0 && d->answered > 0)
		fprintf(f, "latency: %+.2f ms under load (p50), ",
		        ms(d->p50_ns) - ms(i->p50_ns));
	else
		fputs("latency: ", f);
	if (d->answered > 0)
		fprintf(f, "responsiveness %.0f RPM (60 s / %.2f ms, the loaded "
		        "round trips' mean without their largest 5%%)\n",
		        latstat_rpm(d->tmean_ns), ms(d->tmean_ns));
	else
		fputs("no loaded round trip: no responsiveness\n", f);
	if (l->have_expected)
		fprintf(f, "latency: expected loaded rtt %.2f ms (idle p50 %.2f + %.2f "
		        "to drain %.0f bytes of queue at %.2f Mbit/s), measured p50 "
		        "%.2f\n", l->expected_ns / 1e6, ms(i->p50_ns),
		        l->expected_ns / 1e6 - ms(i->p50_ns), l->queue_bytes,
		        l->link_bps / 1e6, ms(d->p50_ns));
	if (l->have_tcp_rtt && l->tcp_rtt_n > 1)
		fprintf(f, "latency: tcp smoothed rtt of the data at its end %.2f ms "
		        "(the mean of %u connections)\n", l->tcp_rtt_us / 1e3,
		        l->tcp_rtt_n);
	else if (l->have_tcp_rtt)
		fprintf(f, "latency: tcp smoothed rtt of the data at its end %.2f ms\n",
		        l->tcp_rtt_us / 1e3);
	if (verbose && l->have_echo)
		fprintf(f, "latency: the partner's echo: %llu received, %llu echoed, "
		        "%llu over the rate, %llu from strangers, %llu malformed, %llu "
		        "unsent\n", (unsigned long long)l->echo.received,
		        (unsigned long long)l->echo.echoed,
		        (unsigned long long)l->echo.over_rate,
		        (unsigned long long)l->echo.strangers,
		        (unsigned long long)l->echo.malformed,
		        (unsigned long long)l->echo.failed);
}

static void
phase_json(struct json *j, const char *key, const struct lat_phase *p)
{
	json_key(j, key);
	json_begin_object(j);
	json_kv_u64(j, "n", p->sent);
	json_kv_u64(j, "answered", p->answered);
	json_kv_u64(j, "lost", p->lost);
	json_kv_u64(j, "unsent", p->unsent);
	if (p->answered > 0) {
		json_kv_double(j, "min_ms", ms(p->min_ns));
		json_kv_double(j, "p50_ms", ms(p->p50_ns));
		json_kv_double(j, "p90_ms", ms(p->p90_ns));
		json_kv_double(j, "p99_ms", ms(p->p99_ns));
		json_kv_double(j, "max_ms", ms(p->max_ns));
		json_kv_double(j, "trimmed_mean_ms", ms(p->tmean_ns));
	} else {
		json_kv_null(j, "min_ms");
		json_kv_null(j, "p50_ms");
		json_kv_null(j, "p90_ms");
		json_kv_null(j, "p99_ms");
		json_kv_null(j, "max_ms");
		json_kv_null(j, "trimmed_mean_ms");
	}
	if (p->have_owd && p->answered > 0) {
		json_kv_double(j, "up_p50_ms", ms_signed(p->up_p50_ns));
		json_kv_double(j, "down_p50_ms", ms_signed(p->down_p50_ns));
	}
	json_end_object(j);
}

void
report_lat_json(struct json *j, const struct lat_result *l)
{
	const struct lat_phase *i = &l->idle, *d = &l->loaded;

	if (!l->have)
		return;
	json_key(j, "latency");
	json_begin_object(j);
	json_kv_double(j, "interval_ms", l->interval_us / 1e3);
	json_kv_double(j, "idle_s", l->idle_ms / 1e3);
	phase_json(j, "idle", i);
	phase_json(j, "loaded", d);
	if (i->answered > 0 && d->answered > 0)
		json_kv_double(j, "increase_ms", ms(d->p50_ns) - ms(i->p50_ns));
	else
		json_kv_null(j, "increase_ms");
	if (d->answered > 0)
		json_kv_double(j, "rpm", latstat_rpm(d->tmean_ns));
	else
		json_kv_null(j, "rpm");
	if (l->have_expected) {
		json_kv_double(j, "queue_bytes", l->queue_bytes);
		json_kv_double(j, "expected_loaded_ms", l->expected_ns / 1e6);
	}
	if (l->have_tcp_rtt)
		json_kv_double(j, "tcp_srtt_ms", l->tcp_rtt_us / 1e3);
	if (l->have_echo) {
		json_key(j, "echo");
		json_begin_object(j);
		json_kv_u64(j, "received", l->echo.received);
		json_kv_u64(j, "echoed", l->echo.echoed);
		json_kv_u64(j, "over_rate", l->echo.over_rate);
		json_kv_u64(j, "strangers", l->echo.strangers);
		json_kv_u64(j, "malformed", l->echo.malformed);
		json_kv_u64(j, "unsent", l->echo.failed);
		json_end_object(j);
	}
	json_end_object(j);
}
