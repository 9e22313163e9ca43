# SPDX-License-Identifier: BSD-2-Clause
"""The lab file (gput-lab(5)): read, checked line by line, expanded per
point of its sweeps. Every error is one LabError naming FILE:LINE."""

import itertools
import re
import shlex

from . import network

VAR_RE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
STEP_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]*$")
KEYWORDS = ("title", "about", "note", "host", "router", "switch", "link",
            "set", "sweep", "label", "repeat", "step", "plot", "table")
Y_KINDS = ("goodput", "conn", "share", "fct", "jain", "rtt", "loss",
           "jitter", "srtt")
MODELS = ("etac", "rtt", "window", "mathis", "fair")
# a variable's words, where the lab has no label line for it: from where it
# is used first, (pattern before ${V}, label, unit or a function of the
# text just after ${V})
DERIVED = (
    (r"\bloss\s+", "loss per link", "%"),
    (r"\bdelay\s+", "one-way delay",
     lambda after: "us" if after.startswith("us") else
     "s" if after.startswith("s") else "ms"),
    (r"\bjitter\s+", "jitter",
     lambda after: "us" if after.startswith("us") else
     "s" if after.startswith("s") else "ms"),
    (r"\brate\s+", "link rate", "bit/s"),
    (r"\bqueue\s+", "queue",
     lambda after: "packets" if after.startswith("p") else None),
    (r"\becn\s+", "ECN marking threshold",
     lambda after: "packets" if after.startswith("p") else None),
    (r"\bmtu\s+", "MTU", "bytes"),
    (r"\bdup\s+", "duplication per link", "%"),
    (r"\breorder\s+", "reordering per link", "%"),
    (r"(?:\s-l\s*|--length[ =])", "message size -l", "bytes"),
    (r"\s-P\s*", "parallel streams -P", None),
    (r"--cc[ =]", "congestion control", None),
    (r"--time[ =]", "run time", "s"),
    (r"(?:\s-w\s*|--window[ =])", "socket buffer -w", "bytes"),
    (r"--rate[ =]", "sending rate --rate", "bit/s"),
    (r"--sliding-window[ =]", "sliding window", "datagrams"),
    (r"\s-x\s*", "flow size -x", "bytes"),
    (r"\s-n\s*", "messages per flow -n", None),
    (r"\bping\b.*\s-s\s*", "ping payload", "bytes"),
    (r"\bping\b.*\s-c\s*", "pings", None),
)


class LabError(Exception):
    """An error in a lab file: str() is "FILE:LINE: message"."""

    def __init__(self, path, line, msg):
        super().__init__("%s:%s: %s" % (path, line, msg))
        self.path, self.line, self.msg = path, line, msg


class Action:
    """One thing a step does: ping SRC DST [opts] or gput SRC -> DST [opts]."""

    def __init__(self, kind, src, dst, opts, text):
        self.kind, self.src, self.dst, self.opts, self.text = \
            kind, src, dst, opts, text


class Step:
    def __init__(self, name, line, raw):
        self.name, self.line, self.raw = name, line, raw


class Output:
    def __init__(self, kind, name, line, spec):
        self.kind, self.name, self.line = kind, name, line
        self.x = spec.get("x")
        self.y = spec.get("y")
        self.series = spec.get("series")
        self.models = spec.get("model", [])
        self.steps = spec.get("steps", [])
        self.title = spec.get("title")
        self.xlog = spec.get("xlog", False)
        self.ylog = spec.get("ylog", False)


class Lab:
    """A parsed lab file. expand(point) gives its network and steps with
    the point's values put in."""

    def __init__(self, path):
        self.path = path
        self.title = None
        self.about = []
        self.notes = []
        self.net_lines = []         # (line, text) with ${...} unexpanded
        self.vars = {}              # NAME -> (line, value, quick value)
        self.sweeps = []            # (NAME, values, quick values, line)
        self.repeat = {"min": 1, "max": 1, "level": 95.0, "width": None,
                       "quick": 1, "line": 0}
        self.steps = []
        self.outputs = []
        self.labels = {}            # NAME -> (line, text, unit or None)

    def err(self, line, msg):
        return LabError(self.path, line, msg)

    # ---- words for a variable ----

    def label(self, name):
        """(text, unit or None) for a variable: its label line's, else
        derived from how the network or a step uses it, the first of
        DERIVED that applies (loss ${V}% -> loss per link, %), else its
        name."""
        if name == "step":
            return ("step", None)
        if name in self.labels:
            return self.labels[name][1:]
        texts = [t for _, t in self.net_lines] + [s.raw for s in self.steps]
        for pat, text, unit in DERIVED:
            for t in texts:
                m = re.search(r"(?:%s)\$\{%s\}(\S*)" % (pat, name),
                              " " + t)
                if m:
                    return (text, unit(m.group(1)) if callable(unit) else unit)
        return (name, None)

    def axis_label(self, name):
        """The axis label for a variable: "loss per link (%)"."""
        text, unit = self.label(name)
        return "%s (%s)" % (text, unit) if unit else text

    def value_label(self, name, value):
        """A variable's value in words: "loss per link 2%",
        "congestion control cubic"."""
        text, unit = self.label(name)
        if not unit:
            return "%s %s" % (text, value)
        return "%s %s%s%s" % (text, value, "" if unit == "%" else " ", unit)

    # ---- the plan ----

    def points(self, quick=False):
        """Every combination of the sweeps' values, in file order (the last
        sweep varies fastest): a list of dicts NAME -> value."""
        names = [s[0] for s in self.sweeps]
        lists = [s[2] if quick and s[2] else s[1] for s in self.sweeps]
        return [dict(zip(names, combo)) for combo in itertools.product(*lists)]

    def values(self, point, quick=False, overrides=None):
        v = {}
        for name, (_line, val, qval) in self.vars.items():
            v[name] = qval if quick and qval is not None else val
        v.update(point)
        v.update(overrides or {})
        return v

    def subst(self, text, values, line):
        def one(m):
            if m.group(1) not in values:
                raise self.err(line, "${%s} is not set (set or sweep it)"
                               % m.group(1))
            return str(values[m.group(1)])
        return VAR_RE.sub(one, text)

    def expand(self, point, quick=False, overrides=None):
        """The network and the steps' actions at one point."""
        values = self.values(point, quick, overrides)
        net = network.Network()
        for line, text in self.net_lines:
            try:
                net.add_line(self.subst(text, values, line))
            except ValueError as e:
                raise self.err(line, str(e))
        try:
            net.check()
        except ValueError as e:
            line = [ln for ln, t in self.net_lines if len(t.split()) == 2 and
                    t.split()[1] == getattr(e, "node", None)]
            raise self.err(line[0] if line else self.net_lines[0][0], str(e))
        steps = []
        for st in self.steps:
            acts = [self.action(a, net, st.line)
                    for a in self.subst(st.raw, values, st.line).split("&")]
            steps.append((st, acts))
        notes = [self.subst(t, values, ln) for ln, t in self.notes]
        return net, steps, notes, values

    def action(self, text, net, line):
        try:
            words = shlex.split(text)
        except ValueError as e:
            raise self.err(line, "%s: %s" % (text.strip(), e))
        if not words:
            raise self.err(line, "an empty action (two '&' in a row?)")
        kind = words[0]
        if kind == "ping":
            if len(words) < 3:
                raise self.err(line, "ping needs two nodes: ping SRC DST")
            src, dst, opts = words[1], words[2], words[3:]
            bad = [o for o in opts if not re.match(r"^(-[cis]|[0-9.]+)$", o)]
            if bad:
                raise self.err(line, "ping takes -c N, -i S and -s SIZE "
                               "only, not '%s'" % bad[0])
        elif kind == "gput":
            if len(words) < 4 or words[2] != "->":
                raise self.err(line, "gput needs a direction: gput SRC -> "
                               "DST [options]")
            src, dst, opts = words[1], words[3], words[4:]
            for o in opts:
                if o in ("-i", "-r", "--bidir", "--repeat", "--json",
                         "--json-lines", "--csv", "--prometheus", "-p",
                         "--start-at", "-m") or o.startswith("--repeat="):
                    raise self.err(line, "gput %s: the runner sets the "
                                   "partner, port, output, start and "
                                   "repeats itself" % o)
        else:
            raise self.err(line, "a step's action is ping or gput, not "
                           "'%s'" % kind)
        for n in (src, dst):
            if n not in net.nodes:
                raise self.err(line, "%s: no such node (the network has %s)"
                               % (n, " ".join(sorted(net.nodes))))
            if net.nodes[n] == "switch":
                raise self.err(line, "%s is a switch: it has no address to "
                               "run %s on" % (n, kind))
        if src == dst:
            raise self.err(line, "%s to itself" % kind)
        if net.path(src, dst) is None:
            raise self.err(line, "no path from %s to %s" % (src, dst))
        return Action(kind, src, dst, opts, text.strip())


def _range(text, line, lab):
    m = re.match(r"^(-?[0-9.]+)\.\.(-?[0-9.]+)$", text)
    return m


def _numbers(words, line, lab):
    """A sweep's values: words, with FROM..TO step S ranges expanded."""
    out, i = [], 0
    while i < len(words):
        w = words[i]
        m = re.match(r"^([0-9.]+)\.\.([0-9.]+)$", w)
        if m:
            if i + 2 >= len(words) or words[i + 1] != "step":
                raise lab.err(line, "a range needs its step: %s step S" % w)
            try:
                a, b, s = float(m.group(1)), float(m.group(2)), \
                    float(words[i + 2])
            except ValueError:
                raise lab.err(line, "bad range %s step %s" % (w, words[i + 2]))
            if s <= 0 or b < a:
                raise lab.err(line, "a range FROM..TO step S needs FROM <= TO "
                              "and S > 0")
            n = int(round((b - a) / s))
            if n > 1000:
                raise lab.err(line, "a range of more than 1000 values")
            for k in range(n + 1):
                v = a + k * s
                if v <= b + s * 1e-9:
                    out.append(("%.6f" % v).rstrip("0").rstrip("."))
            i += 3
        else:
            out.append(w)
            i += 1
    return out


def _split_quick(words):
    if "quick" in words:
        k = words.index("quick")
        return words[:k], words[k + 1:]
    return words, None


def _repeat(lab, words, line):
    main, quick = _split_quick(words)
    r = {"min": 1, "max": 1, "level": 95.0, "width": None, "quick": 1,
         "line": line}
    if not main:
        raise lab.err(line, "repeat N, or repeat MIN..MAX ci LEVEL width W")
    m = re.match(r"^([0-9]+)(?:\.\.([0-9]+))?$", main[0])
    if not m:
        raise lab.err(line, "repeat: '%s' is not N or MIN..MAX" % main[0])
    r["min"] = int(m.group(1))
    r["max"] = int(m.group(2) or m.group(1))
    if r["min"] < 1 or r["max"] < r["min"] or r["max"] > 1000:
        raise lab.err(line, "repeat: 1 <= MIN <= MAX <= 1000")
    rest = main[1:]
    while rest:
        if len(rest) < 2 or rest[0] not in ("ci", "width"):
            raise lab.err(line, "repeat: after the count, ci LEVEL and "
                          "width W (%% of the mean), not '%s'"
                          % " ".join(rest))
        try:
            v = float(rest[1].rstrip("%"))
        except ValueError:
            raise lab.err(line, "repeat: %s '%s' is not a number"
                          % (rest[0], rest[1]))
        if rest[0] == "ci":
            if not 50 <= v <= 99.9:
                raise lab.err(line, "repeat: ci LEVEL from 50 to 99.9")
            r["level"] = v
        else:
            if not 0 < v <= 1000:
                raise lab.err(line, "repeat: width W above 0 (% of the mean)")
            r["width"] = v
        rest = rest[2:]
    if r["max"] > r["min"] and r["width"] is None:
        raise lab.err(line, "repeat MIN..MAX stops when the CI is narrow "
                      "enough: give width W")
    if quick is not None:
        if len(quick) != 1 or not quick[0].isdigit() or int(quick[0]) < 1:
            raise lab.err(line, "repeat ... quick N: N runs with --quick")
        r["quick"] = int(quick[0])
    return r


def _output(lab, kind, rest, line):
    m = re.match(r"^([A-Za-z][A-Za-z0-9_-]*)\s*:\s*(.*)$", rest)
    if not m:
        raise lab.err(line, "%s NAME: x X, y Y[, series S][, model M...]"
                      "[, steps S...]" % kind)
    spec = {}
    body = m.group(2)
    t = re.search(r"(^|,)\s*title\s+(.*)$", body)
    if t:                       # the title is last and may hold commas
        spec["title"] = t.group(2).strip().strip('"')
        body = body[:t.start()]
    for part in body.split(","):
        words = part.split()
        if not words:
            continue
        key, vals = words[0], words[1:]
        if key not in ("x", "y", "series", "model", "steps"):
            raise lab.err(line, "%s: '%s' is not x, y, series, model, steps "
                          "or title" % (kind, key))
        if not vals:
            raise lab.err(line, "%s: %s needs a value" % (kind, key))
        if key in ("x", "y") and len(vals) == 2 and vals[1] == "log":
            spec[key + "log"] = True    # x VAR log: a logarithmic axis
            vals = vals[:1]
        if key in ("x", "y", "series"):
            if len(vals) != 1:
                raise lab.err(line, "%s: one %s%s" % (
                    kind, key, " (and log)" if key in ("x", "y") else ""))
            spec[key] = vals[0]
        else:
            spec[key] = vals
    for key in ("x", "y"):
        if key not in spec:
            raise lab.err(line, "%s %s: no %s" % (kind, m.group(1), key))
    if spec["y"] not in Y_KINDS:
        raise lab.err(line, "%s: y is one of %s, not '%s'"
                      % (kind, " ".join(Y_KINDS), spec["y"]))
    for mod in spec.get("model", []):
        if mod not in MODELS:
            raise lab.err(line, "%s: model is one of %s, not '%s'"
                          % (kind, " ".join(MODELS), mod))
    return Output(kind, m.group(1), line, spec)


def _logical_lines(text):
    """(line number, text) with comments cut and backslash continuations
    joined (numbered by their first line)."""
    out, buf, start = [], "", 0
    for n, raw in enumerate(text.split("\n"), 1):
        s = re.sub(r"(^|\s)#.*$", "", raw).rstrip()
        if buf == "":
            start = n
        if s.endswith("\\"):
            buf += s[:-1] + " "
            continue
        buf += s
        if buf.strip():
            out.append((start, re.sub(r"\s+", " ", buf.strip())))
        buf = ""
    if buf.strip():
        out.append((start, buf.strip()))
    return out


def parse(text, path="-"):
    """Parse a lab file's text. Returns a Lab; raises LabError."""
    lab = Lab(path)
    seen_steps, seen_out = {}, {}
    for line, s in _logical_lines(text):
        word, _, rest = s.partition(" ")
        rest = rest.strip()
        if word not in KEYWORDS:
            raise lab.err(line, "unknown keyword '%s' (one of %s)"
                          % (word, ", ".join(KEYWORDS)))
        if word == "title":
            lab.title = rest
        elif word == "about":
            lab.about.append((line, rest))
        elif word == "note":
            lab.notes.append((line, rest))
        elif word in ("host", "router", "switch", "link"):
            lab.net_lines.append((line, s))
        elif word in ("set", "sweep"):
            words = rest.split()
            if not words or not NAME_RE.match(words[0]):
                raise lab.err(line, "%s NAME VALUE...: a name of letters, "
                              "digits and _" % word)
            name = words[0]
            if name in lab.vars or name in [w[0] for w in lab.sweeps]:
                raise lab.err(line, "%s is set twice" % name)
            vals, quick = _split_quick(words[1:])
            if word == "set":
                if len(vals) != 1 or (quick is not None and len(quick) != 1):
                    raise lab.err(line, "set NAME VALUE [quick VALUE]: one "
                                  "value (sweep gives several)")
                lab.vars[name] = (line, vals[0], quick[0] if quick else None)
            else:
                vals = _numbers(vals, line, lab)
                quick = _numbers(quick, line, lab) if quick else None
                if not vals:
                    raise lab.err(line, "sweep %s: no values" % name)
                if quick is not None and not quick:
                    raise lab.err(line, "sweep %s: no quick values" % name)
                lab.sweeps.append((name, vals, quick, line))
        elif word == "label":
            words = rest.split()
            if len(words) < 2 or not NAME_RE.match(words[0]):
                raise lab.err(line, "label NAME TEXT [unit UNIT]: the words "
                              "for a variable on axes and in legends")
            if words[0] in lab.labels:
                raise lab.err(line, "label %s given twice (line %d)"
                              % (words[0], lab.labels[words[0]][0]))
            text, unit = words[1:], None
            if "unit" in text:
                k = text.index("unit")
                if k == 0 or len(text) != k + 2:
                    raise lab.err(line, "label %s: TEXT, then unit and one "
                                  "word" % words[0])
                text, unit = text[:k], text[k + 1]
            lab.labels[words[0]] = (line, " ".join(text), unit)
        elif word == "repeat":
            if lab.repeat["line"]:
                raise lab.err(line, "repeat given twice (line %d)"
                              % lab.repeat["line"])
            lab.repeat = _repeat(lab, rest.split(), line)
        elif word == "step":
            m = re.match(r"^([^\s:]+)\s*:\s*(.*)$", rest)
            if not m or not STEP_RE.match(m.group(1)):
                raise lab.err(line, "step NAME: ACTION [& ACTION...]")
            if m.group(1) in seen_steps:
                raise lab.err(line, "step %s is defined twice (line %d)"
                              % (m.group(1), seen_steps[m.group(1)]))
            seen_steps[m.group(1)] = line
            lab.steps.append(Step(m.group(1), line, m.group(2)))
        else:
            o = _output(lab, word, rest, line)
            if o.name in seen_out:
                raise lab.err(line, "%s %s is defined twice" % (word, o.name))
            seen_out[o.name] = line
            lab.outputs.append(o)
    _check(lab)
    return lab


def _check(lab):
    if not lab.net_lines:
        raise lab.err(1, "no network: host, router, switch and link lines")
    if not lab.steps:
        raise lab.err(1, "no steps: step NAME: ping A B | gput A -> B ...")
    known = set(lab.vars) | {s[0] for s in lab.sweeps}
    for line, text in lab.net_lines + [(s.line, s.raw) for s in lab.steps] \
            + lab.notes + lab.about:
        for v in VAR_RE.findall(text):
            if v not in known:
                raise lab.err(line, "${%s} is not set (set or sweep it)" % v)
    sweeps = {s[0] for s in lab.sweeps}
    for name, (line, _t, _u) in lab.labels.items():
        if name not in known:
            raise lab.err(line, "label %s: no such variable (set or sweep "
                          "it)" % name)
    steps = {s.name for s in lab.steps}
    for o in lab.outputs:
        if o.x != "step" and o.x not in sweeps:
            raise lab.err(o.line, "%s %s: x is a swept variable (%s) or step"
                          % (o.kind, o.name, " ".join(sorted(sweeps)) or
                             "none swept"))
        if o.series not in (None, "flow", "step") and o.series not in sweeps:
            raise lab.err(o.line, "%s %s: series is a swept variable, flow or "
                          "step, not '%s'" % (o.kind, o.name, o.series))
        for s in o.steps:
            if s not in steps:
                raise lab.err(o.line, "%s %s: no step '%s'"
                              % (o.kind, o.name, s))
    # every point must expand: bad values and unknown nodes show now
    for p in lab.points() + lab.points(quick=True):
        lab.expand(p)
        lab.expand(p, quick=True)
