// The phone control page of one table: the game's options as big buttons, bets by taps, a card pad,
// corrections, pause/resume, autoplay and the game between shoes. No JSON anywhere.
"use strict";

// What a bet is in each game: the operation, how it names the seat, what else it needs.
const BETS = {
  blackjack: { kind: "blackjack.bet", seat: "int" },
  pontoon: { kind: "pontoon.bet", seat: "int" },
  baccarat: { kind: "baccarat.bet", seat: "int", choice: { field: "side", options: ["banker", "player", "tie"] } },
  "chemin-de-fer": { kind: "chemin.stake", seat: "int", label: "Stake against the bank" },
  faro: { kind: "faro.bet", seat: "str", choice: { field: "rank", options: RANKS }, toggle: { field: "coppered", label: "Copper (bet to lose)" } },
  "trente-et-quarante": { kind: "tq.bet", seat: "str", choice: { field: "bet", options: ["rouge", "noir", "couleur", "inverse"] },
    toggle: { field: "insured", label: "Insure (1 % premium)", when: (g) => (g.rules || {}).insurance } },
  "red-dog": { kind: "reddog.bet", seat: "str" },
  "pai-gow": { kind: "pai-gow.bet", seat: "str" },
  "caribbean-stud": { kind: "caribbean-stud.ante", seat: "int", label: "Ante" },
  "let-it-ride": { kind: "let-it-ride.bet", seat: "int", amount: "unit", label: "Bet unit (three bets of it)" },
  pusoy: { kind: "pusoy.bet", seat: "int" },
  "in-between": { kind: "inbetween.bet", seat: "name", label: "Bet against the pot" },
  "high-card-pool": { kind: "pool.bet", seat: "name", label: "Bet against the pot" },
};
// Options that need more than a tap: they open a form instead of calling /actions.
const MODES = {
  insure: { kind: "blackjack.insure", seat: "int", label: "Insurance (up to half the bet)", fromPrompt: true },
  raise: { kind: "reddog.raise", seat: "str", label: "Raise (up to the bet)", fromPrompt: true },
  insert: { kind: "slots.insert", label: "Insert credits", slots: true },
  spin: { label: "Spin", slots: true, coins: true },
  "faro:call": { kind: "faro.call", seat: "str", label: "Call the turn", choices: callOrders, button: "Call" },
  "faro:withdraw": { kind: "faro.withdraw", seat: "str", label: "Take a bet back (no chips: all of it)", choices: seatBets, anyAmount: true, button: "Take back" },
  "trente-et-quarante:withdraw": { kind: "tq.withdraw", seat: "str", label: "Take a bet back", choices: seatBets, noAmount: true, button: "Take back" },
};
const modeSpec = (option) => MODES[`${gameKey()}:${option}`] || MODES[option];
const LABELS = { "peek-clear": "Peek: no blackjack", "new-deal": "New deal", "new-shoe": "New shoe", "new-round": "New round", "no-raise": "No raise",
  "cash-out": "Cash out", dice: "Throw dice", reshuffle: "Reshuffle", decline: "No insurance", keep: "Keep the bank", withdraw: "Withdraw the bank" };
const CARD_GAMES_WITHOUT_PAD = /^(slots|scorebook)/;
const CHIP_VALUES = [1, 5, 10, 25, 100, 500];

let current = null;
let seat = "";            // the selected seat ("3")
let amount = 0;
let choice = "";
let toggled = false;
let mode = "bet";         // bet | insure | raise | insert | spin
let rank = "";
let fixing = null;        // {seq, card} being corrected
let disputing = null;     // an open integrity issue being settled
let padTaps = 0;          // taps on the card pad, the recent cards and the issues: what the pad is doing
let readings = {};        // what the shoe and the camera read, by open issue: {shoe, camera, detail}
let readingsKey = null;   // the open issues those readings were asked for
const recent = [];        // the last card records: {seq, kind, card}

const $ = (id) => document.getElementById(id);
const errorBox = $("error");
const act = (fn) => async (ev) => {
  if (ev) ev.preventDefault();
  errorBox.textContent = "";
  document.body.dataset.busy = "yes";
  try { await fn(); } catch (e) { errorBox.textContent = e.message; } finally { document.body.dataset.busy = "no"; }
};
const gameKey = () => ((current && current.game) || "").split(":")[0];
const post = (name, body) => api("POST", tablePath(name), body);
function tableId() { return TABLE_ID || (current && (current.table_id || current.table)) || ""; }

function label(option) { return LABELS[option] || option.charAt(0).toUpperCase() + option.slice(1).replace(/-/g, " "); }

function seatValue(spec, s) {
  if (spec.seat === "int") return Number(s);
  if (spec.seat === "name") return (tablePlayers(current).find((p) => p.seat === s) || {}).name || s;
  return `seat-${s}`;
}

// ---- what the prompt offers now -----------------------------------------------------------------
function optionButtons(state) {
  const p = state.prompt;
  const offered = p ? (p.step === "shuffle" && !p.options.length ? ["shuffle"] : p.options) : [];
  return offered.map((o) => {
    const b = el("button", { type: "button", "data-option": o, class: `opt opt-${o}`, text: label(o) });
    if (o === "bet") b.onclick = () => openForm("bet");
    // a slot machine owing a free spin is named by the prompt; a paid spin picks machine and coins
    else if (o === "spin" && p.step === "decide") b.onclick = act(() => post("actions", { option: o }));
    else if (o === "cash-out" && gameKey() === "slots") b.onclick = act(() => cashOutMachines());
    else if (modeSpec(o)) b.onclick = () => openForm(o);
    else if (o === "reveal" || o === "card") b.onclick = () => { $("card-panel").scrollIntoView({ block: "center" }); flash($("card-panel")); };
    else b.onclick = act(() => post("actions", { option: o }));
    return b;
  });
}

// A slot player's credits back to their seat, from every machine holding some.
async function cashOutMachines() {
  const machines = Object.entries(((current.games || {}).slots || {}).machines || {}).filter(([, m]) => m.meters.credits > 0);
  if (!machines.length) throw new Error("no machine holds credits");
  for (const [id] of machines) await post("operations", { kind: "slots.cash-out", payload: { machine: id, target: `seat-${seat}` } });
}

function flash(node) { node.classList.remove("flash"); void node.offsetWidth; node.classList.add("flash"); node.dataset.flashed = String(Number(node.dataset.flashed || 0) + 1); }

function openForm(which) {
  mode = which;
  if (which === "spin") {  // seat n plays the n-th machine, at its maximum bet unless the dealer changes it
    const ids = Object.keys(((current.games || {}).slots || {}).machines || {}).sort();
    choice = ids[Number(seat) - 1] || ids[0] || "";
    amount = slotMachine(choice).max_bet || amount;
  }
  if (modeSpec(which) && modeSpec(which).fromPrompt && current.prompt && current.prompt.who) seat = seatKey(current.prompt.who);
  renderBet();
  $("bet-panel").hidden = false;
  $("bet-panel").scrollIntoView({ block: "center" });
  flash($("bet-panel"));
}

// ---- players and bets ----------------------------------------------------------------------------
function seatsOf(state) {
  const players = tablePlayers(state);
  if (players.length) return players;
  const g = (state.games || {})[state.game] || {};
  const n = Number((g.rules || {}).seats) || 3;
  return Array.from({ length: n }, (_, i) => ({ seat: String(i + 1), name: `Seat ${i + 1}`, chips: null }));
}

function renderPlayers(state) {
  const list = seatsOf(state);
  if (!seat && list.length) seat = list[0].seat;
  const key = JSON.stringify([list, seat]);
  if (key === $("players").dataset.key) return;
  $("players").dataset.key = key;
  $("players").replaceChildren(...list.map((p) => {
    const b = el("button", { type: "button", class: `player-chip${p.seat === seat ? " selected" : ""}`, "data-seat": p.seat, "aria-pressed": p.seat === seat ? "true" : "false" },
      el("span", { class: "who", text: p.name }), el("span", { class: "chips-count", text: p.chips ?? "–" }));
    b.onclick = () => { seat = p.seat; renderPlayers(current); renderBet(); };
    return b;
  }));
}

function betSpec() {
  if (mode !== "bet") return modeSpec(mode);
  return BETS[gameKey()];
}

// Faro's call: every order the three cards left could come out in (RULES A5), "5-9-9".
function callOrders(state) {
  const left = [];
  for (const s of ((((state.games || {}).faro || {}).casekeeper || {}).spindles || [])) for (let i = 0; i < s.left; i++) left.push(s.rank);
  if (left.length !== 3) return [];
  const [a, b, c] = left;
  return [...new Set([[a, b, c], [a, c, b], [b, a, c], [b, c, a], [c, a, b], [c, b, a]].map((o) => o.join("-")))];
}
// The selected seat's bets on the layout: "7", "7 coppered" (faro) or "rouge" (trente et quarante).
function seatBets(state) {
  const g = (state.games || {})[state.game] || {};
  return (g.bets || []).filter((b) => b.seat === `seat-${seat}`).map((b) => (b.rank ? `${b.rank}${b.coppered ? " coppered" : ""}` : b.bet));
}

function renderBet() {
  const spec = betSpec();
  const panel = $("bet-panel");
  const p = current && current.prompt;
  const betting = p && (p.options.includes("bet") || p.step === "bet");
  panel.hidden = !spec || (mode === "bet" && !betting);
  if (!spec) return;
  panel.dataset.mode = mode;
  $("bet-title").textContent = `${spec.label || "Bet"} · ${seatName(current, seat)}`;
  const row = $("bet-choice");
  const options = spec.slots ? Object.keys(((current.games || {}).slots || {}).machines || {})
    : spec.choices ? spec.choices(current) : spec.choice ? spec.choice.options : [];
  if (options.length && !options.includes(choice)) choice = options[0];
  row.replaceChildren(...options.map((o) => {
    const b = el("button", { type: "button", class: `choice${o === choice ? " selected" : ""}`, "data-choice": o, "aria-pressed": o === choice ? "true" : "false", text: o });
    b.onclick = () => { choice = o; renderBet(); };
    return b;
  }));
  const toggle = spec.toggle && (!spec.toggle.when || spec.toggle.when((current.games || {})[current.game] || {})) ? spec.toggle : null;
  if (!toggle) toggled = false;  // e.g. a house without insurance
  if (toggle) {
    const t = el("button", { type: "button", class: `choice toggle${toggled ? " selected" : ""}`, "data-toggle": spec.toggle.field, "aria-pressed": toggled ? "true" : "false", text: spec.toggle.label });
    t.onclick = () => { toggled = !toggled; renderBet(); };
    row.append(t);
  }
  if (spec.choices && !options.length) row.append(el("p", { class: "quiet", text: spec.choices === callOrders ? "no call now" : "this seat has no bet to take back" }));
  panel.querySelector(".amount-row").hidden = !!spec.noAmount;
  $("chip-buttons").hidden = !!spec.noAmount;
  $("bet-amount").textContent = spec.coins ? `${amount} coins` : spec.slots ? `${amount} credits` : String(amount);
  $("place-bet").textContent = spec.button || (mode === "insert" ? "Insert" : mode === "bet" ? "Place bet" : label(mode));
}

function payload() {
  const spec = betSpec();
  if (mode === "insert") return { kind: spec.kind, payload: { machine: choice, source: `seat-${seat}`, cents: amount * machineDenomination(choice) } };
  if (mode === "call") return { kind: spec.kind, payload: { seat: seatValue(spec, seat), order: choice.split("-"), amount } };
  if (mode === "withdraw" && gameKey() === "faro") {
    const [r, copper] = choice.split(" ");
    return { kind: spec.kind, payload: { seat: seatValue(spec, seat), rank: r, coppered: !!copper, amount: amount || null } };
  }
  if (mode === "withdraw") return { kind: spec.kind, payload: { seat: seatValue(spec, seat), bet: choice } };
  const body = { seat: seatValue(spec, seat), [spec.amount || "amount"]: amount };
  if (spec.choice) body[spec.choice.field] = choice;
  if (spec.toggle) body[spec.toggle.field] = toggled;
  return { kind: spec.kind, payload: body };
}
function slotMachine(machine) { return (((current.games || {}).slots || {}).machines || {})[machine] || {}; }
function machineDenomination(machine) { return slotMachine(machine).denomination_cents || 1; }

// ---- cards: a pad for entering, correcting and settling a disputed card ---------------------------
function renderPad() {
  $("rank-pad").replaceChildren(...RANKS.map((r) => {
    const b = el("button", { type: "button", class: `rank${r === rank ? " selected" : ""}`, "data-rank": r, "aria-pressed": r === rank ? "true" : "false", text: r });
    b.onclick = () => { padTaps += 1; rank = rank === r ? "" : r; renderPad(); };
    return b;
  }));
  $("suit-pad").replaceChildren(...Object.entries(SUITS).map(([code, sym]) => {
    const b = el("button", { type: "button", class: `suit${code === "H" || code === "D" ? " red" : ""}`, "data-suit": code, text: sym, "aria-label": code });
    b.disabled = !rank;
    b.onclick = act(() => enterCard(`${rank}${code}`));
    return b;
  }));
  const what = disputing ? `Settle issue ${disputing}: which card was it?` : fixing ? `Correct #${fixing.seq} (${fixing.card || "card"}) to…` : "Enter a card";
  $("card-title").textContent = what;
  $("card-panel").dataset.mode = disputing ? "dispute" : fixing ? "correct" : "enter";
  $("card-hint").textContent = rank ? `${rank} of …? tap a suit` : "tap a rank, then a suit";
}

async function enterCard(code) {
  const taps = padTaps;
  try {
    if (disputing) await post(`disputes/${disputing}`, { card: code });
    else if (fixing) await post("cards/correct", { seq: fixing.seq, card: code });
    else await post("cards", { card: code });
  } finally {
    // the card's record can reach the page before the answer does, and the dealer may already be
    // at the next card or correcting this one: only a pad nobody touched since is cleared
    if (padTaps === taps) { rank = ""; fixing = null; disputing = null; }
    renderPad(); renderRecent();
  }
}

// The server names the card a record brought once it lies face up (a card turned up by the same
// record, such as the dealer's hole card, is not the record's card, and a face-down one is not shown).
// A correction names the record it corrected: that record's card changes, no new one is listed.
function noteCards(msg) {
  const card = msg.data && msg.data.card;
  if (!card || !msg.data.seq) return;
  const seq = msg.data.corrects || msg.data.seq;
  const listed = recent.find((r) => r.seq === seq);
  if (listed) { listed.card = card; return; }
  recent.unshift({ seq, kind: msg.data.kind, card });
  recent.splice(8);
}

function renderRecent() {
  const box = $("recent-cards");
  box.replaceChildren(...recent.map((r) => {
    const b = el("button", { type: "button", class: `recent${fixing && fixing.seq === r.seq ? " selected" : ""}`, "data-seq": r.seq }, cardEl(r.card), el("span", { text: `#${r.seq}` }));
    b.onclick = () => { padTaps += 1; fixing = fixing && fixing.seq === r.seq ? null : r; disputing = null; renderPad(); renderRecent(); $("card-panel").scrollIntoView({ block: "center" }); };
    return b;
  }));
  $("fix-panel").hidden = !recent.length;
}

// ---- pause, disputes, autoplay, game -------------------------------------------------------------
function renderPause(state) {
  const why = pausedText(state);
  $("paused").classList.toggle("on", !!why);
  $("paused").textContent = why ? `Paused — ${why}` : "";
  const buttons = Object.keys(state.paused || {}).filter((src) => src !== "integrity").map((src) => {
    const b = el("button", { type: "button", class: "danger", "data-resume": src, text: `Resume (${src})` });
    b.onclick = act(() => post("resume", { source: src }));
    return b;
  });
  loadReadings(state);
  for (const [n, said] of Object.entries(state.disputes || {})) {
    const read = readings[n] || {};
    const b = el("button", { type: "button", class: "danger", "data-dispute": n, text: `Settle: ${read.detail || said}` });
    b.onclick = () => { padTaps += 1; disputing = n; fixing = null; renderPad(); $("card-panel").scrollIntoView({ block: "center" }); };
    buttons.push(b);
    for (const [who, code] of [["shoe", read.shoe], ["camera", read.camera]]) {  // one tap: it was this reading
      if (!code) continue;
      const r = el("button", { type: "button", class: "danger", "data-reading": `${n}-${who}`, text: `${code} (the ${who})` });
      r.onclick = act(() => post(`disputes/${n}`, { card: code }));
      buttons.push(r);
    }
  }
  $("pause-actions").replaceChildren(...buttons);
}

// The state names no reading of a disputed card (it may lie face down): the dealer's own route
// does, asked again whenever the open issues change.
function loadReadings(state) {
  const key = Object.keys(state.disputes || {}).join(",");
  if (key === readingsKey) return;
  readingsKey = key;
  if (!key) { readings = {}; return; }
  api("GET", tablePath("disputes"))
    .then((r) => { if (readingsKey === key) { readings = r; renderPause(current); } })
    .catch((e) => { readingsKey = null; errorBox.textContent = e.message; });
}

async function loadGames() {
  const games = await api("GET", withToken("/api/games")).catch(() => ({}));
  $("game-select").replaceChildren(...Object.entries(games).map(([name, what]) => el("option", { value: name, title: what, text: gameTitle(name) })));
}

function render(state) {
  const first = !current;
  current = state;
  document.body.dataset.seq = state.seq;
  document.body.dataset.game = state.game || "";
  $("table-name").textContent = state.table_name || state.table || "table";
  $("game-title").textContent = gameTitle(state.game) === (state.table_name || "") ? "" : gameTitle(state.game);
  $("seq").textContent = `#${state.seq}`;
  $("prompt").textContent = promptText(state.prompt, state) || "no game yet";
  // the same options stay the same buttons: nothing moves or vanishes under a finger between events
  const optionsKey = JSON.stringify([gameKey(), state.prompt && state.prompt.step, state.prompt && state.prompt.options]);
  if (optionsKey !== $("options").dataset.key) {
    const buttons = optionButtons(state);
    if (state.prompt && state.prompt.step === "card") buttons.push(el("p", { class: "pad-hint", text: "The next card: tap it on the card pad below, or let the shoe read it." }));
    $("options").replaceChildren(...buttons);
    $("options").dataset.key = optionsKey;
  }
  renderPause(state);
  renderPlayers(state);
  if (mode !== "bet" && !(state.prompt && state.prompt.options.includes(mode))) mode = "bet";
  renderBet();
  $("card-panel").hidden = CARD_GAMES_WITHOUT_PAD.test(state.game || "") || !state.game;
  const games = Object.entries(state.games || {});
  $("game").replaceChildren(...games.map(([name, g]) => gameEl(name, g, state)));
  $("table-view").hidden = !games.length;
  if (first) {
    renderPad();
    const sel = $("game-select");
    if (state.game && [...sel.options].some((o) => o.value === state.game)) sel.value = state.game;
  }
  renderRecent();
}

$("chip-buttons").replaceChildren(...CHIP_VALUES.map((v) => {
  const b = el("button", { type: "button", class: "chip", "data-chip": v, text: `+${v}` });
  b.onclick = () => { amount += v; renderBet(); };
  return b;
}));
$("bet-clear").onclick = () => { amount = 0; renderBet(); };
$("place-bet").onclick = act(async () => {
  const spec = betSpec();
  if (spec.choices && !choice) throw new Error(spec.choices === callOrders ? "no call is offered now" : "this seat has no bet to take back");
  if (!amount && !spec.anyAmount && !spec.noAmount) throw new Error("tap the chips to make an amount first");
  if (mode === "spin") await post("actions", { option: "spin", target: choice, amount });
  else await post("operations", payload());
  if (mode !== "bet") mode = "bet";
});
$("autoplay-off").onclick = act(async () => { const r = await post("autoplay", { on: false }); $("autoplay-state").textContent = r.autoplay ? "autoplay on" : "dealer in control"; });
$("autoplay-on").onclick = act(async () => { const r = await post("autoplay", { on: true }); $("autoplay-state").textContent = r.autoplay ? "autoplay on" : "dealer in control"; });
$("change-game").onclick = act(async () => {
  await api("POST", `/api/tables/${encodeURIComponent(tableId())}/game`, { game: $("game-select").value });
});
$("tv-link").href = TABLE_ID ? `/tables/${encodeURIComponent(TABLE_ID)}/tv${location.search}` : `/display${location.search}`;
$("camera-link").href = TABLE_ID ? `/tables/${encodeURIComponent(TABLE_ID)}/camera${location.search}` : `/camera${location.search}`;
loadGames().finally(() => connect(render, noteCards));
