// dipclock dashboard and hall clock. No build step: plain JS the hub serves as is.
// The hub computes every screen with dipclock.screen; this page only formats the last
// answer and ticks its big number down between polls so the seconds move smoothly.
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

// The phone's own clock in the same "local seconds" as hub time.
function phoneNow() {
  const d = new Date();
  return d.getTime() / 1000 - d.getTimezoneOffset() * 60;
}

// Local seconds as the naive ISO time the hub takes: 2024-05-04T10:04:05.250
function localIso(localSeconds) {
  return new Date(localSeconds * 1000).toISOString().slice(0, 23);
}

// 0.4 s, 2 min 3 s, 1 h 0 min: how far apart two clocks are.
function span(seconds) {
  const s = Math.abs(seconds);
  if (s < 10) return `${s.toFixed(1)} s`;
  const r = Math.round(s), h = Math.floor(r / 3600), m = Math.floor((r % 3600) / 60);
  if (h) return `${h} h ${m} min`;
  return m ? `${m} min ${r % 60} s` : `${r} s`;
}

const STANDING = {
  "synchronised": "Hub clock synchronised with a time server (NTP).",
  "not synchronised": "Hub clock not synchronised: no time server has set it.",
  "set by the TD": "Hub clock set from a TD's phone.",
  "unknown": "The hub cannot tell whether its clock is synchronised.",
};

function clockText(localSeconds) {
  // Hub time is seconds since 1970-01-01 00:00 *local*: read it back with UTC getters.
  const d = new Date(localSeconds * 1000);
  return [d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()]
    .map((n) => String(n).padStart(2, "0")).join(":");
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

// The stage of a grid tile's table, in a word (dipclock.timeline's stage names).
const STAGE_WORDS = {
  before_start: "Starts in", negotiating: "Negotiating", writing: "Writing orders",
  paused: "Paused", held: "Held", game_over: "Game over",
};

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
    stage.textContent = page === "hall" ? "Waiting for the round" : "No round set up";
    rem.textContent = "--:--";
    detail.textContent = "";
    return;
  }
  // the phase beside the label, unless a note already names it ("Then Fall 1901: ...")
  const named = !clock.phase || clock.notes.some((n) => n.includes(clock.phase));
  stage.textContent = named ? clock.label : `${clock.label} · ${clock.phase}`;
  rem.textContent = bigNow(clock);
  detail.textContent = [clock.deadline, ...clock.notes].filter(Boolean).join(" · ");
}

// --- talking to the hub ------------------------------------------------------------------

async function api(method, path, body) {
  const headers = { "Accept": "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET" && csrf) headers["X-CSRF-Token"] = csrf;
  const res = await fetch(path, {
    method, headers, credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (res.status === 401 && page === "dashboard") showSignIn();
  if (!res.ok) throw new Error((data && data.detail) || `${res.status} ${res.statusText}`);
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

// Every TD action: ask, send, say what happened, refresh. ``body`` may be a function,
// called once the TD has said yes (the phone's time must be read then, not before).
async function act(question, method, path, body) {
  if (!window.confirm(question)) return false;
  try {
    await api(method, path, typeof body === "function" ? body() : body);
    toast("Done: " + question.replace(/\?$/, ""));
    await refresh();
    return true;
  } catch (e) {
    toast(e.message, true);
    return false;
  }
}

// --- dashboard ---------------------------------------------------------------------------

function showSignIn() {
  $("signin").hidden = false;
  $("app").hidden = true;
  if (polling) { clearInterval(polling); polling = null; }
}

function showApp() {
  $("signin").hidden = true;
  $("app").hidden = false;
  refresh();
  if (!polling) polling = setInterval(refresh, 2000);
}

async function refresh() {
  try {
    const sent = performance.now();
    const data = await api("GET", "/api/td/state");
    // hub_time was read about halfway between asking and hearing back
    last = { data, at: (sent + performance.now()) / 2 };
    render(data);
  } catch (e) {
    if (!$("app").hidden) $("hub-now").textContent = "offline";
  }
}

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

function render(d) {
  $("round-title").textContent = d.round ? `· ${d.round.title}` : "";
  renderClock(d.hall);
  $("kiosk-key").textContent = d.kiosk_key;
  fillSelect($("event-builtin"), d.events.map((e) => [e.id, `${e.id}: ${e.name}`]));
  if (d.event && !render.eventChosen) { $("event-builtin").value = d.event.id; render.eventChosen = true; }
  fillSelect($("break-deadline"), d.deadlines.map((x) => [x.phase, `${x.phase} at ${hhmm(x.deadline)}`]));
  const tables = d.tables.map((t) => [String(t.table), `Table ${t.table}`]);
  fillSelect($("adj-table"), tables, true);
  fillSelect($("hold-table"), tables);
  renderPauses(d.pauses);
  $("time-standing").textContent = STANDING[d.clock.standing] || d.clock.standing;
  $("btn-time-system").hidden = !d.clock.offer_system;
  renderTime();
  renderGrid(d.tables);
  renderPenalties(d.penalties);
  $("audit").replaceChildren(...d.audit.map((a) =>
    el("li", {}, el("span", { class: "when" }, hhmmss(a.at)), " ", a.summary)));
}

function renderPauses(pauses) {
  const live = pauses.filter((p) => p.state !== "over");
  $("pauses").replaceChildren(...live.map((p) => {
    const who = p.table ? `Table ${p.table} hold` : "Break, all tables";
    const when = p.at_deadline ? `at ${p.at_deadline} deadline` : `from ${hhmm(p.at)}`;
    const until = p.until ? `, restart ${hhmm(p.until)}` : p.minutes ? `, ${p.minutes} min` : "";
    const verb = p.state === "due" ? "Cancel" : "End now";
    return el("li", { class: p.state },
      el("span", {}, `${who} ${when}${until}${p.reason ? " · " + p.reason : ""}`),
      el("button", {
        class: "small", onclick: () => act(`${verb}: ${who} ${when}?`, "POST", `/api/td/pauses/${p.id}/end`),
      }, verb));
  }));
}

// The hub's time beside this phone's, and a warning when they disagree or the hub's clock
// has not been checked against anything.
function renderTime() {
  const hub = hubNow();
  if (hub === null) return;
  const phone = phoneNow(), diff = hub - phone;
  $("time-hub").textContent = clockText(hub);
  $("time-phone").textContent = clockText(phone);
  $("time-diff").textContent = Math.abs(diff) < 0.05 ? "0.0 s" : `${diff > 0 ? "+" : "−"}${span(diff)}`;
  const warn = [];
  if (Math.abs(diff) > 2) {
    warn.push(`The hub's clock is ${span(diff)} ${diff > 0 ? "ahead of" : "behind"} this phone's.`);
    const quarters = Math.abs(diff) / 900;
    if (quarters >= 1 && Math.abs(quarters - Math.round(quarters)) * 900 < 5) {
      warn.push("That looks like a time zone: are the hub and this phone set to the same one?");
    }
  }
  const standing = last.data.clock.standing;
  const untrusted = standing === "not synchronised" || standing === "unknown";
  if (untrusted) warn.push(STANDING[standing]);
  $("time-standing").hidden = untrusted;  // said in the warning already
  if (warn.length) warn.push("If this phone's time is right, set the hub's time to it.");
  const box = $("time-warning");
  box.hidden = !warn.length;
  box.textContent = warn.join(" ");
}

// 45 s, 12 min, 3 h 12 min, 2 d 3 h: how long a kiosk has been running.
function uptime(seconds) {
  const s = Math.floor(seconds), d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d) return `${d} d ${h} h`;
  if (h) return `${h} h ${m} min`;
  return m ? `${m} min` : `${s} s`;
}

const CLOCK_MARK = {
  hub: ["ok", "clock: hub"], system: ["warn", "clock: system"], unverified: ["bad", "clock not verified"],
};

// What the table's kiosk says about itself: version, address, uptime, buttons, box, clock,
// power; and, in red across the grid, two kiosks claiming the table.
function kioskLines(t) {
  const out = [];
  if (t.claims.length) {
    const where = t.claims.map((c) => c.address).join(", ");
    out.push(el("div", { class: "claim" }, `${t.claims.length} kiosks say they are table ${t.table}: ${where}`));
  }
  const k = t.kiosk;
  if (!k) return out;
  out.push(el("div", { class: "small muted pi" }, `v${k.version} · ${k.address}`));
  const inputs = k.buttons.map((b) => (b === "gpio" && k.pin_factory ? `gpio\u00a0(${k.pin_factory})` : b));
  const heard = t.connected ? `up ${uptime(k.uptime)}` : `last report ${uptime(k.reported_ago)} ago`;
  out.push(el("div", { class: "small muted" }, `${heard} · ${inputs.join(" + ") || "no buttons"}`));
  const marks = [];
  if (k.box === "connected") marks.push(["ok", "box ok"]);
  if (k.box === "disconnected") marks.push(["bad", "box unplugged"]);
  marks.push(CLOCK_MARK[k.clock] || ["", `clock: ${k.clock}`]);
  if (k.power && k.power !== "ok") marks.push([k.power.includes("now") ? "bad" : "warn", k.power]);
  out.push(el("div", { class: "marks" }, ...marks.map(([cls, text]) => el("span", { class: `mark ${cls}` }, text))));
  return out;
}

function renderGrid(tables) {
  const up = tables.filter((t) => t.connected).length;
  $("tables-summary").textContent = tables.length ? `${up}/${tables.length} connected` : "none yet";
  $("grid").replaceChildren(...tables.map((t) => {
    const v = t.view;
    const sync = t.offset === null ? "no sync yet" :
      `${Math.round(t.offset * 1000) || 0} ms · rtt ${Math.round(t.rtt * 1000)} ms`;  // no "-0"
    const chips = (t.powers || []).map((p) => {
      let cls = "chip", text = p.power;
      if (p.out) cls += " out";
      else if (p.late !== null) { cls += " late"; text += ` +${p.late}s`; }
      else if (p.in) cls += " in";
      return el("span", { class: cls, title: p.heading_for || "" }, text);
    });
    const lateNow = (t.powers || []).filter((p) => p.late !== null && !p.out);
    const claimed = t.claims.length ? " claimed" : "";
    return el("div", { class: `tile ${t.connected ? "up" : "down"} ${v ? v.stage : ""}${claimed}`, "data-table": t.table },
      el("div", { class: "tile-head" },
        el("strong", {}, `Table ${t.table}`),
        el("span", { class: "dot", title: t.connected ? "connected" : "not connected" })),
      ...kioskLines(t),
      el("div", { class: "muted small" }, sync),
      v ? el("div", { class: "small" }, `${STAGE_WORDS[v.stage] || v.stage}${v.phase ? " " + v.phase : ""}`) : null,
      el("div", { class: "chips" }, ...chips),
      lateNow.length ? el("div", { class: "late-note small" }, lateSummary(lateNow)) : null);
  }));
}

// "A F G → Red card: all units hold": one line per penalty, not one per power.
function lateSummary(late) {
  const by = new Map();
  for (const p of late) by.set(p.heading_for, [...(by.get(p.heading_for) || []), p.power]);
  return [...by].map(([label, powers]) => `${powers.join(" ")} → ${label}`).join("; ");
}

// What the TD is typing in a note survives the 2-second refresh.
const drafts = new Map();

function renderPenalties(rows) {
  const list = $("penalties");
  const typing = document.activeElement;
  if (typing && typing.tagName === "INPUT" && list.contains(typing)) return;  // not under the TD's thumb
  if (!rows.length) {
    $("penalties").replaceChildren(el("li", { class: "muted" }, "No late or missing orders in this round."));
    return;
  }
  $("penalties").replaceChildren(...rows.map((r) => {
    const id = `${r.round}-${r.table}-${r.power}-${r.phase}`;
    const key = { round: r.round, table: r.table, power: r.power, phase: r.phase };
    const note = el("input", {
      placeholder: "note", maxlength: 500, value: drafts.get(id) ?? (r.note || ""), "aria-label": "note",
    });
    note.addEventListener("input", () => drafts.set(id, note.value));
    const what = `table ${r.table} ${r.power_name} ${r.phase}`;
    const decide = (decision) => {
      const body = { ...key, decision, note: note.value };
      if (decision === "change") {
        const final = window.prompt(`New penalty for ${what}:`, r.final || r.proposed.label);
        if (!final) return;
        body.final = final;
      }
      const verb = { confirm: "Confirm", waive: "Waive", change: "Change" }[decision];
      act(`${verb} the penalty for ${what}?`, "POST", "/api/td/penalties", body)
        .then((done) => { if (done) drafts.delete(id); });
    };
    return el("li", { class: "penalty" + (r.decision ? " decided" : ""), id: "pen-" + id },
      el("div", {},
        el("strong", {}, `T${r.table} ${r.power_name} ${r.phase}`),
        r.kind === "missed" ? " no press recorded → " : ` ${r.started_second} s late (offence ${r.offence}) → `,
        el("em", {}, r.proposed.label),
        r.decision ? el("span", { class: "verdict" }, ` ✓ ${r.final}`) : null),
      el("div", { class: "row tight" }, note,
        el("button", { class: "small", onclick: () => decide("confirm") }, "Confirm"),
        el("button", { class: "small", onclick: () => decide("waive") }, "Waive"),
        el("button", { class: "small", onclick: () => decide("change") }, "Change")));
  }));
}

// An "HH:MM" on the hub's clock: today, or tomorrow if that time has passed.
function restartIso(hhmmValue) {
  if (!hhmmValue || !last) return null;
  const now = last.data.now;
  let day = new Date(now.slice(0, 10) + "T00:00:00Z");
  if (hhmmValue <= now.slice(11, 16)) day = new Date(day.getTime() + 86400000);
  return day.toISOString().slice(0, 10) + "T" + hhmmValue + ":00";
}

function parseTables(spec) {
  const s = spec.trim();
  if (/^\d+$/.test(s)) return { count: Number(s) };
  const out = [];
  for (const part of s.split(/[,\s]+/).filter(Boolean)) {
    const m = part.match(/^(\d+)(?:-(\d+))?$/);
    if (!m) throw new Error(`tables: ${part} is not a number or a range like 1-12`);
    const a = Number(m[1]), b = Number(m[2] || m[1]);
    for (let n = a; n <= b && out.length < 1000; n++) out.push(n);
  }
  return { tables: out };
}

function wireDashboard() {
  $("signin-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const data = await api("POST", "/api/login", { password: $("password").value });
      csrf = data.csrf;
      $("password").value = "";
      showApp();
    } catch (err) { toast(err.message, true); }
  });
  $("btn-logout").onclick = async () => {
    if (!window.confirm("Sign out?")) return;
    try { await api("POST", "/api/logout", {}); } catch (e) { /* signed out anyway */ }
    csrf = null; showSignIn();
  };
  $("btn-pause").onclick = () => {
    const until = restartIso($("pause-until").value);
    const reason = $("pause-reason").value;
    let restart = "";
    if (until) {
      // say how long the break will be, so a mistyped 1:30 for 13:30 shows at once
      const minutes = Math.round((Date.parse(until + "Z") - Date.parse(last.data.now + "Z")) / 60000);
      if (minutes > 12 * 60) {
        return toast(`Restart at ${hhmm(until)} is ${Math.floor(minutes / 60)} h away: check the time`, true);
      }
      const span = minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`;
      restart = `, restart at ${hhmm(until)} (in ${span})`;
    }
    act(`Pause every clock now${restart}?`, "POST", "/api/td/pauses", { reason, until });
  };
  $("btn-resume").onclick = () => act("Resume every clock now?", "POST", "/api/td/resume", {});
  $("btn-break").onclick = () => {
    const deadline = $("break-deadline").value, minutes = Number($("break-minutes").value);
    if (!deadline) return toast("No deadline to come", true);
    act(`Break of ${minutes} min at the ${deadline} deadline?`, "POST", "/api/td/pauses",
      { deadline, minutes, reason: "Break" });
  };
  const adjust = (sign) => {
    const seconds = sign * Math.abs(Number($("adj-seconds").value));
    const table = $("adj-table").value ? Number($("adj-table").value) : null;
    const who = table ? `table ${table}` : "every table";
    act(`${sign > 0 ? "Add" : "Take away"} ${Math.abs(seconds)} s for ${who}?`, "POST",
      "/api/td/adjustments", { seconds, table });
  };
  $("btn-add").onclick = () => adjust(1);
  $("btn-take").onclick = () => adjust(-1);
  $("btn-hold").onclick = () => {
    const table = Number($("hold-table").value);
    if (!table) return toast("No tables set up", true);
    act(`Hold table ${table} now?`, "POST", "/api/td/pauses", { table, reason: $("hold-reason").value });
  };
  $("btn-unhold").onclick = () => {
    const table = Number($("hold-table").value);
    if (!table) return toast("No tables set up", true);
    act(`Release table ${table}?`, "POST", "/api/td/resume", { table });
  };
  $("btn-time-phone").onclick = () => {
    const phone = phoneNow(), hub = hubNow();
    if (hub === null) return toast("The hub's time is not known yet", true);
    const change = phone - hub;
    act(`Set the hub's time from ${clockText(hub)} to this phone's ${clockText(phone)} ` +
      `(${change >= 0 ? "+" : "−"}${span(change)})? Every table resyncs to it.`,
      "POST", "/api/clock", () => ({ time: localIso(phoneNow()) }));
  };
  $("btn-time-system").onclick = () => {
    const change = last ? last.data.clock.system_change : 0;
    act(`Use the system's synchronised time? The hub's clock moves ` +
      `${change >= 0 ? "+" : "−"}${span(change || 0)}; every table resyncs to it.`,
      "POST", "/api/clock", { source: "system" });
  };
  $("btn-call").onclick = () => act("Call the round now? Games end at the last deadline before now.",
    "POST", "/api/td/call", {});
  $("btn-event").onclick = () => {
    const id = $("event-builtin").value;
    act(`Use the event ${id}?`, "PUT", "/api/td/event", { builtin: id });
  };
  $("btn-event-file").onclick = async () => {
    const file = $("event-file").files[0];
    if (!file) return toast("Choose a .toml file first", true);
    const text = await file.text();
    act(`Use the event in ${file.name}?`, "PUT", "/api/td/event", { toml: text, filename: file.name });
  };
  $("btn-round").onclick = () => {
    const start = $("round-start").value;
    if (!start) return toast("Give the round's start", true);
    const body = {
      number: Number($("round-number").value), start: start.length === 16 ? start + ":00" : start,
      last_year: $("round-last").value ? Number($("round-last").value) : null,
      call: $("round-call").value ? $("round-call").value + ($("round-call").value.length === 16 ? ":00" : "") : null,
    };
    act(`Set up round ${body.number} starting ${start.replace("T", " ")}?`, "PUT", "/api/td/round", body);
  };
  $("btn-tables").onclick = () => {
    let body;
    try { body = parseTables($("tables-spec").value); } catch (e) { return toast(e.message, true); }
    const n = body.count || body.tables.length;
    act(`Set up ${n} tables?`, "PUT", "/api/td/tables", body);
  };
  setInterval(() => {
    const t = hubNow();
    if (t !== null) $("hub-now").textContent = clockText(t);
    if (t !== null && !$("app").hidden) renderTime();
    if (last && last.data.hall) renderClock(last.data.hall);
  }, 250);
  api("GET", "/api/session").then((s) => {
    if (s.signed_in) { csrf = s.csrf; showApp(); } else showSignIn();
  }).catch(() => showSignIn());
}

// --- hall clock --------------------------------------------------------------------------

function wireHall() {
  const poll = async () => {
    try {
      const data = await api("GET", "/api/hall");
      last = { data, at: performance.now() };
      $("hall-event").textContent = data.clock ? `${data.event} · ${data.round}` : "";
      document.body.classList.remove("offline");
    } catch (e) {
      document.body.classList.add("offline");
    }
  };
  poll();
  setInterval(poll, 1000);
  setInterval(() => { if (last) renderClock(last.data.clock); }, 200);
}

if (page === "dashboard") wireDashboard();
if (page === "hall") wireHall();
