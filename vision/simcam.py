"""A simulated camera: synthetic frames of procedural cards on a table or in a shoe window.

The simulated table drives the same recognition path as a real camera with it:

>>> cam = SimulatedCamera(size=(960, 540), background="felt", seed=7)
>>> shot = cam.frame_for(["AS", "10D", "BK"], layout="row")
>>> shot.image.shape, [p.code for p in shot.placements]
((540, 960, 3), ['AS', '10D', 'BK'])

Layouts: ``row`` (cards side by side), ``scatter`` (random rotations and places, no overlap),
``hand`` (pairs overlapping the way a two-card hand lies; ``hand_cards`` deals longer hands, and
``double_down`` lays each hand's last card sideways across the others),
``fan`` (a spread where each card's top-left index shows), ``spread`` (a straight overlapping line,
as a hand spread on the table),
``shoe`` (one card in the shoe window; see :meth:`SimulatedCamera.shoe_pass`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.render import CARD_ASPECT, CardStyle, render_card
from vision.sources import RecordedSource

BACKGROUNDS = ("felt", "wood", "dark", "grey", "light_wood", "white")
LAYOUTS = ("row", "scatter", "hand", "fan", "spread", "shoe")


@dataclass(frozen=True)
class Placement:
    """Where one card lies: centre in pixels, rotation in degrees (counter-clockwise), width in pixels."""

    code: str
    centre: tuple[float, float]
    angle: float
    width: float

    def corners(self) -> np.ndarray:
        w, h = self.width, self.width * CARD_ASPECT
        a = np.radians(self.angle)
        rot = np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]])
        local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
        return local @ rot.T + np.array(self.centre)


@dataclass(frozen=True)
class SimFrame:
    """A rendered frame and the ground truth: placements in drawing order (later ones on top)."""

    image: np.ndarray
    placements: tuple[Placement, ...]
    window: tuple[int, int, int, int] | None = None

    @property
    def codes(self) -> list[str]:
        return [p.code for p in self.placements]


@dataclass
class SimulatedCamera:
    """Renders frames of cards. ``card_width`` defaults to 1/9 of the frame width."""

    size: tuple[int, int] = (1280, 720)
    background: str = "felt"
    seed: int = 0
    card_width: float | None = None
    style: CardStyle = field(default_factory=CardStyle)
    noise: float = 3.0
    blur: float = 0.6
    fan_spread: float = 9.0  # degrees between neighbouring cards of a ``fan``
    spread_step: float = 0.2  # card widths between neighbouring cards of a ``spread``
    hand_cards: int = 2  # cards in each ``hand`` (a blackjack hand after hits has three or more)
    # each ``hand``'s last card laid sideways across the cards before it (a blackjack double down)
    double_down: bool = False

    def __post_init__(self) -> None:
        if self.background not in BACKGROUNDS:
            raise ValueError(f"background must be one of {', '.join(BACKGROUNDS)}, got {self.background!r}")
        if self.hand_cards < 1:
            raise ValueError(f"hand_cards must be 1 or more (cards in each hand), got {self.hand_cards!r}")
        if self.double_down and self.hand_cards < 2:
            raise ValueError(
                f"double_down lays a hand's last card across the cards before it: hand_cards must be 2 "
                f"or more, got {self.hand_cards!r}"
            )
        self.rng = np.random.default_rng(self.seed)
        self._faces: dict[tuple[str, int], tuple[np.ndarray, np.ndarray]] = {}

    @property
    def width_px(self) -> float:
        return self.card_width or self.size[0] / 9.0

    def table(self) -> np.ndarray:
        w, h = self.size
        rng = self.rng
        if self.background == "felt":
            base, grain = (40, 110, 30), 10
        elif self.background == "wood":
            base, grain = (40, 80, 130), 18
        elif self.background == "dark":
            base, grain = (28, 24, 22), 5
        elif self.background == "light_wood":  # white cards on a pale table: the hard case
            base, grain = (150, 192, 218), 12
        elif self.background == "white":
            base, grain = (228, 230, 231), 4
        else:
            base, grain = (150, 155, 150), 6
        img = np.empty((h, w, 3), np.float32)
        img[:] = base
        noise = rng.normal(0, grain, (h // 4 + 1, w // 4 + 1, 1)).astype(np.float32)
        img += cv2.resize(noise, (w, h))[..., None]
        if self.background in ("wood", "light_wood"):
            stripes = np.sin(np.linspace(0, 40, h) + rng.uniform(0, 6))[:, None, None] * 14
            img += stripes
        gx = np.linspace(-1, 1, w)[None, :, None]
        img *= 1.0 + 0.12 * gx * rng.uniform(-1, 1)
        return np.clip(img, 0, 255).astype(np.uint8)

    def _face(self, code: str) -> tuple[np.ndarray, np.ndarray]:
        key = (code, 300)
        if key not in self._faces:
            card = render_card(code, 300, self.style, seed=len(self._faces))
            self._faces[key] = (card.image, card.mask)
        return self._faces[key]

    def render(
        self,
        placements: Sequence[Placement],
        *,
        window: tuple[int, int, int, int] | None = None,
        base: np.ndarray | None = None,
    ) -> SimFrame:
        """Draw ``placements`` in order on the table (or on ``base``)."""
        img = (self.table() if base is None else base.copy()).astype(np.float32)
        h, w = img.shape[:2]
        for p in placements:
            face, mask = self._face(p.code)
            fh, fw = face.shape[:2]
            src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
            dst = p.corners().astype(np.float32)
            m = cv2.getPerspectiveTransform(src, dst)
            warped = cv2.warpPerspective(face, m, (w, h), flags=cv2.INTER_AREA)
            alpha = (
                cv2.warpPerspective(mask, m, (w, h), flags=cv2.INTER_LINEAR).astype(np.float32)[..., None]
                / 255
            )
            shadow = (
                cv2.GaussianBlur(alpha, (0, 0), 3)[..., None]
                if alpha.ndim == 2
                else cv2.GaussianBlur(alpha[..., 0], (0, 0), 3)[..., None]
            )
            img *= 1.0 - 0.35 * np.roll(np.roll(shadow, 3, 0), 3, 1)
            img = img * (1 - alpha) + warped.astype(np.float32) * alpha
        if self.blur > 0:
            img = cv2.GaussianBlur(img, (0, 0), self.blur)
        if self.noise > 0:
            img += self.rng.normal(0, self.noise, img.shape).astype(np.float32)
        return SimFrame(np.clip(img, 0, 255).astype(np.uint8), tuple(placements), window)

    def layout(self, codes: Sequence[str], layout: str = "row") -> list[Placement]:
        """Placements for ``codes`` under one of :data:`LAYOUTS`."""
        if layout not in LAYOUTS:
            raise ValueError(f"layout must be one of {', '.join(LAYOUTS)}, got {layout!r}")
        w, h = self.size
        cw = self.width_px
        ch = cw * CARD_ASPECT
        rng = self.rng
        out: list[Placement] = []
        if layout == "row":
            per_row = max(1, int((w - cw * 0.3) // (cw * 1.15)))
            for i, c in enumerate(codes):
                r, k = divmod(i, per_row)
                out.append(
                    Placement(
                        c, (cw * 0.75 + k * cw * 1.15, ch * 0.65 + r * ch * 1.15), float(rng.normal(0, 3)), cw
                    )
                )
        elif layout == "scatter":
            for c in codes:
                for _ in range(200):
                    centre = (
                        float(rng.uniform(ch * 0.6, w - ch * 0.6)),
                        float(rng.uniform(ch * 0.6, h - ch * 0.6)),
                    )
                    if all(
                        np.hypot(centre[0] - o.centre[0], centre[1] - o.centre[1]) > ch * 1.05 for o in out
                    ):
                        break
                out.append(
                    Placement(c, centre, float(rng.uniform(0, 360)), cw * float(rng.uniform(0.85, 1.15)))
                )
        elif layout == "hand":  # each card dealt down and across from the one before, over it
            n = self.hand_cards
            more = max(0, n - 2)  # a longer hand needs more room
            pitch_x, pitch_y = cw * (2.0 + 0.42 * more), ch * 1.6 + cw * 0.3 * more
            for i in range(0, len(codes), n):
                k = i // n
                per_row = max(1, int(w // pitch_x))
                r, col = divmod(k, per_row)
                cx, cy = cw * 0.9 + col * pitch_x, ch * 0.7 + r * pitch_y
                a = float(rng.uniform(-25, 25))
                out.append(Placement(codes[i], (cx, cy), a, cw))
                rad = np.radians(a)
                x_axis, y_axis = np.array([np.cos(rad), -np.sin(rad)]), np.array([np.sin(rad), np.cos(rad)])
                for j in range(1, min(n, len(codes) - i)):
                    if self.double_down and j == n - 1:  # across the cards before it, below their middle
                        under = np.mean([p.centre for p in out[-j:]], axis=0) + y_axis * ch * 0.55
                        turn = a + 90.0 + float(rng.uniform(-6, 6))
                        out.append(Placement(codes[i + j], (float(under[0]), float(under[1])), turn, cw))
                        continue
                    d = x_axis * 0.42 * cw * j + y_axis * 0.3 * cw * j
                    out.append(
                        Placement(
                            codes[i + j],
                            (cx + float(d[0]), cy + float(d[1])),
                            a + float(rng.uniform(-8, 8)),
                            cw,
                        )
                    )
        elif layout == "fan":
            n = len(codes)
            pivot = np.array([w / 2, h / 2 + ch * 0.9])
            spread = self.fan_spread
            for i, c in enumerate(codes):
                ang = (i - (n - 1) / 2) * spread
                rad = np.radians(ang)
                off = np.array([np.sin(rad), -np.cos(rad)]) * ch * 0.85
                out.append(Placement(c, (float(pivot[0] + off[0]), float(pivot[1] + off[1])), -ang, cw))
        elif layout == "spread":
            turn = np.radians(float(rng.uniform(-25, 25)))  # the line turned on screen
            step = np.array([np.cos(turn), np.sin(turn)]) * cw * self.spread_step
            first = np.array([w / 2, h / 2]) - step * (len(codes) - 1) / 2
            for i, c in enumerate(codes):
                at = first + i * step
                out.append(Placement(c, (float(at[0]), float(at[1])), -float(np.degrees(turn)), cw))
        else:  # shoe
            x, y, ww, wh = self.shoe_window()
            out.append(
                Placement(codes[0], (x + ww / 2, y + wh / 2), 90.0 + float(rng.normal(0, 2)), wh * 0.7)
            )
        return out

    def frame_for(self, codes: Sequence[str], layout: str = "row") -> SimFrame:
        """Render ``codes`` (``BK`` draws a back) in ``layout``."""
        placements = self.layout(codes, layout)
        return self.render(placements, window=self.shoe_window() if layout == "shoe" else None)

    def shoe_window(self) -> tuple[int, int, int, int]:
        """The shoe's window (x, y, w, h): the middle of the frame."""
        w, h = self.size
        return (int(w * 0.15), int(h * 0.1), int(w * 0.7), int(h * 0.8))

    def shoe_pass(self, code: str, steps: int = 10, empty: int = 3) -> list[np.ndarray]:
        """Frames of one card sliding through the shoe window, with ``empty`` frames before and after."""
        x, y, ww, wh = self.shoe_window()
        card_w = wh * 0.7
        frames = [self.render([]).image for _ in range(empty)]
        for t in np.linspace(-0.25, 1.25, steps):
            cx = x + ww * t
            frames.append(self.render([Placement(code, (float(cx), y + wh / 2), 90.0, card_w)]).image)
        frames += [self.render([]).image for _ in range(empty)]
        return frames

    def source(
        self, scenes: Sequence[Sequence[str]], layout: str = "row", fps: float = 10.0
    ) -> RecordedSource:
        """A frame source replaying one rendered frame per scene."""
        return RecordedSource([self.frame_for(s, layout).image for s in scenes], fps=fps)
