// What the web display's two page scripts share: app.js (a game's page, the games list, pairing)
// and phones.js (Ninety Nine with phones: host, seat, join, TV). Both pages load this file first
// (deferred scripts run in document order); the pages' Content-Security-Policy allows scripts from
// this origin only, so the shared part is a file of its own, not inline. No framework, no build
// step: the Pi serves it as it is.
"use strict";

window.Table99 = Object.freeze({
  // An element with attributes ("class", "text", "on<event>" handlers, the rest as attributes; null,
  // undefined and false left out) and children (nodes, or anything else as text; arrays flattened).
  el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v; else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v); else node.setAttribute(k, v);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  },

  // A sentence from the server's words: "{name}" filled from values, an unknown one left as it is.
  fill(template, values) {
    return (template || "").replace(/\{(\w+)\}/g, (m, k) => (k in values ? values[k] : m));
  },

  // Follows a Server-Sent Events stream of "view" messages. The browser reconnects by itself after
  // a dropped connection; after an HTTP error (the table is restarting and has not loaded its games
  // yet) it gives up, so this opens the stream again itself, waiting 1 s, 2 s, ... up to 15 s.
  // url() is asked at each opening (a page may resume after the last view it saw).
  followViews(url, { onView, onOpen, onError }) {
    let wait = 1000;
    function open() {
      const source = new EventSource(url());
      source.addEventListener("open", () => { wait = 1000; if (onOpen) onOpen(); });
      source.addEventListener("view", (event) => { wait = 1000; onView(event); });
      source.addEventListener("error", () => {
        if (onError) onError();
        if (source.readyState === EventSource.CLOSED) {
          window.setTimeout(open, wait);
          wait = Math.min(wait * 2, 15000);
        }
      });
    }
    open();
  },
});
