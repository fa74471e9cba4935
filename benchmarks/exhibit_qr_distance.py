"""How far away can a camera read the attract loop's QR code? A simulation, not a phone.

The loop draws the phone view's QR code with whole screen pixels per module (app/ui/exhibit/attract.py,
``QR_SIZE``). This script takes a typical address (a LAN address and a 22-character token), works out
the module's size on a screen (default: the Raspberry Pi 7" Touch Display, 154.08 mm for 800 px),
and for each distance shrinks the code to what a camera of the given width and field of view sees
(area averaging, a slight blur), then asks OpenCV's QR detector to read it. It prints the farthest
distance up to which every step (5 cm) was read. OpenCV is not a phone's scanner (those are usually
better), and no lighting, angle or motion is simulated: read the figures as a rough guide.

    .venv/bin/python benchmarks/exhibit_qr_distance.py [SCREEN_MM_FOR_800_PX]
"""

from __future__ import annotations

import io
import math
import sys

import cv2
import numpy as np
import segno

QR_SIZE = 198  # app/ui/exhibit/attract.py (not imported: that would open a Kivy window)
# the longest LAN address (15 characters), the [web] port and a view token: app/web/follow.py's view_url
URL = "http://192.168.178.123:8099/v/" + "A" * 22 + "/"
CAMERAS = ((1920, 65.0, "a 1080p preview"), (4032, 70.0, "a 12 MP still"))


def readable(img: np.ndarray, size: int) -> bool:
    big = cv2.resize(img, (img.shape[1] * 20, img.shape[0] * 20), interpolation=cv2.INTER_NEAREST)
    small = cv2.GaussianBlur(cv2.resize(big, (size, size), interpolation=cv2.INTER_AREA), (0, 0), 0.6)
    canvas = np.full((size + 200, size + 200), 40, np.uint8)  # the screen's dark ground around it
    canvas[100:100 + size, 100:100 + size] = small
    text, *_ = cv2.QRCodeDetector().detectAndDecode(cv2.cvtColor(canvas, cv2.COLOR_GRAY2BGR))
    return bool(text == URL)


def main() -> None:
    screen_mm = float(sys.argv[1]) if len(sys.argv) > 1 else 154.08
    code = segno.make(URL, error="l", boost_error=True)  # as app.ui.web_join.qr_image
    per_module = max(1, QR_SIZE // code.symbol_size(scale=1, border=2)[0])  # as app.ui.web_join.qr_image
    buffer = io.BytesIO()
    code.save(buffer, kind="png", scale=1, border=2)
    img = cv2.imdecode(np.frombuffer(buffer.getvalue(), np.uint8), cv2.IMREAD_GRAYSCALE)
    module_mm = per_module * screen_mm / 800
    print(f"QR version {code.version}, {img.shape[0]} modules with the border, {per_module} px a module "
          f"= {module_mm:.2f} mm ({img.shape[0] * module_mm:.0f} mm square) on a {screen_mm} mm wide screen")
    for width_px, hfov, name in CAMERAS:
        farthest = 0
        for d_cm in range(20, 401, 5):
            mm_per_px = 2 * d_cm * 10 * math.tan(math.radians(hfov / 2)) / width_px
            if not readable(img, max(1, round(img.shape[0] * module_mm / mm_per_px))):
                break
            farthest = d_cm
        print(f"  {name} ({width_px} px over {hfov:g} degrees): read at every distance up to {farthest} cm")


if __name__ == "__main__":
    main()
