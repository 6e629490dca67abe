// dipclock dashboard: the grid of tables, one tile per table.
// Loaded after common.js; the page's scripts share one scope (no build step).
"use strict";

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
  if (t.press_note) out.push(el("div", { class: "claim" }, t.press_note));
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

// The table's own clock (dipclock.screen for that table, served by server/grid.py): its big
// number, label and deadline; then what the TD did to it alone: extra time and holds.
function tileClock(t) {
  const c = t.clock;
  if (!c) return [];
  const own = [
    ...(t.adjustments || []).map((a) =>
      el("span", { class: "mark own" }, `${a.seconds > 0 ? "+" : "−"}${Math.abs(a.seconds)} s at ${hhmm(a.at)}`)),
    // a running hold is in the label already ("Table held by the TD: ruling"): only a due one
    ...(t.holds || []).filter((h) => h.state === "due").map((h) =>
      el("span", { class: "mark warn own" }, `Hold due${h.reason ? ": " + h.reason : ""}`)),
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
    const claimed = t.claims.length ? " claimed" : "";
    const own = (t.adjustments || []).length || (t.holds || []).length ? " own" : "";
    return el("div", { class: `tile ${t.connected ? "up" : "down"} ${v ? v.stage : ""}${claimed}${own}`, "data-table": t.table },
      el("div", { class: "tile-head" },
        el("strong", {}, `Table ${t.table}`),
        el("span", { class: "dot", title: t.connected ? "connected" : "not connected" })),
      ...tileClock(t),
      ...kioskLines(t),
      el("div", { class: "muted small" }, sync),
      el("div", { class: "chips" }, ...chips),
      t.late_note ? el("div", { class: "late-note small" }, t.late_note) : null);
  }));
}

// What the TD is typing in a note survives the 2-second refresh.
