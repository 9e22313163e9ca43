# SPDX-License-Identifier: BSD-2-Clause
"""A lab file's outputs: per plot or table a commented .dat (a block per
series), and for a plot a gnuplot script that reads it, drawn as PNG and
SVG. Results reach gnuplot only as data in the .dat, never as code; the
script's words (titles, series names) come from the lab file, cut to a
safe alphabet."""

import math
import os
import re
import subprocess

MODEL_TITLE = {
    "etac": "eta*C of the bottleneck",
    "fair": "fair share of eta*C",
    "mathis": "Mathis bound",
    "window": "window/RTT",
    "rtt": "RTT: 2 x the one-way delays",
}
# where y is not a goodput, a model means something else
MODEL_TITLE_Y = {
    ("jain", "fair"): "equal shares: index 1",
    ("share", "etac"): "all of eta*C: share 1",
    ("share", "fair"): "fair share",
}
Y_LABEL = {
    "goodput": "goodput, sum of the step's connections (MBit/s)",
    "conn": "goodput per connection (MBit/s)",
    "share": "share of the bottleneck's eta*C",
    "fct": "flow completion time (s)",
    "jain": "Jain's fairness index",
    "rtt": "ping RTT (ms)",
    "srtt": "TCP sender's smoothed RTT (ms)",
    "loss": "UDP loss (%)",
    "jitter": "UDP jitter (ms)",
}
# the widest a step's name may be on an unrotated x axis: the figure's
# 1100 pixels hold about 140 characters of the 10 point font
X_CHARS = 140


def safe(s, n=60):
    return re.sub(r"[^A-Za-z0-9 _.,:+=#>()*/%-]", "_", str(s))[:n]


def gpq(s, n=150):
    """s as a gnuplot string in single quotes: the safe alphabet and the
    apostrophe, doubled as gnuplot reads it ("Jain's" -> 'Jain''s')."""
    t = re.sub(r"[^A-Za-z0-9 _.,:+=#>()*/%'-]", "_", str(s))[:n]
    return "'%s'" % t.replace("'", "''")


def model_title(m, y):
    return MODEL_TITLE_Y.get((y, m), MODEL_TITLE[m])


def _num(v):
    return v if v is not None else "NaN"


def _rows_of_step(o, sr, p):
    """(series key, summary, models {name: value}) for output o in one
    step of one point."""
    st = sr.get("stats") or {}
    acts = sr["actions"]
    out = []
    met = sr["target"].get("met", True)
    if o.y == "goodput" and st.get("goodput"):
        g = [a for a in acts if a["kind"] == "gput"]
        bns = {a["model"].get("bottleneck"): a["model"]["etac"][0] for a in g}
        mods = {"etac": sum(v for v in bns.values() if v) or None,
                "mathis": g[0]["model"].get("mathis", (None,))[0],
                "window": g[0]["model"].get("window", (None,))[0]}
        out.append((None, st["goodput"], mods, met))
    elif o.y == "jain" and st.get("jain"):
        out.append((None, st["jain"], {"fair": 1.0}, met))
    elif o.y in ("conn", "share", "fct"):
        for c in st.get("conns", []):
            m = acts[c["action"]]["model"]
            fair = m.get("fair", (None,))[0]
            etac = m.get("etac", (None,))[0]
            if o.y == "conn":
                mods = {"etac": etac, "fair": fair,
                        "mathis": m.get("mathis", (None,))[0],
                        "window": m.get("window", (None,))[0]}
                s = c["goodput"]
            elif o.y == "share":
                mods = {"etac": 1.0, "fair": fair / etac if fair and etac
                        else None}
                s = c["share"]
            else:
                mods = {}
                s = c["fct"]
            out.append((c["label"], s, mods, met))
    elif o.y in ("rtt", "srtt", "loss", "jitter"):
        for i, a in enumerate(acts):
            s = st["actions"][i] if i < len(st.get("actions", [])) else {}
            lab = "%s>%s" % (a["src"], a["dst"])
            key = {"rtt": "rtt", "srtt": "srtt", "loss": "loss",
                   "jitter": "jitter"}[o.y]
            if s.get(key) and s[key]["n"]:
                mods = {"rtt": a["model"]["rtt"][0]} if o.y in ("rtt", "srtt") \
                    else {}
                out.append((lab, s[key], mods, met))
    return out


def collect(res, o, lab):
    """The output's rows: dicts of x, xlabel, series, stat, models, met.
    A series of a swept variable is named in the lab's words ("congestion
    control cubic"); one of flows by the flow ("a1>b1 cubic"), the same
    flow in every step, unless a step has two of that name or the steps
    lie along a swept x (then with the step's name)."""
    rows = []
    steps = o.steps
    names = {sr["step"] for p in res["points"] for sr in p["steps"]
             if not steps or sr["step"] in steps}
    for p in res["points"]:
        for si, sr in enumerate(p["steps"]):
            if steps and sr["step"] not in steps:
                continue
            mine = _rows_of_step(o, sr, p)
            labels = [r[0] for r in mine]
            alone = len(set(labels)) == len(labels) and (
                o.x == "step" or len(names) == 1)
            for label, s, mods, met in mine:
                if o.x == "step":
                    x, xl = None, sr["step"]
                else:
                    x, xl = p["point"][o.x], p["point"][o.x]
                if o.series == "flow":
                    ser = (label if alone else sr["step"] + " " + label) \
                        if label else sr["step"]
                elif o.series == "step":
                    ser = sr["step"]
                elif o.series:
                    ser = lab.value_label(o.series, p["point"][o.series])
                else:
                    ser = label if label and o.y in ("conn", "share", "fct",
                                                     "rtt", "srtt") \
                        else "measured"
                rows.append({"x": x, "xlabel": xl, "series": ser, "stat": s,
                             "models": mods, "met": met, "judged":
                             sr["target"].get("wanted_pct") is not None,
                             "target_of": "rtt" if "RTT" in
                             sr["target"].get("metric", "") else "goodput"})
    # x positions: numbers as they are, else one slot per label in order
    try:
        for r in rows:
            r["x"] = float(r["xlabel"]) if o.x != "step" else None
        if o.x == "step":
            raise ValueError
    except (TypeError, ValueError):
        order = []
        for r in rows:
            if r["xlabel"] not in order:
                order.append(r["xlabel"])
        # several series at one place stand side by side
        at = {}
        for r in rows:
            at.setdefault(r["xlabel"], [])
            if r["series"] not in at[r["xlabel"]]:
                at[r["xlabel"]].append(r["series"])
        for r in rows:
            here = at[r["xlabel"]]
            r["x"] = order.index(r["xlabel"]) + 1 + 0.12 * (
                here.index(r["series"]) - (len(here) - 1) / 2)
        o.categorical = order
    else:
        o.categorical = None
    return rows


def write_dat(path, lab, o, rows, models):
    series = []
    for r in rows:
        if r["series"] not in series:
            series.append(r["series"])
    cols = ["x        %s" % ("position of the step (xlabel names it)"
                             if o.x == "step" else "%s: %s" % (
                                 o.x, lab.axis_label(o.x))),
            "xlabel   the x value as the lab names it",
            "n        runs in the statistics",
            "mean     %s, mean over the runs" % Y_LABEL[o.y],
            "stdev    its sample standard deviation",
            "ci_low   the %g%% Student-t confidence interval's low end"
            % lab.repeat["level"],
            "ci_high  its high end",
            "met      1: the step met its CI target (or had none), 0: missed"]
    cols += ["%-8s %s (NaN where it does not apply)" % (
        m, model_title(m, o.y)) for m in models]
    with open(path, "w") as f:
        f.write("# gput-lab %s: %s %s of %s\n" % (
            os.path.basename(lab.path), o.kind, o.name, Y_LABEL[o.y]))
        f.write("# one block per series (gnuplot: index N), two blank lines "
                "apart; series in order:\n")
        for i, s in enumerate(series):
            f.write("#   index %d: %s\n" % (i, s))
        f.write("# columns:\n")
        for i, c in enumerate(cols, 1):
            f.write("# %2d %s\n" % (i, c))
        for i, s in enumerate(series):
            if i:
                f.write("\n\n")
            for r in rows:
                if r["series"] != s:
                    continue
                st = r["stat"]
                vals = [r["x"], safe(r["xlabel"]).replace(" ", "_"),
                        st["n"], _num(st["mean"]), _num(st["stdev"]),
                        _num(st["ci_low"] if st["ci_low"] is not None
                             else st["mean"]),
                        _num(st["ci_high"] if st["ci_high"] is not None
                             else st["mean"]), 1 if r["met"] else 0]
                vals += [_num(r["models"].get(m)) for m in models]
                f.write("\t".join(str(v) for v in vals) + "\n")
    return series


COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2",
          "#7f7f7f", "#bcbd22", "#17becf", "#ff7f0e"]


def key_title(rows, level):
    """What a point and its bar are, for the legend's head."""
    ns = sorted({r["stat"]["n"] for r in rows})
    if ns[-1] <= 1:
        return "one run per point: no CI"
    runs = "%d" % ns[0] if len(ns) == 1 else "%d to %d" % (ns[0], ns[-1])
    return "points: mean of %s runs, bars: its %g%% CI (Student t)" % (
        runs, level)


def log_tics(rows, models):
    """A log y axis's tics at 1, 2 and 5 of each decade the data span: an
    axis that ends at the data may hold no power of ten to read."""
    vals = [v for r in rows for v in
            [r["stat"]["mean"], r["stat"]["ci_low"], r["stat"]["ci_high"]] +
            [r["models"].get(m) for m in models] if v is not None and v > 0]
    if not vals:
        return "set ytics"
    lo = math.floor(math.log10(min(vals)))
    hi = math.ceil(math.log10(max(vals)))
    tics = [m * 10.0 ** e for e in range(lo, hi + 1) for m in (1, 2, 5)]
    return "set ytics (%s)" % ", ".join("'%g' %r" % (t, t) for t in tics)


def x_axis(o, lab, rows):
    """The x axis's lines: its label, range and tics, and the offsets (a
    margin above the data on a linear y axis)."""
    # (a log y axis ends at the data, with a margin each side: at whole
    # decades a point could sit on the frame)
    top, bottom = ("graph 0.05", "graph 0.05") if o.ylog else \
        ("graph 0.05", "0")
    g = ["set xlabel %s noenhanced" % gpq(lab.axis_label(o.x))]
    if o.categorical:
        tics = ", ".join("%s %d" % (gpq(l, 60), i + 1)
                         for i, l in enumerate(o.categorical))
        # turned only when the names would not fit side by side
        wide = max(len(l) for l in o.categorical) + 2 > \
            X_CHARS / len(o.categorical)
        # (upright, ending at their tic: turned less, the first or the
        # last ran off the figure)
        g.append("set xtics (%s)%s noenhanced" % (
            tics, " rotate by 90 right" if wide else ""))
        if wide:                # gnuplot set the x label over their ends
            g[0] += " offset 0,-1.5"
        g.append("set xrange [0.5:%g]" % (len(o.categorical) + 0.5))
        g.append("set offsets 0, 0, %s, %s" % (top, bottom))
        return g
    xs = sorted({r["x"] for r in rows})
    if o.xlog:
        g.append("set logscale x 2")
    if len(xs) == 1:
        v = xs[0]
        lo, hi = (v / 2, v * 2) if o.xlog else (v - 1, v + 1) if v == 0 \
            else (v - abs(v) / 2, v + abs(v) / 2)
        g.append("set xrange [%g:%g]" % (lo, hi))
        g.append("set xtics ('%g' %r)" % (v, v))
        g.append("set offsets 0, 0, %s, %s" % (top, bottom))
        return g
    # the axis ends at the data (not at the next tic) with a margin
    g.append("set autoscale xfix")
    g.append("set offsets graph 0.04, graph 0.04, %s, %s" % (top, bottom))
    if o.xlog and len(xs) <= 16:
        # a tic at each swept value: 1448 is on the axis, not 1024 and 2048
        g.append("set xtics (%s)" % ", ".join("'%g' %r" % (x, x)
                                                for x in xs))
    return g


def legend(plots, rows, level, g):
    """The legend in rows under the plot, in as many columns as its widest
    entry lets fit (above the plot, it stood over the title; beside it, it
    took a quarter of the figure's width from the data). gnuplot keeps too
    little room for a legend there and lets it run into the x label: the
    bottom margin is set here, from the rows the legend will have."""
    titles = [re.search(r" title '(.*)'$", p).group(1) for p in plots
              if re.search(r" title '(.*)'$", p)]
    widest = max(len(t) for t in titles) if titles else 10
    cols = max(1, min(len(titles), X_CHARS // (widest + 12)))
    rows_n = -(-len(titles) // cols)
    tics = 1.0
    for line in g:              # upright tic labels stand taller
        m = re.match(r"set xtics \((.*)\) rotate by 90", line)
        if m:
            tics = 1 + 0.45 * max(len(t) for t in
                                  re.findall(r"'([^']*)'", m.group(1)))
    return ["set key bmargin center horizontal box noenhanced width 2 "
            "maxcols %d maxrows %d title %s" % (cols, rows_n,
                                                gpq(key_title(rows, level))),
            "set bmargin %.1f" % (tics + 2.5 + 1.2 * (rows_n + 1) + 1)]


# The quantities a step's CI target judges (runner.py: its goodput, or a
# ping step's RTT), and the y of outputs that show it.
TARGET_SHOWN = {"goodput": ("goodput", "conn", "share"), "rtt": ("rtt",)}


def missed_title(o, rows):
    """The legend's words for the marks of steps that missed their CI
    target: on a figure of another quantity, which one missed it."""
    kinds = sorted({r.get("target_of", "goodput") for r in rows
                    if not r["met"]})
    if all(o.y in TARGET_SHOWN[k] for k in kinds):
        return "CI target missed"
    return "its %s missed its CI target" % " or ".join(
        "goodput" if k == "goodput" else "ping RTT" for k in kinds)


def gnuplot_script(o, lab, dat, series, models, rows, term, outfile):
    title = o.title or "%s: %s" % (lab.title or os.path.basename(lab.path),
                                   o.name)
    g = []
    if term == "png":
        g.append("set terminal pngcairo size 1100,750 font 'sans,10'")
    else:
        g.append("set terminal svg size 1100,750 font 'sans,10' dynamic")
    g += ["set output '%s'" % outfile,
          "set title %s noenhanced" % gpq(title),
          "set grid",
          "set ylabel %s noenhanced" % gpq(Y_LABEL[o.y])]
    # y from 0; on a log axis (y Y log) over the decades the data span
    g += ["set logscale y 10", "set yrange [*:*]", "set autoscale yfix",
          log_tics(rows, models)] if o.ylog \
        else ["set yrange [0:*]"]
    g += x_axis(o, lab, rows)
    # a CI that reaches below 0 (few runs, a wide t) is cut at the axis
    # (on a log axis at its mean), and a mark says so: the .dat has its
    # real low end
    cut = any(r["stat"]["ci_low"] is not None and r["stat"]["ci_low"] <= 0
              and r["stat"]["n"] > 1 for r in rows)
    low = ("($6 <= 0 ? $4 : $6)" if o.ylog else "($6 < 0 ? 0 : $6)") \
        if cut else "6"
    bars = any(r["stat"]["n"] > 1 for r in rows)
    plots, under, keys, mplots = [], [], [], []
    titled = set()

    def model(spec, style, title):
        # drawn under the measurements (a mark must not hide a point),
        # named in the legend after them
        under.append("%s with %s notitle" % (spec, style))
        if title:
            keys.append("keyentry with %s title %s" % (style, gpq(title)))
    shared, has = {}, {}
    for m in models:            # the same model values for every series?
        per = {}
        for r in rows:
            if r["models"].get(m) is not None:
                per.setdefault(r["series"], set()).add((r["xlabel"],
                                                       r["models"][m]))
        vals = list(per.values())
        shared[m] = len(per) >= 1 and all(v == vals[0] for v in vals)
        has[m] = [x for x in series if x in per]
    col = {m: 9 + k for k, m in enumerate(models)}
    # a series of a swept variable by its value alone where a model names
    # those it applies to: "Mathis bound (reno, cubic)"
    pre = lab.label(o.series)[0] + " " if o.series not in (
        None, "flow", "step") else ""

    def short(x):
        return x[len(pre):] if pre and x.startswith(pre) else x
    for i, s in enumerate(series):
        c = COLORS[i % len(COLORS)]
        # points against steps are not joined: a line would mean an order
        if bars:
            how = "1:4:%s:7 with %s" % (low, "yerrorbars" if o.categorical
                                        else "yerrorlines")
        else:                   # one run a point: no bar to draw
            how = "1:4 with %s" % ("points" if o.categorical else
                                   "linespoints")
        plots.append("'%s' index %d using %s pt %d ps 1.2 lw 1.5 lc rgb "
                     "'%s' title %s" % (dat, i, how, 5 + 2 * (i % 4), c,
                                        gpq(s, 60)))
        for k, m in enumerate(models):
            vals = [r["models"].get(m) for r in rows if r["series"] == s]
            if not any(v is not None for v in vals):
                continue
            mt = model_title(m, o.y)
            who = "" if len(has[m]) == len(series) else \
                " (%s)" % ", ".join(short(x) for x in has[m])
            use = "'%s' index %d using 1:%d" % (dat, i, col[m])
            if o.categorical and m == "fair" and "etac" in col:
                # one connection's fair share is eta*C: one mark, not two
                use = "'%s' index %d using 1:($%d == $%d ? NaN : $%d)" % (
                    dat, i, col[m], col["etac"], col[m])
            if o.categorical:
                # one mark per point, one legend entry
                model(use, "points pt %d ps 1.8 lw 1.5 lc rgb 'black'"
                      % (1 + k), mt + who if m not in titled else None)
                titled.add(m)
            elif shared[m]:
                # the same line for every series that has it: drawn once
                if m not in titled:
                    model(use, "linespoints dt %d pt %d ps 1.5 lw 2 lc rgb "
                          "'black'" % (2 + k, 2 + 4 * k), mt + who)
                titled.add(m)
            else:
                # a model that differs per series: labelled with the series
                model(use, "linespoints dt %d pt 1 lw 2 lc rgb '%s'"
                      % (2 + k, c), "%s, %s" % (mt, s))
    if cut:
        for i, s in enumerate(series):
            mplots.append("'%s' index %d using 1:($6 <= 0 && $3 > 1 ? %s "
                          ": NaN) with points pt 11 ps 2 lc rgb '%s' "
                          "notitle" % (dat, i, "$4" if o.ylog else "0",
                                       COLORS[i % len(COLORS)]))
        mplots.append("keyentry with points pt 11 ps 2 lc rgb 'black' "
                      "title 'CI reaches below 0: its bar cut at %s'"
                      % ("the mean" if o.ylog else "0"))
    if any(not r["met"] for r in rows):
        title = missed_title(o, rows)
        for i, s in enumerate(series):
            mplots.append("'%s' index %d using 1:($8 == 0 ? $4 : NaN) with "
                          "points pt 6 ps 3 lw 2 lc rgb 'black' %s" % (
                              dat, i, "title '%s'" % title if i == 0
                              else "notitle"))
    # the measurements first in the legend, then what physics expects
    plots = under + plots + keys + mplots
    g += legend(plots, rows, lab.repeat["level"], g)
    g.append("plot " + ", \\\n     ".join(plots))
    return "\n".join(g) + "\n"


def output(out, lab, res, o, log):
    rows = collect(res, o, lab)
    models = list(o.models)
    dat = os.path.join(out, "%s.dat" % o.name)
    series = write_dat(dat, lab, o, rows, models)
    md = md_rows(o, rows, models, lab)
    pngs = []
    if o.kind == "plot" and rows:
        for term in ("png", "svg"):
            f = os.path.join(out, "%s.%s" % (o.name, term))
            gp = gnuplot_script(o, lab, os.path.basename(dat), series, models,
                                rows, term, os.path.basename(f))
            with open(os.path.join(out, "%s-%s.gp" % (o.name, term)), "w") as g:
                g.write(gp)
            p = subprocess.run(["gnuplot"], input=gp, cwd=out,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True)
            if p.returncode != 0:
                raise RuntimeError("gnuplot (%s.%s): %s" % (
                    o.name, term, p.stderr.strip()[-300:]))
            pngs.append(f)
    return o.name, o.kind, dat, [p for p in pngs if p.endswith(".png")] + \
        [p for p in pngs if p.endswith(".svg")][:0], md


def md_rows(o, rows, models, lab):
    head = [lab.axis_label(o.x), "series", "n", "mean", "stdev",
            "%g%% CI" % lab.repeat["level"], "CI target"] + \
        [model_title(m, o.y) for m in models]
    lines = ["Each row: %s, over the runs." % Y_LABEL[o.y],
             "", "| " + " | ".join(head) + " |",
             "|" + "|".join("---" for _ in head) + "|"]
    for r in rows:
        s = r["stat"]

        def f(v):
            return "-" if v is None else "%.4g" % v
        ci = "-" if s["ci_low"] is None else "%s..%s" % (f(s["ci_low"]),
                                                         f(s["ci_high"]))
        lines.append("| " + " | ".join(
            [str(r["xlabel"]), str(r["series"]), str(s["n"]), f(s["mean"]),
             f(s["stdev"]), ci, "none" if not r.get("judged") else
             "met" if r["met"] else "**missed**"] +
            [f(r["models"].get(m)) for m in models]) + " |")
    return lines
