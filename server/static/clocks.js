// dipclock dashboard: the Clocks card, pairing each table's clock (server/pairing.py).
// Loaded after common.js; the page's scripts share one scope (no build step).
"use strict";

// The clocks waiting for the TD, each with the code its screen shows and the table its
// card asks for; the clocks paired, by table; and this hub's certificate, to check once.
// Past WAITING_SHOWN waiting (a flood of requests), the list shows the newest and those
// whose code matches what the TD types in the code field, so the clock in front of the TD
// is found at once; "Refuse all" clears the rest in one action.
const WAITING_SHOWN = 8;
let lastClocks = null;

function renderClocks(c) {
  lastClocks = c;
  const waiting = c.waiting, paired = c.paired;
  $("clocks-summary").textContent = `· ${paired.length} paired` +
    (waiting.length ? ` · ${waiting.length} waiting` : "");
  renderWaiting(waiting);
  $("paired").replaceChildren(...paired.map((p) => el("li", { "data-table": p.table },
    el("span", {}, `Table ${p.table} · clock ${p.kiosk.slice(0, 8)} · ${p.address} · since ${hhmm(p.paired)} `),
    el("button", { class: "plain", onclick: () => act(
      `Revoke the clock of table ${p.table} (${p.address})? It stops at once and shows a new code.`,
      "DELETE", `/api/td/clocks/${p.id}`) }, "Revoke"))));
  const plain = c.fingerprint === null;
  // a line may break after a colon, never inside a pair of digits: read against the
  // browser's copy, "C" + "D" on two lines reads as two pairs
  $("fingerprint").replaceChildren(...(plain ? ["none: plain HTTP"] : c.fingerprint.split(":")
    .flatMap((pair, i) => i ? [":", document.createElement("wbr"), pair] : [pair])));
  $("plain-http").hidden = !plain;
}

// The TD's check is the code on the clock's own screen: what is typed (or tapped) must be
// what the clock shows, and the table is the TD's to say.
function pair(code, table) {
  act(`Pair the clock showing ${code} for table ${table}?`, "POST", "/api/td/clocks", { code, table })
    .then((done) => { if (done) { $("pair-code").value = ""; $("pair-table").value = ""; } });
}

// A code as typed, to match a shown one: any case, with or without the dash or spaces.
function bareCode(text) {
  return text.toUpperCase().replace(/[\s-]/g, "");
}

function renderWaiting(waiting) {
  const typed = bareCode($("pair-code").value);
  const found = typed ? waiting.filter((w) => bareCode(w.code).includes(typed)) : waiting;
  const shown = found.slice(-WAITING_SHOWN);
  $("waiting").replaceChildren(...shown.map((w) => {
    const asks = w.wished ? `asks for table ${w.wished}` : "no table on its card";
    const row = el("li", { class: w.other_certificate ? "bad" : "", "data-code": w.code },
      el("span", {}, el("b", { class: "code" }, w.code), ` · ${asks} · ${w.address} · ${hhmm(w.asked)}`));
    if (w.same_id_as && w.same_id_as.length) {
      row.append(el("span", { class: "small" },
        `It says it is the clock of ${w.same_id_as.join(", ")}. Pairing it does not revoke that one: ` +
        "check which card is which."));
    }
    if (w.other_certificate) {
      row.append(el("span", { class: "small" },
        "This clock sees another certificate than this hub's: something may be between them. Do not pair it."));
    } else if (w.wished) {
      row.append(el("button", { class: "go", onclick: () => pair(w.code, w.wished) }, `Pair for table ${w.wished}`));
    }
    row.append(el("button", { class: "plain", onclick: () => act(`Refuse the clock showing ${w.code}?`,
      "POST", "/api/td/clocks/refuse", { code: w.code }) }, "Refuse"));
    return row;
  }));
  const many = waiting.length > WAITING_SHOWN;
  const addresses = new Set(waiting.map((w) => w.address)).size;
  let note = "";
  if (typed && !found.length) note = `No clock waiting shows ${$("pair-code").value.trim()}.`;
  else if (many && found.length > shown.length) {
    note = `${waiting.length} clocks are waiting, from ${addresses} address${addresses === 1 ? "" : "es"}: ` +
      (typed ? `${found.length} match; type more of the code.` : "the newest are shown. Type the code your clock shows to find it.");
  }
  $("waiting-note").textContent = note;
  $("waiting-note").hidden = !note;
  const all = $("btn-refuse-all");
  all.hidden = waiting.length < 2;
  all.textContent = `Refuse all ${waiting.length} waiting`;
}

function wireClocks() {
  $("pair-code").addEventListener("input", () => { if (lastClocks) renderWaiting(lastClocks.waiting); });
  $("btn-refuse-all").onclick = () => {
    const n = lastClocks ? lastClocks.waiting.length : 0;
    act(`Refuse all ${n} clocks waiting to be paired? A real clock among them shows a new code.`,
      "POST", "/api/td/clocks/refuse-all");
  };
  $("pair-form").onsubmit = (e) => {
    e.preventDefault();
    const code = $("pair-code").value.trim(), table = Number($("pair-table").value);
    if (!code) return toast("Type the code the clock shows", true);
    if (!(table >= 1 && table <= 999)) return toast("Give the table's number (1 to 999)", true);
    pair(code.toUpperCase(), table);
  };
}
