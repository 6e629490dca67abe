// dipclock dashboard: the Event files card (server/routers/exports.py). The World Diplomacy
// Database's two files; the event archive, to keep or to carry the event to another hub;
// and importing one here. Loaded after common.js; wires itself on the dashboard.
"use strict";

// ``said``: what the TD does with the file, a whole sentence with the file's {file} name
async function saveEventFile(path, fallback, said) {
  const saved = await saveFromHub(path, fallback);
  if (!saved) return;
  const notes = saved.res.headers.get("X-Dipclock-Notes");
  toast(notes ? plural("Saved {file}: {n} player not on the roster was named as best the " +
    "hub could; add them to the roster and save again", "Saved {file}: {n} players not on " +
    "the roster were named as best the hub could; add them to the roster and save again",
  Number(notes), { file: saved.name }) : said(saved.name));
}

async function importArchive() {
  const input = $("archive-file");
  const file = input.files[0];
  if (!file) return;
  try {
    if (!window.confirm(words("Carry on the event saved in {file} on this hub? Its roster, " +
      "rounds, seating, presses, rulings and sheets come here; this hub keeps its own " +
      "paired tables and password.", { file: file.name }))) return;
    const r = await sendZipConfirmed("/api/td/import/archive", file);
    if (!r) return;
    if (r.status === 401) { showSignIn(); return toast(words("Sign in as the TD first"), true); }
    if (r.status !== 200) {
      return toast((r.data && r.data.detail)
        || words("Import refused (HTTP {status})", { status: r.status }), true);
    }
    $("archive-done").textContent = words("{summary}. Check the rounds, the standings and " +
      "the tables now.", { summary: r.data.summary });
    $("archive-done").hidden = false;
    toast(words("Event imported"));
    refresh();
  } finally {
    input.value = "";
  }
}

function wireExports() {
  $("btn-wdd").onclick = () => saveEventFile("/api/td/export/wdd", "wdd.zip", (file) =>
    words("Saved {file}: send its two files to the World Diplomacy Database", { file }));
  $("btn-archive").onclick = () => saveEventFile("/api/td/export/archive",
    "dipclock-event.zip", (file) => words("Saved {file}: keep it with the event's papers", { file }));
  $("archive-file").addEventListener("change", importArchive);
}

if (page === "dashboard") wireExports();
