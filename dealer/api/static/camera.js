// The camera check of one table, for the host setting up a webcam: the camera's latest frame with
// each reading drawn on it, whether the camera is set up well (or what to change), what it reads now
// and how fast it keeps up. Freeze holds a frame to study it. No JSON anywhere.
"use strict";

const $ = (id) => document.getElementById(id);
const REFRESH_MS = 1500;
const RETRY_MS = 2000;   // the server could not be reached
const SLOW_MS = 5000;    // no camera, no token: nothing changes until the server or the address does
const MODES = { table: "watching the table", shoe: "watching the shoe window" };

let frozen = false;
let gen = 0;             // bumped by Freeze and Live: a refresh in flight from before is dropped
let timer = null;
let shownFrame = null;   // the number of the frame whose picture is on the page
let titled = false;

// What keeps the page from showing a frame: the page's state, a headline and what to do about it.
class Trouble extends Error {
  constructor(state, message = "", title = "") { super(message); this.state = state; this.title = title; }
}

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

function troubleFor(res, data) {
  const detail = typeof data.detail === "string" ? data.detail : "";
  if (res.status === 401 || res.status === 403) {
    const why = res.status === 403 ? "The token in the address is not an admin's token" : "This page needs an admin token";
    return new Trouble("no-token", "Open the page with ?token= and an admin token at the end of its address "
      + "(make one on the server with: dealer token create --role admin).", why);
  }
  if (res.status === 404 && data.error === "NoCamera") {
    // "this table has no camera: set devices.camera to …" → a headline and what to do
    const cut = detail.indexOf(": ");
    const [what, how] = cut > 0 ? [detail.slice(0, cut), detail.slice(cut + 2)] : ["This table has no camera", detail];
    return new Trouble("no-camera", capital(how), capital(what));
  }
  if (res.status >= 502 && res.status <= 504) return new Trouble("offline");
  return new Trouble("error", capital(detail) || `The server answered ${res.status} ${res.statusText}.`);
}

async function fetchOk(path) {
  let res;
  try {
    res = await fetch(withToken(path), { cache: "no-store" });
  } catch (e) {
    throw new Trouble("offline");
  }
  if (res.ok) return res;
  throw troubleFor(res, await res.json().catch(() => ({})));
}

const getReport = async () => (await fetchOk(tablePath("camera"))).json();

// The picture as a blob with the number of the frame it shows (asked for with the time, so that no
// cache can answer with an old one).
async function getPicture() {
  const res = await fetchOk(`${tablePath("camera.jpg")}?t=${Date.now()}`);
  return { number: Number(res.headers.get("x-frame-number")), blob: await res.blob() };
}

// A decoded image, ready to replace the one shown without a blank moment in between.
async function decoded(blob) {
  const img = new Image();
  img.src = URL.createObjectURL(blob);
  try {
    await img.decode();
  } catch (e) {
    URL.revokeObjectURL(img.src);
    throw new Trouble("error", "The camera's picture could not be shown: the server sent something else.");
  }
  return img;
}

function showPicture(img, number) {
  const old = $("frame");
  img.id = "frame";
  img.alt = old.alt;
  old.replaceWith(img);
  if (old.src.startsWith("blob:")) URL.revokeObjectURL(old.src);
  shownFrame = number;
}

async function loadTitle() {
  const state = await (await fetchOk(tablePath("state"))).json();
  const name = state.table_name || state.table || "table";
  $("table-name").textContent = `${name} `;
  $("table-name").nextElementSibling.textContent = "camera check";
  document.title = `${name} · camera`;
  titled = true;
}

// ---- drawing ------------------------------------------------------------------------------------
function setState(state) {
  document.body.dataset.state = state;
  const btn = $("freeze");
  btn.textContent = frozen ? "Live" : "Freeze";
  btn.setAttribute("aria-pressed", frozen ? "true" : "false");
  btn.title = frozen ? "Follow the camera again" : "Hold this frame to study it";
}

function notice(title, detail = "") {
  $("notice-title").textContent = title;
  $("notice-detail").textContent = detail;
  $("notice").hidden = !title && !detail;
}

function showPanels(which) {
  for (const name of ["frame", "verdict", "seen", "stats"]) $(`${name}-panel`).hidden = !which.includes(name);
}

function ageText(s) {
  if (s == null) return "";
  if (s < 1) return "just now";
  if (s < 60) return `${s.toFixed(1)} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  return `${Math.round(s / 3600)} h ago`;
}

function frameLine(r) {
  const n = r.frame.number;
  $("frame-text").textContent = frozen ? `Frozen at frame ${n}` : `Live · frame ${n} · ${ageText(r.frame.age_s)}`;
}

function cardLabel(code) {
  if (code === "BK") return "Face down";
  if (code === "JK") return "Joker";
  const suit = code.slice(-1), rank = code.slice(0, -1);
  return `${rank}${SUITS[suit] || suit}`;
}

function seenEl(s) {
  const back = s.card === "BK";
  const red = /[HD]$/.test(s.card) && !back;
  const unsure = !!s.unsure;  // drawn amber in the picture too
  const pct = Math.round(100 * s.confidence);
  const label = cardLabel(s.card);
  const li = el("li", { class: `seen-card${red ? " red" : ""}${unsure ? " unsure" : ""}${back ? " back" : ""}`,
    "data-card": s.card, "data-confidence": s.confidence, title: back ? "a card face down" : `${label}: ${pct} % sure` });
  li.append(el("span", { class: "code", text: back ? "" : label }));
  li.append(el("span", { class: "conf", text: back ? "face down" : unsure ? `${pct} % · unsure` : `${pct} % sure` }));
  return li;
}

// "sim", a camera index ("0"), a video file or a stream URL (devices.camera)
function sourceName(source) {
  if (source === "sim") return "simulated";
  return /^\d+$/.test(source) ? `webcam ${source}` : source;
}

function stat(key, label, value) {
  return [el("dt", { text: label }), el("dd", { "data-stat": key, text: value })];
}

// a table camera reads a frame only when the table changed: the rest are answered without a read
function readShare(r) {
  const read = r.frames_read != null ? r.frames_read : r.frames;
  if (read === r.frames) return `every frame (${read})`;
  return `${read} (the others showed no change)`;
}

function drawStats(r) {
  const check = r.check || {};
  const size = check.frame ? `${check.frame[0]} × ${check.frame[1]} px` : "—";
  const width = check.card_width != null ? `${Math.round(check.card_width)} px` : "—";
  const ms = r.ms_per_frame != null ? `${Math.round(r.ms_per_frame)} ms a frame` : "—";
  const fps = r.frames_per_second != null ? `${r.frames_per_second.toFixed(1)} a second` : "—";
  $("stats").replaceChildren(
    ...stat("frame-size", "Picture", size), ...stat("card-width", "Card width", width),
    ...stat("ms-per-frame", "Reading time", ms), ...stat("fps", "Frame rate", fps),
    ...stat("frames", "Frames", String(r.frames)),
    ...stat("frames-read", "Read", readShare(r)), ...stat("bad-frames", "Frames skipped", String(r.bad_frames)),
    ...stat("source", "Camera", `${sourceName(r.source)} · ${MODES[r.mode] || r.mode}`));
  const bad = $("last-bad");
  bad.hidden = !r.last_bad_frame;
  bad.textContent = r.last_bad_frame ? `Last frame skipped: ${r.last_bad_frame}` : "";
}

function drawVerdict(check) {
  const advice = (check && check.advice) || [];
  const ok = !!(check && check.ok);
  const panel = $("verdict-panel");
  panel.dataset.ok = ok ? "yes" : "no";
  $("verdict").textContent = ok ? "Camera set up well" : "Camera needs adjusting";
  $("advice").replaceChildren(...advice.map((a) => el("li", { "data-code": a.code, text: a.message })));
  $("advice").hidden = !advice.length;
}

function draw(r) {
  drawStats(r);
  if (!r.frame) {
    document.body.dataset.frame = "";
    setState("waiting");
    notice("Waiting for the camera's first frame…");
    showPanels(["stats"]);
    return;
  }
  document.body.dataset.frame = String(r.frame.number);
  setState(frozen ? "frozen" : "live");
  notice("");
  showPanels(["frame", "verdict", "seen", "stats"]);
  frameLine(r);
  drawVerdict(r.check);
  const seen = r.seen || [];
  $("seen").replaceChildren(...(seen.length ? seen.map(seenEl) : [el("li", { class: "none", text: "No card in this frame" })]));
}

function drawTrouble(e) {
  if (e.state === "offline") {
    // keep the last picture and readings on the screen, marked stale
    setState("offline");
    notice("Can't reach the table's server", "Trying again every few seconds…");
    if (document.body.dataset.frame) $("frame-text").textContent = `Frame ${document.body.dataset.frame} · not live`;
    return;
  }
  document.body.dataset.frame = "";
  setState(e.state);
  notice(e.title || "The camera check can't be shown", e.message);
  showPanels([]);
}

// ---- the refresh loop ---------------------------------------------------------------------------
function schedule(ms) {
  clearTimeout(timer);
  timer = frozen || document.hidden ? null : setTimeout(tick, ms);
}

async function tick() {
  const mine = gen;
  let wait = REFRESH_MS;
  try {
    if (!titled) await loadTitle().catch(() => {});
    let r = await getReport();
    if (r.frame && r.frame.number !== shownFrame) {
      // the picture says which frame it shows: shown with the readings of that frame (the camera may
      // read another between the two requests; then both are asked for again, a few times at most)
      for (let tries = 0; tries < 3; tries += 1) {
        const picture = await getPicture();
        if (mine !== gen) return;
        if (picture.number !== r.frame.number) r = await getReport();
        if (mine !== gen) return;
        if (picture.number === r.frame.number || tries === 2) {
          showPicture(await decoded(picture.blob), picture.number);
          break;
        }
      }
    }
    if (mine !== gen) return;
    draw(r);
  } catch (e) {
    if (mine !== gen) return;
    if (!(e instanceof Trouble)) { console.error(e); e = new Trouble("error", e.message); }
    drawTrouble(e);
    wait = e.state === "offline" ? RETRY_MS : SLOW_MS;
  }
  if (mine === gen) schedule(wait);
}

function restart() {
  gen += 1;
  clearTimeout(timer);
  timer = null;
  tick();
}

$("freeze").onclick = () => {
  frozen = !frozen;
  if (frozen) {
    gen += 1;  // a refresh in flight is dropped: the frame on the screen stays
    clearTimeout(timer);
    timer = null;
    setState("frozen");
  } else {
    setState("live");
    restart();
  }
  if (shownFrame != null && document.body.dataset.frame) {
    const n = Number(document.body.dataset.frame);
    $("frame-text").textContent = frozen ? `Frozen at frame ${n}` : `Live · frame ${n}`;
  }
};

document.addEventListener("visibilitychange", () => { if (!document.hidden && !frozen) restart(); });

const q = location.search;
probeTable().catch(() => {}).finally(() => {
  const id = encodeURIComponent(TABLE_ID);
  $("dealer-link").href = TABLE_ID ? `/tables/${id}/control${q}` : `/dealer${q}`;
  $("tv-link").href = TABLE_ID ? `/tables/${id}/tv${q}` : `/display${q}`;
  tick();
});
