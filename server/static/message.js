// dipclock: the TD's hall message (dipclock/hallmessage.py). On the dashboard, its card:
// type it, send it (for some minutes, or until cleared), clear it. On the hall clock, the
// banner at the top, hidden at its end by the hub's time the page ticks, and a short chime
// for each new message once the page's sound is on (a browser plays nothing before a tap).
// Loaded after common.js; the page's scripts share one scope (no build step).
"use strict";

// --- the dashboard's card ----------------------------------------------------------------

// 13:45, or 13:45:20 when the end is not on a whole minute (a message set for N minutes).
function messageClock(iso) {
  return iso.slice(17, 19) === "00" ? hhmm(iso) : hhmmss(iso);
}

// The message shown now (the state's ``message``), with when it goes, on the venue's clock.
function renderMessage(m) {
  $("message-summary").textContent = m ? words("· shown") : words("· none");
  $("message-now").hidden = !m;
  $("btn-message-clear").disabled = !m;
  if (!m) return;
  $("message-now").replaceChildren(
    el("span", { class: "message-text" }, m.text), " ",
    el("span", { class: "message-when small" }, m.until
      ? words("since {since} · until {until}", { since: messageClock(m.since),
        until: messageClock(m.until) })
      : words("since {since} · until you clear it", { since: messageClock(m.since) })));
}

// The form is not checked by the browser (novalidate): a wrong number of minutes is said
// by the hub, in the same one line as any other mistake.
function wireMessage() {
  $("message-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const text = $("message-text").value.trim(), box = $("message-minutes");
    if (!text) return toast(words("Type the message first"), true);
    if (box.validity.badInput) {
      return toast(words("Minutes: a whole number from 1 to 720, or none"), true);
    }
    const minutes = box.value.trim() === "" ? null : Number(box.value);
    const shown = last && last.data.message;
    const ask = minutes === null
      ? words("Show \"{text}\" on every table and the hall clock, until you clear it?", { text })
      : words("Show \"{text}\" on every table and the hall clock, for {minutes} min?",
        { text, minutes });
    const done = await act(shown ? words("{question} It replaces \"{shown}\".",
      { question: ask, shown: shown.text }) : ask, "PUT", "/api/td/message", { text, minutes });
    if (done) { $("message-text").value = ""; box.value = ""; }
  });
  $("btn-message-clear").onclick = () => {
    const shown = last && last.data.message;
    if (!shown) return toast(words("No hall message is shown"), true);
    act(words("Clear \"{text}\" from every table and the hall clock?", { text: shown.text }),
      "DELETE", "/api/td/message");
  };
  onLanguage(() => renderMessage(last && last.data.message));
}

// --- the hall clock's banner and chime ---------------------------------------------------

// Whether the message shows at hub time ``now`` (POSIX seconds): until its end, as the
// tables' clocks decide it (dipclock.hallmessage.shown).
function messageShown(m, now) {
  return Boolean(m) && (m.ends === null || now === null || now < m.ends);
}

const hallSound = { on: false, audio: null, heard: undefined, chimes: 0 };

// A falling two-note chime, as the tables' clocks play it (kiosk/sound.py "message").
function chime() {
  const a = hallSound.audio;
  if (!a) return;
  let t = a.currentTime + 0.02;
  for (const [freq, seconds] of [[784, 0.22], [0, 0.04], [523, 0.4]]) {
    if (freq) {
      const tone = a.createOscillator(), gain = a.createGain();
      tone.frequency.value = freq;
      gain.gain.setValueAtTime(0, t);
      gain.gain.linearRampToValueAtTime(0.3, t + 0.01);
      gain.gain.setValueAtTime(0.3, t + seconds - 0.02);
      gain.gain.linearRampToValueAtTime(0, t + seconds);
      tone.connect(gain).connect(a.destination);
      tone.start(t);
      tone.stop(t + seconds);
    }
    t += seconds;
  }
}

// The sound button says whether the hall's chimes are on, in the page's language.
function soundLabel() {
  const button = $("hall-sound");
  if (button) button.textContent = hallSound.on ? words("Sound on") : words("Sound off");
}

// The tap that turns the sound on is what lets the browser play it: the audio starts there.
function toggleHallSound() {
  hallSound.on = !hallSound.on;
  if (hallSound.on) {
    try {
      hallSound.audio = hallSound.audio || new AudioContext();
      hallSound.audio.resume();
      chime();  // heard now: the sound works, and how a message will sound
    } catch (e) {
      hallSound.on = false;
    }
  }
  const button = $("hall-sound");
  soundLabel();
  button.setAttribute("aria-pressed", String(hallSound.on));
}

// The banner for the hall's last answer (``data.message``, polled by hall.js), above the
// clock, which moves down by its height; a chime for a message the page had not shown yet
// (not one already up when it opened), where the sound is on.
function renderHallMessage(data) {
  if (!data) return;  // the hub not heard yet
  const m = messageShown(data.message, hubNow()) ? data.message : null;
  const banner = $("hall-message");
  if ((m ? m.text : "") !== banner.textContent || banner.hidden !== !m) {
    banner.textContent = m ? m.text : "";
    banner.hidden = !m;
    placeHallMessage(data.clock);
  }
  const key = m ? `${m.since} ${m.text}` : null;  // the same words set again are news too
  const news = m && hallSound.heard !== undefined && key !== hallSound.heard;
  if (m || hallSound.heard === undefined) hallSound.heard = key;
  if (news && hallSound.on) {
    hallSound.chimes += 1;
    document.body.dataset.chimes = String(hallSound.chimes);  // what a test can read
    chime();
  }
}

// The banner's share of the screen's height at most, and its text sizes (vw), largest
// first: a long message (up to 120 characters of wide capitals, dipclock/hallmessage.py)
// wraps, then is drawn smaller, and never pushes the clock off the screen.
const MESSAGE_MOST = 0.25;
const MESSAGE_SIZES = [3.4, 3, 2.6, 2.3, 2, 1.8, 1.6, 1.4];

function fitHallMessage(banner) {
  banner.style.fontSize = "";
  if (banner.hidden) return;
  for (const size of MESSAGE_SIZES) {
    banner.style.fontSize = `${size}vw`;
    if (banner.offsetHeight <= window.innerHeight * MESSAGE_MOST) return;
  }
}

// The page below the banner starts under it; the clock and its list refit (hall.js).
function placeHallMessage(clock) {
  const banner = $("hall-message");
  fitHallMessage(banner);
  document.body.style.paddingTop = banner.hidden ? "" : `${banner.offsetHeight}px`;
  if (typeof fitApart === "function") fitApart(clock);
}

function wireHallMessage() {
  $("hall-sound").addEventListener("click", toggleHallSound);
  setInterval(() => renderHallMessage(last && last.data), 250);  // its end, by hub time
  window.addEventListener("resize", () => placeHallMessage(last && last.data.clock));
}

if (page === "hall") wireHallMessage();
