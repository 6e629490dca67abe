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
    const data = await api("GET", statePath());
    // hub_time was read about halfway between asking and hearing back
    last = { data, at: (sent + performance.now()) / 2 };
    render(data);
  } catch (e) {
    if (!$("app").hidden) $("hub-now").textContent = words("offline");
  }
}

// A phase code as the TD reads it: the hub's words for it ("Spring 1901", "Printemps
// 1901", or the event's own "Frühling 1901"), sent beside each code; the code itself if
// the hub has not said it.
function phaseName(code) {
  const said = (last && last.data.deadlines || []).find((x) => x.phase === code);
  return said && said.phase_said ? said.phase_said : code || "";
}

// A round's title: the event's own name for it, else the hub's "Round 3", said in the
// page's language.
function roundTitle(title, number) {
  return !title || title === `Round ${number}` ? words("Round {number}", { number }) : title;
}


function render(d) {
  $("round-title").textContent = d.round ? `· ${roundTitle(d.round.title, d.round.number)}` : "";
  renderEventName(d);
  renderComingTeams(d);
  $("undecided").hidden = !d.undecided;
  $("undecided").textContent = plural("{n} late order to decide", "{n} late orders to decide",
    d.undecided);
  placeSetup(d);
  renderClock(d.hall);
  renderClocks(d.clocks);
  renderMessage(d.message);  // message.js
  fillSelect($("event-builtin"), d.events.map((e) => [e.id, `${e.id}: ${e.name}`]));
  if (d.event && !render.eventChosen) { $("event-builtin").value = d.event.id; render.eventChosen = true; }
  fillSelect($("break-deadline"), d.deadlines.map((x) => [x.phase,
    words("{phase} at {time}", { phase: x.phase_said || x.phase, time: hhmm(x.deadline) })]));
  const tables = d.tables.map((t) => [String(t.table), words("Table {table}", { table: t.table })]);
  fillSelect($("adj-table"), tables, true);
  fillSelect($("hold-table"), tables);
  renderPauses(d.pauses);
  renderRounds(d);
  $("btn-time-system").hidden = !d.clock.offer_system;
  $("btn-time-machine").hidden = !d.clock.offer_machine;
  renderTime();
  renderGrid(d.tables);
  renderPenalties(d.penalties, d);
  if (d.round && resultsDue()) refreshResults(d);
  $("audit").replaceChildren(...d.audit.map((a) =>
    el("li", {}, el("span", { class: "when" }, hhmmss(a.at)), " ", a.summary)));
}

// The event in use (the current round's, kept for good once it starts) at the top, and the
// one chosen for the next round when that differs.
function renderEventName(d) {
  const now = d.round ? d.round.event : d.event;
  let text = now ? now.name : words("No event chosen");
  if (d.round && d.event && d.event.id !== d.round.event.id) {
    text = words("{event} · next round: {next}", { event: now.name, next: d.event.name });
  }
  $("event-name").textContent = text;
}

// Teams the event chosen for the coming rounds will not score: kept, and said (the hub
// words it; the Results card's team table says it once a round plays that event).
function renderComingTeams(d) {
  $("teams-coming").hidden = !d.teams_note;
  $("teams-coming").textContent = sentence(d.teams_note || "");
}

function sentence(text) {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) + "." : "";
}

// Choose an event: the hub first says what it would do to the teams set (a bad file is
// refused there, before any question), the question says it, and so does the answer.
async function chooseEvent(body, name) {
  // the preview is part of the action: a second tap while it is on its way does nothing
  if (acting) { toast(words("Still sending the last change…"), true); return; }
  acting = true;
  let preview;
  try {
    preview = await api("POST", "/api/td/event/preview", body);
  } catch (e) {
    return toast(e.message, true);
  } finally {
    acting = false;
  }
  const teams = sentence(preview.teams);
  const done = await act(eventQuestion(last && last.data, name) + (teams ? "\n" + teams : ""),
    "PUT", "/api/td/event", body);
  if (done && done.teams) {
    toast(words("Done: {event} chosen. {teams}", { event: name, teams: sentence(done.teams) }));
  }
}

// What choosing an event does, said before the TD says yes (a round is a record).
function eventQuestion(d, name) {
  const r = d && d.round;
  if (!r) return words("Use {event} for the event?", { event: name });
  if (!r.started) {
    return words("Use {event} for round {number}, which has not started?",
      { event: name, number: r.number });
  }
  return words("Use {event} from round {next} on? Round {number} keeps {kept}.",
    { event: name, next: r.number + 1, number: r.number, kept: r.event.name });
}

// With no round or no tables set up, set-up is what the TD needs: first on the page and
// open. With both, it sits folded at the bottom. It never moves under the TD's hands: a
// hub that becomes ready leaves it where it is until the page is next opened.
function placeSetup(d) {
  const card = $("setup-card"), app = $("app");
  const ready = d.round !== null && d.tables.length > 0;
  if (!ready && app.firstElementChild !== card) {
    app.prepend(card);
    $("setup").open = true;
  }
}

// --- rounds: set up the next, correct one, reopen a record ------------------------------

const ROUND_FIELDS = ["round-number", "round-start", "round-last", "round-call", "round-event"];
// ``dirty``: the TD has typed in the form (the hub's values do not overwrite it);
// ``reopen``: the round being corrected (a record: it is reopened on purpose).
const roundForm = { dirty: false, reopen: null, eventId: null, row: null };

// The start and call fields keep their seconds (``step="1"``, filled with hh:mm:ss), so a
// round reopened sends its call back as it was: a call at 23:41:41 cut to 23:41 would end a
// game whose deadline falls in those seconds a phase early. A browser leaves ":00" out.
function withSeconds(value) {
  return value && value.length === 16 ? value + ":00" : value;
}

// The form shows the hub's next round (or the round being corrected), never what another
// phone has since replaced, unless the TD is typing in it.
function fillRoundForm(d) {
  if (roundForm.dirty || roundForm.reopen !== null || !d.next_round) return;
  if (ROUND_FIELDS.includes(document.activeElement && document.activeElement.id)) return;
  const n = d.next_round;
  $("round-number").value = n.number;
  $("round-start").value = n.start ? n.start.slice(0, 19) : "";
  const cur = d.round && d.round.number === n.number ? d.round : null;
  $("round-last").value = cur && cur.last_year ? cur.last_year : "";
  $("round-call").value = cur && cur.call ? cur.call.slice(0, 19) : "";
  roundButton(n);
}

// The form's button names the hub's next round (or the one it corrects).
function roundButton(n) {
  $("btn-round").textContent = n.correcting ? words("Correct round {number}", { number: n.number })
    : words("Set up round {number}", { number: n.number });
}

function resetRoundForm() {
  Object.assign(roundForm, { dirty: false, reopen: null, eventId: null, row: null });
  $("round-number").readOnly = false;
  $("round-event-label").hidden = true;
  $("round-mode").hidden = true;
  $("btn-round-cancel").hidden = true;
  showRoundPreview([]);
}

function showRoundPreview(lines) {
  $("round-preview").replaceChildren(...lines.map((l) => el("li", {}, l)));
  $("round-preview").hidden = !lines.length;
}

// Every round set up, with what it holds that was played; a record is reopened on purpose.
function renderRounds(d) {
  fillRoundForm(d);
  $("rounds-list").replaceChildren(...d.rounds.map((r) => {
    // one fact a part, " · " between: a list, not a sentence
    const facts = [roundTitle(r.title, r.number), r.event,
      r.start ? r.start.replace("T", " ").slice(0, 16) : null,
      r.last_year ? words("to {year}", { year: r.last_year }) : null,
      r.call ? words("called {time}", { time: hhmmss(r.call) }) : null].filter(Boolean);
    return el("li", { "data-round": r.number },
      el("span", {}, el("b", {}, words("Round {number}", { number: r.number })),
        ` · ${facts.join(" · ")}`),
      r.record ? el("span", { class: "muted" }, words("played: {record}", { record: r.record }))
        : null,
      el("button", { class: "small plain", onclick: () => correctRound(r, d) },
        r.record ? words("Reopen…") : words("Correct…")));
  }));
  const change = d.round_change;
  $("round-undo").hidden = !change;
  if (change) {
    $("round-undo-text").textContent = words("Last change to the rounds, {time}: {summary}.",
      { time: hhmmss(change.at), summary: change.summary });
  }
}

function correctRound(r, d) {
  resetRoundForm();
  Object.assign(roundForm, { dirty: true, reopen: r.record ? r.number : null, eventId: r.event_id });
  $("round-number").value = r.number;
  $("round-number").readOnly = true;
  $("round-start").value = r.start ? r.start.slice(0, 19) : "";
  $("round-last").value = r.last_year || "";
  $("round-call").value = r.call ? r.call.slice(0, 19) : "";
  if (r.record) {
    const events = [[r.event_id, r.event], ...d.events.filter((e) => e.id !== r.event_id)
      .map((e) => [e.id, e.name])];
    fillSelect($("round-event"), events);
    $("round-event").value = r.event_id;
    $("round-event-label").hidden = false;
  }
  roundForm.row = r;
  renderRoundMode();
  $("btn-round-cancel").hidden = false;
  $("round-form").scrollIntoView({ block: "center" });
}

// What the form is doing to a round set up already (correcting it, reopening a record),
// said above it and on its button; drawn again when the page's language changes.
function renderRoundMode() {
  const r = roundForm.row;
  if (!r) return;
  $("round-mode").textContent = r.record
    ? words("Reopening round {number}, a record ({record}). You see what would move before " +
      "anything changes, and can undo it.", { number: r.number, record: r.record })
    : words("Correcting round {number}.", { number: r.number });
  $("round-mode").hidden = false;
  $("btn-round").textContent = r.record ? words("Reopen round {number}…", { number: r.number })
    : words("Correct round {number}", { number: r.number });
}

// Set up (or correct) the round: the hub previews it first (what the tables would show,

// what to ask, what would move), the TD answers, and only then is it sent.
async function setUpRound() {
  const start = $("round-start").value;
  if (!start) return toast(words("Give the round's start"), true);
  const body = {
    number: Number($("round-number").value), start: withSeconds(start),
    last_year: $("round-last").value ? Number($("round-last").value) : null,
    call: $("round-call").value ? withSeconds($("round-call").value) : null,
  };
  if (roundForm.reopen !== null) {
    body.reopen = true;
    if ($("round-event").value && $("round-event").value !== roundForm.eventId) body.event = $("round-event").value;
  }
  let p;
  try { p = await api("POST", "/api/td/round/preview", body); } catch (e) { return toast(e.message, true); }
  if (p.unchanged) return toast(words("Round {number} is set up so already", { number: p.round }));
  if (p.needs_reopen && !body.reopen) {
    showRoundPreview([
      words("Round {number} is a record ({record}): its event, start and schedule stay as " +
        "they were played.", { number: p.round, record: p.record }),
      words("To correct it, tap Reopen… beside it under Rounds.")]);
    return toast(words("Round {number} is a record: reopen it to correct it",
      { number: p.round }), true);
  }
  const head = body.reopen
    ? words("Reopen round {number} ({record}) and correct it?", { number: p.round, record: p.record })
    : words("Set up round {number} starting {start}?",
      { number: p.round, start: start.replace("T", " ") });
  const more = [...p.questions];
  if (body.reopen) {
    // the hub says which round the tables play once it is done: a reopened earlier round
    // leaves them on the one they play now
    more.push(...(p.moves.length ? [words("What would move:"), ...p.moves]
      : [words("Nothing played would move.")]),
    p.tables_round === p.round ? words("Every table would show: {show}", { show: p.tables_show })
      : words("The tables stay on round {number}, as they are: {show}",
        { number: p.tables_round, show: p.tables_show }));
  }
  showRoundPreview(more);
  const done = await act([head, ...more].join("\n"), "PUT", "/api/td/round", body);
  showRoundPreview([]);
  if (done) {
    resetRoundForm();  // the undo is offered under Rounds
  } else if (done === false && roundForm.reopen === null) {
    roundForm.dirty = false;  // refused (another phone set it up meanwhile): show the hub's
  }
}

// The call's preview stays on the card while the TD is asked and once the call is made
// (where each game ends); answered no, refused, or the call undone, it goes.
let callAsking = false;

function hideCallPreview() {
  $("call-preview").hidden = true;
  $("call-preview").replaceChildren();
}

function renderPauses(pauses) {
  const d = last ? last.data : null;
  const playing = (table) => {
    if (!d) return true;
    const stages = d.tables.filter((t) => table === null || t.table === table)
      .map((t) => (t.view ? t.view.stage : null)).filter(Boolean);
    if (table === null && d.hall) stages.push(d.hall.stage);
    return !stages.length || stages.some((s) => s !== "game_over");
  };
  const live = pauses.filter((p) => p.state !== "over" && playing(p.table));
  const items = live.map((p) => {
    const phase = p.at_deadline_said || p.at_deadline, time = hhmm(p.at), table = p.table;
    let what;
    if (table) {
      what = p.at_deadline ? words("Table {table} hold at the {phase} deadline", { table, phase })
        : words("Table {table} hold from {time}", { table, time });
    } else {
      what = p.at_deadline ? words("Break, all tables, at the {phase} deadline", { phase })
        : words("Break, all tables, from {time}", { time });
    }
    const until = p.until ? words(", restart {time}", { time: hhmm(p.until) })
      : p.minutes ? words(", {minutes} min", { minutes: p.minutes }) : "";
    const due = p.state === "due";
    const question = due ? words("Cancel: {what}?", { what }) : words("End now: {what}?", { what });
    return el("li", { class: p.state },
      el("span", {}, `${what}${until}${p.reason ? " · " + p.reason : ""}`),
      el("button", {
        class: "small", onclick: () => act(question, "POST", `/api/td/pauses/${p.id}/end`),
      }, due ? words("Cancel") : words("End now")));
  });
  // time given or taken away, newest first, each with its undo (a second tap, a wrong
  // table: it costs nothing)
  const adjustments = (d ? d.adjustments : []).slice(-5).reverse().map((a) => {
    const said = { sign: a.seconds > 0 ? "+" : "−", seconds: Math.abs(a.seconds), table: a.table,
      time: hhmmss(a.at) };
    const what = a.table ? words("{sign}{seconds} s, table {table}, at {time}", said)
      : words("{sign}{seconds} s, all tables, at {time}", said);
    return el("li", { class: "adjustment", "data-adjustment": a.id },
      el("span", {}, what),
      el("button", { class: "small", onclick: () => act(
        words("Undo {what}? The deadlines it moved go back.", { what }), "DELETE",
        `/api/td/adjustments/${a.id}`),
      }, words("Undo")));
  });
  items.push(...adjustments);
  const call = d && d.round ? d.round.call : null;
  $("call-rule").textContent = d && d.round ? d.round.call_rule : ""; // the event's, in words
  if (!call && !callAsking) hideCallPreview();
  if (call) {
    items.push(el("li", { class: "called" },
      el("span", {}, words("Round called at {time}", { time: hhmmss(call) })),
      el("button", {
        class: "small", id: "btn-call-undo",
        onclick: () => act(words("Undo the call at {time}? Every game plays on.",
          { time: hhmmss(call) }), "DELETE", "/api/td/call"),
      }, words("Undo call"))));
  }
  $("pauses").replaceChildren(...items);
}

// The hub's time beside this phone's, and a warning when they disagree or the hub's clock
// has not been checked against anything.
// The hub's standing, and, after a restart on a wrong clock, what the tables' time changed
function standingText(clock) {
  const text = STANDING[clock.standing] || clock.standing;
  if (clock.kept_change === null || clock.kept_change === undefined) {
    // the tables' votes did not move it (server.kepttime): the TD sees who said what
    return clock.kept_note
      ? words("{standing} At its restart, {note}.", { standing: text, note: clock.kept_note })
      : text;
  }
  const said = { standing: text, span: span(clock.kept_change), note: clock.kept_note };
  if (clock.kept_change < 0) {
    return plural("{standing} Its machine's clock was {span} ahead; {n} table had kept the " +
      "time, so no deadline moved. Each table's vote (hub minus the time it kept): {note}.",
    "{standing} Its machine's clock was {span} ahead; {n} tables had kept the time, so no " +
      "deadline moved. Each table's vote (hub minus the time it kept): {note}.",
    clock.kept_tables, said);
  }
  return plural("{standing} Its machine's clock was {span} behind; {n} table had kept the " +
    "time, so no deadline moved. Each table's vote (hub minus the time it kept): {note}.",
  "{standing} Its machine's clock was {span} behind; {n} tables had kept the time, so no " +
    "deadline moved. Each table's vote (hub minus the time it kept): {note}.",
  clock.kept_tables, said);
}

function renderTime() {
  const hub = hubNow();
  if (hub === null) return;
  const phone = phoneNow(), diff = hub - phone;
  $("time-hub").textContent = clockText(hub);
  $("time-phone").textContent = clockText(phone);
  $("time-diff").textContent = Math.abs(diff) < 0.05 ? "0.0 s" : `${diff > 0 ? "+" : "−"}${span(diff)}`;
  const warn = [], agrees = Math.abs(diff) <= 2;
  if (!agrees) {
    warn.push(diff > 0 ? words("The hub's clock is {span} ahead of this phone's.", { span: span(diff) })
      : words("The hub's clock is {span} behind this phone's.", { span: span(diff) }));
    const quarters = Math.abs(diff) / 900;
    if (quarters >= 1 && Math.abs(quarters - Math.round(quarters)) * 900 < 5) {
      warn.push(words("That looks like a time zone: are the hub and this phone set to the same one?"));
    }
  }
  const clock = last.data.clock, standing = clock.standing;
  const untrusted = standing === "not synchronised" || standing === "unknown";
  // A hall with no time server: a hub that agrees with this phone needs nothing done, and
  // a red box all day would teach the TD to pass over the one that matters. It is a quiet
  // note then; the red box is for a hub that disagrees with the phone.
  if (untrusted && !agrees) warn.push(STANDING[standing]);
  $("time-standing").textContent = untrusted && agrees
    ? words("{standing} It agrees with this phone's clock: nothing to do.",
      { standing: standingText(clock) })
    : standingText(clock);
  $("time-standing").hidden = untrusted && !agrees;  // said in the warning already
  if (warn.length) warn.push(words("If this phone's time is right, set the hub's time to it."));
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
  const none = new Error(words("tables: give how many (1 to 999), or numbers and ranges like 1-12, 15"));
  if (!s) throw none;
  if (/^\d+$/.test(s)) {
    const count = Number(s);
    if (count < 1 || count > 999) throw none;
    return { count };
  }
  const out = tableNumbers(s, words("tables"));
  if (!out.length) throw none;
  return { tables: out };
}

// "1-12, 15" -> [1, ..., 12, 15]: table numbers and ranges (the Seating card's tables
// already called too); a wrong part is said, ``what`` first (in the page's language), not
// guessed.
function tableNumbers(spec, what) {
  const out = [];
  for (const part of spec.split(/[,\s]+/).filter(Boolean)) {
    const m = part.match(/^(\d+)(?:-(\d+))?$/);
    if (!m) throw new Error(words("{what}: {part} is not a number or a range like 1-12", { what, part }));
    const a = Number(m[1]), b = Number(m[2] || m[1]);
    if (a < 1 || b > 999 || b < a) {
      throw new Error(words("{what}: {part}: table numbers run from 1 to 999", { what, part }));
    }
    for (let n = a; n <= b && out.length < 1000; n++) out.push(n);
  }
  return out;
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
    if (!window.confirm(words("Sign out?"))) return;
    try { await api("POST", "/api/logout", {}); } catch (e) { /* signed out anyway */ }
    csrf = null; showSignIn();
  };
  $("btn-pause").onclick = () => {
    const until = restartIso($("pause-until").value);
    const reason = $("pause-reason").value;
    let question = words("Pause every clock now?");
    if (until) {
      // say how long the break will be, so a mistyped 1:30 for 13:30 shows at once
      const minutes = Math.round((Date.parse(until + "Z") - Date.parse(last.data.now + "Z")) / 60000);
      if (minutes > 12 * 60) {
        return toast(words("Restart at {time} is {hours} h away: check the time",
          { time: hhmm(until), hours: Math.floor(minutes / 60) }), true);
      }
      const h = Math.floor(minutes / 60), m = minutes % 60;
      const span = h ? words("{h} h {m} min", { h, m }) : words("{m} min", { m });
      question = words("Pause every clock now, restart at {time} (in {span})?",
        { time: hhmm(until), span });
    }
    // a restart time is for this break: the next pause must not inherit it unseen
    act(question, "POST", "/api/td/pauses", { reason, until })
      .then((done) => { if (done) $("pause-until").value = ""; });
  };
  $("btn-resume").onclick = () => act(words("Resume every clock now?"), "POST", "/api/td/resume", {});
  $("btn-break").onclick = () => {
    const deadline = $("break-deadline").value, minutes = Number($("break-minutes").value);
    if (!deadline) return toast(words("No deadline to come"), true);
    // the reason is shown on the tables: the page's word for a break
    act(words("Break of {minutes} min at the {phase} deadline?",
      { minutes, phase: phaseName(deadline) }), "POST", "/api/td/pauses",
    { deadline, minutes, reason: words("Break") });
  };
  const adjust = (sign) => {
    const seconds = sign * Math.abs(Number($("adj-seconds").value));
    const table = $("adj-table").value ? Number($("adj-table").value) : null;
    const said = { seconds: Math.abs(seconds), table };
    let question;
    if (sign > 0) {
      question = table ? words("Add {seconds} s for table {table}?", said)
        : words("Add {seconds} s for every table?", said);
    } else {
      question = table ? words("Take away {seconds} s for table {table}?", said)
        : words("Take away {seconds} s for every table?", said);
    }
    act(question, "POST", "/api/td/adjustments", { seconds, table });
  };
  $("btn-add").onclick = () => adjust(1);
  $("btn-take").onclick = () => adjust(-1);
  $("btn-hold").onclick = () => {
    const table = Number($("hold-table").value);
    if (!table) return toast(words("No tables set up"), true);
    act(words("Hold table {table} now?", { table }), "POST", "/api/td/pauses",
      { table, reason: $("hold-reason").value });
  };
  $("btn-unhold").onclick = () => {
    const table = Number($("hold-table").value);
    if (!table) return toast(words("No tables set up"), true);
    act(words("Release table {table}?", { table }), "POST", "/api/td/resume", { table });
  };
  $("btn-time-phone").onclick = () => {
    const phone = phoneNow(), hub = hubNow();
    if (hub === null) return toast(words("The hub's time is not known yet"), true);
    const change = phone - hub;
    act(words("Set the hub's time from {hub} to this phone's {phone} ({change})? Every table " +
      "resyncs to it.", { hub: clockText(hub), phone: clockText(phone),
      change: `${change >= 0 ? "+" : "−"}${span(change)}` }),
    "POST", "/api/clock", () => ({ time: localIso(phoneNow()) }));
  };
  $("btn-time-machine").onclick = () => {
    const change = last ? last.data.clock.kept_change : 0;
    act(words("Undo the time the tables kept? The hub's clock moves {change}, back to its " +
      "machine's clock; every table resyncs to it.",
    { change: `${change <= 0 ? "+" : "−"}${span(change || 0)}` }),
    "POST", "/api/clock", { source: "machine" });
  };
  $("btn-time-system").onclick = () => {
    const change = last ? last.data.clock.system_change : 0;
    act(words("Use the system's synchronised time? The hub's clock moves {change}; every " +
      "table resyncs to it.", { change: `${change >= 0 ? "+" : "−"}${span(change || 0)}` }),
    "POST", "/api/clock", { source: "system" });
  };
  // The call, previewed: the hub says where each table's game ends (server.calling, the
  // same core question the call answers); the TD confirms that list, and the call is made
  // at the moment previewed, so what was confirmed is what every kiosk shows.
  $("btn-call").onclick = async () => {
    let p;
    try { p = await api("GET", "/api/td/call/preview"); } catch (e) { return toast(e.message, true); }
    const line = (t) => t.text; // worded by the hub (dipclock.callwords)
    $("call-preview").replaceChildren(
      el("li", { class: "muted small" }, words("Called at {time}, the games end:",
        { time: hhmmss(p.at) })),
      ...p.tables.map((t) => el("li", { class: t.warning ? "warn" : "", "data-table": t.table }, line(t))));
    $("call-preview").hidden = false;
    const warnings = p.tables.filter((t) => t.warning).map((t) => "! " + t.warning);
    const question = [words("Call round {number} at {time}?", { number: p.round, time: hhmmss(p.at) }),
      ...warnings, ...p.tables.map(line)];
    callAsking = true;
    const done = await act(question.join("\n"), "POST", "/api/td/call", { at: p.at });
    callAsking = false;
    // not called (the TD said no, or the hub refused): the preview says nothing true
    if (!done) hideCallPreview();
  };
  $("btn-event").onclick = () => {
    const id = $("event-builtin").value;
    chooseEvent({ builtin: id }, id);
  };
  $("btn-event-file").onclick = async () => {
    const file = $("event-file").files[0];
    if (!file) return toast(words("Choose a .toml file first"), true);
    const text = await file.text();
    chooseEvent({ toml: text, filename: file.name }, file.name);
  };
  $("btn-round").onclick = setUpRound;
  $("btn-round-cancel").onclick = () => { resetRoundForm(); if (last) fillRoundForm(last.data); };
  $("btn-round-undo").onclick = () => {
    const change = last && last.data.round_change;
    if (!change) return;
    act(words("Undo: {summary}? The round goes back to how it was before.",
      { summary: change.summary }), "POST", "/api/td/round/undo", {});
  };
  for (const id of ROUND_FIELDS) $(id).addEventListener("input", () => { roundForm.dirty = true; });
  $("btn-seating").onclick = async () => {
    const file = $("seating-file").files[0];
    const text = file ? await file.text() : $("seating-csv").value;
    const lines = text.split(/\r?\n/).filter((l) => l.trim() && !/^\s*round\s*,/i.test(l));
    if (!lines.length) {
      return toast(words("seating: paste lines round,table,power,player or choose a CSV file"), true);
    }
    const question = file
      ? plural("Import {n} seat from {file}?", "Import {n} seats from {file}?", lines.length,
        { file: file.name })
      : plural("Import {n} seat?", "Import {n} seats?", lines.length);
    const done = await act(question, "PUT", "/api/td/seating", { csv: text });
    if (done) {
      $("seating-csv").value = "";
      $("seating-file").value = "";
      seatingImported(done);  // seating.js: what was imported, and the seating by table
    }
  };
  $("btn-tables").onclick = () => {
    let body;
    try { body = parseTables($("tables-spec").value); } catch (e) { return toast(e.message, true); }
    const n = body.count || body.tables.length;
    act(plural("Set up {n} table?", "Set up {n} tables?", n), "PUT", "/api/td/tables", body);
  };
  wireClocks();
  wireResults();
  wireMessage();
  setInterval(() => {
    const t = hubNow();
    if (t !== null) $("hub-now").textContent = clockText(t);
    if (t !== null && !$("app").hidden) renderTime();
    if (last && last.data.hall) renderClock(last.data.hall);
  }, 250);
  // another language chosen: everything drawn from the last poll is drawn again in it at
  // once, then asked of the hub again, as its own words (a summary, a label) change too
  onLanguage(() => {
    if (last && !$("app").hidden) render(last.data);
    // the round form's words, even while the TD is typing in it (its values stay)
    if (roundForm.row) renderRoundMode();
    else if (last && last.data.next_round) roundButton(last.data.next_round);

    if (!$("app").hidden) refresh();
  });
  api("GET", "/api/session").then((s) => {
    if (s.signed_in) { csrf = s.csrf; showApp(); } else showSignIn();
  }).catch(() => showSignIn());
}


// The page's language first (common.js: the phone's), so its first draw is in it.
if (page === "dashboard") languageReady.then(wireDashboard);

