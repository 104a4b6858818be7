// Erd: The Grim Triangle, drawn for the browser. Each side's Reserve (Heavy, Light and
// Decoy cards as stacks), discard pile and Turrets; the last combat revealed as two rows of
// cards; the match score. A seat builds its allocation by clicking Reserve cards into its
// Rush and Defense piles; a card is offered only while some allocation in msg.legal still
// contains the piles so far, and Confirm only for an allocation that is in msg.legal.
import { clickable, counted, gameStyle, html, sentence, svg } from "../js/draw.js";

const KINDS = ["H", "L", "D"];
const NAMES = { H: "Heavy", L: "Light", D: "Decoy" };
const RUSH_VALUE = { H: 2, L: 1, D: 0 };
const DEFENSE_VALUE = { H: 3, L: 1, D: 0 };
const SEAT_COLOURS = ["#e0483e", "#3f7fe0"];
const PILES = ["rush", "defense"];
const OUTCOMES = {
  one_rush: "One Rush broke through: the game is won",
  both_total: "Both broke through: the larger Rush + Defense wins",
  both_rush: "Both broke through, equal totals: the larger Rush wins",
  exact_tie: "Both broke through in an exact tie: all discarded",
  held: "Both Defenses held",
};

/** A pile's letters in the order the game writes them (Heavies, Lights, Decoys). */
function canonical(cards) {
  const sorted = [...cards].sort((a, b) => KINDS.indexOf(a) - KINDS.indexOf(b)).join("");
  return sorted || "-";
}

function counts(letters) {
  const out = { H: 0, L: 0, D: 0 };
  for (const c of letters === "-" ? "" : letters) out[c] += 1;
  return out;
}

/** "rush=HHL defense=LDD" -> {rush: "HHL", defense: "LDD"}; null for anything else. */
export function parseAllocation(text) {
  const match = /^rush=([HLD]+|-) defense=([HLD]+|-)$/.exec(text);
  return match ? { rush: match[1] === "-" ? "" : match[1], defense: match[2] === "-" ? "" : match[2] } : null;
}

function notation(piles) {
  return `rush=${canonical(piles.rush)} defense=${canonical(piles.defense)}`;
}

/** True if the allocation holds at least the cards chosen so far in each pile. */
function extends_(allocation, piles) {
  return PILES.every((pile) => {
    const have = counts(allocation[pile]);
    const want = counts(piles[pile]);
    return KINDS.every((k) => have[k] >= want[k]);
  });
}

function card(parent, x, y, kind, { faceDown = false, w = 54, h = 76, label = true } = {}) {
  const group = svg("g", { class: `erd-card ${faceDown ? "face-down" : `erd-${kind}`}`, transform: `translate(${x},${y})` }, parent);
  svg("rect", { width: w, height: h, rx: 7, class: "erd-card-face" }, group);
  if (faceDown) {
    svg("path", { d: `M${w / 2},10 L${w - 10},${h - 12} L10,${h - 12} Z`, class: "erd-card-back" }, group);
    return group;
  }
  // A card without its name and values (the combat's small ones) centres its letter: at the
  // labelled card's height its 26 px letter stood above the small card's top.
  svg("text", { x: w / 2, y: label ? h * 0.46 : h / 2 + 9, "text-anchor": "middle", class: "erd-card-letter" }, group, kind);
  // "R2 D3" in words, for a pointer that rests on the card and for a screen reader.
  svg("title", {}, group, `${NAMES[kind]}: worth ${RUSH_VALUE[kind]} in a Rush, ${DEFENSE_VALUE[kind]} in a Defense`);
  if (label) {
    svg("text", { x: w / 2, y: h * 0.7, "text-anchor": "middle", class: "erd-card-name" }, group, NAMES[kind]);
    svg("text", { x: w / 2, y: h - 6, "text-anchor": "middle", class: "erd-card-values" }, group, `R${RUSH_VALUE[kind]} D${DEFENSE_VALUE[kind]}`);
  }
  return group;
}

/** A stack of `count` cards of one kind, drawn as offset cards with the count on top. */
function stack(parent, x, y, kind, count) {
  const group = svg("g", { class: "erd-stack" }, parent);
  if (count === 0) {
    svg("rect", { x, y, width: 54, height: 76, rx: 7, class: "erd-empty" }, group);
    svg("text", { x: x + 27, y: y + 44, "text-anchor": "middle", class: "erd-empty-text" }, group, kind);
  }
  for (let i = 0; i < Math.min(count, 6); i += 1) card(group, x + i * 3, y - i * 3, kind, { label: i === Math.min(count, 6) - 1 });
  if (count > 0) {
    svg("circle", { cx: x + 54, cy: y + 2 - Math.min(count, 6) * 3, r: 12, class: "erd-count-badge" }, group);
    svg("text", { x: x + 54, y: y + 7 - Math.min(count, 6) * 3, "text-anchor": "middle", class: "erd-count" }, group, String(count));
  }
  return group;
}

export function draw(root, msg, ui) {
  gameStyle("erd", import.meta.url);
  root.replaceChildren();
  const view = msg.view;
  const me = msg.seat === null || msg.seat === undefined ? null : msg.seat;
  const bottom = me ?? 0; // a spectator sees Red at the bottom
  const top = 1 - bottom;
  const seats = view.seats || msg.seat_names;
  const wrap = html("div", { class: "erd" }, root);
  drawScore(wrap, view, seats, me);
  drawEndings(wrap, view);

  const legal = ui.canMove ? msg.legal.map((a) => parseAllocation(a.text)).filter(Boolean) : [];
  const sel = ui.selection;
  if (sel.rush === undefined) { sel.rush = ""; sel.defense = ""; sel.target = "rush"; }

  // Phones get a narrower table (the same parts, closer together), so that its text stays
  // readable instead of the wide table shrinking to a third of its size.
  const L = layout(root.clientWidth > 0 && root.clientWidth < 600);
  // The combat's notes wrap onto as many lines as they need (a phone has room for few
  // words a line): the band grows, and everything under it moves down.
  L.notes = wrapNotes(wrap, combatNotes(view, seats, top, bottom), L);
  const extra = 20 * Math.max(0, L.notes.length - 1);
  L.combatH = 176 + extra;
  L.pilesY += extra;
  L.bottomY += extra;
  L.H += extra;
  const table = svg("svg", { viewBox: `0 0 ${L.W} ${L.H}`, class: "erd-table", role: "group", "aria-label": "the table" }, wrap);
  svg("rect", { x: 4, y: 4, width: L.W - 8, height: L.H - 8, rx: 24, class: "erd-felt" }, table);
  drawSide(table, L, view, top, seats, L.topY, msg, onTable(view, top));
  drawPending(table, L, view, top, bottom, me, legal, sel, ui, msg.to_act || []);
  drawCombat(table, L, view, seats, top, bottom);
  const ending = onTable(view, bottom);
  drawSide(table, L, view, bottom, seats, L.bottomY, msg, ending || inHand(view, me, legal, sel));
  const bar = legal.length ? drawBuilder(wrap, legal, sel, ui, view, bottom, msg.tutorial && msg.tutorial.expected, msg.warnings || {}) : null;
  if (!L.narrow && me !== null && msg.status === "playing") fitTable(table, bar);
  if (revealPiles && bar) showPiles(table, bar);
  revealPiles = false;
}

let revealPiles = false; // set by a pick: the piles it filled are brought into sight

/** A phone's table scrolls under the builder, which covered the piles a pick had just
 * filled: the only sign of them was the builder's notation. After a pick the page scrolls
 * just enough for the piles to stand above the builder (a laptop's table fits above it). */
function showPiles(table, bar) {
  const piles = [...table.querySelectorAll(".erd-pile")].map((e) => e.getBoundingClientRect());
  if (!piles.length) return;
  const lowest = Math.max(...piles.map((r) => r.bottom));
  const highest = Math.min(...piles.map((r) => r.top));
  const hidden = lowest - (bar.getBoundingClientRect().top - 8);
  // Never so far that the piles' tops leave the window's top.
  if (hidden > 0) window.scrollBy({ top: Math.min(hidden, Math.max(0, highest - 8)), behavior: "instant" });
}

/** A window too short to hold the table readably (a phone turned round, 390 px tall): fitted
 * into it, the table was a quarter of the window's width and its words 5 px high; it takes
 * the window's width instead and scrolls under the builder, as on a phone held upright
 * (erd.css says the same for the table's height). */
const SHORT_WINDOW = window.matchMedia("(max-height: 500px)");

let barHeight = 0; // the builder's height when last drawn: its room is kept between turns

/** On a laptop the builder, sticky at the window's bottom, covered this seat's Reserve
 * whenever the table reached below the window: a seated player's table is made short enough
 * for it and the builder to fit the window together, and keeps that size between turns (no
 * jump at each Confirm); once the match is over it has the window again. Never below half
 * the window: with much above it (a tutorial's words) the page scrolls instead, and the
 * builder stops at the table's end. A phone's narrow table scrolls under its compact
 * builder as it did. */
function fitTable(table, bar) {
  if (bar) barHeight = bar.offsetHeight;
  if (!barHeight || SHORT_WINDOW.matches) return;
  const top = table.getBoundingClientRect().top + window.scrollY;
  const room = window.innerHeight - top - barHeight - 24; // the gap, and the bar's 4 px lift
  table.style.maxHeight = `${Math.round(Math.min(0.74 * window.innerHeight, Math.max(room, window.innerHeight / 2)))}px`;
}

/** Where everything goes on the table: wide (a desktop) or narrow (a phone). */
function layout(narrow) {
  return narrow
    ? {
      narrow: true, W: 420, H: 720, x0: 16, topY: 30, bottomY: 580, stackStep: 80,
      turretsX: 270, turretTop: 10, turret: [34, 24, 40], discard: [26, 36, 44],
      discardX: 270, discardLabel: 62, discardTop: 70,
      pendingX: 16, pendingY: 168, combatY: 222, combatW: 404,
      nameX: 14, rushX: 64, rushValX: 150, defX: 186, defValX: 272, noteX: 316, small: 24,
      pilesY: 448, pileStep: 200,
    }
    : {
      narrow: false, W: 820, H: 650, x0: 40, topY: 32, bottomY: 528, stackStep: 84,
      turretsX: 320, turretTop: 20, turret: [58, 40, 40], discard: [44, 58, 66],
      discardX: 560, discardLabel: 0, discardTop: 14,
      pendingX: 560, pendingY: 150, combatY: 206, combatW: 772,
      nameX: 40, rushX: 160, rushValX: 262, defX: 390, defValX: 492, noteX: 590, small: 30,
      pilesY: 420, pileStep: 200,
    };
}

function drawScore(wrap, view, seats, me) {
  const result = view.result || {};
  const bar = html("div", { class: "erd-score" }, wrap);
  seats.forEach((name, s) => {
    const box = html("div", { class: `erd-seat seat-${s}` }, bar);
    box.style.borderColor = SEAT_COLOURS[s];
    html("div", { class: "erd-seat-name" }, box, `${name}${me === s ? " (you)" : ""}`);
    const turrets = view.sides[s].turrets;
    // A single game has no games won to count: its big figure is the seat's Turrets.
    const match = result.best_of > 1;
    html("div", { class: "erd-seat-games" }, box, String(match ? (result.score || [0, 0])[s] : turrets));
    html("div", { class: "erd-seat-sub" }, box,
      match ? `games won · ${counted(turrets, "Turret")}` : turrets === 1 ? "Turret" : "Turrets");
  });
  // The rules version ("0.02") is a designer's word: the lobby's options and the rules
  // panel say it; the header keeps to where the match stands, and a single game has no
  // game number to say (as the terminal's header).
  html("div", { class: "erd-round" }, bar, result.best_of > 1
    ? `Game ${view.game_number} of best of ${result.best_of} · round ${view.round}`
    : `Round ${view.round}`);
}

/** How each finished game of the match ended, in words (mercy rule, Escalation, a Rush that
 * broke through, the round limit); the game that has just ended is said in full. */
function drawEndings(wrap, view) {
  const result = view.result || {};
  const games = result.games || [];
  const c = view.last_combat;
  if (!games.length) return;
  const box = html("div", { class: "erd-endings" }, wrap);
  const last = games[games.length - 1];
  if (c && c.ending && c.game === last.game) {
    const next = result.over ? "" : ` Game ${view.game_number} starts from full Reserves.`;
    // No live region of its own (drawn anew at every redraw, it would be said again and
    // again): the page's live region says the combat that ended the game (news()).
    html("p", { class: "erd-ending" }, box, `Game ${last.game} is over: ${c.ending}.${next}`);
  }
  if (games.length > 1 || !(c && c.ending)) {
    const list = html("ol", { class: "erd-games" }, box);
    for (const g of games) {
      const who = g.winner_name ? `${g.winner_name} won` : "a draw";
      html("li", { title: g.detail }, list, `Game ${g.game}: ${who} (${g.reason_text}, round ${g.rounds})`);
    }
  }
}

/** The cards this seat has put into its piles (being built, or allocated face down):
 * they are out of its Reserve until the reveal, so its stacks are drawn without them. */
function inHand(view, me, legal, sel) {
  if (me === null) return { H: 0, L: 0, D: 0 };
  const mine = (view.allocations || {}).mine;
  const piles = mine ? parseAllocation(mine) : legal.length ? sel : null;
  if (!piles) return { H: 0, L: 0, D: 0 };
  const a = counts(piles.rush || "-");
  const b = counts(piles.defense || "-");
  return { H: a.H + b.H, L: a.L + b.L, D: a.D + b.D };
}

/** A match won in combat ends with the last piles on the table, not discarded (rules.md):
 * the side's Reserve still counts them, and drawn whole beside them its cards showed twice
 * (five Heavies of three). Those piles, to leave out; undefined while play goes on. */
function onTable(view, seat) {
  const combat = view.last_combat;
  const won = view.result && view.result.over && ["rush", "both_rushes"].includes(view.result.ending);
  if (!won || !combat) return undefined;
  const [a, b] = [counts(combat.rush[seat]), counts(combat.defense[seat])];
  return { H: a.H + b.H, L: a.L + b.L, D: a.D + b.D };
}

/** One side's row: its Reserve as stacks (less `out`, the cards in its piles), its Turrets,
 * its discard pile (labels at y). */
function drawSide(table, L, view, seat, seats, y, msg, out = { H: 0, L: 0, D: 0 }) {
  const side = view.sides[seat];
  const g = svg("g", { class: "erd-side" }, table);
  svg("text", { x: L.x0, y, class: "erd-label", fill: SEAT_COLOURS[seat] }, g,
    `${seats[seat]}${msg.seat === seat ? " (you)" : ""} — Reserve`);
  KINDS.forEach((kind, i) => stack(g, L.x0 + i * L.stackStep, y + 38, kind, Math.max(0, side.reserve[kind] - out[kind])));
  const [tw, th, tstep] = L.turret;
  svg("text", { x: L.turretsX, y, class: "erd-label" }, g, "Turrets");
  if (side.turrets === 0) svg("text", { x: L.turretsX, y: y + L.turretTop + 16, class: "erd-small erd-dim" }, g, "none");
  // Turrets lie sideways, face up, in the discard pile.
  for (let t = 0; t < side.turrets; t += 1) {
    const group = card(g, L.turretsX + t * tstep, y + L.turretTop, "H", { w: tw, h: th, label: false });
    group.classList.add("erd-turret");
  }
  const [dw, dh, dstep] = L.discard;
  svg("text", { x: L.discardX, y: y + L.discardLabel, class: "erd-label" }, g, "Discard");
  let shown = 0;
  KINDS.forEach((kind) => {
    const n = side.discard[kind];
    if (n === 0) return;
    const top = y + L.discardTop;
    card(g, L.discardX + shown * dstep, top, kind, { w: dw, h: dh, label: false });
    svg("text", { x: L.discardX + shown * dstep + dw / 2, y: top + dh + 16, "text-anchor": "middle", class: "erd-small" }, g, `×${n}`);
    shown += 1;
  });
  if (shown === 0) svg("text", { x: L.discardX, y: y + L.discardTop + 18, class: "erd-small erd-dim" }, g, "empty");
}

/** The last combat, both allocations revealed, as two rows of cards. */
function drawCombat(table, L, view, seats, top, bottom) {
  const c = view.last_combat;
  const y = L.combatY;
  const g = svg("g", { class: "erd-combat" }, table);
  svg("rect", { x: (L.W - L.combatW) / 2, y, width: L.combatW, height: L.combatH, rx: 14, class: "erd-combat-band" }, g);
  if (!c) {
    svg("text", { x: L.W / 2, y: y + 80, "text-anchor": "middle", class: "erd-hint-text" }, g, "No combat yet:");
    svg("text", { x: L.W / 2, y: y + 104, "text-anchor": "middle", class: "erd-hint-text" }, g, "both sides allocate in secret");
    return;
  }
  svg("text", { x: L.nameX, y: y + 24, class: "erd-label" }, g, `Last combat: game ${c.game}, round ${c.round}`);
  svg("text", { x: L.rushX, y: y + 46, class: "erd-small erd-dim" }, g, "Rush");
  svg("text", { x: L.defX, y: y + 46, class: "erd-small erd-dim" }, g, "Defense");
  const w = L.small;
  [top, bottom].forEach((seat, row) => {
    const ry = y + 54 + row * 54;
    const rush = c.rush[seat] === "-" ? "" : c.rush[seat];
    const defense = c.defense[seat] === "-" ? "" : c.defense[seat];
    svg("text", { x: L.nameX, y: ry + 28, class: "erd-label", fill: SEAT_COLOURS[seat] }, g, seats[seat]);
    [...rush].forEach((k, i) => card(g, L.rushX + i * (w + 2), ry, k, { w, h: 44, label: false }));
    svg("text", { x: L.rushValX, y: ry + 28, class: "erd-value" }, g, String(c.rush_value[seat]));
    [...defense].forEach((k, i) => card(g, L.defX + i * (w + 2), ry, k, { w, h: 44, label: false }));
    const turrets = c.turrets[seat] ? `+${c.turrets[seat]}` : "";
    svg("text", { x: L.defValX, y: ry + 28, class: "erd-value" }, g, `${c.defense_value[seat]}`);
    if (turrets) svg("text", { x: L.defValX + 28, y: ry + 28, class: "erd-small" }, g, `(${turrets})`);
    if (L.narrow) return; // no room for a note on a phone: the lines under the rows say it
    if (c.broke_through[seat]) svg("text", { x: L.noteX, y: ry + 28, class: "erd-broke" }, g, "broke through!");
    else if ((c.turrets_made || [])[seat]) svg("text", { x: L.noteX, y: ry + 28, class: "erd-small" }, g, `+${c.turrets_made[seat]} Turret`);
  });
  const broke = [top, bottom].some((seat) => c.broke_through[seat]);
  L.notes.forEach((line, i) => {
    svg("text", { x: L.nameX, y: y + 166 + 20 * i, class: `erd-small erd-note ${broke ? "erd-broke-line" : ""}` }, g, line);
  });
}

/** What the last combat came to, in words: its outcome, each Rush against the Defense it
 * met, an Escalation, a game that it ended. */
function combatNotes(view, seats, top, bottom) {
  const c = view.last_combat;
  if (!c) return [];
  const outcome = OUTCOMES[c.outcome] || String(c.outcome).replaceAll("_", " ");
  // A game can end although the Defenses held (the mercy rule, before an Escalation): say so.
  const ended = ((view.result || {}).games || []).find((g) => g.game === c.game && c.ending);
  return [outcome, ...rushLines(c, seats, top, bottom), ...afterLines(c, seats, top, bottom),
    ...(ended ? [`game ${c.game} over: ${ended.reason_text}`] : [])];
}

/** Cards in words: "1 Heavy, 3 Decoys"; "nothing" for none. */
function cardWords(heavy, light, decoy) {
  const parts = [[heavy, "Heavy", "Heavies"], [light, "Light"], [decoy, "Decoy"]]
    .filter(([n]) => n > 0).map(([n, noun, plural]) => counted(n, noun, plural));
  return parts.join(", ") || "nothing";
}

/** Where the piles' cards went once a combat did not end the game: to the discard (a Heavy
 * kept as a Turret said), then back to the Reserve by the recovery, and an Escalation's
 * cards. A newcomer saw cards move to the discard and back with no word of why. */
function afterLines(c, seats, top, bottom) {
  if (c.ending && c.outcome !== "held" && c.outcome !== "exact_tie") return []; // won in combat
  const order = [top, bottom];
  const turrets = order.filter((s) => (c.turrets_made || [])[s])
    .map((s) => `${seats[s]} keeps ${counted(c.turrets_made[s], "Heavy", "Heavies")} as a Turret`);
  const back = order.filter((s) => c.lights_back[s] + c.decoys_back[s] > 0)
    .map((s) => `${seats[s]} ${cardWords(0, c.lights_back[s], c.decoys_back[s])}`);
  const lines = [`Piles to the discard${turrets.length ? ` (${turrets.join("; ")})` : ""}`,
    back.length ? `back to Reserve: ${back.join("; ")}` : "nothing back to Reserve"];
  if (c.escalation) {
    const got = order.map((s) => `${seats[s]} ${cardWords(c.escalation_heavies[s], c.escalation_lights[s], 0)}`);
    lines.push(`Escalation (every Heavy discarded)! Back to Reserve: ${got.join("; ")}`);
  }
  return lines;
}

/** Each Rush against the Defense it met, in words: why it broke through or was held ("Blue
 * HHD 4 / LLD 2 broke through!" said what, not why; a tie holds, which nothing said). */
function rushLines(c, seats, top, bottom) {
  return [top, bottom].map((seat) => {
    const other = 1 - seat;
    const rush = c.rush_value[seat];
    const defense = c.defense_value[other];
    if (c.broke_through[seat]) return `${seats[seat]}'s Rush ${rush} beat ${seats[other]}'s Defense ${defense}: broke through!`;
    const tie = rush === defense ? " (a tie holds)" : "";
    return `${seats[seat]}'s Rush ${rush} did not beat ${seats[other]}'s Defense ${defense}${tie}`;
  });
}

/** What a screen reader is told of a new state beside the log's lines (the game page's
 * live region): a combat just fought, its outcome and a game it ended, which the picture
 * draws but the log does not write. */
export function news(before, now) {
  const c = now.view.last_combat;
  const was = before.view.last_combat;
  if (!c || (was && was.game === c.game && was.round === c.round)) return "";
  const notes = combatNotes(now.view, now.view.seats || now.seat_names, 1, 0);
  return `Combat in game ${c.game}, round ${c.round}: ${notes.map(sentence).join(" ")}`;
}

/** The notes as lines that fit inside the combat band: notes joined by " · " while they
 * fit (one a line on a phone), a note too long for a line broken between words. Measured
 * in the band's own font. */
function wrapNotes(wrap, notes, L) {
  if (!notes.length) return [];
  const width = (L.W + L.combatW) / 2 - L.nameX - 10;
  const probe = svg("svg", { viewBox: `0 0 ${L.W} 40`, class: "erd-table" }, wrap);
  // Through the style object: a style attribute is inline style, which the page policy refuses.
  Object.assign(probe.style, { position: "absolute", visibility: "hidden" });
  const text = svg("text", { x: 0, y: 20, class: "erd-small erd-broke-line" }, probe);
  const fits = (s) => { text.textContent = s; return text.getComputedTextLength() <= width; };
  const lines = [];
  let line = "";
  for (const note of notes) {
    // A phone gives each note its own line; a wide table joins them while they fit.
    if (!L.narrow && line && fits(`${line} · ${note}`)) { line = `${line} · ${note}`; continue; }
    if (line) lines.push(line);
    line = "";
    for (const word of note.split(" ")) {
      if (line && !fits(`${line} ${word}`)) { lines.push(line); line = word; } else line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  probe.remove();
  return lines;
}

/** The face-down piles: the other side's (only whether it has allocated) and this seat's. */
function drawPending(table, L, view, top, bottom, me, legal, sel, ui, toAct) {
  const alloc = view.allocations || { submitted: [], waiting: [] };
  const g = svg("g", { class: "erd-pending" }, table);
  const theirs = alloc.submitted.includes(top);
  // msg.to_act, not the view's: it is empty once the match is over (a resign included).
  const choosing = toAct.includes(top);
  svg("text", { x: L.pendingX, y: L.pendingY, class: "erd-small" }, g, theirs ? "has allocated (face down)" : choosing ? "allocating…" : "");
  if (theirs) {
    for (let i = 0; i < 6; i += 1) card(g, L.pendingX + i * 24 + (i > 2 ? 12 : 0), L.pendingY + 8, "D", { faceDown: true, w: 22, h: 32 });
  }
  const yBottom = L.pilesY;
  const mine = me !== null ? alloc.mine : null;
  const chosen = mine ? parseAllocation(mine) : legal.length ? { rush: sel.rush, defense: sel.defense } : null;
  if (!chosen) {
    if (alloc.submitted.includes(bottom)) {
      svg("text", { x: L.x0, y: yBottom - 16, class: "erd-small" }, g, "has allocated (face down)");
      for (let i = 0; i < 6; i += 1) card(g, L.x0 + i * 32 + (i > 2 ? 16 : 0), yBottom, "D", { faceDown: true, w: 30, h: 40 });
    }
    return;
  }
  PILES.forEach((pile, p) => {
    const px = L.x0 + p * L.pileStep;
    const target = !mine && sel.target === pile;
    svg("rect", { x: px - 8, y: yBottom - 26, width: 184, height: 106, rx: 10, class: `erd-pile ${target ? "erd-target" : ""}` }, g);
    svg("text", { x: px, y: yBottom - 8, class: "erd-label" }, g, `${pile === "rush" ? "Rush" : "Defense"}${mine ? " ✓" : target ? " ←" : ""}`);
    const letters = chosen[pile];
    [...letters].forEach((k, i) => {
      const node = card(g, px + i * 56, yBottom + 2, k, { w: 52, h: 72 });
      if (!mine) {
        clickable(node, `take the ${NAMES[k]} back out of ${pile}`, {
          onClick: () => { sel[pile] = letters.slice(0, i) + letters.slice(i + 1); sel.target = pile; ui.redraw(); },
        });
      }
    });
  });
}

function drawBuilder(wrap, legal, sel, ui, view, seat, expected = null, warnings = {}) {
  // A tutorial's allocation (docs/web.md, "Tutorials"): the picks that build it say so.
  const lesson = expected ? parseAllocation(expected) : null;
  const bar = html("div", { class: "erd-builder" }, wrap);
  const now = { rush: sel.rush, defense: sel.defense };
  const complete = legal.find((a) => canonical(a.rush) === canonical(now.rush) && canonical(a.defense) === canonical(now.defense));
  // A newcomer saw "rush=- defense=- …" and never what to do: the ask in words, how many
  // cards each pile takes (exactly, or up to, as the rules version says: msg.legal tells).
  const most = (pile) => Math.max(...legal.map((a) => a[pile].length));
  const size = { rush: most("rush"), defense: most("defense") };
  const exact = legal.every((a) => a.rush.length === size.rush && a.defense.length === size.defense);
  const upTo = exact ? "" : "up to ";
  const ask = html("p", { class: "erd-ask" }, bar);
  html("span", {}, ask, `Put ${upTo}${counted(size.rush, "card")} in your Rush and ${upTo}${size.defense} in your Defense.`);
  // A phone's compact builder keeps to the ask: the Rules panel says the rest.
  html("span", { class: "erd-ask-more" }, ask, " A Rush worth more than their Defense wins; R, D: a card's worth in each.");
  const progress = html("span", { class: "building", title: `as a move: ${notation(now)}` }, bar,
    `Rush ${now.rush.length} of ${size.rush} · Defense ${now.defense.length} of ${size.defense}${complete ? "" : " …"}`);
  progress.dataset.move = notation(now);
  const tabs = html("span", { class: "erd-tabs" }, bar);
  html("span", { class: "erd-tabs-word" }, tabs, "add to ");
  for (const pile of PILES) {
    const tab = html("button", { type: "button", class: `erd-tab ${sel.target === pile ? "erd-tab-on" : ""}` }, tabs, pile === "rush" ? "Rush" : "Defense");
    if (sel.target !== pile) clickable(tab, `put the next cards into ${pile}`, { onClick: () => { sel.target = pile; ui.redraw(); } });
  }
  const placed = counts(now.rush + now.defense);
  for (const kind of KINDS) {
    const next = { ...now, [sel.target]: now[sel.target] + kind };
    const fits = legal.some((a) => extends_(a, next));
    const pic = svg("svg", { viewBox: "0 0 60 82", class: `erd-pick ${fits ? "" : "erd-off"}` }, bar);
    card(pic, 3, 3, kind);
    // What the Reserve has left of it, on the card as on the table's stacks: on a short
    // window or a phone the builder covers the table's Reserve while the piles are built.
    const left = Math.max(0, view.sides[seat].reserve[kind] - placed[kind]);
    svg("circle", { cx: 48, cy: 13, r: 11, class: "erd-count-badge" }, pic);
    svg("text", { x: 48, y: 18, "text-anchor": "middle", class: "erd-count erd-left" }, pic, String(left));
    svg("title", {}, pic, `${counted(left, NAMES[kind], kind === "H" ? "Heavies" : null)} left in your Reserve`);
    if (fits) {
      if (lesson && extends_(lesson, next)) pic.setAttribute("data-tutorial", expected);
      clickable(pic, `a ${NAMES[kind]} into ${sel.target === "rush" ? "Rush" : "Defense"}`, {
        onClick: () => {
          revealPiles = true;
          sel[sel.target] = next[sel.target];
          // A full pile hands over to the other one, so three clicks fill each pile.
          const other = sel.target === "rush" ? "defense" : "rush";
          if (!KINDS.some((k) => legal.some((a) => extends_(a, { ...next, [sel.target]: next[sel.target] + k })))) sel.target = other;
          ui.redraw();
        },
      });
    }
  }
  if (complete) {
    const text = notation(now);
    // An allocation the rules say can lose the game (the mercy rule, most often) says so
    // before it is confirmed: a newcomer lost in round 1 with no word before the reveal.
    const warning = warnings[text];
    if (warning) ask.after(html("p", { class: "erd-warning", id: "erd-warning", role: "status" }, null, `Careful: ${warning}.`));
    const button = html("button", { type: "button", class: "primary erd-confirm" }, bar, warning ? "Confirm anyway" : "Confirm allocation");
    if (warning) button.setAttribute("aria-describedby", "erd-warning");
    clickable(button, `confirm ${text}`, { move: text, ui });
  }
  if (now.rush || now.defense) {
    const clear = html("button", { type: "button", class: "erd-clear" }, bar, "clear");
    // Cards the lesson's allocation does not hold: the way back is to clear them.
    if (lesson && !extends_(lesson, now)) clear.setAttribute("data-tutorial", expected);
    clickable(clear, "cancel: take every card back", {
      onClick: () => { sel.rush = ""; sel.defense = ""; sel.target = "rush"; ui.redraw(); },
    });
  }
  return bar;
}
