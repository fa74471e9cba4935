#!/usr/bin/env bash
# Sets up a club hub Pi: Mosquitto with a user and an ACL per table, and the table99-hub service.
# Run it after deploy/install.sh (which installs Table99 in /opt/table99), from the checkout:
#
#   sudo deploy/club/setup-hub.sh --tables "t1 t2 t3"    broker users t1..t3 and the hub
#   deploy/club/setup-hub.sh --root /tmp/scratch --tables "t1"   rehearse into a scratch directory
#
# Safe to run again: a table that already has a password keeps it; new tables are added to the
# ones set up before (every /etc/table99/club/<table>.password), never in their place. Each
# table's password is printed once and kept in /etc/table99/club/<table>.password (0600, root):
# put it in that table's config.toml, [club] password = "...". To drop a table, delete its
# password file and run the script again.
# Scratch-root mode (--root DIR): every file goes under DIR; apt-get and systemctl are skipped and
# logged, unless $TABLE99_STUBS names a directory holding an executable of that name.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ROOT=/
TABLES=""
STUBS=${TABLE99_STUBS:-}

die() { printf 'setup-hub.sh: error: %s\n' "$*" >&2; exit 1; }
log() { printf 'setup-hub.sh: %s\n' "$*"; }

while [ $# -gt 0 ]; do
  case "$1" in
    --root) [ $# -ge 2 ] || die "--root needs a directory"; ROOT=$2; shift 2 ;;
    --tables) [ $# -ge 2 ] || die "--tables needs a list of names"; TABLES=$2; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) die "unknown option $1 (see --help)" ;;
  esac
done
[ -n "$TABLES" ] || die "--tables is required, e.g. --tables \"t1 t2 t3\""
for t in $TABLES; do
  [[ "$t" =~ ^[A-Za-z0-9_-]{1,32}$ ]] || die "table name '$t': 1-32 letters, digits, - or _"
  [ "$t" != hub ] || die "table name 'hub' is the hub's own"
done
[ "$ROOT" = / ] || { mkdir -p "$ROOT"; ROOT=$(cd "$ROOT" && pwd); }
[ "$ROOT" != / ] || [ "$(id -u)" = 0 ] || die "run as root (or rehearse with --root DIR)"
at() { printf '%s%s' "${ROOT%/}" "$1"; }

# run a system-changing command, or (scratch root) log it / run its stub
system() {
  if [ "$ROOT" = / ]; then "$@"; return; fi
  if [ -n "$STUBS" ] && [ -x "$STUBS/$1" ]; then "$STUBS/$1" "$@"; return; fi
  log "skipped (scratch root): $*"
}

if ! command -v mosquitto_passwd >/dev/null 2>&1 || [ ! -x /usr/sbin/mosquitto ]; then
  system apt-get install -y --no-install-recommends mosquitto mosquitto-clients
fi

umask 077
mkdir -p "$(at /etc/mosquitto/conf.d)" "$(at /etc/table99/club)" "$(at /etc/systemd/system)"
# the hub service runs as table99 and reads its password in here: group table99 may enter (0750)
chmod 750 "$(at /etc/table99/club)"
secret() { # the existing password of $1, else a new random one
  local file; file=$(at "/etc/table99/club/$1.password")
  if [ ! -s "$file" ]; then
    head -c 18 /dev/urandom | base64 | tr -d '/+=' > "$file"
    chmod 600 "$file"
    [ "$1" = hub ] || log "new password for table $1: $(cat "$file")  (its config.toml: [club] password)" >&2
  fi
  cat "$file"
}

# the tables set up before (their password files) stay, in front: --tables adds to them
all=""
for file in "$(at /etc/table99/club)"/*.password; do
  [ -e "$file" ] || continue
  t=$(basename "$file" .password)
  if [[ "$t" =~ ^[A-Za-z0-9_-]{1,32}$ ]] && [ "$t" != hub ]; then all="$all $t"; fi
done
for t in $TABLES; do
  case "$all " in *" $t "*) ;; *) all="$all $t" ;; esac
done
TABLES=${all# }

passwd=$(at /etc/mosquitto/table99.passwd)
acl=$(at /etc/mosquitto/table99.acl)
new_passwd=$(mktemp "$passwd.XXXX")
{
  printf '# Table99 club hub ACL, written by deploy/club/setup-hub.sh (docs/club.md)\n'
  printf 'user hub\ntopic read table99/#\ntopic write table99/hub/ack/#\n\n'
} > "$acl.new"
for user in hub $TABLES; do
  pw=$(secret "$user")
  if command -v mosquitto_passwd >/dev/null 2>&1; then
    mosquitto_passwd -b "$new_passwd" "$user" "$pw" >/dev/null
  else
    system mosquitto_passwd -b "$new_passwd" "$user" "(password)"
  fi
  # exactly the three topics a table sends: with table99/<t>/# it could retain on any number of
  # subtopics, each kept by the broker (and in mosquitto.db) for ever
  [ "$user" = hub ] || printf 'user %s\ntopic write table99/%s/state\ntopic write table99/%s/event\ntopic write table99/%s/record\ntopic read table99/hub/ack/%s\n\n' \
    "$user" "$user" "$user" "$user" "$user" >> "$acl.new"
done
mv "$new_passwd" "$passwd"
mv "$acl.new" "$acl"
chmod 640 "$passwd" "$acl"
system chgrp mosquitto "$passwd" "$acl"
install -m 644 "$SRC/deploy/club/mosquitto-table99.conf" "$(at /etc/mosquitto/conf.d/table99.conf)"
install -m 644 "$SRC/deploy/club/table99-hub.service" "$(at /etc/systemd/system/table99-hub.service)"
if [ "$ROOT" = / ]; then
  { chgrp table99 /etc/table99/club && chown table99:table99 /etc/table99/club/hub.password; } 2>/dev/null \
    || log "no table99 user yet: run deploy/install.sh first"
fi
system systemctl daemon-reload
system systemctl enable --now mosquitto table99-hub
system systemctl restart mosquitto
log "done: broker users hub $TABLES; the hub page on port 8098 (docs/club.md)"
