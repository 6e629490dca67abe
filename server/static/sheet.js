// dipclock: a board's result sheet on a player's phone (server/routers/results.py).
// Opened from the QR code on the table's kiosk; the key after '#' proves it is this table's
// and is sent in a header, never in the address, so no log on the way keeps it. The TD opens
// the same page from the dashboard, signed in. The hub checks and scores every sheet
// (dipclock.scoring); this page only lays it out and says what the hub said.
"use strict";

const POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"];
const [, , sheetRound, sheetTable] = location.pathname.split("/");
const sheetKey = location.hash.slice(1);
const sheetPath = `/api/sheets/${sheetRound}/${sheetTable}`;
let view = null;

async function sheetApi(method, path, body) {
  if (sheetKey) {
    const headers = { "Accept": "application/json", "X-Sheet-Key": sheetKey };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const res = await fetch(path, { method, headers, credentials: "omit",
      body: body === undefined ? undefined : JSON.stringify(body) });
    let data = null;
    try { data = await res.json(); } catch (e) { data = null; }
    if (!res.ok) throw new Error((data && data.detail) || `${res.status} ${res.statusText}`);
    return data;
  }
  return api(method, path, body); // the TD, by the session cookie (and its CSRF token)
}

function letter(name) { return name[0]; }

function renderSheet(v) {
  view = v;
  $("sheet-title").textContent = `Table ${v.table} · ${v.round_title}`;
  $("sheet-event").textContent = [v.event, v.system].filter(Boolean).join(" · ");
  $("sheet-counts").textContent = v.counts.charAt(0).toUpperCase() + v.counts.slice(1);
  const s = v.sheet;
  const rows = POWERS.map((name) => {
    const l = letter(name);
    const centres = s && s.centres[l] !== undefined ? s.centres[l] : "";
    const out = s && s.eliminated[l] ? s.eliminated[l] : "";
    const inDraw = !s || !s.draw || s.draw.includes(l);
    return el("tr", { "data-power": l },
      el("th", {}, name, el("span", { class: "player" }, v.players[name] || "")),
      el("td", {}, el("input", { type: "number", min: "0", max: "34", inputmode: "numeric",
        class: "centres-in", "aria-label": `${name} centres`, value: String(centres),
        oninput: totals })),
      el("td", {}, el("input", { type: "number", min: "1901", max: "2100", inputmode: "numeric",
        class: "out-in", "aria-label": `${name} eliminated in`, value: String(out),
        placeholder: "year" }),
        v.draws_by_size ? el("label", { class: "in-draw" }, el("input", { type: "checkbox",
          class: "draw-in", "aria-label": `${name} in the draw`, checked: inDraw ? "checked" : null }),
          " in draw") : null));
  });
  $("centres").replaceChildren(...rows);
  $("draw-label").textContent = v.draws_by_size ? "A draw of the powers ticked"
    : "A draw of all survivors";
  fillSelect($("solo"), POWERS.map((n) => [letter(n), n]));
  $("year").value = (s && s.year) || v.year || "";
  if (s) {
    document.querySelector(`input[name=ending][value=${s.ending}]`).checked = true;
    if (s.solo) $("solo").value = s.solo;
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
    // a power with no centres was eliminated: its year is asked for, and it is in no draw
    tr.querySelector(".out-in").hidden = c === "" || Number(c) > 0;
  });
  $("total").textContent = `${sum} of 34`;
  $("total").className = sum === 34 ? "" : "bad";
}

const STATUS = {
  empty: "not entered yet", entered: "waiting for the players' confirmations",
  confirmed: "confirmed by the players, waiting for the TD", final: "confirmed by the TD",
};

function renderChecks(v) {
  $("checks").hidden = !v.sheet;
  if (!v.sheet) return;
  $("sheet-status").textContent = `· ${STATUS[v.status]}`;
  $("flags").replaceChildren(...v.flags.map((f) => el("li", {}, f)));
  $("scores").replaceChildren(...(v.scores ? POWERS.map((n) => el("tr", {},
    el("th", {}, n), el("td", {}, v.scores[n].toFixed(2)))) : []));
  const blocked = v.blocked;
  const seated = POWERS.filter((n) => v.players[n]);
  $("confirm").replaceChildren(...(seated.length ? seated : POWERS).map((n) => {
    const done = v.confirmed.includes(n);
    return el("button", { class: done ? "plain done" : "go", disabled: done || blocked || v.status === "final" ? "disabled" : null,
      onclick: () => confirmFor(n) }, done ? `${n} ✓` : `I played ${n}: confirm`);
  }));
}

function readForm() {
  const centres = {}, eliminated = {}, draw = [];
  for (const tr of document.querySelectorAll("#centres tr")) {
    const l = tr.dataset.power, c = tr.querySelector(".centres-in").value;
    if (c === "") throw new Error(`Give ${POWERS.find((n) => letter(n) === l)}'s centres`);
    centres[l] = Number(c);
    const out = tr.querySelector(".out-in").value;
    if (Number(c) === 0 && out !== "") eliminated[l] = Number(out);
    const box = tr.querySelector(".draw-in");
    if (box && box.checked && Number(c) > 0) draw.push(l);
  }
  const ending = document.querySelector("input[name=ending]:checked").value;
  const body = { centres, eliminated, year: Number($("year").value), ending };
  if (ending === "solo") body.solo = $("solo").value;
  if (ending === "draw" && view.draws_by_size) body.draw = draw;
  return body;
}

async function save(e) {
  e.preventDefault();
  try {
    renderSheet(await sheetApi("PUT", sheetPath, readForm()));
    toast(view.flags.length ? "Saved: see what to check" : "Saved");
  } catch (err) {
    toast(err.message, true);
  }
}

async function confirmFor(name) {
  if (!window.confirm(`You played ${name} and this sheet is right?`)) return;
  try {
    renderSheet(await sheetApi("POST", `${sheetPath}/confirm`, { power: letter(name) }));
    toast(`Confirmed for ${name}`);
  } catch (err) {
    toast(err.message, true);
  }
}

async function loadSheet() {
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
  $("sheet-form").onsubmit = save;
  loadSheet();
  // another player's phone may confirm meanwhile: show it, unless this one is mid-entry
  setInterval(() => {
    if (view && !document.activeElement.matches("input, select")) {
      sheetApi("GET", sheetPath).then(renderSheet).catch(() => {});
    }
  }, 5000);
}
