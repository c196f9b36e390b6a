// Shared by every page: the table's routes, the live connection, cards, players and small helpers.
"use strict";

const params = new URLSearchParams(location.search);
const token = params.get("token") || localStorage.getItem("dealer-token") || "";
const withToken = (path) => token ? `${path}${path.includes("?") ? "&" : "?"}token=${encodeURIComponent(token)}` : path;

// /tables/<id>/tv and /tables/<id>/control talk to /api/tables/<id>/...; /display and /dealer (no id)
// to the default table's routes (/state, /ws, /api/actions...).
let TABLE_ID = decodeURIComponent((location.pathname.match(/^\/tables\/([^/]+)\//) || [])[1] || "");
function tablePath(name) {
  if (TABLE_ID) return `/api/tables/${encodeURIComponent(TABLE_ID)}/${name}`;
  return name === "state" ? "/state" : name === "ws" ? "/ws" : `/api/${name}`;
}

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const CARD_CODE = /^(10|[2-9AJQKT])[SHDC]$/;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null) continue;
    if (k === "class") node.className = v; else if (k === "text") node.textContent = v; else node.setAttribute(k, v);
  }
  for (const child of children) if (child != null && child !== false) node.append(child);
  return node;
}

// A face-down card (BK, or null for a hole card) is drawn as a back: its face is never sent to a viewer.
function cardEl(code) {
  if (!code || code === "BK") return el("span", { class: "card back", "data-card": "BK", title: "face down" });
  if (code.startsWith("JK")) return el("span", { class: "card joker", "data-card": code }, el("span", { class: "rank", text: "★" }), el("span", { class: "pip", text: "🃏" }));
  const suit = code.slice(-1), rank = code.slice(0, -1) === "T" ? "10" : code.slice(0, -1);
  const red = suit === "H" || suit === "D";
  return el("span", { class: `card${red ? " red" : ""}`, "data-card": code },
    el("span", { class: "rank", text: rank }), el("span", { class: "suit", text: SUITS[suit] || suit }),
    el("span", { class: "pip", text: SUITS[suit] || suit }));
}

function cardsEl(codes, cls = "") {
  const span = el("span", { class: `cards ${cls}`.trim() });
  for (const c of codes || []) span.append(cardEl(c));
  return span;
}

// Cards in a row overlap just enough to fit their box (a long blackjack hand, a pai gow setting).
function fitFans(root = document) {
  for (const fan of root.querySelectorAll(".cards")) {
    const cards = [...fan.children];
    cards.forEach((c) => { c.style.marginLeft = ""; });
    if (cards.length < 2) continue;
    const room = fan.parentElement.clientWidth - 4;
    const w = cards[0].getBoundingClientRect().width;
    const gap = parseFloat(getComputedStyle(cards[1]).marginLeft) || 0;
    const need = cards.length * w + (cards.length - 1) * gap;
    if (need <= room) continue;
    const step = Math.max(w * 0.22, (room - w) / (cards.length - 1));
    cards.slice(1).forEach((c) => { c.style.marginLeft = `${step - w}px`; });
  }
}

function signed(n) { return n > 0 ? `+${n}` : String(n); }

// The night's players at this table (state.players, from the cage) by seat; account names never shown.
function seatKey(seat) { return String(seat).replace(/^seat-/, ""); }
function playersBySeat(state) {
  const out = {};
  for (const p of state.players || []) out[seatKey(p.seat)] = p;
  return out;
}
function seatName(state, seat) {
  const p = playersBySeat(state)[seatKey(seat)];
  return p ? p.name : /^\d+$/.test(seatKey(seat)) ? `Seat ${seatKey(seat)}` : String(seat);
}
function seatChips(state, seat) {
  const p = playersBySeat(state)[seatKey(seat)];
  if (p && p.chips != null) return p.chips;
  const b = state.balances || {};
  return b[`seat-${seatKey(seat)}`] ?? b[seat] ?? null;
}
// Who sits at the table: named players, or (a table without a guest list) the seats holding chips.
function tablePlayers(state) {
  if (state.players && state.players.length) return state.players.map((p) => ({ seat: seatKey(p.seat), name: p.name, chips: p.chips }));
  return Object.entries(state.balances || {}).filter(([k]) => /^seat-\d+$/.test(k))
    .map(([k, v]) => ({ seat: seatKey(k), name: `Seat ${seatKey(k)}`, chips: v }))
    .sort((a, b) => Number(a.seat) - Number(b.seat));
}

// Every face-up card code anywhere in a game's JSON (the server counts them alike: runtime.shown_cards).
function cardCodes(value, out = []) {
  if (typeof value === "string") { if (CARD_CODE.test(value)) out.push(value); } else if (Array.isArray(value)) value.forEach((v) => cardCodes(v, out));
  else if (value && typeof value === "object") Object.values(value).forEach((v) => cardCodes(v, out));
  return out;
}

// Renderers by game name; each returns a DOM node for the game's public state.
const GAME_VIEWS = {};
let viewState = {};  // the table state being drawn (for players' names in the views' lists)
function who(seat) { return seatName(viewState, seat); }

function genericView(game, state, name) {
  const wrap = el("div", { class: "generic" }, el("h3", { class: "view-title", text: name }));
  const codes = [...new Set(cardCodes(game))].slice(-10);
  if (codes.length) wrap.append(el("div", { class: "hand" }, cardsEl(codes)));
  const facts = el("div", { class: "stats" });
  for (const [k, v] of Object.entries(game)) if (["string", "number"].includes(typeof v) && k !== "game") facts.append(el("div", { class: "stat" }, el("span", { class: "stat-label", text: k.replace(/_/g, " ") }), el("span", { class: "stat-value", text: String(v) })));
  wrap.append(facts);
  return wrap;
}

// A view is found by the game's key ("faro"), else by its prefix ("scorebook:friday" → "scorebook").
function gameEl(name, game, state) {
  const view = GAME_VIEWS[name] || GAME_VIEWS[name.split(":")[0]] || genericView;
  let node;
  viewState = state || {};
  try { node = view(game, state || {}, name); } catch (e) { console.error(e); node = genericView(game, state, name); }
  node.dataset.gameView = name;
  return node;
}

async function probeTable() {
  if (!TABLE_ID) return;
  const res = await fetch(withToken(tablePath("state")));
  if (res.status === 404) {
    const all = await fetch(withToken("/api/tables")).catch(() => null);
    if (!all || !all.ok) { console.warn(`no /api/tables yet: showing the default table for ${TABLE_ID}`); TABLE_ID = ""; }
  }
}

// Messages can come faster than a screen redraws: draw only the newest state, once a frame.
function connect(onState, onMessage) {
  let delay = 500;
  let latest = null;
  const drawSoon = (state) => {
    const first = latest === null;
    latest = state;
    if (first) requestAnimationFrame(() => { const s = latest; latest = null; onState(s); });
  };
  const open = () => {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(withToken(`${proto}://${location.host}${tablePath("ws")}`));
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      window.lastMessageId = msg.id;
      if (onMessage) onMessage(msg);
      if (msg.data && msg.data.state) drawSoon(msg.data.state);
    };
    ws.onopen = () => { delay = 500; document.body.dataset.connected = "yes"; };
    ws.onclose = () => { document.body.dataset.connected = "no"; setTimeout(open, delay); delay = Math.min(delay * 2, 5000); };
  };
  probeTable().catch(() => {}).finally(open);
}

async function api(method, path, body) {
  const headers = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const detail = data.detail;
    const text = typeof detail === "string" ? detail : Array.isArray(detail) ? detail.map((d) => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`).join("; ") : res.statusText;
    throw new Error(res.status === 401 ? "this needs a token: open the page with ?token=…" : text);
  }
  return data;
}

function pausedText(state) {
  return Object.entries(state.paused || {}).map(([src, why]) => `${src}: ${why}`).join(" · ");
}

function promptText(p, state) {
  const text = p ? (p.text || `${p.step}${p.who ? " · " + p.who : ""}`) : "";
  return state ? text.replace(/\bseat[ -](\d+)\b/g, (m, n) => seatName(state, n)) : text;
}

const GAME_TITLES = { blackjack: "Blackjack", baccarat: "Baccarat", "chemin-de-fer": "Chemin de fer", pontoon: "Pontoon", faro: "Faro",
  "trente-et-quarante": "Trente et quarante", "red-dog": "Red dog", "in-between": "In-between", "high-card-pool": "High-card pool",
  "pai-gow": "Pai gow poker", "caribbean-stud": "Caribbean stud", "let-it-ride": "Let it ride", pusoy: "Pusoy", slots: "Slots", scorebook: "Scorebook" };
function gameTitle(key) { return GAME_TITLES[key] || GAME_TITLES[(key || "").split(":")[0]] || key || "no game"; }
