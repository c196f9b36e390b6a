"""Things a finder fits a card-sized quad round that are not cards: the card-side network must not
call them backs (the false backs of issue 13). Everything is drawn here with OpenCV shapes; the
card is the project's own render (`vision/render.py`). These tests measure, they do not train.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.card_side import card_side
from vision.detect import CardQuad
from vision.recognizer import looks_like_back
from vision.render import CardStyle, render_card


def _cloth(h: int = 480, w: int = 640, colour: tuple[int, int, int] = (40, 110, 40)) -> np.ndarray:
    rng = np.random.default_rng(7)
    return np.clip(rng.normal(colour, 6, (h, w, 3)), 0, 255).astype(np.uint8)


def _rect(centre: tuple[float, float], size: tuple[float, float], angle: float) -> np.ndarray:
    return cv2.boxPoints(((float(centre[0]), float(centre[1])), size, angle)).astype(np.float64)


def _not_a_back(image: np.ndarray, quad: np.ndarray) -> None:
    side = card_side(image, quad)
    assert side.side != "back", side
    assert not looks_like_back(image, CardQuad(quad.astype(np.float32)))


@pytest.mark.parametrize(
    "screen", [(60, 200, 60), (40, 40, 220), (150, 150, 150)], ids=["green", "red", "grey"]
)
def test_a_phone_screen_in_its_black_frame_is_not_a_back(screen: tuple[int, int, int]) -> None:
    image = _cloth(colour=(120, 170, 200))  # a pale wooden-looking table
    phone = _rect((320, 240), (130, 250), 25)
    inner = _rect((320, 240), (112, 214), 25)
    cv2.fillConvexPoly(image, phone.astype(np.int32), (25, 25, 30), cv2.LINE_AA)
    cv2.fillConvexPoly(image, inner.astype(np.int32), screen, cv2.LINE_AA)
    image = cv2.GaussianBlur(image, (0, 0), 0.8)
    _not_a_back(image, inner)


@pytest.mark.parametrize("aspect", [1.0, 1.4, 3.0], ids=["napkin", "slip", "receipt"])
def test_a_paper_slip_with_printed_lines_is_not_a_back(aspect: float) -> None:
    image = _cloth(colour=(90, 60, 20))  # dark blue cloth
    w = 120.0
    paper = _rect((320, 240), (w, w * aspect), -30)
    cv2.fillConvexPoly(image, paper.astype(np.int32), (228, 236, 238), cv2.LINE_AA)
    top, left, down = paper[1], paper[0] - paper[1], paper[2] - paper[1]
    for k in range(6):
        a = top + down * (k + 1) / 8 + left * 0.1
        b = a + left * 0.6
        cv2.line(image, tuple(int(v) for v in a), tuple(int(v) for v in b), (60, 60, 60), 1, cv2.LINE_AA)
    if aspect < 2:
        quad = paper
    else:  # a card-shaped piece at one end of the long receipt, as a finder fits it
        long = down if np.linalg.norm(down) > np.linalg.norm(left) else left
        a, b = (paper[1], paper[0]) if long is down else (paper[1], paper[2])
        step = long / np.linalg.norm(long) * 1.4 * w
        quad = np.array([a, b, b + step, a + step])
    _not_a_back(image, quad)


def test_one_square_of_a_checked_cloth_is_not_a_back() -> None:
    yy, xx = np.mgrid[0:480, 0:640]
    s = 70
    check = ((xx // s + yy // s) % 2).astype(np.float32)[..., None]
    image = (np.array([200, 120, 120], np.float32) * (1 - check) + np.array([230, 200, 200]) * check)
    image = cv2.GaussianBlur(image.astype(np.uint8), (0, 0), 0.7)
    x, y = 3 * s, 2 * s  # one light square
    quad = np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]], np.float64)
    _not_a_back(image, quad)


def test_a_sliver_along_a_backs_edge_is_not_a_back_but_the_back_is() -> None:
    image = _cloth()
    card = render_card("BK", 240, CardStyle(back_colour=(120, 40, 130)), seed=0)
    m = np.float32([[0.5, 0, 200], [0, 0.5, 100]])
    face = cv2.warpAffine(card.image, m, image.shape[1::-1], flags=cv2.INTER_AREA)
    alpha = cv2.warpAffine(card.mask.astype(np.float32), m, image.shape[1::-1])[..., None]
    alpha /= max(1.0, float(alpha.max()))
    image = (image * (1 - alpha) + face * alpha).astype(np.uint8)
    w, h = 120.0, card.image.shape[0] * 0.5
    outline = np.array([[200, 100], [200 + w, 100], [200 + w, 100 + h], [200, 100 + h]], np.float64)
    assert looks_like_back(image, CardQuad(outline.astype(np.float32)))
    # a wedge along the long left edge, 40 px deep at the top and 8 px at the bottom, half off the card
    wedge = np.array([[185, 105], [225, 105], [193, 95 + h], [185, 95 + h]], np.float64)
    _not_a_back(image, wedge)
