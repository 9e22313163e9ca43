# SPDX-License-Identifier: BSD-2-Clause
"""A lab's results written out: results.json (everything, with every
command), report.md (the network, each step with its commands, each result
beside what physics expects with the formula named, n/mean/stdev/CI and
whether the CI target was met) and, per output of the lab file, a
commented .dat table (figures.py draws them)."""

import json
import os

from . import figures


def fmt(v, digits=4):
    if v is None:
        return "-"
    if abs(v) >= 1000:
        return "%.1f" % v
    return "%.*f" % (digits, v)


def stat_cells(s, digits=4):
    if not s or s["n"] == 0:
        return ["0", "-", "-", "-"]
    ci = "-" if s["ci_low"] is None else "%s..%s" % (
        fmt(s["ci_low"], digits), fmt(s["ci_high"], digits))
    return [str(s["n"]), fmt(s["mean"], digits), fmt(s["stdev"], digits), ci]


def ratio(mean, model):
    if mean is None or not model:
        return "-"
    return "%.3f" % (mean / model)


def md_table(head, rows):
    out = ["| " + " | ".join(head) + " |",
           "|" + "|".join("---" for _ in head) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return out


def step_md(sr, level):
    out = ["#### step %s (line %d)" % (sr["step"], sr["line"]), "",
           "```"]
    out += sr.get("setup", [])
    out += [a["command"] or a["text"] for a in sr["actions"]]
    out += ["```", ""]
    said = []
    for run in sr.get("runs", []):
        for f in run["flows"]:
            for line in (f.get("stderr") or "").split("\n"):
                if line and line not in said:
                    said.append(line)
    if said:
        out += ["gput said (standard error, each line once):", ""]
        out += ["> " + line for line in said] + [""]
    st = sr.get("stats") or {}
    rows = []
    formulas = []
    for c in st.get("conns", []):
        a = sr["actions"][c["action"]]
        m = a["model"]
        exp = m.get("fair") if sum(1 for x in st["conns"]) > 1 else None
        share_name = "fair share" if exp else "eta*C"
        exp = exp or m.get("etac")
        # the goodput against the least of its bounds first, then the rest
        bounds = [(n, b) for n, b in ((share_name, exp),
                                      ("Mathis", m.get("mathis")),
                                      ("window/RTT", m.get("window")))
                  if b and b[0]]
        bounds.sort(key=lambda nb: nb[1][0])
        for i, (n, b) in enumerate(bounds or [("-", (None, None))]):
            rows.append(["%s goodput (MBit/s) against %s%s" % (
                c["label"], n, " (the least bound)" if i == 0 and
                len(bounds) > 1 else "")] + stat_cells(c["goodput"]) +
                [fmt(b[0]), ratio(c["goodput"]["mean"], b[0])])
            if b[1] and b[1] not in formulas:
                formulas.append(b[1])
        mm = m.get("mathis")
        if mm and not mm[0] and "no loss" not in mm[1] and \
                "no Mathis line: " + mm[1] not in formulas:
            formulas.append("no Mathis line: " + mm[1])
        if c.get("share") and c["share"]["n"]:
            rows.append(["%s share of eta*C" % c["label"]] +
                        stat_cells(c["share"]) +
                        [fmt(exp[0] / m["etac"][0]) if exp and m.get("etac")
                         and m["etac"][0] else "-",
                         ratio(c["share"]["mean"], exp[0] / m["etac"][0])
                         if exp and m.get("etac") and m["etac"][0] else "-"])
        rows.append(["%s FCT (s)" % c["label"]] + stat_cells(c["fct"]) +
                    ["-", "-"])
    if st.get("goodput") and len(st.get("conns", [])) > 1:
        etacs = {a["model"]["bottleneck"]: a["model"]["etac"][0]
                 for a in sr["actions"] if a["kind"] == "gput" and
                 a["model"].get("bottleneck")}
        tot = sum(v for v in etacs.values() if v) if etacs else None
        rows.append(["sum of the connections (MBit/s)"] +
                     stat_cells(st["goodput"]) +
                     [fmt(tot), ratio(st["goodput"]["mean"], tot)])
        if st.get("aggregate"):
            rows.append(["all bytes over the last FCT (MBit/s)"] +
                         stat_cells(st["aggregate"]) +
                         [fmt(tot), ratio(st["aggregate"]["mean"], tot)])
            formulas.append("each connection's goodput is over its own "
                            "window: flows that end at different times can "
                            "sum above eta*C; all bytes over the last FCT "
                            "is what the bottleneck carried together")
    if st.get("jain"):
        rows.append(["Jain's index over the connections"] +
                    stat_cells(st["jain"]) + ["1", ratio(st["jain"]["mean"], 1)])
    for i, a in enumerate(sr["actions"]):
        s = st["actions"][i] if i < len(st.get("actions", [])) else {}
        if a["kind"] == "ping":
            rows.append(["ping %s>%s RTT mean (ms)" % (a["src"], a["dst"])] +
                        stat_cells(s.get("rtt"), 3) +
                        [fmt(a["model"]["rtt"][0], 3),
                         ratio((s.get("rtt") or {}).get("mean"),
                               a["model"]["rtt"][0])])
            rows.append(["ping %s>%s RTT max (ms)" % (a["src"], a["dst"])] +
                        stat_cells(s.get("rtt_max"), 3) + ["-", "-"])
            if a["model"]["rtt"][1] not in formulas:
                formulas.append(a["model"]["rtt"][1])
        else:
            for k, c in (s.get("counts") or {}).items():
                rows.append(["%s>%s datagrams %s (count)" % (a["src"], a["dst"],
                                                            k)] +
                            stat_cells(c, 1) + ["-", "-"])
            if s.get("loss") and s["loss"]["n"]:
                rows.append(["%s>%s UDP loss (%%)" % (a["src"], a["dst"])] +
                            stat_cells(s["loss"], 3) + ["-", "-"])
            if s.get("jitter") and s["jitter"]["n"]:
                rows.append(["%s>%s UDP jitter (ms)" % (a["src"], a["dst"])] +
                            stat_cells(s["jitter"], 3) + ["-", "-"])
            if s.get("srtt") and s["srtt"]["n"]:
                rows.append(["%s>%s sender's smoothed RTT at the end (ms)"
                             % (a["src"], a["dst"])] +
                            stat_cells(s["srtt"], 2) +
                            [fmt(a["model"]["rtt"][0], 2),
                             ratio(s["srtt"]["mean"], a["model"]["rtt"][0])])
    out += md_table(["figure", "n", "mean", "stdev", "%g%% CI" % level,
                     "expected", "ratio"], rows)
    out.append("")
    if formulas:
        out.append("Expected, by formula:")
        out += ["- " + f for f in formulas]
        out.append("")
    if sr.get("missed_starts"):
        out.append("Runs begun again because a handshake ended after the "
                   "shared start (nothing measured): %d." % sr["missed_starts"])
        out.append("")
    t = sr["target"]
    if t.get("wanted_pct") is not None:
        out.append("CI target: %s, %g%% CI at most %g%% of the mean wide: "
                   "%s after %d runs (%s wide)." % (
                       t["metric"], t["level"], t["wanted_pct"],
                       "met" if t["met"] else "**missed**", t["n"],
                       "-" if t["width_pct"] is None else
                       "%.2f%%" % t["width_pct"]))
        out.append("")
    return out


def write(out, lab, res, net, log):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump(res, f, indent=1, default=str)
    figs, missed = [], []
    for o in lab.outputs:
        figs.append(figures.output(out, lab, res, o, log))
    for p in res["points"]:
        for sr in p["steps"]:
            if not sr["target"].get("met", True):
                missed.append((p["point"], sr))
    md = head_md(lab, res, net)
    for p in res["points"]:
        md += point_md(p, res["level"])
    md.append("## Tables and figures")
    md.append("")
    for name, kind, dat, pngs, rows in figs:
        md.append("### %s" % name)
        md.append("")
        md.append("Data: `%s` (commented columns)." % os.path.basename(dat))
        md.append("")
        md += rows
        md.append("")
        for p in pngs:
            md.append("![%s](%s)" % (name, os.path.basename(p)))
        md.append("")
    md.append("## CI targets missed")
    md.append("")
    if not missed:
        md.append("None: every step met its target (or had none).")
    for pt, sr in missed:
        md.append("- step %s at %s: %s%% wide after %d runs (target %g%%)" % (
            sr["step"], " ".join("%s=%s" % kv for kv in pt.items()) or "-",
            "-" if sr["target"]["width_pct"] is None else
            "%.2f" % sr["target"]["width_pct"], sr["target"]["n"],
            sr["target"]["wanted_pct"]))
    md.append("")
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write("\n".join(md))


def head_md(lab, res, net):
    md = ["# %s" % (lab.title or os.path.basename(lab.path)), ""]
    values = res["points"][0]["values"] if res["points"] else {}
    for line, text in lab.about:
        md += [lab.subst(text, values, line), ""]
    for n in (res["points"][0]["notes"] if res["points"] else []):
        md += ["> " + n, ""]
    md += ["Run with `gput-lab run %s%s` from %s to %s, %s%s." % (
        os.path.basename(lab.path), " --quick" if res["quick"] else "",
        res.get("started"), res.get("finished"), res["gput"],
        (", set " + " ".join("%s=%s" % kv for kv in res["overrides"].items()))
        if res["overrides"] else ""), ""]
    rep = lab.repeat
    if res["quick"]:
        md.append("Repeats: %d per step (--quick)." % rep["quick"])
    elif rep["max"] > rep["min"]:
        md.append("Repeats: %d to %d per step, until the %g%% CI of the "
                  "step's main figure is at most %g%% of its mean wide." % (
                      rep["min"], rep["max"], rep["level"], rep["width"]))
    else:
        md.append("Repeats: %d per step; %g%% Student-t CIs." % (
            rep["min"], rep["level"]))
    md += ["", "## Network", "", "```"] + res.get("network", []) + ["```", ""]
    md += ["```"] + net.draw() + ["```", ""]
    md += ["Routes are the testbed's shortest paths. Goodput is the "
           "receiver's (bytes over its window); FCT is the first byte's "
           "one-way trip (the lab's delays) plus the receiver's window; "
           "RTT models are 2 x the one-way delays of the path (the sum of "
           "the delays there and back).", ""]
    return md


def emulation_md(counters):
    """Whether the host kept up, in words, from gput-testbed counters'
    delay-line lines ("DIR KEY VALUE"): a delay line that dropped frames,
    or left more than 1% of them later than its 100 us budget (its p99
    error past it, the accuracy the testbed promises), did not."""
    d = {}
    for line in counters.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in ("delay-fwd", "delay-drop", "delay-late",
                                    "delay-err-p99-us"):
            try:
                d.setdefault(f[0], {})[f[1]] = float(f[2])
            except ValueError:
                pass
    lines = [k for k in sorted(d) if "delay-fwd" in d[k]]
    if not lines:
        return []
    bad = []
    for k in lines:
        v = d[k]
        fwd, late = v["delay-fwd"], v.get("delay-late", 0)
        drop, p99 = v.get("delay-drop", 0), v.get("delay-err-p99-us")
        if drop > 0 or late * 100 > fwd:
            bad.append("%s dropped %d and left %d of %d frames more than "
                       "100 us late (p99 error %s us)"
                       % (k, drop, late, fwd,
                          "-" if p99 is None else "%d" % p99))
    if bad:
        return ["**The host did not keep up with this network**: the delay "
                "line of " + "; of ".join(bad) + ". The results may measure "
                "the host, not the emulated link (gput-testbed calibrate "
                "says what this host can emulate).", ""]
    return ["The host kept up: every delay line (%s) dropped nothing and "
            "left at least 99%% of its frames within 100 us of their time."
            % ", ".join(lines), ""]


def point_md(p, level):
    md = ["## Point %s" % (" ".join("%s=%s" % kv for kv in p["point"].items())
                           or "(no sweep)"), ""]
    if p["idle"]:
        md.append("Idle RTT per path, after one ping resolved the neighbours "
                  "(the model's RTT comes from the delays, not from this):")
        md.append("")
        rows = []
        for i in p["idle"]:
            pg = i["ping"]
            d = None if pg["min"] is None else pg["min"] - i["model_ms"]
            rows.append([i["path"], fmt(i["model_ms"], 3), fmt(pg["min"], 3),
                         fmt(pg["avg"], 3), fmt(pg["max"], 3),
                         "-" if d is None else "%+.3f" % d,
                         "no answer" if d is None else "agrees" if
                         -0.1 <= d <= 1 + 0.02 * i["model_ms"] else
                         "**differs**: the models' RTT may be off"])
        md += md_table(["path", "model (ms)", "min", "avg", "max",
                        "min - model", "check"], rows)
        md.append("")
        md.append("(agrees: the least RTT is the delays' sum, or up to 1 ms "
                  "+ 2% above it for the hosts' own time)")
        md.append("")
    for sr in p["steps"]:
        md += step_md(sr, level)
    if p.get("counters"):
        md += ["Testbed counters after the point:", "", "```",
               p["counters"].rstrip(), "```", ""]
        md += emulation_md(p["counters"])
    return md
