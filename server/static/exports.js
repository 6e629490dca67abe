// dipclock dashboard: the Event files card (server/routers/exports.py). The World Diplomacy
// Database's two files; the event archive, to keep or to carry the event to another hub;
// and importing one here. Loaded after common.js; wires itself on the dashboard.
"use strict";

async function saveEventFile(path, fallback, said) {
  const saved = await saveFromHub(path, fallback);
  if (!saved) return;
  const notes = saved.res.headers.get("X-Dipclock-Notes");
  toast(notes ? `Saved ${saved.name}: ${notes} player(s) not on the roster were named as ` +
    "best the hub could; add them to the roster and save again" : `Saved ${saved.name}${said}`);
}

async function importArchive() {
  const input = $("archive-file");
  const file = input.files[0];
  if (!file) return;
  try {
    if (!window.confirm(`Carry on the event saved in ${file.name} on this hub? Its roster, ` +
      "rounds, seating, presses, rulings and sheets come here; this hub keeps its own " +
      "paired tables and password.")) return;
    const r = await sendZipConfirmed("/api/td/import/archive", file);
    if (!r) return;
    if (r.status === 401) { showSignIn(); return toast("Sign in as the TD first", true); }
    if (r.status !== 200) {
      return toast((r.data && r.data.detail) || `Import refused (HTTP ${r.status})`, true);
    }
    $("archive-done").textContent = `${r.data.summary}. Check the rounds, the standings ` +
      "and the tables now.";
    $("archive-done").hidden = false;
    toast("Event imported");
    refresh();
  } finally {
    input.value = "";
  }
}

function wireExports() {
  $("btn-wdd").onclick = () => saveEventFile("/api/td/export/wdd", "wdd.zip",
    ": send its two files to the World Diplomacy Database");
  $("btn-archive").onclick = () => saveEventFile("/api/td/export/archive",
    "dipclock-event.zip", ": keep it with the event's papers");
  $("archive-file").addEventListener("change", importArchive);
}

if (page === "dashboard") wireExports();
