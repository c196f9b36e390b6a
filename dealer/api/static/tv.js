// The TV view of one table: the game's own layout, the players with their chips, the shoe.
"use strict";

function shoeEl(shoe) {
  if (!shoe) return el("p", { class: "quiet", text: "no shoe" });
  const pct = Math.round(100 * shoe.penetration);
  const wrap = el("div", { id: "shoe", "data-penetration": pct });
  wrap.append(el("div", { class: "meter" }, el("div", { style: `width:${pct}%` })));
  wrap.append(el("p", { class: "shoe-line", text: `${shoe.cards_left} left · ${pct}% dealt` }));
  if (shoe.cut_card_reached) wrap.append(el("p", { class: "badge cut", text: "Cut card out: last round" }));
  for (const f of (shoe.faults || []).slice(-2)) wrap.append(el("p", { class: "fault", text: `${f.kind}: ${f.detail}` }));
  return wrap;
}

function playersEl(state) {
  const list = tablePlayers(state);
  if (!list.length) return [el("li", { class: "quiet", text: "no players seated" })];
  return list.map((p) => el("li", { class: "player-row", "data-seat": p.seat, "data-chips": p.chips ?? "" },
    el("span", { class: "seat-no", text: p.seat }), el("span", { class: "who", text: p.name }), el("span", { class: "chips-count", text: p.chips ?? "" })));
}

// Roads grow to the right: keep the newest columns that fit (cells keep their data-col).
function fitRoads(root = document) {
  for (const road of root.querySelectorAll(".roads .road")) {
    const cells = [...road.querySelectorAll(".cell")];
    if (!cells.length) continue;
    const cell = parseFloat(getComputedStyle(road).gridAutoColumns) || 20;
    const gap = parseFloat(getComputedStyle(road).columnGap) || 2;
    const fit = Math.max(1, Math.floor((road.clientWidth - 6) / (cell + gap)));
    const maxCol = Math.max(...cells.map((c) => Number(c.dataset.col)));
    const first = Math.max(0, maxCol + 1 - fit);
    for (const c of cells) {
      const col = Number(c.dataset.col) - first;
      c.hidden = col < 0;
      c.style.gridColumn = String(Math.max(col, 0) + 1);
    }
  }
}

let lastState = null;
function render(state) {
  lastState = state;
  document.body.dataset.seq = state.seq;
  document.body.dataset.game = state.game || "";
  document.title = `${state.table} · TV`;
  document.getElementById("table-name").textContent = state.table_name || state.table || "table";
  document.getElementById("game-title").textContent = gameTitle(state.game) === (state.table_name || "") ? "" : gameTitle(state.game);
  document.getElementById("prompt").textContent = promptText(state.prompt, state);
  document.getElementById("seq").textContent = `#${state.seq}`;
  const paused = document.getElementById("paused");
  const why = pausedText(state);
  paused.classList.toggle("on", !!why);
  paused.textContent = why ? `Paused — ${why}` : "";
  const games = Object.entries(state.games || {});
  const game = document.getElementById("game");
  game.replaceChildren(...(games.length ? games.map(([name, g]) => gameEl(name, g, state)) : [el("p", { class: "idle", text: "No game open at this table yet" })]));
  document.getElementById("players").replaceChildren(...playersEl(state));
  const ownPack = /^(slots|pai-gow|scorebook)/.test(state.game || "") || !games.length;
  document.getElementById("shoe-section").hidden = !state.shoe || ownPack;
  document.getElementById("shoe-box").replaceChildren(shoeEl(state.shoe));
  fitFans(game);
  fitRoads(game);
}
window.addEventListener("resize", () => { if (lastState) render(lastState); });
connect(render);
