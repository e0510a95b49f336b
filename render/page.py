"""The shell of a self-contained HTML report: one file with its style, script, pictures
and data inline, and a Content-Security-Policy that forbids every network request, so it
opens from disk and never reaches out.

A report is a list of *frames* (positions to look at) that the page's script switches
between: each frame has a board picture and a detail text.  Boards of one game share most
of their lines (see ``render.svg``), so the page stores each distinct line once, as plain
text in a ``<script type="text/plain">`` element, and every board as a list of line
numbers (``shared_lines``); the script joins them back, giving exactly the text
``board_svg`` returned.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape
from typing import Any

from render.scripts import FRAME_VIEWER_JS
from render.svg import BOARD_CSS

CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
    "img-src data:; base-uri 'none'; form-action 'none'"
)

PAGE_CSS = """
body{font-family:'DejaVu Sans',Verdana,sans-serif;font-size:14px;color:#222;margin:16px;
 background:#fafafa}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:18px 0 6px}
.sub{color:#555;margin:0 0 10px}
.warn{background:#fff3cd;border:1px solid #e0c060;padding:6px 10px;display:inline-block}
.cols{display:flex;gap:18px;align-items:flex-start;flex-wrap:wrap}
.box{background:#fff;border:1px solid #ddd;border-radius:6px;padding:10px}
#board svg{display:block;width:680px;height:auto}
#detail{min-height:44px;margin:0 0 8px;max-width:680px;line-height:1.45}
.nav button{font-size:14px;padding:2px 10px;margin-right:4px}
.nav .hint{color:#666;font-size:12px;margin-left:6px}
table{border-collapse:collapse}
td,th{padding:2px 8px;text-align:left;vertical-align:top}
th{font-weight:bold;border-bottom:1px solid #ccc}
td.num,th.num{text-align:right}
.moves{max-height:560px;overflow-y:auto}
.moves td.mv{cursor:pointer;white-space:nowrap;font-family:'DejaVu Sans Mono',monospace;
 font-size:13px}
.moves td.mv:hover,tr.cand:hover{background:#eef}
.moves th.round{background:#f0f0f0;text-align:left}
[data-frame].cur{background:#ffe08a}
tr.cand{cursor:pointer}
.chip{display:inline-block;width:15px;height:15px;line-height:15px;text-align:center;
 font-size:11px;font-weight:bold;border-radius:3px;margin-right:3px}
.ka{background:#D55E00;color:#fff}.kb{background:#0072B2;color:#fff}
.kc{background:#009E73;color:#fff}.kd{background:#F0E442;color:#222}
.m1{color:#8a6d00;font-weight:bold}.m2{color:#c25400;font-weight:bold}
.m3{color:#b00020;font-weight:bold}
.loss{color:#777;font-size:11px}
.mistakes{margin:4px 0 0;padding-left:18px}
.mistakes li{cursor:pointer}.mistakes li:hover{text-decoration:underline}
#graph svg{display:block;width:100%;max-width:1200px;height:auto}
.g text{font-size:11px;fill:#444}
.g .axis{stroke:#888}.g .gl{stroke:#e4e4e4}.g .rl{stroke:#999;stroke-dasharray:3 3}
.g line,.g polyline,.g text{pointer-events:none}
.g .band{fill:transparent;cursor:pointer}.g .band:hover{fill:#eef}
.g .band.cur{fill:#ffe08a}
.g .line{fill:none;stroke-width:2}
.g .pt{cursor:pointer;stroke:#fff;stroke-width:1}
.g .pt.cur{stroke:#000;stroke-width:2}
.g .pm{stroke:#000;stroke-width:1.5}
.g .ci{stroke-width:1;opacity:.45}
footer{color:#777;font-size:12px;margin-top:18px}
"""


def shared_lines(svgs: Sequence[str]) -> tuple[list[str], list[list[int]]]:
    """Each distinct line of ``svgs`` once, and every SVG as the numbers of its lines:
    ``"\\n".join(lines[i] for i in numbers[k]) == svgs[k]``."""
    index: dict[str, int] = {}
    lines: list[str] = []
    numbers = []
    for svg in svgs:
        row = []
        for line in svg.split("\n"):
            if line not in index:
                index[line] = len(lines)
                lines.append(line)
            row.append(index[line])
        numbers.append(row)
    return lines, numbers


def frames_data(
    boards: Sequence[str], details: Sequence[str], xs: Sequence[float] | None = None
) -> dict[str, Any]:
    """What the page's script reads: the boards' distinct ``lines`` and each board's line
    ``boards`` numbers, the ``details`` HTML of each frame and, with a graph, the ``xs``
    of each frame's cursor."""
    lines, numbers = shared_lines(boards)
    data: dict[str, Any] = {"lines": lines, "boards": numbers, "details": list(details)}
    if xs is not None:
        data["xs"] = [round(x, 1) for x in xs]
    return data


def script_json(data: Any) -> str:
    """``data`` as JSON that is safe inside a ``<script>`` element (no ``<`` at all)."""
    return json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")


def _script_text(lines: Sequence[str]) -> str:
    """Lines of markup as the text of a ``<script type="text/plain">``: markup escapes
    its text, so only a bug could put a script end or comment in it."""
    text = "\n".join(lines)
    lowered = text.lower()
    if "</script" in lowered or "<!--" in lowered or "<script" in lowered:
        raise ValueError("board markup holds a script tag or comment: it cannot be embedded")
    return text


def html_page(title: str, body: str, data: dict[str, Any]) -> str:
    """A whole report page: ``body`` (HTML) with ``data`` (``frames_data``) for the
    frame viewer script."""
    rest = {k: v for k, v in data.items() if k != "lines"}
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<link rel="icon" href="data:,">'
        f"<title>{escape(title)}</title>\n<style>{PAGE_CSS}{BOARD_CSS}</style></head>\n"
        f"<body>\n{body}\n"
        f'<script type="text/plain" id="frames-lines">{_script_text(data["lines"])}</script>\n'
        f'<script type="application/json" id="frames-data">{script_json(rest)}</script>\n'
        f"<script>{FRAME_VIEWER_JS}</script>\n</body></html>\n"
    )


def chip(letter: str) -> str:
    """A small coloured square with a colour letter, in HTML."""
    return f'<span class="chip k{letter}">{letter}</span>'


def mark_class(mark: str | None) -> str:
    """The CSS class of a review mark (``?!``, ``?``, ``??``), empty for none."""
    return {"?!": "m1", "?": "m2", "??": "m3"}.get(mark or "", "")


def number(value: Any) -> float | None:
    """``value`` as a float when it is a number (not a bool), else None: the analyzer's
    data may leave a key out or set it to null."""
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def percent(value: Any) -> str:
    """A probability as a whole percentage, ``–`` when it is missing."""
    figure = number(value)
    return "–" if figure is None else f"{figure * 100:.0f}%"


def win_interval(item: dict[str, Any]) -> str | None:
    """``item``'s ``win_low``–``win_high`` as percentages, None when it has none."""
    low, high = number(item.get("win_low")), number(item.get("win_high"))
    if low is None or high is None:
        return None
    return f"{low * 100:.0f}–{high * 100:.0f}%"


def nav_bar(hint: str) -> str:
    """The ◀ ▶ buttons that step through the frames, with a hint."""
    return (
        '<div class="nav"><button type="button" data-step="-1" title="previous (←)">◀</button>'
        '<button type="button" data-step="1" title="next (→)">▶</button>'
        f'<span class="hint">{escape(hint)}</span></div>'
    )
