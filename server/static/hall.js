// dipclock hall clock, for a projector.
// Loaded after common.js; the page's scripts share one scope (no build step).
"use strict";

// --- hall clock --------------------------------------------------------------------------

// The hall's data and how long ago, in hub time, the hub computed it: the hub builds one
// reply for everyone every quarter second (and a browser may answer a poll from its cache
// once the hub says nothing changed, a 304), so the reply's hub_time is when it was built;
// the X-Hub-Time header is when it was sent. The page ticks from the earlier instant.
async function hallNow() {
  const res = await fetch("/api/hall", { headers: { "Accept": "application/json" } });
  const data = await res.json();
  if (!res.ok) throw new Error(data.detail || `${res.status} ${res.statusText}`);
  const sent = parseFloat(res.headers.get("X-Hub-Time"));
  return { data, age: Number.isFinite(sent) ? Math.max(0, sent - data.hub_time) : 0 };
}

function wireHall() {
  const poll = async () => {
    try {
      const { data, age } = await hallNow();
      last = { data, at: performance.now() - age * 1000 };
      $("hall-event").textContent = data.clock ? `${data.event} · ${data.round}` : "";
      renderApart(data.apart || [], data.clock);
      document.body.classList.remove("offline");
    } catch (e) {
      document.body.classList.add("offline");
    }
  };
  poll();
  setInterval(poll, 1000);
  window.addEventListener("resize", () => fitApart(last && last.data.clock));
  setInterval(() => { if (last) renderClock(last.data.clock); }, 200);
}

// 2 min, 1 min 30 s, 45 s, 1 h 5 min: how much time a table was given or lost.
function howMuch(seconds) {
  const s = Math.round(Math.abs(seconds)), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
  if (h) return m ? `${h} h ${m} min` : `${h} h`;
  if (m) return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
  return `${s} s`;
}

// One table whose clock is not the hall's, in a line (the hub says which and how:
// dipclock.screen.apart): "Table 4 held: TD ruling", "Table 7: 2 min extra · Deadline 10:21:30".
function apartLine(a) {
  if (a.held) {
    return `Table ${a.table} held${a.reason ? `: ${a.reason}` : ""}` +
      (a.restart ? `, restarts at ${a.restart}` : "");
  }
  const extra = a.extra ? `${howMuch(a.extra)} ${a.extra > 0 ? "extra" : "less"}` : "";
  const phase = a.stage === "adjudicating" && a.phase ? `adjudicating, ${a.phase} next` : a.phase;
  return `Table ${a.table}: ${[extra, phase, a.deadline].filter(Boolean).join(" · ")}`;
}

// The list and the big clock above it, as large as the screen lets both be (vw: the clock,
// then the list); a long list shrinks both until the page fits.
const APART_SIZES = [[18, 2.4], [18, 2], [16, 1.6], [14, 1.3], [12, 1.1], [10, 0.9]];

function renderApart(apart, clock) {
  const list = $("hall-apart");
  list.hidden = !apart.length;
  list.replaceChildren(...apart.map((a) =>
    el("li", { class: a.held ? "held" : "", "data-table": a.table }, apartLine(a))));
  fitApart(clock);
}

// The clock without a list: the CSS's size (vw), smaller only when the page would not fit
// (a long hall message above it, message.js), so the countdown stays whole on the screen.
const CLOCK_SIZES = [24, 21, 18, 16, 14, 12, 10, 8];
const WORDS_SIZES = [14, 12, 10, 8, 6];

function fitApart(clock) {
  const list = $("hall-apart"), big = $("remaining");
  big.style.fontSize = list.style.fontSize = "";
  const fits = () => document.documentElement.scrollHeight <= window.innerHeight;
  const words = clock && !/\d/.test(clock.big);  // "Break", "Game over": sized by the CSS
  if (list.hidden) {
    for (const size of words ? WORDS_SIZES : CLOCK_SIZES) {
      if (fits()) return;
      big.style.fontSize = `${size}vw`;
    }
    return;
  }
  for (const [clockSize, listSize] of APART_SIZES) {
    if (!words) big.style.fontSize = `${clockSize}vw`;
    list.style.fontSize = `${listSize}vw`;
    if (fits()) return;
  }
}

if (page === "hall") wireHall();
