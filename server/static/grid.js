// dipclock dashboard: the grid of tables, one tile per table.
// Loaded after common.js; the page's scripts share one scope (no build step).
"use strict";

// 45 s, 12 min, 3 h 12 min, 2 d 3 h: how long a kiosk has been running.
function uptime(seconds) {
  const s = Math.floor(seconds), d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d) return words("{d} d {h} h", { d, h });
  if (h) return words("{h} h {m} min", { h, m });
  return m ? words("{m} min", { m }) : words("{s} s", { s });
}

// What a kiosk says of its clock, said in the page's language when drawn
const CLOCK_MARK = {
  get hub() { return ["ok", words("clock: hub")]; },
  get system() { return ["warn", words("clock: system")]; },
  get unverified() { return ["bad", words("clock not verified")]; },
};

// What a kiosk says of its power supply (server/schemas.py PowerState), in words
const POWER_STATE = {
  get "under-voltage now"() { return words("under-voltage now"); },
  get "under-voltage since boot"() { return words("under-voltage since boot"); },
  get "throttled now (too hot?)"() { return words("throttled now (too hot?)"); },
  get "throttled since boot"() { return words("throttled since boot"); },
};

// The kiosk's ways of pressing (server/schemas.py KioskInfo.buttons), in words
const BUTTON_KIND = {
  get gpio() { return words("gpio"); },
  get serial() { return words("serial"); },
  get keyboard() { return words("keyboard"); },
};

// What the table's kiosk says about itself: version, address, uptime, buttons, box, clock,
// power; and, in red across the grid, two kiosks claiming the table.
function kioskLines(t) {
  const out = [];
  if (t.claims.length) {
    const where = t.claims.map((c) => c.address).join(", ");
    out.push(el("div", { class: "claim" }, plural("{n} kiosk says it is table {table}: {where}",
      "{n} kiosks say they are table {table}: {where}", t.claims.length, { table: t.table, where })));
  }
  if (t.press_note) out.push(el("div", { class: "claim" }, t.press_note));
  const k = t.kiosk;
  if (!k) return out;
  out.push(el("div", { class: "small muted pi" }, `v${k.version} · ${k.address}`));
  const inputs = k.buttons.map((b) => {
    const kind = BUTTON_KIND[b] || b;
    return b === "gpio" && k.pin_factory ? `${kind}\u00a0(${k.pin_factory})` : kind;
  });
  const heard = t.connected ? words("up {time}", { time: uptime(k.uptime) })
    : words("last report {time} ago", { time: uptime(k.reported_ago) });
  const pressed = inputs.length ? inputs.join(" + ") : words("no buttons");
  out.push(el("div", { class: "small muted" }, `${heard} · ${pressed}`));
  const marks = [];
  if (k.box === "connected") marks.push(["ok", words("box ok")]);
  if (k.box === "disconnected") marks.push(["bad", words("box unplugged")]);
  marks.push(CLOCK_MARK[k.clock] || ["", words("clock: {state}", { state: k.clock })]);
  if (k.power && k.power !== "ok") {
    marks.push([k.power.includes("now") ? "bad" : "warn", POWER_STATE[k.power] || k.power]);
  }
  out.push(el("div", { class: "marks" }, ...marks.map(([cls, text]) => el("span", { class: `mark ${cls}` }, text))));
  return out;
}

// The table's own clock (dipclock.screen for that table, served by server/grid.py): its big
// number, label and deadline; then what the TD did to it alone: extra time and holds.
function tileClock(t) {
  const c = t.clock;
  if (!c) return [];
  const own = [
    ...(t.adjustments || []).map((a) =>
      el("span", { class: "mark own" }, words("{sign}{seconds} s at {time}",
        { sign: a.seconds > 0 ? "+" : "−", seconds: Math.abs(a.seconds), time: hhmm(a.at) }))),
    // a running hold is in the label already ("Table held by the TD: ruling"): only a due one
    ...(t.holds || []).filter((h) => h.state === "due").map((h) =>
      el("span", { class: "mark warn own" }, h.reason ? words("Hold due: {reason}", { reason: h.reason })
        : words("Hold due"))),
  ];
  return [
    el("div", { class: "tile-clock" },
      el("span", { class: "tile-big", "data-table": t.table }, bigNow(c)),
      el("span", { class: "tile-label small" }, c.label)),
    c.deadline || c.phase ? el("div", { class: "small muted tile-deadline" },
      [c.phase, c.deadline].filter(Boolean).join(" · ")) : null,
    own.length ? el("div", { class: "marks tile-own" }, ...own) : null,
  ];
}

// Between polls each tile's big number ticks down as its kiosk's does (common.js bigNow).
function tickTiles() {
  if (!last || !last.data.tables) return;
  for (const t of last.data.tables) {
    const big = document.querySelector(`.tile-big[data-table="${t.table}"]`);
    if (big && t.clock) big.textContent = bigNow(t.clock);
  }
}
if (page === "dashboard") setInterval(tickTiles, 250);

function renderGrid(tables) {
  const up = tables.filter((t) => t.connected).length;
  $("tables-summary").textContent = tables.length
    ? words("{up}/{total} connected", { up, total: tables.length }) : words("none yet");
  $("grid").replaceChildren(...tables.map((t) => {
    const v = t.view;
    const sync = t.offset === null ? words("no sync yet") :
      words("{offset} ms · rtt {rtt} ms",  // no "-0"
        { offset: Math.round(t.offset * 1000) || 0, rtt: Math.round(t.rtt * 1000) });
    const chips = (t.powers || []).map((p) => {
      let cls = "chip", text = p.power;
      if (p.out) cls += " out";
      else if (p.late !== null) { cls += " late"; text += ` +${p.late}s`; }
      else if (p.in) cls += " in";
      return el("span", { class: cls, title: p.heading_for || "" }, text);
    });
    const claimed = t.claims.length ? " claimed" : "";
    const own = (t.adjustments || []).length || (t.holds || []).length ? " own" : "";
    return el("div", { class: `tile ${t.connected ? "up" : "down"} ${v ? v.stage : ""}${claimed}${own}`, "data-table": t.table },
      el("div", { class: "tile-head" },
        el("strong", {}, words("Table {table}", { table: t.table })),
        el("span", { class: "dot", title: t.connected ? words("connected") : words("not connected") })),

      ...tileClock(t),
      ...kioskLines(t),
      el("div", { class: "muted small" }, sync),
      el("div", { class: "chips" }, ...chips),
      t.late_note ? el("div", { class: "late-note small" }, t.late_note) : null);
  }));
}

// What the TD is typing in a note survives the 2-second refresh.
