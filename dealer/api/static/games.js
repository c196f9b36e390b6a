// Per-game views for the big screen. Each takes the game's public JSON (to_json), the whole table
// state (balances, shoe) and the game's key, and returns a node. Every figure a test or a casino
// might read carries a data-* attribute (data-rank, data-total, data-pot...).
"use strict";

function entries(obj) { return Array.isArray(obj) ? obj.map((v, i) => [String(i + 1), v]) : Object.entries(obj || {}); }
function title(text) { return el("h3", { class: "view-title", text }); }
function stat(label, value, attrs = {}) {
  return el("div", { class: "stat", ...attrs }, el("span", { class: "stat-label", text: label }), el("span", { class: "stat-value", text: String(value ?? "–") }));
}
function stats(...items) { return el("div", { class: "stats" }, ...items); }
function resultsList(results, cls = "results") {
  const ul = el("ul", { class: cls });
  for (const r of results || []) {
    ul.append(el("li", { "data-seat": r.seat, "data-result": r.result || r.outcome || "", "data-net": r.net ?? r.won ?? 0,
      text: `${who(r.seat)}${r.bet != null && typeof r.bet === "string" ? " " + r.bet : ""}: ${r.result || r.outcome} ${signed(r.net ?? r.won ?? 0)}` }));
  }
  return ul;
}
function grid(headers, rows, attrs = {}) {
  const t = el("table", { class: "grid", ...attrs });
  t.append(el("tr", {}, ...headers.map((h) => el("th", { text: h }))));
  for (const r of rows) t.append(r);
  return t;
}

// ---- blackjack: the dealer on top, the seats on an arc with bets, hands and results ----------------
const RESULT_WORDS = { win: "WIN", blackjack: "BLACKJACK", lose: "LOSE", push: "PUSH", surrender: "SURRENDER", bust: "BUST" };
function seatArc(count) {  // x, y (percent of the table box) for seats 1..count, seat 1 on the right (first base)
  return Array.from({ length: count }, (_, i) => {
    const t = count === 1 ? 0.5 : 1 - i / (count - 1);
    return { x: 3 + t * 81, y: 36 + 24 * (1 - Math.pow(2 * t - 1, 2)) };
  });
}
GAME_VIEWS.blackjack = (g, state) => {
  const wrap = el("div", { class: "blackjack felt-table", "data-round": g.round ?? "", "data-phase": g.phase ?? "" });
  const dealer = g.dealer || {};
  const last = (g.last_rounds || []).slice(-1)[0];
  const dealerCards = dealer.cards && dealer.cards.length ? dealer.cards : [];
  wrap.append(el("div", { class: "hand dealer-spot", id: "dealer-hand", "data-total": dealer.total ?? "" },
    el("span", { class: "label", text: dealerCards.length ? `Dealer ${dealer.total || ""}${dealer.soft ? " soft" : ""}` : "Dealer" }), cardsEl(dealerCards, "fan")));
  const r = g.rules || {};
  if (r.blackjack_pays) wrap.append(el("div", { class: "felt-rules", text: `Blackjack pays ${r.blackjack_pays.replace(":", " to ")} · dealer ${r.hit_soft_17 ? "hits" : "stands on"} soft 17` }));
  const count = Number((g.rules || {}).seats) || Math.max(7, ...Object.keys(g.seats || {}).map(Number));
  const spots = seatArc(count);
  const players = playersBySeat(state);
  for (let n = 1; n <= count; n++) {
    const seat = (g.seats || {})[String(n)] || {};
    const hands = seat.hands || [];
    const lastSeat = !hands.length && last && (g.phase === "betting") ? (last.seats || {})[String(n)] : null;
    const shown = hands.length ? hands : [];
    const occupied = players[String(n)] || seat.bet || hands.length;
    const box = el("div", { class: `seat-spot${occupied ? "" : " empty"}${g.turn && String(g.turn.seat ?? g.turn) === String(n) ? " to-act" : ""}${shown.length > 1 ? " split" : ""}`,
      "data-seat-spot": n, style: `left:${spots[n - 1].x}%;--y:${spots[n - 1].y}%;--hands:${Math.max(1, shown.length)}` });
    const chips = seatChips(state, n);
    box.append(el("div", { class: "seat-name" }, el("span", { class: "who", text: seatName(state, n) }), chips != null && occupied ? el("span", { class: "chips-count", text: chips }) : null));
    shown.forEach((hand, i) => {
      const row = el("div", { class: "hand", "data-seat": n, "data-total": hand.total ?? "", "data-result": hand.result ?? "" });
      row.append(cardsEl(hand.cards, "fan"));
      const res = hand.result ? el("span", { class: `badge ${hand.result}`, text: `${RESULT_WORDS[hand.result] || hand.result}${hand.net ? " " + signed(hand.net) : ""}` }) : null;
      row.append(el("div", { class: "hand-foot" }, el("span", { class: "bet-chip", text: hand.stake ?? seat.bet ?? "" }),
        el("span", { class: "total", text: hand.total ? `${hand.total}${hand.soft && hand.total < 21 ? " soft" : ""}` : "" }), res,
        el("span", { class: "result", text: [hand.result, hand.net != null && hand.result ? signed(hand.net) : null].filter((x) => x != null && x !== "").join(" · ") })));
      box.append(row);
    });
    if (!shown.length) {
      const row = el("div", { class: "hand", "data-seat": n });
      if (seat.bet) row.append(el("div", { class: "hand-foot" }, el("span", { class: "bet-chip big", text: seat.bet })));
      else if (lastSeat) row.append(el("div", { class: "hand-foot" }, ...(lastSeat.hands || []).map((h) => el("span", { class: `badge ${h.result}`, text: `${RESULT_WORDS[h.result] || h.result} ${signed(h.net ?? 0)}` }))));
      else row.append(el("span", { class: "open-seat", text: occupied ? "no bet" : "open seat" }));
      box.append(row);
    }
    wrap.append(box);
  }
  if (last) wrap.append(el("p", { class: "last-round", "data-round": last.round, text: `Round ${last.round}: dealer ${last.dealer_total} — ` +
    entries(last.seats).map(([n, s]) => `${seatName(state, n)} ${(s.hands || []).map((h) => h.result).join("/")}`).join(", "), "data-text": `Round ${last.round}: dealer ${last.dealer_total} — ` +
    entries(last.seats).map(([n, s]) => `seat ${n} ${(s.hands || []).map((h) => h.result).join("/")}`).join(", ") }));
  const shoe = state.shoe;
  const pen = shoe ? Math.round(100 * shoe.penetration) : null;
  wrap.append(stats(stat("Round", g.round), stat("Penetration", pen == null ? "–" : `${pen}%`, { "data-penetration": pen ?? "" })));
  return wrap;
};

// ---- faro / stuss: the turn, the casekeeper, the layout ---------------------------------------------

function casekeeperEl(keeper, bets = []) {
  const box = el("div", { id: "casekeeper", class: "casekeeper", "data-cards-out": keeper.cards_out, "data-cards-left": keeper.cards_left });
  for (const s of keeper.spindles) {
    const spindle = el("div", { class: `spindle${s.left === 0 ? " dead" : ""}${s.excess ? " fault" : ""}`, "data-rank": s.rank,
      "data-out": s.out, "data-left": s.left, "data-excess": s.excess });
    spindle.append(el("span", { class: "rank", text: s.rank }));
    const rod = el("span", { class: "rod" });
    s.beads.forEach((out, i) => rod.append(el("span", { class: `bead${out ? " out" : ""}`, "data-bead": i + 1 })));
    spindle.append(rod);
    if (s.excess) spindle.append(el("span", { class: "excess", text: `+${s.excess}` }));
    const on = bets.filter((b) => b.rank === s.rank).reduce((n, b) => n + b.amount, 0);
    spindle.append(el("span", { class: `rank-bets${on ? "" : " none"}`, text: on ? String(on) : "·" }));
    box.append(spindle);
  }
  return box;
}

GAME_VIEWS.faro = (g, state) => {
  const wrap = el("div", { class: "faro", "data-variant": g.game, "data-deal": g.deal, "data-turn": g.turn, "data-box-left": g.box_left });
  const left = el("div", { class: "faro-left" }), right = el("div", { class: "faro-right" });
  left.append(title(`${g.game === "stuss" ? "Stuss" : "Faro"} · deal ${g.deal} · turn ${g.turn}`));
  const turn = el("div", { class: "faro-turn" });
  const spot = (role, label, code, extra = "") => el("div", { class: `hand ${extra}`.trim(), "data-role": role }, el("span", { class: "label", text: label }), cardsEl([code]));
  if (g.soda) turn.append(spot("soda", "Soda", g.soda));
  const last = (g.history || []).slice(-1)[0];
  const current = g.current_turn || [];
  if (current.length) {
    for (const c of current) turn.append(spot(c.role || "", c.role || "after the deal", c.card, "current"));
  } else if (last) {
    turn.append(spot("loser", "Loser (bank)", last.loser), spot("winner", "Winner", last.winner));
    if (last.split) turn.append(el("span", { class: "badge split", text: "SPLIT" }));
  }
  if (g.hock) turn.append(spot("hock", "Hock", g.hock));
  left.append(turn);
  left.append(el("h4", { text: "Casekeeper" }), casekeeperEl(g.casekeeper, g.bets || []));
  const split = g.casekeeper.split_probability;
  left.append(stats(stat("In the box", g.box_left, { "data-stat": "box-left" }), stat("Split next turn", split ? `${(100 * split.value).toFixed(1)}%` : "–"),
    stat("Next", g.next || "new deal")));
  const bets = g.bets || [];
  right.append(el("h4", { text: "Layout" }));
  if (bets.length) {
    right.append(grid(["Player", "Rank", "Chips"], bets.map((b) =>
      el("tr", { class: "layout-bet", "data-seat": b.seat, "data-rank": b.rank, "data-coppered": b.coppered ? "yes" : "no", "data-amount": b.amount },
        el("td", { text: seatName(state, b.seat) }), el("td", { text: b.rank + (b.coppered ? " ⊘" : "") }), el("td", { text: b.amount })))));
  } else right.append(el("p", { class: "quiet", text: "no bets on the layout" }));
  for (const c of g.calls || []) right.append(el("p", { class: "call", "data-seat": c.seat, text: `${seatName(state, c.seat)} calls the turn ${c.order.join("-")} for ${c.amount}` }));
  right.append(el("h4", { text: "Last turns" }));
  const turns = el("ol", { class: "turns history" });
  for (const t of (g.history || []).slice(-8).reverse()) {
    turns.append(el("li", { class: "turn", "data-turn": t.turn, "data-loser": t.loser, "data-winner": t.winner, "data-split": t.split ? "yes" : "no" },
      el("span", { class: "turn-no", text: `${t.turn}` }), cardsEl([t.loser, t.winner]), resultsList(t.results)));
  }
  right.append(turns);
  wrap.append(left, right);
  return wrap;
};

// ---- trente et quarante: the two rows and the marqueur -------------------------------------------
GAME_VIEWS["trente-et-quarante"] = (g) => {
  const wrap = el("div", { class: "tq", "data-coup": g.coup, "data-shoe-left": g.shoe_cards_left });
  wrap.append(title(`Trente et quarante · coup ${g.coup}`));
  for (const row of ["noir", "rouge"]) {
    const data = g[row];
    wrap.append(el("div", { class: `hand tq-row ${row}`, "data-row": row, "data-total": data.total },
      el("span", { class: "label", text: `${row === "noir" ? "Noir" : "Rouge"} ${data.cards.length ? data.total : ""}` }), cardsEl(data.cards)));
  }
  const bets = g.bets || [];
  if (bets.length) wrap.append(grid(["Seat", "Bet", "Chips"], bets.map((b) => el("tr", { class: "tq-bet", "data-seat": b.seat, "data-bet": b.bet, "data-amount": b.amount },
    el("td", { text: who(b.seat) }), el("td", { text: b.bet }), el("td", { text: b.amount })))));
  const coups = (g.history || []).filter((h) => !h.void);
  const marqueur = el("div", { class: "marqueur" });
  for (const c of coups.slice(-30)) {
    marqueur.append(el("span", { class: `coup ${c.winner || ""}${c.refait_31 ? " refait" : ""}`, "data-coup": c.coup, "data-winner": c.winner || "refait",
      "data-colour": c.colour_winner || "", "data-noir": c.noir, "data-rouge": c.rouge, title: `coup ${c.coup}: noir ${c.noir}, rouge ${c.rouge}`,
      text: c.refait_31 ? "31" : c.winner === "rouge" ? "R" : c.winner === "noir" ? "N" : "=" }));
  }
  wrap.append(el("h4", { text: "Marqueur" }), marqueur);
  const last = coups.slice(-1)[0];
  if (last) wrap.append(el("p", { class: "last-round", "data-round": String(last.round), text: `Coup ${last.coup}: noir ${last.noir}, rouge ${last.rouge} — ${last.refait_31 ? "31 refait" : last.winner + " wins, " + last.colour_winner}` }), resultsList(last.results));
  wrap.append(stats(stat("Cards left", g.shoe_cards_left)));
  return wrap;
};

// ---- red dog: the spread and what it pays --------------------------------------------------------
function spreadText(spread) {
  if (spread == null) return "";
  if (spread === -1) return "pair: a third card";
  if (spread === 0) return "consecutive: push";
  return `spread ${spread}`;
}

GAME_VIEWS["red-dog"] = (g) => {
  const wrap = el("div", { class: "red-dog", "data-hand": g.hand, "data-spread": g.spread ?? "" });
  wrap.append(title(`Red dog · hand ${g.hand}`));
  const pays = g.rules && g.rules.spread_payouts;
  const payout = g.spread > 0 && pays ? (pays[String(g.spread)] || pays["4-11"]) : null;
  wrap.append(el("div", { class: "hand red-dog-cards" }, el("span", { class: "label", text: "Cards" }), cardsEl(g.cards)));
  wrap.append(el("p", { class: "spread", "data-spread": g.spread ?? "", text: `${spreadText(g.spread)}${payout ? ` · pays ${payout}` : ""}` }));
  const seats = Object.keys(g.bets || {});
  if (seats.length) wrap.append(grid(["Seat", "Bet", "Raise"], seats.map((s) => el("tr", { class: "rd-bet", "data-seat": s, "data-amount": g.bets[s], "data-raise": g.raises[s] ?? "" },
    el("td", { text: who(s) }), el("td", { text: g.bets[s] }), el("td", { text: g.raises[s] ?? "" })))));
  const list = el("ol", { class: "hands history" });
  for (const h of (g.history || []).slice(-8).reverse()) {
    list.append(el("li", { class: "rd-hand", "data-hand": h.hand, "data-spread": h.spread }, el("span", { text: `Hand ${h.hand}: ${spreadText(h.spread)} ` }), cardsEl(h.cards), resultsList(h.results)));
  }
  wrap.append(list, stats(stat("Shoe left", g.shoe_left)));
  return wrap;
};

// ---- in-between and the high-card pool: the pot games -------------------------------------------
GAME_VIEWS["in-between"] = (g, state) => {
  const pot = (state.balances || {})["in-between-pot"] ?? 0;
  const wrap = el("div", { class: "in-between", "data-round": g.round, "data-to-play": g.to_play });
  wrap.append(title(`In-between · round ${g.round} · ${g.to_play} to play`));
  wrap.append(el("div", { class: "pot", "data-pot": pot }, el("span", { class: "label", text: "Pot" }), el("span", { class: "pot-value", text: pot })));
  wrap.append(el("div", { class: "hand in-between-cards", "data-spread": g.spread || "" }, el("span", { class: "label", text: g.to_play }), cardsEl(g.cards),
    el("span", { class: "result", text: `${g.spread || ""}${g.bet ? " · bet " + g.bet : ""}` })));
  wrap.append(grid(["Player", "Chips"], g.players.map((p) => el("tr", { class: `player${p === g.to_play ? " active" : ""}${p === g.dealer ? " dealer" : ""}`, "data-player": p, "data-balance": (state.balances || {})[p] ?? 0 },
    el("td", { text: p + (p === g.dealer ? " (deals)" : "") }), el("td", { text: (state.balances || {})[p] ?? 0 })))));
  const list = el("ol", { class: "turns history" });
  for (const h of (g.history || []).slice(-8).reverse()) {
    list.append(el("li", { class: "ib-turn", "data-seat": h.seat, "data-result": h.result, "data-net": h.net }, el("span", { text: `${who(h.seat)}: ` }), cardsEl(h.cards), el("span", { class: "result", text: `${h.result} ${signed(h.net)}` })));
  }
  wrap.append(list, stats(stat("Cards left", g.cards_left)));
  return wrap;
};

GAME_VIEWS["high-card-pool"] = (g, state) => {
  const pot = (state.balances || {})["high-card-pool-pot"] ?? 0;
  const wrap = el("div", { class: "high-card-pool", "data-deal": g.deal, "data-to-bet": g.to_bet || "" });
  wrap.append(title(`High-card pool · deal ${g.deal} · ${g.dealer} deals`));
  wrap.append(el("div", { class: "pot", "data-pot": pot }, el("span", { class: "label", text: "Pot" }), el("span", { class: "pot-value", text: pot })));
  if (g.turned) wrap.append(el("div", { class: "hand" }, el("span", { class: "label", text: `Turned for ${g.to_bet}` }), cardsEl([g.turned])));
  wrap.append(grid(["Player", "Cards", "Chips"], g.players.map((p) => el("tr", { class: `player${p === g.to_bet ? " active" : ""}`, "data-player": p, "data-cards": g.hands[p] ?? 0 },
    el("td", { text: p + (p === g.to_bet ? (g.bet ? ` bets ${g.bet}` : " to bet") : "") }), el("td", { text: g.hands[p] ?? 0 }), el("td", { text: (state.balances || {})[p] ?? 0 })))));
  const list = el("ol", { class: "turns history" });
  for (const h of (g.history || []).slice(-8).reverse()) {
    list.append(el("li", { "data-seat": h.seat, "data-result": h.result, "data-net": h.net }, el("span", { text: `${h.seat}: ${h.result} ${signed(h.net)} ` }),
      h.turned ? cardsEl([h.turned]) : null, typeof h.shown === "string" ? cardsEl([h.shown]) : null));
  }
  wrap.append(list);
  return wrap;
};

// ---- pai gow: the dice, the position they pick, the hands ------------------------------------------
const DIE_FACES = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
GAME_VIEWS["pai-gow"] = (g, state) => {
  const wrap = el("div", { class: "pai-gow", "data-round": g.round, "data-phase": g.phase });
  wrap.append(title(`Pai gow · round ${g.round} · ${g.phase} · ${g.banker === "house" ? "the house banks" : who(g.banker) + " banks"}`));
  const dice = g.dice;
  const diceBox = el("div", { class: "dice", "data-total": dice ? dice.total : "", "data-first-position": dice ? dice.first_position : "", "data-source": dice ? dice.source : "" });
  if (dice) {
    for (const d of dice.dice) diceBox.append(el("span", { class: "die", "data-value": d, text: DIE_FACES[d] || d }));
    diceBox.append(el("span", { class: "result", text: `${dice.total} → position ${dice.first_position} takes the first hand` }));
  } else diceBox.append(el("span", { class: "label", text: "dice not thrown" }));
  wrap.append(diceBox);
  const positions = el("div", { class: "positions" });
  const results = Object.fromEntries((g.results || []).map((r) => [r.seat, r]));
  for (let p = 1; p <= 7; p++) {
    const seat = p === 1 ? "dealer" : `seat-${p - 1}`;
    const hand = (g.hands || {})[String(p)];
    const first = dice && dice.first_position === p;
    const name = p === 1 ? "Dealer" : seatName(state, seat);
    const who = p === g.banker_position ? `${name} (bank)` : name;
    const box = el("div", { class: `position${first ? " first" : ""}${hand ? " active" : " idle-seat"}`, "data-position": p, "data-seat": seat, "data-first": first ? "yes" : "no",
      "data-bet": (g.bets || {})[seat] ?? "" }, el("span", { class: "label", text: `${p}. ${who}${(g.bets || {})[seat] ? " · " + g.bets[seat] : ""}` }));
    if (hand && hand.back) {
      box.append(el("div", { class: "pg-hand", "data-part": "back" }, el("small", { text: `back · ${hand.back_hand}` }), cardsEl(hand.back)));
      box.append(el("div", { class: "pg-hand", "data-part": "front" }, el("small", { text: `front · ${hand.front_hand}` }), cardsEl(hand.front)));
      if (hand.foul) box.append(el("span", { class: "result", text: "foul" }));
    } else if (hand) box.append(el("div", { class: "pg-hand", "data-part": "unset" }, el("small", { text: "setting the hand…" }), cardsEl(Array(hand.cards || 7).fill("BK"))));
    const r = results[seat];
    if (r) box.append(el("span", { class: "result", "data-result": r.outcome, text: `${r.outcome} ${signed(r.won)}` }));
    positions.append(box);
  }
  wrap.append(positions);
  const last = (g.history || []).slice(-1)[0];
  if (last) wrap.append(el("p", { class: "last-round", "data-round": last.round, text: `Round ${last.round}: dice ${last.dice.join("+")} — ` +
    last.results.map((r) => `${who(r.seat)} ${r.outcome}`).join(", ") }));
  return wrap;
};

// ---- slots: reels, meters, the progressive -------------------------------------------------------
function dollars(cents) { return `$${(cents / 100).toFixed(2)}`; }
GAME_VIEWS.slots = (g) => {
  const wrap = el("div", { class: "slots" });
  const pools = el("div", { class: "progressives" });
  for (const [name, p] of Object.entries(g.pools || {})) {
    pools.append(el("div", { class: "progressive", "data-pool": name, "data-value-cents": p.value_cents, "data-wins": p.wins },
      el("span", { class: "label", text: name }), el("span", { class: "progressive-value", text: dollars(p.value_cents) })));
  }
  wrap.append(pools);
  const machines = el("div", { class: "slot-machines" });
  wrap.append(machines);
  for (const [id, m] of Object.entries(g.machines || {})) {
    const spin = m.last_spin;
    const box = el("div", { class: "slot-machine", "data-machine": id, "data-title": m.slug, "data-credits": m.meters.credits, "data-games-played": m.meters.games_played });
    box.append(el("h4", { text: `${id} · ${m.title} · ${m.denomination_cents}¢` }));
    const reels = el("div", { class: "reels", "data-stops": spin ? spin.stops.join(",") : "" });
    const rows = spin ? spin.display : [];
    const count = rows.length ? rows[0].length : 3;
    for (let r = 0; r < count; r++) {
      const reel = el("div", { class: "reel", "data-reel": r + 1 });
      for (let row = 0; row < rows.length; row++) reel.append(el("span", { class: `symbol${row === 1 ? " payline" : ""}`, "data-row": row + 1, text: rows[row][r] }));
      if (!rows.length) reel.append(el("span", { class: "symbol", text: "–" }));
      reels.append(reel);
    }
    box.append(reels);
    if (spin) box.append(el("p", { class: "result", "data-win": spin.win, text: spin.win ? `WIN ${spin.win}${spin.jackpot ? " · JACKPOT " + spin.jackpot : ""}` +
      (spin.line_wins.length ? ` (${spin.line_wins.map((w) => w.combination).join(", ")})` : "") : `${spin.kind} spin, ${spin.coins} coins` }));
    const meters = el("div", { class: "slot-meters" });
    for (const key of ["credits", "coin_in", "coin_out", "games_played", "games_won", "jackpots"]) {
      meters.append(stat(key.replace("_", " "), m.meters[key], { "data-meter": key, "data-value": m.meters[key] }));
    }
    for (const [key, value] of Object.entries(m.feature_meters || {})) meters.append(stat(key.replace("_", " "), value, { "data-meter": key, "data-value": value }));
    box.append(meters);
    if (m.pending) box.append(el("p", { class: "result", text: `${m.pending.kind} spin pending` }));
    machines.append(box);
  }
  return wrap;
};

// ---- scorebooks: the scoreboard -----------------------------------------------------------------
GAME_VIEWS.scorebook = (g) => {
  const wrap = el("div", { class: "scoreboard", "data-book": g.book, "data-current-game": g.current_game ?? "" });
  wrap.append(title(`${g.title} · scoreboard`));
  const games = g.games || [];
  const current = games.find((x) => x.index === g.current_game);
  if (current) {
    const sides = current.sides.map((s) => s.name);
    const leader = Math.max(...sides.map((s) => current.totals[s]));
    const board = el("div", { class: "score-current", "data-game": current.game, "data-hands": current.hands });
    board.append(el("h4", { text: `Game ${current.index}: ${current.title}${current.result ? " — " + current.result.label : ""}` }));
    const row = el("div", { class: "score-totals" });
    for (const s of sides) {
      row.append(el("div", { class: `score-side${current.totals[s] === leader ? " leading" : ""}${current.result && current.result.winners.includes(s) ? " winner" : ""}`,
        "data-side": s, "data-total": current.totals[s] }, el("span", { class: "label", text: s }), el("span", { class: "score-value", text: current.totals[s] })));
    }
    board.append(row, el("p", { text: `${current.hands} hands · ${Object.entries(current.rules || {}).map(([k, v]) => `${k} ${v}`).join(", ")}` }));
    wrap.append(board);
  }
  const players = g.players || [];
  const rows = games.slice(-8).map((x) => el("tr", { class: "score-game", "data-game-index": x.index, "data-game": x.game },
    el("th", { text: `${x.index}. ${x.game}` }), ...players.map((p) => {
      const side = (x.sides.find((s) => s.members.includes(p)) || {}).name;
      return el("td", { "data-player": p, "data-total": side != null ? x.totals[side] : "", text: side != null ? x.totals[side] : "" });
    })));
  const session = (g.session || {}).players || {};
  rows.push(el("tr", { class: "score-session" }, el("th", { text: "Session" }), ...players.map((p) => el("td", { "data-player": p,
    "data-points": (session[p] || {}).points ?? 0, "data-games-won": (session[p] || {}).games_won ?? 0,
    text: `${(session[p] || {}).points ?? 0} (${(session[p] || {}).games_won ?? 0} won)` }))));
  wrap.append(grid(["Game", ...players], rows, { class: "grid scores" }));
  return wrap;
};

// ---- caribbean stud, let it ride, pusoy: seats against the dealer (or the community cards) ----------
function handCards(cards) { return Array.isArray(cards) ? cardsEl(cards) : cardsEl(Array(cards || 0).fill("BK")); }
function lastResults(g) {
  const last = (g.history || []).slice(-1)[0];
  if (!last) return null;
  return el("p", { class: "last-round", "data-round": last.round, text: `Round ${last.round}: ` +
    (last.results || []).map((r) => `${who(r.seat)} ${r.outcome || r.result} ${signed(r.net ?? 0)}`).join(", ") });
}
function studView(kind) {
  return (g) => {
    const wrap = el("div", { class: `stud ${kind}`, "data-round": g.round, "data-phase": g.phase });
    wrap.append(title(`${{ "caribbean-stud": "Caribbean stud", "let-it-ride": "Let it ride", pusoy: "Pusoy" }[kind]} · round ${g.round} · ${g.phase}`));
    if (g.dealer) {
      const d = g.dealer;
      const cards = Array.isArray(d.cards) ? d.cards : [...Array(Math.max((d.cards || 0) - 1, 0)).fill("BK"), ...(d.upcard ? [d.upcard] : [])];
      wrap.append(el("div", { class: "hand", id: "dealer-hand", "data-qualifies": d.qualifies == null ? "" : String(d.qualifies) },
        el("span", { class: "label", text: "Dealer" }), cardsEl(cards), el("span", { class: "result", text: d.hand ? `${d.hand}${d.qualifies === false ? " (does not qualify)" : ""}` : "" })));
    }
    if (g.community) wrap.append(el("div", { class: "hand community", "data-turned": g.community.filter((c) => c !== "BK").length },
      el("span", { class: "label", text: "Community" }), cardsEl(g.community)));
    const rows = g.seats || g.hands || {};
    const results = {};
    for (const r of g.results || []) (results[String(r.seat)] ||= []).push(r);
    for (const [n, s] of Object.entries(rows)) {
      if (n === "dealer" && kind === "pusoy") {
        wrap.append(el("div", { class: "hand", id: "dealer-hand", "data-seat": "dealer" }, el("span", { class: "label", text: "Dealer" }),
          s.setting ? settingEl(s.setting) : handCards(s.cards)));
        continue;
      }
      const stake = s.ante != null ? `ante ${s.ante}${s.call ? " · call " + s.call : ""}${s.folded ? " · folded" : ""}` : s.unit != null ? `${s.in_action ?? ""} in action` : `bet ${s.bet}`;
      const row = el("div", { class: "hand", "data-seat": n }, el("span", { class: "label", text: `${who(n)} · ${stake}` }));
      row.append(s.setting ? settingEl(s.setting) : handCards(s.cards));
      if (s.hand) row.append(el("small", { text: ` ${s.hand}` }));
      const mine = results[n] || [];
      if (mine.length) row.append(el("span", { class: "result", "data-result": mine.map((r) => r.outcome || r.result).join(" "), text: mine.map((r) => `${r.outcome || r.result} ${signed(r.net ?? 0)}`).join(" · ") }));
      wrap.append(row);
    }
    const last = lastResults(g);
    if (last) wrap.append(last);
    return wrap;
  };
}
function settingEl(setting) {
  const box = el("span", { class: "setting" });
  for (const part of ["back", "middle", "front"]) if (setting[part]) box.append(el("span", { class: "pg-hand", "data-part": part }, cardsEl(setting[part])));
  return box;
}
GAME_VIEWS["caribbean-stud"] = studView("caribbean-stud");
GAME_VIEWS["let-it-ride"] = studView("let-it-ride");
GAME_VIEWS.pusoy = studView("pusoy");

// ---- baccarat and chemin de fer: the hands and the roads (drawn from the game's roads data) -----
const ROAD_NAMES = { bead_plate: "Bead plate", big_road: "Big road", big_eye_boy: "Big eye boy", small_road: "Small road", cockroach_pig: "Cockroach pig" };
function roadGrid(name, cells, cellEl) {
  const grid = el("div", { class: `road ${name.replace(/_/g, "-")}`, "data-road": name, "data-cells": cells.length });
  for (const c of cells) {
    const node = cellEl(c);
    node.dataset.col = c.col; node.dataset.row = c.row;
    node.style.gridColumn = String(c.col + 1); node.style.gridRow = String(c.row + 1);
    grid.append(node);
  }
  return el("div", { class: `road-box ${name.replace(/_/g, "-")}-box` }, el("h4", { text: ROAD_NAMES[name] || name }), grid);
}
function roadsEl(r) {
  const wrap = el("div", { class: "roads", "data-coups": r.coups, "data-b": r.counts.B, "data-p": r.counts.P, "data-t": r.counts.T });
  const head = el("div", { class: "roads-head" }, stats(stat("Banker", r.counts.B, { "data-count": "B" }), stat("Player", r.counts.P, { "data-count": "P" }),
    stat("Tie", r.counts.T, { "data-count": "T" }), stat("Coups", r.coups)));
  if (r.next) {
    const next = el("div", { class: "road-next" });
    for (const w of ["B", "P"]) {
      next.append(el("span", { class: `next ${w}`, "data-next": w }, el("b", { text: `${w === "B" ? "Banker" : "Player"} next` }),
        ...["big_eye_boy", "small_road", "cockroach_pig"].map((n) => el("span", { class: `cell mark ${r.next[w][n] || ""} ${n.replace(/_/g, "-")}`, title: ROAD_NAMES[n] }))));
    }
    head.append(next);
  }
  wrap.append(head);
  const main = el("div", { class: "roads-main" });
  main.append(roadGrid("bead_plate", r.bead_plate, (c) => el("span", { class: `cell ${c.winner}`, "data-winner": c.winner,
    "data-pairs": `${c.banker_pair ? "B" : ""}${c.player_pair ? "P" : ""}`, text: c.winner })));
  const big = r.big_road;
  main.append(roadGrid("big_road", big.cells, (c) => el("span", { class: `cell ring ${c.winner}${c.ties ? " tie" : ""}`, "data-winner": c.winner,
    "data-ties": c.ties, text: c.ties ? String(c.ties) : "" })));
  const derived = el("div", { class: "roads-derived" });
  for (const name of ["big_eye_boy", "small_road", "cockroach_pig"]) {
    const road = r[name];
    derived.append(roadGrid(name, road.cells, (c) => el("span", { class: `cell mark ${c.colour}`, "data-colour": c.colour })));
  }
  wrap.append(main, derived);
  return wrap;
}
function baccaratView(kind) {
  return (g, state) => {
    const wrap = el("div", { class: `baccarat ${kind}`, "data-coup": g.coup ?? g.round ?? "", "data-phase": g.phase ?? "" });
    const top = el("div", { class: "bac-top" });
    const last = (g.last_coups || g.last_rounds || []).slice(-1)[0];
    for (const side of ["player", "banker"]) {
      const hand = side === "banker" && g.banker_hand ? g.banker_hand : g[side];  // chemin de fer: banker is a seat
      if (!hand || typeof hand !== "object") continue;
      const cards = Array.isArray(hand) ? hand : hand.cards;
      const total = Array.isArray(hand) ? null : hand.total;
      const between = !(cards || []).length && last && last[`${side}_cards`];
      const won = between && last.winner === (side === "player" ? "P" : "B");
      let name = side === "player" ? "Player" : "Banker";
      if (kind === "chemin-de-fer" && side === "banker" && g.banker != null) name = `Banker · ${seatName(state, g.banker)}`;
      const shownTotal = (cards || []).length ? total : between ? last[`${side}_total`] : null;
      top.append(el("div", { class: `hand bac-${side}${won ? " won" : ""}${between ? " between" : ""}`, "data-side": side, "data-total": total ?? "" },
        el("div", { class: "bac-head" }, el("span", { class: "label", text: name }), el("span", { class: "bac-total", text: shownTotal == null ? "" : String(shownTotal) })),
        between ? cardsEl(last[`${side}_cards`], "fan previous") : cardsEl(cards || [], "fan")));
    }
    const mid = el("div", { class: "bac-mid" });
    mid.append(el("div", { class: "view-title", text: `${kind === "chemin-de-fer" ? "Chemin de fer" : "Baccarat"} · coup ${g.coup ?? g.round ?? ""}` }));
    if (last && last.winner) mid.append(el("p", { class: `last-round win-${last.winner}`, "data-winner": last.winner,
      text: `${{ B: "Banker wins", P: "Player wins", T: "Tie" }[last.winner] || last.winner} ${last.player_total ?? last.player ?? ""}–${last.banker_total ?? last.banker ?? ""}` }));
    if (g.bank != null) mid.append(stats(stat("Bank", g.bank, { "data-bank": g.bank })));
    const bets = Array.isArray(g.bets) ? g.bets : [];
    if (bets.length) mid.append(el("ul", { class: "bac-bets" }, ...bets.map((b) => el("li", { class: `bet-${b.side}`, "data-seat": b.seat },
      el("span", { class: "who", text: seatName(state, b.seat) }), el("span", { class: "bet-chip", text: b.amount }), el("span", { text: b.side })))));
    top.insertBefore(mid, top.children[1] || null);
    wrap.append(top);
    if (g.roads) wrap.append(roadsEl(g.roads));
    return wrap;
  };
}
GAME_VIEWS.baccarat = baccaratView("baccarat");
GAME_VIEWS["chemin-de-fer"] = baccaratView("chemin-de-fer");

// ---- pontoon: the blackjack layout, with the banking seat named ----------------------------------
GAME_VIEWS.pontoon = (g, state) => {
  const seats = Object.fromEntries(Object.entries(g.seats || {}).map(([n, hands]) => [n, { hands: Array.isArray(hands) ? hands : [], bet: (g.bets || {})[n] }]));
  const node = GAME_VIEWS.blackjack({ ...g, seats, last_rounds: [] }, state);
  node.classList.add("pontoon");
  node.dataset.banker = g.banker;
  node.prepend(el("div", { class: "felt-rules", text: `Pontoon · round ${g.round} · ${who(g.banker)} holds the bank` }));
  const label = node.querySelector("#dealer-hand .label");
  if (label) label.textContent = `Bank · ${who(g.banker)}`;
  return node;
};
