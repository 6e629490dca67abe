// dipclock: the standings for the projector, from the sheets the TD confirmed. The TD opens
// it signed in (an event may keep its standings from the players until the prizes), and it
// follows every confirmation by itself.
"use strict";

async function showStandings() {
  const round = new URLSearchParams(location.search).get("round");
  try {
    const v = await api("GET", "/api/td/standings" + (round ? `?round=${round}` : ""));
    $("standings-title").textContent = words("{event} · standings after round {round}",
      { event: v.event, round: v.round });
    $("standings-mixed").hidden = !v.mixed;  // totals that add different scoring systems
    $("standings-mixed").textContent = v.mixed ? v.mixed.charAt(0).toUpperCase() + v.mixed.slice(1) : "";
    // a replaced power's shares, a volunteer's bonus for sitting out
    const said = [...(v.replaced || []), ...(v.bonuses || [])];
    $("standings-replaced").hidden = !said.length;
    $("standings-replaced").replaceChildren(...said.map((t) => el("li", {}, t)));
    $("standings-note").textContent = v.problem || (v.sheets_waiting.length
      ? plural("Waiting for the sheet of table {tables}", "Waiting for the sheets of tables {tables}",
        v.sheets_waiting.length, { tables: v.sheets_waiting.join(", ") })
      : words("Every sheet confirmed"));
    $("standings-rows").replaceChildren(...v.standings.map((s) => el("tr", {},
      el("td", {}, `${s.rank}${s.shared ? "=" : ""}`), el("td", {}, s.player),
      el("td", {}, s.total.toFixed(2)), el("td", {}, String(s.games)))));
    paginate();
    const top = v.top_board;
    $("proj-top").hidden = !top || !top.seeds.length;
    if (top) {
      $("proj-top-note").textContent = top.table
        ? words("Round {round}, table {table}", { round: top.round, table: top.table })
        : words("Round {round}", { round: top.round });
      $("proj-top-seeds").replaceChildren(...top.seeds.map((p) => el("li", {}, p)));
    }
    $("proj-teams-box").hidden = !v.teams.length;
    $("proj-teams").replaceChildren(...v.teams.map((t) => el("li", {},
      `${t.team} ${t.total.toFixed(2)}`)));
    $("proj-countries").replaceChildren(...v.best_countries.map((c) => el("li", {},
      el("b", {}, c.power), " ", c.winners.map((w) => `${w.player} ${w.score.toFixed(2)}`).join(", "))));
  } catch (e) {
    $("standings-note").textContent = e.status === 401
      ? words("Sign in on the dashboard in this browser first.") : e.message;
  }
}

// --- a screenful at a time ------------------------------------------------------------
// A hall's standings are longer than a screen: the table shows the rows that fit, and turns
// to the next ones every PAGE_SECONDS ("13–21 of 21"), so every player is seen in turn.

const PAGE_SECONDS = 8;
let shownPage = 0;

// The rows as pages that each fit between the table's head and the screen's bottom edge,
// as even as they can be (21 rows, 10 to a screen: 7, 7 and 7, not 10, 10 and 1).
function pagesOf(rows) {
  for (const tr of rows) tr.hidden = false;
  if (!rows.length) return [];
  const top = rows[0].getBoundingClientRect().top;
  const room = window.innerHeight - parseFloat(getComputedStyle(document.body).paddingBottom) - top;
  const heights = rows.map((tr) => tr.getBoundingClientRect().height);
  const split = (most) => {
    const pages = [];
    let start = 0, used = 0;
    heights.forEach((h, i) => {
      if (i > start && (used + h > room || i - start >= most)) { pages.push([start, i]); start = i; used = 0; }
      used += h;
    });
    return [...pages, [start, rows.length]];
  };
  const fitting = split(rows.length);
  return split(Math.ceil(rows.length / fitting.length));
}

function paginate() {
  const rows = [...$("standings-rows").children], counter = $("standings-page");
  const pages = pagesOf(rows);
  counter.hidden = pages.length < 2;
  if (!pages.length) return;
  shownPage %= pages.length;
  const [start, end] = pages[shownPage];
  rows.forEach((tr, i) => { tr.hidden = i < start || i >= end; });
  counter.textContent = end - start > 1
    ? words("{first}–{last} of {n}", { first: start + 1, last: end, n: rows.length })
    : words("{last} of {n}", { last: end, n: rows.length });
}

if (page === "standings") {
  // the first draw in the browser's language; again in a language chosen later
  languageReady.then(() => { showStandings(); onLanguage(showStandings); });
  setInterval(showStandings, 5000);
  setInterval(() => { shownPage += 1; paginate(); }, PAGE_SECONDS * 1000);
  window.addEventListener("resize", paginate);
}
