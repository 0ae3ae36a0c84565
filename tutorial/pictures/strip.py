"""token_strip: a training sample drawn as a strip of tokens, one small box each, coloured by what
the loss does with it — the picture of chapter 13.

A Graphviz graph is the wrong shape for 200 boxes in a row, so this one writes its SVG itself:
plain rectangles, 40 to a line, a legend, and each box's token text in its `<title>` (shown when
the pointer rests on it). A marker can show where two token lists part.

    strip = Strip.of_sample(sample, "turn 1 + turn 2", decode=tokenizer_decode)
    token_strip([before, strip])      # an object a notebook shows as SVG

Box kinds: "prompt" (the first prompt, outside the sample's response region), "context"
(inside the response region, loss_mask 0: a later prompt, a tool result, an overwritten
answer), "trained" (loss_mask 1), "dropped" (held once, gone from the sample).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import Callable, Optional

from .. import words

PER_LINE = 40
BOX, GAP = 17, 2  # a box is 17 × 17 px: at 40 a line, 760 px, inside the 960 px every picture keeps to
COLOURS = {"prompt": "#d9d9d9", "context": "#9ecae1", "trained": "#31a354", "dropped": "#fdae6b"}
KINDS = tuple(COLOURS)


@dataclass
class Strip:
    label: str
    kinds: list[str]
    titles: list[str] = field(default_factory=list)  # one token text per box, or none
    mark: Optional[int] = None  # a line before box `mark`: where this strip parts from another

    @classmethod
    def of_sample(cls, sample, label: str, decode: Optional[Callable[[int], str]] = None,
                  mark: Optional[int] = None) -> "Strip":  # fmt: skip
        """`sample`: anything with `tokens`, `response_length` and `loss_mask` (a trajectory Sample)."""
        prompt = len(sample.tokens) - sample.response_length
        kinds = ["prompt"] * prompt + ["trained" if bit else "context" for bit in sample.loss_mask]
        titles = [decode(token) for token in sample.tokens] if decode else []
        return cls(label, kinds, titles, mark)

    def count(self, kind: str) -> int:
        return self.kinds.count(kind)


class TokenStrip:
    """The rendered picture: `_repr_svg_` for a notebook, `.svg` for a file."""

    def __init__(self, svg: str, strips: list[Strip]):
        self.svg = svg
        self.strips = strips

    def __repr__(self) -> str:  # the text form a notebook stores beside the SVG: no address, same every run
        return words.text("strip.separator").join(f"{s.label} · " + words.text("strip.counts", tokens=len(s.kinds), trained=s.count("trained"))
                         for s in self.strips)

    def _repr_svg_(self) -> str:
        return self.svg


def token_strip(strips: list[Strip]) -> TokenStrip:
    """The strips one under another, each with its label and counts, then the legend."""
    parts, y = [], 8
    width = PER_LINE * (BOX + GAP) + 16
    for strip in strips:
        counts = words.text("strip.counts", tokens=len(strip.kinds), trained=strip.count("trained"))
        parts.append(_text(8, y + 15, f"{strip.label} · {counts}", bold=True))
        y += 24
        for index, kind in enumerate(strip.kinds):
            row, column = divmod(index, PER_LINE)
            x, top = 8 + column * (BOX + GAP), y + row * (BOX + GAP)
            title = f"<title>{index}: {escape(repr(strip.titles[index]))}</title>" if strip.titles else ""
            parts.append(f'<rect x="{x}" y="{top}" width="{BOX}" height="{BOX}" fill="{COLOURS[kind]}">{title}</rect>')
        if strip.mark is not None:
            row, column = divmod(strip.mark, PER_LINE)
            x, top = 8 + column * (BOX + GAP) - GAP, y + row * (BOX + GAP) - 3
            parts.append(f'<rect x="{x - 1}" y="{top}" width="3" height="{BOX + 6}" fill="#d62728"/>')
        y += ((len(strip.kinds) + PER_LINE - 1) // PER_LINE) * (BOX + GAP) + 14
    legend = [(f'<rect x="8" y="{{y}}" width="{BOX}" height="{BOX}" fill="{COLOURS[kind]}"/>', words.text(f"strip.{kind}"))
              for kind in KINDS if any(kind in strip.kinds for strip in strips)]
    if any(strip.mark is not None for strip in strips):
        legend.append(('<rect x="15" y="{y}" width="3" height="23" fill="#d62728"/>', words.text("strip.mark")))
    for mark, label in legend:  # one entry a line: the Chinese labels are as wide as the English ones
        parts.append(mark.format(y=y - (3 if "d62728" in mark else 0)))
        parts.append(_text(8 + BOX + 8, y + 14, label))
        y += BOX + 8
    y -= BOX + 8
    height = y + BOX + 12
    body = "\n".join(parts)
    return TokenStrip(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="14">\n{body}\n</svg>',
        strips,
    )


def _text(x: int, y: int, content: str, bold: bool = False) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return f'<text x="{x}" y="{y}"{weight}>{escape(content)}</text>'


__all__ = ["Strip", "TokenStrip", "token_strip"]
