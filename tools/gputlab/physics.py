# SPDX-License-Identifier: BSD-2-Clause
"""What physics expects of a flow across a lab's network, each figure with
the formula that gave it: eta*C of the path's bottleneck (gput --predict),
the RTT from the links' delays, window/RTT, the Mathis bound (loss-based
congestion controls only) and the fair share of the bottleneck."""

import re
import subprocess

LOSS_BASED = ("reno", "cubic", "htcp", "bic", "highspeed", "scalable",
              "westwood", "hybla", "illinois", "veno", "yeah", "lp", "nv")
_cache = {}


def predict(gput, args):
    """gput --predict ARGS: {'expected': MBit/s, 'mathis': MBit/s or None,
    'eta': eta}."""
    key = tuple(args)
    if key not in _cache:
        p = subprocess.run([gput, "--predict"] + list(args),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
        if p.returncode != 0:
            raise ValueError("gput --predict %s: %s"
                             % (" ".join(args), p.stderr.strip()))
        out = {"expected": None, "mathis": None, "eta": None}
        for line in p.stdout.split("\n"):
            m = re.match(r"^expected ([0-9.]+) MBit/s", line)
            if m:
                out["expected"] = float(m.group(1))
            m = re.match(r"^Mathis bound .*: ([0-9.]+) MBit/s", line)
            if m:
                out["mathis"] = float(m.group(1))
            m = re.match(r"^eta ([0-9.]+)", line)
            if m:
                out["eta"] = float(m.group(1))
        _cache[key] = out
    return _cache[key]


def opt(opts, *names):
    """The value of the last of these options in a gput option list."""
    val = None
    for i, o in enumerate(opts):
        for n in names:
            if o == n and i + 1 < len(opts):
                val = opts[i + 1]
            elif n.startswith("--") and o.startswith(n + "="):
                val = o[len(n) + 1:]
    return val


def size_bytes(s, kilo_plain=False):
    m = re.match(r"^([0-9]+)([KMG]?)$", s or "")
    if not m:
        return None
    v = int(m.group(1)) * {"": 1024 if kilo_plain else 1, "K": 1024,
                           "M": 1 << 20, "G": 1 << 30}[m.group(2)]
    return v


def default_cc():
    try:
        with open("/proc/sys/net/ipv4/tcp_congestion_control") as f:
            return f.read().strip()
    except OSError:
        return "cubic"


def flow_model(gput, net, src, dst, opts):
    """The expectations for one gput flow src -> dst with these options:
    a dict of {name: (value or None, formula or reason)}."""
    udp = "-u" in opts or "--udp" in opts
    bn = net.bottleneck(src, dst)
    rtt = net.rtt_ms(src, dst)
    loss = net.loss(src, dst) * 100
    mtu = net.mtu(src, dst)
    m = {"rtt": (rtt, "2 x one-way delays: sum of the path's delays there "
                 "and back (%s)" % net.describe_path(src, dst))}
    if bn is None:
        m["etac"] = (None, "no link on the path has a rate")
        return m
    link, d, rate = bn
    args = ["--link", "%.0f" % rate]
    if udp:
        args.append("-u")
    ln = opt(opts, "-l", "--length")
    if ln:
        args += ["-l", ln]
    if mtu != 1500:
        args += ["--mtu", str(mtu)]
    e = predict(gput, args)
    m["etac"] = (e["expected"], "eta*C: eta %.4f x C %s of the bottleneck %s"
                 " (gput --predict %s)" % (e["eta"] or 0, _rate(rate),
                                            link.name(d), " ".join(args)))
    m["bottleneck"] = link.name(d)
    w = opt(opts, "-w", "--window")
    sw = opt(opts, "--sliding-window")
    if w and rtt > 0:
        wb = size_bytes(w, kilo_plain=True)
        if wb:
            m["window"] = (wb * 8 / (rtt / 1e3) / 1e6, "window/RTT: %d bytes "
                           "x 8 / %.1f ms" % (wb, rtt))
    elif sw and rtt > 0:
        n = int(sw) if sw.isdigit() else 0
        lb = size_bytes(ln or "1472") or 1472
        m["window"] = (n * lb * 8 / (rtt / 1e3) / 1e6, "window/RTT: %d x %d "
                       "bytes x 8 / %.1f ms" % (n, lb, rtt))
    if udp:
        m["mathis"] = (None, "UDP: no congestion control")
        return m
    cc = (opt(opts, "--cc") or default_cc()).split(",")[0]
    if loss <= 0:
        m["mathis"] = (None, "no loss on the path")
    elif cc not in LOSS_BASED:
        m["mathis"] = (None, "not for %s: the Mathis bound models loss-based "
                       "congestion control (reno, cubic)" % cc)
    else:
        pr = predict(gput, args + ["--rtt", "%.3f" % rtt, "--loss",
                                   "%.4f" % loss])
        m["mathis"] = (pr["mathis"], "Mathis: MSS x 8 / RTT x sqrt(3/2) / "
                       "sqrt(p), RTT %.1f ms, p %.4g%% (%s)"
                       % (rtt, loss, cc))
    return m


def _rate(r):
    for div, unit in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if r >= div:
            return ("%.6g%sbit/s" % (r / div, unit))
    return "%.0fbit/s" % r
