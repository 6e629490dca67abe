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
  const counts = [plural("{n} paired", "{n} paired", paired.length)];
  if (waiting.length) counts.push(plural("{n} waiting", "{n} waiting", waiting.length));
  $("clocks-summary").textContent = `· ${counts.join(" · ")}`;
  renderWaiting(waiting);
  $("paired").replaceChildren(...paired.map((p) => el("li", { "data-table": p.table },
    el("span", {}, words("Table {table} · clock {clock} · {address} · since {time}", {
      table: p.table, clock: p.kiosk.slice(0, 8), address: p.address, time: hhmm(p.paired),
    }) + " "),
    el("button", { class: "plain", onclick: () => act(
      words("Revoke the clock of table {table} ({address})? It stops at once and shows a new code.",
        { table: p.table, address: p.address }),
      "DELETE", `/api/td/clocks/${p.id}`) }, words("Revoke")))));
  const plain = c.fingerprint === null;
  // a line may break after a colon, never inside a pair of digits: read against the
  // browser's copy, "C" + "D" on two lines reads as two pairs
  $("fingerprint").replaceChildren(...(plain ? [words("none: plain HTTP")] : c.fingerprint.split(":")
    .flatMap((pair, i) => i ? [":", document.createElement("wbr"), pair] : [pair])));
  $("plain-http").hidden = !plain;
}

// The TD's check is the code on the clock's own screen: what is typed (or tapped) must be
// what the clock shows, and the table is the TD's to say.
function pair(code, table) {
  act(words("Pair the clock showing {code} for table {table}?", { code, table }), "POST",
    "/api/td/clocks", { code, table })
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
    const asks = w.wished ? words("asks for table {table}", { table: w.wished })
      : words("no table on its card");
    const row = el("li", { class: w.other_certificate ? "bad" : "", "data-code": w.code },
      el("span", {}, el("b", { class: "code" }, w.code), ` · ${asks} · ${w.address} · ${hhmm(w.asked)}`));
    if (w.same_id_as && w.same_id_as.length) {
      row.append(el("span", { class: "small" },
        words("It says it is the clock of {clocks}. Pairing it does not revoke that one: check " +
          "which card is which.", { clocks: w.same_id_as.join(", ") })));
    }
    if (w.other_certificate) {
      row.append(el("span", { class: "small" },
        words("This clock sees another certificate than this hub's: something may be between " +
          "them. Do not pair it.")));
    } else if (w.wished) {
      row.append(el("button", { class: "go", onclick: () => pair(w.code, w.wished) },
        words("Pair for table {table}", { table: w.wished })));
    }
    row.append(el("button", { class: "plain", onclick: () => act(
      words("Refuse the clock showing {code}?", { code: w.code }),
      "POST", "/api/td/clocks/refuse", { code: w.code }) }, words("Refuse")));
    return row;
  }));
  const many = waiting.length > WAITING_SHOWN;
  const addresses = new Set(waiting.map((w) => w.address)).size;
  let note = "";
  if (typed && !found.length) {
    note = words("No clock waiting shows {code}.", { code: $("pair-code").value.trim() });
  } else if (many && found.length > shown.length) {
    // how many clocks and from how many addresses: a sentence for each count's form
    const from = plural("{clocks} clocks are waiting, from {n} address", "{clocks} clocks are " +
      "waiting, from {n} addresses", addresses, { clocks: waiting.length });
    note = typed
      ? words("{waiting}: {found} match; type more of the code.", { waiting: from, found: found.length })
      : words("{waiting}: the newest are shown. Type the code your clock shows to find it.",
        { waiting: from });
  }
  $("waiting-note").textContent = note;
  $("waiting-note").hidden = !note;
  const all = $("btn-refuse-all");
  all.hidden = waiting.length < 2;
  all.textContent = words("Refuse all {n} waiting", { n: waiting.length });
}

function wireClocks() {
  $("pair-code").addEventListener("input", () => { if (lastClocks) renderWaiting(lastClocks.waiting); });
  $("btn-refuse-all").onclick = () => {
    const n = lastClocks ? lastClocks.waiting.length : 0;
    act(words("Refuse all {n} clocks waiting to be paired? A real clock among them shows a new " +
      "code.", { n }), "POST", "/api/td/clocks/refuse-all");
  };
  $("pair-form").onsubmit = (e) => {
    e.preventDefault();
    const code = $("pair-code").value.trim(), table = Number($("pair-table").value);
    if (!code) return toast(words("Type the code the clock shows"), true);
    if (!(table >= 1 && table <= 999)) return toast(words("Give the table's number (1 to 999)"), true);

    pair(code.toUpperCase(), table);
  };
}
