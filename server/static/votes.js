// dipclock: game-end votes (server/routers/votes.py, dipclock.votes). The words both vote
// pages share (a player's phone, vote.js; the TD's dashboard), and the dashboard's Votes
// card: every table's vote as it goes, who has voted (never how), the results without
// figures; a vote proposed, counted, vetoed, cancelled or undone by hand. The rules and
// every check are the hub's: these pages only ask and say what it said.
// Loaded after common.js: before vote.js on the phone's page; on the dashboard after
// replace.js (its keepChoice) and before dashboard.js.
"use strict";

// The board's powers in table order, letter to name, as the hub sends them (the core's
// list: no page keeps its own; ``said``: the name in the page's language), taken by each
// page before it draws a vote.
let POWER_NAMES = {};
let LETTERS = [];
const powerName = (l) => POWER_NAMES[l] || l;

function takePowers(lines) {
  POWER_NAMES = Object.fromEntries(lines.map((p) => [p.letter, p.said || p.name]));
  LETTERS = lines.map((p) => p.letter);
}
const capital = (s) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : s);

// A secret vote's choices (the hub's keys) in words, read when shown
const CHOICE_WORDS = {
  get yes() { return words("Yes"); }, get no() { return words("No"); },
  get abstain() { return words("Abstain"); },
};

// A vote's state (the hub's key) in words, where no headline says the result
function stateWords(state) {
  return {
    get open() { return words("open"); }, get proposed() { return words("proposed"); },
    get passed() { return words("passed"); }, get failed() { return words("not agreed"); },
    get vetoed() { return words("vetoed"); }, get cancelled() { return words("cancelled"); },
  }[state] || state;
}

// A vote in one line, as the table's screen says it: "A draw of all survivors proposed,
// Fall 1905" while it runs; its headline once closed ("Draw agreed, Fall 1905: the 1904
// centre chart counts"), never a figure the event keeps secret.
function voteLine(v) {
  if (v.state !== "open") {
    return v.headline || words("{what}, {period}: {state}",
      { what: capital(v.words), period: v.period, state: stateWords(v.state) });
  }
  return words("{what} proposed, {period}", { what: capital(v.words), period: v.period });
}

// Where the vote is: who it waits for, how many have voted; never how anyone voted.
function voteProgress(v) {
  if (v.state !== "open") return "";
  if (!v.voters.length) {
    return v.waiting_button.length
      ? words("Waiting for {power}'s button on the clock to open the vote",
        { power: powerName(v.waiting_button[0]) })
      : words("Waiting for the proposer's button on the clock to open the vote");
  }
  const counted = v.voters.filter((p) => !v.absent.includes(p));
  const text = words("Voted: {voted} of {voters}", { voted: v.voted.length, voters: counted.length });
  if (!v.queued) return text;
  const queued = plural("{n} more proposal waiting", "{n} more proposals waiting", v.queued);
  return [text, queued].join(" · ");
}

// Each voter and where they are, in words (not colour alone): voted, chosen on a phone
// and waiting for its button, left the game (votes by the rule), not yet.
function voterState(v, p) {
  if (v.voted.includes(p)) return ["voted", words("✓ voted")];
  if (v.absent.includes(p)) return ["absent", words("left: votes by the rule")];
  if (v.waiting_button.includes(p)) return ["button", words("waiting for its button")];
  return ["", words("not yet")];
}

function voterItems(v) {
  return v.voters.map((p) => {
    const [cls, words] = voterState(v, p);
    return el("li", { class: cls, "data-power": p },
      el("span", { class: "power" }, powerName(p)), " ", el("span", { class: "how" }, words));
  });
}

// --- the dashboard's Votes card ----------------------------------------------------------

let votesView = null;   // GET /api/td/votes?round=N
let votesRound = null;  // the round the card shows: the dashboard's current one

async function refreshVotes() {
  if ($("app").hidden) return;
  const state = last && last.data;
  votesRound = state && state.round ? state.round.number : null;
  $("votes-round").textContent = votesRound ? words("· round {round}", { round: votesRound }) : "";
  if (!votesRound) {
    votesView = null;
    return renderVotes();
  }
  try {
    if (!LETTERS.length) {
      // the seven powers, once (the Seating card's view names them in table order)
      takePowers((await api("GET", "/api/td/seating/view")).powers);
      buildHandForm();
    }
    votesView = await api("GET", `/api/td/votes?round=${votesRound}`);
  } catch (e) {
    $("votes-none").hidden = false;
    $("votes-none").textContent = e.message;
    return;
  }
  renderVotes();
}

function renderVotes() {
  const rows = votesView || [];
  const open = rows.filter((r) => r.vote && r.vote.state === "open");
  $("votes-summary").textContent = open.length
    ? words("· {n} under way", { n: open.length }) : "";
  const items = [];
  for (const r of rows) {
    if (r.vote) items.push(voteRow(r.table, r.vote));
    for (const h of r.history || []) {
      if (!r.vote || h.id !== r.vote.id) items.push(voteRow(r.table, h));
    }
  }
  $("votes-list").replaceChildren(...items);
  $("votes-none").hidden = items.length > 0;
  $("votes-none").textContent = votesRound ? words("No vote this round.") : words("No round set up.");
  const tables = rows.map((r) => [String(r.table), words("Table {table}", { table: r.table })]);
  keepChoice($("vh-table"), tables);
  keepChoice($("vs-table"), tables);
  renderCounting();
}

// One vote: "Table 7: a draw of all survivors proposed, Fall 1905", voted n of m, each
// voter's state, and what the TD may do to it.
function voteRow(table, v) {
  const row = el("li", { class: `vote-row ${v.state}`, "data-table": table, "data-vote": v.id },
    el("span", { class: "vote-what" }, el("b", {}, words("Table {table}:", { table })), " ",
      voteLine(v)),
    v.state === "open" ? el("span", { class: "small" }, voteProgress(v)) : null,
    v.state === "open" && v.voters.length
      ? el("ul", { class: "vote-powers small" }, ...voterItems(v)) : null,
    v.proposer ? el("span", { class: "small muted" }, v.closed_at
      ? words("proposed by {power} · closed {time}", { power: powerName(v.proposer), time: hhmm(v.closed_at) })
      : words("proposed by {power} · {time}", { power: powerName(v.proposer), time: hhmm(v.at) }))
      : null);
  const buttons = el("span", { class: "vote-actions" });
  if (v.state === "open") {
    if (v.voters.length) {
      buttons.append(el("button", { type: "button", class: "small",
        onclick: () => startCounting(table, v) }, words("Count by hand")));
    }
    buttons.append(el("button", { type: "button", class: "small warn",
      onclick: () => cancelVote(table, v) }, words("Cancel")));
  } else if (v.state !== "cancelled" && !v.undone) {
    buttons.append(el("button", { type: "button", class: "small",
      onclick: () => undoVote(table, v) }, words("Undo")));
  }
  if (buttons.childElementCount) row.append(buttons);
  return row;
}

// The table's clock shows its players' vote page as a QR code for 2 minutes (the hub's
// POST /api/td/votes/show-code), for players who want to propose a game end.
async function showVoteCode() {
  const table = Number($("vs-table").value);
  if (!table) return toast(words("Choose the table"), true);
  await act(words("Show the vote code on table {table}'s clock for 2 minutes? Its players scan it to propose a game end; the clock runs on.",
    { table }), "POST", "/api/td/votes/show-code",
  { round: votesRound, table });
}

// --- counting a vote by hand, or recording a veto --------------------------------------

let counting = null;  // {table, vote}: the vote the TD counts by hand

function startCounting(table, v) {
  counting = { table, vote: v };
  // only the votes the event lets a voter cast (wdc2018: no abstention)
  const allowed = (votesView.find((r) => r.table === table) || {}).choices || ["yes", "no"];
  const choices = [["", "—"], ...allowed.map((c) => [c, CHOICE_WORDS[c] || c])];
  $("vc-voters").replaceChildren(...v.voters.filter((p) => !v.absent.includes(p)).map((p) =>
    el("label", {}, powerName(p), el("select", { "data-power": p, "aria-label":
      words("{power}'s vote", { power: powerName(p) }) },
    ...choices.map(([val, t]) => el("option", { value: val }, t))))));
  keepChoice($("vc-veto"), v.voters.map((p) => [p, powerName(p)]));
  $("vc-title").textContent = words("Table {table}: {what}", { table, what: voteLine(v) });
  $("votes-count").hidden = false;
  $("votes-count").scrollIntoView({ block: "nearest" });
}

// The vote counted by hand stays on the card while it is open; gone once it closed.
function renderCounting() {
  if (!counting) return;
  const row = (votesView || []).find((r) => r.table === counting.table);
  if (!row || !row.vote || row.vote.id !== counting.vote.id || row.vote.state !== "open") {
    counting = null;
    $("votes-count").hidden = true;
  }
}

async function countVote() {
  const { table, vote } = counting;
  const votes = {};
  for (const s of $("vc-voters").querySelectorAll("select")) {
    if (!s.value) return toast(words("Give {power}'s vote", { power: powerName(s.dataset.power) }), true);
    votes[s.dataset.power] = s.value;
  }
  const done = await act(words("Count table {table}'s vote on {what} as given? The result shows on the table's clock; the votes themselves are not kept.",
    { table, what: vote.words }),
  "POST", `/api/td/votes/${vote.id}/count`, { votes });
  if (done) await afterVote(true);
}

async function vetoVote() {
  const { table, vote } = counting;
  const power = $("vc-veto").value;
  const done = await act(words("Record {power}'s veto at table {table}? The vote on {what} ends and the game goes on.",
    { power: powerName(power), table, what: vote.words }), "POST", `/api/td/votes/${vote.id}/veto`, { power });
  if (done) await afterVote(true);
}

async function cancelVote(table, v) {
  const done = await act(words("Cancel table {table}'s vote on {what}? It counts for nothing.",
    { table, what: v.words }),
    "POST", `/api/td/votes/${v.id}/cancel`, {});
  if (done) await afterVote(false);
}

async function undoVote(table, v) {
  const passed = v.state === "passed";
  const done = await act(passed
    ? words("Undo table {table}'s vote: {what}? The game resumes on the clock; the record keeps that you undid it.",
      { table, what: voteLine(v) })
    : words("Undo table {table}'s vote: {what}?", { table, what: voteLine(v) }),
  "POST", `/api/td/votes/${v.id}/undo`, {});
  if (done) await afterVote(false);
}

// The result shows on the card (the toast says the action was done, as for every action).
async function afterVote(counted) {
  if (counted) {
    counting = null;
    $("votes-count").hidden = true;
  }
  await refreshVotes();
}

// --- a vote proposed by hand (a table without phones) -----------------------------------

function renderHandForm() {
  const form = $("vh-form").value;
  $("vh-draw-box").hidden = form !== "draw";
  $("vh-concede-label").hidden = form !== "concede";
}

function handChart() {
  const centres = {};
  for (const input of $("vh-chart").querySelectorAll("input")) {
    if (input.value === "") {
      throw new Error(words("Give {power}'s centres", { power: powerName(input.dataset.power) }));
    }
    centres[input.dataset.power] = Number(input.value);
  }
  return centres;
}

async function proposeByHand() {
  let centres;
  try {
    centres = handChart();
  } catch (e) {
    return toast(e.message, true);
  }
  const table = Number($("vh-table").value);
  if (!table) return toast(words("Choose the table"), true);
  let form = $("vh-form").value, what = words("a draw of all survivors");
  if (form === "draw") {
    const powers = [...$("vh-draw").querySelectorAll("input:checked")].map((i) => i.value);
    if (powers.length < 2) return toast(words("Tick the powers in the draw (two or more)"), true);
    form = `draw:${powers.join(",")}`;
    what = words("a draw of {powers}", { powers: powers.map(powerName).join(", ") });
  } else if (form === "concede") {
    form = `concede:${$("vh-concede").value}`;
    what = words("a concession to {power}", { power: powerName($("vh-concede").value) });
  }
  const absent = [...$("vh-absent").querySelectorAll("input:checked")].map((i) => i.value);
  const body = { round: votesRound, table, form, centres, absent };
  if ($("vh-proposer").value) body.proposer = $("vh-proposer").value;
  const done = await act(words("Open a vote at table {table} on {what}? The table's clock shows it at once; count it here when the players have voted.",
    { table, what }), "POST", "/api/td/votes", body);
  if (done) await refreshVotes();
}

function buildHandForm() {
  const boxes = (id, label) => $(id).replaceChildren(...LETTERS.map((l) => el("label",
    { class: "check" }, el("input", { type: "checkbox", value: l, "aria-label": label(l) }),
    powerName(l))));
  boxes("vh-draw", (l) => words("{power} in the draw", { power: powerName(l) }));
  boxes("vh-absent", (l) => words("{power} has left", { power: powerName(l) }));
  keepChoice($("vh-concede"), LETTERS.map((l) => [l, powerName(l)]));
  keepChoice($("vh-proposer"), [["", words("no one named")],
    ...LETTERS.map((l) => [l, powerName(l)])]);
  $("vh-chart").replaceChildren(...LETTERS.map((l) => el("label", {}, powerName(l),
    el("input", { type: "number", min: "0", inputmode: "numeric",
      "data-power": l, "aria-label": words("{power} centres", { power: powerName(l) }) }))));
}

function wireVotes() {
  $("vh-form").addEventListener("change", renderHandForm);
  renderHandForm();
  $("btn-vh-propose").onclick = proposeByHand;
  $("btn-vote-code").onclick = showVoteCode;
  $("btn-vc-count").onclick = countVote;
  $("btn-vc-veto").onclick = vetoVote;
  $("btn-vc-close").onclick = () => { counting = null; $("votes-count").hidden = true; };
  // votes go at the players' pace: every 3 s while the dashboard shows
  setInterval(() => { if (!document.hidden) refreshVotes(); }, 3000);
  // a new language: the powers' names and the hub's words asked again in it
  onLanguage(() => { LETTERS = []; refreshVotes(); });
  refreshVotes();
}

if (page === "dashboard") wireVotes();
