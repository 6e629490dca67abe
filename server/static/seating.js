// dipclock dashboard, Set up: the seating the hub holds, a round at a time and table by
// table (each table's seven powers and their players), with what to fix flagged: an empty
// seat, a player seated twice in the round; the teams; and what an import just did, in the
// hub's own words.
// Loaded after common.js; the page's scripts share one scope (no build step).
"use strict";

const SEAT_POWERS = [["A", "Austria"], ["E", "England"], ["F", "France"], ["G", "Germany"],
  ["I", "Italy"], ["R", "Russia"], ["T", "Turkey"]];
let seatingRound = null;  // the round the TD picked; null: the current one
let seatsHeld = [];       // every seat of every round, as last read

// One player however the name was typed: "alice  smith" is "Alice Smith".
const playerKey = (name) => name.trim().replace(/\s+/g, " ").toLocaleLowerCase();

// After an import: the hub's summary ("seating: 21 players, round 1, tables 1-3"), then the
// seating as the hub now holds it.
function seatingImported(answer) {
  $("seating-summary").textContent = `Imported: ${answer.summary}`;
  $("seating-summary").hidden = false;
  refreshSeating();
}

function teamsImported(answer) {
  $("teams-summary").textContent = `Set: ${answer.summary}`;
  $("teams-summary").hidden = false;
  refreshTeams();
}

async function refreshSeating() {
  try {
    seatsHeld = await api("GET", "/api/td/seating");
  } catch (e) {
    $("seating-view").replaceChildren(el("p", { class: "muted small" }, e.message));
    return;
  }
  const d = last && last.data, current = d && d.round ? d.round.number : null;
  const rounds = [...new Set([...seatsHeld.map((s) => s.round), ...(current ? [current] : [])])]
    .sort((a, b) => a - b);
  const picker = $("seating-round");
  fillSelect(picker, rounds.map((r) => [String(r), `Round ${r}`]));
  picker.hidden = !rounds.length;
  const round = rounds.includes(seatingRound) ? seatingRound : (current ?? rounds[0] ?? null);
  if (round !== null) picker.value = String(round);
  // the current round's tables are those set up, seated or not; another round's, its seats'
  const setUp = round !== null && round === current ? d.tables.map((t) => t.table) : [];
  renderSeating(round, seatsHeld.filter((s) => s.round === round), setUp);
}

function renderSeating(round, seats, setUp) {
  const view = $("seating-view");
  if (round === null) {
    $("seating-count").textContent = "";
    view.replaceChildren(el("p", { class: "muted small" }, "No seating yet."));
    return;
  }
  const tables = new Map(setUp.map((n) => [n, new Map()]));
  const seatsOf = new Map();  // a player's seats this round: more than one is flagged
  for (const s of seats) {
    if (!tables.has(s.table)) tables.set(s.table, new Map());
    tables.get(s.table).set(s.power, s.player);
    const key = playerKey(s.player);
    seatsOf.set(key, [...(seatsOf.get(key) || []), s]);
  }
  let flagged = 0;
  const cards = [...tables.keys()].sort((a, b) => a - b).map((n) => {
    const seated = tables.get(n), flags = new Set();
    const empty = SEAT_POWERS.filter(([letter]) => !seated.get(letter)).map(([, name]) => name);
    if (empty.length === SEAT_POWERS.length) flags.add("no players seated");
    else if (empty.length) flags.add(`empty seat${empty.length > 1 ? "s" : ""}: ${empty.join(", ")}`);
    const rows = SEAT_POWERS.map(([letter, name]) => {
      const player = seated.get(letter) || "";
      const others = player ? seatsOf.get(playerKey(player))
        .filter((s) => s.table !== n || s.power !== letter) : [];
      for (const s of others) {
        flags.add(s.table === n ? `${player} is seated twice at this table`
          : `${player} is also seated at table ${s.table}`);
      }
      return el("li", { class: player ? (others.length ? "twice" : "") : "empty" },
        el("span", { class: "power" }, name), el("span", { class: "player" }, player || "empty"));
    });
    if (flags.size) flagged += 1;
    return el("div", { class: `seat-table${flags.size ? " flagged" : ""}`, "data-table": n },
      el("strong", {}, `Table ${n}`),
      ...[...flags].map((f) => el("div", { class: "flag small" }, f)),
      seated.size ? el("ol", { class: "seats" }, ...rows) : null);
  });
  const players = new Set(seats.map((s) => playerKey(s.player))).size;
  $("seating-count").textContent = `${tables.size} table${tables.size === 1 ? "" : "s"}, ` +
    `${players} player${players === 1 ? "" : "s"}` + (flagged ? ` · ${flagged} to check` : "");
  view.replaceChildren(...cards);
}

// Each team and its players; a player seated in no round is flagged (the team table would
// never count them).
async function refreshTeams() {
  let teams;
  try {
    teams = await api("GET", "/api/td/teams");
  } catch (e) {
    $("teams-view").replaceChildren(el("li", { class: "muted" }, e.message));
    return;
  }
  const seated = new Set(seatsHeld.map((s) => playerKey(s.player)));
  $("teams-view").replaceChildren(...Object.entries(teams).map(([team, players]) => {
    const missing = players.filter((p) => !seated.has(playerKey(p)));
    return el("li", { "data-team": team }, el("span", {}, el("b", {}, team), ` ${players.join(", ")}`),
      missing.length ? el("span", { class: "flag" }, `not seated in any round: ${missing.join(", ")}`) : null);
  }));
}

function wireSeating() {
  $("seating-round").onchange = () => {
    seatingRound = Number($("seating-round").value) || null;
    refreshSeating();
  };
  // read when Set up is opened, and kept fresh while it is (new tables, another round)
  const fresh = () => refreshSeating().then(refreshTeams);
  $("setup").addEventListener("toggle", () => { if ($("setup").open) fresh(); });
  setInterval(() => { if ($("setup").open && !$("app").hidden) fresh(); }, 10000);
}

if (page === "dashboard") wireSeating();
