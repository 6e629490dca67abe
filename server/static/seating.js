// dipclock dashboard, Set up: the seating the hub holds, a round at a time and table by
// table (each table's seven powers and their players), with what to fix flagged: an empty
// seat, a player seated twice in the round; the teams; and what an import just did, in the
// hub's own words. The powers, who is the same player and what to fix are the hub's
// (GET /api/td/seating/view): this page names no power and checks no seating itself.
// Loaded after common.js; the page's scripts share one scope (no build step).
"use strict";

let seatingRound = null;  // the round the TD picked; null: the current one
let seatsHeld = [];       // every seat of every round, as last read (the Seating card's guesses)
let seatingView = null;   // the hub's seating view: its powers, tables and what to fix

// After an import: the hub's summary ("seating: 21 players, round 1, tables 1-3"), then the
// seating as the hub now holds it.
function seatingImported(answer) {
  $("seating-summary").textContent = words("Imported: {summary}", { summary: answer.summary });
  $("seating-summary").hidden = false;
  refreshSeating();
}

function teamsImported(answer) {
  $("teams-summary").textContent = words("Set: {summary}", { summary: answer.summary });
  $("teams-summary").hidden = false;
  refreshSeating().then(refreshTeams);  // who is seated nowhere is the hub's to say
}

// The hub sends the round table by table with what to fix (the core's own checks, so the
// page and the Seating card never disagree); this page only lays it out.
async function refreshSeating() {
  try {
    seatsHeld = await api("GET", "/api/td/seating");
    seatingView = await api("GET", "/api/td/seating/view" +
      (seatingRound ? `?round=${seatingRound}` : ""));
  } catch (e) {
    $("seating-view").replaceChildren(el("p", { class: "muted small" }, e.message));
    return;
  }
  const v = seatingView, picker = $("seating-round");
  fillSelect(picker, v.rounds.map((r) => [String(r), words("Round {round}", { round: r })]));
  picker.hidden = !v.rounds.length;
  if (v.round !== null) picker.value = String(v.round);
  renderSeating(v);
}

function renderSeating(v) {
  const view = $("seating-view");
  if (v.round === null) {
    $("seating-count").textContent = "";
    view.replaceChildren(el("p", { class: "muted small" }, words("No seating yet.")));
    return;
  }
  const cards = v.tables.map((t) => el("div",
    { class: `seat-table${t.problems.length ? " flagged" : ""}`, "data-table": t.table },
    el("strong", {}, words("Table {table}", { table: t.table })),
    ...t.problems.map((f) => el("div", { class: "flag small" }, f)),
    t.seats.length ? el("ol", { class: "seats" }, ...t.seats.map((s) =>
      el("li", { class: s.player ? (s.twice ? "twice" : "") : "empty" },
        el("span", { class: "power" }, s.name), " ",
        el("span", { class: "player" }, s.player || words("empty"))))) : null));
  const flagged = v.tables.filter((t) => t.problems.length).length, n = v.tables.length;
  const tables = plural("{n} table", "{n} tables", n);
  const players = plural("{n} player", "{n} players", v.players);
  const counted = words("{tables}, {players}", { tables, players });
  $("seating-count").textContent = flagged
    ? words("{counted} · {n} to check", { counted, n: flagged }) : counted;
  view.replaceChildren(...cards);
}

// Each team and its players; the hub flags a player seated in no round (the team table
// would never count them).
async function refreshTeams() {
  let teams;
  try {
    teams = await api("GET", "/api/td/teams");
  } catch (e) {
    $("teams-view").replaceChildren(el("li", { class: "muted" }, e.message));
    return;
  }
  const unseated = (seatingView && seatingView.unseated) || {};
  $("teams-view").replaceChildren(...Object.entries(teams).map(([team, players]) => {
    const missing = unseated[team] || [];
    return el("li", { "data-team": team }, el("span", {}, el("b", {}, team), ` ${players.join(", ")}`),
      missing.length ? el("span", { class: "flag" },
        words("not seated in any round: {names}", { names: missing.join(", ") })) : null);
  }));
}

// The teams made from the roster's club or team column, in one tap: the hub says what it
// made, or why not (no roster, no clubs, a team round that needs each member's power).
function teamsFromRoster() {
  act(words("Make the teams from the roster's clubs? They replace the teams set now."), "PUT",
    "/api/td/teams/from-roster").then((done) => {
    if (!done) return;
    teamsImported(done);
    refreshResults();  // results.js: the team table follows the teams
  });
}

function wireSeating() {
  $("btn-teams-roster").onclick = teamsFromRoster;
  $("seating-round").onchange = () => {
    seatingRound = Number($("seating-round").value) || null;
    refreshSeating();
  };
  // read when Set up is opened, and kept fresh while it is (new tables, another round)
  const fresh = () => refreshSeating().then(refreshTeams);
  $("setup").addEventListener("toggle", () => { if ($("setup").open) fresh(); });
  setInterval(() => { if ($("setup").open && !$("app").hidden) fresh(); }, 10000);
  // the hub names the powers in the phone's language: asked again in the new one
  onLanguage(() => { if ($("setup").open && !$("app").hidden) fresh(); });
}

if (page === "dashboard") wireSeating();
