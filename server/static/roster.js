// dipclock dashboard, the Roster card: the event's people (server/routers/roster.py) and who
// plays each round (server/routers/register.py). Import a CSV file (each refused line shown
// with its number and why; the good lines kept only when the TD says so), search as you
// type, add / edit / remove a person, keep two people apart, export the file; and, for a
// round, mark each person present with one tap, every pre-registered one at once, a
// volunteer to sit out or a withdrawal. The rules are the hub's: this page only asks.
// Loaded after common.js, before dashboard.js; wires itself on the dashboard.
"use strict";

let rosterPeople = [];   // the hub's people, as GET /api/td/roster gives them
let rosterApart = [];
let roundRegister = null;     // GET /api/td/register/{round}: the round's register
let rosterEditing = null;  // the id of the person the form edits (null: adds)

// The state this card was drawn from, for a change made on it: the register's read (the
// dashboard's own poll may be older than this card's last change).
const rosterBase = () => (roundRegister ? { base: roundRegister.base } : {});

// A name as a search matches it: no accents ("jose" finds "José"); capitals aside by the
// match's "i" flag. A search only: who is one player is the hub's (dipclock.names).
const folded = (s) => s.normalize("NFD").replace(/\p{M}/gu, "");
const escaped = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

async function refreshRoster() {
  if ($("app").hidden || !$("roster-desk").open) return;
  try {
    // the register first: its ``base`` (the newest log line) is then no newer than the
    // roster read after it, and every change on this card is sent with it (server/stale.py)
    if (!await refreshRegister()) return;  // the TD changed the round meanwhile
    const r = await api("GET", "/api/td/roster");
    rosterPeople = r.people;
    rosterApart = r.apart;
  } catch (e) {
    return toast(e.message, true);
  }
  renderRoster();
}

// The round's register; false when the TD has changed the round since it was asked for:
// that round's own answer is on its way, and this one must not be drawn for it.
async function refreshRegister() {
  const n = Number($("reg-round").value);
  const got = n >= 1 && n <= 99 ? await api("GET", `/api/td/register/${n}`) : null;
  if (Number($("reg-round").value) !== n) return false;
  roundRegister = got;
  return true;
}

// Another round: the last round's marks go at once, so no tap meant for the new round
// lands on the old one's list while the new register loads (every tap waits for it).
function roundChanged() {
  const n = Number($("reg-round").value);
  // the same round again (the browser's change on leaving the field after a script's):
  // nothing to load, and the list keeps taking taps
  if (roundRegister && roundRegister.round === n) return;
  roundRegister = null;
  renderRoster();
  if (n >= 1 && n <= 99) $("reg-summary").textContent = words("Loading round {round}…", { round: n });
  refreshRoster();
}

// The round to register: the one after the latest round seated (registration comes first).
async function guessRegisterRound() {
  if ($("reg-round").value) return;
  let latest = 0;
  try {
    const seats = await api("GET", "/api/td/seating");
    for (const s of seats) latest = Math.max(latest, s.round);
  } catch (e) { /* the card still works: the TD types the round */ }
  $("reg-round").value = String(latest + 1);
}

// A person's status in the round as the list shows it (the hub's status codes are its keys)
function statusWords(st) {
  if (st === "present") return words("Here");
  if (st === "absent") return words("Not here");
  if (st === "sitting_out") return words("Asks to sit out");
  if (st === "withdrawn") return words("Withdrawn");
  return "";
}

// The round's counts, each a whole phrase in the language: "12 here, 3 not here yet"
function registerCounts(c) {
  const parts = [plural("{n} here", "{n} here", c.present),
    plural("{n} not here yet", "{n} not here yet", c.absent)];
  if (c.sitting_out) parts.push(plural("{n} asking to sit out", "{n} asking to sit out", c.sitting_out));
  if (c.withdrawn) parts.push(plural("{n} withdrawn", "{n} withdrawn", c.withdrawn));
  return parts.join(", ");
}

function renderRoster() {
  const count = rosterPeople.length;
  $("roster-summary").textContent = plural("· {n} person", "· {n} people", count);
  const status = new Map((roundRegister ? roundRegister.people : []).map((p) => [p.id, p.status]));
  if (roundRegister) {
    const counted = words("Round {round}: {counts}.", { round: roundRegister.round,
      counts: registerCounts(roundRegister.counts) });
    $("reg-summary").textContent = roundRegister.called ? words("{counted} Its seating is " +
      "called: a late arrival is seated by seating the round again with the tables kept " +
      "(Seating card).", { counted }) : counted;
    $("reg-summary").classList.toggle("time-warning", roundRegister.called);
  } else {
    $("reg-summary").textContent = words("Give the round to register for.");
  }
  $("btn-reg-prereg").disabled = !roundRegister || roundRegister.called;
  const q = folded($("roster-search").value.trim());
  const match = new RegExp(escaped(q), "iu");
  const shown = rosterPeople.filter((p) => !q || match.test(folded(p.name)));
  $("roster-list").replaceChildren(...shown.map((p) => personRow(p, status.get(p.id))));
  $("roster-none").hidden = shown.length > 0;
  $("roster-none").textContent = count
    ? words("Nobody on the roster matches \"{search}\".", { search: $("roster-search").value.trim() })
    : words("The roster is empty: import a file or add a person.");
  renderApart();
}

function personRow(p, st) {
  const here = st === "present";
  const tap = el("button", {
    class: `small ${here ? "go" : ""}`, type: "button", "aria-pressed": here ? "true" : "false",
    "data-person": p.id, disabled: !roundRegister || st === "withdrawn" ? "disabled" : null,
    onclick: () => markPerson(p, here ? "absent" : "present"),
  }, here ? words("Here ✓") : words("Mark here"));
  const more = el("select", { "aria-label": words("More for {name}", { name: p.name }),
    class: "roster-more",
    onchange: (e) => { const v = e.target.value; e.target.value = ""; moreFor(p, v); } },
  el("option", { value: "" }, words("More…")),
  ...(roundRegister ? [
    st !== "sitting_out" ? el("option", { value: "sitting_out" }, words("Asks to sit out")) : null,
    st !== "withdrawn" ? el("option", { value: "withdrawn" }, words("Withdrawn from the event"))
      : el("option", { value: "absent" }, words("Bring back (not here yet)")),
    st === "sitting_out" ? el("option", { value: "absent" }, words("Not here")) : null,
  ] : []),
  el("option", { value: "edit" }, words("Edit details")),
  el("option", { value: "remove" }, words("Remove from the roster")));
  const said = st && st !== "absent" ? statusWords(st) : "";
  return el("li", { class: `roster-row ${st || ""}`, "data-status": st || "" },
    el("span", { class: "roster-name" }, p.name,
      p.preregistered ? el("span", { class: "mark ok", title: words("pre-registered") },
        words("pre-reg")) : null,
      said && st !== "present" ? el("span", { class: st === "withdrawn" ? "mark bad" : "mark warn" },
        said) : null),
    tap, more);
}

async function markPerson(p, status) {
  if (!roundRegister) return;
  try {
    await api("PUT", `/api/td/register/${roundRegister.round}/people/${p.id}`, { status },
      based(roundRegister.base));
  } catch (e) {
    toast(e.message, true);
  }
  await refreshRoster();
}

async function moreFor(p, what) {
  if (!what) return;
  if (what === "edit") return editPerson(p);
  if (what === "remove") {
    if (await act(words("Remove {name} from the roster? Their kept-apart pairs go too.",
      { name: p.name }), "DELETE",
      `/api/td/roster/people/${p.id}`, undefined, rosterBase())) await refreshRoster();
    return;
  }
  if (what === "withdrawn") {
    if (!window.confirm(words("{name} withdraws from the event, from round {round} on? They " +
      "stay withdrawn in later rounds until you bring them back.",
    { name: p.name, round: roundRegister.round }))) return;
  }
  await markPerson(p, what);
}

async function allPreregistered() {
  if (!roundRegister) return;
  try {
    const r = await api("POST", `/api/td/register/${roundRegister.round}/preregistered`, undefined,
      based(roundRegister.base));
    toast(r.summary);
  } catch (e) {
    toast(e.message, true);
  }
  await refreshRoster();
}

// --- import and export ------------------------------------------------------------------

async function sendRoster(file, keepGood) {
  const mode = $("roster-replace").checked ? "replace" : "merge";
  const res = await fetch(`/api/td/roster/import?mode=${mode}${keepGood ? "&keep_good=true" : ""}`, {
    method: "POST", credentials: "same-origin", body: await file.arrayBuffer(),
    headers: { "Content-Type": "text/csv", "Accept": "application/json",
               "X-CSRF-Token": csrf || "" },
  });
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (res.status === 401) showSignIn();
  return { status: res.status, data };
}

async function importRoster(keepGood) {
  const file = $("roster-file").files[0];
  if (!file) return toast(words("Choose the roster file first"), true);
  if ($("roster-replace").checked && !keepGood && !window.confirm(words("Replace the roster " +
    "by {file}? People not in the file are removed.", { file: file.name }))) return;
  const { status, data } = await sendRoster(file, keepGood);
  const refused = (data && data.refused) || [];
  $("roster-refused").replaceChildren(...refused.map((r) =>
    el("li", { class: "flag" }, words("Line {line}: {why}", { line: r.line, why: r.why }))));
  $("roster-refused").hidden = !refused.length;
  const notes = (data && data.notes) || [];
  const done = $("roster-import-done");
  if (status === 422 && refused.length) {
    done.textContent = plural("{n} line refused: nothing was imported. Fix the file and " +
      "import it again, or keep the good lines.", "{n} lines refused: nothing was imported. " +
      "Fix the file and import it again, or keep the good lines.", refused.length);
    $("btn-roster-keep").hidden = false;
  } else if (status !== 200) {
    done.textContent = (data && data.detail) || words("Import refused (HTTP {status})", { status });
    $("btn-roster-keep").hidden = true;
  } else {
    done.textContent = [words("Imported: {summary}",
      { summary: data.summary.replace(/^roster import: /, "") }), ...notes].join(". ");
    $("btn-roster-keep").hidden = true;
  }
  done.hidden = false;
  await refreshRoster();
}

// --- one person -------------------------------------------------------------------------

const PERSON_FIELDS = ["given_name", "family_name", "homonym", "note", "wdd", "wdr",
  "nationality", "club", "email", "location"];

function editPerson(p) {
  rosterEditing = p ? p.id : null;
  for (const f of PERSON_FIELDS) {
    const v = p ? p[f] : "";
    $(`rp-${f}`).value = v === null || v === undefined ? "" : String(v);
  }
  $("rp-preregistered").checked = p ? p.preregistered : false;
  saveLabel();
  $("roster-person").open = true;
  $("rp-given_name").focus();
}

// The form's button: whom it saves (drawn again when the language changes)
function saveLabel() {
  const p = rosterPeople.find((x) => x.id === rosterEditing);
  $("btn-person-save").textContent = rosterEditing !== null && p
    ? words("Save {name}", { name: p.name }) : words("Add to the roster");
}

async function savePerson() {
  const body = { preregistered: $("rp-preregistered").checked };
  for (const f of PERSON_FIELDS) {
    const v = $(`rp-${f}`).value.trim();
    if (["homonym", "wdd", "wdr"].includes(f)) {
      if (v && !/^\d{1,9}$/.test(v)) {
        return toast(f === "homonym" ? words("Homonym: a whole number")
          : words("{field}: a whole number", { field: f.toUpperCase() }), true);
      }
      if (v) body[f] = Number(v);
    } else {
      body[f] = v;
    }
  }
  try {
    const r = rosterEditing === null
      ? await api("POST", "/api/td/roster/people", body, based(rosterBase().base))
      : await api("PUT", `/api/td/roster/people/${rosterEditing}`, body,
        based(rosterBase().base));
    toast(r.summary);
    editPerson(null);
    $("roster-person").open = false;
  } catch (e) {
    toast(e.message, true);
  }
  await refreshRoster();
}

// --- kept apart -------------------------------------------------------------------------

function renderApart() {
  $("apart-list").replaceChildren(...rosterApart.map((a) => el("li", {},
    el("span", {}, words("{a} and {b}", { a: a.a_name, b: a.b_name })),
    el("button", { class: "small", type: "button",
      onclick: () => togetherAgain(a) }, words("Remove")))));
  $("apart-none").hidden = rosterApart.length > 0;
  for (const id of ["apart-a", "apart-b"]) {
    const sel = $(id), before = sel.value;
    sel.replaceChildren(el("option", { value: "" }, words("Choose…")),
      ...[...rosterPeople].sort((x, y) => x.name.localeCompare(y.name))
        .map((p) => el("option", { value: String(p.id) }, p.name)));
    sel.value = before;
  }
}

async function keepApart() {
  const a = Number($("apart-a").value), b = Number($("apart-b").value);
  if (!a || !b) return toast(words("Choose two people to keep apart"), true);
  try {
    toast((await api("POST", "/api/td/roster/apart", { a, b }, based(rosterBase().base))).summary);
    $("apart-a").value = $("apart-b").value = "";
  } catch (e) {
    toast(e.message, true);
  }
  await refreshRoster();
}

async function togetherAgain(a) {
  if (await act(words("Stop keeping {a} and {b} apart?", { a: a.a_name, b: a.b_name }), "DELETE",
    `/api/td/roster/apart/${a.a}/${a.b}`, undefined, rosterBase())) await refreshRoster();
}

function wireRoster() {
  $("roster-desk").addEventListener("toggle", async () => {
    if (!$("roster-desk").open) return;
    await guessRegisterRound();
    await refreshRoster();
  });
  $("roster-search").addEventListener("input", renderRoster);
  $("reg-round").addEventListener("change", roundChanged);
  $("btn-reg-prereg").onclick = allPreregistered;
  $("btn-roster-import").onclick = () => importRoster(false);
  $("btn-roster-keep").onclick = () => importRoster(true);
  $("roster-file").addEventListener("change", () => { $("btn-roster-keep").hidden = true; });
  $("btn-person-new").onclick = () => editPerson(null);
  $("btn-person-save").onclick = savePerson;
  $("btn-apart").onclick = keepApart;
  setInterval(refreshRoster, 15000);  // another phone's marks, while the card is open
  // the list, its summaries and the form's button are drawn by this script: again in the
  // new language (the hub's own lines, a toast, come in the next answer's)
  onLanguage(() => {
    saveLabel();
    if (!$("app").hidden && $("roster-desk").open) renderRoster();
  });
}

if (page === "dashboard") wireRoster();
