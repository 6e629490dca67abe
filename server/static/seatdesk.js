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
  if (!(n >= 1 && n <= 99)) return quiet ? false : toast("Give the round first", true);
  let r;
  try { r = await api("GET", `/api/td/register/${n}`); } catch (e) {
    if (!quiet) toast(e.message, true);
    return false;
  }
  if (!r.players.length) {
    if (!quiet) toast(`Nobody is marked here for round ${n}: mark them on the Roster card`, true);
    return false;
  }
  seatRegister = r;
  $("seat-players").value = r.players.join("\n");
  $("seat-apart").value = r.apart.map((p) => p.join(",")).join("\n");
  const first = r.groups.map((g, i) => `${g}: ${r.sit_out_first[i].join(", ")}`);
  $("seat-register-note").textContent = `From round ${n}'s register: ${r.players.length} ` +
    `players, ${r.apart.length} pair${r.apart.length === 1 ? "" : "s"} kept apart.` +
    (first.length ? ` If some must sit out, first ${first.join("; then ")}.` : "");
  $("seat-register-note").hidden = false;
  countPlayers();
  return true;
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
    if (paid.length) drafted.notes = [...drafted.notes, `Sitting out at their request: ` +
      `${paid.join(", ")}. The event's sit-out bonus is ${reg.bonus} points each; the ` +
      "standings do not add it by themselves"];
    showSeatDraft(drafted);
    $("seat-seed").placeholder = `any (this one: ${seatDraft.seed})`;
  } catch (e) {
    toast(e.message, true);
  } finally {
    $("btn-seat-draft").disabled = false;
  }
}

function showSeatDraft(judged) {
  seatDraft = { ...(seatDraft || {}), ...judged };
  seatPicked = null;
  const q = judged.quality, out = seatDraft.sitting_out || [], two = seatDraft.two_boards || [];
  const parts = [`Round ${judged.round}: ${judged.tables.length} tables`,
    `${q.pairs_met_before} pair${q.pairs_met_before === 1 ? "" : "s"} met before`,
    `${q.powers_repeated} power${q.powers_repeated === 1 ? "" : "s"} repeated`];
  if (q.apart_together) parts.push(`${q.apart_together} kept-apart together`);
  if (out.length) parts.push(`sitting out: ${out.join(", ")}`);
  if (two.length) parts.push(`on two boards: ${two.join(", ")}`);
  $("seat-quality").textContent = parts.join(" · ");
  $("seat-quality").hidden = false;
  $("seat-quality").classList.toggle("clean", !q.pairs_met_before && !q.powers_repeated);
  // what the hub says the TD should know (the top board, how its powers are chosen)
  const notes = seatDraft.notes || [];
  $("seat-notes").replaceChildren(...notes.map((n) => el("li", {}, n)));
  $("seat-notes").hidden = !notes.length;
  const problems = [...judged.problems];
  if (judged.played) problems.unshift(`round ${judged.round} has been played (${judged.played}): it cannot be seated again`);
  $("seat-problems").replaceChildren(...problems.map((p) => el("li", { class: "flag" }, p)));
  $("seat-problems").hidden = !problems.length;
  $("btn-seat-call").disabled = problems.length > 0;
  renderSeatDraft();
}

function renderSeatDraft() {
  const view = $("seat-draft");
  if (!seatDraft) return view.replaceChildren();
  view.replaceChildren(...seatDraft.tables.map((t) => el("div",
    { class: "seat-table", "data-table": t.table }, el("strong", {}, `Table ${t.table}`),
    el("ol", { class: "seats" }, ...seatingView.powers.map(({ letter, name }) => {
      const picked = seatPicked && seatPicked[0] === t.table && seatPicked[1] === letter;
      return el("li", { class: picked ? "picked" : "" },
        el("span", { class: "power" }, name), " ",
        el("button", { class: "player plain", type: "button", "data-power": letter,
          "aria-pressed": picked ? "true" : "false",
          onclick: () => pickSeat(t.table, letter) }, t.seats[letter] || "empty"));
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
    toast(`Swapped ${b.seats[power]} and ${a.seats[p1]}`);
  } catch (e) {
    toast(e.message, true);
    renderSeatDraft();
  }
}

async function callSeating() {
  if (!seatDraft) return;
  const d = seatDraft;
  const done = await act(`Call round ${d.round}'s seating, ${d.tables.length} tables? It replaces ` +
    `round ${d.round}'s seating and each table's clock shows its players.`, "PUT",
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
}

if (page === "dashboard") wireSeatDesk();
