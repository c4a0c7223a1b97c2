#!/bin/bash
# Disposable mail servers on loopback for Legate's tests and for trying the judge by hand:
# Dovecot 2.3 (IMAP, IMAPS, LMTP) and Postfix 3.x (SMTP, delivering into Dovecot over LMTP).
# Runs as root, without systemd, and reads nothing from /etc/dovecot or /etc/postfix.
#
#   scripts/mail-servers.sh start DIR BASEPORT [address ...]
#   scripts/mail-servers.sh stop DIR
#
# Ports: IMAP (STARTTLS) = BASEPORT, SMTP (STARTTLS; login optional) = BASEPORT+1,
#        LMTP = BASEPORT+2, IMAPS = BASEPORT+3, Dovecot auth for Postfix = BASEPORT+4.
# SMTP accepts mail for the test domains without login; a login (any mailbox, "pw")
# is checked by Dovecot, so clients can test authentication.
# Without addresses every *@judge.test and *@example.test mailbox exists (catch-all);
# with addresses only those exist and others are refused at RCPT. Password: "pw".
# Log in with the full address. Mail for X lands in DIR/mail/X/Maildir.
# The client trusts DIR/cert.pem (self-signed, for "localhost" and 127.0.0.1).
# Starting again on an existing DIR keeps its certificate, mailboxes and queue, so a
# test can stop and restart the servers underneath a running client.
set -euo pipefail

DOMAINS="judge.test example.test"
VMAIL_USER=nobody
VMAIL_GROUP=nogroup # Dovecot refuses to deliver as uid 0
PASSWORD=pw

usage() {
	echo "usage: $0 start DIR BASEPORT [address ...] | $0 stop DIR" >&2
	exit 2
}

make_cert() {
	local dir=$1
	[ -s "$dir/cert.pem" ] && [ -s "$dir/key.pem" ] && return 0
	# rustls rejects certificates without a subjectAltName and CA certificates used
	# as server certificates, so both extensions are set explicitly.
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 30 \
		-keyout "$dir/key.pem" -out "$dir/cert.pem" -subj /CN=localhost \
		-addext subjectAltName=DNS:localhost,IP:127.0.0.1 \
		-addext basicConstraints=critical,CA:FALSE 2>/dev/null
}

write_dovecot_conf() {
	local dir=$1 base=$2 passdb=$3 userdb=$4
	cat >"$dir/dovecot.conf" <<EOF
instance_name = legate-test-$base
base_dir = $dir/dovecot/run
state_dir = $dir/dovecot/state
log_path = $dir/dovecot.log
protocols = imap lmtp
listen = 127.0.0.1
ssl = yes
ssl_cert = <$dir/cert.pem
ssl_key = <$dir/key.pem
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
mail_location = maildir:~/Maildir
mail_fsync = never
mail_max_userip_connections = 100
passdb {
$passdb
}
userdb {
$userdb
}
namespace inbox {
  inbox = yes
  mailbox Processed {
    auto = create
  }
  mailbox Sent {
    auto = create
    special_use = \\Sent
  }
}
service imap-login {
  inet_listener imap {
    port = $base
  }
  inet_listener imaps {
    port = $((base + 3))
  }
}
service lmtp {
  inet_listener lmtp {
    port = $((base + 2))
  }
}
# Postfix asks Dovecot to check SMTP logins (SASL) over this port.
service auth {
  inet_listener {
    port = $((base + 4))
  }
}
EOF
}

write_postfix_conf() {
	local dir=$1 base=$2 maps=$3 pf=$1/postfix
	cat >"$pf/main.cf" <<EOF
compatibility_level = 3.6
queue_directory = $pf/spool
data_directory = $pf/data
maillog_file = $dir/postfix.log
maillog_file_prefixes = $dir
mail_owner = postfix
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
myhostname = mail.judge.test
mydomain = judge.test
myorigin = judge.test
mydestination =
mynetworks = 127.0.0.0/8
alias_maps =
alias_database =
local_recipient_maps =
virtual_mailbox_domains = $DOMAINS
virtual_mailbox_maps = $maps
virtual_transport = lmtp:inet:127.0.0.1:$((base + 2))
smtpd_relay_restrictions = reject_unauth_destination
smtpd_recipient_restrictions = reject_unlisted_recipient
default_transport = error:no mail leaves the test servers
relay_transport = error:no mail leaves the test servers
smtpd_tls_cert_file = $dir/cert.pem
smtpd_tls_key_file = $dir/key.pem
smtpd_tls_security_level = may
smtpd_sasl_auth_enable = yes
smtpd_sasl_type = dovecot
smtpd_sasl_path = inet:127.0.0.1:$((base + 4))
smtpd_tls_auth_only = no
smtputf8_enable = no
biff = no
smtp_dns_support_level = disabled
EOF
	# Only the services a loopback relay into LMTP needs; tlsmgr is required for STARTTLS.
	cat >"$pf/master.cf" <<EOF
127.0.0.1:$((base + 1)) inet n - n - - smtpd
pickup    unix  n - n 60 1 pickup
cleanup   unix  n - n - 0 cleanup
qmgr      unix  n - n 300 1 qmgr
tlsmgr    unix  - - n 1000? 1 tlsmgr
rewrite   unix  - - n - - trivial-rewrite
bounce    unix  - - n - 0 bounce
defer     unix  - - n - 0 bounce
trace     unix  - - n - 0 bounce
verify    unix  - - n - 1 verify
flush     unix  n - n 1000? 0 flush
proxymap  unix  - - n - - proxymap
smtp      unix  - - n - - smtp
relay     unix  - - n - - smtp
showq     unix  n - n - - showq
error     unix  - - n - - error
retry     unix  - - n - - error
discard   unix  - - n - - discard
lmtp      unix  - - n - - lmtp
anvil     unix  - - n - 1 anvil
scache    unix  - - n - 1 scache
postlog   unix-dgram n - n - 1 postlogd
EOF
	# Postfix keeps re-reading a config file younger than a second before it starts.
	touch -d '-10 seconds' "$pf"/*
}

make_postfix_queue() {
	local spool=$1 q
	for q in active bounce corrupt defer deferred flush hold incoming private saved trace; do
		install -d -o postfix -g root -m 700 "$spool/$q"
	done
	install -d -o postfix -g postdrop -m 730 "$spool/maildrop"
	install -d -o postfix -g postdrop -m 710 "$spool/public"
	install -d -m 755 "$spool/pid"
}

wait_for_port() {
	local port=$1 i
	for i in $(seq 1 100); do
		(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0
		sleep 0.05
	done
	echo "mail-servers: nothing listens on port $port (see $D/*.log, $D/*.stderr)" >&2
	return 1
}

# The packages the servers come from, named in one line when one is missing.
PACKAGES="dovecot-imapd dovecot-lmtpd postfix openssl"

installed() {
	command -v dovecot >/dev/null && [ -x /usr/lib/postfix/sbin/master ] &&
		command -v openssl >/dev/null && getent passwd postfix >/dev/null
}

start() {
	local base=${1:?BASEPORT}
	shift
	case $base in '' | *[!0-9]*) usage ;; esac
	installed || {
		echo "mail-servers: Dovecot and Postfix are not installed: apt-get install $PACKAGES (scripts/test installs them when run as root)" >&2
		exit 3
	}
	mkdir -p "$D"/{dovecot,mail,postfix/spool,postfix/data}
	chown "$VMAIL_USER:$VMAIL_GROUP" "$D/mail"
	chown postfix "$D/postfix/data" # else Postfix's master exits without a word
	make_cert "$D"

	local passdb userdb maps a
	if [ $# -eq 0 ]; then
		passdb="  driver = static
  args = password=$PASSWORD"
		userdb="  driver = static
  args = uid=$VMAIL_USER gid=$VMAIL_GROUP home=$D/mail/%u allow_all_users=yes"
		maps="static:OK"
	else
		: >"$D/users"
		: >"$D/postfix/vmailbox"
		for a in "$@"; do
			echo "$a:{PLAIN}$PASSWORD::::::" >>"$D/users"
			echo "$a OK" >>"$D/postfix/vmailbox"
		done
		passdb="  driver = passwd-file
  args = scheme=PLAIN $D/users"
		userdb="  driver = passwd-file
  args = $D/users
  default_fields = uid=$VMAIL_USER gid=$VMAIL_GROUP home=$D/mail/%u"
		maps="texthash:$D/postfix/vmailbox"
	fi
	write_dovecot_conf "$D" "$base" "$passdb" "$userdb"
	write_postfix_conf "$D" "$base" "$maps"
	make_postfix_queue "$D/postfix/spool"

	# Both daemonize; their stdio goes to files so a caller capturing output returns at once.
	dovecot -c "$D/dovecot.conf" </dev/null >>"$D/dovecot.stderr" 2>&1
	MAIL_CONFIG="$D/postfix" /usr/lib/postfix/sbin/master -w </dev/null >>"$D/postfix.stderr" 2>&1
	echo "$base" >"$D/baseport"
	local p
	for p in "$base" $((base + 1)) $((base + 2)) $((base + 3)) $((base + 4)); do wait_for_port "$p"; done
}

# A process that has exited but not yet been reaped still answers kill -0; look at its state.
gone() {
	local st
	st=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 0
	[ "$st" = Z ]
}

stop() {
	local pids=() p i
	[ -s "$D/postfix/spool/pid/master.pid" ] && pids+=("$(tr -d ' \n' <"$D/postfix/spool/pid/master.pid")")
	[ -s "$D/dovecot/run/master.pid" ] && pids+=("$(tr -d ' \n' <"$D/dovecot/run/master.pid")")
	for p in "${pids[@]}"; do
		gone "$p" && continue
		# Each master leads its own process group: ending the group is fast and takes
		# the children (imap, lmtp, smtpd, ...) with it.
		if [ "$(awk '{print $5}' "/proc/$p/stat" 2>/dev/null)" = "$p" ]; then
			kill -TERM -- "-$p" 2>/dev/null || true
		else
			kill -TERM "$p" 2>/dev/null || true
		fi
	done
	for p in "${pids[@]}"; do
		for i in $(seq 1 250); do
			gone "$p" && break
			sleep 0.02
		done
	done
	rm -f "$D/postfix/spool/pid/master.pid" "$D/dovecot/run/master.pid"
}

cmd=${1:-}
[ -n "${2:-}" ] || usage
D=$(realpath -m "$2")
case $cmd in
start)
	shift 2
	start "$@"
	;;
stop) stop ;;
*) usage ;;
esac
