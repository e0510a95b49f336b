"""The page's own style, after ``render.page.PAGE_CSS`` and the board's ``BOARD_CSS``."""

SERVE_CSS = """
[hidden]{display:none !important}
header{display:flex;align-items:baseline;gap:18px;margin-bottom:10px}
.tabs a{margin-right:12px;color:#0a58ca;text-decoration:none;font-weight:bold}
body[data-mode=play] .tabs a[data-mode=play],body[data-mode=train] .tabs a[data-mode=train]{
 color:#222;border-bottom:2px solid #222}
.busy{color:#8a6d00}.error{color:#b00020;font-weight:bold}
.form fieldset{border:1px solid #ddd;margin:6px 0;padding:6px 10px;line-height:2}
.form label{margin-right:10px}
button,.button{font-size:14px;padding:3px 10px;margin:2px 4px 2px 0;cursor:pointer;
 border:1px solid #999;border-radius:4px;background:#f4f4f4;color:#222;text-decoration:none;
 display:inline-block;font-family:inherit}
button:disabled{cursor:default;color:#999;border-color:#ccc}
button.main{background:#0a58ca;color:#fff;border-color:#0a58ca}
button.main:disabled{background:#a9c1e8;border-color:#a9c1e8;color:#fff}
.box h2{margin:0 0 6px}
button.on{background:#ffe08a;border-color:#c9a227}
.left{flex:0 0 auto}
.side{flex:1 1 340px;max-width:520px;display:flex;flex-direction:column;gap:10px}
.board svg{display:block;width:680px;height:auto;background:#fff;border:1px solid #ddd;
 border-radius:6px}
.note{background:#fff3cd;border:1px solid #e0c060;padding:4px 8px;margin-bottom:6px}
.status{font-weight:bold;font-size:15px;margin-bottom:4px}
.message{min-height:20px;color:#333;margin-bottom:6px}
.message.bad{color:#b00020}
.builder .step{margin:3px 0}.builder .step b{display:inline-block;width:58px;color:#555}
.builder .blk{min-width:34px}
.builder .group{font-family:'DejaVu Sans Mono',monospace}
.typed{margin:6px 0}
.question{font-weight:bold;max-width:680px}
#coach p,#hint p,#train-feedback p{margin:4px 0;line-height:1.4}
#coach .headline{font-weight:bold}
#coach .reply{color:#8a3b00}
#train-feedback .right{color:#146c2e;font-weight:bold}
#train-feedback .wrong{color:#b00020;font-weight:bold}
#train-feedback .skipped,#train-feedback .invalid{color:#8a6d00;font-weight:bold}
progress{width:100%}
#analysis table{font-size:13px;margin-top:4px}
#analysis tr.cand{cursor:pointer}#analysis tr.cand.cur{background:#ffe08a}
#analysis .why{margin:4px 0;color:#333}
.moves{max-height:300px;overflow-y:auto;font-family:'DejaVu Sans Mono',monospace;font-size:13px}
.moves span.mv{cursor:pointer;padding:0 3px;white-space:nowrap;display:inline-block}
.moves span.mv:hover{background:#eef}.moves span.mv.cur{background:#ffe08a}
.moves span.mine{font-weight:bold}.moves .rd{color:#777;margin-top:4px}
#graph svg{width:680px}
.mb .cell-target{fill:transparent;cursor:pointer}
.mb .cell-target:hover{fill:rgba(10,88,202,.12)}
.mb .cell-target.can{fill:rgba(255,200,0,.30)}
.mb .cell-target.chosen{fill:rgba(255,150,0,.55)}
.mb g.card[data-cell]{cursor:pointer}
.mb g.card.picked .mini rect{stroke:#000;stroke-width:3}
.mb g.sel rect{cursor:pointer}
.mb g.sel rect.picked{stroke:#000;stroke-width:2}
"""
