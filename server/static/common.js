// dipclock's pages, the part every page shares: time, formatting, the clock card, talking to
// the hub. No build step: plain scripts the hub serves as is, this one first, sharing one
// page scope. The hub computes every screen with dipclock.screen; a page only formats the
// last answer and ticks its big number down between polls so the seconds move smoothly.
"use strict";

const $ = (id) => document.getElementById(id);
const page = document.body.dataset.page;
let csrf = null;
let last = null; // {data, at: performance.now()}
let polling = null;

// --- time --------------------------------------------------------------------------------

function hubNow() {
  if (!last) return null;
  return last.data.hub_time + (performance.now() - last.at) / 1000;
}

// The phone's own clock, in hub time's unit: POSIX seconds.
function phoneNow() {
  return Date.now() / 1000;
}

// The venue's IANA zone, as the hub says: the hub's times are its naive local time, and
// the page shows clocks in it, whatever zone the phone itself is set to.
function venueZone() {
  return (last && last.data.timezone) || "UTC";
}

// POSIX seconds as the venue's naive local ISO time: 2024-05-04T10:04:05.250
function localIso(seconds) {
  const parts = {};
  new Intl.DateTimeFormat("en-GB", {
    timeZone: venueZone(), hourCycle: "h23", year: "numeric", month: "2-digit",
    day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit",
  }).formatToParts(new Date(seconds * 1000)).forEach((p) => { parts[p.type] = p.value; });
  const ms = String(Math.floor(((seconds % 1) + 1) % 1 * 1000)).padStart(3, "0");
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}.${ms}`;
}

// 0.4 s, 2 min 3 s, 1 h 0 min: how far apart two clocks are.
function span(seconds) {
  const s = Math.abs(seconds);
  if (s < 10) return `${s.toFixed(1)} s`;
  const r = Math.round(s), h = Math.floor(r / 3600), m = Math.floor((r % 3600) / 60);
  if (h) return `${h} h ${m} min`;
  return m ? `${m} min ${r % 60} s` : `${r} s`;
}

// What the hub says of its clock, in the page's language (read when shown)
const STANDING = {
  get "synchronised"() { return words("Hub clock synchronised with a time server (NTP)."); },
  get "not synchronised"() {
    return words("Hub clock not synchronised: no time server has set it.");
  },
  get "set by the TD"() { return words("Hub clock set from a TD's phone."); },
  get "kept by the tables"() {
    return words("Hub clock taken from the time the tables kept while it restarted.");
  },
  get "unknown"() { return words("The hub cannot tell whether its clock is synchronised."); },
};

// POSIX seconds on the venue's clock: 10:04:05
function clockText(seconds) {
  return localIso(seconds).slice(11, 19);
}

function hhmm(iso) {
  return iso ? iso.slice(11, 16) : "";
}

function hhmmss(iso) {
  return iso ? iso.slice(11, 19) : "";
}

// A countdown as M:SS or H:MM:SS, rounded up like the kiosk (dipclock.screen.duration_text):
// 0.3 s left still shows 0:01.
function duration(seconds) {
  const s = Math.max(0, Math.ceil(Math.round(seconds * 1e6) / 1e6));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const mm = String(m).padStart(h ? 2 : 1, "0"), rr = String(r).padStart(2, "0");
  return h ? `${h}:${mm}:${rr}` : `${mm}:${rr}`;
}

// The big number now: the hub's, ticked down by the hub time gone since the hub said it.
// The hub decides whether it ticks and what it counts to (dipclock.screen); this page
// only subtracts, so between polls it shows what the table's kiosk shows.
function bigNow(clock) {
  if (!clock.ticking || clock.seconds_left === null || hubNow() === null) return clock.big;
  return duration(clock.seconds_left - (hubNow() - last.data.hub_time));
}

// The hub's clock screen (``hall`` on the dashboard, ``clock`` on the hall page), drawn.
function renderClock(clock) {
  const stage = $("stage"), rem = $("remaining"), detail = $("clock-detail");
  document.body.dataset.look = clock ? clock.look : "none";
  if (!clock) {
    stage.textContent = page === "hall" ? words("Waiting for the round")
      : words("No round set up");
    rem.textContent = "--:--";
    detail.textContent = "";
    return;
  }
  // the phase beside the label, unless the label or a note names it already ("Fall 1901 was
  // the last deadline", "Then Fall 1901: ...")
  const named = !clock.phase || [clock.label, ...clock.notes].some((n) => n.includes(clock.phase));
  stage.textContent = named ? clock.label : `${clock.label} · ${clock.phase}`;
  rem.textContent = bigNow(clock);
  // words ("Game over", "Break") are longer than a countdown: sized to fit on one line
  rem.classList.toggle("words", !/\d/.test(rem.textContent));
  detail.textContent = [clock.deadline, ...clock.notes].filter(Boolean).join(" · ");
}

// --- talking to the hub ------------------------------------------------------------------

// ``extra``: more headers (the state a change was made from, a sheet's version).
// A public page's reply (/api/hall, /api/boardcall) and how long ago, in hub time, the hub
// built it: the reply is built once for everyone (and a browser may answer a poll from its
// cache once the hub says nothing changed, a 304), so its hub_time is when it was built;
// the X-Hub-Time header is when it was sent. The page ticks from the earlier instant.
async function publicNow(path) {
  const res = await fetch(path, { headers: { "Accept": "application/json" } });
  const data = await res.json();
  if (!res.ok) throw new Error(data.detail || `${res.status} ${res.statusText}`);
  const sent = parseFloat(res.headers.get("X-Hub-Time"));
  return { data, age: Number.isFinite(sent) ? Math.max(0, sent - data.hub_time) : 0 };
}

async function api(method, path, body, extra) {
  const headers = { "Accept": "application/json", ...langHeader(), ...(extra || {}) };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET" && csrf) headers["X-CSRF-Token"] = csrf;
  const res = await fetch(path, {
    method, headers, credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (res.status === 401 && page === "dashboard") showSignIn();
  if (!res.ok) {  // the hub's one line, in the page's language; its status for the page
    const err = new Error((data && data.detail) || `${res.status} ${res.statusText}`);
    err.status = res.status;
    throw err;
  }
  return data;
}

function toast(text, bad) {
  const t = $("toast");
  t.textContent = text;
  t.className = bad ? "bad" : "";
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, bad ? 6000 : 3000);
}

// The state a change is made from: the newest log line the screen was drawn after. The
// hub refuses a change from a screen that missed a change of the same thing (another
// phone's, or this one's first tap), and says what changed (server/stale.py).
function based(base) {
  const b = base !== undefined ? base : (last ? last.data.base : undefined);
  return b === undefined || b === null ? {} : { "X-Dipclock-Base": String(b) };
}

// One TD action at a time: a second tap while the first is on its way does nothing.
let acting = false;

// Every TD action: ask, send (with the state it was made from), say what happened,
// refresh. ``body`` may be a function, called once the TD has said yes (the phone's time
// must be read then, not before). ``opts.base``: the state of the card it was made on,
// where that is not the dashboard's last poll; ``opts.headers``: more headers. Resolves
// to the hub's answer once done (true if it sent none), false if the hub refused it, null
// if the TD said no.
async function act(question, method, path, body, opts) {
  if (acting) { toast(words("Still sending the last change…"), true); return false; }
  acting = true;
  try {
    if (!window.confirm(question)) return null;  // the TD said no: nothing was sent
    const o = opts || {};
    const answer = await api(method, path, typeof body === "function" ? body() : body,
      { ...based(o.base), ...(o.headers || {}) });
    // what was done: the question up to its "?", not what it went on to say
    toast(words("Done: {what}", { what: question.split(/[?？]/)[0].replace(/\s+$/, "") }));
    await refresh();
    return answer || true;
  } catch (e) {
    toast(e.message, true);
    await refresh();  // a refusal may say the screen was stale: show what is true now
    return false;
  } finally {
    acting = false;
  }
}

// --- building the page ---------------------------------------------------------------

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

function fillSelect(select, options, keepFirst) {
  const before = select.value;
  const fixed = keepFirst ? [select.options[0]] : [];
  select.replaceChildren(...fixed, ...options.map(([v, t]) => el("option", { value: v }, t)));
  if ([...select.options].some((o) => o.value === before)) select.value = before;
}

// --- files to and from the hub ---------------------------------------------------------

// A file the hub makes (a hub backup, the event's files) saved on this phone or laptop
// under the name the hub gives it: { res, name }, or null once the refusal is told.
async function saveFromHub(path, fallback) {
  const res = await fetch(path, { credentials: "same-origin", headers: langHeader() });
  if (!res.ok) {
    let detail = `${res.status} ${res.statusText}`;
    try { detail = (await res.json()).detail || detail; } catch (e) { /* not JSON */ }
    if (res.status === 401 && typeof showSignIn === "function") showSignIn();
    toast(detail, true);
    return null;
  }
  const name = (/filename="([^"]+)"/.exec(res.headers.get("Content-Disposition") || "") || [])[1]
    || fallback;
  const url = URL.createObjectURL(await res.blob());
  const a = el("a", { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
  return { res, name };
}

// A zip file sent to the hub (a backup to restore, an event archive to import). Where it
// would replace what the hub holds, the hub answers 409 "Confirm again ..." and the TD is
// asked once more. { status, data }, or null when the TD says no.
async function sendZipConfirmed(path, file) {
  const send = async (replace) => {
    const res = await fetch(`${path}${replace ? "?replace=true" : ""}`, {
      method: "POST", credentials: "same-origin", body: file,
      headers: { "Content-Type": "application/zip", "Accept": "application/json", ...langHeader(),
                 "X-CSRF-Token": csrf || "" },
    });
    let data = null;
    try { data = await res.json(); } catch (e) { data = null; }
    return { status: res.status, data };
  };
  const r = await send(false);
  if (r.status !== 409 || !r.data || !/Confirm again/.test(r.data.detail || "")) return r;
  return window.confirm(r.data.detail) ? send(true) : null;
}

// This phone's own random id, kept by its browser: the hub's log names which phone changed
// a sheet or proposed and voted (none kept, private browsing: a new one each time, still a
// name for this visit). The sheet page and the vote page share it.
function deviceId() {
  let id = null;
  try { id = localStorage.getItem("dipclock-device"); } catch (e) { id = null; }
  if (!id || !/^[A-Za-z0-9]{8,64}$/.test(id)) {
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    try { localStorage.setItem("dipclock-device", id); } catch (e) { /* kept for this visit */ }
  }
  return id;
}

// --- the page's language ----------------------------------------------------------------
// A page's own words go through words("...", {field: value}) (and plural), looked up in
// the catalogue the hub sends for the page's language (GET /api/words/{lang}: the "pages"
// gettext catalogue, dipclock.i18n); a page's fixed text is an element marked data-w.
// English is the text itself. The words of the game the hub sends (a stage, a phase) come
// already in the event's language.
let WORDS = {};
let wordsLang = "en";

function fill(text, values) {
  return values ? text.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m))
    : text;
}

function words(text, values) {
  return fill(WORDS[text] || text, values);
}

// "1 table", "3 tables": the catalogue's form for n (the hub says whether 0 takes the
// singular, as in French)
let PLURALS = {};
let zeroIsOne = false;

function plural(one, many, n, values) {
  const forms = PLURALS[one];
  const single = n === 1 || (n === 0 && zeroIsOne);
  const said = forms ? forms[single ? 0 : Math.min(1, forms.length - 1)] : (single ? one : many);
  return fill(said, { n, ...(values || {}) });
}

// Each element marked data-w says its English text (kept in data-w-en) in the language; an
// element's attributes named in data-w-attrs ("placeholder title") likewise.
function translateStatic() {
  for (const e of document.querySelectorAll("[data-w]")) {
    if (e.dataset.wEn === undefined) e.dataset.wEn = e.textContent.replace(/\s+/g, " ").trim();
    e.textContent = words(e.dataset.wEn);
  }
  for (const e of document.querySelectorAll("[data-w-attrs]")) {
    for (const name of e.dataset.wAttrs.split(/\s+/).filter(Boolean)) {
      const kept = `wEn${name.replace(/(^|-)(\w)/g, (m, d, c) => c.toUpperCase())}`;
      if (e.dataset[kept] === undefined) {
        e.dataset[kept] = (e.getAttribute(name) || "").replace(/\s+/g, " ").trim();
      }
      if (!e.dataset[kept]) continue;
      // a text box's default words: changed only while the TD has not typed their own
      if (name === "value" && "value" in e && e.value !== e.getAttribute("value")) continue;
      e.setAttribute(name, words(e.dataset[kept]));
      if (name === "value" && "value" in e) e.value = words(e.dataset[kept]);
    }
  }
}

// What to redraw once the page's language changes (each card registers its own).
const languageHooks = [];
function onLanguage(fn) { languageHooks.push(fn); }

// Switch the page to ``lang`` ("fr", ...; "en" or unknown: the page's own English); the
// hub's catalogue is fetched once per language. True when the page's words changed.
async function useLanguage(lang) {
  const want = lang || "en";
  if (want === wordsLang) return false;
  let got = { lang: "en", words: {}, plurals: {}, zero_is_one: false, languages };
  if (want !== "en") {
    try {
      const r = await fetch(`/api/words/${encodeURIComponent(want)}`);
      if (!r.ok) return false;
      got = await r.json();
    } catch (e) {
      return false;  // the hub is away: the page keeps the words it has
    }
  }
  takeWords(got);
  return true;
}

function takeWords(got) {
  WORDS = got.words;
  PLURALS = got.plurals;
  zeroIsOne = got.zero_is_one;
  wordsLang = got.lang;
  if (got.languages) languages = got.languages;
  document.documentElement.lang = wordsLang;
  translateStatic();
  fillLanguageSwitch();
  for (const fn of languageHooks) {
    try { fn(); } catch (e) { console.error(e); }
  }
}

// --- a phone's language -----------------------------------------------------------------
// The dashboard, the sheet and the vote page speak the phone's language: the one chosen on
// the page's switch (kept by this browser), else the hub's choice from the browser's own
// languages (Accept-Language), else the event's. Every request says it, so what the hub
// composes (a refusal, a summary) comes in it too. The projector's pages (/hall,
// /boardcall) follow the event instead (useLanguage with the hub's data.lang).
const LANGUAGE_KEY = "dipclock-lang";
let languages = {};  // code -> the language's own name, for the switch (from the hub)

function chosenLanguage() {
  try { return localStorage.getItem(LANGUAGE_KEY); } catch (e) { return null; }
}

// The header every request of a phone's page carries: its language.
function langHeader() {
  return { "Accept-Language": wordsLang };
}

async function startLanguage() {
  const chosen = chosenLanguage();
  for (const path of [chosen && `/api/words/${encodeURIComponent(chosen)}`, "/api/words"]) {
    if (!path) continue;  // nothing chosen: the hub picks from the browser's languages
    try {
      const r = await fetch(path, { headers: { "Accept": "application/json" } });
      if (r.ok) { takeWords(await r.json()); return; }
    } catch (e) { break; }  // the hub is away: English, the page's own
  }
  translateStatic();
}

// The page's switch (a <select id="lang-switch">), if it has one: each language in its own
// words; a choice is kept by this browser and takes effect at once.
function fillLanguageSwitch() {
  const sw = $("lang-switch");
  if (!sw) return;
  const names = Object.entries(languages);
  if (!names.length) { sw.hidden = true; return; }
  if (!sw.dataset.wired) {
    sw.dataset.wired = "1";
    sw.addEventListener("change", async () => {
      try { localStorage.setItem(LANGUAGE_KEY, sw.value); } catch (e) { /* this visit only */ }
      await useLanguage(sw.value);
    });
  }
  sw.replaceChildren(...names.map(([code, name]) => el("option", { value: code, lang: code }, name)));
  sw.value = wordsLang in languages ? wordsLang : "en";
  sw.hidden = false;
}

const languageReady = ["dashboard", "sheet", "vote", "standings"].includes(page)
  ? startLanguage() : Promise.resolve();
