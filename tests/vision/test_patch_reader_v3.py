"""The patch reader on badly photographed small cards: washed out (pale ink on an over-exposed card),
under-exposed (dark grey card, dark ink) and strongly blurred, as wide table shots give them.

The decks are drawn here by ``vision.render`` from ``data/patch_reader_heldout_fonts.npz``: glyph masks of
font families the patch reader never trained on. Each card is photographed here (not by the training
code): drawn twice larger on a grey table, shrunk with area averaging, blurred, its tones compressed,
noised and JPEG-compressed; the patch is cut through the card's true corner moved by 3 % of its width,
as the finder's frames are. The labels are the codes drawn.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
import pytest

from vision.detect import CardQuad
from vision.index import cut_patch
from vision.patch_reader import default_patch_reader, has_ink
from vision.render import CardStyle, render_card
from vision.sighting import FACES


def deck(held_out_deck: Callable[..., CardStyle], name: str) -> CardStyle:
    return held_out_deck(
        name,
        (0.3, -0.2, 0.1, -0.3),
        index_x=0.1,
        index_top=0.055,
        rank_height=0.15,
        rank_width=0.09,
        suit_gap=0.015,
        suit_size=0.1,
        paper=(238, 241, 243),
    )


def photograph(
    card: np.ndarray, mask: np.ndarray, width: float, ink: float, paper: float, blur: float, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """The card ``width`` px wide on a grey table, blurred by ``blur`` px, its tones mapped so that
    black ink lands at ``ink`` and white paper at ``paper`` (clipped), sensor noise σ 3 and JPEG 80;
    the frame and the card's corners."""
    rng = np.random.default_rng(seed)
    h, w = card.shape[:2]
    s = 2 * width / w
    small = cv2.resize(card, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
    smask = cv2.resize(mask, (small.shape[1], small.shape[0]), interpolation=cv2.INTER_AREA)
    sh, sw = small.shape[:2]
    size = 2 * (int(0.75 * max(sh, sw)) + 8)
    rot = cv2.getRotationMatrix2D((sw / 2, sh / 2), float(rng.uniform(-40, 40)), 1.0)
    rot[:, 2] += (size / 2 - sw / 2, size / 2 - sh / 2)
    table = np.full((size, size, 3), 120, np.uint8)
    alpha = cv2.warpAffine(smask, rot, (size, size)).astype(np.float32) / 255.0
    frame = cv2.blendLinear(cv2.warpAffine(small, rot, (size, size)), table, alpha, 1.0 - alpha)
    frame = cv2.resize(frame, (size // 2, size // 2), interpolation=cv2.INTER_AREA).astype(np.float32)
    frame = cv2.GaussianBlur(frame, (0, 0), blur)
    frame = ink + (frame - 20.0) * (paper - ink) / 220.0 + rng.normal(0, 3.0, frame.shape)
    frame = np.clip(frame, 0, 255).astype(np.uint8)
    frame = cv2.imdecode(cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 80])[1], cv2.IMREAD_COLOR)
    corners = np.array([[0, 0], [sw, 0], [sw, sh], [0, sh]], np.float64) @ rot[:, :2].T + rot[:, 2]
    return frame, (corners + 0.5) / 2 - 0.5


def read(
    make: Callable[..., CardStyle], ink: float, paper: float, blur: float
) -> list[tuple[str, str | None]]:
    """(code drawn, code read) for every card of two held-out decks, 55 and 70 px wide."""
    patches, codes = [], []
    for k, name in enumerate(("bookman", "lato")):
        style = deck(make, name)
        for i, code in enumerate(FACES):
            card = render_card(code, 240, style, seed=i)
            for j, width in enumerate((55.0, 70.0)):
                seed = 1000 * k + 10 * i + j
                frame, corners = photograph(card.image, card.mask, width, ink, paper, blur, seed)
                off = np.random.default_rng(seed).normal(0, 0.03 * width, 2)
                patches.append(cut_patch(frame, CardQuad(corners + off).frame(0))[0])
                codes.append(code)
    readings = default_patch_reader().read_many(patches)
    return [(c, r.card if r.confidence >= 0.35 else None) for c, r in zip(codes, readings, strict=True)]


@pytest.mark.parametrize(
    ("ink", "paper", "blur", "min_right", "max_wrong"),
    [
        # measured 2026-11-24: v3 reader 0.875 right / 0.125 wrong, v2 0.856 / 0.144; v5 0.875, v7 0.865
        pytest.param(215.0, 255.0, 0.8, 0.86, 0.14, id="washed-out"),
        # v3 0.817 / 0.178, v2 0.788 / 0.197; v5 0.846, v7 0.870
        pytest.param(40.0, 70.0, 0.8, 0.8, 0.19, id="under-exposed"),
        # v3 0.726 / 0.264, v2 0.716 / 0.245; v5 0.702 / 0.269, v7 0.688 / 0.274 (143 of 208 cards: 3
        # fewer than v5, as it reads 5 more under-exposed ones; session 49, PATCH_READER.md "v7")
        pytest.param(20.0, 240.0, 2.0, 0.68, 0.28, id="blurred"),
    ],
)
def test_badly_exposed_or_blurred_small_cards_of_unseen_decks_are_read(
    held_out_deck: Callable[..., CardStyle],
    ink: float,
    paper: float,
    blur: float,
    min_right: float,
    max_wrong: float,
) -> None:
    got = read(held_out_deck, ink, paper, blur)
    right = sum(c == g for c, g in got) / len(got)
    wrong = sum(g is not None and c != g for c, g in got) / len(got)
    assert right >= min_right, (right, [x for x in got if x[0] != x[1]])
    assert wrong <= max_wrong, wrong


def test_an_index_washed_out_to_nothing_is_neither_run_nor_read(
    held_out_deck: Callable[..., CardStyle],
) -> None:
    """Ink and paper 5 grey levels apart: the recogniser's ink check skips the patch, and the network
    asked anyway reads no card with any confidence."""
    got = read(held_out_deck, 250.0, 255.0, 0.8)
    assert all(g is None for _, g in got), [x for x in got if x[1] is not None]
    style = deck(held_out_deck, "lato")
    card = render_card("QS", 240, style, seed=0)
    frame, corners = photograph(card.image, card.mask, 60.0, 250.0, 255.0, 0.8, seed=3)
    assert not has_ink(cut_patch(frame, CardQuad(corners).frame(0))[0])
    frame, corners = photograph(card.image, card.mask, 60.0, 40.0, 70.0, 0.8, seed=3)
    assert has_ink(cut_patch(frame, CardQuad(corners).frame(0))[0])  # 30 levels of ink are worth a look
