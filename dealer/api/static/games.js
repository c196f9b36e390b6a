// Per-game views for the big screen. Each takes the game's public JSON (to_json) and returns a node.
"use strict";

GAME_VIEWS.blackjack = (g) => {
  const wrap = el("div", { class: "blackjack" });
  const dealer = g.dealer || {};
  wrap.append(el("div", { class: "hand", id: "dealer-hand" }, el("span", { class: "label", text: `Dealer ${dealer.total ?? ""}` }), cardsEl(dealer.cards)));
  for (const seat of g.seats || []) {
    for (const [i, hand] of (seat.hands || []).entries()) {
      const row = el("div", { class: "hand", "data-seat": seat.seat });
      row.append(el("span", { class: "label", text: `Seat ${seat.seat}${seat.hands.length > 1 ? "." + (i + 1) : ""} · ${hand.bet ?? ""}` }));
      row.append(cardsEl(hand.cards));
      row.append(el("span", { class: "result", text: [hand.total, hand.result].filter((x) => x != null && x !== "").join(" · ") }));
      wrap.append(row);
    }
  }
  if (g.round != null) wrap.append(el("p", { text: `Round ${g.round}` }));
  return wrap;
};
