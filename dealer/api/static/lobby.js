// The night lobby: every table (game, who sits where, its TV and control pages), the guest list
// with the cage (buy in, rebuy, cash out) and seating players at tables.
"use strict";

const $ = (id) => document.getElementById(id);
const errorBox = $("error");
const act = (fn) => async (ev) => {
  if (ev) ev.preventDefault();
  errorBox.textContent = "";
  try { await fn(); await refresh(); } catch (e) { errorBox.textContent = e.message; }
};
const AMOUNTS = [100, 200, 500, 1000];
let amount = 500;
let tables = [];
let players = [];
const q = location.search;

function tableCard(t) {
  const seated = new Map((t.players || []).map((p) => [Number(p.seat), p]));
  const free = Array.from({ length: t.seats || 7 }, (_, i) => i + 1).filter((n) => !seated.has(n));
  const idle = players.filter((p) => !p.at_table && p.cage_chips > 0);
  const card = el("article", { class: `table-card${Object.keys(t.paused || {}).length ? " paused" : ""}`, "data-table": t.id },
    el("header", {}, el("h3", { text: t.name }), el("span", { class: "game-tag", text: gameTitle(t.game) }),
      el("span", { class: "mode", text: `${t.mode}${t.autoplay ? " · autoplay" : ""}${Object.keys(t.paused || {}).length ? " · PAUSED" : ""}` })),
    el("nav", { class: "table-links" }, el("a", { class: "tv-link", href: `/tables/${encodeURIComponent(t.id)}/tv${q}`, text: "TV view" }),
      el("a", { class: "control-link", href: `/tables/${encodeURIComponent(t.id)}/control${q}`, text: "Control" }),
      t.camera ? el("a", { class: "camera-link", href: `/tables/${encodeURIComponent(t.id)}/camera${q}`, text: "Camera" }) : null));
  const list = el("ul", { class: "seated" });
  for (const p of t.players || []) {
    const stand = el("button", { type: "button", class: "secondary small", "data-stand": p.seat, text: p.leaving ? "leaving…" : "Stand up" });
    stand.disabled = !!p.leaving;
    stand.onclick = act(() => api("DELETE", `/api/tables/${encodeURIComponent(t.id)}/seats/${p.seat}`));
    list.append(el("li", { "data-seat": p.seat, "data-player": p.player_id }, el("span", { class: "seat-no", text: p.seat }),
      el("span", { class: "who", text: p.name }), el("span", { class: "chips-count", text: p.chips ?? "" }), stand));
  }
  if (!(t.players || []).length) list.append(el("li", { class: "quiet", text: "nobody seated" }));
  card.append(list);
  if (idle.length && free.length) {
    const who = el("select", { "aria-label": "player", class: "sit-player" }, ...idle.map((p) => el("option", { value: p.id, text: `${p.name} (${p.cage_chips})` })));
    const seat = el("select", { "aria-label": "seat", class: "sit-seat" }, ...free.map((n) => el("option", { value: n, text: `seat ${n}` })));
    const sit = el("button", { type: "button", class: "sit", text: "Sit down" });
    sit.onclick = act(() => {
      const p = players.find((x) => x.id === who.value);
      return api("POST", `/api/tables/${encodeURIComponent(t.id)}/seats`, { player_id: p.id, seat: Number(seat.value), chips: p.cage_chips });
    });
    card.append(el("div", { class: "sit-row" }, who, seat, sit));
  }
  return card;
}

function playerRow(p) {
  const buy = el("button", { type: "button", class: "small", "data-action": "buy-in", text: p.bought ? `Rebuy ${amount}` : `Buy in ${amount}` });
  buy.onclick = act(() => api("POST", `/api/players/${encodeURIComponent(p.id)}/${p.bought ? "rebuy" : "buy-in"}`, { amount }));
  const out = el("button", { type: "button", class: "secondary small", "data-action": "cash-out", text: "Cash out" });
  out.disabled = !p.cage_chips || !!p.at_table;
  out.title = p.at_table ? "stand up first" : "";
  out.onclick = act(() => api("POST", `/api/players/${encodeURIComponent(p.id)}/cash-out`));
  const where = p.at_table ? (tables.find((t) => t.id === p.at_table.table) || { name: p.at_table.table }).name : "";
  return el("tr", { "data-player": p.id, "data-chips": p.chips },
    el("td", { class: "who", text: p.name }), el("td", { class: "where", text: where ? `${where} · ${p.at_table.chips ?? ""}` : "—" }),
    el("td", { text: p.cage_chips }), el("td", { class: "chips-total", text: p.chips }), el("td", { class: "buttons" }, buy, out));
}

function render() {
  $("tables").replaceChildren(...tables.map(tableCard));
  $("amounts").replaceChildren(...AMOUNTS.map((a) => {
    const b = el("button", { type: "button", class: `choice${a === amount ? " selected" : ""}`, "data-amount": a, "aria-pressed": a === amount ? "true" : "false", text: a });
    b.onclick = () => { amount = a; render(); };
    return b;
  }));
  $("players").replaceChildren(el("tr", {}, el("th", { text: "Player" }), el("th", { text: "At" }), el("th", { text: "In hand" }), el("th", { text: "Chips" }), el("th", { text: "" })),
    ...players.map(playerRow));
  document.body.dataset.ready = "yes";
}

async function refresh() {
  [tables, players] = await Promise.all([api("GET", "/api/tables"), api("GET", "/api/players")]);
  render();
}

$("add-player").onsubmit = act(async () => {
  const name = $("new-player").value.trim();
  if (!name) throw new Error("type the new player's name");
  await api("POST", "/api/players", { name });
  $("new-player").value = "";
});
api("GET", "/api/report").then((r) => { $("night-name").textContent = r.night || "Casino night"; document.title = r.night || document.title; }).catch(() => {});
refresh().catch((e) => { errorBox.textContent = e.message; });
setInterval(() => { if (!document.hidden) refresh().catch(() => {}); }, 3000);
