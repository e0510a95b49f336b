"""The page's script (inline; no library, no network but its own server).

It talks to the JSON API (``web.app``) and asks for analyses in the engine mode's protocol
(``POST /api/engine``, the answers read line by line as they stream in).  Moves are made
by clicks, in any order: a card of the hand (``g.card[data-card]``), a city (every city's
3×3 grid gets transparent ``rect.cell-target[data-city][data-cell]`` squares on top; the
viewer's card k builds on cell k of every city as drawn, so a click on cell k with no card
picked picks card k too) and a block (a button, or the block in the player's row of the
board's panel, ``g.player[data-player] g.sel``): once card, city and block make a legal
move it is played.  A selection is one group of blocks per colour, then "Select".  The
typed box takes notation or a number.  The address ``/#game=<id>`` reopens a game the
server holds (the page sets it), so a reload keeps the game.
"""

PAGE_JS = r"""
(function () {
  "use strict";
  var SVG_NS = "http://www.w3.org/2000/svg";
  var body = document.body;
  var $ = function (id) { return document.getElementById(id); };
  var state = {info: null, game: null, frame: null, marks: null, analysis: null,
               training: null, shown: null};
  var busy = 0;

  // ----- helpers -------------------------------------------------------------------------

  function esc(text) {
    return String(text === null || text === undefined ? "" : text)
      .replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;");
  }

  function pct(value) {
    return typeof value === "number" ? Math.round(value * 100) + "%" : "-";
  }

  function setBusy(delta) {
    busy = Math.max(0, busy + delta);
    body.setAttribute("data-busy", busy ? "1" : "0");
    $("busy").hidden = busy === 0;
  }

  function showError(text) {
    $("error").textContent = text || "";
    $("error").hidden = !text;
  }

  function Failure(message, field) {
    this.message = message;
    this.field = field;
  }

  async function api(method, path, data) {
    var options = {method: method, headers: {}};
    if (data instanceof FormData) {
      options.body = data;
    } else if (data !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(data);
    }
    setBusy(1);
    try {
      var response = await fetch(path, options);
      var answer = await response.json();
      if (!response.ok) {
        throw new Failure(answer.error || ("HTTP " + response.status), answer.field);
      }
      return answer;
    } finally {
      setBusy(-1);
    }
  }

  function guarded(action) {
    return function (event) {
      if (event && event.preventDefault) { event.preventDefault(); }
      showError("");
      Promise.resolve().then(action).catch(function (error) {
        showError(error && error.message ? error.message : String(error));
      });
    };
  }

  function parseMove(text) {
    var m = /^([1-9])@([1-6]|-):([1-4])([a-d]?)$/.exec(text);
    if (!m) { return null; }
    return {text: text, card: +m[1], city: m[2] === "-" ? 0 : +m[2], stories: +m[3],
            color: m[4]};
  }

  function addTargets(svg) {
    svg.querySelectorAll("g.city").forEach(function (city) {
      var grid = city.querySelector("rect.grid");
      if (!grid) { return; }
      var x = +grid.getAttribute("x"), y = +grid.getAttribute("y");
      var side = +grid.getAttribute("width") / 3;
      for (var cell = 0; cell < 9; cell++) {
        var rect = document.createElementNS(SVG_NS, "rect");
        rect.setAttribute("class", "cell-target");
        rect.setAttribute("data-city", city.getAttribute("data-city"));
        rect.setAttribute("data-cell", String(cell + 1));
        rect.setAttribute("x", x + (cell % 3) * side);
        rect.setAttribute("y", y + Math.floor(cell / 3) * side);
        rect.setAttribute("width", side);
        rect.setAttribute("height", side);
        svg.appendChild(rect);
      }
    });
  }

  // ----- the move builder: card, city, block by clicks -----------------------------------

  function Builder(board, panel, message, submit) {
    this.board = board;
    this.panel = panel;
    this.message = message;
    this.submit = submit;
    this.load([], [], 1, false);
    var self = this;
    board.addEventListener("click", function (event) { self.onBoard(event); });
    panel.addEventListener("click", function (event) { self.onPanel(event); });
  }

  Builder.prototype.load = function (legal, choices, viewer, active) {
    this.legal = legal || [];
    this.choices = choices || [];
    this.viewer = viewer;
    this.active = !!active;
    this.placements = this.legal.map(parseMove).filter(function (m) { return m; });
    this.coloured = this.placements.some(function (m) { return m.color; });
    this.clear();
  };

  Builder.prototype.clear = function () {
    this.card = null;
    this.city = null;
    this.block = null;
    this.picks = {};
    this.update(false);
  };

  Builder.prototype.say = function (text, bad) {
    if (!this.message) { return; }
    this.message.textContent = text;
    this.message.classList.toggle("bad", !!bad);
  };

  Builder.prototype.fits = function (card, city, block) {
    return this.placements.filter(function (m) {
      return (card === null || m.card === card) && (city === null || m.city === city) &&
        (block === null || (m.stories === block.stories && m.color === block.color));
    });
  };

  Builder.prototype.onBoard = function (event) {
    if (!this.active) { return; }
    var target = event.target.closest("rect.cell-target");
    if (target) {
      this.pickCell(+target.getAttribute("data-city"), +target.getAttribute("data-cell"));
      return;
    }
    var card = event.target.closest("g.card[data-cell]");
    if (card) { this.pickCard(+card.getAttribute("data-card")); return; }
    var rect = event.target.closest("g.sel rect");
    var row = rect && rect.closest("g.player");
    if (row && +row.getAttribute("data-player") === this.viewer) {
      var rects = Array.prototype.slice.call(rect.parentNode.querySelectorAll("rect"));
      var blocks = rect.parentNode.getAttribute("data-blocks") || "";
      var stories = +blocks.charAt(rects.indexOf(rect));
      this.pickBlock(stories, this.coloured ? row.getAttribute("data-color") : "");
    }
  };

  Builder.prototype.onPanel = function (event) {
    var button = event.target.closest("button");
    if (!button || button.disabled || !this.active) { return; }
    if (button.hasAttribute("data-stories")) {
      this.pickBlock(+button.getAttribute("data-stories"), button.getAttribute("data-color"));
    } else if (button.hasAttribute("data-group")) {
      this.picks[button.getAttribute("data-color")] = button.getAttribute("data-group");
      this.update(false);
    } else if (button.hasAttribute("data-select")) {
      this.submit(button.getAttribute("data-select"));
    } else if (button.hasAttribute("data-clear")) {
      this.clear();
      this.say("");
    }
  };

  Builder.prototype.pickCard = function (card) {
    if (!this.fits(card, null, null).length) {
      this.say("card " + card + " cannot be played now", true);
      return;
    }
    this.card = this.card === card ? null : card;
    if (this.card !== null && this.city && !this.fits(this.card, this.city, null).length) {
      this.city = null;
    }
    if (this.card !== null && this.block && !this.fits(this.card, null, this.block).length) {
      this.block = null;
    }
    this.update(true);
  };

  Builder.prototype.pickCell = function (city, cell) {
    if (this.card === null) {
      if (!this.fits(cell, null, null).length) {
        this.say("pick a card of your hand first: card k builds on cell k of every city", true);
        return;
      }
      this.card = cell;
    }
    if (!this.fits(this.card, city, null).length) {
      this.say("card " + this.card + " cannot build in city " + city +
               " (no block of yours may go there)", true);
      return;
    }
    this.city = city;
    if (this.block && !this.fits(this.card, city, this.block).length) { this.block = null; }
    this.update(true);
  };

  Builder.prototype.pickBlock = function (stories, color) {
    var block = {stories: stories, color: color || ""};
    if (!this.fits(this.card, this.city, block).length) {
      this.say("that block cannot go there", true);
      return;
    }
    this.block = block;
    this.update(true);
  };

  Builder.prototype.move = function () {
    if (this.card === null || !this.block) { return null; }
    var tail = ":" + this.block.stories + this.block.color;
    if (this.city) { return this.card + "@" + this.city + tail; }
    var drop = this.card + "@-" + tail;
    return this.legal.indexOf(drop) >= 0 ? drop : null;
  };

  Builder.prototype.update = function (play) {
    this.mark();
    this.draw();
    if (!play || !this.active) { return; }
    var move = this.move();
    if (move && this.legal.indexOf(move) >= 0) {
      this.say("playing " + move + "...");
      this.submit(move);
      return;
    }
    var next = this.card === null ? "pick a card" : !this.city && this.fits(this.card, null, null)
      .some(function (m) { return m.city; }) ? "pick a city" : "pick a block";
    this.say(next);
  };

  Builder.prototype.mark = function () {
    var svg = this.board.querySelector("svg");
    if (!svg) { return; }
    var self = this;
    svg.querySelectorAll("g.card[data-cell]").forEach(function (g) {
      g.classList.toggle("picked", self.active && +g.getAttribute("data-card") === self.card);
    });
    var cities = {};
    if (this.active && this.card !== null) {
      this.fits(this.card, null, this.block).forEach(function (m) { cities[m.city] = true; });
    }
    svg.querySelectorAll("rect.cell-target").forEach(function (rect) {
      var city = +rect.getAttribute("data-city");
      var mine = self.card !== null && +rect.getAttribute("data-cell") === self.card;
      rect.classList.toggle("can", mine && !!cities[city] && city !== self.city);
      rect.classList.toggle("chosen", mine && city === self.city);
    });
    svg.querySelectorAll("g.player").forEach(function (row) {
      var color = row.getAttribute("data-color");
      row.querySelectorAll("g.sel rect").forEach(function (rect, k) {
        var stories = +(rect.parentNode.getAttribute("data-blocks") || "").charAt(k);
        var picked = self.active && self.block && self.block.stories === stories &&
          (self.block.color === color || !self.coloured) &&
          +row.getAttribute("data-player") === self.viewer;
        rect.classList.toggle("picked", !!picked);
      });
    });
  };

  Builder.prototype.draw = function () {
    if (!this.active) { this.panel.innerHTML = ""; return; }
    if (this.choices.length) { this.drawSelection(); return; }
    var self = this;
    var html = '<div class="step"><b>Card</b>' +
      (this.card === null ? "click a card of your hand" : "<strong>" + this.card + "</strong>") +
      '</div><div class="step"><b>City</b>';
    var placing = this.placements.some(function (m) { return m.city; });
    html += placing ? (this.city ? "<strong>" + this.city + "</strong>" :
      "click a city (card k builds on cell k)") : "no block can be placed: give one up";
    html += '</div><div class="step"><b>Block</b>';
    var seen = {};
    this.placements.forEach(function (m) {
      var key = m.stories + m.color;
      if (seen[key]) { return; }
      seen[key] = true;
      var block = {stories: m.stories, color: m.color};
      var ok = self.fits(self.card, self.city, block).length > 0;
      var on = self.block && self.block.stories === m.stories && self.block.color === m.color;
      html += '<button type="button" class="blk' + (on ? " on" : "") + '" data-stories="' +
        m.stories + '" data-color="' + m.color + '"' + (ok ? "" : " disabled") + ">" +
        m.stories + (m.color ? " " + m.color : "") + "</button>";
    });
    html += '</div><button type="button" data-clear="1">Clear</button>';
    this.panel.innerHTML = html;
  };

  Builder.prototype.drawSelection = function () {
    var self = this;
    var html = "<p>Choose this round's blocks" +
      (this.choices.length > 1 ? ", one group per colour:" : ":") + "</p>";
    this.choices.forEach(function (choice) {
      html += '<div class="step"><b>colour ' + esc(choice.color) + "</b>";
      choice.groups.forEach(function (group) {
        var on = self.picks[choice.color] === group;
        html += '<button type="button" class="group' + (on ? " on" : "") + '" data-color="' +
          esc(choice.color) + '" data-group="' + esc(group) + '">' + esc(group) + "</button>";
      });
      html += "</div>";
    });
    var parts = this.choices.map(function (c) { return self.picks[c.color]; });
    var ready = parts.every(function (p) { return p; });
    var move = "=" + parts.join("/");
    html += '<button type="button" class="main" id="select-button"' +
      (ready && this.legal.indexOf(move) >= 0 ? ' data-select="' + esc(move) + '"' : " disabled") +
      ">Select " + (ready ? esc(move) : "") + "</button>";
    this.panel.innerHTML = html;
  };

  // ----- play ------------------------------------------------------------------------------

  var builder = new Builder($("board"), $("builder"), $("message"), function (move) {
    guarded(function () { return act("move", {move: move}); })();
  });

  function setBoard(svg, active) {
    var board = $("board");
    board.innerHTML = svg;
    var picture = board.querySelector("svg");
    if (picture) { addTargets(picture); }
    board.setAttribute("data-decisions", state.game ? String(state.game.decisions) : "");
    builder.mark();
    board.classList.toggle("active", !!active);
  }

  async function loadInfo() {
    state.info = await api("GET", "/api/info");
    var bundled = $("bundled");
    bundled.innerHTML = state.info.bundled.map(function (b) {
      return '<option value="' + esc(b.name) + '">' + esc(b.name) + " (" + b.players +
        "p)</option>";
    }).join("");
    $("bots").innerHTML = state.info.bots.filter(function (b) { return b !== "human"; })
      .map(function (b) {
        return '<option value="' + esc(b) + '"' + (b === "greedy" ? " selected" : "") + ">" +
          esc(b) + "</option>";
      }).join("");
  }

  async function startGame() {
    await stopAnalysis();
    var start = document.querySelector('input[name="start"]:checked').value;
    var request = {coach: $("coach-on").checked, teach: $("teach-on").checked,
                   bots: [$("bots").value]};
    if ($("seat").value) { request.seat = +$("seat").value; }
    var data;
    if (start === "deal") {
      request.players = +$("players").value;
      if ($("seed").value !== "") { request.seed = +$("seed").value; }
    } else if (start === "bundled") {
      request.bundled = $("bundled").value;
    } else if (start === "position") {
      request.position = $("position").value;
    }
    if (start === "record") {
      var file = $("record").files[0];
      if (!file) { throw new Failure("choose a record file (.mgn) first", "record"); }
      var form = new FormData();
      form.append("record", file);
      form.append("options", JSON.stringify(request));
      data = await api("POST", "/api/games", form);
    } else {
      data = await api("POST", "/api/games", request);
    }
    openGame(data);
  }

  function openGame(game) {
    state.game = game;
    state.frame = null;
    state.marks = null;
    $("setup").open = false;
    try { history.replaceState(null, "", "#game=" + encodeURIComponent(game.id)); } catch (e) {}
    showGame(null);
  }

  async function reopen() {
    await loadInfo();
    var match = /^#game=([A-Za-z0-9_-]+)$/.exec(location.hash);
    if (match) { openGame(await api("GET", "/api/games/" + match[1])); }
  }

  async function act(action, data) {
    await stopAnalysis();
    var answer;
    try {
      answer = await api("POST", "/api/games/" + state.game.id + "/" + action, data || {});
    } catch (error) {
      if (error instanceof Failure && error.field === "move") {
        builder.clear();
        builder.say(error.message, true);
        return;
      }
      throw error;
    }
    state.game = answer.game;
    state.frame = null;
    state.marks = null;
    showGame(answer.answer);
  }

  function statusLine(game) {
    if (game.over) {
      var text = "Game over: " + game.totals.map(function (t, p) {
        return "P" + (p + 1) + " " + t + " (" + game.places[p] + ")";
      }).join(" · ");
      return text;
    }
    var phase = game.state.phase;
    if (game.offer) { return "The coach offers to take " + game.offer.played + " back"; }
    if (game.your_turn) {
      var seat = game.seats[game.viewer - 1];
      return "Your move, P" + game.viewer + " (" + seat.colors.join("+") + "): round " +
        game.state.round + " of " + game.state.rounds + ", " + phase;
    }
    return "P" + game.to_move + " to move";
  }

  function showGame(answer) {
    var game = state.game;
    $("table").hidden = false;
    $("status").textContent = statusLine(game);
    var words = [];
    if (answer && answer.message) { words.push(answer.message); }
    if (game.bots.length) {
      words.push("then " + game.bots.map(function (b) {
        return "P" + b.player + " " + b.move;
      }).join(", "));
    }
    builder.load(game.legal, game.choices, game.viewer, game.your_turn && !game.offer);
    builder.say(words.join("; ") || (game.your_turn ? "your move" : ""));
    showCoach(game);
    showHint(game);
    $("graph").hidden = !game.graph;
    $("graph-svg").innerHTML = game.graph || "";
    showMoves(game);
    var save = $("save");
    save.href = "/api/games/" + encodeURIComponent(game.id) + "/record";
    save.setAttribute("download", game.record_name);
    showFrame();
  }

  function showCoach(game) {
    $("coach-box").hidden = !game.coach;
    var f = game.feedback;
    var html = "";
    if (!f) {
      html = "<p>The coach judges each of your moves against the engine's choice.</p>";
    } else {
      html += '<p class="headline">' + esc(f.headline) + "</p>";
      f.sentences.forEach(function (s) {
        if (!(f.summary && /^Why /.test(s))) { html += "<p>" + esc(s) + "</p>"; }
      });  // the why sentence is the summary, shown once below
      if (f.summary) { html += "<p><b>Why:</b> " + esc(f.summary) + "</p>"; }
      f.replies.forEach(function (r) {
        html += '<p class="reply"><b>Punishing reply:</b> ' + esc(r.text) + "</p>";
      });
    }
    $("coach").innerHTML = html;
    $("offer").hidden = !game.offer;
    if (game.offer) {
      $("offer-text").textContent = game.offer.played + " costs " + game.offer.loss.toFixed(1) +
        " win-% points: take it back and play again?";
    }
  }

  function showHint(game) {
    var h = game.hint;
    $("hint-box").hidden = !h;
    if (!h) { return; }
    var html = "<p>" + esc(h.text) + "</p>";
    if (h.why) { html += "<p><b>Why:</b> " + esc(h.why) + "</p>"; }
    $("hint").innerHTML = html;
  }

  function showMoves(game) {
    var html = "", round = null;
    game.moves.forEach(function (h) {
      if (h.round !== round) {
        round = h.round;
        html += '<div class="rd">Round ' + round + "</div>";
      }
      html += '<span class="mv' + (h.person ? " mine" : "") + '" data-frame="' + (h.index + 1) +
        '" title="after decision ' + (h.index + 1) + '">' + (h.index + 1) + ". P" + h.player +
        " " + esc(h.move) + esc(h.mark || "") + "</span> ";
    });
    $("moves").innerHTML = html || "<p>No moves yet.</p>";
    var box = $("moves");
    box.scrollTop = box.scrollHeight;
  }

  function currentFrame() {
    return state.frame ? state.frame.frame : state.game.frames - 1;
  }

  function showFrame() {
    var game = state.game, frame = state.frame;
    var viewing = frame && frame.frame !== game.frames - 1;
    $("viewing").hidden = !viewing;
    if (viewing) {
      $("viewing-text").textContent = frame.frame === 0 ? "The start of the game" :
        "After decision " + frame.frame + " of " + (game.frames - 1) + ": P" +
        frame.played.player + " played " + frame.played.move;
    }
    var svg = frame ? frame.svg : game.svg;
    var live = !viewing && game.your_turn && !game.offer;
    builder.active = live;
    setBoard(svg, live);
    builder.draw();
    $("turn").classList.toggle("dim", !!viewing);
    document.querySelectorAll("[data-frame].cur").forEach(function (el) {
      el.classList.remove("cur");
    });
    document.querySelectorAll('[data-frame="' + currentFrame() + '"]').forEach(function (el) {
      el.classList.add("cur");
    });
    var mover = frame ? frame.to_move : game.to_move;
    $("analyze").disabled = !mover || mover !== game.viewer;
    $("hint-button").disabled = !live;
    $("undo-button").disabled = !game.can_undo || !!viewing;
    $("move-input").disabled = !live;
    $("play-typed").disabled = !live;
  }

  async function viewFrame(k, marks) {
    await stopAnalysis();
    var game = state.game;
    k = Math.max(0, Math.min(game.frames - 1, k));
    var query = "?frame=" + k;
    if (marks && marks.length) { query += "&mark=" + encodeURIComponent(marks.join(",")); }
    if (k === game.frames - 1 && !(marks && marks.length)) {
      state.frame = null;
    } else {
      state.frame = await api("GET", "/api/games/" + game.id + "/board" + query);
    }
    showFrame();
  }

  // ----- analysis through the engine protocol ----------------------------------------------

  async function analyze() {
    await stopAnalysis();
    var game = state.game;
    var seconds = Math.max(1, Math.min(600, +$("analysis-seconds").value || 5));
    var frame = state.frame ? state.frame.frame : null;
    var position = state.frame ? state.frame.position : game.position;
    var id = "page-" + Math.random().toString(36).slice(2, 10);
    var request = {id: id, position: position, seconds: seconds, report_every: 0.5, top: 10};
    var run = {id: id, frame: frame, seconds: seconds, last: null};
    run.done = new Promise(function (resolve) { run.finish = resolve; });
    state.analysis = run;
    $("stop-analysis").disabled = false;
    $("analyze").disabled = true;
    var progress = $("analysis-progress");
    progress.hidden = false;
    progress.value = 0;
    $("analysis").innerHTML = "<p>Searching...</p>";
    setBusy(1);
    try {
      var response = await fetch("/api/engine", {
        method: "POST", headers: {"Content-Type": "application/json"},
        body: JSON.stringify(request)
      });
      if (!response.ok) {
        var failure = await response.json();
        throw new Failure(failure.error, failure.field);
      }
      var reader = response.body.getReader();
      var decoder = new TextDecoder();
      var buffer = "";
      for (;;) {
        var chunk = await reader.read();
        if (chunk.done) { break; }
        buffer += decoder.decode(chunk.value, {stream: true});
        var lines = buffer.split("\n");
        buffer = lines.pop();
        lines.forEach(function (line) {
          if (line.trim()) { showAnalysis(run, JSON.parse(line)); }
        });
      }
    } finally {
      setBusy(-1);
      progress.hidden = true;
      $("stop-analysis").disabled = true;
      state.analysis = null;
      run.finish();
      if (state.game) { showFrame(); }
    }
    if (run.last && !run.last.during_search && run.last.moves) {
      await markCandidates(run, run.last.moves.slice(0, 5).map(function (m) { return m.move; }));
    }
  }

  function showAnalysis(run, answer) {
    if (answer.error) { throw new Failure(answer.error, answer.field); }
    run.last = answer;
    $("analysis-progress").value = Math.min(1, answer.seconds / run.seconds);
    var head = answer.during_search ? "Searching" : answer.terminated || answer.interrupted ?
      "Stopped" : "Done";
    var html = '<p class="progress-line"><b>' + head + ":</b> " + answer.iterations +
      " iterations in " + answer.seconds.toFixed(1) + " s, P" + answer.to_move + " to move</p>";
    html += '<table><tr><th>#</th><th>move</th><th class="num">win</th><th>95%</th>' +
      '<th class="num">score</th><th class="num">visits</th></tr>';
    answer.moves.slice(0, 8).forEach(function (m, k) {
      html += '<tr class="cand" data-move="' + esc(m.move) + '" data-reason="' +
        esc(m.reason || "") + '"><td>' + (k + 1) + "</td><td>" + esc(m.move) +
        '</td><td class="num">' + pct(m.win) + "</td><td>" + pct(m.win_low) + "-" +
        pct(m.win_high) + '</td><td class="num">' + m.score.toFixed(1) +
        '</td><td class="num">' + m.visits + "</td></tr>";
    });
    html += "</table>";
    var best = answer.moves[0];
    html += '<p class="why" id="candidate-reason">' + (best && best.reason ?
      "<b>" + esc(best.move) + ":</b> " + esc(best.reason) : "") + "</p>";
    if (answer.why_best) { html += '<p class="why"><b>Why:</b> ' + esc(answer.why_best) + "</p>"; }
    if (answer.line && answer.line.length) {
      html += '<p class="why"><b>Expected line:</b> ' + answer.line.map(function (s) {
        return "P" + s.player + " " + esc(s.move);
      }).join(", ") + "</p>";
    }
    $("analysis").innerHTML = html;
  }

  async function markCandidates(run, moves) {
    var frame = run.frame === null ? state.game.frames - 1 : run.frame;
    if (frame !== currentFrame()) { return; }
    await viewFrame(frame, moves);
    document.querySelectorAll("#analysis tr.cand").forEach(function (row) {
      var shown = moves.length === 1 && row.getAttribute("data-move") === moves[0];
      row.classList.toggle("cur", shown);
      if (shown && row.getAttribute("data-reason")) {
        $("candidate-reason").innerHTML = "<b>" + esc(moves[0]) + ":</b> " +
          esc(row.getAttribute("data-reason"));
      }
    });
  }

  async function stopAnalysis() {
    var run = state.analysis;
    if (!run) { return; }
    await fetch("/api/engine", {
      method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({id: run.id + "-stop", action: "terminate", terminate_id: run.id})
    });
    await run.done;
  }

  // ----- train -----------------------------------------------------------------------------

  var trainer = new Builder($("train-board"), $("train-builder"), $("train-status"),
    function (move) { guarded(function () { return answerTraining(move); })(); });

  async function startTraining() {
    state.training = await api("POST", "/api/train");
    state.shown = null;
    $("train-feedback-box").hidden = true;
    showTraining();
  }

  function setTrainBoard(svg) {
    var board = $("train-board");
    board.innerHTML = svg;
    var picture = board.querySelector("svg");
    if (picture) { addTargets(picture); }
    board.setAttribute("data-number", String(state.training.number));
  }

  function showTraining() {
    var t = state.training;
    $("train-summary").textContent = "Training: " + t.summary.line + " (" + t.total +
      (t.total === 1 ? " exercise)" : " exercises)");
    var waiting = !!state.shown;
    $("train-next").hidden = !waiting || t.finished;
    $("train-again").hidden = !t.finished;
    $("train-hint").disabled = waiting || t.finished;
    $("train-skip").disabled = waiting || t.finished;
    $("train-input").disabled = waiting || t.finished;
    $("train-answer").disabled = waiting || t.finished;
    if (waiting) {
      setTrainBoard(state.shown.svg);
      trainer.load([], [], 1, false);
      $("question").textContent = state.shown.question + " The better move, " +
        state.shown.best + ", is marked.";
      $("train-status").textContent = t.finished ? "Done: " + t.summary.line + "." :
        "Answered: read why, then go on to the next exercise.";
      return;
    }
    if (t.finished) {
      $("question").textContent = "Done: " + t.summary.line + ".";
      setTrainBoard("");
      trainer.load([], [], 1, false);
      return;
    }
    var ex = t.exercise;
    $("question").textContent = ex.question;
    setTrainBoard(ex.svg);
    trainer.load(ex.legal, ex.choices, ex.player, true);
    trainer.say("your move");
    trainer.mark();
  }

  async function answerTraining(text) {
    var data = await api("POST", "/api/train/" + state.training.id + "/answer", {answer: text});
    var f = data.feedback;
    $("train-feedback-box").hidden = false;
    $("train-feedback").innerHTML = f.lines.map(function (line, k) {
      return "<p" + (k === 0 ? ' class="' + esc(f.kind) + '"' : "") + ">" + esc(line) + "</p>";
    }).join("");
    $("train-feedback").setAttribute("data-kind", f.kind);
    state.training = data.session;
    state.shown = f.done ? data.shown : null;
    if (f.done) {
      showTraining();
    } else {
      trainer.clear();
      trainer.say(f.kind === "hint" ? "a hint is shown" : "try again", f.kind === "invalid");
    }
  }

  // ----- wiring ----------------------------------------------------------------------------

  $("start").addEventListener("click", guarded(startGame));
  $("typed").addEventListener("submit", guarded(function () {
    var text = $("move-input").value;
    $("move-input").value = "";
    return act("move", {move: text});
  }));
  $("hint-button").addEventListener("click", guarded(function () { return act("hint"); }));
  $("undo-button").addEventListener("click", guarded(function () { return act("undo"); }));
  $("take-back").addEventListener("click", guarded(function () { return act("take_back"); }));
  $("keep").addEventListener("click", guarded(function () { return act("keep"); }));
  $("analyze").addEventListener("click", guarded(analyze));
  $("stop-analysis").addEventListener("click", guarded(stopAnalysis));
  $("back").addEventListener("click", guarded(function () {
    return viewFrame(state.game.frames - 1);
  }));
  document.addEventListener("click", function (event) {
    if (!state.game) { return; }
    var step = event.target.closest("[data-frame-step]");
    if (step) {
      guarded(function () {
        return viewFrame(currentFrame() + +step.getAttribute("data-frame-step"));
      })();
      return;
    }
    var at = event.target.closest("#moves [data-frame], #graph [data-frame]");
    if (at) {
      guarded(function () { return viewFrame(+at.getAttribute("data-frame")); })();
      return;
    }
    var row = event.target.closest("#analysis tr.cand");
    if (row && !state.analysis) {
      var run = {frame: state.frame ? state.frame.frame : null};
      guarded(function () { return markCandidates(run, [row.getAttribute("data-move")]); })();
    }
  });
  document.addEventListener("keydown", function (event) {
    if (!state.game || body.getAttribute("data-mode") !== "play") { return; }
    if (event.target.closest("input, textarea, select")) { return; }
    var steps = {ArrowLeft: -1, ArrowRight: 1};
    if (event.key in steps) {
      event.preventDefault();
      guarded(function () { return viewFrame(currentFrame() + steps[event.key]); })();
    }
  });
  $("train-typed").addEventListener("submit", guarded(function () {
    var text = $("train-input").value;
    $("train-input").value = "";
    return answerTraining(text);
  }));
  ["hint", "skip"].forEach(function (word) {
    $("train-" + word).addEventListener("click", guarded(function () {
      return answerTraining(word);
    }));
  });
  $("train-next").addEventListener("click", function () {
    state.shown = null;
    $("train-feedback-box").hidden = true;
    showTraining();
  });
  $("train-again").addEventListener("click", guarded(startTraining));

  var mode = body.getAttribute("data-mode");
  $("play").hidden = mode !== "play";
  $("train").hidden = mode !== "train";
  guarded(function () {
    return mode === "train" ? startTraining() : reopen();
  })();
})();
"""
