// dipclock dashboard: the hub backup card (server/routers/backup.py). Saving it is what
// survives a lost or dead hub card; restoring it on a new hub makes that hub the old one
// (its id, certificate, tables and round), so every paired table comes back by itself.
// Loaded after common.js, before dashboard.js; wires itself on the dashboard.
"use strict";

function agoText(seconds) {
  if (seconds < 90) return "just now";
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min ago`;
  return `${Math.round(seconds / 3600)} h ago`;
}

async function refreshBackup() {
  if ($("app").hidden) return;
  let s;
  try { s = await api("GET", "/api/td/backup/status"); } catch (e) { return; }
  $("backup-summary").textContent = s.downloaded_ago_s === null
    ? "· never saved" : `· saved ${agoText(s.downloaded_ago_s)}`;
  const remind = $("backup-remind");
  remind.hidden = !s.remind;
  remind.textContent = s.downloaded_ago_s === null
    ? "No hub backup saved yet: save one once the tables are paired."
    : "The tables, the round or the hub changed since the last backup: save it again.";
}

async function saveBackup() {
  const saved = await saveFromHub("/api/td/backup", "dipclock-hub-backup.zip");
  if (!saved) return;
  toast(`Saved ${saved.name}: keep it off the hub`);
  refreshBackup();
}

async function restoreBackup() {
  const input = $("restore-file");
  const file = input.files[0];
  if (!file) return;
  try {
    if (!window.confirm(`Restore this hub from ${file.name}? It becomes the hub that file ` +
      "was saved from: its tables and its round. Every table paired with that hub comes " +
      "back to this one by itself.")) return;
    const r = await sendZipConfirmed("/api/td/restore", file);
    if (!r) return;
    if (r.status === 401) { showSignIn(); return toast("Sign in as the TD first", true); }
    if (r.status !== 200) {
      return toast((r.data && r.data.detail) || `Restore refused (HTTP ${r.status})`, true);
    }
    toast(`Restored: this is hub ${r.data.hub_id} now`);
    const made = new Date(r.data.made_at);
    const when = Number.isNaN(made.getTime()) ? r.data.made_at : made.toLocaleString();
    const count = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
    $("restore-done").textContent = `Restored from the backup saved ${when} (hub ` +
      `${r.data.hub_id}, ${count(r.data.clocks, "paired clock")}, ` +
      `${count(r.data.rounds, "round")}). ${r.data.check}`;
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
}

if (page === "dashboard") wireBackup();
