// Ninety Nine with phones: the host's pages, a seat's page, the TV. The server keeps the game and
// decides who sees what; this page shows the view it is sent and sends the seat's choices.
// Screen readers first: each event's sentence is added to one role="log" list, keys C H T D Space
// and digits work anywhere but in a text field, and every control is a real button.
"use strict";

(function () {
  const boot = JSON.parse(document.getElementById("boot").textContent);
  const ui = boot.ui || {};
  const base = "/v/" + boot.token + "/phones/" + (boot.table || "");
  const $ = (id) => document.getElementById(id);
  const { el, fill } = window.Table99;  // common.js, loaded before this file

  // Keeping the keyboard's place: a view message redraws the hand (and the host's seat rows), which
  // would drop the focus to <body> whenever anyone plays. Controls carry data-focus ("slot-2",
  // "slot-2-a", "new-code-1"); after a redraw the same one, or the nearest that makes sense, gets
  // the focus back, and only if the focus was inside the part that was redrawn.
  function focusedIn(part) {
    const active = document.activeElement;
    return active && part.contains(active) ? (active.dataset.focus || null) : null;
  }
  function refocus(part, key, fallbacks) {
    for (const wanted of [key, ...fallbacks]) {
      const node = wanted && part.querySelector('[data-focus="' + wanted + '"]');
      if (node) { node.focus(); return true; }
    }
    return false;
  }

  function say(text) {  // the answer to a key, a refusal: the status line (not the event log)
    const line = $("say") || $("result");
    if (!line) return;
    line.textContent = "";
    window.setTimeout(() => { line.textContent = text; }, 30);
  }

  async function post(url, body, csrf) {
    const headers = { "Content-Type": "application/json" };
    if (csrf) headers["X-CSRF-Token"] = csrf;
    const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body),
                                        credentials: "same-origin" });
    let data = {};
    try { data = await response.json(); } catch (e) { data = { error: String(response.status) }; }
    if (!response.ok) throw new Error(data.error || String(response.status));
    return data;
  }

  // -- sounds (WebAudio, made here: nothing to download) ---------------------------------------------
  let audio = null;
  function soundsOn() { return localStorage.getItem("t99-sounds") !== "off"; }
  function beep(kind) {
    if (!soundsOn()) return;
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      const notes = { turn: [660, 880], milestone: [523, 659, 784], bust: [300, 200] }[kind] || [440];
      notes.forEach((freq, i) => {
        const osc = audio.createOscillator();
        const gain = audio.createGain();
        osc.type = kind === "bust" ? "sawtooth" : "sine";
        osc.frequency.value = freq;
        const start = audio.currentTime + i * 0.12;
        gain.gain.setValueAtTime(0.0001, start);
        gain.gain.exponentialRampToValueAtTime(0.2, start + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.11);
        osc.connect(gain).connect(audio.destination);
        osc.start(start);
        osc.stop(start + 0.12);
      });
    } catch (e) { /* no audio on this device: the sentences still say it */ }
  }

  // -- the public part (seat, host, TV) ---------------------------------------------------------------
  function drawTable(view) {
    const seats = view.seats || [];
    const names = seats.map((s) => s.name);
    if ($("count")) $("count").textContent = view.started ? String(view.count) : "0";
    if ($("direction")) $("direction").textContent = view.direction_text || "";
    if ($("round")) $("round").textContent = view.started ? String(view.round) : "";
    const turn = $("turn");
    if (turn) {
      let text = ui.waiting;
      if (view.result) text = view.result;
      else if (view.started && view.turn !== null && view.turn !== undefined) {
        text = view.you === view.turn ? ui.your_turn : fill(ui.whose_turn, { name: names[view.turn] });
      }
      turn.textContent = text;
      turn.classList.toggle("mine", view.you !== undefined && view.you === view.turn);
    }
    const rows = $("token-rows");
    if (rows) {
      rows.replaceChildren(...seats.map((s, i) => {
        const status = [];
        if (view.started && view.turn === i) status.push(ui.turn);
        if (s.out) status.push(ui.out);
        if (s.away) status.push(ui.away);
        if (s.kind !== "person") status.push(ui.computer);
        return el("tr", { class: view.turn === i ? "on-turn" : null },
          el("th", { scope: "row" }, s.name || fill(ui.seat, { n: i + 1 })),
          el("td", {}, view.started ? String(s.tokens) : String(view.tokens_each)),
          el("td", {}, view.started ? String(s.cards) : ""),
          el("td", {}, status.join(", ")));
      }));
    }
    const plays = $("plays");
    if (plays) {
      const items = (view.plays || []).slice().reverse().map((p) =>
        el("li", {}, p.name + ": " + p.label + " \u2192 " + p.count));
      plays.replaceChildren(...(items.length ? items : [el("li", {}, ui.no_plays)]));
    }
  }

  function addSaid(said) {  // one list item per event (seat and TV): a screen reader reads each new one once
    const log = $("said");
    if (!log) return;
    for (const [, text] of said) log.append(el("li", {}, text));
    while (log.children.length > 400) log.firstElementChild.remove();
  }

  // -- a seat --------------------------------------------------------------------------------------------
  let current = null;
  let wasMyTurn = false;
  function drawSeat(payload) {
    const view = payload.view;
    current = view;
    drawTable(view);
    document.body.dataset.seq = String(payload.seq);
    const me = view.seats[view.you];
    $("you").textContent = fill(ui.joined_as, { n: view.you + 1, name: me ? me.name : "" });
    const hand = $("hand");
    const drawn = JSON.stringify(view.hand || []);
    if (hand.dataset.drawn !== drawn) {  // redrawn only when the hand (or a card's choices) changed
      drawHand(hand, view.hand || []);
      hand.dataset.drawn = drawn;
    }
    $("draw").hidden = !view.manual_draw;
    $("draw").disabled = !view.can_draw;
    $("back").hidden = !view.away;
    addSaid(payload.said || []);
    if (payload.sound) beep(payload.sound);
    if (view.your_turn && !wasMyTurn) {
      beep("turn");
      say(view.prompt);
    }
    wasMyTurn = !!view.your_turn;
    if (payload.gone) { say(ui.gone); window.setTimeout(() => window.location.reload(), 1500); }
  }

  function drawHand(hand, cards) {
    const focus = focusedIn(hand);
    const items = cards.map((card, i) => {
      const n = i + 1;
      if (card.choices && card.choices.length === 2) {
        const label = fill(ui.play_slot, { n, card: card.name });
        return el("li", { class: "card choice" },
          el("div", { role: "group", "aria-label": label, id: "slot-" + n },
            el("span", { class: "card-name", "aria-hidden": "true" }, label),
            card.choices.map((value, k) => el("button", {
              type: "button", class: "card-btn", "data-slot": i, "data-choice": value, "data-card": card.card,
              "data-focus": "slot-" + i + (k ? "-b" : "-a"), onclick: () => play(i, value) },
              fill(ui.as, { card: card.name, value: (value > 0 ? "+" : "") + value })))));
      }
      return el("li", { class: "card" }, el("button", {
        type: "button", class: "card-btn", id: "slot-" + n, "data-slot": i, "data-card": card.card,
        "data-focus": "slot-" + i,
        "aria-keyshortcuts": n <= 9 ? String(n) : (n === 10 ? "0" : (n <= 13 ? "Shift+" + (n - 10) : null)),
        onclick: () => play(i, null) }, fill(ui.play_slot, { n, card: card.name })));
    });
    hand.replaceChildren(...(items.length ? items : [el("li", {}, ui.empty)]));
    if (!focus) return;
    // The same control; else the card now in that place (the played card's neighbour); else the last.
    const slot = Math.min(parseInt(focus.split("-")[1], 10) || 0, items.length - 1);
    if (!refocus(hand, focus, ["slot-" + slot, "slot-" + slot + "-a"])) {
      const draw = $("draw");
      (!draw.hidden && !draw.disabled ? draw : $("hand-h")).focus();
    }
  }

  async function act(body) {
    try { await post(base + "/api/act", body, boot.csrf); } catch (e) { say(e.message); }
  }
  // A play names the view it was chosen from (seq): the server refuses one chosen before the game
  // moved, and the page sends nothing for a second tap (a double tap, a held key) on the same view.
  let playedFrom = -1;
  async function play(slot, choice) {
    if (!current || current.seq <= playedFrom) return;
    const seq = current.seq;
    playedFrom = seq;
    try { await post(base + "/api/act", { op: "play", slot, choice, seq }, boot.csrf); }
    catch (e) { if (playedFrom === seq) playedFrom = -1; say(e.message); }  // refused: may try again
  }

  function keys(event) {
    if (event.ctrlKey || event.altKey || event.metaKey) return;
    const target = event.target;
    if (target && (target.tagName === "INPUT" && target.type !== "checkbox" || target.tagName === "SELECT" ||
                   target.tagName === "TEXTAREA")) return;
    if (!current) return;
    const key = event.key.toLowerCase();
    if (key === "c") say(current.count_text);
    else if (key === "h") say(current.hand_text);
    else if (key === "t") say(current.tokens_text);
    else if (key === "d") act({ op: "draw" });
    else if (key === " ") {
      // Space draws only from the page itself in a manual-draw game: on a button or the sound switch
      // it presses that, on the "What happened" log it scrolls, as everywhere.
      if (!current.manual_draw || (target && target !== document.body)) return;
      act({ op: "draw" });
    }
    else if (/^[0-9]$/.test(key) || (event.shiftKey && /^Digit[1-3]$/.test(event.code))) {
      // 1-9 and 0 (10) as the seed says; Shift+1, 2, 3 reach cards 11 to 13 (hands up to 13 cards)
      const n = event.shiftKey && /^Digit[1-3]$/.test(event.code) ? 10 + parseInt(event.code.slice(5), 10)
        : (key === "0" ? 10 : parseInt(key, 10));
      const card = (current.hand || [])[n - 1];
      if (!card) { say(fill(ui.no_card, { n })); event.preventDefault(); return; }
      if (card.choices && card.choices.length === 2) {  // the Ace's or the 10's two buttons
        const first = document.querySelector('button[data-slot="' + (n - 1) + '"]');
        if (first) first.focus();
        say(fill(ui.choose, { card: card.name, a: fmt(card.choices[0]), b: fmt(card.choices[1]) }));
      } else play(n - 1, null);
    } else return;
    event.preventDefault();
  }
  function fmt(v) { return (v > 0 ? "+" : "") + v; }

  // -- the host ---------------------------------------------------------------------------------------------
  function drawHost(payload) {
    const view = payload.view;
    drawTable(view);
    document.body.dataset.seq = String(payload.seq);
    const rows = $("seat-rows");
    const drawn = JSON.stringify([view.seats, view.started]);
    if (rows.dataset.drawn !== drawn) {  // redrawn only when a seat changed, keeping the focus
      const focus = focusedIn(rows);
      drawSeatRows(rows, view);
      rows.dataset.drawn = drawn;
      if (focus && !refocus(rows, focus, [])) $("seats-h").focus();  // its control is gone
    }
    const missing = view.missing || [];
    $("missing").textContent = view.started ? "" :
      (missing.length ? fill(ui.missing, { list: missing.map((i) => i + 1).join(", ") }) : "");
    $("missing").hidden = !$("missing").textContent;
    const wrong = $("wrong-codes");  // someone guessing codes: the host sees it (and must act when locked)
    wrong.textContent = view.joins_locked ? ui.joins_locked :
      (view.wrong_codes ? fill(ui.wrong_codes, { n: view.wrong_codes }) : "");
    wrong.hidden = !wrong.textContent;
    $("start").hidden = view.started;
    const select = $("turn_seconds");
    if (select && document.activeElement !== select) select.value = view.turn_seconds ? String(view.turn_seconds) : "";
  }
  function drawSeatRows(rows, view) {
    const kinds = [["person", ui.kind_person], ["easy", ui.kind_easy], ["hard", ui.kind_hard]];
    rows.replaceChildren(...view.seats.map((s, i) => {
      const n = i + 1;
      let who;
      if (!view.started) {
        const id = "kind-" + i;
        who = el("td", {}, el("label", { for: id, class: "sr-only" }, fill(ui.seat, { n }) + ": " + ui.kind),
          el("select", { id, "data-focus": id, onchange: (e) => host({ op: "seat", index: i, kind: e.target.value }) },
            kinds.map(([v, w]) => el("option", { value: v, selected: s.kind === v ? "selected" : null }, w))));
      } else {
        who = el("td", {}, kinds.find(([v]) => v === s.kind)[1] + (s.away ? " (" + ui.away + ")" : ""));
      }
      const code = s.kind === "person" ? (s.code ? s.code : (s.burnt ? ui.burnt : (s.joined ? ui.joined : ""))) : "";
      const actions = [];
      if (s.kind === "person") {
        actions.push(el("button", { type: "button", "data-focus": "new-code-" + i,
                                    onclick: () => host({ op: "new-code", index: i }) }, fill(ui.new_code, { n })));
        if (view.started) {
          actions.push(el("button", { type: "button", "data-focus": "remove-" + i,
                                      onclick: () => host({ op: "remove", index: i }) }, fill(ui.remove, { n })));
        }
      }
      return el("tr", {}, el("th", { scope: "row" }, String(n)),
        el("td", {}, s.name || (s.kind === "person" ? ui.not_joined : "")),
        who, el("td", { class: s.code ? "code" : null }, code), el("td", {}, actions));
    }));
  }
  async function host(body) {
    try { await post(base + "/api/host", body, boot.csrf); say(ui.saved); } catch (e) { say(e.message); }
  }

  // -- following the table -------------------------------------------------------------------------------
  // Reopened after the last view drawn ("after"), so a page that reconnects misses nothing.
  function follow(draw, extra) {
    let after = boot.payload ? boot.payload.seq : 0;
    const connection = $("connection");
    window.Table99.followViews(() => base + "/events?after=" + after + (extra || ""), {
      onView: (event) => {
        const payload = JSON.parse(event.data);
        after = payload.seq;
        if (connection) connection.textContent = "";
        draw(payload);
      },
      onError: () => { if (connection) connection.textContent = ui.reconnecting; },
    });
  }

  // -- pages ----------------------------------------------------------------------------------------------------
  if (boot.page === "seat") {
    drawSeat(boot.payload);
    follow(drawSeat);
    document.addEventListener("keydown", keys);
    $("draw").addEventListener("click", () => act({ op: "draw" }));
    $("back").addEventListener("click", () => act({ op: "back" }));
    const sound = $("sound");
    sound.checked = soundsOn();
    sound.addEventListener("change", () => {
      localStorage.setItem("t99-sounds", sound.checked ? "on" : "off");
      say(sound.checked ? ui.sounds_on : ui.sounds_off);
    });
  } else if (boot.page === "tv") {
    drawTable(boot.payload.view);
    follow((p) => { drawTable(p.view); addSaid(p.said || []); document.body.dataset.seq = String(p.seq); }, "&tv");
  } else if (boot.page === "host") {
    drawHost(boot.payload);
    follow(drawHost, "&as=host");
    $("start").addEventListener("click", () => host({ op: "start" }));
    $("time-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const v = $("turn_seconds").value;
      host({ op: "turn-time", seconds: v ? parseInt(v, 10) : null });
    });
  } else if (boot.page === "join") {
    $("join-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const name = $("name");
      try {
        await post(base + "/api/join", { seat: parseInt($("seat").value, 10), code: $("code").value.trim(),
                                         name: name ? name.value : "" });
        window.location.reload();
      } catch (err) { $("result").textContent = err.message; }
    });
  } else if (boot.page === "host-list" && $("create-form")) {
    $("create-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const v = (id) => $(id).value;
      try {
        const data = await post("/v/" + boot.token + "/api/phones", {
          variant: v("variant"), people: parseInt(v("people"), 10), computers: parseInt(v("computers"), 10),
          level: v("level"), hand_size: parseInt(v("hand_size"), 10), tokens: parseInt(v("tokens"), 10),
          manual_draw: v("draw") === "manual", turn_seconds: v("turn_seconds") ? parseInt(v("turn_seconds"), 10) : null,
        }, boot.csrf);
        window.location.href = "/v/" + boot.token + "/phones/" + data.table + "/host";
      } catch (err) { $("result").textContent = err.message; }
    });
  }
})();
