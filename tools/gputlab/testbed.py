# SPDX-License-Identifier: BSD-2-Clause
"""The testbed a lab runs on (gput-testbed up --topology) and every process
the runner starts in it. Everything started is in a process group of its
own and recorded; teardown() ends them all (TERM, then KILL after a
deadline), then runs gput-testbed down, whatever happened before."""

import os
import re
import signal
import subprocess
import time


class TestbedError(Exception):
    pass


class Testbed:
    def __init__(self, tool, prefix, work, log):
        self.tool, self.prefix, self.work, self.log = tool, prefix, work, log
        self.procs = []
        self.built = False
        self.env = dict(os.environ, GPUT_TESTBED_PREFIX=prefix)

    def _run(self, args, timeout=120):
        self.log("$ gput-testbed %s" % " ".join(args))
        try:
            p = subprocess.run([self.tool] + args, env=self.env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise TestbedError("gput-testbed %s: no answer in %d s"
                               % (" ".join(args), timeout))
        return p

    def up(self, lines):
        """Build the network of these topology lines (after down)."""
        self.down()
        path = os.path.join(self.work, "topology")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        self.built = True         # a half-built testbed is taken down too
        p = self._run(["up", "--topology", path], timeout=300)
        if p.returncode != 0:
            raise TestbedError("gput-testbed up --topology: %s"
                               % (p.stderr.strip() or p.stdout.strip()))
        return p.stdout

    def addr(self, node, peer=None):
        p = self._run(["addr", node] + ([peer] if peer else []))
        a = p.stdout.split()
        if p.returncode != 0 or not a:
            raise TestbedError("gput-testbed addr %s%s: %s" % (
                node, " " + peer if peer else "", p.stderr.strip()))
        return a[0]

    def counters(self):
        p = self._run(["counters"])
        return p.stdout if p.returncode == 0 else ""

    def start(self, node, argv, out, err):
        """Start argv in node (gput-testbed exec) in a process group of its
        own; returns the Popen, recorded for teardown."""
        self.log("$ gput-testbed exec %s %s" % (node, " ".join(argv)))
        p = subprocess.Popen([self.tool, "exec", node] + argv, env=self.env,
                             stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                             start_new_session=True)
        self.procs.append(p)
        return p

    def partner(self, node, gput):
        """gput -i in node on a port it picks; returns (Popen, port).
        A lab's lossy path may hold a client's PARAMS in TCP's backed-off
        retransmissions past the default 3 s (5 losses in a row take 7 s at
        a 240 ms RTO): its partners give 30 s (--params-grace)."""
        errf = open(os.path.join(self.work, "partner-%s.log" % node), "w+")
        p = self.start(node, [gput, "-i", "-p", "0", "--user", "root",
                              "--max-sessions", "16", "--max-per-source", "16",
                              "--max-handshakes", "32", "--params-grace", "30"],
                       subprocess.DEVNULL, errf)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            errf.seek(0)
            m = re.search(r"listening on .* port ([0-9]+)", errf.read())
            if m:
                return p, int(m.group(1))
            if p.poll() is not None:
                break
            time.sleep(0.05)    # poll; the deadline above bounds the wait
        errf.seek(0)
        raise TestbedError("gput -i in %s did not start: %s"
                           % (node, errf.read().strip()[-300:]))

    def stop(self, p, deadline=5.0):
        """End p's process group: TERM, then KILL after deadline s."""
        if p.poll() is None:
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except OSError:
                pass
            try:
                p.wait(deadline)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except OSError:
                    pass
                p.wait()
        if p in self.procs:
            self.procs.remove(p)

    def stop_all(self):
        for p in list(self.procs):
            self.stop(p)

    def down(self):
        if not self.built:
            return
        self.stop_all()
        p = self._run(["down"], timeout=120)
        if p.returncode != 0:
            self.log("gput-testbed down: %s" % p.stderr.strip())
        self.built = False

    def teardown(self):
        """Everything ends, whatever state the run is in; called from the
        runner's finally and its signal handlers alike."""
        old = [signal.signal(s, signal.SIG_IGN)
               for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)]
        try:
            self.stop_all()
            self.built = True       # down even if up never said it was
            self.down()
        finally:
            for s, h in zip((signal.SIGINT, signal.SIGTERM, signal.SIGHUP),
                            old):
                signal.signal(s, h)
