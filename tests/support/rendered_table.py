"""Cards rendered by the project (`vision/render.py`) laid on a plain cloth, with their exact outlines."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from vision.render import CardStyle, render_card

CARD_W = 120.0


def table_with(
    codes: list[str],
    style: CardStyle,
    x0: float = 120.0,
    card_w: float = CARD_W,
    paint: Callable[[np.ndarray], None] | None = None,
) -> tuple[np.ndarray, list[np.ndarray]]:
    """``codes`` side by side on a green cloth from ``x0``, each turned a little and ``card_w`` pixels
    wide: (image, outlines). ``paint`` may change each rendered face (240 px wide) before it is laid."""
    rng = np.random.default_rng(3)
    image = np.clip(rng.normal((40, 110, 40), 8, (600, 200 + 200 * len(codes), 3)), 0, 255).astype(np.uint8)
    outlines = []
    for i, code in enumerate(codes):
        card = render_card(code, 240, style, seed=i)
        if paint is not None:
            paint(card.image)
        a = np.radians(12.0 - 20.0 * i)
        s = np.array([np.cos(a), np.sin(a)]) * card_w
        long = np.array([-np.sin(a), np.cos(a)]) * card_w
        corner = np.array([x0 + 200 * i, 90.0])
        m = np.column_stack([s / 240, long / 240, corner])
        face = cv2.warpAffine(card.image, m, image.shape[1::-1], flags=cv2.INTER_AREA)
        alpha = cv2.warpAffine(card.mask.astype(np.float32), m, image.shape[1::-1])[..., None]
        alpha /= max(1.0, float(alpha.max()))
        image = (image * (1 - alpha) + face * alpha).astype(np.uint8)
        h = card.image.shape[0] / 240
        outlines.append(np.array([corner, corner + s, corner + s + h * long, corner + h * long]))
    return image, outlines
