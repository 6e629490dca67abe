// dipclock dashboard, the Seating card: seat round N from the players present and the
// rounds played (the hub's core does it: POST /api/td/seating/draft), preview the tables
// with the figures, swap two players by tapping them (the hub judges the result again:
// POST /api/td/seating/check), and call it (PUT /api/td/seating/round). The draft lives in
// this page only: nothing reaches the tables until the TD calls it. The players come from
// the round's register (Roster card: the players here, the sit-out order, the roster's
// kept-apart pairs) where the TD marked one, or are pasted.
// Loaded after common.js and seating.js (seatingView's powers, seatsHeld); uses
// dashboard.js's tableNumbers; one scope, no build step. The powers and what the players
// make are the hub's: this page names no power and counts no tables itself.
"use strict";

let seatDraft = null;   // the hub's last answer for the draft on screen
let seatPicked = null;  // [table, power] of the first player tapped for a swap

const lines = (text) => text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
const names = (text) => text.split(",").map((n) => n.trim()).filter(Boolean);

function seatApart() {
  return lines($("seat-apart").value).map((l) => names(l)).filter((p) => p.length === 2);
}

// The round's register (Roster card, server/routers/register.py) as the seating takes it:
// the players here and the volunteers, the roster's kept-apart pairs, and who sits out
// first (volunteers, then where the event says so the non-pre-registered).
let seatRegister = null;

async function playersFromRegister(quiet) {
  const n = Number($("seat-round").value);
  if (!(n >= 1 && n <= 99)) return quiet ? false : toast(words("Give the round first"), true);
  let r;
  try { r = await api("GET", `/api/td/register/${n}`); } catch (e) {
    if (!quiet) toast(e.message, true);
    return false;
  }
  if (!r.players.length) {
    if (!quiet) {
      toast(words("Nobody is marked here for round {round}: mark them on the Roster card",
        { round: n }), true);
    }
    return false;
  }
  seatRegister = r;
  $("seat-players").value = r.players.join("\n");
  $("seat-apart").value = r.apart.map((p) => p.join(",")).join("\n");
  registerNote();
  $("seat-register-note").hidden = false;
  countPlayers();
  return true;
}

// A sit-out group's name, as the hub's register names it (in English: the seating
// compares it), in the page's language.
function groupWords(g) {
  if (g === "asked to sit out") return words("asked to sit out");
  if (g === "signed up late") return words("signed up late");
  if (g === "not pre-registered") return words("not pre-registered");
  let m = /^(.*) board members$/.exec(g);
  if (m) return words("{club} board members", { club: m[1] });
  m = /^(.*) members$/.exec(g);
  if (m) return words("{club} members", { club: m[1] });
  m = /^from (.*)$/.exec(g);
  if (m) return words("from {place}", { place: m[1] });
  return g;
}

// What the register gave the form: its players, its pairs and who sits out first.
function registerNote() {
  const r = seatRegister;
  if (!r) return;
  const first = r.groups.map((g, i) => words("{group}: {names}",
    { group: groupWords(g), names: r.sit_out_first[i].join(", ") }));
  // (each part said first: the catalogue's extraction sees no call inside another's)
  const players = plural("{n} player", "{n} players", r.players.length);
  const pairs = plural("{n} pair kept apart", "{n} pairs kept apart", r.apart.length);
  const from = words("From round {round}'s register: {players}, {pairs}.",
    { round: r.round, players, pairs });
  const then = words("; then ");
  $("seat-register-note").textContent = first.length
    ? words("{from} If some must sit out, first {groups}.", { from, groups: first.join(then) })
    : from;
}

// The round to seat and its players, guessed from what the hub holds until the TD types:
// the round after the latest seated one, its players its register's where the TD marked
// one, else those of the latest seated round.
// A field the TD is typing in is theirs: the guess, landing after the hub answered, would
// type into it ("1" then the guess's "1": round 11).
const guessable = (id) => !$(id).value.trim() && document.activeElement !== $(id);

async function guessSeatForm() {
  const rounds = seatsHeld.map((s) => s.round);
  const latest = rounds.length ? Math.max(...rounds) : null;
  if (guessable("seat-round")) $("seat-round").value = String(latest ? latest + 1 : 1);
  if (guessable("seat-players") && await playersFromRegister(true)) return;
  if (guessable("seat-players") && latest) {
    const seen = [...new Set(seatsHeld.filter((s) => s.round === latest).map((s) => s.player))];
    $("seat-players").value = seen.sort((a, b) => a.localeCompare(b)).join("\n");
  }
  countPlayers();
}

// What the players typed make, in the hub's words by the event's rules ("23 players: 3
// tables, 2 sitting out"; two boards only where the event allows them), asked a moment
// after the TD stops typing; the two-boards field is shown only where the event has them.
let planTimer = null, planAsked = 0;

function countPlayers() {
  clearTimeout(planTimer);
  planTimer = setTimeout(askPlan, 300);
}

async function askPlan() {
  const asked = ++planAsked, players = lines($("seat-players").value);
  try {
    const round = Number($("seat-round").value);
    const plan = await api("POST", "/api/td/seating/plan",
      round >= 1 && round <= 99 ? { players, round } : { players });
    if (asked !== planAsked) return;  // the TD typed again meanwhile: a newer answer comes
    $("seat-players-count").textContent = plan.text;
    $("seat-two").closest("label").hidden = !plan.two_boards;
  } catch (e) {
    if (asked === planAsked) $("seat-players-count").textContent = e.message;
  }
}

async function seatTheRound() {
  let keep;
  try { keep = tableNumbers($("seat-keep").value, "tables already called"); } catch (e) {
    return toast(e.message, true);
  }
  const seed = $("seat-seed").value.trim();
  const body = {
    round: Number($("seat-round").value), players: lines($("seat-players").value),
    apart: seatApart(), keep, two_boards: names($("seat-two").value),
    // who takes a top-board seat the ranking leaves tied, as the TD decides (issue 36)
    top_board_pick: names($("seat-top-pick").value),
    ...(seed ? { seed: Number(seed) } : {}),
  };
  const reg = seatRegister && seatRegister.round === body.round ? seatRegister : null;
  if (reg) body.sit_out_first = reg.sit_out_first;
  $("btn-seat-draft").disabled = true;
  seatDraft = null;
  try {
    if (!seatingView) await refreshSeating();  // seating.js: the powers, to lay a draft out
    const drafted = await api("POST", "/api/td/seating/draft", body);
    // the event's bonus for a volunteer who sits out (wdc2019 II.1b3)
    const paid = reg && reg.bonus && reg.groups[0] === "asked to sit out"
      ? drafted.sitting_out.filter((p) => reg.sit_out_first[0].includes(p)) : [];
    drafted.paid = paid.length ? { names: paid, bonus: reg.bonus } : null;
    showSeatDraft(drafted);
    seedPlaceholder();
  } catch (e) {
    toast(e.message, true);
  } finally {
    $("btn-seat-draft").disabled = false;
  }
}

// The seed field's hint: the draft's own seed, to seat it the same way again.
function seedPlaceholder() {
  if (seatDraft) $("seat-seed").placeholder = words("any (this one: {seed})", { seed: seatDraft.seed });
}

function showSeatDraft(judged) {
  // "played" is the answer's own: a checked swap's answer has none
  seatDraft = { ...(seatDraft || {}), ...judged, played: judged.played };
  seatPicked = null;
  drawSeatFigures();
  $("btn-seat-call").disabled = seatDraft.problems.length > 0 || Boolean(seatDraft.played);
  renderSeatDraft();
}

// The draft's figures, notes and problems, from the hub's last answer (drawn again when
// the language changes).
function drawSeatFigures() {
  const d = seatDraft, q = d.quality, out = d.sitting_out || [], two = d.two_boards || [];
  const tables = plural("{n} table", "{n} tables", d.tables.length);
  const parts = [words("Round {round}: {tables}", { round: d.round, tables }),
  plural("{n} pair met before", "{n} pairs met before", q.pairs_met_before),
  plural("{n} power repeated", "{n} powers repeated", q.powers_repeated)];
  if (q.apart_together) parts.push(plural("{n} kept-apart together", "{n} kept-apart together", q.apart_together));
  if (out.length) parts.push(words("sitting out: {names}", { names: out.join(", ") }));
  if (two.length) parts.push(words("on two boards: {names}", { names: two.join(", ") }));
  $("seat-quality").textContent = parts.join(" · ");
  $("seat-quality").hidden = false;
  $("seat-quality").classList.toggle("clean", !q.pairs_met_before && !q.powers_repeated);
  // what the hub says the TD should know (the top board, how its powers are chosen), and
  // the event's bonus for a volunteer who sits out (wdc2019 II.1b3)
  const notes = [...(d.notes || [])];
  if (d.paid) {
    notes.push(words("Sitting out at their request: {names}. The event's sit-out bonus is " +
      "{bonus} points each; the standings do not add it by themselves",
    { names: d.paid.names.join(", "), bonus: d.paid.bonus }));
  }
  $("seat-notes").replaceChildren(...notes.map((n) => el("li", {}, n)));
  $("seat-notes").hidden = !notes.length;
  const problems = [...d.problems];
  if (d.played) {
    problems.unshift(words("round {round} has been played ({played}): it cannot be seated again",
      { round: d.round, played: d.played }));
  }
  $("seat-problems").replaceChildren(...problems.map((p) => el("li", { class: "flag" }, p)));
  $("seat-problems").hidden = !problems.length;
}

function renderSeatDraft() {
  const view = $("seat-draft");
  if (!seatDraft) return view.replaceChildren();
  view.replaceChildren(...seatDraft.tables.map((t) => el("div",
    { class: "seat-table", "data-table": t.table },
    el("strong", {}, words("Table {table}", { table: t.table })),
    el("ol", { class: "seats" }, ...seatingView.powers.map(({ letter, name }) => {
      const picked = seatPicked && seatPicked[0] === t.table && seatPicked[1] === letter;
      return el("li", { class: picked ? "picked" : "" },
        el("span", { class: "power" }, name), " ",
        el("button", { class: "player plain", type: "button", "data-power": letter,
          "aria-pressed": picked ? "true" : "false",
          onclick: () => pickSeat(t.table, letter) }, t.seats[letter] || words("empty")));
    })))));
}

// The first tap picks a player, the second swaps the two; the hub judges the new seating.
async function pickSeat(table, power) {
  if (!seatPicked) { seatPicked = [table, power]; return renderSeatDraft(); }
  const [t1, p1] = seatPicked;
  seatPicked = null;
  if (t1 === table && p1 === power) return renderSeatDraft();
  const tables = seatDraft.tables.map((t) => ({ table: t.table, seats: { ...t.seats } }));
  const a = tables.find((t) => t.table === t1), b = tables.find((t) => t.table === table);
  [a.seats[p1], b.seats[power]] = [b.seats[power], a.seats[p1]];
  try {
    showSeatDraft(await api("POST", "/api/td/seating/check",
      { round: seatDraft.round, tables, apart: seatApart() }));
    toast(words("Swapped {a} and {b}", { a: b.seats[power], b: a.seats[p1] }));
  } catch (e) {
    toast(e.message, true);
    renderSeatDraft();
  }
}

async function callSeating() {
  if (!seatDraft) return;
  const d = seatDraft;
  const done = await act(plural("Call round {round}'s seating, {n} table? It replaces round " +
    "{round}'s seating and each table's clock shows its players.", "Call round {round}'s " +
    "seating, {n} tables? It replaces round {round}'s seating and each table's clock shows " +
    "its players.", d.tables.length, { round: d.round }), "PUT",
    "/api/td/seating/round", { round: d.round, tables: d.tables, apart: seatApart() });
  if (done) {
    seatDraft = null;
    seatPicked = null;
    $("seat-quality").hidden = true;
    $("seat-notes").hidden = true;
    $("seat-problems").hidden = true;
    $("btn-seat-call").disabled = true;
    renderSeatDraft();
    seatingRound = d.round;  // seating.js: show the called round table by table
    await refreshSeating();
    $("seat-round").value = "";
    if (seatRegister) $("seat-players").value = "";  // the next round's register, if any
    seatRegister = null;
    $("seat-register-note").hidden = true;
    await guessSeatForm();
  }
}

function wireSeatDesk() {
  $("btn-seat-draft").onclick = seatTheRound;
  $("btn-seat-call").onclick = callSeating;
  $("seat-players").addEventListener("input", countPlayers);
  $("seat-round").addEventListener("change", countPlayers);  // the round's limits count
  $("btn-seat-register").onclick = () => playersFromRegister(false);
  $("seat-desk").addEventListener("toggle", async () => {
    if (!$("seat-desk").open) return;
    await refreshSeating();  // seating.js: what the hub holds, for the guesses
    await guessSeatForm();
  });
  // what this card drew, again in the new language; the hub's plan line asked again (it
  // answers in the phone's language)
  onLanguage(async () => {
    if ($("app").hidden) return;  // signed out: nothing drawn, nothing to ask the hub
    if (seatingView) await refreshSeating();  // seating.js: the powers' names
    if (seatDraft) { drawSeatFigures(); seedPlaceholder(); renderSeatDraft(); }
    registerNote();
    if ($("seat-players").value.trim()) countPlayers();
  });
}

if (page === "dashboard") wireSeatDesk();
