#!/usr/bin/env bash
# shellcheck disable=SC2317  # the steps are called through step(), which shellcheck does not follow
# Rehearses deploy/README.md on an arm64 Debian root made here, from an empty "SD card" to the
# service running under systemd, without a Pi: debootstrap + qemu-user-static (binfmt), a user pi
# with sudo as Raspberry Pi Imager makes, the install exactly as README step 4 says (the committed
# HEAD, cloned from a git bundle), then:
#   bookworm: the root booted with systemd-nspawn --boot: the service starts, the app reaches its main
#             loop, Restart= brings it back after SIGKILL, StateDirectory and the sandbox hold on the
#             live process, the udev rule matches a fake Pico (udevadm test), systemctl stop stops it;
#             then the installer is killed (SIGKILL) at each of its steps once, each time followed by
#             a rerun and --uninstall --purge, which must leave no user, group, file or unit behind.
#   trixie:   the same install in a chroot (its systemd 257 cannot start units under qemu 7.2).
# It prints a table of steps, times and results; exit status 1 if any step failed.
#
# Usage: sudo deploy/rehearse.sh [--suite bookworm|trixie|all] [--no-kills] [--work DIR]
# Needs: root, network to the Debian archive and PyPI, and
#   apt-get install qemu-user-static debootstrap binfmt-support systemd-container
# Minutes under emulation (the first run also debootstraps: about 10 more per suite). Not in CI.
# Roots and caches go to --work (default /var/tmp/table99-rehearsal), never into the checkout.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=/var/tmp/table99-rehearsal
SUITES=(bookworm trixie)
KILLS=1
MIRROR=${TABLE99_MIRROR:-http://deb.debian.org/debian}
SECURITY=${TABLE99_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
INCLUDE=systemd,systemd-sysv,dbus,udev,sudo,ca-certificates,git,iproute2

die() { printf 'rehearse.sh: error: %s\n' "$*" >&2; exit 2; }
say() { printf '\n== %s\n' "$*"; }

while [ $# -gt 0 ]; do
  case "$1" in
    --suite) [ $# -ge 2 ] || die "--suite needs bookworm, trixie or all"
      case "$2" in bookworm|trixie) SUITES=("$2") ;; all) ;; *) die "--suite must be bookworm, trixie or all, not '$2'" ;; esac
      shift ;;
    --no-kills) KILLS=0 ;;
    --work) [ $# -ge 2 ] || die "--work needs a directory"; WORK=$2; shift ;;
    -h|--help) sed -n '3,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option: $1 (see --help)" ;;
  esac
  shift
done
[ "$(id -u)" = 0 ] || die "run it as root (debootstrap, chroot, systemd-nspawn): sudo $0"
for tool in debootstrap qemu-aarch64-static systemd-nspawn nsenter chroot git; do
  command -v "$tool" >/dev/null || die "no $tool here: apt-get install qemu-user-static debootstrap binfmt-support systemd-container"
done
case "$WORK" in "$SRC"|"$SRC"/*) die "--work must be outside the checkout" ;; esac
mkdir -p "$WORK/debs"

# --- the table of results ---------------------------------------------------------------------

ROWS=()
FAILED=0
# step NAME COMMAND...: runs it, times it, records ok or FAILED (a failure does not stop the rest).
step() {
  local name=$1 start end result
  shift
  say "$name"
  start=$(date +%s.%N)
  if "$@"; then result=ok; else result=FAILED; FAILED=1; fi
  end=$(date +%s.%N)
  ROWS+=("$name|$(printf '%.0f' "$(echo "$end - $start" | bc)")|$result${NOTE:+ ($NOTE)}")
  NOTE=""
}
NOTE=""
table() {
  printf '\n| step | seconds | result |\n|---|---:|---|\n'
  local row
  for row in "${ROWS[@]}"; do
    IFS='|' read -r name seconds result <<<"$row"
    printf '| %s | %s | %s |\n' "$name" "$seconds" "$result"
  done
}

# --- the machine: binfmt for aarch64 ----------------------------------------------------------

binfmt() {
  local entry=/proc/sys/fs/binfmt_misc/qemu-aarch64
  [ -e /proc/sys/fs/binfmt_misc/register ] || mount -t binfmt_misc none /proc/sys/fs/binfmt_misc
  # F: the interpreter is opened now (it need not exist in the root); C: setuid programs (sudo)
  # keep their credentials (with update-binfmts' default "PF", sudo says "effective uid is not 0").
  if [ -e "$entry" ] && ! grep -q '^flags: .*F' "$entry" || { [ -e "$entry" ] && ! grep -q '^flags: .*C' "$entry"; }; then
    echo -1 >"$entry"
  fi
  if [ ! -e "$entry" ]; then
    local interpreter=/usr/libexec/qemu-binfmt/aarch64-binfmt-P
    [ -e "$interpreter" ] || interpreter=$(command -v qemu-aarch64-static)
    printf '%s' ':qemu-aarch64:M:0:\x7f\x45\x4c\x46\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00:\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff:'"$interpreter"':POCF' \
      >/proc/sys/fs/binfmt_misc/register
  fi
  grep -q '^flags: POCF' "$entry"
}

# --- roots --------------------------------------------------------------------------------------

# The empty SD card: a debootstrapped base, made once per suite and copied for every rehearsal.
fresh_root() {
  local suite=$1
  local base=$WORK/base-$suite root=$WORK/root-$suite
  if [ ! -d "$base" ]; then
    rm -rf "$base.tmp"
    debootstrap --arch=arm64 --variant=minbase --include="$INCLUDE" --cache-dir="$WORK/debs" \
      "$suite" "$base.tmp" "$MIRROR" >"$WORK/debootstrap-$suite.log" 2>&1 \
      || { tail -n 20 "$WORK/debootstrap-$suite.log"; return 1; }
    mv "$base.tmp" "$base"
  fi
  ROOT=$root kill_in_root
  rm -rf "$root"
  cp -a "$base" "$root"
  ROOT=$root
  # What Raspberry Pi Imager and first boot set up: a host name, the user pi with sudo (no password,
  # as Raspberry Pi OS's 010_pi-nopasswd), the archive. And this machine's way to the registries:
  # its apt settings and CA bundle (apt and pip inside then reach what they reach here).
  echo "table99-$suite" >"$ROOT/etc/hostname"
  # (a chroot shares this machine's host name: sudo inside wants to resolve it)
  printf '127.0.0.1 localhost\n127.0.1.1 table99-%s %s\n' "$suite" "$(hostname)" >"$ROOT/etc/hosts"
  cat >"$ROOT/etc/apt/sources.list" <<EOF
deb $MIRROR $suite main
deb $MIRROR $suite-updates main
deb $SECURITY $suite-security main
EOF
  local conf
  for conf in /etc/apt/apt.conf.d/*; do
    grep -q '^ *Acquire' "$conf" 2>/dev/null && cp "$conf" "$ROOT/etc/apt/apt.conf.d/"
  done
  cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"
  cp -L /etc/ssl/certs/ca-certificates.crt "$ROOT/etc/ssl/table99-host-ca.crt"
  {
    echo "[global]"
    echo "cert = /etc/ssl/table99-host-ca.crt"
    echo "timeout = ${PIP_DEFAULT_TIMEOUT:-60}"
    [ -z "${PIP_INDEX_URL:-}" ] || echo "index-url = $PIP_INDEX_URL"
  } >"$ROOT/etc/pip.conf"
  chroot "$ROOT" useradd --create-home --shell /bin/bash --groups sudo pi
  echo 'pi ALL=(ALL) NOPASSWD: ALL' >"$ROOT/etc/sudoers.d/010_pi-nopasswd"
  chmod 0440 "$ROOT/etc/sudoers.d/010_pi-nopasswd"
  # the repository, as "git clone" will see it: the committed HEAD of this checkout
  git -C "$SRC" bundle create "$ROOT/srv/table99.bundle" HEAD >/dev/null 2>&1
}

MOUNTED=()
mount_root() {
  local target
  for target in proc sys dev dev/pts; do
    mountpoint -q "$ROOT/$target" && continue
    case "$target" in
      proc) mount -t proc proc "$ROOT/proc" ;;
      sys) mount --rbind /sys "$ROOT/sys"; mount --make-rslave "$ROOT/sys" ;;
      dev) mount --bind /dev "$ROOT/dev" ;;
      dev/pts) mount -t devpts devpts "$ROOT/dev/pts" -o newinstance,ptmxmode=0666 ;;
    esac
    MOUNTED=("$ROOT/$target" "${MOUNTED[@]}")
  done
}
umount_root() {
  local target
  for target in "${MOUNTED[@]}"; do umount -R "$target" 2>/dev/null || umount -l "$target" || true; done
  MOUNTED=()
}

# as_pi COMMAND: a login shell of pi's in the root, in pi's home, as over ssh.
as_pi() {
  chroot "$ROOT" /usr/bin/env -i TERM=dumb LANG=C.UTF-8 /bin/su - pi -c "$1"
}
as_root() {
  chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"
}

# --- README step 4, in its own words ------------------------------------------------------------

readme_commands() {
  awk '/^## 4\. Install/{on=1} on && /^```sh/{code=1; next} code && /^```/{exit} code' "$SRC/deploy/README.md" \
    | sed 's/[[:space:]]\{2,\}#.*$//'
}

# The commands the installer printed to the person installing it ("...: COMMAND").
printed_config_check() {
  sed -n 's/^install\.sh: done\. Check the config with: //p' "$1" | tail -n 1
}

readme_install() {
  local suite=$1 line
  local log=$WORK/install-$suite.log
  : >"$log"
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    case "$line" in
      *"sudo nano "*) echo "(skipped, an editor: $line)"; continue ;;
      "sudo reboot"*) echo "(the reboot is the boot step)"; continue ;;
    esac
    line=${line//<the Table99 repository>//srv/table99.bundle}
    echo "pi\$ $line"
    as_pi "$line" 2>&1 | tee -a "$log" | tail -n 30
    [ "${PIPESTATUS[0]}" = 0 ] || { echo "FAILED: $line"; return 1; }
  done < <(readme_commands)
}

# Every command the installer and README step 4 print for the config works as pi, exactly as printed,
# and names the service's data directory; nothing appears in pi's home.
printed_commands_work() {
  local suite=$1 printed readme out
  printed=$(printed_config_check "$WORK/install-$suite.log")
  readme=$(readme_commands | grep ' config$')
  [ -n "$printed" ] || { echo "the installer printed no config check"; return 1; }
  for command in "$printed" "$readme"; do
    echo "pi\$ $command"
    out=$(as_pi "$command" 2>&1) || { echo "$out"; echo "FAILED as pi: $command"; return 1; }
    echo "$out" | head -n 3
    grep -q "/var/lib/table99" <<<"$out" || { echo "it does not name /var/lib/table99"; return 1; }
  done
  [ ! -e "$ROOT/home/pi/.local/share/table99" ] || { echo "it made /home/pi/.local/share/table99"; return 1; }
}

# What the root holds that an install could leave: files under /etc /opt /var/lib /usr/local (less
# apt's and systemd's own bookkeeping), users, groups and their members.
footprint() {
  (cd "$ROOT" && find etc opt var/lib usr/local srv -xdev \
      \( -path var/lib/apt -o -path var/lib/dpkg -o -path var/lib/systemd -o -path etc/ld.so.cache \
         -o -path var/lib/ucf -o -path var/lib/sudo -o -path 'etc/*-' -o -path etc/.pwd.lock \) -prune \
      -o -printf '%p %M %u:%g\n' | LC_ALL=C sort)
  cut -d: -f1 "$ROOT/etc/passwd" | sed 's/^/user /'
  cut -d: -f1,4 "$ROOT/etc/group" | sed 's/^/group /'
  cut -d: -f1,4 "$ROOT/etc/gshadow" | sed 's/^/gshadow /'
}

purge_leaves_nothing() {
  local before=$1 after=$WORK/footprint-after
  footprint >"$after"
  if ! diff -u "$before" "$after"; then echo "left behind (see the diff above)"; return 1; fi
}

# --- the booted root ------------------------------------------------------------------------------

NSPAWN=""
INIT=""
boot() {
  local suite=$1 pid
  # The container has no tty1 and no screen: the rehearsal's own drop-in (never shipped) runs the
  # same unit offscreen. Everything else is the installed unit, sandbox included.
  mkdir -p "$ROOT/etc/systemd/system/table99.service.d"
  cat >"$ROOT/etc/systemd/system/table99.service.d/rehearsal.conf" <<'EOF'
# Written by deploy/rehearse.sh: a container has no tty1 and no DRM screen.
[Unit]
ConditionPathExists=
[Service]
TTYPath=
TTYReset=no
TTYVHangup=no
StandardInput=null
Environment=SDL_VIDEODRIVER=offscreen
EOF
  systemd-nspawn --boot --register=no --keep-unit --console=passive --machine="table99-$suite" \
    -D "$ROOT" >"$WORK/nspawn-$suite.log" 2>&1 &
  NSPAWN=$!
  for _ in $(seq 1 120); do
    sleep 1
    # the container's systemd: the descendant of nspawn in another PID namespace
    for pid in $(pgrep -P "$NSPAWN") $(pgrep -P "$(pgrep -P "$NSPAWN" | head -n 1)" 2>/dev/null); do
      if [ "$(readlink "/proc/$pid/ns/pid")" != "$(readlink /proc/self/ns/pid)" ]; then INIT=$pid; break; fi
    done
    [ -n "$INIT" ] || continue
    case "$(inside systemctl is-system-running 2>/dev/null)" in running|degraded) return 0 ;; esac
  done
  echo "the container did not come up"; return 1
}
inside() { nsenter -t "$INIT" -a /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }
main_pid() { inside systemctl show -p MainPID --value table99.service; }

wait_main_loop() {  # wait_main_loop SINCE_PID: the app of a MainPID other than that logs its main loop
  local old=$1 pid
  for _ in $(seq 1 240); do
    pid=$(main_pid)
    if [ "$pid" != 0 ] && [ "$pid" != "$old" ] \
        && inside journalctl -u table99 -o cat "_PID=$pid" 2>/dev/null | grep -q "Start application main loop"; then
      return 0
    fi
    sleep 0.5
  done
  return 1
}

service_starts() {
  local start=$SECONDS
  as_pi_inside "sudo systemctl start table99" || return 1  # as the installer printed it
  inside systemctl is-active table99 || { inside journalctl -u table99 --no-pager | tail -n 30; return 1; }
  wait_main_loop 0 || { inside journalctl -u table99 --no-pager | tail -n 30; return 1; }
  NOTE="main loop $((SECONDS - start)) s after start"
}
as_pi_inside() { inside su - pi -c "$1"; }

sandbox_holds() {
  local pid host_pid status
  pid=$(main_pid)
  # the container's PID as this machine sees it
  host_pid=$(grep -lE "^NSpid:[[:space:]]+[0-9]+[[:space:]]+$pid\$" /proc/[0-9]*/status 2>/dev/null | head -n 1 | cut -d/ -f3)
  [ -n "$host_pid" ] || { echo "no process $pid"; return 1; }
  status=$(cat "/proc/$host_pid/status")
  echo "$status" | grep -E '^(Uid|Gid|NoNewPrivs|Seccomp|CapEff|CapBnd):'
  grep -q "^Uid:[[:space:]]*$(inside id -u table99)[[:space:]]" <<<"$status" || { echo "not running as table99"; return 1; }
  grep -q '^NoNewPrivs:[[:space:]]*1' <<<"$status" || return 1
  grep -q '^Seccomp:[[:space:]]*2' <<<"$status" || return 1
  grep -q '^CapEff:[[:space:]]*0000000000000000' <<<"$status" || return 1
  grep -q '^CapBnd:[[:space:]]*0000000000000000' <<<"$status" || return 1
  # ProtectSystem=strict: / read-only for it; StateDirectory: /var/lib/table99 its own, writable
  local mounts
  mounts=$(cat "/proc/$host_pid/mountinfo")
  awk '$5 == "/" {print $6}' <<<"$mounts" | tail -n 1 | grep -q '^ro' || { echo "/ is writable for it"; return 1; }
  awk '$5 == "/var/lib/table99" {print $6}' <<<"$mounts" | tail -n 1 | grep -q '^rw' \
    || { echo "/var/lib/table99 is not a writable mount for it"; return 1; }
  inside stat -c '%U:%G %a %n' /var/lib/table99 /var/lib/table99/games.sqlite3
  [ "$(inside stat -c '%U:%G %a' /var/lib/table99)" = "table99:table99 2770" ] || return 1
  [ "$(inside stat -c '%U' /var/lib/table99/games.sqlite3)" = table99 ] || return 1
}

comes_back_after_sigkill() {
  local old start
  old=$(main_pid)
  start=$(date +%s.%N)
  inside systemctl kill --kill-who=main --signal=SIGKILL table99
  for _ in $(seq 1 100); do
    sleep 0.1
    local pid
    pid=$(main_pid)
    if [ "$pid" != 0 ] && [ "$pid" != "$old" ] && [ "$(inside systemctl is-active table99)" = active ]; then
      local took
      took=$(echo "$(date +%s.%N) - $start" | bc)
      NOTE="active again after $(printf '%.1f' "$took") s"
      wait_main_loop "$old" || { echo "no main loop after the restart"; return 1; }
      [ "$(echo "$took <= 10" | bc)" = 1 ]
      return
    fi
  done
  echo "not back within 10 s"; return 1
}

stops() {
  local start took
  start=$(date +%s.%N)
  inside systemctl stop table99
  took=$(echo "$(date +%s.%N) - $start" | bc)
  NOTE="stopped in $(printf '%.1f' "$took") s"
  [ "$(inside systemctl is-active table99)" != active ] || return 1
  inside journalctl -u table99 -o short-precise --no-pager | tail -n 4
  [ "$(echo "$took <= 5" | bc)" = 1 ]
}

# The printed "sudo systemctl ..." work as pi (start was checked above).
pi_can_stop_and_start() {
  as_pi_inside "sudo systemctl stop table99" && [ "$(inside systemctl is-active table99)" != active ] \
    && as_pi_inside "sudo systemctl start table99" && inside systemctl is-active table99
}

# The rule against a fake Pico: a sysfs tree of its own (tmpfs over /sys, /dev and /run of the root, in
# a private mount namespace) with a USB parent 2e8a:0005 and a ttyACM child, and a CH340 (1a86:7523)
# beside it; udevadm test prints what the rules make of each. (systemd checks that a device is on a
# real sysfs: SYSTEMD_DEVICE_VERIFY_SYSFS=0 lets it read the fake one.)
fake_serial() {  # fake_serial VENDOR PRODUCT: udevadm test's words for that device
  # shellcheck disable=SC2016  # the script's $variables are the inner shell's
  unshare --mount --propagation private /bin/sh -c '
    set -e
    for dir in sys dev run; do mount -t tmpfs none "$1/$dir"; done
    exec chroot "$1" /bin/sh -c "
      usb=/sys/devices/platform/fake/usb1/1-1; tty=\$usb/1-1:1.0/tty/ttyACM7
      mkdir -p \$tty /sys/bus/usb /sys/class/tty
      : >\$usb/uevent; : >\$usb/1-1:1.0/uevent
      echo $2 >\$usb/idVendor; echo $3 >\$usb/idProduct
      ln -s /sys/bus/usb \$usb/subsystem; ln -s /sys/class/tty \$tty/subsystem
      printf \"MAJOR=166\\nMINOR=7\\nDEVNAME=ttyACM7\\n\" >\$tty/uevent
      SYSTEMD_DEVICE_VERIFY_SYSFS=0 udevadm test --action=add \$tty 2>&1"' sh "$ROOT" "$1" "$2"
}

udev_rule_matches() {
  local pico other
  pico=$(fake_serial 2e8a 0005)
  other=$(fake_serial 1a86 7523)
  # systemd 252 prints "LINK 'table99-board'" and DEVLINKS=; 257 "Added SYMLINK 'table99-board'",
  # its properties indented
  grep -E "99-table99-board.rules|DEVLINKS|ID_MM" <<<"$pico"
  if ! grep -Eq "LINK 'table99-board'|^ *DEVLINKS=.*/dev/table99-board" <<<"$pico" \
      || ! grep -Eq '^ *ID_MM_DEVICE_IGNORE=1' <<<"$pico"; then
    echo "the Pico got no /dev/table99-board"; return 1
  fi
  if grep -Eq "LINK 'table99-board'|^ *DEVLINKS=.*table99-board" <<<"$other"; then
    echo "another serial adapter got /dev/table99-board"; return 1
  fi
  NOTE="Pico linked, a CH340 not"
}

poweroff() {
  [ -n "$NSPAWN" ] || return 0
  inside systemctl poweroff || true
  for _ in $(seq 1 60); do kill -0 "$NSPAWN" 2>/dev/null || break; sleep 1; done
  if kill -0 "$NSPAWN" 2>/dev/null; then kill "$NSPAWN"; sleep 2; fi
  NSPAWN="" INIT=""
  rm -f "$ROOT/etc/systemd/system/table99.service.d/rehearsal.conf"
  rmdir "$ROOT/etc/systemd/system/table99.service.d" 2>/dev/null || true
}

# --- killed at every step -----------------------------------------------------------------------

INSTALL=/home/pi/table99/deploy/install.sh
# The kill loop runs with --no-apt: apt's packages are there already (and are not Table99's to remove),
# and apt-get update under emulation would take most of each round.
installer() {
  chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 bash "$INSTALL" "$@"
}
# One kill per step of the installer: just after it says it did the step's first thing, while it goes
# on with the next. (pip takes minutes here, so killing after every line would take an hour more.)
KILL_POINTS=(
  "mode: "                                  # decided the mode, about to record and make the user
  "created the service user"                # the user made, the groups next
  "added .* to the group"                   # the first group added, the others next
  "made /etc/table99"                       # the config next
  "made /var/lib/table99"                   # the data directory made, chown next
  "wrote /etc/udev/rules.d/"                # the udev rule, then udevadm
  "made the virtual environment"            # the venv made, the lock next
  "installing Table99 and its pinned"       # pip running
  "wrote /etc/systemd/system/table99.service"  # the unit written, enabling next
  "enabled table99.service"                 # enabled, the end next
)
# install_killed_at PATTERN: the installer as root, killed (SIGKILL, with everything it started) as
# soon as it has printed a line matching PATTERN; returns 0 if it was killed, 1 if it ended first.
install_killed_at() {
  local pattern=$1 out=$WORK/killed.log pid
  : >"$out"
  setsid chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
    bash "$INSTALL" --no-apt >"$out" 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    if grep -q "^install\.sh: $pattern" "$out"; then
      kill -9 -- "-$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
      return 0
    fi
    sleep 0.05
  done
  wait "$pid" 2>/dev/null || true
  return 1
}

second_run_changes_nothing() {
  installer >"$WORK/second.log" 2>&1 || { tail -n 5 "$WORK/second.log"; return 1; }
  grep '^install\.sh:' "$WORK/second.log"
  grep -q 'nothing to do' "$WORK/second.log"
}

kills_leave_nothing() {
  local baseline=$WORK/footprint-baseline lines pattern bad=0
  # a clean slate: Table99 installed once and purged (apt's packages stay, as they do on a Pi)
  installer --uninstall --purge >/dev/null
  footprint >"$baseline"
  installer --no-apt >"$WORK/full.log" 2>&1
  lines=$(grep -c '^install\.sh:' "$WORK/full.log")
  installer --uninstall --purge >/dev/null
  purge_leaves_nothing "$baseline" >/dev/null || { echo "a plain install + purge leaves things"; return 1; }
  for pattern in "${KILL_POINTS[@]}"; do
    install_killed_at "$pattern" || { echo "the installer ended before saying '$pattern'"; bad=1; continue; }
    echo "killed after: $(grep "^install\.sh: $pattern" "$WORK/killed.log" | head -n 1)"
    if ! installer --no-apt >"$WORK/rerun.log" 2>&1; then
      echo "  the rerun failed:"; tail -n 5 "$WORK/rerun.log"; bad=1
    fi
    installer --uninstall --purge >"$WORK/purge.log" 2>&1 || { echo "  the purge failed"; bad=1; }
    if ! purge_leaves_nothing "$baseline"; then echo "  ...after a kill after '$pattern'"; bad=1; fi
  done
  NOTE="${#KILL_POINTS[@]} kill points, $lines lines in a whole run"
  return "$bad"
}

# --- the rehearsal --------------------------------------------------------------------------------

# Whatever still runs in the root (sudo's commands have their own session, so a stopped rehearsal
# can leave them behind).
kill_in_root() {
  [ -n "${ROOT:-}" ] || return 0
  local proc
  for proc in /proc/[0-9]*; do
    [ "$(readlink "$proc/root" 2>/dev/null)" = "$ROOT" ] && kill -9 "${proc#/proc/}" 2>/dev/null
  done
  return 0
}

cleanup() {
  poweroff 2>/dev/null || true
  kill_in_root
  umount_root
}
trap cleanup EXIT

step "binfmt: qemu-aarch64 with POCF" binfmt
for suite in "${SUITES[@]}"; do
  ROOT=""
  step "$suite: fresh arm64 root (debootstrap, user pi)" fresh_root "$suite" || true
  [ -n "$ROOT" ] || continue
  mount_root
  BEFORE=$WORK/footprint-before-$suite
  step "$suite: README step 4 as pi (apt, clone, install.sh)" readme_install "$suite"
  step "$suite: the printed config checks work as pi" printed_commands_work "$suite"
  step "$suite: second run changes nothing" second_run_changes_nothing
  step "$suite: udev rule matches a fake Pico (udevadm test)" udev_rule_matches
  if [ "$suite" = bookworm ]; then
    umount_root
    if step "$suite: boot (systemd-nspawn --boot)" boot "$suite"; then
      step "$suite: service starts, app reaches its main loop" service_starts
      step "$suite: sandbox and StateDirectory on the live process" sandbox_holds
      step "$suite: Restart= after SIGKILL (<= 10 s)" comes_back_after_sigkill
      step "$suite: systemctl stop (<= 5 s)" stops
      step "$suite: pi's sudo systemctl stop / start" pi_can_stop_and_start
    fi
    step "$suite: poweroff" poweroff
    mount_root
    if [ "$KILLS" = 1 ]; then
      step "$suite: killed at every step, rerun, purge: nothing left" kills_leave_nothing
    fi
  fi
  footprint >"$BEFORE"
  step "$suite: --uninstall --purge (README's words) leaves nothing of Table99" \
    bash -c "chroot '$ROOT' /bin/su - pi -c 'sudo table99/deploy/install.sh --uninstall --purge' >/dev/null \
      && ! chroot '$ROOT' getent passwd table99 && ! chroot '$ROOT' getent group table99 \
      && ! ls -d '$ROOT'/opt/table99 '$ROOT'/etc/table99 '$ROOT'/var/lib/table99 \
           '$ROOT'/etc/systemd/system/table99.service* '$ROOT'/etc/udev/rules.d/99-table99-board.rules \
           '$ROOT'/etc/systemd/system/multi-user.target.wants/table99.service 2>/dev/null"
  umount_root
done
table
exit "$FAILED"
