// Per-game views for the big screen. Each takes the game's public JSON (to_json) and returns a node.
"use strict";

function entries(obj) { return Array.isArray(obj) ? obj.map((v, i) => [String(i + 1), v]) : Object.entries(obj || {}); }

GAME_VIEWS.blackjack = (g) => {
  const wrap = el("div", { class: "blackjack" });
  const dealer = g.dealer || {};
  wrap.append(el("div", { class: "hand", id: "dealer-hand" },
    el("span", { class: "label", text: `Dealer ${dealer.total || ""}` }), cardsEl(dealer.cards)));
  for (const [number, seat] of entries(g.seats)) {
    const hands = seat.hands || [];
    hands.forEach((hand, i) => {
      const row = el("div", { class: "hand", "data-seat": number });
      const name = `Seat ${number}${hands.length > 1 ? "." + (i + 1) : ""}`;
      row.append(el("span", { class: "label", text: `${name} · ${hand.stake ?? seat.bet ?? ""}` }));
      row.append(cardsEl(hand.cards));
      const bits = [hand.total, hand.result, hand.net != null && hand.result ? (hand.net > 0 ? `+${hand.net}` : hand.net) : null];
      row.append(el("span", { class: "result", text: bits.filter((x) => x != null && x !== "").join(" · ") }));
      wrap.append(row);
    });
    if (!hands.length && seat.bet) wrap.append(el("div", { class: "hand", "data-seat": number }, el("span", { class: "label", text: `Seat ${number} · bet ${seat.bet}` })));
  }
  const last = (g.last_rounds || []).slice(-1)[0];
  if (last) wrap.append(el("p", { class: "last-round", text: `Round ${last.round}: dealer ${last.dealer_total} — ` +
    entries(last.seats).map(([n, s]) => `seat ${n} ${(s.hands || []).map((h) => h.result).join("/")}`).join(", ") }));
  wrap.append(el("p", { text: `Round ${g.round ?? ""} · ${g.phase ?? ""}` }));
  return wrap;
};
