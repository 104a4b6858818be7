// The Triangle Clock, drawn for the browser (the drawing contract, docs/web-drawing.md).
//
// A symbol is a triangle pointing one of eight ways; solid ones are filled yellow, clear
// ones outlined cyan, so the two differ in shape and colour as well as in text. Moves are
// read from msg.legal only: a letter (with +palette-swap / +right-angle), "mulligan" or
// "memorised". The item tokens are toggles kept in ui.selection until a letter is clicked.

import { CLICK, clickable, counted, gameStyle, html, revealOffer, svg } from "../js/draw.js";

const DIRS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
const DIR_WORDS = ["12 o'clock", "half past 1", "3 o'clock", "half past 4", "6 o'clock",
  "half past 7", "9 o'clock", "half past 10"];
const TOGGLES = ["palette-swap", "right-angle"];
const ITEM_TITLES = { "palette-swap": "Palette Swap", "right-angle": "Right Angle", mulligan: "Mulligan" };
const ITEM_HELP = {
  "palette-swap": "swap the colour of the symbol you reveal",
  "right-angle": "turn the symbol you reveal 90° clockwise",
  mulligan: "scrap your four cards and draw four new ones",
};
const PHASE_TEXT = {
  memorise: "memorise the order of shared symbols",
  first: "first choice: a symbol from a card",
  second: "second choice: a symbol from another card",
  third: "third choice: the other symbol of a card you played",
  over: "game over",
};
const ORDINALS = ["", "1st", "2nd", "3rd"];

// The memorise countdown runs between redraws; one timer at a time, keyed by the state.
let countdown = { key: null, endsAt: 0, timer: null };

/** "NEc" -> {dir: 1, solid: false, name: "NEc"}; null for anything else. */
export function parseSymbol(name) {
  const m = /^(NE|NW|SE|SW|N|E|S|W)([sc])$/.exec(name || "");
  return m ? { dir: DIRS.indexOf(m[1]), solid: m[2] === "s", name } : null;
}

function describe(name) {
  const s = parseSymbol(name);
  return s ? `${s.solid ? "solid" : "clear"} triangle pointing ${DIRS[s.dir]} (${DIR_WORDS[s.dir]})` : name;
}

/** A triangle of size r centred at (x, y), pointing its way: a narrow one (its tip about
 * 37 degrees, its other corners about 72), so that its tip is the one corner that reads as
 * a point and a diagonal (NWs, SEc) cannot be read as another direction, as an equilateral
 * triangle, pointing three ways at once, could. */
function triangle(parent, name, x, y, r) {
  const s = parseSymbol(name);
  const g = svg("g", { class: "tc-symbol" }, parent);
  if (!s) {
    svg("text", { x, y: y + r * 0.3, "text-anchor": "middle", class: "tc-unknown" }, g, "?");
    return g;
  }
  const tip = -1.05 * r, base = 0.62 * r, half = 0.56 * r;
  svg("polygon", {
    points: `0,${tip} ${half},${base} ${-half},${base}`,
    transform: `translate(${x},${y}) rotate(${45 * s.dir})`,
    class: s.solid ? "tc-solid" : "tc-clear",
    "stroke-linejoin": "round",
  }, g);
  svg("title", {}, g, describe(name));
  return g;
}

/** A symbol as a small tile: a number above, the triangle, its notation below. */
function symbolChip(parent, name, number) {
  const chip = html("div", { class: "tc-chip" }, parent);
  html("div", { class: "tc-chip-n" }, chip, number);
  triangle(svg("svg", { viewBox: "-20 -20 40 40", class: "tc-chip-svg" }, chip), name, 0, 2, 15);
  html("div", { class: "tc-chip-name" }, chip, name);
  return chip;
}

/** What msg.legal allows: picks by letter (each with the item sets allowed), and the rest. */
export function parseLegal(legal) {
  const picks = new Map();
  const out = { picks, mulligan: null, memorised: null, items: new Set() };
  for (const { text } of legal || []) {
    if (text === "mulligan") out.mulligan = text;
    else if (text === "memorised") out.memorised = text;
    else {
      const [letter, ...rest] = text.trim().split(/\s+/);
      const items = rest.map((t) => t.replace(/^\+/, "")).sort();
      items.forEach((i) => out.items.add(i));
      if (!picks.has(letter)) picks.set(letter, new Map());
      picks.get(letter).set(items.join("+"), text);
    }
  }
  return out;
}

function chosenItems(ui) {
  return TOGGLES.filter((i) => ui.selection && ui.selection[i]);
}

function seatLabel(msg, p) {
  const names = msg.seat_names || msg.view.seats || ["Tick", "Tock"];
  return names[p] ?? `seat ${p}`;
}

/** What the seat is asked now, in the scoreboard's words ("You: second choice: a symbol
 * from another card (round 3 of 32)"): the game page says it when the seat's own move leads
 * to its next decision (its memorising done, a Mulligan's new hand), where "Your choice"
 * alone again would say nothing new. */
export function prompt(msg) {
  const view = msg.view || {};
  return `You: ${PHASE_TEXT[view.phase] || view.phase} (round ${view.round} of ${view.rounds})`;
}

/** What the seats to act are doing while this page waits on them, where the page would say
 * "Tock to move": in the memorise step they look at an order, they choose nothing. */
export function busyWords(msg) {
  return (msg.view || {}).phase === "memorise" ? "memorising the order…" : null;
}

export function draw(root, msg, ui) {
  gameStyle("triangle-clock", import.meta.url);
  if (countdown.timer) clearInterval(countdown.timer);
  countdown.timer = null;
  root.replaceChildren();
  const view = stoppedView(msg, msg.view || {});
  const seat = msg.seat ?? null;
  const legal = parseLegal(ui.canMove ? msg.legal : []);
  const items = chosenItems(ui);
  const box = html("div", { class: "tc" }, root);

  drawScoreboard(box, msg, view, seat);
  if (view.result) drawResult(box, view, seat);
  // While the order is on show it comes first, so a phone shows it without scrolling.
  const main = html("div", { class: `tc-main${view.memorise ? " tc-memorising" : ""}` }, box);
  drawTable(main, msg, view, seat);
  const side = html("div", { class: "tc-side" }, main);
  if (view.memorise) drawMemorise(side, msg, view, seat, legal, ui);
  drawSharedSoFar(side, view);
  drawLastRound(side, msg, view);
  if (view.hand) drawHand(box, msg, view, seat, legal, items, ui);
  revealOffer(root, ui.canMove && !msg.replay ? `${msg.seq}#${items.join("+")}` : "");
}

/** The view of a match stopped before its game's end (a lesson's last step, a resignation,
 * a seat out of time), as the table is left: `stopped` set, and no order to memorise
 * any more. Stopped between two rounds, the rules had dealt the next round and shown its
 * shared symbol, a round nobody will play: the lesson's board said "round 3 of 32, first
 * choice" beside words saying two rounds were played. The table shows the round last
 * played instead (`between` set), and the shared symbols so far end with its own. */
function stoppedView(msg, view) {
  if (msg.status !== "finished" || view.phase === "over") return view;
  const out = { ...view, stopped: true, memorise: null };
  const last = view.last_round;
  const begun = (view.revealed || []).some((r) => r.length)
    || ((view.submissions && view.submissions.submitted) || []).length > 0;
  if (view.phase !== "first" || begun || !last) return out;
  return {
    ...out,
    between: true,
    round: last.round,
    shared: last.shared,
    revealed: last.seats.map((st) => st.revealed.map((symbol, k) => ({ symbol, items: st.items[k] || [] }))),
    submissions: null,
    shared_revealed: view.shared_revealed && view.shared_revealed.slice(0, -1),
  };
}

function drawScoreboard(box, msg, view, seat) {
  const bar = html("div", { class: "tc-scoreboard" }, box);
  const round = html("div", { class: "tc-round" }, bar);
  html("div", { class: "tc-round-n" }, round, view.phase === "over"
    ? `after ${counted(view.rounds, "round")}`
    : view.between ? `after ${counted(view.round, "round")} of ${view.rounds}`
      : `${view.stopped ? "stopped in " : ""}round ${view.round} of ${view.rounds}`);
  html("div", { class: "tc-phase" }, round,
    view.stopped ? PHASE_TEXT.over : PHASE_TEXT[view.phase] || view.phase || "");
  const waiting = new Set((view.submissions && view.submissions.waiting) || view.to_act || []);
  (view.scores || []).forEach((score, p) => {
    const card = html("div", { class: `tc-seat tc-seat-${p}${p === seat ? " tc-me" : ""}` }, bar);
    html("div", { class: "tc-seat-name" }, card, seatLabel(msg, p) + (p === seat ? " (you)" : ""));
    html("div", { class: "tc-score" }, card, String(score));
    const uses = (view.items || [])[p] || {};
    const line = Object.entries(uses).map(([k, n]) => `${ITEM_TITLES[k] || k} ×${n}`).join(" · ");
    html("div", { class: "tc-items-left" }, card, line || "no items");
    if (view.phase !== "over" && msg.status !== "finished") {
      // A memorise step hides no choice: a seat has only looked, and says so.
      const [busy, done] = view.phase === "memorise" ? ["memorising…", "memorised ✓"] : ["choosing…", "submitted ✓"];
      html("div", { class: "tc-wait" }, card, waiting.has(p) ? busy : done);
    }
  });
  const piles = html("div", { class: "tc-piles" }, bar);
  html("div", {}, piles, `deck ${view.deck ?? "?"}`);
  // null: "You may not take written notes" (notes=forbidden): the pile is remembered.
  html("div", {}, piles, view.discards === null ? "discards not shown" : `discards ${(view.discards || []).length}`);
  if (view.reshuffles) html("div", {}, piles, `reshuffled ×${view.reshuffles}`);
}

/** The clock face: the shared symbol in the middle, each seat's revealed symbols above/below. */
function drawTable(main, msg, view, seat) {
  const wrap = html("div", { class: "tc-table" }, main);
  const s = svg("svg", { viewBox: "0 0 400 470", role: "group", "aria-label": "the table" }, wrap);
  svg("rect", { x: 4, y: 4, width: 392, height: 462, rx: 26, class: "tc-felt" }, s);
  const cx = 200, cy = 235, R = 112;
  svg("circle", { cx, cy, r: R, class: "tc-face" }, s);
  DIRS.forEach((d, k) => {
    const a = (k * Math.PI) / 4;
    const x1 = cx + Math.sin(a) * (R - 12), y1 = cy - Math.cos(a) * (R - 12);
    const x2 = cx + Math.sin(a) * R, y2 = cy - Math.cos(a) * R;
    svg("line", { x1, y1, x2, y2, class: "tc-tick" }, s);
    svg("text", { x: cx + Math.sin(a) * (R - 26), y: cy - Math.cos(a) * (R - 26) + 5,
      "text-anchor": "middle", class: "tc-dir" }, s, d);
  });
  if (view.shared) {
    triangle(s, view.shared, cx, cy, 44);
    svg("text", { x: cx, y: cy + R + 20, "text-anchor": "middle", class: "tc-caption" }, s,
      `shared: ${view.shared}`);
  } else {
    svg("text", { x: cx, y: cy + 6, "text-anchor": "middle", class: "tc-caption" }, s,
      view.phase === "memorise" ? "memorise…" : view.phase === "over" ? "game over" : "").classList.add("tc-on-face");
  }
  // The viewer's own seat sits at the bottom; a spectator sees Tick at the bottom.
  const bottom = seat ?? 0;
  const rows = [[1 - bottom, 48], [bottom, 422]];
  // A seat's "memorised" is no hidden pick to hold a slot for.
  const mine = view.phase !== "memorise" && view.submissions && view.submissions.mine;
  for (const [p, y] of rows) {
    const labelY = y < cy ? y + 10 : y - 38; // beside the top slots, above the bottom ones
    svg("text", { x: 14, y: labelY, class: `tc-row-label tc-c${p}` }, s,
      seatLabel(msg, p) + (p === seat ? " (you)" : ""));
    const revealed = ((view.revealed || [])[p]) || [];
    for (let k = 0; k < 3; k++) {
      const x = 150 + k * 80;
      svg("rect", { x: x - 34, y: y - 32, width: 68, height: 64, rx: 8, class: "tc-slot" }, s);
      const r = revealed[k];
      if (r) {
        triangle(s, r.symbol, x, y - 8, 17);
        svg("text", { x, y: y + 26, "text-anchor": "middle", class: "tc-slot-name" }, s,
          r.symbol + (r.items.length ? " " + r.items.map((i) => (i === "palette-swap" ? "⇄" : "↻")).join("") : ""));
      } else if (p === seat && k === revealed.length && mine) {
        svg("text", { x, y: y + 4, "text-anchor": "middle", class: "tc-pending" }, s, mine);
      } else if (["first", "second", "third"].includes(view.phase) && k === revealed.length
                 && ((view.submissions && view.submissions.submitted) || []).includes(p)) {
        svg("text", { x, y: y + 6, "text-anchor": "middle", class: "tc-pending" }, s, "✓ hidden");
      }
    }
  }
}

function drawMemorise(side, msg, view, seat, legal, ui) {
  const panel = html("div", { class: "tc-panel tc-memorise" }, side);
  const [a, b] = view.memorise.rounds;
  const title = html("div", { class: "tc-panel-title" }, panel, `Shared symbols for rounds ${a}–${b}`);
  const doneAlready = seat !== null && !(msg.to_act || view.to_act || []).includes(seat);
  if (doneAlready) {
    html("p", { class: "tc-hidden-note" }, panel, "You have memorised the order; it is hidden now. Waiting for the opponent…");
    return;
  }
  const clock = html("span", { class: "tc-countdown" }, title);
  const grid = html("div", { class: "tc-chips tc-order" }, panel);
  view.memorise.order.forEach((name, k) => symbolChip(grid, name, String(a + k)));
  if (legal.memorised) {
    const btn = html("button", { class: "tc-button" }, panel, "I have memorised it");
    clickable(btn, "memorised: hide the order", { move: legal.memorised, ui });
  }
  if (typeof msg.memorise !== "number") return;
  const key = `${msg.match}:${msg.seq}`;
  // The server's deadline for the step, where it sent one: the time left, which a reload of
  // the page restarted at the step's full seconds.
  const left = (msg.deadlines || {})[String(seat)];
  const seconds = typeof left === "number" ? Math.min(left, msg.memorise) : msg.memorise;
  if (countdown.key !== key) countdown = { key, endsAt: Date.now() + seconds * 1000, timer: null };
  const tick = () => {
    const left = Math.max(0, Math.ceil((countdown.endsAt - Date.now()) / 1000));
    clock.textContent = ` — ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left`;
    if (left <= 0) {
      // The seed hides the order when the time is up, whether or not the seat answered.
      grid.remove();
      if (!panel.querySelector(".tc-hidden-note")) {
        html("p", { class: "tc-hidden-note" }, panel, "Time is up: the order is hidden.");
      }
      clearInterval(countdown.timer);
      countdown.timer = null;
    }
  };
  tick();
  if (countdown.endsAt > Date.now()) countdown.timer = setInterval(tick, 250);
}

function drawSharedSoFar(side, view) {
  const seen = view.shared_revealed || [];
  if (!seen.length) return;
  const panel = html("div", { class: "tc-panel" }, side);
  html("div", { class: "tc-panel-title" }, panel, "Shared symbols revealed so far in this order");
  const chips = html("div", { class: "tc-chips" }, panel);
  // Numbered by round, as the memorise panel numbered them: rounds 17-32 from 17, where
  // "1, 2, 3" muddled a player who had memorised "round 20: Ns". The list ends with the
  // round under way (or, stopped between rounds, the last one played).
  const first = Math.max(1, (view.round || seen.length) - seen.length + 1);
  seen.forEach((name, k) => symbolChip(chips, name, String(first + k)));
}

function drawLastRound(side, msg, view) {
  const last = view.last_round;
  if (!last) return;
  const panel = html("div", { class: "tc-panel" }, side);
  html("div", { class: "tc-panel-title" }, panel,
    `Last round (${last.round}): shared ${last.shared} — ` + (last.winner === null || last.winner === undefined
      ? "equal hands, nobody scores"
      // The rule in its words, as the terminal says it: a winner scoring 0 read as a bug.
      : `${seatLabel(msg, last.winner)} ranks higher and scores ${last.points} (the strength of the other hand)`));
  // Equal ranks: the ranks alone do not say why one of them scored (the rules' own words).
  if (last.tie_break) html("p", { class: "tc-tie-break" }, panel, last.tie_break);
  const s = svg("svg", { viewBox: "0 0 400 150", class: "tc-last" }, panel);
  last.seats.forEach((st, p) => {
    const y = 30 + p * 70;
    svg("text", { x: 6, y: y - 10, class: `tc-row-label tc-c${p}` }, s, `${seatLabel(msg, p)}: ${st.rank} (${st.strength})`);
    triangle(s, last.shared, 24, y + 18, 13);
    svg("text", { x: 46, y: y + 23, class: "tc-plus" }, s, "+");
    st.revealed.forEach((name, k) => {
      triangle(s, name, 70 + k * 40, y + 18, 13);
      if ((st.items[k] || []).length) {
        svg("text", { x: 70 + k * 40 + 14, y: y + 6, class: "tc-item-mark" }, s,
          st.items[k].map((i) => (i === "palette-swap" ? "⇄" : "↻")).join(""));
      }
    });
    svg("text", { x: 200, y: y + 23, class: "tc-cards-played" }, s, `cards ${st.cards.join(", ")}`);
  });
}

/** The symbol a pick reveals with these items on ("Ss" turned right: "Ws"): Palette Swap
 * changes solid and clear, Right Angle turns the triangle 90 degrees clockwise. */
export function withItems(name, items) {
  const s = parseSymbol(name);
  if (!s) return name;
  const solid = items.includes("palette-swap") ? !s.solid : s.solid;
  const dir = items.includes("right-angle") ? (s.dir + 2) % DIRS.length : s.dir;
  return `${DIRS[dir]}${solid ? "s" : "c"}`;
}

function drawHand(box, msg, view, seat, legal, items, ui) {
  const wrap = html("div", { class: "tc-hand-area" }, box);
  const head = html("div", { class: "tc-hand-head" }, wrap);
  html("span", { class: "tc-panel-title" }, head, "Your hand");
  const building = html("span", { class: "tc-building" }, head);
  const itemKey = [...items].sort().join("+");
  const pickFor = (letter) => (legal.picks.get(letter) || new Map()).get(itemKey) || null;
  const anyPick = legal.picks.size > 0;
  if (view.stopped) {
    // Nothing more will be chosen, nor waited for.
  } else if (anyPick || legal.mulligan) {
    const suffix = items.map((i) => ` +${i}`).join("");
    building.textContent = `move: ${anyPick ? "?" : ""}${suffix}` + (anyPick ? ` — ${CLICK} a symbol` : "");
  } else if (view.submissions && view.submissions.mine && view.phase !== "memorise") {
    building.textContent = `submitted: ${view.submissions.mine} (hidden until both have chosen)`;
  } else if (view.phase !== "over" && view.phase !== "memorise" && !msg.replay) {
    // A replay waits for nobody: its step is a choice already made.
    building.textContent = "waiting for the opponent…";
  }

  const cards = html("div", { class: "tc-cards" }, wrap);
  view.hand.forEach((card, slot) => {
    const s = svg("svg", { viewBox: "0 0 170 120", class: "tc-card" }, cards);
    svg("rect", { x: 3, y: 3, width: 164, height: 114, rx: 12, class: "tc-card-bg" }, s);
    svg("line", { x1: 85, y1: 14, x2: 85, y2: 106, class: "tc-card-split" }, s);
    card.symbols.forEach((name, side) => {
      const letter = card.letters[side];
      const x = 44 + side * 82;
      const half = svg("g", { class: "tc-half" }, s);
      svg("rect", { x: x - 38, y: 8, width: 76, height: 104, rx: 9, class: "tc-half-bg" }, half);
      svg("text", { x: x - 30, y: 28, class: "tc-letter" }, half, letter);
      // With items on, a symbol that can be picked shows what it would reveal: the cards
      // showed their own symbols, and only "+right-angle" said anything had changed.
      const move = pickFor(letter);
      const shown = move ? withItems(name, items) : name;
      triangle(half, shown, x, 58, 22);
      svg("text", { x, y: 104, "text-anchor": "middle", class: "tc-name" }, half, shown === name ? name : `${name}→${shown}`);
      if (shown !== name) half.classList.add("tc-preview");
      const played = card.played[side];
      if (played) {
        half.classList.add("tc-played");
        svg("text", { x: x + 30, y: 28, "text-anchor": "end", class: "tc-played-mark" }, half, ORDINALS[played] || "✓");
      }
      if (move) {
        clickable(half, `reveal ${letter}: ${shown}${items.length ? ` (${name} ${items.map((i) => "+" + i).join(" ")})` : ""}`,
          { move, ui });
      }
    });
  });

  const tokens = html("div", { class: "tc-tokens" }, wrap);
  const uses = ((view.items || [])[seat]) || {};
  for (const item of Object.keys(uses)) {
    const on = items.includes(item);
    const token = html("div", { class: `tc-token tc-token-${item}${on ? " tc-on" : ""}` }, tokens);
    const icon = svg("svg", { viewBox: "0 0 40 40", class: "tc-token-icon" }, token);
    svg("circle", { cx: 20, cy: 20, r: 17, class: "tc-token-disc" }, icon);
    svg("text", { x: 20, y: 27, "text-anchor": "middle", class: "tc-token-glyph" }, icon,
      item === "palette-swap" ? "⇄" : item === "right-angle" ? "↻" : "↺");
    html("div", { class: "tc-token-text" }, token, `${ITEM_TITLES[item]} ×${uses[item]}`);
    if (item === "mulligan") {
      if (legal.mulligan) clickable(token, `mulligan: ${ITEM_HELP.mulligan}`, { move: legal.mulligan, ui });
      continue;
    }
    // A toggle is offered only if some legal pick uses the resulting set of items.
    const next = (on ? items.filter((i) => i !== item) : [...items, item]).sort().join("+");
    const possible = [...legal.picks.values()].some((m) => m.has(next));
    // A tutorial's choice (docs/web.md, "Tutorials"): the item to switch on, or off.
    const expected = msg.tutorial && msg.tutorial.expected;
    if (possible && expected && expected.split(" ").includes(`+${item}`) !== on) {
      token.setAttribute("data-tutorial", expected);
    }
    if (possible) {
      clickable(token, `${on ? "don't use" : "use"} ${ITEM_TITLES[item]}: ${ITEM_HELP[item]}`, {
        onClick: () => {
          if (on) delete ui.selection[item];
          else ui.selection[item] = true;
          ui.redraw();
        },
      });
    }
  }
  if (items.length) {
    const cancel = html("button", { class: "tc-button tc-cancel" }, tokens, "cancel");
    clickable(cancel, "cancel: use no items", {
      onClick: () => {
        for (const i of TOGGLES) delete ui.selection[i];
        ui.redraw();
      },
    });
  }
}

function drawResult(box, view, seat) {
  const r = view.result;
  const banner = html("div", { class: "tc-result" }, box);
  const you = (p) => (p === seat ? " (you)" : "");
  const who = r.winner === null || r.winner === undefined ? "A draw" : `${r.winner_name}${you(r.winner)} wins`;
  // Each score beside its seat's name: "78 – 20" left a player to work out which was theirs.
  const names = view.seats || [];
  const scores = (r.scores || []).map((n, p) => (names[p] ? `${names[p]}${you(p)} ${n}` : String(n)));
  html("div", { class: "tc-result-head" }, banner, `${who}: ${scores.join(" – ")}`);
  // The reason says how a tie on points was decided (by the items held), in words.
  html("div", {}, banner, r.reason || "");
}
