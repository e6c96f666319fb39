"""Screen recapture: the document shown on a monitor (scaled to the screen's pixels, each pixel
drawn as red, green and blue sub-pixel stripes with a dark matrix between rows, the display's
gamma) and photographed off it with a phone: perspective, lens blur, the moire that comes from
resampling the sub-pixel grid, a colour-temperature shift, a glare spot, sensor noise. The
corners where the page lands are chosen by the TS side, which maps the boxes the same way."""
import cv2
import numpy as np

from pixels import read_bgr, rng, write_png


def subpixels(bgr):
    """Each screen pixel as a 3x3 block: R, G and B columns, the last row dimmed (black matrix)."""
    h, w = bgr.shape[:2]
    big = np.repeat(np.repeat(bgr.astype(np.float32), 3, axis=0), 3, axis=1)
    mask = np.zeros((3, 3, 3), np.float32)
    mask[:, 0, 2] = 1  # BGR: red stripe first
    mask[:, 1, 1] = 1
    mask[:, 2, 0] = 1
    mask[2, :, :] *= 0.45
    # Three stripes share the pixel's light: scaled back up so a white pixel keeps its average
    # brightness once the camera has blurred the stripes together.
    return big * np.tile(mask, (h, w, 1)) / mask[..., 0].mean()


def run(a):
    r = rng(a["seed"])
    img = read_bgr(a["image"])
    h, w = img.shape[:2]
    s = float(a["screen_scale"])
    sw, sh = max(8, int(round(w * s))), max(8, int(round(h * s)))
    shown = cv2.resize(img, (sw, sh), interpolation=cv2.INTER_AREA)
    # The viewer's window around the page.
    px, py = int(a["margin"][0]), int(a["margin"][1])
    ui = np.full((sh + 2 * py, sw + 2 * px, 3), np.float32(a["viewer"])[::-1], np.float32)
    ui[py : py + sh, px : px + sw] = shown
    lin = (ui / 255) ** float(a["display_gamma"]) * 255
    grid = subpixels(lin)
    grid = cv2.GaussianBlur(grid, (0, 0), a["lens_blur"])

    W, H = a["frame"]
    k = 3.0
    src = np.float32([[k * px, k * py], [k * (px + sw), k * py], [k * (px + sw), k * (py + sh)], [k * px, k * (py + sh)]])
    dst = np.float32(a["corners"])
    hom = cv2.getPerspectiveTransform(src, dst)
    room = np.float32(a["room"])[::-1]
    frame = np.empty((H, W, 3), np.float32)
    frame[:] = room
    cv2.warpPerspective(grid, hom, (W, H), dst=frame, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT)

    # The camera: exposure, colour temperature, its own tone curve, then glare on the glass.
    out = frame * float(a["exposure"]) * np.float32(a["cast"])[::-1]
    out = (out.clip(0, 255) / 255) ** float(a["camera_gamma"]) * 255
    ys, xs = np.mgrid[0:H, 0:W].astype(np.float32)
    gx, gy, radius, strength = a["glare"]
    glare = np.exp(-(((xs - gx * W) ** 2 + (ys - gy * H) ** 2) / (2 * (radius * W) ** 2)))
    out = out + glare[..., None] * strength * 255
    out = cv2.GaussianBlur(out, (0, 0), a["blur"])
    noise = r.normal(0, a["noise"], out.shape).astype(np.float32)
    write_png(a["out"], (out + noise).clip(0, 255).astype(np.uint8))
    return {}
