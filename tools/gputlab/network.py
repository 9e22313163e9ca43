# SPDX-License-Identifier: BSD-2-Clause
"""The network of a lab: nodes and links, each link's values per
direction, paths between nodes, and the physics a path implies (its
bottleneck, its RTT from the links' delays, its loss). The lines are
gput-testbed's topology lines (gput-testbed(8), TOPOLOGY); the values
follow its rules, so a line this accepts the testbed accepts too."""

import re

KINDS = ("host", "router", "switch")
LINK_KEYS = ("rate", "delay", "jitter", "queue", "loss", "dup", "reorder",
             "ecn", "mtu")


def parse_rate(s):
    """bit/s: k, M, G = 10^3, 10^6, 10^9; a trailing bit, bps, b/s."""
    t = re.sub(r"(bit|bps|b/s)$", "", s)
    mul = {"k": 1e3, "K": 1e3, "m": 1e6, "M": 1e6, "g": 1e9, "G": 1e9}
    m = 1.0
    if t and t[-1] in mul:
        m, t = mul[t[-1]], t[:-1]
    if not re.match(r"^([0-9]+\.?[0-9]*|\.[0-9]+)$", t):
        raise ValueError("bad rate '%s': use e.g. 10M, 100k, 1G" % s)
    v = float(t) * m
    if not 1e4 <= v <= 1e10:
        raise ValueError("rate %s out of range (10k..10G)" % s)
    return v


def parse_delay(s):
    """ms: a bare number is ms; us, ms, s accepted; 0..10 s."""
    m = re.match(r"^([0-9]+\.?[0-9]*|\.[0-9]+)(us|ms|s)?$", s)
    if not m:
        raise ValueError("bad delay '%s': use ms (20) or a unit: 500us, "
                         "20ms, 1.5ms" % s)
    v = float(m.group(1)) * {"us": 1e-3, "ms": 1.0, "s": 1e3,
                             None: 1.0}[m.group(2)]
    if v > 10000:
        raise ValueError("delay %s out of range (0..10s)" % s)
    return v


def parse_pct(s):
    m = re.match(r"^([0-9]+(\.[0-9]{1,2})?)%?$", s)
    if not m or float(m.group(1)) > 100:
        raise ValueError("bad percentage '%s': 0 to 100, at most two "
                         "decimals (2, 0.5%%, 12.25)" % s)
    return float(m.group(1))


def parse_queue(s):
    m = re.match(r"^([0-9]{1,9})(p|K|k|M)?$", s)
    if not m:
        raise ValueError("bad queue '%s': bytes (100000, 64K) or packets "
                         "(100p)" % s)
    return s


def parse_mtu(s):
    if not re.match(r"^[0-9]{1,5}$", s) or not 1280 <= int(s) <= 9000:
        raise ValueError("bad MTU '%s': 1280..9000 (1500, 1492, 9000)" % s)
    return int(s)


PARSERS = {"rate": parse_rate, "delay": parse_delay, "jitter": parse_delay,
           "queue": parse_queue, "loss": parse_pct, "dup": parse_pct,
           "reorder": parse_pct, "ecn": parse_queue}


class Link:
    def __init__(self, a, b, text):
        self.a, self.b, self.text = a, b, text
        # per direction: index 0 is a>b, 1 is b>a
        self.v = [{}, {}]
        self.mtu = 1500

    def name(self, d):
        return "%s>%s" % ((self.a, self.b) if d == 0 else (self.b, self.a))

    def get(self, d, key, default=None):
        return self.v[d].get(key, default)


class Network:
    def __init__(self):
        self.nodes = {}             # name -> kind, in file order
        self.links = []
        self.lines = []             # the testbed's lines, expanded

    def add_line(self, text):
        words = text.split()
        self.lines.append(" ".join(words))
        kind = words[0]
        if kind in KINDS:
            if len(words) != 2:
                raise ValueError("%s NAME: one name" % kind)
            name = words[1]
            if not re.match(r"^[a-z][a-z0-9]{0,9}$", name):
                raise ValueError("node name '%s': a lower-case letter and up "
                                 "to nine lower-case letters or digits" % name)
            if name in self.nodes:
                raise ValueError("node %s is defined twice" % name)
            self.nodes[name] = kind
            return
        if len(words) < 3:
            raise ValueError("link A B [rate R[/R2]] [delay D[/D2]] ...")
        a, b = words[1], words[2]
        for n in (a, b):
            if n not in self.nodes:
                raise ValueError("link %s %s: no node %s (define it with "
                                 "host, router or switch first)" % (a, b, n))
        if a == b:
            raise ValueError("link %s %s: a link joins two nodes" % (a, b))
        for l in self.links:
            if {l.a, l.b} == {a, b}:
                raise ValueError("link %s %s: these two are joined already"
                                 % (a, b))
        link = Link(a, b, " ".join(words))
        rest = words[3:]
        seen = set()
        while rest:
            key = rest[0]
            if key not in LINK_KEYS:
                raise ValueError("link %s %s: '%s' is not one of %s"
                                 % (a, b, key, ", ".join(LINK_KEYS)))
            if key in seen:
                raise ValueError("link %s %s: %s given twice" % (a, b, key))
            seen.add(key)
            if len(rest) < 2:
                raise ValueError("link %s %s: %s needs a value" % (a, b, key))
            val = rest[1]
            if key == "mtu":
                link.mtu = parse_mtu(val)
            else:
                parts = val.split("/")
                if len(parts) > 2 or "" in parts:
                    raise ValueError("link %s %s: %s '%s': X or A>B/B>A"
                                     % (a, b, key, val))
                try:
                    got = [None if p == "none" and key in
                           ("rate", "delay", "jitter") else PARSERS[key](p)
                           for p in parts]
                except ValueError as e:
                    raise ValueError("link %s %s: %s" % (a, b, e))
                for d, (g, t) in enumerate(((got[0], parts[0]),
                                            (got[-1], parts[-1]))):
                    if g is not None:
                        link.v[d][key] = g
                        link.v[d][key + "_text"] = t
            rest = rest[2:]
        self.links.append(link)

    def check(self):
        if not any(k == "host" for k in self.nodes.values()):
            raise ValueError("the network has no host")
        joined = {l.a for l in self.links} | {l.b for l in self.links}
        for n in self.nodes:
            if n not in joined and len(self.nodes) > 1:
                e = ValueError("node %s has no link" % n)
                e.node = n
                raise e

    def neighbours(self, n):
        for l in self.links:
            if l.a == n:
                yield l.b, l, 0
            elif l.b == n:
                yield l.a, l, 1

    def path(self, src, dst):
        """The hops from src to dst as [(link, direction)], fewest hops
        (the testbed's routes are shortest paths), or None."""
        prev, todo = {src: None}, [src]
        while todo:
            nxt = []
            for n in todo:
                # hosts do not forward: a path passes routers and switches
                if n != src and self.nodes[n] == "host":
                    continue
                for m, l, d in self.neighbours(n):
                    if m not in prev:
                        prev[m] = (n, l, d)
                        nxt.append(m)
            todo = nxt
        if dst not in prev:
            return None
        hops, n = [], dst
        while prev[n] is not None:
            p, l, d = prev[n]
            hops.append((l, d))
            n = p
        return list(reversed(hops))

    # ---- physics of a path ----

    def bottleneck(self, src, dst):
        """(link, direction, rate bit/s) of the slowest shaped hop from src
        to dst; None when no hop has a rate."""
        best = None
        for l, d in self.path(src, dst):
            r = l.get(d, "rate")
            if r is not None and (best is None or r < best[2]):
                best = (l, d, r)
        return best

    def one_way_ms(self, src, dst):
        return sum(l.get(d, "delay", 0.0) for l, d in self.path(src, dst))

    def rtt_ms(self, src, dst):
        """2 x the one-way delays when both ways are alike: the sum of the
        path's delays there and back."""
        return self.one_way_ms(src, dst) + self.one_way_ms(dst, src)

    def loss(self, src, dst):
        """The probability a packet from src to dst is lost on its way."""
        keep = 1.0
        for l, d in self.path(src, dst):
            keep *= 1 - l.get(d, "loss", 0.0) / 100
        return 1 - keep

    def mtu(self, src, dst):
        return min(l.mtu for l, _ in self.path(src, dst))

    def describe_path(self, src, dst):
        nodes = [src]
        for l, d in self.path(src, dst):
            nodes.append(l.b if d == 0 else l.a)
        return " - ".join(nodes)

    def draw(self):
        """The network as text: each node with its links, per direction."""
        out = []
        for n, kind in self.nodes.items():
            out.append("%-7s %s" % (kind, n))
            for m, l, d in self.neighbours(n):
                out.append("          -> %-8s %s" % (m, link_text(l, d)))
        return out


def link_text(l, d):
    parts = []
    for k in ("rate", "delay", "jitter", "queue", "loss", "dup", "reorder",
              "ecn"):
        t = l.get(d, k + "_text")
        if t is not None:
            unit = {"delay": "" if t[-1:].isalpha() else " ms",
                    "jitter": "" if t[-1:].isalpha() else " ms",
                    "loss": "" if t.endswith("%") else "%",
                    "dup": "" if t.endswith("%") else "%",
                    "reorder": "" if t.endswith("%") else "%"}.get(k, "")
            parts.append("%s %s%s" % (k, t, unit))
    if l.mtu != 1500:
        parts.append("mtu %d" % l.mtu)
    return ", ".join(parts) or "unshaped"
