([boxes, opts]) => {
  scrollTo(0, 0);  // a sticky header sits over whatever scrolls under it: check the page as it opens
  const problems = [];
  const W = innerWidth, H = innerHeight;
  const visible = (e) => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && s.display !== "none" && !e.closest("[hidden]"); };
  const name = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className && typeof e.className === "string" ? "." + e.className.trim().split(/\s+/).join(".") : "")
    + (e.dataset.seat ? `[seat=${e.dataset.seat}]` : "") + (e.dataset.position ? `[pos=${e.dataset.position}]` : "") + (e.textContent.trim() ? ` "${e.textContent.trim().slice(0, 20)}"` : "");
  if (document.documentElement.scrollWidth > W + 1) problems.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${W}`);
  const els = [...document.querySelectorAll(boxes.join(","))].filter(visible);
  for (const e of els) {
    const r = e.getBoundingClientRect();
    if (r.left < -1 || r.right > W + 1) problems.push(`cut off sideways: ${name(e)} ${Math.round(r.left)}..${Math.round(r.right)} of ${W}`);
    if (opts.fitHeight && (r.top < -1 || r.bottom > H + 1)) problems.push(`cut off below: ${name(e)} ${Math.round(r.top)}..${Math.round(r.bottom)} of ${H}`);
  }
  for (let i = 0; i < els.length; i++) for (let j = i + 1; j < els.length; j++) {
    const a = els[i], b = els[j];
    if (a.contains(b) || b.contains(a)) continue;
    const p = a.getBoundingClientRect(), q = b.getBoundingClientRect();
    const w = Math.min(p.right, q.right) - Math.max(p.left, q.left), h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
    if (w > 2 && h > 2) problems.push(`overlap ${Math.round(w)}x${Math.round(h)}: ${name(a)} / ${name(b)}`);
  }
  if (opts.minCard) {
    for (const c of [...document.querySelectorAll(".card")].filter(visible)) {
      if (c.closest(".history, .recent, .picked")) continue;
      const h = c.getBoundingClientRect().height;
      if (h < opts.minCard * H - 0.5) problems.push(`card ${c.dataset.card} is ${Math.round(h)} px tall, under ${Math.round(opts.minCard * 100)} % of ${H}`);
    }
  }
  for (const b of [...document.querySelectorAll("button")].filter(visible)) {
    if (b.scrollWidth > b.clientWidth + 2) problems.push(`button text cut off: ${name(b)}`);
  }
  return problems;
}
