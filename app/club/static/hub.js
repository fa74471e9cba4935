// Table99 club hub: refresh the live part of the page every 2 s (no state kept here).
"use strict";
(function () {
  const panel = document.getElementById("panel");
  if (!panel || location.pathname !== "/") return;
  async function refresh() {
    try {
      const query = new URLSearchParams(location.search);
      query.set("lang", panel.dataset.lang || "en");
      const response = await fetch("/panel?" + query.toString(), { cache: "no-store" });
      if (response.ok) panel.innerHTML = await response.text();
    } catch (e) { /* the hub restarts: try again in 2 s */ }
    setTimeout(refresh, 2000);
  }
  setTimeout(refresh, 2000);
})();
