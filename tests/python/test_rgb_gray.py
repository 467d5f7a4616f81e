"""test_rgb_gray.py: rgb_to_gray (an interleaved (H, W, 3) uint8 image to
uint8 grey) and planar_to_gray (a (3, H, W) float32 planar view of an
interleaved image, to float32 grey), on an image that is no multiple of the
(16, 32) tile.  Tolerances as main.c: uint8 within one grey level of the
float64 value rounded to nearest (the float32 sum may land on the other
side of .5); float32 1e-6 absolute.  planar_to_gray calls a tile function
that reads no block coordinate, so the module works out its grid too."""
import numpy as np

import common as T
from common import check, close, exact, raises, run

import rgb_gray as M


def image(h, w):
    return T.rng.integers(0, 256, size=(h, w, 3), dtype=np.uint8)


def ref(rgb):
    r = rgb.astype(np.float64)
    return np.rint(0.299 * r[..., 0] + 0.587 * r[..., 1] + 0.114 * r[..., 2])


def u8():
    for h, w in ((1000, 700), (1, 1), (17, 33)):
        rgb = image(h, w)
        buf = np.full(h * w + 64, 0xA5, np.uint8)
        gray = buf[:h * w].reshape(h, w)
        M.rgb_to_gray(rgb, gray)
        close("rgb_to_gray (%d, %d): within one grey level" % (h, w), gray, ref(rgb), 0, 1)
        exact("rgb_to_gray (%d, %d): no store past the image" % (h, w), buf[h * w:], np.full(64, 0xA5, np.uint8))
    rgb = image(40, 50)
    raises("rgb_to_gray of an (H, W) image: TILEC_ERR_RANK", M,
           lambda: M.rgb_to_gray(rgb[..., 0], np.zeros((40, 50), np.uint8)), M.TilecError, "TILEC_ERR_RANK")
    raises("rgb_to_gray of an int8 image: TILEC_ERR_DTYPE", M,
           lambda: M.rgb_to_gray(rgb.view(np.int8), np.zeros((40, 50), np.uint8)), M.TilecError, "TILEC_ERR_DTYPE")


def planar():
    h, w = 1000, 700
    rgb = image(h, w)
    img = rgb.astype(np.float32) / np.float32(255)  # interleaved (H, W, 3)
    view = img.transpose(2, 0, 1)  # planar (3, H, W), strides (1, 3W, 3) elements
    check("the planar view is not contiguous", not view.flags.c_contiguous)
    gray = np.full((h, w), np.nan, np.float32)
    M.planar_to_gray(view, gray)  # the grid from the arrays: the helper reads no tile_bid
    g0 = gray.copy()
    M.planar_to_gray(view, gray, grid=(-(-h // 16), -(-w // 32)))
    exact("planar_to_gray without grid=: the same as with the grid it implies", g0, gray)
    v = view.astype(np.float64)
    close("planar_to_gray (1000, 700) of a planar view", gray, 0.299 * v[0] + 0.587 * v[1] + 0.114 * v[2], 0, 1e-6)
    g2 = np.full((h, w), np.nan, np.float32)
    M.planar_to_gray(np.ascontiguousarray(view), g2, grid=(63, 22, 1))
    exact("planar_to_gray of a contiguous copy: the same result", g2, gray)


run("rgb_to_gray", u8)
run("planar_to_gray", planar)
T.finish("rgb_gray")
