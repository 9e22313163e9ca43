# SPDX-License-Identifier: BSD-2-Clause
"""gput-lab's modules: the lab file (labfile), the network's physics
(physics), statistics (stats), the testbed and its processes (testbed), the
runner (runner), and the report with its tables and figures (report,
figures). Python 3's standard library only."""
