// dipclock hall clock, for a projector.
// Loaded after common.js; the page's scripts share one scope (no build step).
"use strict";

// --- hall clock --------------------------------------------------------------------------

function wireHall() {
  const poll = async () => {
    try {
      const data = await api("GET", "/api/hall");
      last = { data, at: performance.now() };
      $("hall-event").textContent = data.clock ? `${data.event} · ${data.round}` : "";
      document.body.classList.remove("offline");
    } catch (e) {
      document.body.classList.add("offline");
    }
  };
  poll();
  setInterval(poll, 1000);
  setInterval(() => { if (last) renderClock(last.data.clock); }, 200);
}


if (page === "hall") wireHall();
