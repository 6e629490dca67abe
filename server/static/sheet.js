// dipclock: a board's result sheet on a player's phone (server/routers/results.py).
// Opened from the QR code on the table's kiosk; the key after '#' proves it is this table's
// and is sent in a header, never in the address, so no log on the way keeps it. The TD opens
// the same page from the dashboard, signed in. The hub checks and scores every sheet
// (dipclock.scoring); this page only lays it out and says what the hub said.
"use strict";

const [, , sheetRound, sheetTable] = location.pathname.split("/");
const sheetKey = location.hash.slice(1);
const sheetPath = `/api/sheets/${sheetRound}/${sheetTable}`;
let view = null;


// A change names the version of the sheet this page showed (If-Match): the hub refuses it
// if the sheet changed in any way meanwhile (another phone's correction, a line confirmed,
// the TD's final or reopening), and this page then shows the sheet as it is.
async function sheetApi(method, path, body) {
  const extra = method === "GET" || !view ? {} : { "If-Match": String(view.version) };
  if (sheetKey) {
    const headers = { "Accept": "application/json", "X-Sheet-Key": sheetKey,
      "X-Dipclock-Device": deviceId(), ...langHeader(), ...extra };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const res = await fetch(path, { method, headers, credentials: "omit",
      body: body === undefined ? undefined : JSON.stringify(body) });
    let data = null;
    try { data = await res.json(); } catch (e) { data = null; }
    if (!res.ok) throw new Error((data && data.detail) || `${res.status} ${res.statusText}`);
    return data;
  }
  return api(method, path, body, extra); // the TD, by the session cookie (and its CSRF token)
}

// A change the hub refused: its one line said (what changed since this page loaded the
// sheet, and when, on the venue's clock), as the dashboard says a stale screen's refusal,
// and the sheet shown as it is now if it changed since ``seen`` (the version the change
// was made against). A refusal of the change itself (a sheet that cannot score) keeps what
// was typed.
async function afterRefusal(err, seen) {
  toast(err.message, true);
  try {
    const now = await sheetApi("GET", sheetPath);
    if (now.version !== seen) renderSheet(now);
  } catch (e) { /* said already */ }
}

// The sheet's lines as the hub sends them (``powers``): a power's letter by its name, and
// its name by its letter. ``name`` is the English key of the sheet's players, scores and
// confirmations; ``said`` the name shown, in the phone's language.
const letterOf = (name) => view.powers.find((p) => p.name === name).letter;
const saidOf = (name) => {
  const p = view.powers.find((q) => q.name === name);
  return (p && p.said) || name;
};
const saidOfLetter = (l) => {
  const p = view.powers.find((q) => q.letter === l);
  return p ? p.said || p.name : l;
};

// A line's power and its player apart, on the screen (the player below) and for a screen
// reader ("Austria, Alice Smith"), never "AustriaAlice Smith".
const powerAndPlayer = (name, player) => [el("span", { class: "power" }, saidOf(name)),
  ...(player ? [el("span", { class: "sr-only" }, ", "), el("span", { class: "player" }, player)]
    : [])];

// The endings this game can have had, as the hub sends them by the event's rules (the first
// is the default); a choice already made on this page stays while it is offered.
function renderEndings(v, stored) {
  const was = document.querySelector("input[name=ending]:checked");
  const offered = v.offered.map((o) => o.ending);
  const pick = stored && offered.includes(stored) ? stored
    : was && offered.includes(was.value) ? was.value : offered[0];
  const options = v.powers.map((p) => [p.letter, p.said || p.name]);
  const chosen = (id) => $(id) && $(id).value;  // a power picked already stays picked
  const kept = { solo: chosen("solo"), "conceded-to": chosen("conceded-to") };
  $("ending-choices").replaceChildren(...v.offered.map((o) => {
    const id = { solo: "solo", concession: "conceded-to" }[o.ending];
    const select = id ? el("select", { id }) : null;
    if (select) {
      fillSelect(select, options);
      if (kept[id]) select.value = kept[id];
    }
    return el("label", {}, el("input", { type: "radio", name: "ending", value: o.ending,
      checked: o.ending === pick ? "checked" : null }), " ", el("span", {}, o.words),
      ...(select ? [" ", select] : []));
  }));
}

function renderSheet(v) {
  view = v;
  $("sheet-title").textContent = words("Table {table} · {round}",
    { table: v.table, round: v.round_title });
  $("sheet-event").textContent = [v.event, v.system].filter(Boolean).join(" · ");
  $("sheet-counts").textContent = v.counts.charAt(0).toUpperCase() + v.counts.slice(1);
  const s = v.sheet;
  const rows = v.powers.map(({ letter: l, name, said }) => {
    const shown = said || name;
    const centres = s && s.centres[l] !== undefined ? s.centres[l] : "";
    const out = s && s.eliminated[l] ? s.eliminated[l] : "";
    const inDraw = !s || !s.draw || s.draw.includes(l);
    return el("tr", { "data-power": l },
      el("th", {}, ...powerAndPlayer(name, v.players[name])),
      el("td", {}, el("input", { type: "number", min: "0", max: String(v.total_centres),
        inputmode: "numeric", class: "centres-in",
        "aria-label": words("{power} centres", { power: shown }),
        value: String(centres), oninput: totals })),
      el("td", {}, el("input", { type: "number", min: String(v.first_year),
        max: String(v.latest_year), inputmode: "numeric", class: "out-in",
        "aria-label": words("{power} eliminated in", { power: shown }), value: String(out),
        placeholder: words("year") }),
        v.ask_draw ? el("label", { class: "in-draw" }, el("input", { type: "checkbox",
          class: "draw-in", "aria-label": words("{power} in the draw", { power: shown }),
          checked: inDraw ? "checked" : null }), " ", words("in draw")) : null));
  });
  $("centres").replaceChildren(...rows);
  // only the endings the event's text has in this game's year (the hub says which)
  renderEndings(v, s && s.ending);
  const e = v.endings;
  $("grew-label").hidden = !(e && e.leader_growth);
  $("endings-note").textContent = e ? e.text : "";
  $("year").min = String(v.first_year);
  $("year").max = String(v.latest_year);
  $("year").value = (s && s.year) || v.year || "";
  if (s) {
    if (s.solo) $("solo").value = s.solo;
    if (s.conceded_to && $("conceded-to")) $("conceded-to").value = s.conceded_to;
    $("leader-grew").checked = s.leader_grew !== false;
  }
  const locked = v.status === "final" && sheetKey;
  $("sheet-form").querySelectorAll("input, select, button").forEach((e) => { e.disabled = !!locked; });
  totals();
  renderChecks(v);
  $("notes").replaceChildren(...v.notes.map((n) => el("li", {}, n)));
  $("notes-box").hidden = !v.notes.length;
}

function totals() {
  let sum = 0;
  document.querySelectorAll("#centres tr").forEach((tr) => {
    const c = tr.querySelector(".centres-in").value;
    sum += Number(c) || 0;
    // a power eliminated (the hub says at how many centres): its year is asked for, and it
    // is in no draw
    tr.querySelector(".out-in").hidden = c === "" || Number(c) !== view.eliminated_at;
  });
  $("total").textContent = words("{sum} of {total}", { sum, total: view.total_centres });
  $("total").className = sum === view.total_centres ? "" : "bad";
}

// The sheet's status (the hub's key) in words, read when shown: the page's language
const STATUS = {
  get empty() { return words("not entered yet"); },
  get entered() { return words("waiting for the players' confirmations"); },
  get confirmed() { return words("confirmed by the players, waiting for the TD"); },
  get final() { return words("confirmed by the TD"); },
};

function renderChecks(v) {
  $("checks").hidden = !v.sheet;
  if (!v.sheet) return;
  $("sheet-status").textContent = `· ${STATUS[v.status]}`;
  $("flags").replaceChildren(...v.flags.map((f) => el("li", {}, f)));
  $("scores").replaceChildren(...(v.scores ? v.powers.map(({ name: n }) => el("tr", {},
    el("th", {}, saidOf(n)), el("td", {}, v.scores[n].toFixed(2)))) : []));
  // Each line is its player's to confirm, with their power's own button on the table's
  // clock: a phone holding this page could be anyone's. The TD may confirm a line for a
  // player (signed in, no key): it is recorded as the TD's.
  const names = v.powers.map((p) => p.name);
  const seated = names.filter((n) => v.players[n]);
  const how = { button: words("✓ confirmed on the clock"), td: words("✓ confirmed by the TD"),
    phone: words("✓ confirmed") };
  $("confirm-how").textContent = v.blocked
    ? words("Correct what is flagged above: then each player confirms their own line.")
    : v.status === "final" ? words("The TD has confirmed this sheet.")
      : words("To confirm your line, press your power's button on the table's clock: it shows this sheet.");
  $("confirm").replaceChildren(...(seated.length ? seated : names).map((n) => {
    const done = v.confirmed.includes(n);
    const line = el("li", { class: done ? "done" : "", "data-power": letterOf(n) },
      el("span", {}, ...powerAndPlayer(n, v.players[n])),
      el("span", { class: "how" }, done ? how[v.confirmations[n]] || how.phone : words("not yet")));
    if (!sheetKey && !done && v.status !== "final") {
      line.append(el("button", { class: "small", disabled: v.blocked ? "disabled" : null,
        onclick: () => confirmFor(n) }, words("Confirm as the TD")));
    }
    return line;
  }));
}

function readForm() {
  const centres = {}, eliminated = {}, draw = [];
  for (const tr of document.querySelectorAll("#centres tr")) {
    const l = tr.dataset.power, c = tr.querySelector(".centres-in").value;
    if (c === "") throw new Error(words("Give {power}'s centres", { power: saidOfLetter(l) }));
    centres[l] = Number(c);
    const out = tr.querySelector(".out-in").value;
    const gone = Number(c) === view.eliminated_at;
    if (gone && out !== "") eliminated[l] = Number(out);
    const box = tr.querySelector(".draw-in");
    if (box && box.checked && !gone) draw.push(l);
  }
  const ending = document.querySelector("input[name=ending]:checked").value;
  const body = { centres, eliminated, year: Number($("year").value), ending };
  if (ending === "solo") body.solo = $("solo").value;
  if (ending === "concession") body.conceded_to = $("conceded-to").value;
  if (view.endings && view.endings.leader_growth) body.leader_grew = $("leader-grew").checked;
  if (ending === "draw" && view.ask_draw) body.draw = draw;
  return body;
}

let saving = false;

async function save(e) {
  e.preventDefault();
  if (saving) return;  // a double tap is one save
  let body;
  try {
    body = readForm();
  } catch (err) {
    toast(err.message, true);  // this page's own check: nothing was sent
    return;
  }
  saving = true;
  const seen = view.version;
  try {
    renderSheet(await sheetApi("PUT", sheetPath, body));
    toast(view.flags.length ? words("Saved: see what to check") : words("Saved"));
  } catch (err) {
    await afterRefusal(err, seen);
  } finally {
    saving = false;
  }
}

async function confirmFor(name) {
  const power = saidOf(name), player = view.players[name];
  const question = player
    ? words("Confirm {power}'s line ({player}) as the TD? It is recorded as yours.", { power, player })
    : words("Confirm {power}'s line as the TD? It is recorded as yours.", { power });
  if (!window.confirm(question)) return;
  const seen = view.version;
  try {
    renderSheet(await sheetApi("POST", `${sheetPath}/confirm`, { power: letterOf(name) }));
    toast(words("Confirmed {power}'s line as the TD", { power }));
  } catch (err) {
    await afterRefusal(err, seen);
  }
}

async function loadSheet() {
  await languageReady;  // the first draw in the phone's language
  try {
    if (!sheetKey) {
      const s = await api("GET", "/api/session");
      csrf = s.csrf || null;
    }
    renderSheet(await sheetApi("GET", sheetPath));
  } catch (err) {
    $("sheet-problem").textContent = err.message;
    $("sheet-problem").hidden = false;
    $("sheet-form").hidden = true;
  }
}

if (page === "sheet") {
  // the table's game-end vote, opened with the same key (vote.js); the TD's Votes card
  // on the dashboard is the TD's
  $("vote-link").href = `/vote/${sheetRound}/${sheetTable}#${sheetKey}`;
  $("vote-link").hidden = !sheetKey;
  $("sheet-form").onsubmit = save;
  loadSheet();
  // a new language: the hub's words (the endings, what counts, the powers) asked again in
  // it; what was typed and not saved yet stays
  onLanguage(async () => {
    if (!view) return;
    const typed = [...$("sheet-form").querySelectorAll("input, select")]
      .filter((e) => e.id || e.closest("tr[data-power]"))
      .map((e) => [e.id || `${e.closest("tr").dataset.power} ${e.className}`, e.value, e.checked]);
    const ending = (document.querySelector("input[name=ending]:checked") || {}).value;
    try { renderSheet(await sheetApi("GET", sheetPath)); } catch (e) { renderSheet(view); }
    for (const [key, value, checked] of typed) {
      const [power, cls] = key.split(" ");
      const e = cls ? document.querySelector(`#centres tr[data-power=${power}] .${cls.split(" ")[0]}`)
        : $(key);
      if (!e) continue;
      if (e.type === "checkbox") e.checked = checked; else e.value = value;
    }
    const radio = ending && document.querySelector(`input[name=ending][value=${ending}]`);
    if (radio) radio.checked = true;
    totals();
  });
  // another player's phone may confirm meanwhile: show it, unless this one is mid-entry
  setInterval(() => {
    if (view && !document.activeElement.matches("input, select")) {
      sheetApi("GET", sheetPath).then(renderSheet).catch(() => {});
    }
  }, 5000);
}
