// Table99's web display: draws the view the server sends, follows it by Server-Sent Events, and
// (on a paired device) sends the score keeper's actions. No framework, no build step: the Pi serves
// this file as it is. The server keeps the game; this page only shows what it is sent.
"use strict";

(function () {
  const boot = JSON.parse(document.getElementById("boot").textContent);
  const ui = boot.ui || {};
  const announcer = document.getElementById("announce");
  const PEG = { red: "#d32f2f", blue: "#1565c0", green: "#2e7d32", yellow: "#fbc02d", white: "#fafafa",
                black: "#212121" };
  const DARK_TEXT = { yellow: true, white: true };
  const { el, fill } = window.Table99;  // common.js, loaded before this file

  function svg(tag, attrs, ...children) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) node.setAttribute(k, v);
    for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    return node;
  }

  // -- announcing each play once -----------------------------------------------------------------
  let shownKey = null;
  function announce(view) {
    const key = "t99-announced-" + view.id;
    const seen = sessionStorage.getItem(key);
    const total = view.log_total || 0;
    let lines = [];
    if (shownKey !== null && shownKey !== view.id) lines.push(fill(ui.new_game || "{title}", { title: view.game + ": " + view.title }));
    if (seen !== null) {
      const before = parseInt(seen, 10);
      if (total > before) lines = lines.concat(view.log.filter((e) => e.seq >= before).map((e) => e.text));
      else if (total < before) lines.push(ui.taken_back || "Taken back.");
    }
    sessionStorage.setItem(key, String(total));
    shownKey = view.id;
    if (lines.length) {
      announcer.textContent = "";
      window.setTimeout(() => { announcer.textContent = lines.join(" "); }, 50);
    }
  }

  // -- common pieces -----------------------------------------------------------------------------
  function logList(view) {
    const items = view.log.slice().reverse().map((e) =>
      el("li", { class: "log-" + e.kind }, e.kind === "penalty" ? el("strong", {}, e.text) : e.text));
    return el("section", { class: "log", "aria-labelledby": "log-h" },
      el("h2", { id: "log-h" }, ui.log),
      el("ol", { reversed: "reversed", start: view.log_total, "aria-labelledby": "log-h" }, items));
  }
  function banner(text, cls) { return text ? el("p", { class: "banner " + (cls || "") }, text) : null; }

  // -- The Game of 99 ------------------------------------------------------------------------------
  function letters(players) {
    const out = {};
    for (const p of players) {
      let letter = p.name.slice(0, 1).toUpperCase();
      if (players.some((q) => q !== p && q.name.slice(0, 1).toUpperCase() === letter)) letter = p.name.slice(0, 2);
      out[p.name] = letter;
    }
    return out;
  }
  function board99(view) {
    const mark = letters(view.players);
    const colour = Object.fromEntries(view.players.map((p) => [p.name, p.colour]));
    const winning = new Set(view.winning);
    const board = svg("svg", { viewBox: "0 0 1000 1000", class: "board", role: "img", "aria-labelledby": "board-desc" });
    const pegsBy = {};
    view.numbers.forEach((number, hole) => {
      const x = (hole % 10) * 100, y = Math.floor(hole / 10) * 100;
      const owner = view.pegs[String(number)];
      const cls = ["sq", (Math.floor(hole / 10) + hole) % 2 ? "dark" : "light"];
      if (winning.has(number)) cls.push("win");
      if (number === view.last_square) cls.push("last");
      const g = svg("g", { class: cls.join(" "), "data-square": number });
      g.append(svg("rect", { x: x + 2, y: y + 2, width: 96, height: 96, rx: 6 }));
      if (owner) {
        (pegsBy[owner] = pegsBy[owner] || []).push(number);
        const c = colour[owner] || "white";
        g.append(svg("circle", { cx: x + 50, cy: y + 56, r: 34, fill: PEG[c] || "#616161", class: "peg",
                                 "data-player": owner }));
        g.append(svg("text", { x: x + 50, y: y + 68, class: "peg-letter" + (DARK_TEXT[c] ? " on-light" : "") },
                     mark[owner]));
        g.append(svg("text", { x: x + 8, y: y + 26, class: "num small" }, number));
      } else {
        g.append(svg("text", { x: x + 50, y: y + 64, class: "num" }, number));
      }
      if (number === view.last_square) g.append(svg("rect", { x: x + 5, y: y + 5, width: 90, height: 90, rx: 6, class: "last-ring" }));
      board.append(g);
    });
    const desc = view.players.map((p) => p.name + " (" + p.colour_text + ", " + mark[p.name] + "): " +
      ((pegsBy[p.name] || []).sort((a, b) => a - b).join(", ") || ui.none)).join("; ");
    const lastText = (view.last_square !== null ? " " + ui.last_play + ": " + view.last_square + "." : "") +
      (view.winning.length ? " " + ui.winning + ": " + view.winning.join(", ") + "." : "");
    const players = el("table", { class: "players" },
      el("caption", {}, ui.players),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, ui.players), el("th", { scope: "col" }, ui.hand),
        el("th", { scope: "col" }, ui.penalties))),
      el("tbody", {}, view.players.map((p) => el("tr", { class: p.turn ? "turn" : "" },
        el("th", { scope: "row" },
          el("span", { class: "swatch" + (DARK_TEXT[p.colour] ? " on-light" : ""), style: null, "data-colour": p.colour }, mark[p.name]),
          " ", p.turn ? "▶ " : "", p.name, p.computer ? " (" + ui.computer + ")" : "", p.out ? " – " + ui.out : "",
          el("span", { class: "sr-only" }, " " + p.colour_text)),
        el("td", {}, p.hand), el("td", { class: p.penalties ? "pen" : "" }, p.penalties)))));
    const side = el("div", { class: "side" },
      banner(view.result, "result"), banner(view.turn_text, "turn"),
      // between commits: the table waits for the pegs to settle, announcements held (not aria-live:
      // the play itself is announced once it is judged)
      view.pending ? el("p", { class: "banner pending", "data-pending": "" }, view.pending) : null,
      el("p", { class: "deck" }, view.deck_text),
      view.penalties.length ? el("section", { class: "penalties", "aria-labelledby": "pen-h" },
        el("h2", { id: "pen-h" }, ui.penalties + " (" + view.penalty_count + ")"),
        el("ul", {}, view.penalties.slice().reverse().map((p) => el("li", {}, p.text)))) : null,
      players, logList(view));
    return el("div", { class: "game board99" },
      el("figure", { class: "board-wrap" }, board,
        el("figcaption", { id: "board-desc" }, ui.board + ": " + desc + "." + lastText)), side);
  }

  // -- Parlett --------------------------------------------------------------------------------------
  function parlett(view) {
    const hands = view.hands;
    // the big number is the standing (the rubber), as on the table's screen; this game's score beside it
    const totals = el("table", { class: "totals" }, el("caption", {}, ui.totals),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, ui.players), el("th", { scope: "col" }, ui.rubber),
        view.uses_games ? el("th", { scope: "col" }, ui.game_total) : null)),
      el("tbody", {}, hands.map((h) => el("tr", {}, el("th", { scope: "row" }, h.name),
        el("td", { class: "big-num" }, h.rubber), view.uses_games ? el("td", {}, h.game) : null))));
    const deals = el("table", { class: "deals" }, el("caption", {}, ui.deals),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, ui.deal), el("th", { scope: "col" }, ui.dealer),
        el("th", { scope: "col" }, ui.trump), hands.map((h) => el("th", { scope: "col" }, h.name)))),
      el("tbody", {}, view.deals.slice().reverse().map((d) => el("tr", {},
        el("th", { scope: "row" }, d.number,
          boot.csrf ? el("button", { type: "button", class: "secondary small", "data-deal": d.number,
            onclick: () => { editing = d.number - 1; formStatus = { text: "", cls: "form-message" }; keepForm = false; render(lastPayload); keepForm = true; document.getElementById("deal-form").scrollIntoView(); } }, ui.correct) : null),
        el("td", {}, d.dealer), el("td", {}, d.trump),
        hands.map((h) => el("td", {},
          el("span", { class: "bid" }, ui.bids + " " + d.bids[h.name] + " · " + ui.tricks + " " + d.tricks[h.name] +
            (d.premiums[h.name] ? " · " + ui[d.premiums[h.name]] : "")),
          el("br"), el("strong", {}, (d.scores[h.name] >= 0 ? "+" : "") + d.scores[h.name]),
          " ", d.made[h.name] ? "✓ " + ui.made : "✗ " + ui.missed))))));
    const head = el("div", { class: "deal-head" },
      view.result ? banner(view.result, "result") : [
        el("p", { class: "dealer" }, view.dealer_text), el("p", { class: "trump" }, view.trump_text),
        el("p", { class: "deal-no" }, ui.next_deal + ": " + view.deal_number)]);
    const games = view.games.length ? el("ul", { class: "games" }, view.games.map((g) => el("li", {}, g.text))) : null;
    // two columns on a TV (display.css): the standing on the left, the rest beside it scrolling by
    // itself; elsewhere the two are plain blocks one after the other
    return el("div", { class: "game parlett hands-" + hands.length }, head,
      el("div", { class: "standing" }, totals, games),
      el("div", { class: "side" }, parlettChart(view),
        boot.csrf && (view.status === "playing" || editing !== null) ? parlettForm(view) : null, deals, logList(view)));
  }
  // The running totals deal by deal. Each hand's line has its own colour AND its own dash pattern,
  // and ends in the hand's name and total, so no one needs to tell colours apart; the numbers are
  // also given as text for screen readers.
  const LINE = ["#ffd54f", "#81d4fa", "#ef9a9a", "#a5d6a7", "#ce93d8", "#ffcc80"];
  const DASH = ["none", "14 6", "3 6", "16 5 3 5", "7 4", "2 4"];
  function parlettChart(view) {
    if (!view.deals.length) return null;
    const series = view.hands.map((h) => [0].concat(view.deals.map((d) => d.totals[h.name])));
    const all = series.flat();
    const low = Math.min(0, ...all), high = Math.max(1, ...all);
    const W = 640, H = 280, pad = 24, right = 150, steps = Math.max(1, series[0].length - 1);
    const x = (i) => pad + (W - pad - right) * i / steps;
    const y = (v) => H - pad - (H - 2 * pad) * (v - low) / (high - low);
    const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-labelledby": "chart-desc" });
    chart.append(svg("line", { x1: pad, y1: y(0), x2: x(steps), y2: y(0), class: "chart-axis" }));
    // end labels at least 26 units apart, in the order of the lines' ends
    const order = view.hands.map((h, k) => k).sort((a, b) => y(series[a][steps]) - y(series[b][steps]));
    const labelY = {};
    let previous = -Infinity;
    for (const k of order) { labelY[k] = Math.max(y(series[k][steps]) + 8, previous + 26); previous = labelY[k]; }
    let below = H - 4;  // pushed past the bottom: moved up again, still 26 apart (five hands at 0)
    for (const k of order.slice().reverse()) { labelY[k] = Math.min(labelY[k], below); below = labelY[k] - 26; }
    view.hands.forEach((h, k) => {
      const points = series[k].map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
      chart.append(svg("polyline", { points, fill: "none", stroke: LINE[k % 6], "stroke-width": 4,
                                     "stroke-dasharray": DASH[k % 6], class: "chart-line" }));
      chart.append(svg("text", { x: x(steps) + 10, y: labelY[k], fill: LINE[k % 6],
                                 class: "chart-label" }, h.name + " " + series[k][steps]));
    });
    chart.dataset.width = W;
    const text = view.hands.map((h, k) => h.name + ": " + series[k].slice(1).join(", ")).join("; ");
    return el("figure", { class: "chart-box" }, el("figcaption", {}, ui.chart), chart,
      el("p", { id: "chart-desc", class: "chart-desc" }, ui.chart_desc + ". " + text));
  }
  // The end labels are as long as the names: once drawn, the chart is widened to hold the longest
  // ("Annemarie 57"), so no label is cut at the edge however narrow the screen.
  function fitCharts() {
    for (const chart of document.querySelectorAll("svg.chart")) {
      const box = chart.getBBox();
      const width = Math.max(Number(chart.dataset.width), Math.ceil(box.x + box.width + 8));
      const [x, y, , h] = chart.getAttribute("viewBox").split(" ");
      chart.setAttribute("viewBox", `${x} ${y} ${width} ${h}`);
    }
  }
  // the answer to the last change survives the redraw that the change itself causes
  let formStatus = { text: "", cls: "form-message" };
  let keepForm = true;
  function messageBox() { return el("p", { class: formStatus.cls, role: "alert" }, formStatus.text); }
  let editing = null;  // the deal being corrected: its index and its committed entry
  function parlettForm(view) {
    const deal = editing !== null ? view.deals.find((d) => d.number === editing + 1) : null;
    if (editing !== null && !deal) editing = null;
    const premiumSelect = (h, i) => el("select", { name: "premium-" + i },
      el("option", { value: "" }, "–"), el("option", { value: "declare" }, ui.declare),
      view.can_reveal ? el("option", { value: "reveal" }, ui.reveal) : null);
    // one group per player, its fields side by side and wrapping: no table wider than a phone
    // (a table's Premium column scrolled out of sight there); each field has its visible label
    const field = (label, control) => el("label", { class: "field" }, el("span", {}, label), control);
    const rows = view.hands.map((h, i) => el("fieldset", { class: "hand" }, el("legend", {}, h.name),
      field(ui.bids, el("input", { type: "number", min: 0, max: 20, required: "required", name: "bid-" + i })),
      field(ui.tricks, el("input", { type: "number", min: 0, max: 20, required: "required", name: "tricks-" + i })),
      h.dummy ? null : field(ui.premium, premiumSelect(h, i))));
    const message = messageBox();
    const heading = deal ? fill(ui.correcting, { n: deal.number }) : ui.enter_deal + " (" + view.dealer_text + ", " + view.trump_text + ")";
    const turnUp = (deal ? deal.turn_up : view.needs_turn_up) ? el("p", {}, el("label", { for: "turn-up" }, ui.turn_up),
      el("input", { id: "turn-up", name: "turn_up", maxlength: 3, required: "required" })) : null;
    const form = el("form", { class: "entry", id: "deal-form" },
      el("h2", {}, heading),
      rows,
      turnUp,
      el("button", { type: "submit" }, deal ? ui.save_correction : ui.send),
      deal ? el("button", { type: "button", class: "secondary", onclick: () => { editing = null; keepForm = false; render(lastPayload); keepForm = true; } }, ui.cancel)
        : view.deals.length ? el("button", { type: "button", class: "secondary", id: "delete-last", onclick: () => send("delete-last", {}, message) }, ui.delete_last) : null,
      message);
    if (deal) {
      view.hands.forEach((h, i) => {
        form.elements["bid-" + i].value = deal.bid_values[h.name];
        form.elements["tricks-" + i].value = deal.tricks[h.name];
        if (form.elements["premium-" + i]) form.elements["premium-" + i].value = deal.premiums[h.name] || "";
      });
      if (turnUp) form.elements.turn_up.value = deal.turn_up;
    }
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const entry = { bids: {}, tricks: {} };
      const premium = {};
      view.hands.forEach((h, i) => {
        entry.bids[h.name] = parseInt(form.elements["bid-" + i].value, 10);
        entry.tricks[h.name] = parseInt(form.elements["tricks-" + i].value, 10);
        const p = form.elements["premium-" + i];
        if (p && p.value) premium[h.name] = p.value;
      });
      if (Object.keys(premium).length) entry.premium = premium;
      if (form.elements.turn_up) entry.turn_up = form.elements.turn_up.value.trim();
      if (deal) send("correct", { index: deal.number - 1, deal: entry }, message).then((ok) => { if (ok) editing = null; });
      else send("add", { deal: entry }, message);
    });
    return form;
  }

  // -- Ninety Nine ------------------------------------------------------------------------------------
  function count99(view) {
    const plays = el("ul", { class: "plays" }, view.plays.slice().reverse().map((p) => el("li", {}, p.name + ": " + p.card + " → " + p.count)));
    const tokens = el("table", { class: "tokens" }, el("caption", {}, ui.tokens), el("tbody", {},
      view.players.map((p) => el("tr", { class: p.turn ? "turn" : "" },
        el("th", { scope: "row" }, p.turn ? "▶ " : "", p.name), el("td", {}, p.out ? ui.out : p.tokens)))));
    return el("div", { class: "game count99" },
      el("div", { class: "count-box" },
        el("p", { class: "count-label" }, ui.count),
        el("p", { class: "count" + (view.count >= 90 ? " hot" : ""), id: "count" }, view.count),
        banner(view.result || view.turn_text, view.result ? "result" : "turn"),
        el("p", { class: "direction" }, ui.direction + ": " + (view.direction > 0 ? "↻ " : "↺ ") + view.direction_text),
        el("p", {}, ui.round + " " + view.round)),
      el("div", { class: "side" }, boot.csrf && view.status === "playing" && view.cards && view.cards.length ? keeper(view) : null,
        tokens, el("section", { "aria-labelledby": "plays-h" }, el("h2", { id: "plays-h" }, ui.last_plays), plays), logList(view)));
  }
  function keeper(view) {
    const message = messageBox();
    const choices = el("div", { class: "choices" });
    const buttons = view.cards.map((c) => el("button", { type: "button", class: "card", "data-card": c.card, onclick: () => {
      choices.replaceChildren();
      if (c.choices.length > 1) {
        choices.append(el("p", {}, ui.choose), ...c.choices.map((v) => el("button", { type: "button", class: "card",
          onclick: () => send("play", { card: c.card, choice: v }, message) }, (v > 0 ? "+" : "") + v)));
        choices.querySelector("button").focus();
      } else send("play", { card: c.card }, message);
    } }, c.label || c.card));
    return el("section", { class: "keeper", "aria-labelledby": "keeper-h" }, el("h2", { id: "keeper-h" }, ui.keeper),
      el("div", { class: "cards" }, buttons), choices,
      el("div", { class: "keeper-actions" },
        el("button", { type: "button", class: "secondary", onclick: () => send("undo", {}, message) }, ui.undo),
        el("button", { type: "button", class: "warn", onclick: () => send("no-cards", {}, message) }, ui.no_cards),
        view.variant === "rs-games" ? el("button", { type: "button", class: "warn", onclick: () => send("no-safe-card", {}, message) }, ui.no_safe) : null),
      message);
  }

  // -- sending (paired devices only) ----------------------------------------------------------------------
  let currentView = null, lastPayload = null;
  async function send(op, body, message) {
    if (!currentView) return;
    message.textContent = "…";
    let stale = false;
    const gameId = currentView.id;
    try {
      // "seen": the version this page shows; if the game moved on meanwhile (the table, another
      // device, or this very request sent twice) the server changes nothing and answers 409
      const r = await fetch("/v/" + boot.token + "/api/game/" + gameId + "/" + op, {
        method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": boot.csrf },
        body: JSON.stringify(Object.assign({}, body, { seen: currentView.version })), credentials: "same-origin" });
      const data = await r.json().catch(() => ({ error: r.statusText }));
      stale = r.status === 409;
      formStatus = { text: r.ok ? ui.saved : stale ? ui.stale : data.error, cls: "form-message " + (r.ok ? "ok" : "error") };
      keepForm = !r.ok;  // saved: the next deal starts on an empty form; refused: the typing stays
    } catch (e) {
      formStatus = { text: ui.reconnecting, cls: "form-message error" };
    }
    if (stale) {  // show how the game stands now, with the message, before anything else is sent
      try {
        const r = await fetch("/v/" + boot.token + "/api/view/" + gameId + "?lang=" + boot.lang, { credentials: "same-origin" });
        if (r.ok) { const fresh = await r.json(); if (fresh.view) { shownId = null; render(fresh); } }
      } catch (e) { /* the event stream brings it */ }
      const box = document.querySelector(".form-message");
      if (box) { box.textContent = formStatus.text; box.className = formStatus.cls; }
      return false;
    }
    const ok = !keepForm;
    if (ok && op === "correct") editing = null;
    message.textContent = formStatus.text;
    message.className = formStatus.cls;
    if (!keepForm && lastPayload) { render(lastPayload); keepForm = true; }
    return ok;
  }

  // -- drawing and following ------------------------------------------------------------------------------
  const viewBox = document.getElementById("view");
  function render(payload) {
    const view = payload.view;
    lastPayload = payload;
    const title = document.getElementById("title");
    if (!view) { viewBox.replaceChildren(el("p", { class: "banner" }, payload.empty)); return; }
    currentView = view;
    title.textContent = view.game + (view.title ? ": " + view.title : "");
    document.title = title.textContent + " · Table99";
    const oldForm = document.getElementById("deal-form");
    const typed = oldForm && Array.from(oldForm.querySelectorAll("input")).some((i) => i.value !== i.defaultValue);
    const focused = typed || (document.activeElement && document.activeElement.closest && document.activeElement.closest("form"));
    if (view.error) { viewBox.replaceChildren(banner(view.error, "error")); return; }
    const draw = { board99, parlett, count99 }[view.kind];
    // how the game stands is said once, by the connection line (showConnection); this line only
    // names the paired device
    const status = boot.device ? el("p", { class: "status" }, fill(ui.paired_as, { name: boot.device })) : "";
    if (focused && keepForm && view.kind === "parlett") {
      // do not wipe a deal being typed in: redraw everything but the form
      const form = document.getElementById("deal-form");
      const fresh = draw(view);
      const newForm = fresh.querySelector("#deal-form");
      if (form && newForm) newForm.replaceWith(form);
      viewBox.replaceChildren(status, fresh);
    } else viewBox.replaceChildren(status, draw(view));
    fitCharts();
    markScrollable();
    showConnection();
    announce(view);
  }

  // The one line that says how the game stands, in the page's language: "Live" while it is played
  // and this page follows it, "Final result" once it is finished, else its status ("abandoned").
  let connected = false;
  function showConnection() {
    const conn = document.getElementById("connection");
    if (!conn || !connected) return;
    const status = currentView ? currentView.status : "playing";
    conn.textContent = "● " + (status === "playing" ? ui.connected : status === "finished" ? ui.final
                                                                                    : currentView.status_text);
    conn.className = "connection ok";
  }

  // A region that scrolls (a long log, a wide table on a phone, the TV's side column) is reached
  // by the keyboard too: it takes the focus while, and only while, it has something to scroll.
  const SCROLLERS = ".log ol, table.games, table.deals, table.totals, table.players, html.tv .side, html.tv .standing";
  function markScrollable() {
    for (const node of document.querySelectorAll(SCROLLERS)) {
      const scrolls = node.scrollHeight > node.clientHeight + 1 || node.scrollWidth > node.clientWidth + 1;
      if (scrolls) node.setAttribute("tabindex", "0"); else node.removeAttribute("tabindex");
    }
  }
  window.addEventListener("resize", markScrollable);

  let shownId = boot.event_id || null;
  function follow() {
    const conn = document.getElementById("connection");
    const url = "/v/" + boot.token + "/events?game=" + encodeURIComponent(boot.key) + "&lang=" + boot.lang;
    window.Table99.followViews(() => url, {
      onOpen: () => { connected = true; showConnection(); },
      onView: (ev) => {
        if (ev.lastEventId && ev.lastEventId === shownId) return;  // the view the page already shows
        shownId = ev.lastEventId;
        render(JSON.parse(ev.data));
      },
      onError: () => { connected = false; conn.textContent = ui.reconnecting; conn.className = "connection lost"; },
    });
  }

  function pairPage() {
    const form = document.getElementById("pair-form");
    const out = document.getElementById("pair-result");
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const r = await fetch("/v/" + boot.token + "/api/pair", { method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ code: form.elements.code.value.trim(), name: form.elements.name.value }) });
      const data = await r.json().catch(() => ({ error: r.statusText }));
      if (r.ok) {
        out.textContent = ui.pair_ok;
        window.setTimeout(() => { window.location.href = "/v/" + boot.token + "/live"; }, 800);
      } else out.textContent = data.error;
    });
  }

  if (boot.page === "game") { render(boot.payload); follow(); }
  else if (boot.page === "pair") pairPage();
  markScrollable();  // the games list on a phone too
})();
