// dipclock dashboard: the Results card. Every board's result sheet of a round, what looks
// wrong on it, the TD's confirmation, and the standings that follow (server/routers/
// results.py). Loaded after common.js; the page's scripts share one scope (no build step).
"use strict";

// The round whose sheets the TD looks at: null for the current round.
let resultsRound = null;
// Sheets change at a player's pace, not the clock's: every third poll of the dashboard
// (6 s), and at once after the TD acts on one.
let resultsPolls = 0;

function resultsDue() {
  resultsPolls = (resultsPolls + 1) % 3;
  return resultsPolls === 1;
}

// A sheet's status as the card says it (the hub's status codes are the keys)
function sheetStatus(status) {
  if (status === "empty") return words("no sheet yet");
  if (status === "entered") return words("entered, waiting for the players");
  if (status === "confirmed") return words("confirmed by the players");
  if (status === "final") return words("confirmed by the TD");
  return status;
}

// A power as the phone says it: the sheet's centres are by letter (or English name), its
// ``powers`` say each in the phone's language (the hub's lines, ``missing``, come said)
function powerSaid(v, key) {
  const p = (v.powers || []).find((q) => q.name === key || q.letter === key);
  return (p && p.said) || key;
}

function centresLine(v) {
  return Object.entries(v.sheet.centres).map(([p, n]) => `${powerSaid(v, p)} ${n}`).join(" ") +
    ` · ${v.sheet.year} · ${v.ending}`;
}

// The base (server/stale.py) of the sheets the card shows: the TD's confirmation is made
// from what the card showed, not from the dashboard's last poll.
let resultsBase = null;

// Whose lines are confirmed and whose are not: the players confirm with their powers'
// buttons on the table's clock; the TD may confirm without some, on purpose.
function confirmationsLine(v) {
  if (!v.sheet) return null;
  const seated = v.lines; // the powers seated, or all seven: the hub counts them
  if (v.status === "final" && v.td_without.length) {
    return el("span", { class: "small flag" },
      words("confirmed by the TD without {names}", { names: v.td_without.join(", ") }));
  }
  if (!v.missing.length) {
    return el("span", { class: "small" },
      plural("all {n} players confirmed", "all {n} players confirmed", seated));
  }
  return el("span", { class: "small missing" },
    words("{confirmed}/{seated} confirmed · waiting for {names}",
      { confirmed: v.confirmed.length, seated, names: v.missing.join(", ") }));
}

function sheetRow(v) {
  const open = el("a", { href: `/sheet/${v.round}/${v.table}`, target: "_blank" }, words("Open"));
  const row = el("li", { class: v.flags.length ? "bad" : (v.status === "final" ? "done" : ""),
    "data-table": v.table },
    el("span", {}, el("b", {}, words("Table {table}", { table: v.table })),
      ` · ${sheetStatus(v.status)}`),
    v.sheet ? el("span", { class: "small" }, centresLine(v)) : null,
    confirmationsLine(v),
    ...v.flags.map((f) => el("span", { class: "small flag" }, f)),
    open);
  const final = (yes) => {
    const incomplete = yes && v.missing.length > 0;
    const question = !yes
      ? words("Reopen table {table}'s sheet? Its scores stop counting until you confirm it " +
        "again.", { table: v.table })
      : incomplete
        ? words("Confirm table {table}'s sheet without {names}? They have not confirmed " +
          "their lines: it is recorded as your confirmation. Its scores count from now on.",
        { table: v.table, names: v.missing.join(", ") })
        : words("Confirm table {table}'s sheet? Its scores count from now on.",
          { table: v.table });
    return act(question, "POST", `/api/td/sheets/${v.round}/${v.table}/final`,
      { final: yes, incomplete }, { base: resultsBase, headers: { "If-Match": String(v.version) } })
      .then(() => refreshResults());
  };
  if (v.sheet && v.status !== "final") {
    row.append(el("button", { class: "go", disabled: v.blocked ? "disabled" : null,
      title: v.blocked ? v.flags[0] : null, onclick: () => final(true) }, words("Confirm")));
  } else if (v.status === "final") {
    row.append(el("button", { class: "plain", onclick: () => final(false) }, words("Reopen")));
  }
  return row;
}

function standingRows(view) {
  if (view.problem) return [el("li", { class: "bad" }, view.problem)];
  if (!view.standings.length) {
    return [el("li", { class: "muted" }, words("No confirmed sheets yet."))];
  }
  return view.standings.map((s) => el("li", {},
    el("span", { class: "rank" }, `${s.rank}${s.shared ? "=" : ""}`),
    el("span", { class: "name" }, s.player), el("b", {}, s.total.toFixed(2)),
    el("span", { class: "muted small" }, plural("· {n} game", "· {n} games", s.games))));
}

// The dashboard's last state the picker was filled from (filled again in a new language)
let resultsState = null;

async function refreshResults(d) {
  const picker = $("results-round");
  if (!picker.onchange) {
    picker.onchange = () => { resultsRound = Number(picker.value) || null; refreshResults(); };
  }
  if (d) resultsState = d;
  if (d || resultsState) {
    const rounds = resultsState.rounds;
    fillSelect(picker, rounds.map((r) => [String(r.number), words("Round {round}", { round: r.number })]));
    picker.hidden = !rounds.length;
  }
  const q = resultsRound === null ? "" : `?round=${resultsRound}`;
  try {
    const [sheets, view] = await Promise.all([api("GET", `/api/td/results${q}`),
                                              api("GET", `/api/td/standings${q}`)]);
    if (resultsRound === null) picker.value = String(sheets.round);
    resultsBase = sheets.base;
    $("sheets").replaceChildren(...sheets.sheets.map(sheetRow));
    $("standings-after").textContent = view.sheets_waiting.length
      ? words("after round {round} · waiting for tables {tables}",
        { round: view.round, tables: view.sheets_waiting.join(", ") })
      : words("after round {round}", { round: view.round });
    $("standings").replaceChildren(...standingRows(view));
    // totals that add rounds scored under different systems: said, and the files asked
    // for on purpose (the hub refuses them otherwise)
    $("standings-mixed").hidden = !view.mixed;
    $("standings-mixed").textContent = view.mixed ? view.mixed.charAt(0).toUpperCase() + view.mixed.slice(1) : "";
    // a replaced power's game shared between its players, a volunteer's bonus for
    // sitting out: said, one line each
    const said = [...(view.replaced || []), ...(view.bonuses || [])];
    $("standings-replaced").hidden = !said.length;
    $("standings-replaced").replaceChildren(...said.map((t) => el("li", {}, t)));
    renderAwards(view);
    const mixed = view.mixed ? "&mixed=1" : "";
    // a file of mixed totals is asked for on purpose, and says so next to its link (and in
    // its own "note" column)
    for (const tag of document.querySelectorAll("#results-card .csv-mixed")) tag.hidden = !view.mixed;
    $("standings-csv").href = `/api/standings.csv?round=${view.round}${mixed}`;
    $("countries-csv").href = `/api/best-countries.csv?round=${view.round}${mixed}`;
    $("top-board-csv").href = `/api/top-board.csv?round=${view.round}${mixed}`;
  } catch (e) {
    $("sheets").replaceChildren(el("li", { class: "muted" }, e.message));
    $("standings").replaceChildren();
  }
}

// The top board's seeds (and its table once seated), and each power's best result.
function renderAwards(view) {
  const top = view.top_board;
  $("top-board").hidden = !top;
  if (top) {
    const at = { round: top.round, table: top.table };
    $("top-board-note").textContent = top.problem ? top.problem
      : !top.table ? words("Round {round}: seat them at one table", at)
        : top.counts ? words("Round {round}, table {table}: its result decides the first places", at)
          : words("Round {round}, table {table}", at);
    $("top-board-seeds").replaceChildren(...top.seeds.map((p) => el("li", {}, p)));
  }
  $("best-countries").replaceChildren(...view.best_countries.map((c) => el("li", {},
    el("b", {}, c.power), " ", c.winners.map((w) => plural("{player} ({score}, {n} centre, " +
      "round {round})", "{player} ({score}, {n} centres, round {round})", w.centres,
    { player: w.player, score: w.score.toFixed(2), round: w.round })).join("; "))));
  $("teams-box").hidden = !view.teams.length && !view.team_problem;
  $("teams-note").textContent = view.team_problem;
  $("teams").replaceChildren(...view.teams.map((t) => el("li", {},
    el("span", { class: "rank" }, `${t.rank}${t.shared ? "=" : ""}`), ` ${t.team} `,
    el("b", {}, t.total.toFixed(2)))));
  // no table to download while the teams are not scored (the note says why)
  $("teams-csv").hidden = !view.teams.length;
  $("teams-csv").href = `/api/teams.csv?round=${view.round}` + (view.teams_mixed ? "&mixed=1" : "");
}

function wireResults() {
  $("btn-teams").onclick = () => {
    const text = $("teams-csv-text").value;
    const n = text.split("\n").filter((l) => l.trim() && !/^team\s*,/i.test(l)).length;
    act(n ? plural("Set the teams ({n} player)?", "Set the teams ({n} players)?", n)
      : words("Clear the teams?"), "PUT", "/api/td/teams",
      { csv: text }).then((done) => {
      if (!done) return;
      teamsImported(done);  // seating.js: what was set, and each team
      refreshResults();
    });
  };
  // the card's words, and the hub's, again in the new language
  onLanguage(() => { if (!$("app").hidden && resultsState) refreshResults(); });
}
