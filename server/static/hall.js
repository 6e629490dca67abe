// dipclock hall clock, for a projector.
// Loaded after common.js; the page's scripts share one scope (no build step).
"use strict";

// --- hall clock --------------------------------------------------------------------------

function wireHall() {
  const poll = async () => {
    try {
      const { data, age } = await publicNow("/api/hall");
      last = { data, at: performance.now() - age * 1000 };
      if (await useLanguage(data.lang)) {  // the event's language: the page's own words
        soundLabel();
        fitted = null;
      }
      $("hall-event").textContent = data.clock ? eventLine(data) : "";
      renderApart(data.apart || [], data.clock);
      document.body.classList.remove("offline");
    } catch (e) {
      document.body.classList.add("offline");
    }
  };
  poll();
  setInterval(poll, 1000);
  window.addEventListener("resize", () => fitApart(last && last.data.clock));
  setInterval(() => {
    if (!last) return;
    renderClock(last.data.clock);
    // new words in the lines above or below the clock, or a countdown of more digits
    // (9:59 to 10:00): the page is fitted again, so the countdown stays whole on it
    const shape = ["stage", "clock-detail"].map((id) => $(id).textContent)
      .concat($("remaining").textContent.length).join("\n");
    if (shape !== fitted) fitApart(last.data.clock);
  }, 200);
}

// The round's name once: the line over the clock names the event, and the round too
// unless the clock's own line does already ("Round 3 ... starts at 14:00").
function eventLine(data) {
  const named = data.round && data.clock.label.includes(data.round);
  return named ? data.event : `${data.event} · ${data.round}`;
}

// 2 min, 1 min 30 s, 45 s, 1 h 5 min: how much time a table was given or lost.
function howMuch(seconds) {
  const s = Math.round(Math.abs(seconds)), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
  if (h) return m ? words("{h} h {m} min", { h, m }) : words("{h} h", { h });
  if (m) return s % 60 ? words("{m} min {s} s", { m, s: s % 60 }) : words("{m} min", { m });
  return words("{s} s", { s });
}

// One table whose clock is not the hall's, in a line (the hub says which and how:
// dipclock.screen.apart): "Table 4 held: TD ruling", "Table 7: 2 min extra · Deadline 10:21:30".
function apartLine(a) {
  if (a.held) {
    const held = a.reason ? words("Table {table} held: {reason}", { table: a.table, reason: a.reason })
      : words("Table {table} held", { table: a.table });
    return held + (a.restart ? words(", restarts at {time}", { time: a.restart }) : "");
  }
  const time = a.extra ? howMuch(a.extra) : "";
  const extra = !a.extra ? "" : a.extra > 0 ? words("{time} extra", { time })
    : words("{time} less", { time });
  const phase = a.stage === "adjudicating" && a.phase
    ? words("adjudicating, {phase} next", { phase: a.phase }) : a.phase;
  return words("Table {table}: {what}",
    { table: a.table, what: [extra, phase, a.deadline].filter(Boolean).join(" · ") });
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

// The lines of words over and under the clock (the round's name may be 80 characters):
// their sizes (vw), largest first, and the share of the screen's height each may take at
// most, so the clock keeps the rest.
const LINE_SIZES = { "hall-event": [2.2, 1.9, 1.6, 1.4],
  "stage": [5, 4.4, 3.8, 3.3, 2.9, 2.5, 2.2], "clock-detail": [3, 2.6, 2.2, 1.9, 1.6] };
const LINE_MOST = { "hall-event": 0.1, "stage": 0.2, "clock-detail": 0.15 };

function fitLines() {
  for (const [id, sizes] of Object.entries(LINE_SIZES)) {
    const line = $(id);
    line.style.fontSize = "";
    for (const size of sizes) {
      line.style.fontSize = `${size}vw`;
      if (line.offsetHeight <= window.innerHeight * LINE_MOST[id]) break;
    }
  }
}

let fitted = null;  // the words and the countdown's length the page was last fitted to

function fitApart(clock) {
  const list = $("hall-apart"), big = $("remaining");
  fitted = ["stage", "clock-detail"].map((id) => $(id).textContent)
    .concat(big.textContent.length).join("\n");
  fitLines();
  big.style.fontSize = list.style.fontSize = "";
  const root = document.documentElement;
  const fits = () => root.scrollHeight <= window.innerHeight && root.scrollWidth <= window.innerWidth;
  const wordy = clock && !/\d/.test(clock.big);  // "Break", "Game over": sized by the CSS
  if (list.hidden) {
    for (const size of wordy ? WORDS_SIZES : CLOCK_SIZES) {
      if (fits()) return;
      big.style.fontSize = `${size}vw`;
    }
    return;
  }
  for (const [clockSize, listSize] of APART_SIZES) {
    if (!wordy) big.style.fontSize = `${clockSize}vw`;
    list.style.fontSize = `${listSize}vw`;
    if (fits()) return;
  }
}

if (page === "hall") wireHall();
