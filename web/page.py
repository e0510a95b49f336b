"""The one page of ``manhattan serve``: HTML with its style and script inline, no
network but its own server (the Content-Security-Policy allows nothing else).

The same page plays (``/``) and trains (``/train``); its script (``web.page_script``)
talks to the JSON API and to the engine endpoint, and the boards come drawn from the
server (``render.svg``).
"""

from __future__ import annotations

from html import escape

from render.page import PAGE_CSS
from render.svg import BOARD_CSS
from web.page_script import PAGE_JS
from web.page_style import SERVE_CSS

CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
    "img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'"
)
CSP_HEADER = CSP + "; frame-ancestors 'none'"  # a <meta> policy cannot say this part

PLAY_BODY = """
<section id="play" class="mode">
 <details id="setup" class="box" open>
  <summary>New game</summary>
  <div class="form">
   <fieldset><legend>Start from</legend>
    <label><input type="radio" name="start" value="deal" checked> a new deal:</label>
    <select id="players" title="players"><option value="2" selected>2 players</option>
     <option value="3">3 players</option><option value="4">4 players</option></select>
    <label>seed <input id="seed" type="number" min="0" placeholder="random" size="8"></label>
    <br><label><input type="radio" name="start" value="bundled"> a bundled position:</label>
    <select id="bundled"></select>
    <br><label><input type="radio" name="start" value="position"> a position string:</label>
    <input id="position" type="text" size="44" spellcheck="false"
     placeholder="paste a position (NOTATION.md)">
    <br><label><input type="radio" name="start" value="record"> a game record:</label>
    <input id="record" type="file" accept=".mgn,text/plain">
   </fieldset>
   <fieldset><legend>Table</legend>
    <label>your seat <select id="seat"><option value="">the player to move / P1</option>
     <option>1</option><option>2</option><option>3</option><option>4</option></select></label>
    <label>bots <select id="bots"></select></label>
    <br><label><input id="coach-on" type="checkbox" checked> coach (feedback on each move)</label>
    <label><input id="teach-on" type="checkbox"> teach (offer take-backs)</label>
   </fieldset>
   <button type="button" id="start" class="main">Start the game</button>
  </div>
 </details>
 <div class="cols" id="table" hidden>
  <div class="left">
   <div id="viewing" class="note" hidden>
    <button type="button" data-frame-step="-1" title="earlier (&larr;)">&#9664;</button>
    <button type="button" data-frame-step="1" title="later (&rarr;)">&#9654;</button>
    <span id="viewing-text"></span>
    <button type="button" id="back">Back to the game</button>
   </div>
   <div id="board" class="board"></div>
   <div id="graph" class="box" hidden><h2>Win % after your moves</h2>
    <div id="graph-svg"></div></div>
  </div>
  <div class="side">
   <div class="box" id="turn">
    <div id="status" class="status"></div>
    <div id="message" class="message" role="status"></div>
    <div id="builder" class="builder"></div>
    <form id="typed" class="typed" autocomplete="off">
     <input id="move-input" type="text" size="24" spellcheck="false"
      placeholder="or type a move or its number">
     <button type="submit" id="play-typed">Play</button>
    </form>
    <div class="buttons">
     <button type="button" id="hint-button">Hint</button>
     <button type="button" id="undo-button">Undo</button>
     <a id="save" class="button" href="#" download>Save record</a>
    </div>
   </div>
   <div class="box" id="coach-box" hidden><h2>Coach</h2><div id="coach"></div>
    <div id="offer" hidden><p id="offer-text"></p>
     <button type="button" id="take-back">Take it back</button>
     <button type="button" id="keep">Keep my move</button></div>
   </div>
   <div class="box" id="hint-box" hidden><h2>Hint</h2><div id="hint"></div></div>
   <div class="box" id="analysis-box"><h2>Analysis</h2>
    <div class="buttons"><button type="button" id="analyze">Analyze this position</button>
     <label>for <input id="analysis-seconds" type="number" min="1" max="600" value="5"
      size="3"> s</label>
     <button type="button" id="stop-analysis" disabled>Stop</button></div>
    <progress id="analysis-progress" max="1" value="0" hidden></progress>
    <div id="analysis"></div>
   </div>
   <div class="box" id="moves-box"><h2>Moves</h2><div id="moves" class="moves"></div></div>
  </div>
 </div>
</section>
"""

TRAIN_BODY = """
<section id="train" class="mode" hidden>
 <div class="cols">
  <div class="left">
   <p id="question" class="question"></p>
   <div id="train-board" class="board"></div>
  </div>
  <div class="side">
   <div class="box">
    <div id="train-status" class="status"></div>
    <div id="train-builder" class="builder"></div>
    <form id="train-typed" class="typed" autocomplete="off">
     <input id="train-input" type="text" size="18" spellcheck="false"
      placeholder="or type a move">
     <button type="submit" id="train-answer">Answer</button>
    </form>
    <div class="buttons">
     <button type="button" id="train-hint">Hint</button>
     <button type="button" id="train-skip">Skip</button>
     <button type="button" id="train-next" hidden>Next exercise</button>
     <button type="button" id="train-again" hidden>Start again</button>
    </div>
   </div>
   <div class="box" id="train-feedback-box" hidden><div id="train-feedback"></div></div>
   <div class="box"><div id="train-summary"></div></div>
  </div>
 </div>
</section>
"""


def page_html(mode: str, exercises: bool) -> str:
    """The page, opening on ``mode`` (``"play"`` or ``"train"``); ``exercises`` says
    whether the server has an exercises folder (the Train tab)."""
    tabs = '<a href="/" data-mode="play">Play</a>'
    if exercises:
        tabs += '<a href="/train" data-mode="train">Train</a>'
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<link rel="icon" href="data:,">'
        "<title>manhattan</title>\n"
        f"<style>{PAGE_CSS}{BOARD_CSS}{SERVE_CSS}</style></head>\n"
        f'<body data-mode="{escape(mode)}" data-busy="0">\n'
        f'<header><h1>manhattan</h1><nav class="tabs">{tabs}</nav>'
        '<span id="busy" class="busy" hidden>working&hellip;</span>'
        '<span id="error" class="error" role="alert" hidden></span></header>\n'
        f"{PLAY_BODY}{TRAIN_BODY}"
        f"<script>{PAGE_JS}</script>\n</body></html>\n"
    )
