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
