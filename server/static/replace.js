// dipclock dashboard, the "A player leaves" card: from a phase, a power is played by a
// replacement player or is in civil disorder (server/routers/replacements.py). Pick the
// round, the table, the power, the phase and who plays it now (from the roster, or typed)
// or civil disorder; the score's share where the event leaves it to the TD. The powers, the
// phases and every check are the hub's: this page only asks.
// Loaded after common.js, before dashboard.js; wires itself on the dashboard.
"use strict";

let leaves = null;  // GET /api/td/replacements/{round}

async function refreshLeaves() {
  if ($("app").hidden || !$("leaves-desk").open) return;
  const n = Number($("lv-round").value);
  if (!n) return;
  try {
    leaves = await api("GET", `/api/td/replacements/${n}`);
    const roster = await api("GET", "/api/td/roster").catch(() => ({ people: [] }));
    $("lv-people").replaceChildren(...roster.people.map((p) => el("option", { value: p.name })));
  } catch (e) {
    return toast(e.message, true);
  }
  renderLeaves();
}

function renderLeaves() {
  const v = leaves;
  const tables = Object.keys(v.seated);
  $("lv-none").hidden = tables.length > 0;
  $("lv-none").textContent = words("Round {round} is not seated yet.", { round: v.round });
  keepChoice($("lv-table"), tables.map((t) => [t, words("Table {table}", { table: t })]));
  renderPowers();
  keepChoice($("lv-phase"), v.phases.map((p) => [p.code, p.title]));
  $("lv-rule").textContent = v.td_shares
    ? words("The event leaves the score to you: give the new player's share.")
    : words("Score: {rule}. Give a share only to decide otherwise.", { rule: v.rule_words });
  // the label's own words (its first child: a marked span, or its text before the input)
  const label = $("lv-share-label"), said = label.querySelector("span") || label.firstChild;
  said.textContent = v.td_shares
    ? words("Their share of the score, %") : words("Their share, % (blank: the event's rule)");
  if (said.nodeType === Node.TEXT_NODE) said.textContent += " ";
  $("lv-list").replaceChildren(...v.records.map((r) => el("li", {},
    el("span", {}, leaveLine(r)),
    " ", el("button", { type: "button", class: "small", onclick: () => undoLeave(r) },
      words("Undo")))));
  $("lv-list-none").hidden = v.records.length > 0;
}

// Who plays the power from a phase: a player, or no one (civil disorder)
const leaveWho = (r) => (r.player === null ? words("civil disorder") : r.player);

function leaveLine(r) {
  const fields = { table: r.table, power: r.power_name, who: leaveWho(r), phase: r.phase_title,
    share: r.share, started: r.started };
  return r.share !== null
    ? words("Table {table}, {power}: {who} from {phase} ({share} %) (started: {started})", fields)
    : words("Table {table}, {power}: {who} from {phase} (started: {started})", fields);
}

// A select's options, the TD's choice kept when it is still offered.
function keepChoice(select, options) {
  const before = select.value;
  select.replaceChildren(...options.map(([value, text]) => el("option", { value }, text)));
  if (options.some(([value]) => value === before)) select.value = before;
}

function renderPowers() {
  const seats = (leaves && leaves.seated[$("lv-table").value]) || {};
  keepChoice($("lv-power"), Object.entries(seats).map(([letter, player]) =>
    [letter, `${leaves.powers[letter]}: ${player}`]));
}

async function recordLeave() {
  const cd = $("lv-cd").checked;
  const player = cd ? null : $("lv-player").value.trim();
  if (!cd && !player) return toast(words("Type who plays it now, or tick civil disorder"), true);
  const shareText = $("lv-share").value.trim();
  const body = {
    round: leaves.round, table: Number($("lv-table").value), power: $("lv-power").value,
    phase: $("lv-phase").value, player, share: shareText === "" ? null : Number(shareText),
  };
  const question = words("Record {power} at table {table}: {who} from {phase}?", {
    power: leaves.powers[body.power], table: body.table,
    who: cd ? words("civil disorder") : player, phase: $("lv-phase").selectedOptions[0].text,
  });
  if (await act(question, "POST", "/api/td/replacements", body, { base: leaves.base })) {
    $("lv-player").value = "";
    $("lv-share").value = "";
    $("lv-cd").checked = false;
    $("lv-player").disabled = false;
    await refreshLeaves();
  }
}

async function undoLeave(r) {
  if (await act(words("Undo table {table}, {power}: {who} from {phase}?", { table: r.table,
    power: r.power_name, who: leaveWho(r), phase: r.phase_title }),
    "DELETE", `/api/td/replacements/${r.id}`, undefined, { base: leaves.base })) await refreshLeaves();
}

function wireLeaves() {
  $("leaves-desk").addEventListener("toggle", async () => {
    if (!$("leaves-desk").open) return;
    if (!$("lv-round").value) {
      const state = last && last.data;
      $("lv-round").value = String((state && state.round && state.round.number) || 1);
    }
    await refreshLeaves();
  });
  $("lv-round").addEventListener("change", refreshLeaves);
  $("lv-table").addEventListener("change", renderPowers);
  $("lv-cd").addEventListener("change", () => { $("lv-player").disabled = $("lv-cd").checked; });
  $("btn-lv-record").onclick = recordLeave;
  // the hub names the powers and phases in the phone's language: asked again
  onLanguage(refreshLeaves);
}

if (page === "dashboard") wireLeaves();
