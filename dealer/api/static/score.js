// Scorekeeping by taps: open a book with names, start any scored game, enter each hand in the game's
// own terms (bids, tricks, melds, cards shown for counting), undo, standings and the session history.
"use strict";

// ---- each game's entries as fields (names as the scorer expects them: see GET /api/score/games) ---
const someone = (name, o = {}) => ({ name, type: "side", ...o });                 // a player (or partnership)
const num = (name, min, max, o = {}) => ({ name, type: "int", min, max, ...o });
const pick = (name, options, o = {}) => ({ name, type: "choice", options, ...o });
const per = (name, min, max, o = {}) => ({ name, type: "per", min, max, ...o }); // {side: n}
const flag = (name, o = {}) => ({ name, type: "bool", ...o });
const cards = (name, count, o = {}) => ({ name, type: "cards", count, ...o });
const order = (name, o = {}) => ({ name, type: "order", ...o });
const many = (name, o = {}) => ({ name, type: "many", ...o });
const group = (name, fields, o = {}) => ({ name, type: "group", fields, ...o });

const BIDS_500 = [...[6, 7, 8, 9, 10].flatMap((n) => ["S", "C", "D", "H", "NT"].map((s) => `${n}${s}`)), "nullo"];
const SOLO = ["prop", "solo", "misere", "abundance", "abundance-in-trump", "misere-ouverte", "slam"];
const HEARTS = { hand: [per("hearts", 0, 13, { label: "Hearts taken" }), someone("queen", { label: "Queen of spades" })], revoke: [someone("player", { label: "Revoker" })] };
const FORMS = {
  hearts: HEARTS,
  "hearts-without-lady": { hand: [per("hearts", 0, 13, { label: "Hearts taken" })] },
  "omnibus-hearts": { hand: [per("hearts", 0, 13, { label: "Hearts taken" }), someone("queen", { label: "Queen of spades" }), someone("bonus", { label: "Jack of diamonds" })], revoke: HEARTS.revoke },
  "domino-hearts": HEARTS,
  "cancellation-hearts": { hand: [per("hearts", 0, 26, { label: "Hearts taken" }), per("queens", 0, 2, { label: "Queens of spades" })], revoke: HEARTS.revoke },
  "auction-hearts": { hand: [someone("bidder", { optional: true }), num("bid", 1, 200, { optional: true }), pick("suit", ["h", "s", "d", "c"], { labels: ["♥", "♠", "♦", "♣"] }), per("taken", 0, 13, { label: "Cards of the suit taken" })] },
  cribbage: {
    hand: [someone("player"), cards("cards", 4, { label: "The hand (4 cards)" }), cards("starter", 1, { optional: true, label: "Starter (if not entered)" })],
    crib: [cards("cards", 4, { label: "The crib (4 cards)" }), cards("starter", 1, { optional: true, label: "Starter" })],
    peg: [someone("player"), num("points", 1, 31)], deal: [someone("dealer")], starter: [cards("card", 1, { label: "Starter card" })],
    play: [someone("player"), cards("card", 1)], go: [someone("player")] },
  pinochle: {
    tricks: [per("points", 0, 250, { step: 1, label: "Card points taken" }), someone("last", { label: "Last trick" })],
    meld: [someone("player"), cards("cards", 8, { label: "The meld's cards" })], deal: [someone("dealer"), cards("trump", 1, { label: "Turned trump" })],
    dix: [someone("player")], trick: [someone("winner")], "declare-out": [someone("player"), num("points", 0, 1000)] },
  euchre: { hand: [someone("makers"), num("tricks", 0, 5, { label: "Makers' tricks" }), flag("alone", { label: "Maker went alone" }), flag("defender_alone", { label: "Defender alone" })], carry: [someone("side"), num("points", 0, 10)] },
  "euchre-two-hand": { hand: [someone("makers"), num("tricks", 0, 5)] },
  "euchre-three-hand": { hand: [someone("maker"), num("tricks", 0, 5, { label: "Maker's tricks" })] },
  "euchre-call-ace": { hand: [someone("maker"), someone("partner", { optional: true, label: "Partner (holder of the called ace; none: alone)" }), num("tricks", 0, 5)] },
  "euchre-auction": { hand: [someone("bidder"), num("bid", 1, 13), many("partners", { optional: true }), num("tricks", 0, 13, { label: "Making side's tricks" })] },
  "euchre-cincinnati": { hand: [someone("bidder"), pick("bid", [3, 4, 5, 6, "moon", "double-moon", "triple-moon", "quadruple-moon"]), num("tricks", 0, 6)] },
  "five-hundred": { hand: [someone("contractor"), pick("bid", BIDS_500), per("tricks", 0, 10, { label: "Tricks won" }), many("partners", { optional: true })], "all-pass": [per("tricks", 0, 10, { optional: true })] },
  "forty-five": { hand: [per("tricks", 0, 5, { label: "Tricks (five in all)" })] },
  "auction-forty-fives": { hand: [someone("bidder"), pick("bid", [5, 10, 15, 20, 25, 30]), per("tricks", 0, 5), someone("best", { label: "Highest trump" })] },
  "auction-pitch": { hand: [someone("pitcher"), pick("bid", [2, 3, 4]), someone("high"), someone("low"), someone("jack", { optional: true }), someone("game", { optional: true })] },
  "california-jack": { hand: [someone("high"), someone("low"), someone("jack"), someone("game", { optional: true })] },
  "seven-up": { hand: [someone("dealer"), someone("high"), someone("low"), someone("jack", { optional: true }), someone("game", { optional: true })] },
  cinch: { hand: [someone("bidder"), num("bid", 1, 14), per("points", 0, 14, { label: "Points (14 in all)" })] },
  canasta: { hand: [group("sides", [num("meld_points", 0, 20000, { step: 5, label: "Meld points" }), num("natural", 0, 10, { label: "Natural canastas" }), num("mixed", 0, 10, { label: "Mixed canastas" }),
    num("red_threes", 0, 4, { label: "Red threes" }), num("hand_points", 0, 2000, { step: 5, label: "Left in hand" }), flag("went_out", { label: "Went out" })])] },
  durak: { hand: [someone("durak", { label: "The durak (fool)" })] },
  president: { hand: [order("order", { label: "Tap players in order, first out first" })] },
  loo: { hand: [someone("dealer"), per("tricks", 0, 3, { label: "Tricks (3 in all)" })] },
  preference: { hand: [someone("bidder"), num("tricks", 0, 10, { label: "Bidder's tricks" })], "passed-out": [] },
  napoleon: { hand: [someone("bidder"), pick("bid", [1, 2, 3, 4, "nap", "wellington", "blucher"]), num("tricks", 0, 5, { label: "Bidder's tricks" })] },
  "solo-whist": { hand: [pick("bid", SOLO), someone("declarer"), someone("partner", { optional: true, label: "Partner (the Cop, for a Prop)" }), num("tricks", 0, 13)], "thrown-in": [] },
  "spoil-five": { hand: [someone("winner", { optional: true, label: "First to 3 tricks (none: spoiled)" })] },
  trex: { hand: [someone("owner", { label: "Kingdom owner" }), pick("contract", ["diamonds", "eltoosh", "king", "trex"]), per("taken", 0, 13, { when: ["contract", "diamonds"], label: "Diamonds taken" }),
    per("tricks", 0, 13, { when: ["contract", "eltoosh"], label: "Tricks taken" }), someone("taker", { when: ["contract", "king"], label: "Took the king of hearts" }),
    order("order", { when: ["contract", "trex"], label: "Tap players in order, first out first" })], abandon: [someone("owner")] },
  tripoli: { deal: [], bet: [someone("player"), num("amount", 1, 100)], poker: [many("winners")], michigan: [someone("winner"), per("cards_left", 0, 20, { label: "Cards left" })],
    blocked: [per("cards_left", 0, 20, { label: "Cards left" })], leftover: [many("winners")] },
};

let games = [];          // GET /api/score/games
let book = null;         // the open book's JSON
let kind = "";           // the entry kind being entered
let values = {};         // the form's values by field name
let newPlayers = [];
let seated = [];         // who plays the next game
let rules = {};
const $ = (id) => document.getElementById(id);
const errorBox = $("error");
const act = (fn) => async (ev) => {
  if (ev) ev.preventDefault();
  errorBox.textContent = "";
  try { await fn(); } catch (e) { errorBox.textContent = e.message; }
};
const bookName = () => new URLSearchParams(location.search).get("book") || "";
const bookPath = (rest = "") => `/api/score/books/${encodeURIComponent(bookName())}${rest}`;
const currentGame = () => (book && book.games.length ? book.games.find((g) => g.index === book.current_game) : null);
const playing = () => { const g = currentGame(); return g && !g.result ? g : null; };
const sidesOf = (g) => (g ? g.sides.map((s) => s.name) : []);
const gameInfo = (name) => games.find((g) => g.name === name) || { entries: {}, house_rules: [], sides: [2, 8], partnership_sizes: [1] };
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

// ---- a field's tap controls -------------------------------------------------------------------
function tapButton(text, selected, onclick, attrs = {}) {
  const b = el("button", { type: "button", class: `choice${selected ? " selected" : ""}`, "aria-pressed": selected ? "true" : "false", text, ...attrs });
  b.onclick = onclick;
  return b;
}
function stepper(value, min, max, step, set, attrs = {}) {
  const minus = el("button", { type: "button", class: "step", text: "−", "aria-label": "less", ...attrs, "data-step": "down" });
  const plus = el("button", { type: "button", class: "step", text: "+", "aria-label": "more", ...attrs, "data-step": "up" });
  minus.onclick = () => set(Math.max(min, value - step));
  plus.onclick = () => set(Math.min(max, value + step));
  return el("span", { class: "stepper" }, minus, el("output", { text: String(value) }), plus);
}
function defaultValue(f, sides) {
  if (f.type === "int") return f.optional ? null : f.min;
  if (f.type === "per") return f.optional ? null : Object.fromEntries(sides.map((s) => [s, 0]));
  if (f.type === "choice") return f.optional ? null : f.options[0];
  if (f.type === "side") return f.optional ? null : sides[0];
  if (f.type === "bool") return false;
  if (f.type === "cards") return [];
  if (f.type === "order" || f.type === "many") return [];
  if (f.type === "group") return Object.fromEntries(sides.map((s) => [s, Object.fromEntries(f.fields.map((x) => [x.name, defaultValue(x, sides)]))]));
  return null;
}
function fieldEl(f, value, set, sides) {
  const box = el("div", { class: `field field-${f.type}`, "data-field": f.name });
  box.append(el("label", { class: "field-label", text: f.label || f.name.replace(/_/g, " ") + (f.optional ? " (optional)" : "") }));
  const row = el("div", { class: "choice-row" });
  if (f.type === "side") {
    if (f.optional) row.append(tapButton("none", value == null, () => set(null), { "data-value": "" }));
    for (const s of sides) row.append(tapButton(s, value === s, () => set(s), { "data-value": s }));
  } else if (f.type === "choice") {
    if (f.optional) row.append(tapButton("none", value == null, () => set(null), { "data-value": "" }));
    f.options.forEach((o, i) => row.append(tapButton(f.labels ? f.labels[i] : String(o), value === o, () => set(o), { "data-value": String(o) })));
  } else if (f.type === "bool") {
    row.append(tapButton(value ? "yes" : "no", !!value, () => set(!value), { "data-value": value ? "yes" : "no" }));
  } else if (f.type === "int") {
    if (f.optional && value == null) row.append(tapButton("set", false, () => set(f.min), { "data-value": "" }));
    else {
      row.append(stepper(value, f.min, f.max, f.step || 1, set, { "data-field": f.name }));
      if (f.optional) row.append(tapButton("clear", false, () => set(null)));
    }
  } else if (f.type === "per") {
    if (f.optional && value == null) row.append(tapButton("set", false, () => set(Object.fromEntries(sides.map((s) => [s, 0])))));
    else {
      const grid = el("div", { class: "per-grid" });
      for (const s of sides) grid.append(el("span", { class: "per-name", text: s }), stepper(value[s] ?? 0, f.min, f.max, f.step || 1, (v) => set({ ...value, [s]: v }), { "data-side": s }));
      row.append(grid);
    }
  } else if (f.type === "order" || f.type === "many") {
    for (const s of sides) {
      const at = value.indexOf(s);
      row.append(tapButton(at >= 0 ? (f.type === "order" ? `${at + 1}. ${s}` : s) : s, at >= 0, () => set(at >= 0 ? value.filter((x) => x !== s) : [...value, s]), { "data-value": s }));
    }
  } else if (f.type === "cards") {
    row.append(cardPicker(value, f.count, set, f.name));
  } else if (f.type === "group") {
    for (const s of sides) {
      const sub = el("div", { class: "group-side", "data-side": s }, el("h4", { text: s }));
      for (const x of f.fields) sub.append(fieldEl(x, value[s][x.name], (v) => set({ ...value, [s]: { ...value[s], [x.name]: v } }), sides));
      row.append(sub);
    }
  }
  box.append(row);
  return box;
}
let pickRank = {};
function cardPicker(chosen, count, set, name) {
  const wrap = el("div", { class: "card-picker" });
  const shown = el("div", { class: "picked" }, ...chosen.map((c, i) => {
    const b = el("button", { type: "button", class: "picked-card", "aria-label": `remove ${c}` }, cardEl(c));
    b.onclick = () => set(chosen.filter((_, j) => j !== i));
    return b;
  }));
  if (!chosen.length) shown.append(el("span", { class: "quiet", text: `tap ${count === 1 ? "the card" : "up to " + count + " cards"}: rank, then suit` }));
  wrap.append(shown);
  const full = chosen.length >= count;
  const ranks = el("div", { class: "rank-pad" }, ...RANKS.map((r) => {
    const b = el("button", { type: "button", class: `rank${pickRank[name] === r ? " selected" : ""}`, "data-rank": r, text: r });
    b.disabled = full;
    b.onclick = () => { pickRank[name] = pickRank[name] === r ? "" : r; renderEntry(); };
    return b;
  }));
  const suits = el("div", { class: "suit-pad" }, ...Object.entries(SUITS).map(([code, sym]) => {
    const b = el("button", { type: "button", class: `suit${code === "H" || code === "D" ? " red" : ""}`, "data-suit": code, text: sym });
    b.disabled = full || !pickRank[name];
    b.onclick = () => { const c = `${pickRank[name]}${code}`; pickRank[name] = ""; set([...chosen, c]); };
    return b;
  }));
  wrap.append(ranks, suits);
  return wrap;
}

// ---- the entry form -------------------------------------------------------------------------------
function formFor(g) { return FORMS[g.game] || {}; }
function renderEntry() {
  const g = playing();
  $("entry-panel").hidden = !g;
  if (!g) return;
  const forms = formFor(g);
  const kinds = Object.keys(forms).filter((k) => k in (gameInfo(g.game).entries || forms));
  if (!kinds.includes(kind)) { kind = kinds[0] || ""; values = {}; }
  $("entry-kinds").replaceChildren(...kinds.map((k) => tapButton(k, k === kind, () => { kind = k; values = {}; pickRank = {}; renderEntry(); }, { "data-kind": k })));
  $("entry-kinds").hidden = kinds.length < 2;
  const sides = sidesOf(g);
  const fields = (forms[kind] || []);
  for (const f of fields) if (!(f.name in values)) values[f.name] = defaultValue(f, sides);
  $("entry-form").replaceChildren(...fields.filter((f) => !f.when || values[f.when[0]] === f.when[1])
    .map((f) => fieldEl(f, values[f.name], (v) => { values[f.name] = v; renderEntry(); }, sides)));
  $("submit-entry").textContent = `Enter ${kind}`;
}
function entryData() {
  const g = playing();
  const data = {};
  for (const f of (formFor(g)[kind] || [])) {
    if (f.when && values[f.when[0]] !== f.when[1]) continue;
    let v = values[f.name];
    if (f.type === "cards") { if (!v.length) { if (f.optional) continue; throw new Error(`pick the ${f.label || f.name}`); } v = v.join(" "); }
    if ((f.type === "many") && f.optional && !v.length) continue;
    if (v == null) { if (f.optional) continue; throw new Error(`choose ${f.label || f.name}`); }
    if (f.type === "bool" && !v) continue;
    data[f.name] = v;
  }
  return data;
}

// ---- starting a game ----------------------------------------------------------------------------
function renderStart() {
  const g = currentGame();
  $("start-panel").hidden = !!playing();
  if (!book) return;
  const sel = $("game-select");
  const name = sel.value;
  const info = gameInfo(name);
  if (!seated.length || seated.some((p) => !book.players.includes(p))) seated = [...book.players];
  const n = seated.length;
  const fits = n >= info.sides[0] && n <= info.sides[1] * Math.max(...info.partnership_sizes);
  $("game-about").textContent = `${info.title || name} · ${info.sides[0]}–${info.sides[1]} sides · scores ${info.units || "points"} · RULES ${info.rules_section || ""}${fits ? "" : " · not for " + n + " players"}`;
  $("seat-picker").replaceChildren(el("span", { class: "quiet", text: "Playing:" }), ...book.players.map((p) => tapButton(p, seated.includes(p),
    () => { seated = seated.includes(p) ? seated.filter((x) => x !== p) : book.players.filter((x) => x === p || seated.includes(x)); renderStart(); }, { "data-player": p })));
  const pairs = info.partnership_sizes.includes(2) && n % 2 === 0 && n >= 4;
  $("teams").replaceChildren(...(pairs ? [el("p", { class: "quiet", text: `Partnerships: ${teamsOf(seated).map((t) => t.join(" & ")).join(" vs ")} (sit partners opposite)` })] : []));
  $("house-rules").replaceChildren(...(info.house_rules || []).filter((r) => ["number", "boolean"].includes(typeof r.default) || (r.choices && r.choices.length)).slice(0, 6).map((r) => {
    const current = r.name in rules ? rules[r.name] : r.default;
    let control;
    if (r.choices && r.choices.length) {
      control = el("select", { "data-rule": r.name }, ...r.choices.map((c) => el("option", { value: JSON.stringify(c), text: String(c) })));
      control.value = JSON.stringify(current);
      control.onchange = () => { rules[r.name] = JSON.parse(control.value); };
    } else if (typeof r.default === "boolean") {
      control = tapButton(current ? "yes" : "no", !!current, () => { rules[r.name] = !current; renderStart(); }, { "data-rule": r.name });
    } else {
      control = el("input", { type: "number", inputmode: "numeric", value: String(current), "data-rule": r.name });
      control.onchange = () => { rules[r.name] = Number(control.value); };
    }
    return el("div", { class: "rule", title: r.help }, el("label", { text: r.name.replace(/_/g, " ") }), control);
  }));
  $("start-game").disabled = !fits;
  if (g && g.result) $("game-about").textContent += ` · last game: ${g.result.label}`;
}
function teamsOf(list) {
  const half = list.length / 2;
  return [list.filter((_, i) => i % 2 === 0), list.filter((_, i) => i % 2 === 1)].filter((t) => t.length === half);
}

// ---- the book: standings, entries, session ----------------------------------------------------------
function entrySummary(e) {
  const bits = Object.entries(e.data || {}).map(([k, v]) => `${k.replace(/_/g, " ")} ${typeof v === "object" ? Object.entries(v).map(([a, b]) => `${a} ${typeof b === "object" ? "…" : b}`).join(", ") : v}`);
  return `${e.kind}: ${bits.join(" · ")}`;
}
function renderBook() {
  document.body.dataset.book = book ? book.book : "";
  $("books-panel").hidden = !!book;
  $("book-panel").hidden = !book;
  if (!book) return;
  $("book-title").textContent = `${book.title} · ${book.players.join(", ")}`;
  $("tv-link").href = `/score?book=${encodeURIComponent(book.book)}&tv=1${token ? "&token=" + encodeURIComponent(token) : ""}`;
  const g = currentGame();
  $("game-heading").textContent = g ? `Game ${g.index}: ${g.title}${g.result ? " — over" : ""}` : "No game yet";
  const totals = g ? g.totals : {};
  $("standings").replaceChildren(...(g ? g.sides.map((s) => el("div", { class: `score-side${g.result && g.result.winners.includes(s.name) ? " winner" : ""}`,
    "data-side": s.name, "data-total": totals[s.name] }, el("span", { class: "label", text: s.name }), el("span", { class: "score-value", text: totals[s.name] }),
    s.members.length > 1 ? el("small", { text: s.members.join(" & ") }) : null)) : [el("p", { class: "quiet", text: "Start a game below." })]));
  $("game-facts").textContent = g ? (g.result ? `${g.result.label}: ${g.result.winners.join(", ")} win${g.close_reason ? " (" + g.close_reason + ")" : ""}` :
    `${plural(g.entries.filter((e) => !e.undone).length, "entry", "entries")} · ${Object.entries(g.rules || {}).slice(0, 4).map(([k, v]) => `${k.replace(/_/g, " ")} ${v}`).join(", ")}`) : "";
  $("game-actions").hidden = !playing();
  $("entries").replaceChildren(...(g ? [...g.entries].reverse().map((e) => {
    const b = el("button", { type: "button", class: "secondary small", "data-entry": e.id, text: e.undone ? "Restore" : "Undo" });
    b.onclick = act(async () => { book = (await api("POST", bookPath(e.undone ? "/restore" : "/undo"), { entry: e.id, reason: "from the score page" })).book; renderAll(); });
    return el("li", { class: `entry${e.undone ? " undone" : ""}`, "data-entry": e.id, "data-undone": e.undone ? "yes" : "no" },
      el("span", { class: "entry-no", text: `${e.id}` }), el("span", { class: "entry-text", text: entrySummary(e) }),
      el("span", { class: "entry-totals", text: Object.entries(e.totals || {}).map(([k, v]) => `${k} ${v}`).join(" · ") }), playing() ? b : null);
  }) : []));
  $("entries-panel").hidden = !g || !g.entries.length;
  const session = (book.session || {}).players || {};
  $("session").replaceChildren(el("tr", {}, el("th", { text: "Player" }), el("th", { text: "Points" }), el("th", { text: "Games won" }), el("th", { text: "Played" })),
    ...Object.entries(session).sort((a, b) => b[1].games_won - a[1].games_won).map(([p, s]) => el("tr", { "data-player": p, "data-points": s.points, "data-games-won": s.games_won },
      el("td", { text: p }), el("td", { text: s.points }), el("td", { text: s.games_won }), el("td", { text: s.games_played }))));
  $("games").replaceChildren(...book.games.map((x) => el("li", { class: "score-game", "data-game-index": x.index },
    el("b", { text: `${x.index}. ${x.title}` }), el("span", { text: ` — ${Object.entries(x.totals).map(([k, v]) => `${k} ${v}`).join(", ")}${x.result ? " · " + x.result.winners.join(", ") + " won" : " · in play"}` }))));
}
function renderBooks(list) {
  $("books").replaceChildren(...(list.length ? list.map((b) => el("a", { class: "book-link", href: `/score?book=${encodeURIComponent(b.book)}`, "data-book": b.book },
    el("b", { text: b.title }), el("span", { text: ` ${b.players.join(", ")} · ${b.games} game${b.games === 1 ? "" : "s"}${b.current ? " · " + b.current.title + (b.current.over ? " (over)" : "") : ""}` })))
    : [el("p", { class: "quiet", text: "No scorebook yet: open one below." })]));
  $("new-players").replaceChildren(...newPlayers.map((p) => tapButton(`${p} ✕`, true, () => { newPlayers = newPlayers.filter((x) => x !== p); renderBooks(list); }, { "data-player": p })));
}
function renderAll() { renderBook(); renderStart(); renderEntry(); }

async function load() {
  games = await api("GET", withToken("/api/score/games"));
  $("game-select").replaceChildren(...games.map((g) => el("option", { value: g.name, text: g.title })));
  $("game-select").value = games.some((g) => g.name === "hearts") ? "hearts" : games[0].name;
  if (bookName()) {
    book = await api("GET", withToken(bookPath()));
    renderAll();
  } else {
    let list = await api("GET", withToken("/api/score/books"));
    renderBooks(list);
    $("new-book").onsubmit = (ev) => { ev.preventDefault(); const n = $("player-name").value.trim(); if (n && !newPlayers.includes(n)) newPlayers.push(n); $("player-name").value = ""; renderBooks(list); $("player-name").focus(); };
    $("open-book").onclick = act(async () => {
      const name = $("book-name").value.trim();
      if (!name) throw new Error("give the scorebook a name");
      const pending = $("player-name").value.trim();
      if (pending && !newPlayers.includes(pending)) newPlayers.push(pending);
      if (newPlayers.length < 2) throw new Error("add at least two players");
      await api("POST", "/api/score/books", { book: name, players: newPlayers });
      location.search = `?book=${encodeURIComponent(name)}${token ? "&token=" + encodeURIComponent(token) : ""}`;
    });
    list = list || [];
  }
  document.body.dataset.ready = "yes";
}

$("game-select").onchange = () => { rules = {}; renderStart(); };
$("start-game").onclick = act(async () => {
  const info = gameInfo($("game-select").value);
  const body = { game: info.name, rules };
  const pairs = info.partnership_sizes.includes(2) && seated.length % 2 === 0 && seated.length >= 4;
  if (pairs) { const [a, b] = teamsOf(seated); body.partnerships = { [a.join(" & ")]: a, [b.join(" & ")]: b }; }
  if (seated.length !== book.players.length) body.players = seated;
  book = (await api("POST", bookPath("/games"), body)).book;
  kind = ""; values = {}; rules = {};
  renderAll();
});
$("submit-entry").onclick = act(async () => {
  book = (await api("POST", bookPath("/entries"), { kind, data: entryData() })).book;
  values = {}; pickRank = {};
  renderAll();
});
$("undo-last").onclick = act(async () => { book = (await api("POST", bookPath("/undo"), { reason: "undo last" })).book; renderAll(); });
$("end-game").onclick = act(async () => {
  if (!confirm("End this game now? The best total wins.")) return;
  book = (await api("POST", bookPath("/end"), { reason: "ended at the table" })).book; renderAll();
});
// ?tv=1: the standings for the TV in the room, refreshed every few seconds.
if (new URLSearchParams(location.search).get("tv")) {
  document.body.classList.add("tv-mode");
  setInterval(async () => { if (bookName()) { book = await api("GET", withToken(bookPath())).catch(() => book); renderAll(); } }, 3000);
}
load().catch((e) => { errorBox.textContent = e.message; });
