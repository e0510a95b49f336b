"""The script of the HTML reports (inline; no library, no network).

It reads the page's ``frames-data`` JSON and ``frames-lines`` text (see ``render.page``)
and shows one frame at a time: the board joined from its shared lines into ``#board``,
the frame's text into ``#detail``, the class ``cur`` on every element whose
``data-frame`` is the frame's (the move in the list, the point on the graph), and the
graph's cursor at the frame's x.
Any element with ``data-frame`` opens its frame on a click; ← and → step, Home and End
jump; ``#7`` in the address opens frame 7.
"""

FRAME_VIEWER_JS = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("frames-data").textContent);
  data.lines = document.getElementById("frames-lines").textContent.split("\n");
  var board = document.getElementById("board");
  var detail = document.getElementById("detail");
  var cursor = document.getElementById("cursor");
  var last = data.boards.length - 1;
  var current = -1;

  function boardText(k) {
    return data.boards[k].map(function (i) { return data.lines[i]; }).join("\n");
  }

  function show(k) {
    k = Math.max(0, Math.min(last, k));
    if (k === current) { return; }
    current = k;
    board.innerHTML = boardText(k);
    board.setAttribute("data-frame-shown", String(k));
    if (detail) { detail.innerHTML = data.details[k]; }
    document.querySelectorAll("[data-frame].cur").forEach(function (el) {
      el.classList.remove("cur");
    });
    document.querySelectorAll('[data-frame="' + k + '"]').forEach(function (el) {
      el.classList.add("cur");
      if (el.tagName === "TD" || el.tagName === "TR") {
        el.scrollIntoView({block: "nearest"});
      }
    });
    if (cursor && data.xs) {
      cursor.setAttribute("x1", data.xs[k]);
      cursor.setAttribute("x2", data.xs[k]);
    }
    try { history.replaceState(null, "", "#" + k); } catch (e) { /* file: may refuse */ }
  }

  document.addEventListener("click", function (event) {
    var el = event.target.closest("[data-frame]");
    if (el) { show(parseInt(el.getAttribute("data-frame"), 10)); }
    var step = event.target.closest("[data-step]");
    if (step) { show(current + parseInt(step.getAttribute("data-step"), 10)); }
  });

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var keys = {ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: last};
    if (event.key in keys) {
      event.preventDefault();
      show(keys[event.key]);
    }
  });

  var start = parseInt(location.hash.slice(1), 10);
  show(isNaN(start) ? 0 : start);
})();
"""
