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
  fillSelect(picker, d.rounds.map((r) => [String(r.number), r.undecided
    ? words("Round {round} ({n} to decide)", { round: r.number, n: r.undecided })
    : words("Round {round}", { round: r.number })]));
  picker.hidden = !d.rounds.length;
  if (d.review_round !== null) picker.value = String(d.review_round);
  $("csv-round").textContent = d.review_round === null ? "CSV"
    : words("CSV, round {round}", { round: d.review_round });
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
  // (and again in another language)
  const shown = JSON.stringify([rows, d ? d.review_round : null, document.documentElement.lang]);
  if (shown === renderPenalties.shown && list.childElementCount) return;
  renderPenalties.shown = shown;
  if (!rows.length) {
    $("penalties").replaceChildren(el("li", { class: "muted" },
      d && d.review_round !== null
        ? words("No late or missing orders in round {round}.", { round: d.review_round })
        : words("No late or missing orders in this round.")));
    return;
  }
  $("penalties").replaceChildren(...rows.map((r) => {
    const id = `${r.round}-${r.table}-${r.power}-${r.phase}`;
    const key = { round: r.round, table: r.table, power: r.power, phase: r.phase };
    const note = el("input", {
      placeholder: words("note"), maxlength: 500, value: drafts.get(id) ?? (r.note || ""),
      "aria-label": words("note"),
    });
    note.addEventListener("input", () => drafts.set(id, note.value));
    const fields = { table: r.table, power: r.power_name, player: r.player,
      phase: r.phase_said || r.phase };
    const proposed = r.proposed_said || r.proposed.text || r.proposed.label;
    const what = r.player ? words("table {table} {power} ({player}) {phase}", fields)
      : words("table {table} {power} {phase}", fields);
    const decide = (decision) => {
      const body = { ...key, decision, note: note.value };
      if (decision === "change") {
        const final = window.prompt(words("New penalty for {what}:", { what }),
          r.final || proposed);
        if (!final) return;
        body.final = final;
      }
      const question = decision === "confirm" ? words("Confirm the penalty for {what}?", { what })
        : decision === "waive" ? words("Waive the penalty for {what}?", { what })
          : words("Change the penalty for {what}?", { what });
      act(question, "POST", "/api/td/penalties", body)
        .then((done) => { if (done) drafts.delete(id); });
    };
    // a graduated penalty deletes orders: the TD types the power's units to have them named;
    // what is typed stays a draft, as the note does, until it is saved (a refresh draws the
    // row anew once the TD's thumb has left the field)
    const unitsId = "units:" + id;
    const units = r.units_asked ? el("input", {
      class: "units", placeholder: words("units: A Vie, A Bud, F Tri"), maxlength: 400,
      value: drafts.get(unitsId) ?? (r.units || []).join(", "), "aria-label": words("units"),
    }) : null;
    if (units) units.addEventListener("input", () => drafts.set(unitsId, units.value));
    const saveUnits = () => act(units.value
      ? words("Set the units of {what} to \"{units}\"?", { what, units: units.value })
      : words("Set the units of {what} to none?", { what }), "PUT",
    "/api/td/units", { ...key, units: units.value })
      .then((done) => { if (done) drafts.delete(unitsId); });
    return el("li", { class: "penalty" + (r.decision ? " decided" : ""), id: "pen-" + id },
      el("div", {},
        el("strong", {}, r.player ? words("T{table} {power} ({player}) {phase}", fields)
          : words("T{table} {power} {phase}", fields)),
        " ", r.kind === "missed" ? words("no press recorded →")
          : words("{s} s late (offence {offence}) →", { s: r.started_second, offence: r.offence }),
        " ", el("em", {}, proposed),
        r.decision ? el("span", { class: "verdict" }, ` ✓ ${r.final}`) : null),
      units ? el("div", { class: "row tight" }, units,
        el("button", { class: "small", onclick: saveUnits }, words("Units"))) : null,
      el("div", { class: "row tight" }, note,
        el("button", { class: "small", onclick: () => decide("confirm") }, words("Confirm")),
        el("button", { class: "small", onclick: () => decide("waive") }, words("Waive")),
        el("button", { class: "small", onclick: () => decide("change") }, words("Change"))));
  }));
}

// An "HH:MM" on the hub's clock: today, or tomorrow if that time has passed.
