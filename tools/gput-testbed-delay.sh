#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# gput-testbed-delay.sh: the delay lines of tools/gput-testbed,
# sourced by it (not run on its own): the wire namespace spliced into a link,
# and a gput-delay process per direction in it (start, stop, statistics).

# delay_bin: the gput-delay program, next to this script (the source tree,
# after make), in the LIBEXECDIR make install wrote below (it rewrites the
# path), or in PATH.
delay_bin() {
	_self=$(cd "$(dirname "$0")" && pwd)
	if [ -x "$_self/gput-delay" ]; then
		echo "$_self/gput-delay"
	elif [ -x /usr/local/libexec/gput/gput-delay ]; then
		echo /usr/local/libexec/gput/gput-delay
	else
		command -v gput-delay 2>/dev/null ||
			die "gput-delay not found next to $PROG, in /usr/local/libexec/gput or in PATH (run make, or make install)"
	fi
}

# wired: true when the testbed has its delay lines' wire namespace(s).
wired() { ns_exists "$NS_W" || ns_exists "$NS_WA"; }

# wire_make W LNS LDEV RNS RDEV MTU: splice the wire namespace W into a
# link: LDEV (in LNS) pairs with W's veth-wl, RDEV (in RNS) with veth-wr.
# W has no addresses and no IPv6: the kernel there forwards nothing; its
# ingress hooks drop (or fwd, for a direction without delay) every frame
# after the delay line's AF_PACKET socket has taken its copy.
wire_make() {
	ns_exists "$1" || ip netns add "$1"
	ip -n "$1" link set dev lo up
	if [ "$V6" = yes ]; then
		ip netns exec "$1" sysctl -qw net.ipv6.conf.default.disable_ipv6=1
		ip netns exec "$1" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
	fi
	veth "$2" "$3" "$1" "$DEV_WL"
	veth "$4" "$5" "$1" "$DEV_WR"
	for _wd in "$DEV_WL" "$DEV_WR"; do
		offloads_off "$1" "$_wd"
		ip -n "$1" link set dev "$_wd" mtu "$6" promisc on up
	done
}

# wire_rule W IN OUT fwd|drop: what W's kernel does with a frame arriving on
# IN: fwd sends it straight on to OUT (a direction without delay), drop
# leaves it to the delay line (which has read it already: packet taps see a
# frame before the ingress hook).
wire_rule() {
	if [ "$4" = fwd ]; then _r="counter fwd to \"$3\""; else _r="counter drop"; fi
	ip netns exec "$1" nft -f - <<EOF
add table netdev gput_wire
add chain netdev gput_wire from_${2#veth-} { type filter hook ingress device "$2" priority 0; policy accept; }
flush chain netdev gput_wire from_${2#veth-}
add rule netdev gput_wire from_${2#veth-} $_r
EOF
}

# dl_ends ab|ba: the wire namespace and devices of that direction's delay
# line (DL_NS DL_IN DL_OUT): right after the direction's bottleneck shaper.
dl_ends() {
	case $1 in
	*.ab) DL_NS=$(wire_of "${1%.ab}") DL_IN=$DEV_WL DL_OUT=$DEV_WR; return ;;
	*.ba) DL_NS=$(wire_of "${1%.ba}") DL_IN=$DEV_WR DL_OUT=$DEV_WL; return ;;
	esac
	if ns_exists "$NS_W"; then
		DL_NS=$NS_W
	elif [ "$1" = ab ]; then
		DL_NS=$NS_WB
	else
		DL_NS=$NS_WA
	fi
	if [ "$1" = ab ]; then DL_IN=$DEV_WL DL_OUT=$DEV_WR; else DL_IN=$DEV_WR DL_OUT=$DEV_WL; fi
}

# wire_of I: the wire namespace of link I of --pairs, --hops (PREFIX-wI)
# or a topology file (its links' eighth field)
wire_of() {
	_wn=$(awk -v i="$1" '$1 == i { print $8 }' "$STATE/links" 2>/dev/null)
	case $_wn in '' | -) echo "$PREFIX-w$1" ;; *) echo "$_wn" ;; esac
}

# dl_pid ab|ba: the pid of that direction's delay line, when it runs.
dl_pid() {
	[ -r "$STATE/$1.pid" ] || return 1
	_p=$(cat "$STATE/$1.pid")
	[ -n "$_p" ] && [ "$(cat "/proc/$_p/comm" 2>/dev/null)" = gput-delay ] || return 1
	echo "$_p"
}

# dl_stop ab|ba: end that direction's delay line (if any) and forget it.
dl_stop() {
	if _p=$(dl_pid "$1"); then
		kill "$_p" 2>/dev/null || true
		_i=0
		while [ -d "/proc/$_p" ] && [ "$_i" -lt 40 ]; do sleep 0.05; _i=$((_i + 1)); done
		[ ! -d "/proc/$_p" ] || kill -KILL "$_p" 2>/dev/null || true
	fi
	rm -f "$STATE/$1.pid" "$STATE/$1.stats" "$STATE/$1.conf"
}

# dl_set ab|ba DELAY JITTER REORDER [RATE QUEUE ECN]: (re)start that
# direction's delay line with DELAY and JITTER ns (REORDER yes: jittered
# frames may overtake); with RATE (bit/s, not 0) it is also the bottleneck:
# it serialises at RATE from a queue of QUEUE bytes and marks CE above ECN
# bytes (0: never). With delay, jitter and rate 0 the wire forwards in the
# kernel and no delay line runs.
dl_set() {
	_rt=${5:-0} _qb=${6:-0} _ek=${7:-0} _path=${GPUT_DELAY_PATH:-ring}
	case $_path in
	ring | copy) ;;
	*) die "GPUT_DELAY_PATH must be ring or copy, not '$_path'" ;;
	esac
	case ${GPUT_DELAY_SPIN:-0} in
	*[!0-9]* | '') die "GPUT_DELAY_SPIN must be a number of ns, not '$GPUT_DELAY_SPIN'" ;;
	esac
	dl_ends "$1"
	dl_stop "$1"
	mkdir -p "$STATE"
	if [ "$2" = 0 ] && [ "$3" = 0 ] && [ "$_rt" = 0 ]; then
		wire_rule "$DL_NS" "$DL_IN" "$DL_OUT" fwd
		echo "0 0 no 0 0 0" >"$STATE/$1.conf"
		return 0
	fi
	_mtu=$(ip -n "$DL_NS" -o link show dev "$DL_IN" | sed 's/.* mtu \([0-9]*\).*/\1/')
	wire_rule "$DL_NS" "$DL_IN" "$DL_OUT" drop
	_bin=$(delay_bin)
	_dir=$1 _conf="$2 $3 $4 $_rt $_qb $_ek" _ro=$4
	set -- -i "$DL_IN" -o "$DL_OUT" -d "$2" -j "$3" -m "$(( _mtu + 18 ))" -s "$STATE/$1.stats" \
		-P "${GPUT_DELAY_PRIO:-10}"
	[ "$_ro" != yes ] || set -- "$@" -R
	[ "$_path" = ring ] || set -- "$@" -C
	[ -z "${GPUT_DELAY_SPIN:-}" ] || set -- "$@" -S "$GPUT_DELAY_SPIN"
	[ "$_rt" = 0 ] || set -- "$@" -r "$_rt" -q "$_qb"
	[ "$_ek" = 0 ] || set -- "$@" -e "$_ek"
	# setsid: its own session, so the shell that ran up can end; no fork in
	# between (sh puts no background job in a group of its own), so $! is
	# gput-delay itself. Descriptors 3-9 closed: a lock the caller holds
	# (flock /work/measure.lock gput-testbed up ...) must not live on in
	# the delay line until the testbed is taken down
	ip netns exec "$DL_NS" setsid "$_bin" "$@" </dev/null >"$STATE/$_dir.log" 2>&1 \
		3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &
	echo "$!" >"$STATE/$_dir.pid"
	echo "$_conf" >"$STATE/$_dir.conf"
	# it writes its statistics once it holds its sockets: ready
	_i=0
	while [ ! -s "$STATE/$_dir.stats" ] && [ "$_i" -lt 100 ]; do
		[ -d "/proc/$!" ] || break
		sleep 0.02
		_i=$((_i + 1))
	done
	[ -s "$STATE/$_dir.stats" ] ||
		die "the delay line ($_dir) did not start: $(cat "$STATE/$_dir.log" 2>/dev/null)"
}

# dl_stats ab|ba: make that delay line write its statistics now (SIGUSR1)
# and print them; fail when it is not running or does not answer in 2 s.
dl_stats() {
	_p=$(dl_pid "$1") || return 1
	_f=$STATE/$1.stats
	_n0=$(awk '$1 == "dumps" { print $2 }' "$_f" 2>/dev/null)
	kill -USR1 "$_p" 2>/dev/null || return 1
	_i=0
	while [ "$(awk '$1 == "dumps" { print $2 }' "$_f" 2>/dev/null)" = "$_n0" ]; do
		[ "$_i" -lt 100 ] || return 1
		sleep 0.02
		_i=$((_i + 1))
	done
	cat "$_f"
}

# dl_counters KEY NAME: the "NAME KIND VALUE" lines of delay line KEY;
# fails when it is not running.
dl_counters() {
	dl_stats "$1" >"$STATE/$1.read" 2>/dev/null || return 1
	_rt=$(awk '{ print $4 + 0 }' "$STATE/$1.conf" 2>/dev/null)
	awk -v d="$2" -v rt="${_rt:-0}" '
	    $1 == "forwarded" { f = $2 } $1 == "dropped" { x = $2 } $1 == "marked" { m = $2 }
	    $1 == "queue-drop" { q = $2 } $1 == "late" { lt = $2 }
	    $1 == "err-p50-us" { p50 = $2 } $1 == "err-p99-us" { p99 = $2 } $1 == "err-max-us" { mx = $2 }
	    END {
		if (rt > 0) { print d " queue-drop " q; print d " ecn-mark " m }
		print d " delay-fwd " f; print d " delay-drop " x - q
		print d " delay-err-p50-us " p50; print d " delay-err-p99-us " p99
		print d " delay-err-max-us " mx; print d " delay-late " lt + 0
	    }' "$STATE/$1.read"
}

# human_delay NS: "20 ms", "500 us"
human_delay() {
	awk -v n="$1" 'BEGIN { if (n % 1000000 == 0 || n >= 1000000) printf "%g ms\n", n / 1e6; else printf "%g us\n", n / 1e3 }'
}
