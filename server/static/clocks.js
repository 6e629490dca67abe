// dipclock dashboard: the Clocks card, pairing each table's clock (server/pairing.py).
// Loaded after common.js; the page's scripts share one scope (no build step).
"use strict";

// The clocks waiting for the TD, each with the code its screen shows and the table its
// card asks for; the clocks paired, by table; and this hub's certificate, to check once.
function renderClocks(c) {
  const waiting = c.waiting, paired = c.paired;
  $("clocks-summary").textContent = `· ${paired.length} paired` +
    (waiting.length ? ` · ${waiting.length} waiting` : "");
  $("waiting").replaceChildren(...waiting.map((w) => {
    const asks = w.wished ? `asks for table ${w.wished}` : "no table on its card";
    const row = el("li", { class: w.other_certificate ? "bad" : "", "data-code": w.code },
      el("span", {}, el("b", { class: "code" }, w.code), ` · ${asks} · ${w.address} · ${hhmm(w.asked)}`));
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

function wireClocks() {
  $("pair-form").onsubmit = (e) => {
    e.preventDefault();
    const code = $("pair-code").value.trim(), table = Number($("pair-table").value);
    if (!code) return toast("Type the code the clock shows", true);
    if (!(table >= 1 && table <= 999)) return toast("Give the table's number (1 to 999)", true);
    pair(code.toUpperCase(), table);
  };
}
