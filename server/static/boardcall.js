// dipclock board call, for a projector: every table's seven players and powers, a page of
// tables at a time, turning by itself. The hub says who sits where (/api/boardcall); this
// page only lays it out and turns the pages.
// Loaded after common.js; the page's scripts share one scope (no build step).
"use strict";

// seconds a page stays up; how often the seating is read again
const PAGE_SECONDS = 12;
const POLL_SECONDS = 5;

let call = null;   // the last /api/boardcall answer
let callPage = 0;  // the page of tables shown, from 0

// As many tables a page as the screen holds: the grid's columns (as wide as the font
// lets a card be) times the rows of cards that fit under the heading, measured on the
// first card drawn.
function perPage(box) {
  const card = box.querySelector(".call-table");
  if (!card) return 1;
  const cols = getComputedStyle(box).gridTemplateColumns.split(" ").filter(Boolean).length;
  const gap = parseFloat(getComputedStyle(box).rowGap) || 0;
  const room = window.innerHeight - box.getBoundingClientRect().top;
  const rows = Math.floor((room - gap) / (card.getBoundingClientRect().height + gap));
  return Math.max(1, cols) * Math.max(1, rows);
}

function tableCard(t) {
  return el("section", { class: "call-table", "data-table": t.table },
    el("h2", {}, `Table ${t.table}`),
    el("ol", {}, ...t.seats.map((s) =>
      el("li", {}, el("span", { class: "power" }, s.power),
        el("span", { class: "player" }, s.player)))));
}

function render() {
  const box = $("call-tables");
  if (!call || call.round === null || !call.tables.length) {
    $("call-title").textContent = call && call.event ? `${call.event} · board call` : "Board call";
    $("call-page").textContent = "";
    box.replaceChildren(el("p", { class: "call-empty" }, "No seating yet."));
    return;
  }
  box.replaceChildren(tableCard(call.tables[0]));  // one card, to measure
  const size = perPage(box), pages = Math.max(1, Math.ceil(call.tables.length / size));
  callPage %= pages;
  $("call-title").textContent = `${call.title} · board call`;
  $("call-page").textContent = pages > 1 ? `Page ${callPage + 1} of ${pages}` : "";
  box.replaceChildren(...call.tables.slice(callPage * size, (callPage + 1) * size).map(tableCard));
}

async function poll() {
  try {
    call = await api("GET", "/api/boardcall");
    document.body.classList.remove("offline");
  } catch (e) {
    document.body.classList.add("offline");
  }
  render();
}

function wireBoardCall() {
  poll();
  setInterval(poll, POLL_SECONDS * 1000);
  setInterval(() => { callPage += 1; render(); }, PAGE_SECONDS * 1000);
  window.addEventListener("resize", render);
}

if (page === "boardcall") wireBoardCall();
