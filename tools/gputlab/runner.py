# SPDX-License-Identifier: BSD-2-Clause
"""Running a lab: for each point of its sweeps, the network built, an idle
ping per path checked against the links' delays, then each step repeated
(N times, or MIN..MAX until its CI is narrow enough), its flows started
together (gput --start-at), every result kept with its command."""

import json
import os
import re
import subprocess
import time

from . import physics, stats
from .testbed import TestbedError

PING_RE = re.compile(r"= ([0-9.]+)/([0-9.]+)/([0-9.]+)/([0-9.]+) ms")
SENT_RE = re.compile(r"([0-9]+) packets transmitted, ([0-9]+) received")


class StepFailed(Exception):
    pass


class MissedStart(Exception):
    """A client's handshake ended after the shared start time."""


def parse_ping(text):
    out = {"sent": None, "received": None, "min": None, "avg": None,
           "max": None, "mdev": None}
    m = SENT_RE.search(text)
    if m:
        out["sent"], out["received"] = int(m.group(1)), int(m.group(2))
    m = PING_RE.search(text)
    if m:
        out.update(min=float(m.group(1)), avg=float(m.group(2)),
                   max=float(m.group(3)), mdev=float(m.group(4)))
    return out


def conns_of(doc, owd_ms, label, cc):
    """The connections of one gput --json document, at the receiver: each
    one's goodput (its Real-MBit/s), bytes and flow completion time (the
    first byte's trip, owd_ms from the lab's delays, plus the receiver's
    window from its first read to its end of file; a -P stream's window is
    counted from the side's first stream)."""
    recv = [s for s in doc.get("sides", []) if s.get("role") == "recv"]
    if not recv or "real_mbit" not in recv[0]:
        return []
    r = recv[0]
    ccs = (cc or "").split(",") if cc else []
    out = []
    streams = r.get("streams") or []
    if streams:
        t0 = min(s.get("start_s", 0) for s in streams)
        for s in streams:
            k = s.get("stream", len(out) + 1)
            c = ccs[(k - 1) % len(ccs)] if ccs else None
            out.append({"label": "%s #%d%s" % (label, k, " " + c if c else ""),
                        "goodput": s.get("real_mbit"),
                        "bytes": s.get("bytes"),
                        "fct": owd_ms / 1e3 + s.get("start_s", 0) - t0 +
                        s.get("real_s", 0)})
    else:
        out.append({"label": label + (" " + ccs[0] if ccs else ""),
                    "goodput": r.get("real_mbit"), "bytes": r.get("bytes"),
                    "fct": owd_ms / 1e3 + r.get("real_s", 0)})
    return out


class Runner:
    def __init__(self, lab, tb, gput, quick, overrides, log):
        self.lab, self.tb, self.gput = lab, tb, gput
        self.quick, self.overrides, self.log = quick, overrides, log
        self.partners = {}
        self.done = set()
        self.built = None
        self.idle = {}
        self.result = {"lab": lab.title, "file": lab.path, "quick": quick,
                       "gput": self.version(), "points": [],
                       "overrides": overrides}

    def version(self):
        try:
            return subprocess.run([self.gput, "-V"], stdout=subprocess.PIPE,
                                  universal_newlines=True).stdout.split(
                                      "\n")[0]
        except OSError:
            return "?"

    # ---- a point ----

    def run(self):
        self.result["started"] = time.strftime("%Y-%m-%dT%H:%M:%SZ",
                                               time.gmtime())
        for point in self.lab.points(self.quick):
            self.run_point(point)
        self.result["finished"] = time.strftime("%Y-%m-%dT%H:%M:%SZ",
                                                time.gmtime())
        return self.result

    def run_point(self, point):
        net, steps, notes, values = self.lab.expand(point, self.quick,
                                                    self.overrides)
        pr = {"point": point, "values": values, "network": net.lines,
              "notes": notes, "idle": [], "steps": []}
        self.result.setdefault("network", net.lines)
        self.log("point %s" % (" ".join("%s=%s" % kv for kv in point.items())
                               or "(no sweep)"))
        # a step runs once per distinct network and text of its own: one
        # that uses none of the swept variables runs at the first point
        steps = [(st, acts) for st, acts in steps
                 if (tuple(net.lines), st.name, tuple(a.text for a in acts))
                 not in self.done]
        if not steps:
            return
        self.result["points"].append(pr)
        for st, acts in steps:
            self.done.add((tuple(net.lines), st.name,
                           tuple(a.text for a in acts)))
        if net.lines != self.built:
            self.tb.up(net.lines)
            self.built = net.lines
            self.partners = {}
            self.idle = {}
        self.net = net
        pr["idle"] = self.idle_pings(steps)
        for st, acts in steps:
            pr["steps"].append(self.run_step(st, acts))
        pr["counters"] = self.tb.counters()

    def idle_pings(self, steps):
        """Each path the steps use, pinged idle once neighbours are
        resolved (one ping first), against 2 x the one-way delays."""
        out, seen = [], set()
        for _st, acts in steps:
            for a in acts:
                if (a.src, a.dst) in seen or (a.src, a.dst) in self.idle:
                    continue
                seen.add((a.src, a.dst))
                self.idle[(a.src, a.dst)] = True
                addr = self.dst_addr(a.src, a.dst)
                self.ping(a.src, addr, ["-c", "1", "-W", "5"])
                n = "3" if self.quick else "10"
                res = self.ping(a.src, addr, ["-c", n, "-i", "0.2"])
                out.append({"src": a.src, "dst": a.dst, "addr": addr,
                            "model_ms": self.net.rtt_ms(a.src, a.dst),
                            "path": self.net.describe_path(a.src, a.dst),
                            "ping": res})
        return out

    def dst_addr(self, src, dst):
        """dst's address on the link the path from src arrives on."""
        l, d = self.net.path(src, dst)[-1]
        return self.tb.addr(dst, l.a if d == 0 else l.b)

    def ping(self, node, addr, opts):
        outf = os.path.join(self.tb.work, "ping.out")
        with open(outf, "w") as o:
            p = self.tb.start(node, ["ping", "-n", "-q"] + opts + [addr], o,
                              subprocess.STDOUT)
            try:
                p.wait(120)
            finally:
                self.tb.stop(p)
        with open(outf) as f:
            return parse_ping(f.read())

    def partner(self, node):
        if node not in self.partners:
            self.partners[node] = self.tb.partner(node, self.gput)[1]
        return self.partners[node]

    # ---- a step ----

    def run_step(self, st, acts):
        rep = self.lab.repeat
        nmin, nmax = (rep["quick"], rep["quick"]) if self.quick else \
            (rep["min"], rep["max"])
        models = []
        for a in acts:
            if a.kind == "gput":
                models.append(physics.flow_model(self.gput, self.net, a.src,
                                                 a.dst, a.opts))
            else:
                models.append({"rtt": (self.net.rtt_ms(a.src, a.dst),
                                       "2 x one-way delays (%s)" %
                                       self.net.describe_path(a.src, a.dst))})
        sr = {"step": st.name, "line": st.line, "actions": [], "runs": []}
        for a, m in zip(acts, models):
            sr["actions"].append({"kind": a.kind, "src": a.src, "dst": a.dst,
                                  "text": a.text, "opts": a.opts,
                                  "model": m, "command": None})
        self.fair_shares(sr)
        self.ecn_setup(sr, acts)
        sr["missed_starts"] = 0
        while len(sr["runs"]) < nmax:
            self.log("step %s: run %d" % (st.name, len(sr["runs"]) + 1))
            try:
                sr["runs"].append(self.run_once(sr, acts))
            except MissedStart as e:
                # nothing was measured: the flows could not start together
                sr["missed_starts"] += 1
                if sr["missed_starts"] > 3:
                    raise StepFailed(str(e))
                self.log("%s; again" % e)
                continue
            self.summarise(sr, rep["level"])
            if len(sr["runs"]) >= nmin and rep["width"] is not None and \
                    sr["target"]["width_pct"] is not None and \
                    sr["target"]["width_pct"] <= rep["width"]:
                break
        # --quick runs too few to judge a CI: no target then
        wanted = None if self.quick else rep["width"]
        sr["target"]["met"] = wanted is None or (
            sr["target"]["width_pct"] is not None and
            sr["target"]["width_pct"] <= wanted)
        sr["target"]["wanted_pct"] = wanted
        return sr

    def ecn_setup(self, sr, acts):
        """gput --ecn over TCP: the sender's namespace asks for ECN on the
        connections it opens (net.ipv4.tcp_ecn = 1; a namespace starts
        with 2, which only answers), so the data connection negotiates it;
        the command goes into the report."""
        sr["setup"] = []
        done = set()
        for a in acts:
            if a.kind == "gput" and "--ecn" in a.opts and \
                    "-u" not in a.opts and a.src not in done:
                done.add(a.src)
                argv = ["sysctl", "-q", "-w", "net.ipv4.tcp_ecn=1"]
                p = self.tb.start(a.src, argv, subprocess.DEVNULL,
                                  subprocess.DEVNULL)
                try:
                    p.wait(30)
                finally:
                    self.tb.stop(p)
                if p.returncode != 0:
                    raise StepFailed("step %s: sysctl net.ipv4.tcp_ecn=1 in "
                                     "%s failed" % (sr["step"], a.src))
                sr["setup"].append("gput-testbed exec %s %s"
                                   % (a.src, " ".join(argv)))

    def fair_shares(self, sr):
        """The fair share of each gput action's bottleneck: its eta*C over
        the connections of the step that cross that bottleneck."""
        count = {}
        for a in sr["actions"]:
            if a["kind"] == "gput" and a["model"].get("bottleneck"):
                p = physics.opt(a["opts"], "-P", "--parallel")
                count[a["model"]["bottleneck"]] = \
                    count.get(a["model"]["bottleneck"], 0) + int(p or 1)
        for a in sr["actions"]:
            b = a["model"].get("bottleneck")
            if a["kind"] == "gput" and b and a["model"]["etac"][0]:
                k = count[b]
                a["model"]["fair"] = (a["model"]["etac"][0] / k,
                                      "fair share: eta*C of %s / %d "
                                      "connections across it" % (b, k))

    def run_once(self, sr, acts):
        # addresses and partners first: the start time's lead is for the
        # clients' handshakes alone
        prep = []
        for a in acts:
            addr = self.dst_addr(a.src, a.dst)
            port = self.partner(a.dst) if a.kind == "gput" else None
            prep.append((a, addr, port))
        ngput = sum(1 for a in acts if a.kind == "gput")
        # flows start together only where there are several; a lossy path
        # may lose handshake packets (a SYN is resent after 1 s): then the
        # longest lead gput waits with connected (5 s)
        lossy = any(self.net.loss(a.src, a.dst) > 0 or
                    self.net.loss(a.dst, a.src) > 0 for a in acts)
        start = time.time() + (5.0 if lossy else 1.5 + 0.25 * ngput)
        procs = []
        for i, (a, addr, port) in enumerate(prep):
            outf = os.path.join(self.tb.work, "a%d.out" % i)
            errf = os.path.join(self.tb.work, "a%d.err" % i)
            if a.kind == "gput":
                argv = [self.gput] + a.opts + ["--json", "-q"] + (
                    ["--start-at", "%.6f" % start] if ngput > 1 else []) + \
                    ["-p", str(port), addr]
                secs = physics.opt(a.opts, "--time")
                limit = float(secs) + 90 if secs else 900
                # gput's own waits (connect, HELLO, READY, START, the data's
                # idle end, RESULT) each grow by --peer-timeout's excess
                pt = physics.opt(a.opts, "--peer-timeout")
                if pt and re.match(r"^[0-9]+$", pt) and int(pt) > 10:
                    limit += 6 * (int(pt) - 10)
            else:
                argv = ["ping", "-n", "-q"] + a.opts + [addr]
                limit = 900
            sr["actions"][i]["command"] = "gput-testbed exec %s %s" % (
                a.src, " ".join(argv))
            o, e = open(outf, "w"), open(errf, "w")
            procs.append((a, self.tb.start(a.src, argv, o, e), outf, errf,
                          time.monotonic() + limit))
            o.close()
            e.close()
        flows = []
        for a, p, outf, errf, deadline in procs:
            try:
                p.wait(max(1.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                raise StepFailed("step %s: %s did not end in time"
                                 % (sr["step"], a.text))
            self.tb.stop(p)
            with open(outf) as f:
                out = f.read()
            with open(errf) as f:
                err = f.read().strip()
            if p.returncode != 0 and "--start-at: the handshake ended" in err:
                for q in procs:         # the others end, nothing is kept
                    self.tb.stop(q[1])
                raise MissedStart("step %s: %s: %s" % (
                    sr["step"], a.text, err.split("\n")[-1]))
            if p.returncode != 0:
                raise StepFailed("step %s (line %d): %s: exit %d: %s" % (
                    sr["step"], sr["line"], a.text, p.returncode,
                    err.split("\n")[-1] if err else out.strip()[-300:]))
            flows.append(self.flow_result(a, out, err))
        return {"flows": flows, "start_at": start}

    def flow_result(self, a, out, err):
        if a.kind == "ping":
            return {"kind": "ping", "ping": parse_ping(out)}
        try:
            doc = json.loads(out)
        except ValueError:
            raise StepFailed("%s: gput's output is not JSON: %s"
                             % (a.text, out[:200]))
        label = "%s>%s" % (a.src, a.dst)
        cc = physics.opt(a.opts, "--cc")
        fr = {"kind": "gput", "json": doc, "stderr": err,
              "conns": conns_of(doc, self.net.one_way_ms(a.src, a.dst),
                                label, cc)}
        for s in doc.get("sides", []):
            if s.get("role") == "recv" and "udp" in s:
                u = s["udp"]
                if u.get("sent"):
                    fr["loss_pct"] = 100.0 * u.get("lost", 0) / u["sent"]
                fr["jitter_ms"] = u.get("jitter_ms")
                w = s.get("window") or {}
                fr["counts"] = {
                    "sent": u.get("sent"), "unique": u.get("unique"),
                    "duplicate": w.get("duplicates", u.get("duplicates")),
                    "misordered": w.get("misordered", u.get("reordered")),
                    "missing": w.get("missing", u.get("lost"))}
            if s.get("role") == "send" and "window" in s:
                fr["window"] = s["window"]
            if s.get("role") == "send" and "tcp_info" in s:
                fr["srtt_ms"] = s["tcp_info"].get("rtt_us", 0) / 1e3
        return fr

    # ---- statistics over the runs ----

    def summarise(self, sr, level):
        runs = sr["runs"]
        acts = sr["actions"]
        st = {"goodput": None, "jain": None, "conns": [], "actions": []}
        sums, jains, aggs = [], [], []
        for r in runs:
            conns = [c for f in r["flows"] if f["kind"] == "gput"
                     for c in f["conns"]]
            if conns:
                sums.append(sum(c["goodput"] or 0 for c in conns))
                last = max(c["fct"] or 0 for c in conns)
                aggs.append(sum(c["bytes"] or 0 for c in conns) * 8 / last /
                            1e6 if last > 0 else None)
                jains.append(stats.jain([c["goodput"] for c in conns])
                             if len(conns) > 1 else None)
        if sums:
            st["goodput"] = stats.summary(sums, level)
            st["aggregate"] = stats.summary(aggs, level)
            if any(j is not None for j in jains):
                st["jain"] = stats.summary(jains, level)
        # per connection, in the order of the first run
        if runs:
            for fi, f in enumerate(runs[0]["flows"]):
                a = acts[fi]
                if f["kind"] == "gput":
                    for ci, c in enumerate(f["conns"]):
                        vals = [r["flows"][fi]["conns"][ci]
                                for r in runs if ci < len(r["flows"][fi]["conns"])]
                        etac = a["model"]["etac"][0]
                        st["conns"].append({
                            "label": c["label"], "action": fi,
                            "goodput": stats.summary([v["goodput"] for v in vals], level),
                            "share": stats.summary([v["goodput"] / etac if etac else None
                                                    for v in vals], level),
                            "fct": stats.summary([v["fct"] for v in vals], level)})
                    cnt = {}
                    for k in ("sent", "unique", "duplicate", "misordered",
                              "missing"):
                        v = [(r["flows"][fi].get("counts") or {}).get(k)
                             for r in runs]
                        if any(x is not None for x in v):
                            cnt[k] = stats.summary(v, level)
                    st["actions"].append({
                        "counts": cnt,
                        "loss": stats.summary([r["flows"][fi].get("loss_pct") for r in runs], level),
                        "jitter": stats.summary([r["flows"][fi].get("jitter_ms") for r in runs], level),
                        "srtt": stats.summary([r["flows"][fi].get("srtt_ms") for r in runs], level)})
                else:
                    st["actions"].append({"rtt": stats.summary(
                        [r["flows"][fi]["ping"]["avg"] for r in runs], level),
                        "rtt_min": stats.summary(
                        [r["flows"][fi]["ping"]["min"] for r in runs], level),
                        "rtt_max": stats.summary(
                        [r["flows"][fi]["ping"]["max"] for r in runs], level)})
        sr["stats"] = st
        if st["goodput"] is not None:
            t = dict(st["goodput"], metric="the step's goodput (sum of its "
                     "connections)")
        else:
            t = dict(st["actions"][0]["rtt"], metric="the first ping's mean RTT")
        sr["target"] = {"metric": t["metric"], "n": t["n"],
                        "width_pct": t["width_pct"], "level": level}
