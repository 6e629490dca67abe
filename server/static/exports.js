// dipclock dashboard: the Event files card (server/routers/exports.py). The World Diplomacy
// Database's two files; the event archive, to keep or to carry the event to another hub;
// and importing one here. Loaded after common.js; wires itself on the dashboard.
"use strict";

async function saveEventFile(path, fallback, said) {
  const res = await fetch(path, { credentials: "same-origin" });
  if (!res.ok) {
    let detail = `${res.status} ${res.statusText}`;
    try { detail = (await res.json()).detail || detail; } catch (e) { /* not JSON */ }
    if (res.status === 401) showSignIn();
    return toast(detail, true);
  }
  const name = (/filename="([^"]+)"/.exec(res.headers.get("Content-Disposition") || "") || [])[1]
    || fallback;
  const url = URL.createObjectURL(await res.blob());
  const a = el("a", { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
  const notes = res.headers.get("X-Dipclock-Notes");
  toast(notes ? `Saved ${name}: ${notes} player(s) not on the roster were named as best ` +
    "the hub could; add them to the roster and save again" : `Saved ${name}${said}`);
}

async function sendArchive(file, replace) {
  const res = await fetch(`/api/td/import/archive${replace ? "?replace=true" : ""}`, {
    method: "POST", credentials: "same-origin", body: file,
    headers: { "Content-Type": "application/zip", "Accept": "application/json",
               "X-CSRF-Token": csrf || "" },
  });
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  return { status: res.status, data };
}

async function importArchive() {
  const input = $("archive-file");
  const file = input.files[0];
  if (!file) return;
  try {
    if (!window.confirm(`Carry on the event saved in ${file.name} on this hub? Its roster, ` +
      "rounds, seating, presses, rulings and sheets come here; this hub keeps its own " +
      "paired tables and password.")) return;
    let r = await sendArchive(file, false);
    if (r.status === 409 && r.data && /Confirm again/.test(r.data.detail || "")) {
      if (!window.confirm(r.data.detail)) return;
      r = await sendArchive(file, true);
    }
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
