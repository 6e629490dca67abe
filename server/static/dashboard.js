// dipclock dashboard: sign-in, polling, the clock card, the clock actions and set-up.
// Loaded after common.js; the page's scripts share one scope (no build step).
"use strict";

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


if (page === "dashboard") wireDashboard();
