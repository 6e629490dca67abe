// dipclock board call, for a projector: every table's seven players and powers, a page of
// tables at a time, turning by itself, with when the round starts and the TD's hall message.
// The hub says who sits where, when the round starts and the message (/api/boardcall);
// this page only lays it out, counts down and turns the pages.
// Loaded after common.js and message.js; the page's scripts share one scope (no build step).
"use strict";

// seconds a page stays up; how often the seating is read again; how often the countdown
// and the message's end are looked at
const PAGE_SECONDS = 12;
const POLL_SECONDS = 5;
const TICK_MS = 250;
// The tables' text (the players' names), as a share of the screen's height: never smaller
// than this while tables can go on another page (read from the back of the hall), and no
// larger than that however few tables there are.
const CALL_SMALLEST = 0.028;
const CALL_LARGEST = 0.09;
// The heading's sizes (vh) and the message's (vw, message.js), largest first, and the share
// of the screen's height each may take at most: the tables keep the rest.
const HEAD_SIZES = [3.6, 3.2, 2.8, 2.5, 2.2];
const HEAD_MOST = 0.14;
const BANNER_SIZES = MESSAGE_SIZES.filter((size) => size <= 2.6);
const BANNER_MOST = 0.12;

let call = null;    // the last /api/boardcall answer
let callPage = 0;   // the page of tables shown, from 0
let drawn = null;   // what the tables were laid out for: redrawn when it changes

function tableCard(t) {
  return el("section", { class: "call-table", "data-table": t.table },
    el("h2", {}, words("Table {table}", { table: t.table })),
    el("ol", {}, ...t.seats.map((s) =>
      el("li", {}, el("span", { class: "power" }, s.power),
        el("span", { class: "player" }, s.player)))));
}

// ["Starts at 14:00", "in 5:59"] before the round, ["Started at 14:00"] once its clocks
// run; [] when the round is not set up. Each part is kept on one line.
function startLine(c, now) {
  if (!c || c.starts === null || c.starts_at === null) return [];
  const at = messageClock(c.starts);
  if (now === null) return [words("Starts at {time}", { time: at })];
  const left = c.starts_at - now;
  return left > 0 ? [words("Starts at {time}", { time: at }),
    words("in {time}", { time: duration(left) })] : [words("Started at {time}", { time: at })];
}

function showStart(parts) {
  const start = $("call-start");
  start.replaceChildren(...parts.flatMap((p, i) => [i ? " · " : "", el("span", {}, p)]));
  start.hidden = !parts.length;
}

// ``line`` at the largest of ``sizes`` (``unit``) that keeps it within ``most`` of the
// screen's height, else the smallest.
function fitHeight(line, sizes, unit, most) {
  line.style.fontSize = "";
  if (line.hidden) return;
  for (const size of sizes) {
    line.style.fontSize = `${size}${unit}`;
    if (line.offsetHeight <= window.innerHeight * most) return;
  }
}

// The room the tables have: below the heading and the message, inside the box's padding.
function tablesRoom(box) {
  const cs = getComputedStyle(box);
  return {
    width: box.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight),
    height: window.innerHeight - box.getBoundingClientRect().top -
      parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom),
  };
}

// Every table's card at the smallest size, each as wide as its longest line: the widest
// and the tallest card, and the gap between cards, in px. A card's sizes are all in em of
// the box's font, so at ``s`` times the font they are ``s`` times these.
function measureCards(box, tables, font) {
  box.classList.add("measure");
  box.style.fontSize = `${font}px`;
  box.replaceChildren(...tables.map(tableCard));
  const boxes = [...box.children].map((c) => c.getBoundingClientRect());
  box.classList.remove("measure");
  return {
    width: Math.max(...boxes.map((b) => b.width)),
    height: Math.max(...boxes.map((b) => b.height)),
    gap: parseFloat(getComputedStyle(box).columnGap) || 0,
  };
}

// The columns that draw ``count`` cards largest in ``room``, and how many times larger
// than measured they then are.
function bestColumns(count, room, card) {
  let best = { scale: 0, cols: 1 };
  for (let cols = 1; cols <= count; cols++) {
    const rows = Math.ceil(count / cols);
    const scale = Math.min(room.width / (cols * card.width + (cols - 1) * card.gap),
      room.height / (rows * card.height + (rows - 1) * card.gap));
    if (scale > best.scale) best = { scale, cols };
  }
  return best;
}

// Whether the drawn page is whole: nothing below the screen, no name cut short.
function pageWhole(box) {
  return box.getBoundingClientRect().bottom <= window.innerHeight + 0.5 &&
    [...box.querySelectorAll(".player")].every((p) => p.scrollWidth <= p.clientWidth);
}

// The cards' sizes for this answer and screen, measured once (a page turn reuses them).
let cardsFor = { call: null, width: 0, height: 0, card: null };

// The tables, as many a page as fit at the smallest readable size, the pages evened out
// (30 tables at 4 a page: eight pages of 3 or 4, not seven of 4 and one of 2), then drawn
// as large as the screen lets a page's tables be: three tables fill a projector.
function layTables(box, tables) {
  const smallest = CALL_SMALLEST * window.innerHeight;
  if (cardsFor.call !== call || cardsFor.width !== window.innerWidth ||
      cardsFor.height !== window.innerHeight) {
    cardsFor = { call, width: window.innerWidth, height: window.innerHeight,
      card: measureCards(box, tables, smallest) };
  }
  const card = cardsFor.card;
  const room = tablesRoom(box);
  const fit = (size, span) => Math.max(1, Math.floor((room[span] + card.gap) / (size + card.gap)));
  const most = fit(card.width, "width") * fit(card.height, "height");
  const pages = Math.max(1, Math.ceil(tables.length / most));
  const perPage = Math.ceil(tables.length / pages);
  callPage %= pages;
  $("call-page").textContent = pages > 1
    ? words("Page {page} of {pages}", { page: callPage + 1, pages }) : "";
  const share = (p) => Math.ceil(p * tables.length / pages);  // where page p starts
  const shown = tables.slice(share(callPage), share(callPage + 1));
  const best = bestColumns(perPage, tablesRoom(box), card);  // the page count may wrap the head
  let font = Math.min(smallest * best.scale * 0.98, CALL_LARGEST * window.innerHeight);
  box.style.gridTemplateColumns = `repeat(${best.cols}, minmax(0, 1fr))`;
  // down to the screen's foot: a page of few tables sits in the middle of it (the CSS)
  box.style.minHeight = `${window.innerHeight - box.getBoundingClientRect().top}px`;
  box.replaceChildren(...shown.map(tableCard));
  const cutOnly = card.width >= room.width;  // a name wider than the screen: cut, not shrunk
  for (let tries = 0; tries < 12; tries++) {  // text does not grow quite in proportion
    box.style.fontSize = `${font}px`;
    if (cutOnly ? box.getBoundingClientRect().bottom <= window.innerHeight + 0.5 : pageWhole(box)) {
      break;
    }
    font *= 0.95;
  }
}

// The message over the heading while it shows by the hub's time (message.js), the heading
// and the page of tables under it.
function render() {
  const box = $("call-tables"), banner = $("hall-message");
  const m = call && messageShown(call.message, hubNow()) ? call.message : null;
  banner.textContent = m ? m.text : "";
  banner.hidden = !m;
  fitHeight(banner, BANNER_SIZES, "vw", BANNER_MOST);
  showStart(startLine(call, hubNow()));
  const seated = call && call.round !== null && call.tables.length;
  $("call-title").textContent = seated ? words("{title} · board call", { title: call.title }) :
    call && call.event ? words("{title} · board call", { title: call.event })
      : words("Board call");
  fitHeight(document.querySelector(".call-head"), HEAD_SIZES, "vh", HEAD_MOST);
  if (seated) {
    layTables(box, call.tables);
  } else {
    $("call-page").textContent = "";
    box.style.fontSize = box.style.gridTemplateColumns = box.style.minHeight = "";
    box.replaceChildren(el("p", { class: "call-empty" }, words("No seating yet.")));
  }
  drawn = { call, page: callPage, message: m, start: $("call-start").textContent.length,
    width: window.innerWidth, height: window.innerHeight };
}

// Each tick: the countdown moves; the page is laid out again only when what it holds
// changed (the message went at its end, the countdown became "Started", the screen's size).
function tick() {
  const m = call && messageShown(call.message, hubNow()) ? call.message : null;
  const parts = startLine(call, hubNow());
  const length = parts.length ? parts.join(" · ").length : 0;
  if (!drawn || drawn.call !== call || drawn.page !== callPage || drawn.message !== m ||
      drawn.start !== length || drawn.width !== window.innerWidth ||
      drawn.height !== window.innerHeight) {
    render();
  } else {
    showStart(parts);
  }
}

async function poll() {
  try {
    const { data, age } = await publicNow("/api/boardcall");
    last = { data, at: performance.now() - age * 1000 };  // hubNow() ticks from it
    // the same reply again (nothing changed): the page stays as drawn
    const same = call && JSON.stringify({ ...call, hub_time: 0 }) ===
      JSON.stringify({ ...data, hub_time: 0 });
    if (!same) call = data;
    if (await useLanguage(data.lang)) render();  // the event's language: its words now
    document.body.classList.remove("offline");
  } catch (e) {
    document.body.classList.add("offline");
  }
  tick();
}

function wireBoardCall() {
  poll();
  setInterval(poll, POLL_SECONDS * 1000);
  setInterval(() => { callPage += 1; tick(); }, PAGE_SECONDS * 1000);
  setInterval(tick, TICK_MS);
}

if (page === "boardcall") wireBoardCall();
