#!/usr/bin/env bash
# Checks, from any machine with pip and network, that deploy/constraints.txt plus the numpy of
# Raspberry Pi OS Bookworm (1.24.2) resolve to wheels for the Pi (aarch64, CPython 3.11, glibc 2.36)
# without building anything and without replacing apt's numpy. Prints what pip would install.
# Usage: deploy/check-pins.sh [NUMPY_VERSION]    (needs network; downloads only metadata)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
numpy=${1:-1.24.2}
pip=${PIP:-pip3}
[ -x "$here/../.venv/bin/pip" ] && pip="$here/../.venv/bin/pip"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
{ cat "$here/constraints.txt"; echo "numpy==$numpy"; } >"$work/constraints.txt"
platforms=(--platform manylinux2014_aarch64 --platform linux_aarch64)
for minor in $(seq 17 36); do platforms+=(--platform "manylinux_2_${minor}_aarch64"); done
"$pip" install --quiet --dry-run --ignore-installed --only-binary=:all: "${platforms[@]}" \
  --python-version 3.11 --implementation cp --abi cp311 --abi abi3 --abi none \
  --target "$work/target" --constraint "$work/constraints.txt" --report "$work/report.json" \
  "kivy==2.3.1" "gpiozero>=2.0,<3" "pyserial>=3.5,<4" "opencv-python-headless>=4.9" "numpy>=1.24" "pillow>=10" \
  2> >(grep -v "^WARNING: Location" >&2)
python3 - "$work/report.json" "$numpy" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
wheels = sorted(item["download_info"]["url"].rsplit("/", 1)[-1] for item in report["install"])
print("\n".join(wheels))
assert any(w.startswith(f"numpy-{sys.argv[2]}-") for w in wheels), "numpy would not be the apt one"
print(f"OK: {len(wheels)} wheels for the Pi, numpy stays {sys.argv[2]}")
PY
