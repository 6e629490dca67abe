// dipclock dashboard: the hub backup card (server/routers/backup.py). Saving it is what
// survives a lost or dead hub card; restoring it on a new hub makes that hub the old one
// (its id, certificate, tables and round), so every paired table comes back by itself.
// Loaded after common.js, before dashboard.js; wires itself on the dashboard.
"use strict";

// When the backup was saved, as the card's title says it: "· saved 5 min ago"
function savedText(seconds) {
  if (seconds === null) return words("· never saved");
  if (seconds < 90) return words("· saved just now");
  if (seconds < 90 * 60) return words("· saved {m} min ago", { m: Math.round(seconds / 60) });
  return words("· saved {h} h ago", { h: Math.round(seconds / 3600) });
}

async function refreshBackup() {
  if ($("app").hidden) return;
  let s;
  try { s = await api("GET", "/api/td/backup/status"); } catch (e) { return; }
  $("backup-summary").textContent = savedText(s.downloaded_ago_s);
  const remind = $("backup-remind");
  remind.hidden = !s.remind;
  remind.textContent = s.downloaded_ago_s === null
    ? words("No hub backup saved yet: save one once the tables are paired.")
    : words("The tables, the round or the hub changed since the last backup: save it again.");
}

async function saveBackup() {
  const saved = await saveFromHub("/api/td/backup", "dipclock-hub-backup.zip");
  if (!saved) return;
  toast(words("Saved {file}: keep it off the hub", { file: saved.name }));
  refreshBackup();
}

async function restoreBackup() {
  const input = $("restore-file");
  const file = input.files[0];
  if (!file) return;
  try {
    if (!window.confirm(words("Restore this hub from {file}? It becomes the hub that file " +
      "was saved from: its tables and its round. Every table paired with that hub comes " +
      "back to this one by itself.", { file: file.name }))) return;
    const r = await sendZipConfirmed("/api/td/restore", file);
    if (!r) return;
    if (r.status === 401) { showSignIn(); return toast(words("Sign in as the TD first"), true); }
    if (r.status !== 200) {
      return toast((r.data && r.data.detail)
        || words("Restore refused (HTTP {status})", { status: r.status }), true);
    }
    toast(words("Restored: this is hub {hub} now", { hub: r.data.hub_id }));
    const made = new Date(r.data.made_at);
    // the date and time as the page's language writes them
    const when = Number.isNaN(made.getTime()) ? r.data.made_at
      : made.toLocaleString(document.documentElement.lang || undefined);
    const clocks = plural("{n} paired clock", "{n} paired clocks", r.data.clocks);
    const rounds = plural("{n} round", "{n} rounds", r.data.rounds);
    $("restore-done").textContent = words("Restored from the backup saved {when} (hub {hub}, " +
      "{clocks}, {rounds}). {check}", { when, hub: r.data.hub_id, clocks, rounds,
      check: r.data.check });
    $("restore-done").hidden = false;
    // the hub now serves the old hub's certificate: this page's next connection may
    // warn once about it, as the old hub's did
    refresh();
    refreshBackup();
  } finally {
    input.value = "";
  }
}

function wireBackup() {
  $("btn-backup").onclick = saveBackup;
  $("restore-file").addEventListener("change", restoreBackup);
  refreshBackup();
  setInterval(refreshBackup, 30000);
  // shown on sign-in: the card is in #app, which sign-in reveals
  new MutationObserver(() => refreshBackup()).observe($("app"), { attributes: true,
    attributeFilter: ["hidden"] });
  onLanguage(refreshBackup);
}

if (page === "dashboard") wireBackup();
