#ifndef GPUT_XFER_MARKERS_H
#define GPUT_XFER_MARKERS_H

#include "xfer.h"

/* After a UDP stream's data: the three end markers, plain datagrams
 * MARKER_SPACING_MS apart; each the kernel accepted counts in s->r.calls. */
void xfer_markers_send(struct stream *s);

#endif
