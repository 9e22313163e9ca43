#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""unit_lab.py: gput-lab's lab file parser, its network's physics and its
statistics (python3 -m unittest style). Each case prints PASS: or FAIL:
as tests/run-tests.sh counts them. Needs ./gput only for the cases that
ask gput --predict (make check builds it first)."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

from gputlab import figures, labfile, network, physics, report, stats  # noqa: E402
from gputlab.runner import conns_of, parse_ping  # noqa: E402

LABS = os.path.join(ROOT, "tools", "labs")
GPUT = os.path.join(ROOT, "gput")
TINY = """# a comment
host a   # a trailing comment
host b
link a b rate 10M delay 10ms
step s: gput a -> b --time 1
"""


def parse(text, path="t.lab"):
    return labfile.parse(text, path)


class Parser(unittest.TestCase):
    def refused(self, text, line, msg):
        with self.assertRaises(labfile.LabError) as cm:
            parse(text)
        self.assertEqual(str(cm.exception), "t.lab:%d: %s" % (line, msg))

    def test_every_shipped_lab_parses(self):
        names = sorted(f for f in os.listdir(LABS) if f.endswith(".lab"))
        self.assertIn("lab000.lab", names)
        self.assertEqual(len([n for n in names if n.startswith("lab")]), 5)
        for n in names:
            with open(os.path.join(LABS, n)) as f:
                lab = parse(f.read(), n)
            self.assertTrue(lab.title, n)
            self.assertTrue(lab.steps, n)

    def test_lab000_network(self):
        with open(os.path.join(LABS, "lab000.lab")) as f:
            lab = parse(f.read())
        net, steps, _, _ = lab.expand(lab.points()[0])
        kinds = list(net.nodes.values())
        self.assertEqual((kinds.count("host"), kinds.count("router"),
                          len(net.links)), (9, 4, 12))
        self.assertEqual([(net.rtt_ms(a, b)) for a, b in
                          (("r1", "r2"), ("r2", "r3"), ("r3", "r4"),
                           ("h1", "h4"), ("h1", "h9"), ("h7", "h9"))],
                         [20, 40, 20, 60, 80, 60])
        self.assertEqual(net.describe_path("h3", "h8"), "h3 - r1 - r2 - r3 - h8")
        l, d, r = net.bottleneck("h1", "h9")
        self.assertEqual((l.name(d), r), ("r3>r4", 20e6))
        self.assertEqual(net.bottleneck("h9", "h2")[0].name(
            net.bottleneck("h9", "h2")[1]), "r4>r3")
        self.assertEqual(len(steps), 18)

    def test_tiny_and_comments(self):
        lab = parse(TINY)
        net, steps, _, _ = lab.expand({})
        self.assertEqual(net.lines, ["host a", "host b",
                                     "link a b rate 10M delay 10ms"])
        st, acts = steps[0]
        self.assertEqual((st.name, st.line, acts[0].src, acts[0].dst,
                          acts[0].opts), ("s", 5, "a", "b", ["--time", "1"]))

    def test_per_direction_and_continuation(self):
        lab = parse("host a\nhost b\nlink a b rate 21M/54M \\\n"
                    "  delay 5/15 loss 1%/0 mtu 1492\nstep s: ping a b\n")
        net = lab.expand({})[0]
        l = net.links[0]
        self.assertEqual((l.get(0, "rate"), l.get(1, "rate"), l.mtu),
                         (21e6, 54e6, 1492))
        self.assertEqual(net.rtt_ms("a", "b"), 20)
        self.assertAlmostEqual(net.loss("a", "b"), 0.01)
        self.assertEqual(net.loss("b", "a"), 0)
        self.assertEqual(net.lines[2],
                         "link a b rate 21M/54M delay 5/15 loss 1%/0 mtu 1492")

    def test_sweeps_ranges_quick_and_points(self):
        lab = parse(TINY.replace("delay 10ms", "delay ${D}ms") +
                    "sweep D 0..20 step 5 quick 10\nsweep CC reno cubic\n"
                    "set T 25 quick 1\n")
        self.assertEqual(lab.sweeps[0][1], ["0", "5", "10", "15", "20"])
        self.assertEqual(len(lab.points()), 10)
        self.assertEqual(lab.points(quick=True),
                         [{"D": "10", "CC": "reno"}, {"D": "10", "CC": "cubic"}])
        self.assertEqual(lab.values({}, quick=True)["T"], "1")
        self.assertEqual(lab.values({}, overrides={"T": "7"})["T"], "7")

    def test_repeat(self):
        lab = parse(TINY + "repeat 5..20 ci 90 width 5 quick 2\n")
        self.assertEqual({k: lab.repeat[k] for k in ("min", "max", "level",
                                                     "width", "quick")},
                         {"min": 5, "max": 20, "level": 90.0, "width": 5.0,
                          "quick": 2})
        self.refused(TINY + "repeat 5..20 ci 90\n", 6,
                     "repeat MIN..MAX stops when the CI is narrow enough: "
                     "give width W")
        self.refused(TINY + "repeat 5 ci 120\n", 6,
                     "repeat: ci LEVEL from 50 to 99.9")
        self.refused(TINY + "repeat 0\n", 6, "repeat: 1 <= MIN <= MAX <= 1000")
        self.refused(TINY + "repeat 3\nrepeat 4\n", 7,
                     "repeat given twice (line 6)")

    def test_errors_name_file_and_line(self):
        self.refused("host a\nhots b\n", 2, "unknown keyword 'hots' (one of "
                     "title, about, note, host, router, switch, link, set, "
                     "sweep, label, repeat, step, plot, table)")
        self.refused("host a\nhost a\nstep s: ping a a\n", 2,
                     "node a is defined twice")
        self.refused("host a\nlink a b\nstep s: ping a a\n", 2,
                     "link a b: no node b (define it with host, router or "
                     "switch first)")
        self.refused("host a\nhost b\nlink a b rate fast\nstep s: ping a b\n",
                     3, "link a b: bad rate 'fast': use e.g. 10M, 100k, 1G")
        self.refused("host a\nhost b\nlink a b delay 20 s\nstep s: ping a b\n",
                     3, "link a b: 's' is not one of rate, delay, jitter, "
                     "queue, loss, dup, reorder, ecn, mtu")
        self.refused("host a\nhost b\nlink a b loss 101\nstep s: ping a b\n",
                     3, "link a b: bad percentage '101': 0 to 100, at most "
                     "two decimals (2, 0.5%, 12.25)")
        self.refused("host a\nhost b\nlink a b mtu 100\nstep s: ping a b\n",
                     3, "bad MTU '100': 1280..9000 (1500, 1492, 9000)")
        self.refused(TINY.replace("10ms", "${D}ms"), 4,
                     "${D} is not set (set or sweep it)")
        self.refused(TINY + "step t: gput a -> c\n", 6,
                     "c: no such node (the network has a b)")
        self.refused(TINY + "step t: gput a -> b -r\n", 6,
                     "gput -r: the runner sets the partner, port, output, "
                     "start and repeats itself")
        self.refused(TINY + "step t: gput a b\n", 6,
                     "gput needs a direction: gput SRC -> DST [options]")
        self.refused(TINY + "step t: ping a b -f\n", 6,
                     "ping takes -c N, -i S and -s SIZE only, not '-f'")
        self.refused(TINY + "step s: ping a b\n", 6,
                     "step s is defined twice (line 5)")
        self.refused(TINY + "plot p: x step, y goodput, steps nosuch\n", 6,
                     "plot p: no step 'nosuch'")
        self.refused(TINY + "plot p: x LOSS, y goodput\n", 6,
                     "plot p: x is a swept variable (none swept) or step")
        self.refused(TINY + "plot p: x step, y speed\n", 6,
                     "plot: y is one of goodput conn share fct jain rtt loss "
                     "jitter srtt, not 'speed'")
        self.refused(TINY + "plot p: x step, y conn, model magic\n", 6,
                     "plot: model is one of etac rtt window mathis fair, "
                     "not 'magic'")
        self.refused("host a\nhost b\nhost c\nlink a b\nstep s: ping a c\n", 3,
                     "node c has no link")
        self.refused(TINY + "sweep X 0..10\n", 6,
                     "a range needs its step: 0..10 step S")

    def test_no_path(self):
        self.refused("host a\nhost b\nhost c\nhost d\nlink a b\nlink c d\n"
                     "step s: gput a -> c\n", 7, "no path from a to c")

    def test_axis_labels(self):
        """A variable's words on an axis: from its label line, else from
        where the lab uses it, else its name; the shipped labs' swept x."""
        want = {("lab001", "OWD"): "one-way delay (ms)",
                ("lab002", "LOSS"): "loss per link (%)",
                ("lab002", "CC"): "congestion control",
                ("lab004", "L"): "message size -l (bytes)",
                ("exp-size", "L"): "message size -l (bytes)",
                ("exp-streams", "P"): "parallel streams -P",
                ("exp-rtt", "D"): "one-way delay (ms)",
                ("exp-loss", "P"): "loss from a to b (%)",
                ("lab003", "QUEUE"): "queue",
                ("lab003", "K"): "ECN marking threshold"}
        for (n, var), text in want.items():
            with open(os.path.join(LABS, n + ".lab")) as f:
                lab = parse(f.read())
            self.assertEqual(lab.axis_label(var), text, (n, var))
        lab = parse(TINY.replace("delay 10ms", "delay ${D}us queue ${Q}p") +
                    "sweep D 1 2\nsweep Q 10 20\nsweep Z 1 2\n"
                    "label Z the zeta's size unit furlongs\n")
        self.assertEqual([lab.axis_label(v) for v in ("D", "Q", "Z", "step")],
                         ["one-way delay (us)", "queue (packets)",
                          "the zeta's size (furlongs)", "step"])
        self.assertEqual(lab.value_label("D", "2"), "one-way delay 2 us")
        lab = parse(TINY.replace("delay 10ms", "loss ${P}%") + "sweep P 1\n"
                    "sweep X 1 2\n")
        self.assertEqual((lab.value_label("P", "2"), lab.axis_label("X")),
                         ("loss per link 2%", "X"))
        self.refused(TINY + "label NOPE words\n", 6,
                     "label NOPE: no such variable (set or sweep it)")
        self.refused(TINY + "set A 1\nlabel A a\nlabel A b\n", 8,
                     "label A given twice (line 7)")
        self.refused(TINY + "set A 1\nlabel A unit ms\n", 7,
                     "label A: TEXT, then unit and one word")
        self.refused(TINY + "set A 1\nlabel A\n", 7, "label NAME TEXT "
                     "[unit UNIT]: the words for a variable on axes and in "
                     "legends")


class Physics(unittest.TestCase):
    def test_stats(self):
        self.assertAlmostEqual(stats.t_quantile(0.975, 4), 2.776445, places=5)
        self.assertAlmostEqual(stats.t_quantile(0.95, 9), 1.833113, places=5)
        s = stats.summary([9.4531, 9.4522, 9.4553, 9.4535, 9.4534], 95)
        self.assertEqual(s["n"], 5)
        self.assertAlmostEqual(s["mean"], 9.4535)
        self.assertAlmostEqual(s["stdev"], 0.00112916, places=7)
        self.assertAlmostEqual(s["ci_high"] - s["mean"], 0.001402, places=6)
        one = stats.summary([3.0], 95)
        self.assertEqual((one["n"], one["stdev"], one["ci_low"]), (1, None, None))
        self.assertAlmostEqual(stats.jain([6.4, 4.4, 3.1, 6.0]),
                               19.9 ** 2 / (4 * 105.93))
        self.assertEqual(stats.jain([1, 0]), 0.5)
        self.assertEqual(stats.jain([5, 5]), 1.0)

    def test_ping_and_conns(self):
        p = parse_ping("5 packets transmitted, 5 received, 0% packet loss\n"
                       "rtt min/avg/max/mdev = 60.241/60.302/60.404/0.052 ms")
        self.assertEqual((p["sent"], p["received"], p["min"], p["avg"]),
                         (5, 5, 60.241, 60.302))
        doc = {"sides": [{"role": "send"}, {"role": "recv", "real_mbit": 9.0,
               "real_s": 1.5, "streams": [
                   {"stream": 1, "real_mbit": 5.0, "start_s": 0.25,
                    "real_s": 1.0, "bytes": 10},
                   {"stream": 2, "real_mbit": 4.0, "start_s": 0.5,
                    "real_s": 1.25, "bytes": 20}]}]}
        c = conns_of(doc, 30.0, "a>b", "cubic,bbr")
        self.assertEqual([x["label"] for x in c], ["a>b #1 cubic", "a>b #2 bbr"])
        self.assertEqual([round(x["fct"], 6) for x in c], [1.03, 1.53])
        c = conns_of({"sides": [{"role": "recv", "real_mbit": 9.4,
                                 "real_s": 2.0}]}, 10.0, "a>b", None)
        self.assertEqual((c[0]["label"], c[0]["goodput"], c[0]["fct"]),
                         ("a>b", 9.4, 2.01))

    @unittest.skipUnless(os.access(GPUT, os.X_OK), "./gput not built")
    def test_models(self):
        lab = parse("host a\nrouter r\nhost b\nlink a r rate 10M delay 10 "
                    "loss 1%/0\nlink r b rate 10M delay 10 loss 1%/0\n"
                    "step s: ping a b\n")
        net = lab.expand({})[0]
        m = physics.flow_model(GPUT, net, "a", "b", ["--cc", "cubic"])
        self.assertEqual(m["etac"][0], 9.4148)
        self.assertEqual(m["rtt"][0], 40)
        self.assertIsNotNone(m["mathis"][0])
        self.assertIn("p 1.99%", m["mathis"][1])
        m = physics.flow_model(GPUT, net, "a", "b", ["--cc", "bbr"])
        self.assertIsNone(m["mathis"][0])
        self.assertIn("not for bbr", m["mathis"][1])
        m = physics.flow_model(GPUT, net, "a", "b", ["-w", "32K"])
        self.assertAlmostEqual(m["window"][0], 32768 * 8 / 0.04 / 1e6)
        m = physics.flow_model(GPUT, net, "a", "b", ["-u", "-l", "1472"])
        self.assertEqual((m["etac"][0], m["mathis"][0]), (9.5709, None))


def fake_result(lab, means):
    """A results document as the runner writes it: one gput step per point
    of lab, its connection's goodput mean from means (n 3, the CI target
    missed at the second point)."""
    pts = []
    for k, (p, mean) in enumerate(zip(lab.points(), means)):
        s = stats.summary([mean - 0.1, mean, mean + 0.1], 90)
        pts.append({"point": p, "steps": [{
            "step": "bulk", "line": 9, "target": {"met": k != 1},
            "actions": [{"kind": "gput", "src": "a", "dst": "b",
                         "model": {"etac": (9.4148, "eta*C"),
                                   "mathis": (None if p["CC"] == "bbr" else 3.0,
                                              "Mathis")}}],
            "stats": {"conns": [{"label": "a>b", "action": 0, "goodput": s,
                                 "share": s, "fct": s}],
                      "actions": [{}]}}]})
    return {"points": pts}


def fake_steps(steps, values):
    """A results document of one point: steps is [(name, [flow label, ...])],
    each flow's goodput the next list of runs from values, its eta*C 9.4
    and its fair share 9.4 over the step's flows."""
    out, it = [], iter(values)
    for name, flows in steps:
        acts, conns = [], []
        for i, f in enumerate(flows):
            acts.append({"kind": "gput", "src": f[0], "dst": f[2],
                         "model": {"etac": (9.4, "eta*C"),
                                   "fair": (9.4 / len(flows), "fair")}})
            s = stats.summary(next(it), 95)
            conns.append({"label": f, "action": i, "goodput": s, "share": s,
                          "fct": s})
        out.append({"step": name, "line": 1, "target": {"met": True},
                    "actions": acts, "stats": {
                        "conns": conns, "actions": [{}] * len(acts),
                        "jain": stats.summary([0.9, 1.0], 95)}})
    return {"points": [{"point": {}, "steps": out}]}


def draw(test, gp, dat, text):
    """gnuplot runs the script on the .dat's text: no error, no warning,
    and a PNG."""
    d = tempfile.mkdtemp(prefix="unit_lab.")
    try:
        with open(os.path.join(d, dat), "w") as f:
            f.write(text)
        p = subprocess.run(["gnuplot"], input=gp, cwd=d,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
        test.assertEqual((p.returncode, p.stderr), (0, ""))
        with open(os.path.join(d, "g.png"), "rb") as f:
            test.assertEqual(f.read(4), b"\x89PNG")
    finally:
        shutil.rmtree(d)


def script(lab, o, res, term="png"):
    """(the gnuplot script, the .dat's text, its series) for output o."""
    rows = figures.collect(res, o, lab)
    d = tempfile.mkdtemp(prefix="unit_lab.")
    try:
        series = figures.write_dat(os.path.join(d, "g.dat"), lab, o, rows,
                                   o.models)
        with open(os.path.join(d, "g.dat")) as f:
            text = f.read()
    finally:
        shutil.rmtree(d)
    return (figures.gnuplot_script(o, lab, "g.dat", series, o.models, rows,
                                   term, "g.%s" % term), text, series, rows)


class Figures(unittest.TestCase):
    LAB = TINY.replace("delay 10ms", "delay 10ms loss ${P}%").replace(
        "--time 1", "--cc ${CC}").replace(
        "step s:", "sweep P 0 1\nsweep CC cubic bbr\nrepeat 3 ci 90\n"
        "step bulk:") + \
        "plot g: x P, y conn, series CC, model etac mathis, title it's `x`\n"

    def test_dat_and_script(self):
        lab = parse(self.LAB)
        o = lab.outputs[0]
        res = fake_result(lab, [9.0, 3.1, 9.2, 8.8])
        gp, text, series, rows = script(lab, o, res)
        self.assertEqual([(r["x"], r["series"], r["met"]) for r in rows],
                         [(0.0, "congestion control cubic", True),
                          (0.0, "congestion control bbr", False),
                          (1.0, "congestion control cubic", True),
                          (1.0, "congestion control bbr", True)])
        self.assertEqual(series, ["congestion control cubic",
                                  "congestion control bbr"])
        self.assertIn("#  1 x        P: loss per link (%)\n", text)
        self.assertIn("#  9 etac ", text)
        self.assertIn("# 10 mathis ", text)
        body = [l.split("\t") for l in text.split("\n")
                if l and not l.startswith("#")]
        self.assertEqual([(b[0], b[2], b[7], b[9]) for b in body],
                         [("0.0", "3", "1", "3.0"), ("1.0", "3", "1", "3.0"),
                          ("0.0", "3", "0", "NaN"), ("1.0", "3", "1", "NaN")])
        # the lab's words reach gnuplot cut to a safe alphabet, results never
        self.assertNotIn("`", gp)
        self.assertIn("set title 'it''s _x_' noenhanced\n", gp)
        self.assertIn("set yrange [0:*]", gp)
        # the axes in words with units, not the variable's name
        self.assertIn("set xlabel 'loss per link (%)' noenhanced\n", gp)
        self.assertIn("set ylabel 'goodput per connection (MBit/s)' "
                      "noenhanced\n", gp)
        # the legend under the plot, the title alone above it; its head
        # says what a point and a bar are
        self.assertNotIn("outside top", gp)
        self.assertIn("set key bmargin center horizontal box noenhanced "
                      "width 2 maxcols 3 maxrows 2 title 'points: mean of 3 runs, "
                      "bars: its 90% CI (Student t)'\n", gp)
        self.assertIn("\nset bmargin 8.1\n", gp)
        # Mathis beside the loss-based control only; eta*C for all, once
        self.assertIn("keyentry with linespoints dt 3 pt 6 ps 1.5 lw 2 lc rgb "
                      "'black' title 'Mathis bound (cubic)'", gp)
        self.assertIn("title 'eta*C of the bottleneck'", gp)
        self.assertNotIn("(all)", gp)
        self.assertNotIn("bbr)", gp)
        # the models drawn under the points, named after them
        plot = gp[gp.index("\nplot "):]
        self.assertLess(plot.index("using 1:9 with"),
                        plot.index("with yerrorlines"))
        self.assertLess(plot.index("title 'congestion control bbr'"),
                        plot.index("keyentry"))
        self.assertIn("title 'CI target missed'", gp)
        self.assertEqual(figures.safe("a'b\"c`d$(e);f\ng"), "a_b_c_d_(e)_f_g")
        self.assertEqual(figures.gpq("a'b\"c`d$(e);f"), "'a''b_c_d_(e)_f'")
        draw(self, gp, "g.dat", text)

    def test_missed_title(self):
        """The marks of a missed CI target name what missed it on a figure
        of another quantity (lab002's srtt figure marked the goodput's)."""
        class O:
            y = "srtt"
        rows = [{"met": False, "target_of": "goodput"}, {"met": True}]
        self.assertEqual(figures.missed_title(O, rows),
                         "its goodput missed its CI target")
        O.y = "conn"
        self.assertEqual(figures.missed_title(O, rows), "CI target missed")
        O.y = "rtt"
        self.assertEqual(figures.missed_title(O, [{"met": False,
                                                   "target_of": "rtt"}]),
                         "CI target missed")
        self.assertEqual(figures.missed_title(O, rows + [
            {"met": False, "target_of": "rtt"}]),
            "its goodput or ping RTT missed its CI target")

    def test_cut_bars_and_single_runs(self):
        """A CI below 0 is cut at the axis, and the figure says so; one run
        a point draws no bars and says there is no CI."""
        lab = parse(TINY + "plot g: x step, y conn\n")
        o = lab.outputs[0]
        gp, text, _, _ = script(lab, o, fake_steps([("s", ["a>b"])],
                                                   [[0.1, 5.0]]))
        self.assertIn("using 1:4:($6 < 0 ? 0 : $6):7 with yerrorbars", gp)
        self.assertIn("title 'CI reaches below 0: its bar cut at 0'", gp)
        self.assertLess(float(text.strip().split("\n")[-1].split("\t")[5]),
                        0, "the .dat keeps the real low end")
        draw(self, gp, "g.dat", text)
        gp, text, _, _ = script(lab, o, fake_steps([("s", ["a>b"])], [[5.0]]))
        self.assertIn("title 'one run per point: no CI'", gp)
        self.assertIn("using 1:4 with points", gp)
        self.assertNotIn("errorbars", gp)
        draw(self, gp, "g.dat", text)

    def test_steps_flows_and_models(self):
        """x step: a flow is one series across the steps, its name once;
        one flow's fair share (its eta*C) is not marked twice; the step
        names turn only when they would not fit side by side."""
        lab = parse("host a\nhost b\nhost c\nhost d\nrouter r\nlink a r\n"
                    "link c r\nlink r b rate 10M\nlink r d\n"
                    "step one: gput a -> b\n"
                    "step two: gput a -> b & gput c -> d\n"
                    "plot g: x step, y conn, series flow, model etac fair\n"
                    "plot j: x step, y jain, model fair\n")
        res = fake_steps([("one", ["a>b"]), ("two", ["a>b", "c>d"])],
                         [[9, 9.2], [4.6, 4.8], [4.5, 4.7]])
        gp, text, series, rows = script(lab, lab.outputs[0], res)
        self.assertEqual(series, ["a>b", "c>d"])
        self.assertIn("set xlabel 'step' noenhanced", gp)
        self.assertIn("set xtics ('one' 1, 'two' 2) noenhanced\n", gp)
        self.assertIn("using 1:($10 == $9 ? NaN : $10) with points", gp)
        self.assertEqual(gp.count("keyentry"), 2)
        draw(self, gp, "g.dat", text)
        gp, text, _, _ = script(lab, lab.outputs[1], res)
        self.assertIn("set ylabel 'Jain''s fairness index' noenhanced", gp)
        self.assertIn("title 'equal shares: index 1'", gp)
        draw(self, gp, "g.dat", text)
        long = [("step_%02d_with_a_long_name" % i, ["a>b"]) for i in range(9)]
        gp, text, _, _ = script(lab, lab.outputs[0],
                                fake_steps(long, [[9, 9.1]] * 9))
        self.assertIn(") rotate by 90 right noenhanced\n", gp)
        self.assertIn("set xlabel 'step' noenhanced offset 0,-1.5\n", gp)
        draw(self, gp, "g.dat", text)

    def test_log_axes(self):
        """x X log: a tic at each swept value, the axis ending at the data;
        y Y log: a log axis, not from 0, ending at the data, tics at 1, 2
        and 5 of each decade."""
        lab = parse(TINY.replace("--time 1", "-l ${L}").replace(
            "step s:", "sweep L 256 1448 8192\nsweep CC cubic\n"
            "repeat 3\nstep bulk:") + "plot g: x L log, y conn log\n")
        o = lab.outputs[0]
        self.assertTrue(o.ylog)
        gp, text, _, _ = script(lab, o, fake_result(lab, [3.0, 9.0, 9.3]))
        self.assertIn("set xlabel 'message size -l (bytes)' noenhanced", gp)
        self.assertIn("set logscale x 2\nset autoscale xfix\n", gp)
        self.assertIn("set xtics ('256' 256.0, '1448' 1448.0, "
                      "'8192' 8192.0)\n", gp)
        self.assertIn("set logscale y 10\nset yrange [*:*]\n"
                      "set autoscale yfix\nset ytics ('1' 1.0, '2' 2.0, "
                      "'5' 5.0, '10' 10.0, '20' 20.0, '50' 50.0)\n", gp)
        self.assertNotIn("[0:*]", gp)
        draw(self, gp, "g.dat", text)


class Emulation(unittest.TestCase):
    """report.emulation_md: whether the host kept up, from counters."""
    KEPT = ("a>b delay-fwd 10000\na>b delay-drop 0\na>b delay-late 100\n"
            "a>b delay-err-p99-us 80\nb>a delay-fwd 200\n"
            "b>a delay-drop 0\nb>a delay-late 0\n")

    def test_kept_up(self):
        md = report.emulation_md(self.KEPT)
        self.assertEqual(md[0], "The host kept up: every delay line (a>b, "
                         "b>a) dropped nothing and left at least 99% of its "
                         "frames within 100 us of their time.")

    def test_late_past_one_percent(self):
        md = report.emulation_md(self.KEPT.replace("late 100", "late 101"))
        self.assertTrue(md[0].startswith(
            "**The host did not keep up with this network**: the delay line "
            "of a>b dropped 0 and left 101 of 10000 frames more than 100 us "
            "late (p99 error 80 us). "), md[0])
        self.assertNotIn("b>a dropped", md[0])

    def test_drops(self):
        md = report.emulation_md(self.KEPT.replace("b>a delay-drop 0",
                                                   "b>a delay-drop 3"))
        self.assertIn("of b>a dropped 3 and left 0 of 200 frames", md[0])

    def test_no_delay_line(self):
        self.assertEqual(report.emulation_md("a>b tbf-drop 0\n"), [])


class Cli(unittest.TestCase):
    def lab(self, *args, env=None):
        return subprocess.run([os.path.join(ROOT, "tools", "gput-lab")] +
                              list(args), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True,
                              env=dict(os.environ, **(env or {})))

    def test_check_draws_and_lists(self):
        p = self.lab("check", os.path.join(LABS, "lab000.lab"))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("network (13 nodes, 12 links", p.stdout)
        self.assertIn("  router  r2\n", p.stdout)
        self.assertIn("-> r3       rate 30M, delay 20ms, queue 100p", p.stdout)
        self.assertIn("path h1 - r1 - r2 - r3 - r4 - h9; RTT 80.0 ms", p.stdout)
        p = self.lab("check", "lab002")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("  plot goodput: x LOSS, y conn, series CC, model etac "
                      "mathis\n    x axis: loss per link (%)\n", p.stdout)
        p = self.lab("list")
        self.assertEqual(p.returncode, 0)
        self.assertEqual([l.split()[0] for l in p.stdout.split("\n")
                          if l.startswith("lab")],
                         ["lab000", "lab001", "lab002", "lab003", "lab004"])

    def test_list_columns(self):
        """list: the names in a column as wide as the longest (exp-streams),
        every title beside it from one column, wrapped within 80."""
        p = self.lab("list")
        self.assertEqual(p.returncode, 0)
        lines = p.stdout.rstrip("\n").split("\n")[:-1]
        names = sorted(f[:-4] for f in os.listdir(LABS) if f.endswith(".lab"))
        col = max(len(n) for n in names) + 2
        self.assertEqual(col, len("exp-streams") + 2)
        self.assertEqual([l.split()[0] for l in lines if l[0] != " "], names)
        self.assertEqual([l for l in lines if len(l) > 80], [])
        for l in lines:
            self.assertTrue(l[col - 2:col] == "  " and l[col] != " ", l)
        self.assertIn("exp-streams  experiment streams: 1 to 16 parallel",
                      p.stdout)

    def test_bad_file_builds_nothing(self):
        d = os.environ.get("TMPDIR", "/tmp")
        bad = os.path.join(d, "unit_lab.%d.lab" % os.getpid())
        log = bad + ".log"
        with open(bad, "w") as f:
            f.write("host a\nhost b\nlink a b rate 10Q\nstep s: ping a b\n")
        try:
            for cmd in ("check", "run"):
                p = self.lab(cmd, bad, env={
                    "GPUT_LAB_TESTBED": os.path.join(ROOT, "tests",
                                                     "labstub-testbed"),
                    "GPUT_LABSTUB_LOG": log})
                self.assertEqual((p.returncode, p.stderr),
                                 (1, "gput-lab: %s:3: link a b: bad rate "
                                  "'10Q': use e.g. 10M, 100k, 1G\n" % bad))
            self.assertFalse(os.path.exists(log), "the testbed was called")
        finally:
            for f in (bad, log):
                if os.path.exists(f):
                    os.unlink(f)

    def test_usage(self):
        p = self.lab("run")
        self.assertEqual(p.returncode, 2)
        p = self.lab("check", "x", "--set", "NOEQUALS")
        self.assertEqual((p.returncode, p.stderr), (2, "gput-lab: --set "
                         "NAME=VALUE, not 'NOEQUALS'\n"))
        p = self.lab("check", "lab002", "--set", "NOPE=1")
        self.assertEqual((p.returncode, p.stderr), (2, "gput-lab: --set NOPE: "
                         "the lab has no variable NOPE (it has DUR LOSS CC)\n"))
        p = self.lab("check", "lab002", "--set", "DUR=3", "--set", "CC=bbr")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("gput n0 -> n2 --cc bbr --time 3", p.stdout)


class Result(unittest.TextTestResult):
    def addSuccess(self, test):
        super().addSuccess(test)
        print("PASS: %s" % test.id())

    def addFailure(self, test, err):
        super().addFailure(test, err)
        print("FAIL: %s" % test.id())

    def addError(self, test, err):
        super().addError(test, err)
        print("FAIL: %s (error)" % test.id())

    def printErrorList(self, flavour, errors):
        # not "FAIL:" at a line's start: run-tests.sh counts those
        for test, err in errors:
            self.stream.writeln("%s in %s:" % (flavour.lower(), test.id()))
            self.stream.writeln(err)

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        print("SKIP: %s (%s)" % (test.id(), reason))


if __name__ == "__main__":
    r = unittest.main(testRunner=unittest.TextTestRunner(
        resultclass=Result, stream=sys.stdout, verbosity=0), exit=False)
    sys.exit(0 if r.result.wasSuccessful() else 1)
