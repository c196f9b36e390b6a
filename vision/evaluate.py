"""Measure recognition on a labelled folder.

Two layouts are understood (those of the dev photos):

* single-card folders: ``DIR/<CODE>/*.jpg`` — one card per image, scored as accuracy;
* scenes: ``DIR/images/*`` + ``DIR/labels.json`` (file name → list of codes, order free) — scored as
  precision / recall / F1 over the multiset of codes. An optional ``DIR/optional.json`` (same form)
  lists cards that are in the picture but need not be read (narrower than a readable index, or
  with no index in view): a sighting of one of them counts neither for nor against (``ignored``),
  the way a detection benchmark treats its don't-care objects.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from vision.errors import SourceError
from vision.recognizer import Recognizer
from vision.sighting import is_card_code
from vision.sources import IMAGE_SUFFIXES, read_image


@dataclass(frozen=True)
class CodeScore:
    """One frame's codes read against the codes it shows, counted as multisets."""

    right: int
    false: int
    missed: int
    ignored: int  # sightings of optional cards: neither right nor false
    missing: tuple[str, ...]  # the cards not read (sorted)
    extra: tuple[str, ...]  # the codes read that the frame does not show (sorted; optional ones left out)

    def misread_suits(self) -> list[tuple[str, str]]:
        """(card, code read) for each card missed where a code of its rank was read that is not there:
        its suit read wrong.

        >>> score_codes(["5D", "9C"], ["5C", "9C"]).misread_suits()
        [('5D', '5C')]
        """
        return [(m, e) for m in self.missing for e in self.extra if e[:-1] == m[:-1]]


def score_codes(truth: Iterable[str], read: Iterable[str], optional: Iterable[str] = ()) -> CodeScore:
    """The codes ``read`` in a frame that shows ``truth``: each code counts as often as it is in
    both, a code read more often than shown is false, and one shown more often than read is
    missed. A code read beyond ``truth`` that ``optional`` holds (a card in view that need not be
    read) is ignored.

    >>> s = score_codes(["AS", "AS", "KD"], ["AS", "KD", "QH", "JK"], optional=["JK"])
    >>> (s.right, s.false, s.missed, s.ignored, s.missing, s.extra)
    (2, 1, 1, 1, ('AS',), ('QH',))
    """
    t, r = Counter(truth), Counter(read)
    ignored = (r - t) & Counter(optional)
    missing, extra = (t - r), (r - t - ignored)
    return CodeScore(
        sum((t & r).values()),
        sum(extra.values()),
        sum(missing.values()),
        sum(ignored.values()),
        tuple(sorted(missing.elements())),
        tuple(sorted(extra.elements())),
    )


@dataclass
class EvalReport:
    layout: str
    frames: int = 0
    correct: int = 0
    true_pos: int = 0
    false_pos: int = 0
    false_neg: int = 0
    ignored: int = 0  # sightings of cards the folder marks optional (neither right nor false)
    confusions: Counter[tuple[str, str]] = field(default_factory=Counter)
    ms: list[float] = field(default_factory=list)
    misses: list[dict[str, object]] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "layout": self.layout,
            "frames": self.frames,
            "ms_per_frame": round(float(np.mean(self.ms)), 2) if self.ms else None,
            "ms_per_frame_median": round(float(np.median(self.ms)), 2) if self.ms else None,
        }
        if self.layout == "single":
            out["correct"] = self.correct
            out["accuracy"] = round(self.correct / self.frames, 4) if self.frames else None
        else:
            p = self.true_pos / max(1, self.true_pos + self.false_pos)
            r = self.true_pos / max(1, self.true_pos + self.false_neg)
            out.update(
                {
                    "true_positives": self.true_pos,
                    "false_positives": self.false_pos,
                    "false_negatives": self.false_neg,
                    "ignored": self.ignored,
                    "precision": round(p, 4),
                    "recall": round(r, 4),
                    "f1": round(2 * p * r / max(p + r, 1e-9), 4),
                }
            )
        out["confusions"] = [
            {"truth": t, "read": r, "count": n} for (t, r), n in self.confusions.most_common()
        ]
        out["misses"] = list(self.misses)  # every frame read wrong: a report to work from, not a sample
        return out


def detect_layout(root: Path) -> str:
    if (root / "labels.json").is_file() and (root / "images").is_dir():
        return "scenes"
    subdirs = [d for d in root.iterdir() if d.is_dir()] if root.is_dir() else []
    if subdirs and all(is_card_code(d.name) for d in subdirs):
        return "single"
    raise SourceError(
        f"{root} is neither single-card folders (DIR/<CODE>/*.jpg) nor a scene folder "
        "(DIR/images/ + DIR/labels.json)"
    )


def _items(root: Path, layout: str) -> Iterator[tuple[Path, list[str], list[str]]]:
    """Each image with the codes it must show and those it may show (``optional.json``)."""
    if layout == "single":
        for d in sorted(p for p in root.iterdir() if p.is_dir()):
            for f in sorted(d.iterdir()):
                if f.suffix.lower() in IMAGE_SUFFIXES:
                    yield f, [d.name], []
    else:
        labels = json.loads((root / "labels.json").read_text())
        optional_file = root / "optional.json"
        optional = json.loads(optional_file.read_text()) if optional_file.is_file() else {}
        for name, codes in sorted(labels.items()):
            yield root / "images" / name, list(codes), list(optional.get(name, []))


def evaluate(
    root: str | Path,
    recognizer: Recognizer,
    *,
    limit: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> EvalReport:
    root = Path(root)
    layout = detect_layout(root)
    items = list(_items(root, layout))
    if limit is not None:
        items = items[:limit]
    rep = EvalReport(layout)
    for i, (path, truth, optional) in enumerate(items):
        image = read_image(path)
        t0 = time.perf_counter()
        found = recognizer.recognize(image)
        rep.ms.append((time.perf_counter() - t0) * 1000)
        rep.frames += 1
        read = [s.card for s in found]
        if layout == "single":
            best = max(found, key=lambda s: s.confidence).card if found else "none"
            if best == truth[0]:
                rep.correct += 1
            else:
                rep.confusions[(truth[0], best)] += 1
                rep.misses.append({"file": str(path.relative_to(root)), "truth": truth[0], "read": best})
        else:
            score = score_codes(truth, read, optional)
            rep.true_pos += score.right
            rep.ignored += score.ignored
            rep.false_pos += score.false
            rep.false_neg += score.missed
            for a, b in zip(score.missing, score.extra, strict=False):
                rep.confusions[(a, b)] += 1
            if score.missing or score.extra:
                miss = {"file": path.name, "missing": list(score.missing), "extra": list(score.extra)}
                rep.misses.append(miss)
        if progress:
            progress(i + 1, len(items))
    return rep
