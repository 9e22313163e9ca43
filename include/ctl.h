#ifndef GPUT_CTL_H
#define GPUT_CTL_H

#include <stddef.h>
#include <stdint.h>

#include "meter.h"
#include "xfer.h"

/*
 * Control protocol, version 1 (see gput(1), CONTROL PROTOCOL).
 * Every message is an 8-byte header and a payload, all integers big-endian:
 *
 *   0  4  magic "GPUT"
 *   4  1  version (1)
 *   5  1  type (CTL_*)
 *   6  2  payload length, at most CTL_MAX_PAYLOAD
 *
 * PARAMS (client -> partner, 48 bytes): the partner's half of the test.
 *   0 proto u8, 1 role u8, 2 flags u8 (1 nodelay, 2 verify, 4 stream,
 *   8 verbose), 3 zero u8, 4 len u32, 8 count u64, 16 window u32,
 *   20 gap_us u32, 24 data_len u32, 28 seed u32, 32 data_bytes u64,
 *   40 udp_port u16 (client's UDP port; 0 for TCP), 42 zero u16,
 *   44 data_gap_us u32.
 * READY  (partner -> client, 4 bytes): 0 data port u16, 2 zero u16.
 * RESULT (partner -> client, 92 bytes): the gput_result fields in
 *   declaration order, eleven u64 then flags u32.
 * ERROR  (either way, 1..CTL_MAX_TEXT bytes): printable ASCII reason.
 */
#define CTL_MAGIC        "GPUT"
#define CTL_VERSION      1
#define CTL_HDR_LEN      8
#define CTL_MAX_PAYLOAD  256
#define CTL_MAX_TEXT     200
#define CTL_PARAMS_LEN   48
#define CTL_READY_LEN    4
#define CTL_RESULT_LEN   92

enum ctl_type {
	CTL_PARAMS = 1,
	CTL_READY  = 2,
	CTL_RESULT = 3,
	CTL_ERROR  = 4,
};

struct ctl_msg {
	uint8_t type;
	struct xfer_params params;  /* CTL_PARAMS */
	uint16_t udp_port;          /* CTL_PARAMS: client's UDP port */
	uint16_t data_port;         /* CTL_READY */
	struct gput_result result;  /* CTL_RESULT */
	char text[CTL_MAX_TEXT + 1];/* CTL_ERROR, NUL-terminated */
};

/* Encode m into buf (at least CTL_HDR_LEN + CTL_MAX_PAYLOAD bytes).
 * Returns the message length. */
size_t ctl_encode(const struct ctl_msg *m, uint8_t *buf);

/* Check a header; on success store type and payload length. Returns 0, or
 * -1 with err filled (bad magic, unknown version, type or oversized length). */
int ctl_decode_header(const uint8_t *hdr, uint8_t *type, uint16_t *plen,
                      char *err, size_t errlen);

/* Decode a payload of the given type. Returns 0, or -1 with err filled
 * (wrong length for the type, a field out of range). */
int ctl_decode_payload(uint8_t type, const uint8_t *p, size_t plen,
                       struct ctl_msg *m, char *err, size_t errlen);

/* Send m on fd. Returns 0, or -1 with err filled. */
int ctl_send(int fd, const struct ctl_msg *m, char *err, size_t errlen);

/* Receive one whole message within timeout_ms. Returns 0, or -1 with err
 * filled: timeout, peer closed, malformed message. */
int ctl_recv(int fd, struct ctl_msg *m, int timeout_ms, char *err, size_t errlen);

/* Receive one message within timeout_ms and insist on type want. Returns 0,
 * or -1 with err filled: ctl_recv's failures (naming the awaited message:
 * "timed out waiting for a READY message"), or another type ("unexpected
 * RESULT message (expected READY)"). When the peer sent ERROR instead, m holds
 * it (m->type is CTL_ERROR, m->text its reason) so the caller can say who
 * refused what; otherwise m->type is 0 or the unexpected type. */
int ctl_recv_type(int fd, uint8_t want, struct ctl_msg *m, int timeout_ms,
                  char *err, size_t errlen);

/* "PARAMS", "READY", "RESULT", "ERROR", or "unknown". */
const char *ctl_type_name(uint8_t type);

/* What the peer did while no message was due, seen without waiting and
 * without consuming anything. err is filled for all but CTL_PEER_QUIET. */
enum ctl_peer {
	CTL_PEER_QUIET,     /* connected, nothing pending */
	CTL_PEER_CLOSED,    /* orderly close (EOF): "connection closed" */
	CTL_PEER_FAILED,    /* reset or other error: strerror */
	CTL_PEER_SPOKE,     /* bytes arrived out of turn */
};
enum ctl_peer ctl_peer_state(int fd, char *err, size_t errlen);

/* Build an ERROR message. */
void ctl_error(struct ctl_msg *m, const char *text);

#endif
