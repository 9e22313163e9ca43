/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_VERSION_H
#define GPUT_VERSION_H

/* gput's version: in -V, the JSON reports and gput-pcap's. */
#define GPUT_VERSION      "1.0.0"

#endif
