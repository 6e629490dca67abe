// dipclock: a table's game-end vote on a player's phone (server/routers/votes.py). Opened
// with the table's sheet link: the key after '#' proves the phone is at the table and is
// sent in a header, never in the address (as sheet.js does). The page shows the vote under
// way (who has voted, never how), lets a player propose a game end and vote, one step at a
// time: the power, the vote, then that power's button on the table's clock, which is the
// proof the phone's player holds it. The page follows that claim until the hub says it
// counted, clashed with another phone's, lapsed or was refused, then clears it from the
// screen: a phone left on the table never shows how anyone voted.
"use strict";

const [, , voteRound, voteTable] = location.pathname.split("/");
const voteKey = location.hash.slice(1);
const votePath = `/api/votes/${voteRound}/${voteTable}`;
// a proposal's forms (the hub's keys) in words, read when shown (the choices: votes.js)
const FORM_WORDS = {
  get dias() { return words("A draw of all survivors"); },
  get draw() { return words("A draw of the powers I tick"); },
  get concede() { return words("A concession to one power"); },
};
// how often the page asks after a claim waiting for its button, and after the vote (ms)
const CLAIM_POLL = 1500;
const VIEW_POLL = 3000;
let voteView = null;
let chosenPower = null;  // the power picked at step one, until its vote is sent
let claim = null;  // {token, vote, power, press, kind}: sent, waiting for the button
let chartTouched = false;  // the player typed in the chart: polls leave it alone
let boardCentres = null;  // every supply centre on the board, as the table's sheet says


// With the table's key: the hub answers a phone at the table only (the TD's own is the
// dashboard's Votes card).
async function voteApi(method, path, body) {
  const headers = { "Accept": "application/json", "X-Dipclock-Device": deviceId(),
    ...langHeader() };
  if (voteKey) headers["X-Sheet-Key"] = voteKey;  // none: the hub says where to open it
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(path, { method, headers, credentials: "omit",
    body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (!res.ok) {
    const err = new Error((data && data.detail) || `${res.status} ${res.statusText}`);
    err.status = res.status;
    throw err;
  }
  return data;
}

const seatedName = (p) => (voteView && voteView.seated && voteView.seated[p]) || "";
const claimStore = `dipclock-vote-claim-${voteRound}-${voteTable}`;

// --- the vote under way ------------------------------------------------------------------

function renderVote(v) {
  voteView = v;
  $("vote-title").textContent = words("Table {table} · game-end vote", { table: voteTable });
  $("vote-period").textContent = v.period ? words("Now: {period}", { period: v.period }) : "";
  const cur = v.vote;
  $("now-words").textContent = cur ? voteLine(cur) : words("No vote under way");
  $("now-detail").textContent = cur ? voteProgress(cur) : "";
  $("now-powers").replaceChildren(...(cur && cur.state === "open" ? voterItems(cur) : []));
  $("now-headline").hidden = true;
  if (cur && cur.state !== "open" && cur.closed_at) {
    $("now-headline").textContent = words("Closed at {time}", { time: hhmm(cur.closed_at) });
    $("now-headline").hidden = false;
  }
  renderBallot(cur);
  renderProposeBox(v);
  const past = (v.history || []).filter((h) => !cur || h.id !== cur.id);
  $("history").replaceChildren(...past.map((h) => el("li", {},
    el("span", { class: "when" }, hhmm(h.closed_at || h.at)), " ", voteLine(h))));
  $("history-none").hidden = past.length > 0;
}

// Step one, the power; step two, the vote: only while the ballot is open and this phone
// has nothing waiting for a button.
function renderBallot(cur) {
  const open = cur && cur.state === "open" && cur.voters.length > 0 && !claim;
  $("ballot").hidden = !open;
  if (!open) {
    chosenPower = null;
    return;
  }
  const free = cur.voters.filter((p) => !cur.voted.includes(p) && !cur.absent.includes(p));
  if (chosenPower && !free.includes(chosenPower)) chosenPower = null;
  $("power-choices").replaceChildren(...free.map((p) => el("button", { type: "button",
    class: "vote-button", "data-power": p, onclick: () => choosePower(p) },
  el("span", {}, powerName(p)), seatedName(p) ? el("span", { class: "who" }, seatedName(p)) : null)));
  if (!free.length) {
    $("power-choices").replaceChildren(el("p", { class: "muted" }, words("Every voter has voted.")));
  }
  $("step-power").hidden = !!chosenPower;
  $("step-choice").hidden = !chosenPower;
}

function choosePower(p) {
  chosenPower = p;
  const v = voteView;
  $("choice-title").textContent = words("{power}: your vote on {what}",
    { power: powerName(p), what: v.vote.words });
  // the secret choices alike (no answer looks like the expected one); the public veto apart
  const buttons = v.choices.map((c) => el("button", { type: "button",
    class: "vote-button", "data-choice": c,
    onclick: () => sendChoice(c) }, CHOICE_WORDS[c] || capital(c)));
  if (v.veto) {
    buttons.push(el("button", { type: "button", class: "vote-button warn", "data-choice": "veto",
      onclick: () => sendChoice("veto") }, words("Veto"), el("span", { class: "who" },
      words("public: ends the vote at once"))));
  }
  $("vote-choices").replaceChildren(...buttons);
  $("step-power").hidden = true;
  $("step-choice").hidden = false;
}

let sending = false;

async function sendChoice(choice) {
  if (sending || !chosenPower) return;  // a double tap is one vote
  sending = true;
  const power = chosenPower, vote = voteView.vote.id;
  // the choice leaves the screen at once: only the button to press stays
  chosenPower = null;
  $("vote-choices").replaceChildren();
  $("ballot").hidden = true;
  try {
    const got = await voteApi("POST", `${votePath}/${vote}/claims`, { power, choice });
    follow({ token: got.claim, vote, power, press: got.press,
      kind: choice === "veto" ? "veto" : "vote" });
    await loadVote();  // the power shown waiting for its button at once
  } catch (err) {
    sayLine(err.message, true);
    await loadVote();
  } finally {
    sending = false;
  }
}

// --- the claim: waiting for the power's button on the clock ---------------------------

function follow(c) {
  claim = c;
  try { sessionStorage.setItem(claimStore, JSON.stringify(c)); } catch (e) { /* this visit */ }
  $("claim-end").hidden = true;
  $("press-words").textContent = c.press
    || words("Press {power}'s button on the clock", { power: powerName(c.power) });
  $("press").hidden = false;
  $("ballot").hidden = true;
  clearTimeout(follow.timer);
  follow.timer = setTimeout(checkClaim, CLAIM_POLL);
}

// The end of a claim, in one line: it counted, or why not (another phone chose for the
// same power, three minutes went by, the hub refused it). Never what was chosen in secret
// (a veto is public: the table's screen names who vetoed).
function claimEnd(state, c) {
  const power = powerName(c.power);
  if (state === "cast") {
    if (c.kind === "proposal") return words("{power}'s proposal is open: the vote begins.", { power });
    if (c.kind === "veto") return words("{power}'s veto counts: the vote has ended.", { power });
    return words("{power}: your vote counts.", { power });
  }
  if (state === "conflict") {
    return words("Two phones chose for {power}: choose again, on one phone.", { power });
  }
  if (state === "lapsed") {
    return words("{power}'s button was not pressed within three minutes: nothing counted. Choose again.",
      { power });
  }
  return words("Not counted for {power}.", { power });
}

async function checkClaim() {
  if (!claim) return;
  let got;
  try {
    got = await voteApi("GET", `${votePath}/${claim.vote}/claims/${encodeURIComponent(claim.token)}`);
  } catch (err) {
    // the hub out of reach a moment: ask again; a refusal of the question itself ends it
    if (err.status && err.status < 500) return endClaim("refused", err.message);
    follow.timer = setTimeout(checkClaim, CLAIM_POLL);
    return;
  }
  if (got.state === "waiting") {
    follow.timer = setTimeout(checkClaim, CLAIM_POLL);
    return;
  }
  endClaim(got.state, got.why);
}

function endClaim(state, why) {
  const c = claim;
  claim = null;
  try { sessionStorage.removeItem(claimStore); } catch (e) { /* nothing kept */ }
  $("press").hidden = true;
  sayLine(state === "cast" ? claimEnd(state, c) : why || claimEnd(state, c), state !== "cast");
  loadVote();
}

// One line under the vote, until the next step.
function sayLine(line, bad) {
  $("claim-end").textContent = capital(line);
  $("claim-end").className = `vote-said${bad ? " bad" : ""}`;
  $("claim-end").hidden = false;
}

function dropClaim() {
  // the phone gives up following (the claim lapses on its own); the next choice replaces it
  clearTimeout(follow.timer);
  claim = null;
  try { sessionStorage.removeItem(claimStore); } catch (e) { /* nothing kept */ }
  $("press").hidden = true;
  if (voteView) renderVote(voteView);
}

// --- a proposal ------------------------------------------------------------------------

let proposeBuilt = false;
let proposeRefused = false;  // the hub's refusal shows by the form until the form changes

function renderProposeBox(v) {
  if (!proposeRefused) {
    $("propose-why").hidden = v.can_propose;
    $("propose-why").textContent = v.why_not || "";
  }
  $("btn-propose").disabled = !v.can_propose || !!claim;
  if (!proposeBuilt) buildProposeForm(v);
  if (!chartTouched && v.centres) fillChart("chart", v.centres);
}

function chartRows(id) {
  return LETTERS.map((l) => el("tr", { "data-power": l }, el("th", {}, powerName(l)),
    el("td", {}, el("input", { type: "number", min: "0", max: String(boardCentres),
      inputmode: "numeric",
      "data-power": l, "aria-label": id === "previous"
        ? words("{power} centres last year", { power: powerName(l) })
        : words("{power} centres", { power: powerName(l) }),
      oninput: () => { chartTouched = true; chartTotal(); } }))));
}

function fillChart(id, centres) {
  for (const input of $(id).querySelectorAll("input")) {
    const n = centres[input.dataset.power];
    input.value = n === undefined || n === null ? "" : String(n);
  }
  chartTotal();
}

function chartTotal() {
  let sum = 0;
  $("chart").querySelectorAll("input").forEach((i) => { sum += Number(i.value) || 0; });
  $("chart-total").textContent = words("{sum} of {total}", { sum, total: boardCentres });
  $("chart-total").className = sum > boardCentres ? "bad" : "";
}

function buildProposeForm(v) {
  proposeBuilt = true;
  const seated = LETTERS.map((l) => [l, seatedName(l)
    ? words("{power} ({player})", { power: powerName(l), player: seatedName(l) }) : powerName(l)]);
  $("proposer").replaceChildren(el("option", { value: "" }, words("Choose your power")),
    ...seated.map(([l, t]) => el("option", { value: l }, t)));
  const forms = v.forms && v.forms.length ? v.forms : ["dias"];
  $("form-choices").replaceChildren(...forms.map((f, i) => el("label", { class: "vote-radio" },
    el("input", { type: "radio", name: "vote-form", value: f, checked: i === 0 ? "checked" : null,
      onchange: renderFormChoice }), " ", el("span", {}, FORM_WORDS[f] || f))));
  $("draw-powers").replaceChildren(...LETTERS.map((l) => el("label", { class: "vote-radio" },
    el("input", { type: "checkbox", value: l,
      "aria-label": words("{power} in the draw", { power: powerName(l) }) }),
    " ", el("span", {}, powerName(l)))));
  fillSelect($("concede-to"), LETTERS.map((l) => [l, powerName(l)]));
  $("chart").replaceChildren(...chartRows("chart"));
  $("previous").replaceChildren(...chartRows("previous"));
  $("previous-box").hidden = !forms.includes("draw");
  renderFormChoice();
}

// The form again in a new language, keeping what the player chose and typed.
function relabelProposeForm(v) {
  const form = $("propose-form");
  // an input by where it is (the chart, last year's, the draw's boxes) and what it is for
  const idOf = (e) => [e.parentElement.closest("[id]").id, e.name, e.dataset.power || e.value]
    .join("|");
  const before = new Map([...form.querySelectorAll("input")].map((e) =>
    [idOf(e), { value: e.value, checked: e.checked }]));
  const proposer = $("proposer").value, concede = $("concede-to").value;
  buildProposeForm(v);
  for (const e of form.querySelectorAll("input")) {
    const was = before.get(idOf(e));
    if (!was) continue;
    if (e.type === "radio" || e.type === "checkbox") e.checked = was.checked;
    else e.value = was.value;
  }
  $("proposer").value = proposer;
  $("concede-to").value = concede;
  renderFormChoice();
  chartTotal();
}

function renderFormChoice() {
  const f = (document.querySelector("input[name=vote-form]:checked") || {}).value;
  $("draw-powers").hidden = f !== "draw";
  $("concede-label").hidden = f !== "concede";
}

function readChart(id, needed) {
  const chart = {};
  let given = 0;
  for (const input of $(id).querySelectorAll("input")) {
    if (input.value !== "") given += 1;
    chart[input.dataset.power] = Number(input.value);
  }
  if (given === LETTERS.length) return chart;
  if (!needed && given === 0) return null;
  const missing = [...$(id).querySelectorAll("input")].find((i) => i.value === "");
  const power = powerName(missing.dataset.power);
  throw new Error(id === "previous" ? words("Give {power}'s centres for last year", { power })
    : words("Give {power}'s centres", { power }));
}

function readProposal() {
  const proposer = $("proposer").value;
  if (!proposer) throw new Error(words("Choose your power: who proposes"));
  let form = (document.querySelector("input[name=vote-form]:checked") || {}).value;
  if (form === "draw") {
    const powers = [...$("draw-powers").querySelectorAll("input:checked")].map((i) => i.value);
    if (powers.length < 2) throw new Error(words("Tick the powers in the draw (two or more)"));
    form = `draw:${powers.join(",")}`;
  } else if (form === "concede") {
    form = `concede:${$("concede-to").value}`;
  }
  return { form, centres: readChart("chart", true), previous: readChart("previous", false),
    proposer };
}

async function propose(e) {
  e.preventDefault();
  if (sending) return;
  let body;
  try {
    body = readProposal();
  } catch (err) {
    return toast(err.message, true);  // this page's own check: nothing was sent
  }
  sending = true;
  try {
    const got = await voteApi("POST", votePath, body);
    $("propose-box").open = false;
    follow({ token: got.claim, vote: got.vote.id, power: body.proposer, press: got.press,
      kind: "proposal" });
    await loadVote();
  } catch (err) {
    // the rule that refuses it, by the form, until the next change
    $("propose-why").textContent = err.message;
    $("propose-why").hidden = false;
    proposeRefused = true;
  } finally {
    sending = false;
  }
}

// --- loading -----------------------------------------------------------------------------

async function loadVote() {
  await languageReady;  // the first draw in the phone's language
  try {
    const v = await voteApi("GET", votePath);
    if (boardCentres === null) {
      // the board's powers and centres, once: the table's sheet names them (the core's)
      const sheet = await voteApi("GET", `/api/sheets/${voteRound}/${voteTable}`);
      takePowers(sheet.powers);
      boardCentres = sheet.total_centres;
    }
    renderVote(v);
    $("vote-problem").hidden = true;
  } catch (err) {
    $("vote-problem").textContent = err.message;
    $("vote-problem").hidden = false;
  }
}

if (page === "vote") {
  $("sheet-link").href = `/sheet/${voteRound}/${voteTable}${voteKey ? "#" + voteKey : ""}`;
  $("propose-form").onsubmit = propose;
  $("propose-form").addEventListener("input", () => { proposeRefused = false; });
  $("btn-choice-back").onclick = () => { chosenPower = null; if (voteView) renderVote(voteView); };
  $("btn-press-back").onclick = dropClaim;
  let kept = null;
  try { kept = JSON.parse(sessionStorage.getItem(claimStore) || "null"); } catch (e) { kept = null; }
  loadVote().then(() => { if (kept && kept.token) follow(kept); });
  // a new language: the powers' names and the hub's words asked again in it
  onLanguage(async () => {
    if (!voteView) return;  // the first draw is still to come, in this language
    boardCentres = null;
    await loadVote();
    if (proposeBuilt && voteView) relabelProposeForm(voteView);
    if (chosenPower && voteView && voteView.vote) choosePower(chosenPower);
  });
  setInterval(() => { if (!document.hidden) loadVote(); }, VIEW_POLL);
}
