# SPDX-License-Identifier: BSD-2-Clause
"""A lab file's outputs: per plot or table a commented .dat (a block per
series), and for a plot a gnuplot script that reads it, drawn as PNG and
SVG. Results reach gnuplot only as data in the .dat, never as code; the
script's words (titles, series names) come from the lab file, cut to a
safe alphabet."""

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


def safe(s, n=60):
    return re.sub(r"[^A-Za-z0-9 _.,:+=#>()*/%-]", "_", str(s))[:n]


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


def collect(res, o):
    """The output's rows: dicts of x, xlabel, series, stat, models, met."""
    rows = []
    steps = o.steps
    names = {sr["step"] for p in res["points"] for sr in p["steps"]
             if not steps or sr["step"] in steps}
    for p in res["points"]:
        for si, sr in enumerate(p["steps"]):
            if steps and sr["step"] not in steps:
                continue
            for label, s, mods, met in _rows_of_step(o, sr, p):
                if o.x == "step":
                    x, xl = None, sr["step"]
                else:
                    x, xl = p["point"][o.x], p["point"][o.x]
                if o.series == "flow":
                    # a flow is named with its step when several show
                    ser = (sr["step"] + " " + label if label and
                           len(names) > 1 else label or sr["step"])
                elif o.series == "step":
                    ser = sr["step"]
                elif o.series:
                    ser = "%s=%s" % (o.series, p["point"][o.series])
                else:
                    ser = label if label and o.y in ("conn", "share", "fct",
                                                     "rtt", "srtt") else "all"
                rows.append({"x": x, "xlabel": xl, "series": ser, "stat": s,
                             "models": mods, "met": met, "judged":
                             sr["target"].get("wanted_pct") is not None})
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
                             if o.x == "step" else o.x),
            "xlabel   the x value as the lab names it",
            "n        runs in the statistics",
            "mean     %s, mean over the runs" % Y_LABEL[o.y],
            "stdev    its sample standard deviation",
            "ci_low   the %g%% Student-t confidence interval's low end"
            % lab.repeat["level"],
            "ci_high  its high end",
            "met      1: the step met its CI target (or had none), 0: missed"]
    cols += ["%-8s %s (NaN where it does not apply)" % (m, MODEL_TITLE[m])
             for m in models]
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


def gnuplot_script(o, lab, dat, series, models, rows, term, outfile):
    title = o.title or "%s: %s" % (lab.title or os.path.basename(lab.path),
                                   o.name)
    g = []
    if term == "png":
        g.append("set terminal pngcairo size 1100,750 font 'sans,10'")
    else:
        g.append("set terminal svg size 1100,750 font 'sans,10' dynamic")
    g += ["set output '%s'" % outfile,
          "set title '%s' noenhanced" % safe(title, 150),
          # the legend in rows above the plot: beside it, it took more
          # than a quarter of the figure's width from the data
          "set key outside top center horizontal box noenhanced",
          "set grid",
          "set xlabel '%s' noenhanced" % safe("step" if o.x == "step" else o.x),
          "set ylabel '%s' noenhanced" % safe(Y_LABEL[o.y]),
          "set yrange [0:*]"]
    if o.xlog and not o.categorical:
        g.append("set logscale x 2")
        g.append("set offsets graph 0.05, graph 0.05, graph 0.05, 0")
    else:
        g.append("set offsets 0, 0, graph 0.05, 0")
    if o.categorical:
        tics = ", ".join("'%s' %d" % (safe(l), i + 1)
                         for i, l in enumerate(o.categorical))
        g.append("set xtics (%s) rotate by -25 noenhanced" % tics)
        g.append("set xrange [0.5:%g]" % (len(o.categorical) + 0.5))
    plots = []
    titled = set()
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
    for i, s in enumerate(series):
        c = COLORS[i % len(COLORS)]
        # points against steps are not joined: a line would mean an order
        plots.append("'%s' index %d using 1:4:6:7 with %s pt %d ps 1.2 "
                     "lw 1.5 lc rgb '%s' title '%s'" % (
                         dat, i, "yerrorbars" if o.categorical else
                         "yerrorlines", 5 + 2 * (i % 4), c, safe(s)))
        for k, m in enumerate(models):
            vals = [r["models"].get(m) for r in rows if r["series"] == s]
            if not any(v is not None for v in vals):
                continue
            who = "all" if len(has[m]) == len(series) else \
                ", ".join(safe(x) for x in has[m])
            if o.categorical:
                # one mark per point, one legend entry
                plots.append("'%s' index %d using 1:%d with points pt %d "
                             "ps 2 lw 2 lc rgb 'black' %s" % (
                                 dat, i, 9 + k, 1 + k, "title '%s (%s)'" % (
                                     safe(MODEL_TITLE[m]), who)
                                 if m not in titled else "notitle"))
                titled.add(m)
            elif shared[m]:
                # the same line for every series that has it: drawn once
                if m not in titled:
                    plots.append("'%s' index %d using 1:%d with linespoints "
                                 "dt %d pt %d ps 1.5 lw 2 lc rgb 'black' "
                                 "title '%s (%s)'" % (
                                     dat, i, 9 + k, 2 + k, 2 + 4 * k,
                                     safe(MODEL_TITLE[m]), who))
                titled.add(m)
            else:
                # a model that differs per series: labelled with the series
                plots.append("'%s' index %d using 1:%d with linespoints dt %d "
                             "pt 1 lw 2 lc rgb '%s' title '%s, %s'" % (
                                 dat, i, 9 + k, 2 + k, c,
                                 safe(MODEL_TITLE[m]), safe(s)))
    if any(not r["met"] for r in rows):
        for i, s in enumerate(series):
            plots.append("'%s' index %d using 1:($8 == 0 ? $4 : NaN) with "
                         "points pt 6 ps 3 lw 2 lc rgb 'black' %s" % (
                             dat, i, "title 'CI target missed'" if i == 0
                             else "notitle"))
    g.append("plot " + ", \\\n     ".join(plots))
    return "\n".join(g) + "\n"


def output(out, lab, res, o, log):
    rows = collect(res, o)
    models = list(o.models)
    dat = os.path.join(out, "%s.dat" % o.name)
    series = write_dat(dat, lab, o, rows, models)
    md = md_rows(o, rows, models)
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


def md_rows(o, rows, models):
    head = ["x", "series", "n", "mean", "stdev", "CI", "CI target"] + \
        [MODEL_TITLE[m] for m in models]
    lines = ["| " + " | ".join(head) + " |",
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
