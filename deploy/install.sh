#!/usr/bin/env bash
# Turns Raspberry Pi OS (Bookworm) into a Table99 appliance: the app comes up full screen at power-on,
# comes back when it crashes, and logs to the journal. Run it from a checkout of Table99:
#
#   sudo deploy/install.sh                    install or update (safe to run again: changes nothing then)
#   sudo deploy/install.sh --rotation 180     ... for a screen mounted upside down
#   sudo deploy/install.sh --uninstall        remove it all (games are kept unless --purge)
#   deploy/install.sh --root /tmp/scratch     rehearse into a scratch directory (see below)
#
# Scratch-root mode (--root DIR): every file goes under DIR and nothing on this machine changes.
# Commands that would change the system (apt-get, useradd, systemctl start, udevadm, chown...) are
# skipped and logged, unless $TABLE99_STUBS names a directory holding an executable of that name,
# which then runs instead (the tests use this). Enabling the unit is done with "systemctl --root",
# which only writes symlinks under DIR.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DEPLOY="$SRC/deploy"
ROOT=/
ACTION=install
PURGE=0
SERVICE_USER=""  # default: the one an earlier run used, else table99
MODE=auto
DESKTOP_USER=""
ROTATION=""
USE_APT=1
REQUIRE_CAMERA=0
STUBS=${TABLE99_STUBS:-}
# What goes into the Python package (pyproject.toml's packages, plus what it reads to build).
PACKAGE_PARTS=(pyproject.toml README.md rules hardware firmware_bridge vision app deploy)
# gpio: the GPIO chips; dialout: the Pico's serial port; video, render: the KMS/DRM screen; input: the
# touch panel; audio: ALSA's sound devices for the spoken announcements ([app] sound = true), which a
# service outside a desktop session gets no other way.
GROUPS_WANTED=(gpio dialout video render input audio)
# System packages. "a|b": the first of these names the archive has (Debian 13 renamed some: t64).
APT_PACKAGES=(
  python3 python3-venv python3-numpy python3-serial
  libgl1 libegl1 libgles2 libgbm1 libdrm2 libgl1-mesa-dri "libmtdev1t64|libmtdev1" libudev1 "libasound2t64|libasound2"
  espeak-ng
)
# Only in the Raspberry Pi archive (archive.raspberrypi.com), which Raspberry Pi OS has and plain
# Debian has not: without them the install goes on, and says once what is then off.
APT_OPTIONAL=(python3-lgpio python3-picamera2)
optional_loss() {
  case "$1" in
    python3-lgpio) echo "gpiozero's lgpio pin factory is off (a GPIO board on a Pi 5 needs it; older Pis fall back to gpiozero's native pins)" ;;
    python3-picamera2) echo "the Pi camera is off (--camera picamera; a USB camera through OpenCV still works)" ;;
  esac
}

usage() {
  cat <<'EOF'
Usage: deploy/install.sh [options]
  --uninstall          remove Table99 (program, service, config, udev rule, service user)
  --purge              with --uninstall: also delete the games in /var/lib/table99
  --mode MODE          console (KMS/DRM on tty1), desktop (autostart in the desktop session) or
                       auto (desktop when a display manager is enabled; the default)
  --desktop-user NAME  desktop mode: whose session starts Table99 (default: the autologin user)
  --rotation DEGREES   0, 90, 180 or 270: turn the picture (and the touches) for the screen's mounting
  --user NAME          the service user (default: table99)
  --no-apt             do not install system packages (offline re-install)
  --require-camera     stop when apt has no python3-picamera2 (default: install without the Pi camera)
  --root DIR           scratch root: install under DIR, change nothing else (for rehearsals and tests)
  -h, --help           this help
EOF
}

die() { printf 'install.sh: error: %s\n' "$*" >&2; exit 1; }
log() { printf 'install.sh: %s\n' "$*"; }

while [ $# -gt 0 ]; do
  case "$1" in
    --uninstall) ACTION=uninstall ;;
    --purge) PURGE=1 ;;
    --mode) [ $# -ge 2 ] || die "--mode needs a value"; MODE=$2; shift ;;
    --desktop-user) [ $# -ge 2 ] || die "--desktop-user needs a name"; DESKTOP_USER=$2; shift ;;
    --rotation) [ $# -ge 2 ] || die "--rotation needs a value"; ROTATION=$2; shift ;;
    --user) [ $# -ge 2 ] || die "--user needs a name"; SERVICE_USER=$2; shift ;;
    --no-apt) USE_APT=0 ;;
    --require-camera) REQUIRE_CAMERA=1 ;;
    --root) [ $# -ge 2 ] || die "--root needs a directory"; ROOT=$2; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option: $1" ;;
  esac
  shift
done

case "$MODE" in auto|console|desktop) ;; *) die "--mode must be auto, console or desktop, not '$MODE'" ;; esac
case "$ROTATION" in ""|0|90|180|270) ;; *) die "--rotation must be 0, 90, 180 or 270, not '$ROTATION'" ;; esac
[ "$PURGE" = 0 ] || [ "$ACTION" = uninstall ] || die "--purge only goes with --uninstall"

if [ "$ROOT" = / ]; then
  SCRATCH=0
  R=""
  [ "$(id -u)" = 0 ] || die "run it as root: sudo $0 $*"
else
  [ -d "$ROOT" ] || die "--root $ROOT: no such directory"
  SCRATCH=1
  R=$(cd "$ROOT" && pwd)
  log "scratch root $R: nothing outside it changes"
fi

# Where things land (without the scratch prefix: these are the paths on the Pi).
UNIT=/etc/systemd/system/table99.service
DROPIN_DIR=/etc/systemd/system/table99.service.d
ROTATION_DROPIN=$DROPIN_DIR/rotation.conf
USER_DROPIN=$DROPIN_DIR/user.conf
UDEV_RULE=/etc/udev/rules.d/99-table99-board.rules
CONFIG_DIR=/etc/table99
APP_DIR=/opt/table99
VENV=$APP_DIR/venv
STATE=$APP_DIR/install-state
DATA_DIR=/var/lib/table99
AUTOSTART=/etc/xdg/autostart/table99.desktop
DESKTOP_LAUNCHER=$APP_DIR/bin/table99-desktop

# --- running commands -------------------------------------------------------------------------

# True in a scratch root that has no stand-in for the command $1 in $TABLE99_STUBS.
no_stand_in() {
  [ "$SCRATCH" = 1 ] && { [ -z "$STUBS" ] || [ ! -x "$STUBS/$1" ]; }
}

# The command itself, or in a scratch root its stand-in.
run_or_stand_in() {
  local name=$1
  shift
  if [ "$SCRATCH" = 1 ]; then "$STUBS/$name" "$@"; else "$name" "$@"; fi
}

# A command that changes the system: skipped (or stubbed) in a scratch root.
sys() {
  if no_stand_in "$1"; then
    log "scratch root: skipped: $*"
    return 0
  fi
  run_or_stand_in "$@"
}

# A question to the system; in a scratch root without a stub the answer is "no" (status 1).
ask() {
  if no_stand_in "$1"; then return 1; fi
  run_or_stand_in "$@"
}

# systemctl for unit files: offline with --root in a scratch root (it only writes symlinks there).
unit_files() {
  if [ "$SCRATCH" = 1 ]; then
    command -v systemctl >/dev/null 2>&1 || { log "scratch root: no systemctl here; skipped: $*"; return 0; }
    systemctl --root="$R" --quiet "$@"
  else
    systemctl --quiet "$@"
  fi
}

# Whether systemd runs this system (sd_booted's test). Not in a chroot or an image being prepared:
# the unit then takes effect when that system boots. In a scratch root the stand-ins answer.
systemd_running() {
  [ "$SCRATCH" = 1 ] || [ -d /run/systemd/system ]
}

unit_enabled() {
  if [ "$SCRATCH" = 1 ]; then
    [ -L "$R/etc/systemd/system/multi-user.target.wants/table99.service" ]
  else
    systemctl --quiet is-enabled table99.service 2>/dev/null
  fi
}

# --- files ------------------------------------------------------------------------------------

CHANGED=0  # how many things this run changed
LAST=0     # whether the last put_file changed anything

# put_file SOURCE DEST MODE: copy only when content or mode differ, so a second run touches nothing.
put_file() {
  local src=$1 dest=$R$2 mode=$3
  LAST=0
  if [ -f "$dest" ] && cmp -s "$src" "$dest" && [ "$(stat -c %a "$dest")" = "${mode#0}" ]; then
    return 0
  fi
  mkdir -p "$(dirname "$dest")"
  install -m "$mode" "$src" "$dest"
  LAST=1
  CHANGED=$((CHANGED + 1))
  log "wrote $2"
}

# put_text DEST MODE < text
put_text() {
  local tmp
  tmp=$(mktemp)
  cat >"$tmp"
  put_file "$tmp" "$1" "$2"
  rm -f "$tmp"
}

put_dir() {
  local dest=$R$1 mode=$2
  if [ ! -d "$dest" ]; then
    mkdir -p "$dest"
    CHANGED=$((CHANGED + 1))
    log "made $1"
  fi
  if [ "$(stat -c %a "$dest")" != "${mode#0}" ]; then
    chmod "$mode" "$dest"
    CHANGED=$((CHANGED + 1))
  fi
}

remove() {
  local path
  for path in "$@"; do
    # Only our own absolute paths, never "/" itself. (R is empty on a real root: "${R:?}" died
    # there, so --uninstall on a Pi stopped half-way.)
    case "$path" in
      /?*) ;;
      *) die "internal error: refusing to remove '$path'" ;;
    esac
    if [ -e "$R$path" ] || [ -L "$R$path" ]; then
      rm -rf -- "$R$path"
      CHANGED=$((CHANGED + 1))
      log "removed $path"
    fi
  done
}

# --- what an earlier run did (so --uninstall undoes exactly that) -----------------------------

STATE_CREATED_USER=""
STATE_GROUPS=""
STATE_DESKTOP_USER=""
STATE_SERVICE_USER=""
read_state() {
  if [ -f "$R$STATE" ]; then read_state_file; fi
  SERVICE_USER=${SERVICE_USER:-${STATE_SERVICE_USER:-table99}}
}
read_state_file() {
  local key value
  while IFS='=' read -r key value; do
    case "$key" in
      created_user) STATE_CREATED_USER=$value ;;
      groups_added) STATE_GROUPS=$value ;;
      desktop_user) STATE_DESKTOP_USER=$value ;;
      service_user) STATE_SERVICE_USER=$value ;;
    esac
  done <"$R$STATE"
}

in_list() {  # in_list WORD "space separated list"
  case " $2 " in *" $1 "*) return 0 ;; *) return 1 ;; esac
}

# --- install ----------------------------------------------------------------------------------

# Whether apt's archives have PACKAGE (after "apt-get update"). In a scratch root without a stand-in
# for apt-cache the answer is "yes": nothing is installed there anyway.
apt_has() {
  if no_stand_in apt-cache; then return 0; fi
  # "Candidate: (none)" when it only knows the name; nothing at all when it does not.
  run_or_stand_in apt-cache policy "$1" 2>/dev/null | grep '^ *Candidate: *[^( ]' >/dev/null
}

install_packages() {
  [ "$USE_APT" = 1 ] || { log "--no-apt: not checking system packages"; return 0; }
  local entry name alternatives names=() missing=() install=() absent=() optional=" ${APT_OPTIONAL[*]} " installed
  for entry in "${APT_PACKAGES[@]}" "${APT_OPTIONAL[@]}"; do
    IFS='|' read -r -a alternatives <<<"$entry"
    names+=("${alternatives[@]}")
  done
  # One dpkg-query for all of them; packages it has never heard of are simply absent from its answer.
  # shellcheck disable=SC2016  # the ${...} is dpkg-query's format, not the shell's
  installed=" $(ask dpkg-query -W -f='${Package}=${db:Status-Status} ' "${names[@]}" 2>/dev/null || true) "
  for entry in "${APT_PACKAGES[@]}" "${APT_OPTIONAL[@]}"; do
    IFS='|' read -r -a alternatives <<<"$entry"
    for name in "${alternatives[@]}"; do
      in_list "$name=installed" "$installed" && continue 2
    done
    missing+=("$entry")
  done
  [ ${#missing[@]} -gt 0 ] || return 0
  sys apt-get update || die "apt-get update failed (no network?); run install.sh again when it works"
  for entry in "${missing[@]}"; do
    IFS='|' read -r -a alternatives <<<"$entry"
    for name in "${alternatives[@]}"; do
      if apt_has "$name"; then install+=("$name"); continue 2; fi
    done
    absent+=("$entry")
  done
  local required=() lost=()
  for entry in "${absent[@]}"; do
    if in_list "$entry" "$optional"; then lost+=("$entry"); else required+=("$entry"); fi
  done
  [ ${#required[@]} -eq 0 ] || die "apt's archives here have no ${required[*]//|/ or }, which Table99 needs (is this Debian or Raspberry Pi OS, bookworm or newer?)"
  if [ ${#lost[@]} -gt 0 ]; then
    for entry in "${lost[@]}"; do
      log "no $entry in this system's apt archives (it is in the Raspberry Pi archive): $(optional_loss "$entry")"
    done
    if [ "$REQUIRE_CAMERA" = 1 ] && in_list python3-picamera2 " ${lost[*]} "; then
      die "--require-camera: apt has no python3-picamera2 here (add the Raspberry Pi archive, or leave out --require-camera)"
    fi
  fi
  [ ${#install[@]} -gt 0 ] || return 0
  log "installing system packages: ${install[*]}"
  DEBIAN_FRONTEND=noninteractive sys apt-get install -y --no-install-recommends "${install[@]}" \
    || die "apt-get could not install ${install[*]} (see its message above); run install.sh again when that is fixed"
  CHANGED=$((CHANGED + 1))
}

choose_mode() {
  [ "$MODE" = auto ] || return 0
  local dm="$R/etc/systemd/system/display-manager.service"
  if [ -e "$dm" ] || [ -L "$dm" ]; then MODE=desktop; else MODE=console; fi
  log "mode: $MODE (a display manager is $([ "$MODE" = desktop ] && echo enabled || echo absent))"
}

find_desktop_user() {
  [ "$MODE" = desktop ] || return 0
  if [ -z "$DESKTOP_USER" ] && [ -f "$R/etc/lightdm/lightdm.conf" ]; then
    DESKTOP_USER=$(sed -n 's/^[[:space:]]*autologin-user[[:space:]]*=[[:space:]]*//p' "$R/etc/lightdm/lightdm.conf" | tail -n 1)
  fi
  [ -n "$DESKTOP_USER" ] || DESKTOP_USER=${SUDO_USER:-}
  [ -n "$DESKTOP_USER" ] || die "desktop mode: say whose session starts Table99 with --desktop-user NAME"
  [ "$SERVICE_USER" = table99 ] || die "desktop mode shares the games through the group table99: no --user"
  ask getent passwd "$DESKTOP_USER" >/dev/null || [ "$SCRATCH" = 1 ] \
    || die "desktop mode: no user '$DESKTOP_USER'"
}

# Each change to users and groups is recorded (write_state) before it is made: a run killed at any
# point, and every run after it, leave a record from which --uninstall --purge undoes all of it.
setup_user() {
  if ask getent passwd "$SERVICE_USER" >/dev/null; then
    :
  else
    STATE_CREATED_USER=$SERVICE_USER
    write_state
    sys useradd --system --user-group --home-dir "$DATA_DIR" --no-create-home \
      --shell /usr/sbin/nologin --comment "Table99 appliance" "$SERVICE_USER"
    CHANGED=$((CHANGED + 1))
    log "created the service user $SERVICE_USER"
  fi
  local group member_of
  member_of=" $(ask id -nG "$SERVICE_USER" 2>/dev/null || true) "
  for group in "${GROUPS_WANTED[@]}"; do
    if ! ask getent group "$group" >/dev/null; then
      log "warning: there is no group '$group' here (not Raspberry Pi OS?); $SERVICE_USER is not added to it"
      continue
    fi
    in_list "$group" "$member_of" && continue
    if ! in_list "$group" "$STATE_GROUPS"; then
      STATE_GROUPS="${STATE_GROUPS:+$STATE_GROUPS }$group"
      write_state
    fi
    sys usermod -a -G "$group" "$SERVICE_USER"
    CHANGED=$((CHANGED + 1))
    log "added $SERVICE_USER to the group $group"
  done
  if [ "$MODE" = desktop ]; then
    member_of=" $(ask id -nG "$DESKTOP_USER" 2>/dev/null || true) "
    if ! in_list "$SERVICE_USER" "$member_of"; then
      STATE_DESKTOP_USER=$DESKTOP_USER
      write_state
      sys usermod -a -G "$SERVICE_USER" "$DESKTOP_USER"
      CHANGED=$((CHANGED + 1))
      log "added $DESKTOP_USER to the group $SERVICE_USER (shares the games in $DATA_DIR)"
    fi
    STATE_DESKTOP_USER=$DESKTOP_USER
  fi
}

install_config() {
  put_dir "$CONFIG_DIR" 0755
  put_file "$DEPLOY/config.toml" "$CONFIG_DIR/config.toml.example" 0644
  # The real config is the owner's: written once, never overwritten by an update. It may hold
  # secrets ([club] password, [web] token, the exhibitor's PIN): root writes it, the app reads it
  # through the group $SERVICE_USER (the service runs as that user; a desktop user is a member),
  # nobody else. A config from an older install (0644) is tightened, its content left alone.
  local config=$R$CONFIG_DIR/config.toml
  if [ ! -e "$config" ]; then
    put_file "$DEPLOY/config.toml" "$CONFIG_DIR/config.toml" 0640
    sys chown "root:$SERVICE_USER" "$config"
  elif [ $(( 8#$(stat -c %a "$config") & 8#007 )) -ne 0 ]; then
    chmod o-rwx "$config"
    sys chown "root:$SERVICE_USER" "$config"
    CHANGED=$((CHANGED + 1))
    log "made $CONFIG_DIR/config.toml readable by root and the group $SERVICE_USER only"
  fi
  if [ ! -d "$R$DATA_DIR" ]; then
    put_dir "$DATA_DIR" 2770
    sys chown "$SERVICE_USER:$SERVICE_USER" "$R$DATA_DIR"
  fi
}

install_udev_rule() {
  local rule="$DEPLOY/udev/99-table99-board.rules"
  if [ ! -f "$rule" ]; then
    log "warning: $rule is missing; the serial board keeps its /dev/ttyACM* name"
    return 0
  fi
  put_file "$rule" "$UDEV_RULE" 0644
  if [ "$LAST" = 1 ]; then
    # No udevd (a container, a chroot): the rule is there and takes effect when udevd next starts.
    { sys udevadm control --reload-rules && sys udevadm trigger --subsystem-match=tty; } 2>/dev/null \
      || log "warning: udevd did not reload its rules (not running here?); the rule applies from the next boot"
  fi
}

install_python() {
  put_dir "$APP_DIR" 0755
  put_file "$DEPLOY/README.md" "$APP_DIR/README.md" 0644
  # A venv is trusted only once "python3 -m venv" finished (a run killed inside it left half of one).
  if [ ! -x "$R$VENV/bin/python" ] || [ ! -e "$R$VENV/.table99-venv-made" ]; then
    [ ! -e "$R$VENV" ] || rm -rf -- "$R$VENV"
    sys python3 -m venv --system-site-packages "$R$VENV"
    [ ! -x "$R$VENV/bin/python" ] || : >"$R$VENV/.table99-venv-made"
    CHANGED=$((CHANGED + 1))
    log "made the virtual environment $VENV (it sees apt's picamera2 and numpy)"
  fi
  # Every package pip installs, with its version and hashes (deploy/lock.sh wrote it). numpy is
  # apt's (python3-numpy), seen through --system-site-packages: picamera2's simplejpeg was built
  # for it, so the lock must name that same version, or pip would put another one in the venv.
  put_file "$DEPLOY/requirements.lock" "$APP_DIR/requirements.lock" 0644
  local python_numpy python numpy locked
  python_numpy=$(ask python3 -c 'import sys, numpy; print("%d.%d" % sys.version_info[:2], numpy.__version__)' \
    2>/dev/null || true)
  read -r python numpy <<<"$python_numpy"
  if [ -n "$numpy" ]; then
    locked=$(sed -n "s/^numpy==\([^ ;]*\) *;.*python_version == \"$python\".*/\1/p" "$DEPLOY/requirements.lock")
    [ "$locked" = "$numpy" ] || die "apt's numpy is $numpy (Python $python) but deploy/requirements.lock has ${locked:-no numpy for Python $python}: run deploy/lock.sh with that version"
  else
    log "warning: the system python has no numpy; pip puts the locked one in the venv"
  fi

  if [ ! -x "$R$VENV/bin/python" ]; then
    log "scratch root: no venv, so Table99 itself is not installed"
    return 0
  fi
  # Reinstall only when the source or the pins changed: hash everything that goes into the package.
  local stamp
  stamp=$(cd "$SRC" && {
      find "${PACKAGE_PARTS[@]}" -type f \
        ! -path '*/__pycache__/*' ! -name '*.pyc' -print0 2>/dev/null | LC_ALL=C sort -z \
        | xargs -0 sha256sum 2>/dev/null || true  # a file deleted meanwhile: just a different hash
      sha256sum <"$R$APP_DIR/requirements.lock"
    } | sha256sum | cut -d' ' -f1)
  if [ -f "$R$VENV/.table99-installed" ] && [ "$(cat "$R$VENV/.table99-installed")" = "$stamp" ]; then
    return 0
  fi
  log "installing Table99 and its pinned dependencies into $VENV"
  local build
  build=$(mktemp -d)
  # Build from a copy: pip would leave root-owned build/ and *.egg-info in the owner's checkout.
  if ! tar -C "$SRC" --exclude=__pycache__ --exclude='*.pyc' -cf - "${PACKAGE_PARTS[@]}" \
      | tar -C "$build" -xf -; then
    # GNU tar also fails when a file changes while it is read (someone editing the checkout): pip
    # below still fails loudly on a broken copy, and the stamp makes the next run install again.
    log "warning: the checkout changed while it was copied; run install.sh again when it is quiet"
  fi
  # The dependencies, every one pinned and hashed; wheels only (nothing is compiled on the Pi).
  "$R$VENV/bin/python" -m pip install --quiet --require-hashes --only-binary=:all: \
    --requirement "$R$APP_DIR/requirements.lock"
  # Table99 itself, from the copy, with nothing fetched: its build backend (setuptools) is in the lock.
  # Same version number, new code: pip would call it "already satisfied" without --force-reinstall.
  "$R$VENV/bin/python" -m pip install --quiet --no-deps --no-index --no-build-isolation --force-reinstall \
    "$build"
  rm -rf "$build"
  echo "$stamp" | put_text "$VENV/.table99-installed" 0644
}

install_service() {
  put_file "$DEPLOY/table99.service" "$UNIT" 0644
  local unit_changed=$LAST
  if [ -n "$ROTATION" ] && [ "$ROTATION" != 0 ]; then
    put_text "$ROTATION_DROPIN" 0644 <<EOF
# Written by deploy/install.sh --rotation $ROTATION: turns the picture and the touches together.
[Service]
Environment=KCFG_GRAPHICS_ROTATION=$ROTATION
EOF
    [ "$LAST" = 0 ] || unit_changed=1
  elif [ "$ROTATION" = 0 ] && [ -e "$R$ROTATION_DROPIN" ]; then
    remove "$ROTATION_DROPIN"
    rmdir "$R$DROPIN_DIR" 2>/dev/null || true
    unit_changed=1
  fi
  if [ "$SERVICE_USER" != table99 ]; then
    put_text "$USER_DROPIN" 0644 <<EOF
# Written by deploy/install.sh --user $SERVICE_USER: the service runs as this user.
[Service]
User=$SERVICE_USER
Group=$SERVICE_USER
EOF
    [ "$LAST" = 0 ] || unit_changed=1
  elif [ -e "$R$USER_DROPIN" ]; then
    remove "$USER_DROPIN"
    rmdir "$R$DROPIN_DIR" 2>/dev/null || true
    unit_changed=1
  fi
  [ "$unit_changed" = 0 ] || ! systemd_running || sys systemctl daemon-reload

  if [ "$MODE" = console ]; then
    remove "$AUTOSTART" "$DESKTOP_LAUNCHER"
    rmdir "$R$APP_DIR/bin" 2>/dev/null || true
    if ! unit_enabled; then
      unit_files enable table99.service
      CHANGED=$((CHANGED + 1))
      log "enabled table99.service: it starts at power-on"
    fi
  else
    if unit_enabled; then
      unit_files disable table99.service
      CHANGED=$((CHANGED + 1))
    fi
    put_file "$DEPLOY/table99-desktop" "$DESKTOP_LAUNCHER" 0755
    put_file "$DEPLOY/table99.desktop" "$AUTOSTART" 0644
  fi
}

# The record, replaced in one step (a copy renamed over it): a kill never leaves half of it.
write_state() {
  local tmp
  tmp=$(mktemp)
  cat >"$tmp" <<EOF
# What deploy/install.sh did, so that --uninstall undoes exactly that.
created_user=$STATE_CREATED_USER
groups_added=$STATE_GROUPS
desktop_user=$STATE_DESKTOP_USER
service_user=$SERVICE_USER
mode=$MODE
EOF
  if [ -f "$R$STATE" ] && cmp -s "$tmp" "$R$STATE"; then
    rm -f "$tmp"
    return 0
  fi
  mkdir -p "$R$APP_DIR"
  install -m 0644 "$tmp" "$R$STATE.new"
  rm -f "$tmp"
  mv -f "$R$STATE.new" "$R$STATE"
  CHANGED=$((CHANGED + 1))
}

restart_if_running() {
  [ "$SCRATCH" = 0 ] && systemd_running || return 0
  if [ "$MODE" = console ] && systemctl --quiet is-active table99.service; then
    [ "$CHANGED" = 0 ] || { log "restarting table99.service"; systemctl restart table99.service; }
  fi
}

# The command that checks the config as the service reads it (README step 4 prints the same).
config_command() {
  echo "sudo -u $SERVICE_USER env TABLE99_DATA_DIR=$DATA_DIR $VENV/bin/table99 config"
}

do_install() {
  read_state
  choose_mode
  find_desktop_user
  install_packages
  write_state  # the record exists before anything it names is made
  setup_user
  install_config
  install_udev_rule
  install_python
  install_service
  write_state
  restart_if_running
  if [ "$CHANGED" = 0 ]; then
    log "nothing to do: Table99 is installed and up to date"
  else
    # As the service user: the config is root:$SERVICE_USER 0640, and the data directory is its own.
    log "done. Check the config with: $(config_command)"
    if [ "$MODE" = console ]; then
      log "Table99 takes over the screen (tty1) at the next boot, or now with: sudo systemctl start table99"
    else
      log "Table99 starts when $DESKTOP_USER's desktop session starts (log out and in, or reboot)"
    fi
  fi
}

# --- uninstall --------------------------------------------------------------------------------

do_uninstall() {
  read_state
  if [ "$SCRATCH" = 0 ] && systemd_running && systemctl --quiet is-active table99.service; then
    systemctl stop table99.service
  fi
  if [ -e "$R$UNIT" ]; then
    unit_enabled && unit_files disable table99.service
    remove "$UNIT" "$DROPIN_DIR"
    ! systemd_running || sys systemctl daemon-reload
  fi
  if [ -e "$R$UDEV_RULE" ]; then
    remove "$UDEV_RULE"
    sys udevadm control --reload-rules 2>/dev/null || true
  fi
  # The record ($STATE, in $APP_DIR) goes last: an uninstall stopped half-way can be run again.
  remove "$AUTOSTART" "$CONFIG_DIR" "$VENV" "$DESKTOP_LAUNCHER"
  if [ -n "$STATE_DESKTOP_USER" ]; then
    sys gpasswd -d "$STATE_DESKTOP_USER" "$SERVICE_USER" >/dev/null 2>&1 || true
  fi
  if [ -n "$STATE_CREATED_USER" ]; then
    if ask getent passwd "$STATE_CREATED_USER" >/dev/null; then
      sys userdel "$STATE_CREATED_USER" || log "warning: could not remove the user $STATE_CREATED_USER"
      log "removed the service user $STATE_CREATED_USER"
    fi
    # userdel takes the user's own group too, unless another user has it as theirs
    if ask getent group "$STATE_CREATED_USER" >/dev/null; then
      sys groupdel "$STATE_CREATED_USER" || log "warning: could not remove the group $STATE_CREATED_USER"
    fi
  else
    local group
    for group in $STATE_GROUPS; do
      sys gpasswd -d "$SERVICE_USER" "$group" >/dev/null 2>&1 || true
    done
  fi
  if [ "$PURGE" = 1 ]; then
    remove "$DATA_DIR"
  elif [ -d "$R$DATA_DIR" ]; then
    if rmdir "$R$DATA_DIR" 2>/dev/null; then
      log "removed $DATA_DIR (it was empty)"
    else
      log "kept the games in $DATA_DIR (delete them too with: --uninstall --purge)"
    fi
  fi
  remove "$APP_DIR"
  log "Table99 is uninstalled"
}

if [ "$ACTION" = install ]; then do_install; else do_uninstall; fi
