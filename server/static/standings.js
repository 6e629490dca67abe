// dipclock: the standings for the projector, from the sheets the TD confirmed. The TD opens
// it signed in (an event may keep its standings from the players until the prizes), and it
// follows every confirmation by itself.
"use strict";

async function showStandings() {
  const round = new URLSearchParams(location.search).get("round");
  try {
    const v = await api("GET", "/api/td/standings" + (round ? `?round=${round}` : ""));
    $("standings-title").textContent = `${v.event} · standings after round ${v.round}`;
    $("standings-mixed").hidden = !v.mixed;  // totals that add different scoring systems
    $("standings-mixed").textContent = v.mixed ? v.mixed.charAt(0).toUpperCase() + v.mixed.slice(1) : "";
    $("standings-note").textContent = v.problem || (v.sheets_waiting.length
      ? `Waiting for the sheets of tables ${v.sheets_waiting.join(", ")}` : "Every sheet confirmed");
    $("standings-rows").replaceChildren(...v.standings.map((s) => el("tr", {},
      el("td", {}, `${s.rank}${s.shared ? "=" : ""}`), el("td", {}, s.player),
      el("td", {}, s.total.toFixed(2)), el("td", {}, String(s.games)))));
    const top = v.top_board;
    $("proj-top").hidden = !top || !top.seeds.length;
    if (top) {
      $("proj-top-note").textContent = top.table ? `Round ${top.round}, table ${top.table}` : `Round ${top.round}`;
      $("proj-top-seeds").replaceChildren(...top.seeds.map((p) => el("li", {}, p)));
    }
    $("proj-teams-box").hidden = !v.teams.length;
    $("proj-teams").replaceChildren(...v.teams.map((t) => el("li", {},
      `${t.team} ${t.total.toFixed(2)}`)));
    $("proj-countries").replaceChildren(...v.best_countries.map((c) => el("li", {},
      el("b", {}, c.power), " ", c.winners.map((w) => `${w.player} ${w.score.toFixed(2)}`).join(", "))));
  } catch (e) {
    $("standings-note").textContent = e.message.includes("sign in")
      ? "Sign in on the dashboard in this browser first." : e.message;
  }
}

if (page === "standings") {
  showStandings();
  setInterval(showStandings, 5000);
}
