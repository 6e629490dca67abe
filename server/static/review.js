// dipclock dashboard: late orders for the TD to rule on.
// Loaded after common.js; the page's scripts share one scope (no build step).
"use strict";

const drafts = new Map();
// The round whose late orders the TD is reviewing: null for the current round (the hub's
// default). Every round stays reviewable after the next is set up.
let reviewRound = null;

function statePath() {
  return "/api/td/state" + (reviewRound === null ? "" : `?review=${reviewRound}`);
}

function renderReviewPicker(d) {
  const picker = $("review-round");
  if (!picker.onchange) {
    picker.onchange = () => { reviewRound = Number(picker.value) || null; refresh(); };
  }
  fillSelect(picker, d.rounds.map((r) => [String(r.number),
    `Round ${r.number}` + (r.undecided ? ` (${r.undecided} to decide)` : "")]));
  picker.hidden = !d.rounds.length;
  if (d.review_round !== null) picker.value = String(d.review_round);
  $("csv-round").textContent = d.review_round === null ? "CSV" : `CSV, round ${d.review_round}`;
  $("csv-round").href = "/api/penalties.csv" + (d.review_round === null ? "" : `?round=${d.review_round}`);
  $("csv-all").hidden = d.rounds.length < 2;
}

function renderPenalties(rows, d) {
  if (d) renderReviewPicker(d);
  const list = $("penalties");
  const typing = document.activeElement;
  if (typing && typing.tagName === "INPUT" && list.contains(typing)) return;  // not under the TD's thumb
  // drawn again only when something changed: a poll redrawing the same rows under a tap
  // (between the finger going down and coming up) would lose the tap
  const shown = JSON.stringify([rows, d ? d.review_round : null]);
  if (shown === renderPenalties.shown && list.childElementCount) return;
  renderPenalties.shown = shown;
  if (!rows.length) {
    $("penalties").replaceChildren(el("li", { class: "muted" },
      d && d.review_round !== null ? `No late or missing orders in round ${d.review_round}.`
        : "No late or missing orders in this round."));
    return;
  }
  $("penalties").replaceChildren(...rows.map((r) => {
    const id = `${r.round}-${r.table}-${r.power}-${r.phase}`;
    const key = { round: r.round, table: r.table, power: r.power, phase: r.phase };
    const note = el("input", {
      placeholder: "note", maxlength: 500, value: drafts.get(id) ?? (r.note || ""), "aria-label": "note",
    });
    note.addEventListener("input", () => drafts.set(id, note.value));
    const what = `table ${r.table} ${r.power_name}${r.player ? ` (${r.player})` : ""} ${r.phase}`;
    const decide = (decision) => {
      const body = { ...key, decision, note: note.value };
      if (decision === "change") {
        const final = window.prompt(`New penalty for ${what}:`, r.final || r.proposed.text || r.proposed.label);
        if (!final) return;
        body.final = final;
      }
      const verb = { confirm: "Confirm", waive: "Waive", change: "Change" }[decision];
      act(`${verb} the penalty for ${what}?`, "POST", "/api/td/penalties", body)
        .then((done) => { if (done) drafts.delete(id); });
    };
    // a graduated penalty deletes orders: the TD types the power's units to have them named;
    // what is typed stays a draft, as the note does, until it is saved (a refresh draws the
    // row anew once the TD's thumb has left the field)
    const unitsId = "units:" + id;
    const units = r.units_asked ? el("input", {
      class: "units", placeholder: "units: A Vie, A Bud, F Tri", maxlength: 400,
      value: drafts.get(unitsId) ?? (r.units || []).join(", "), "aria-label": "units",
    }) : null;
    if (units) units.addEventListener("input", () => drafts.set(unitsId, units.value));
    const saveUnits = () => act(`Set the units of ${what} to "${units.value || "none"}"?`, "PUT",
      "/api/td/units", { ...key, units: units.value })
      .then((done) => { if (done) drafts.delete(unitsId); });
    return el("li", { class: "penalty" + (r.decision ? " decided" : ""), id: "pen-" + id },
      el("div", {},
        el("strong", {}, `T${r.table} ${r.power_name}${r.player ? ` (${r.player})` : ""} ${r.phase}`),
        r.kind === "missed" ? " no press recorded → " : ` ${r.started_second} s late (offence ${r.offence}) → `,
        el("em", {}, r.proposed.text || r.proposed.label),
        r.decision ? el("span", { class: "verdict" }, ` ✓ ${r.final}`) : null),
      units ? el("div", { class: "row tight" }, units,
        el("button", { class: "small", onclick: saveUnits }, "Units")) : null,
      el("div", { class: "row tight" }, note,
        el("button", { class: "small", onclick: () => decide("confirm") }, "Confirm"),
        el("button", { class: "small", onclick: () => decide("waive") }, "Waive"),
        el("button", { class: "small", onclick: () => decide("change") }, "Change")));
  }));
}

// An "HH:MM" on the hub's clock: today, or tomorrow if that time has passed.
