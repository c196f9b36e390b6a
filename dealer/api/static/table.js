// Shared by the display and the dealer page: the live connection and the card/state renderers.
"use strict";

const params = new URLSearchParams(location.search);
const token = params.get("token") || "";
const withToken = (path) => token ? `${path}${path.includes("?") ? "&" : "?"}token=${encodeURIComponent(token)}` : path;

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v; else if (k === "text") node.textContent = v; else node.setAttribute(k, v);
  }
  for (const child of children) if (child != null) node.append(child);
  return node;
}

function cardEl(code) {
  if (!code || code === "BK") return el("span", { class: "card back", "data-card": "BK", title: "face down" });
  if (code.startsWith("JK")) return el("span", { class: "card", "data-card": code, text: "🃏" });
  const suit = code.slice(-1), rank = code.slice(0, -1);
  const red = suit === "H" || suit === "D";
  return el("span", { class: `card${red ? " red" : ""}`, "data-card": code }, el("span", { text: rank }), el("span", { text: SUITS[suit] || suit }));
}

function cardsEl(codes) {
  const span = el("span", { class: "cards" });
  for (const c of codes || []) span.append(cardEl(c));
  return span;
}

function shoeEl(shoe) {
  if (!shoe) return el("p", { text: "no shoe" });
  const pct = Math.round(100 * shoe.penetration);
  const wrap = el("div", { id: "shoe" });
  wrap.append(el("p", { text: `${shoe.cards_out} out · ${shoe.cards_left} left · ${pct}% penetration` }));
  const bar = el("div", { class: "meter" }); bar.append(el("div", { style: `width:${pct}%` }));
  wrap.append(bar);
  if (shoe.cut_card_reached) wrap.append(el("p", { class: "result", text: "cut card out: last round before the shuffle" }));
  if (shoe.faults && shoe.faults.length) {
    const list = el("ul", { class: "faults" });
    for (const f of shoe.faults.slice(-5)) list.append(el("li", { text: `${f.kind}: ${f.detail}` }));
    wrap.append(list);
  }
  return wrap;
}

// Renderers by game name; each returns a DOM node for the game's public state.
const GAME_VIEWS = {};

function genericView(game) { return el("pre", { class: "json", text: JSON.stringify(game, null, 1) }); }

// A view is found by the game's key ("faro"), else by its prefix ("scorebook:friday" → "scorebook").
// It gets the game's public JSON, the whole table state (balances, shoe) and the key.
function gameEl(name, game, state) {
  const view = GAME_VIEWS[name] || GAME_VIEWS[name.split(":")[0]] || genericView;
  let node;
  try { node = view(game, state || {}, name); } catch (e) { console.error(e); node = genericView(game); }
  node.dataset.gameView = name;
  return node;
}

function connect(onState, onMessage) {
  let delay = 500;
  const open = () => {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(withToken(`${proto}://${location.host}/ws`));
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      window.lastMessageId = msg.id;
      if (msg.data && msg.data.state) onState(msg.data.state);
      if (onMessage) onMessage(msg);
    };
    ws.onopen = () => { delay = 500; document.body.dataset.connected = "yes"; };
    ws.onclose = () => { document.body.dataset.connected = "no"; setTimeout(open, delay); delay = Math.min(delay * 2, 5000); };
  };
  open();
}

async function api(method, path, body) {
  const headers = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.detail ? (typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail)) : res.statusText);
  return data;
}

function renderHeader(state) {
  document.getElementById("table-name").textContent = `${state.table} · ${state.game || ""}`;
  const p = state.prompt;
  document.getElementById("prompt").textContent = p ? (p.text || `${p.step}${p.who ? " · " + p.who : ""}`) : "";
  document.getElementById("status").textContent = `event ${state.seq}`;
  const paused = document.getElementById("paused");
  const reasons = Object.entries(state.paused || {});
  paused.classList.toggle("on", reasons.length > 0);
  paused.textContent = reasons.map(([src, why]) => `PAUSED — ${src}: ${why}`).join(" · ");
  document.body.dataset.seq = state.seq;
}
