// Erosion, drawn for the browser (the drawing contract, docs/web-drawing.md).
//
// Mountains are stacks of rock cards standing on one base line, top rock first; weathered
// rocks are shifted sideways as on the seed's table, fossils are marked. The view names
// cards by id only, so what a card shows (rock, hardness, fossil, process) comes from the
// server's card list, fetched once; until it arrives the ids alone are drawn.
//
// Moves are read from msg.legal only. Each notation is cut into steps (a card, a mountain,
// a count...); a step is offered where it lives on the table (a hand card, a mountain, a
// River rock, an Atmosphere card) or, failing that, as a button in the action bar. The
// chosen steps are kept in ui.selection.path until they name exactly one legal move.

import { cardList, clickable, counted, gameStyle, html, revealOffer, svg, unplayable as markUnplayable, unplayableLine } from "../js/draw.js";

const ROCK_COLOURS = {
  shale: "#5f6673", limestone: "#e4dcc0", sandstone: "#e3a868", conglomerate: "#b98d69",
  basalt: "#34343d", granite: "#d1a7a2", "welded tuff": "#a48b78", quartzite: "#f1ebe4",
  schist: "#7c8c66",
};
// Rocks dark enough for light ink; the others take near-black ink. Both reach WCAG AA's
// 4.5:1 on every rock colour (schist, mid-grey green, only with the dark ink).
const DARK_ROCKS = new Set(["shale", "basalt"]);
const DARK_INK = "#1a1410";
// Short names keep a rock's label inside its drawn card on a phone; the tooltip has the rest.
const ROCK_SHORT = { conglomerate: "conglom.", "welded tuff": "w. tuff" };
const DECK_NAMES = { WX: "weathering", H: "hillslope", F: "fluvial" };
const STEP_TEXT = {
  draw: "draw: choose the cards to take from the decks",
  uplift: "uplift: you hold more than 6 cards; put one at the base of your mountain",
  transport: "transport: choose a River rock for your delta",
  pay: "pay: discard a card of the same rock type",
  trigger: "trigger an Atmosphere card",
  fault: "Earthquake Fault: hillslope a weathered rock from a mountain",
  guess: "tie-breaker: guess the hardness of your card",
  choose: "tie-breaker: choose how the tie ends",
};
const METRES_PER_ROCK = 500;

let catalogue = null; // Map id -> card, once fetched

function loadCatalogue(ui, options) {
  catalogue = cardList("erosion", ui, options);
}

function card(id) {
  if (catalogue && catalogue.has(id)) return catalogue.get(id);
  const deck = (/^(WX|H|F|ATM)/.exec(id || "") || [null, "?"])[1];
  return { id, deck, rock: null, mohs: null, fossil: null, process: null };
}

// -- moves ---------------------------------------------------------------------------------
/** A legal notation cut into the steps a person clicks: [{key, place, label}].
 * ``tieFor``: what a tie-breaker's choice decides ("win", "start"), for its buttons. */
export function moveSteps(text, seatNames = [], tieFor = null) {
  const t = text.trim().split(/\s+/);
  const verb = t[0].toLowerCase();
  const seat = (m) => seatNames[m] ?? `seat ${m}`;
  const steps = [];
  if (["weather", "hillslope", "fluvial"].includes(verb)) {
    steps.push({ key: `${verb} ${t[1]}`, place: `card:${t[1]}`, label: `${verb} with ${t[1]}` });
    let i = 2;
    if (t[i] === "on") {
      steps.push({ key: `on ${t[i + 1]}`, place: `mountain:${t[i + 1]}`, label: `on ${seat(+t[i + 1])}` });
      i += 2;
    }
    if (t[i]) {
      const n = +t[i].slice(1);
      steps.push({ key: t[i], place: "bar", label: counted(n, "rock") });
    }
  } else if (verb === "draw") {
    // One button a whole draw ("1 weathering + 1 fluvial"): a forced draw is one choice
    // among a few, not a button and then a count per deck.
    const parts = t.slice(1).map((tok) => /^([A-Z]+)(\d+)$/i.exec(tok)).filter((m) => m && +m[2] > 0)
      .map((m) => `${m[2]} ${DECK_NAMES[m[1].toUpperCase()] || m[1]}`);
    steps.push({ key: text, place: "bar", label: parts.join(" + ") || "draw nothing" });
  } else if (verb === "redraw") {
    steps.push({ key: verb, place: "bar", label: "redraw hand" });
    for (const tok of t.slice(1)) {
      const m = /^([A-Z]+)(\d+)$/i.exec(tok);
      steps.push({ key: tok, place: "bar", label: m ? `${m[2]} from ${m[1]}` : tok });
    }
  } else if (["uplift", "transport", "pay"].includes(verb)) {
    steps.push({ key: `${verb} ${t[1]}`, place: `card:${t[1]}`, label: `${verb} ${t[1]}` });
  } else if (verb === "trigger") {
    steps.push({ key: text, place: `atm:${t[1]}`, label: `trigger ${t[1]}` });
  } else if (verb === "fault") {
    steps.push({ key: text, place: `mountain:${t[2]}`, label: `fault on ${seat(+t[2])}` });
  } else if (verb === "choose") {
    // The button says what it decides: the closest guesser picks the winner, or who starts.
    const takes = tieFor === "win" ? "wins" : tieFor === "start" ? "starts the next era" : "takes the tie";
    steps.push({ key: text, place: "bar", label: `${seat(+t[1])} ${takes}` });
  } else {
    steps.push({ key: text, place: "bar", label: text });
  }
  return steps;
}

/** The Draw Cards action's first step where the turn offers other actions too: its draws,
 * one button each, were up to nine buttons among "redraw hand" and "pass", unnamed, and
 * covered half a phone's window. A forced draw (the uplift) offers draws alone, and keeps
 * one button a draw. */
const DRAW_CARDS = { key: "\u0000draw", place: "bar", label: "draw cards…" };

/** Whether the legal moves' draws are grouped under DRAW_CARDS: several, beside other moves. */
export function groupDraws(texts) {
  const draws = texts.filter((t) => /^draw /.test(t)).length;
  return draws > 1 && draws < texts.length;
}

/** The next steps on offer after the chosen path: [{key, place, label, move|null}]. */
export function offers(moves, path) {
  const here = moves.filter((m) => path.every((k, i) => m.steps[i] && m.steps[i].key === k));
  const byKey = new Map();
  for (const m of here) {
    const step = m.steps[path.length];
    if (!step) continue;
    if (!byKey.has(step.key)) byKey.set(step.key, { ...step, moves: [] });
    byKey.get(step.key).moves.push(m);
  }
  const out = [];
  for (const o of byKey.values()) {
    const done = o.moves.length === 1 && o.moves[0].steps.length === path.length + 1;
    out.push({ key: o.key, place: o.place, label: o.label, move: done ? o.moves[0].text : null });
  }
  // A prefix that is itself a legal move while longer ones go on: offer it as it stands.
  const complete = path.length ? here.find((m) => m.steps.length === path.length) : null;
  if (complete) out.push({ key: "\u0000as-is", place: "bar", label: `${complete.text} (as it is)`, move: complete.text });
  return out;
}

// -- drawing -------------------------------------------------------------------------------
export function draw(root, msg, ui) {
  gameStyle("erosion", import.meta.url);
  loadCatalogue(ui, msg.options);
  root.replaceChildren();
  const view = msg.view || {};
  const names = msg.seat_names || view.seats || [];
  const seat = msg.seat ?? null;
  let path = Array.isArray(ui.selection.path) ? ui.selection.path : [];
  const texts = ui.canMove ? (msg.legal || []).map((l) => l.text) : [];
  const grouped = groupDraws(texts);
  const tieFor = view.tiebreak ? view.tiebreak.purpose : null;
  const stepsOf = (text) => (grouped && /^draw /.test(text) ? [DRAW_CARDS, ...moveSteps(text, names)] : moveSteps(text, names, tieFor));
  const moves = texts.map((text) => ({ text, steps: stepsOf(text) }));
  let open = offers(moves, path);
  if (path.length && !open.length) {
    // The path no longer leads anywhere (a new state came with the same seq): start again.
    delete ui.selection.path;
    path = [];
    open = offers(moves, path);
  }
  for (const o of open) {
    if (o.move === "pass" && view.pass_ends_era) Object.assign(o, passWarning(view, names));
  }
  const placed = new Map();
  for (const o of open) if (o.place !== "bar" && !placed.has(o.place)) placed.set(o.place, o);
  const used = new Set();
  // A tutorial's move (docs/web.md, "Tutorials"): the offers on its way are marked.
  const expected = msg.tutorial && msg.tutorial.expected;
  const lesson = expected ? stepsOf(expected).map((s) => s.key) : null;
  const onTrack = !!lesson && path.every((k, i) => lesson[i] === k);
  const mark = (node, o) => {
    if (onTrack && (o.move === expected || (!o.move && lesson[path.length] === o.key))) {
      node.setAttribute("data-tutorial", expected);
    }
  };
  const choose = (o) => {
    if (o.move) ui.move(o.move);
    else {
      ui.selection.path = [...path, o.key];
      ui.redraw();
    }
  };
  const offerAt = (node, place) => {
    const o = placed.get(place);
    if (!o) return false;
    used.add(o);
    mark(node, o);
    clickable(node, o.label, { onClick: () => choose(o), move: o.move });
    return true;
  };

  const box = html("div", { class: "er" }, root);
  drawHeader(box, msg, view, names, seat);
  const bar = html("div", { class: "er-bar" }, box);
  drawMountains(box, view, names, seat, offerAt);
  const middle = html("div", { class: "er-middle" }, box);
  drawRiver(middle, view, offerAt);
  drawDecks(middle, view, seat, offerAt);
  drawKey(box, view);
  drawHand(box, view, seat, offerAt, path, path.length ? {} : msg.unplayable || {});
  drawExtras(box, view, names, seat);
  // A replay waits for nobody ("waiting for Alps…" read as a live match): the header says
  // whose turn it was.
  if (msg.replay) bar.remove();
  else drawBar(bar, view, path, open.filter((o) => !used.has(o)), choose, ui, moves.length > 0, mark,
    lesson && !onTrack ? expected : null, names, pathWords(moves, path, open), stepAsked(view));
  // On a phone the mountains are far above the hand a move starts from, and the pinned bar
  // covers the page's top: a step of a move, or a new decision (a transport's River rock,
  // a payment's card), whose parts are all out of sight is scrolled to.
  const pinned = getComputedStyle(bar).position === "sticky" ? bar : null;
  revealOffer(root, ui.canMove && !msg.replay ? `${msg.seq}#${path.join(" ")}` : "", pinned);
}

/** The move being built, in the words of its steps, and what to click next:
 * "weather with WX05, on Andes: choose how many rocks" (the notation, "weather WX05 on 1",
 * named a mountain by its seat's number). */
export function pathWords(moves, path, open) {
  if (!path.length) return "";
  if (path.length === 1 && path[0] === DRAW_CARDS.key) {
    return "draw cards (each deck up to its draw limit): how many from each deck?";
  }
  const move = moves.find((m) => path.every((k, i) => m.steps[i] && m.steps[i].key === k));
  const said = move ? move.steps.slice(0, path.length).map((s) => s.label).join(", ") : path.join(" ");
  const places = new Set(open.map((o) => o.place.split(":")[0]));
  const counts = open.length && open.every((o) => /^x\d+$/.test(o.key));
  const next = places.has("mountain") ? "choose a mountain (those with a dashed outline)"
    : places.has("card") ? "choose a card (those outlined)"
      : counts ? (open.length === 1 ? "confirm with the button" : "how many rocks?")
        : open.length ? "choose one of the buttons" : "";
  return next ? `${said}: ${next}` : said;
}

const TIE_BREAKER = "Each tied player draws a card at random from their own hand and guesses "
  + "its hardness (1 to 10); the closest guess chooses who takes the tie.";

/** The pass button's words when passing ends the era: {label, warning, rule}. What the
 * scores come to is said where the page can know it: not while a challenge card is still
 * hidden. Where a tie can decide, `rule` is the tie-breaker's, which the bar tells on
 * request: said in full, the warning took most of a phone's first screen. */
export function passWarning(view, names) {
  const r = view.result || {};
  const final = view.era >= view.eras;
  const label = final ? "pass (ends the game)" : `pass (ends era ${view.era})`;
  const scored = final ? `Passing now ends the game: the era is scored and the highest total wins`
    : `Passing now ends era ${view.era}: it is scored, and the lowest total starts era ${view.era + 1}`;
  const hidden = (view.challenges || []).some((c) => c === null);
  const now = (r.points_now || []).map((points, p) => (r.scores || [])[p] + points);
  if (hidden || now.length !== names.length) {
    return { label, warning: `${scored}; a tie is broken by the tie-breaker.`, rule: TIE_BREAKER };
  }
  const target = final ? Math.max(...now) : Math.min(...now);
  const tied = names.filter((_, p) => now[p] === target);
  const standing = names.map((name, p) => `${name} ${now[p]}`).join(", ");
  const outcome = tied.length > 1
    ? `that is a tie between ${tied.join(" and ")}, so the tie-breaker decides`
    : `${tied[0]} ${final ? "wins" : "starts the next era"}`;
  return { label, warning: `${scored}. As the points stand (${standing}), ${outcome}.`, rule: tied.length > 1 ? TIE_BREAKER : null };
}

/** How the tie-breaker settled a tie for the win, in words, from the move log (the drawn
 * cards are back in their hands by then and the view no longer shows them); null where
 * the totals were not tied. */
export function tieStory(result, log, names) {
  const scores = result.scores || [];
  const best = Math.max(...scores);
  const tied = names.filter((_, p) => scores[p] === best);
  if (tied.length < 2) return null;
  // The tie-breaker's moves are the match's last: the guesses, then the closest's choice.
  const moves = [];
  for (let i = log.length - 1; i >= 0 && /^(guess|choose) /.test(log[i].text || ""); i -= 1) moves.unshift(log[i]);
  const guesses = moves.filter((m) => m.text.startsWith("guess "))
    .map((m) => `${names[m.seat]} guessed ${m.text.slice(6)}`);
  const choice = moves.find((m) => m.text.startsWith("choose "));
  const winners = (result.winners || []).map((w) => names[w]).join(" and ");
  const start = `Tied at ${best}, ${tied.join(" and ")} went to the tie-breaker`;
  if (!choice) {
    const why = guesses.length ? `${guesses.join(", ")}, and no single guess came closest`
      : "neither had a card in hand to draw";
    return `${start}: ${why}, so the tie stands and ${winners} share the win.`;
  }
  const chooser = names[choice.seat];
  const how = guesses.length
    ? `each guessed the hardness of a card drawn from their hand (${guesses.join(", ")}); ${chooser} came closest`
    : `${chooser} alone had a card in hand to draw`;
  return `${start}: ${how}, and chose ${winners} to take the tie.`;
}

/** The last turn in words: the log's trailing moves of one seat, as the server words them
 * ("Andes weathered 2 rocks (shale, basalt) of Alps' mountain with WX12 ...; then drew 2
 * cards ..."), so the computer's move is read, not guessed from notation; null before
 * the first move. Moves of the seat whose turn it still is (``current``) are "this turn
 * so far": called the last turn, they read as a turn over while its draw was still chosen. */
export function lastTurn(log, names, seat, current = null) {
  const entries = [];
  for (let i = log.length - 1; i >= 0 && log[i].seat === log.at(-1).seat; i -= 1) {
    if (log[i].text !== null && log[i].words) entries.unshift(log[i].words);
  }
  if (!entries.length) return null;
  const who = log.at(-1).seat;
  const name = `${names[who] ?? `seat ${who}`}${who === seat ? " (you)" : ""}`;
  return `${who === current ? "this turn so far" : "last turn"}: ${name} ${entries.join("; then ")}`;
}

/** The step of a turn under way in words, after who takes it ("Alps: uplift: you hold more
 * than 6 cards; ..."); null between steps (a turn's first choice). */
function stepLine(view, who) {
  const asked = stepAsked(view);
  return asked && `${who}: ${asked}`;
}

/** The step of the turn under way, in words ("pay: discard a card of the same rock type
 * (for WX37)"); null outside one. */
function stepAsked(view) {
  const step = view.step;
  if (!step || !STEP_TEXT[step.kind]) return null;
  if (step.kind === "draw" && step.number > 0) {
    // How many, and what bounds each deck: "how many from each deck" beside decks marked
    // "draw limit 2", with buttons of one card each, read as if the limits were wrong.
    const cards = step.number === 1 ? "1 card" : `${step.number} cards`;
    return `draw: choose ${cards} from the decks, no more from a deck than its draw limit`;
  }
  if (step.kind === "choose" && view.tiebreak) {
    const decides = view.tiebreak.purpose === "win" ? "who wins the game" : "who starts the next era";
    return `tie-breaker: the closest guess chooses ${decides}`;
  }
  return `${STEP_TEXT[step.kind]}${step.card ? ` (for ${step.card})` : ""}`;
}

const YOUR_TURN = "your turn: choose an action";

/** What the seat is asked now, in the header's words ("You: draw: choose 2 cards from the
 * decks, ..."): the game page says it when the seat's own move leads to its next
 * decision (a turn's steps, an era it starts), where "Your move" alone again would say
 * nothing new. */
export function prompt(msg) {
  return stepLine(msg.view || {}, "You") || YOUR_TURN;
}

function drawHeader(box, msg, view, names, seat) {
  const head = html("div", { class: "er-head" }, box);
  const title = html("div", { class: "er-title" }, head);
  // A game of one era (two or three players, as the seed has it) names no era: "Era 1 of
  // 1" said nothing.
  html("div", { class: "er-era" }, title, view.eras > 1 ? `Era ${view.era} of ${view.eras} · turn ${view.turn}` : `Turn ${view.turn}`);
  const current = view.current;
  const step = stepLine(view, names[(view.step || {}).seat] ?? "");
  let line = "";
  if (view.result && view.result.over) line = "game over";
  else if (step) line = step;
  else if (current !== null && current !== undefined) line = current === seat ? YOUR_TURN : `${names[current]}'s turn`;
  html("div", { class: "er-step" }, title, line);
  const scores = html("div", { class: "er-scores" }, head);
  const r = view.result || {};
  names.forEach((name, p) => {
    const chip = html("div", { class: `er-score er-seat-${p}${p === seat ? " er-me" : ""}${p === current ? " er-current" : ""}` }, scores);
    html("div", { class: "er-score-name" }, chip, `${name}${p === seat ? " (you)" : ""}`);
    const now = (r.points_now || [])[p];
    html("div", { class: "er-score-n" }, chip, String(seatScores(msg)[p] ?? 0));
    html("div", { class: "er-score-note" }, chip, r.era_scores && r.era_scores.length
      ? `recorded${now !== undefined && !r.over ? `, ${now} now` : ""}` : "points now");
  });
  const last = lastTurn(msg.log || [], names, seat, r.over ? null : current);
  if (last) html("p", { class: "er-last" }, box, last);
  if (r.over) {
    const who = (r.winners || []).map((w) => `${names[w]}${w === seat ? " (you)" : ""}`).join(" and ");
    // The reason is "why the last era ended; how the tie-breaker settled a tie for the win"
    // (the game's result): with a tie, the story below tells the second half in full.
    const story = tieStory(r, msg.log || [], names);
    const why = story ? (r.reason || "").split("; ")[0] : r.reason || "";
    const result = html("div", { class: "er-result" }, box, `${who || "Nobody"} win${(r.winners || []).length === 1 ? "s" : ""} · ${why}`);
    // How the points came: the log's line under the pass that ended the last era.
    const scored = [...(msg.log || [])].reverse().flatMap((e) => e.after || []).find((line) => / is scored: /.test(line));
    if (scored) html("p", { class: "er-scored" }, result, scored);
    if (story) html("p", { class: "er-tie" }, result, story);
  }
}

/** The score of each seat as the board shows it (the page's seat list shows the same):
 * the recorded scores once an era has been scored, before that the points it would score now. */
export function seatScores(msg) {
  const r = (msg.view || {}).result || {};
  const recorded = r.era_scores && r.era_scores.length;
  return (recorded ? r.scores : r.points_now || r.scores) || [];
}

/** A rock card. `inForce`: whether its red architecture applies now (the view's
 * `architecture_in_force`, the rules' own answer); null where the rock is not in a mountain
 * (the River), whose architecture is not drawn. */
function rockRect(g, id, x, y, w, h, weathered, inForce = null) {
  const c = card(id);
  const colour = ROCK_COLOURS[c.rock] || "#999";
  svg("rect", { x, y, width: w, height: h, rx: 4, fill: colour, class: `er-rock${weathered ? " er-weathered" : ""}`, "data-card": id }, g);
  if (weathered) {
    // Cracks: weathered rock lies loose, ready to be hillsloped.
    svg("path", { d: `M${x + w * 0.2},${y} l6,${h / 2} l-4,${h / 2} M${x + w * 0.7},${y} l-5,${h * 0.6}`, class: "er-crack" }, g);
  }
  const ink = DARK_ROCKS.has(c.rock) ? "#f3efe6" : DARK_INK;
  const label = c.rock ? `${id} ${ROCK_SHORT[c.rock] || c.rock} ${c.mohs}` : id;
  svg("text", { x: x + 8, y: y + h / 2 + 5, fill: ink, class: "er-rock-text" }, g, label);
  if (c.fossil) fossilIcon(g, c.fossil, x + w - 14, y + h / 2);
  const arch = inForce !== null && c.architecture;
  if (arch) {
    // Red, as the seed prints architecture; faded where it does not apply: the rock is
    // weathered, or its architecture applied 'upon uplift', once, and is not standing.
    const mark = svg("g", { transform: `translate(${x + w - (c.fossil ? 34 : 14)},${y + h / 2})`, class: `er-arch-mark${inForce ? "" : " er-arch-off"}`, "data-card": id }, g);
    svg("circle", { r: 8 }, mark);
    svg("text", { y: 4, "text-anchor": "middle" }, mark, "A");
  }
  const words = describeRock(c, weathered);
  const off = weathered ? " (weathered: no longer applies)" : " (applies upon uplift only, not while in the mountain)";
  svg("title", {}, g, arch ? `${words}\n${c.architecture.text}${inForce ? "" : off}` : words);
}

/** A small drawing of a fossil (snail, leaf or fish) centred at (x, y). */
function fossilIcon(parent, kind, x, y) {
  const g = svg("g", { transform: `translate(${x},${y})`, class: `er-fossil er-fossil-${kind}` }, parent);
  svg("circle", { r: 9.5, class: "er-fossil-disc" }, g);
  if (kind === "snail") {
    svg("path", { d: "M-6,3 A6,6 0 1 1 5,1 A4,4 0 1 1 -2,-1 A2,2 0 1 1 1,0", class: "er-fossil-line" }, g);
  } else if (kind === "leaf") {
    svg("path", { d: "M-6,5 Q-6,-6 6,-6 Q6,5 -6,5 Z", class: "er-fossil-leaf" }, g);
    svg("path", { d: "M-6,5 L4,-4", class: "er-fossil-line" }, g);
  } else {
    svg("path", { d: "M-7,0 Q-1,-6 4,0 Q-1,6 -7,0 Z M4,0 L8,-4 L8,4 Z", class: "er-fossil-fish" }, g);
  }
  svg("title", {}, g, `${kind} fossil`);
  return g;
}

function describeRock(c, weathered) {
  if (!c.rock) return c.id;
  const fossil = c.fossil ? `, ${c.fossil} fossil` : "";
  return `${c.id}: ${c.rock} (Mohs ${c.mohs}${fossil})${weathered ? ", weathered" : ""}`;
}

function drawMountains(box, view, names, seat, offerAt) {
  const row = html("div", { class: "er-mountains" }, box);
  const mountains = view.mountains || [];
  const tallest = Math.max(6, ...mountains.map((m) => m.rocks.length));
  const RH = 26, W = 172, SHIFT = 16, SCALE = 30;
  const height = tallest * RH + 30;
  mountains.forEach((m, p) => {
    const turn = p === view.current && !(view.result && view.result.over);
    const col = html("div", { class: `er-mountain er-seat-${p}${p === seat ? " er-me" : ""}${turn ? " er-current" : ""}` }, row);
    html("div", { class: "er-mountain-name" }, col, `${names[p] ?? p}${p === seat ? " (you)" : ""} · ${m.height_m} m`);
    const full = W + SHIFT + SCALE;
    const s = svg("svg", { viewBox: `0 0 ${full} ${height}`, class: "er-mountain-svg" }, col);
    const g = svg("g", {}, s);
    svg("rect", { x: 0, y: 0, width: full, height, fill: "transparent" }, g);
    // Contour lines every 1000 m, so heights compare at a glance across mountains.
    for (let k = 2; k <= tallest; k += 2) {
      const y = height - 18 - k * RH;
      svg("line", { x1: 0, y1: y, x2: full, y2: y, class: "er-contour" }, g);
      svg("text", { x: full - 2, y: y + 4, "text-anchor": "end", class: "er-contour-text" }, g, `${(k * METRES_PER_ROCK) / 1000} km`);
    }
    const base = height - 18;
    svg("rect", { x: 0, y: base, width: full, height: 18, class: "er-ground" }, g);
    // Under typed_weathering=pass-over weathered rocks may also lie below unweathered ones.
    const below = new Set(m.weathered_below || []);
    const inForce = new Set(m.architecture_in_force || []);
    m.rocks.forEach((id, i) => {
      const y = base - (m.rocks.length - i) * RH;
      const weathered = i < m.weathered || below.has(id);
      rockRect(g, id, weathered ? 2 : 2 + SHIFT, y + 1, W - 4, RH - 2, weathered, view.advanced ? inForce.has(id) : null);
    });
    offerAt(col, `mountain:${p}`);
    const info = html("div", { class: "er-mountain-info" }, col);
    const delta = (view.deltas || [])[p] || {};
    const hand = (view.hands || [])[p] || {};
    const byDeck = Object.entries(hand.by_deck || {}).filter(([, k]) => k).map(([d, k]) => `${d}${k}`).join(" ");
    html("div", {}, info, `hand ${hand.count ?? 0}${byDeck ? ` (${byDeck})` : ""}`);
    const deltaLine = html("div", { class: "er-delta" }, info, `delta ${delta.count ?? 0}`);
    if (delta.cards && delta.cards.length) {
      const chips = html("span", { class: "er-delta-cards" }, deltaLine);
      for (const id of delta.cards) {
        const c = card(id);
        const chip = html("span", { class: "er-chip" }, chips, id);
        chip.style.background = ROCK_COLOURS[c.rock] || "#999";
        chip.style.color = DARK_ROCKS.has(c.rock) ? "#f3efe6" : DARK_INK;
        chip.title = describeRock(c, false);
      }
    }
    const pile = (view.discards || [])[p] || [];
    html("div", {}, info, `discards ${pile.length}${pile.length ? `, last ${pile[pile.length - 1]}` : ""}`);
    // Said in words as well as marked: a phone shows no rock's tooltip.
    // Named once the card list has come (until then a card is its id alone).
    const standing = m.rocks.filter((id) => inForce.has(id) && card(id).architecture);
    if (standing.length) {
      const line = html("div", { class: "er-arch-line" }, info, "architecture: ");
      standing.forEach((id, i) => {
        const name = html("span", { title: card(id).architecture.text }, line, card(id).architecture.name);
        if (i < standing.length - 1) name.after(", ");
      });
    }
  });
}

/** The board's notation in words, above the hand: a newcomer met "H67 w. tuff 8", "hand 6
 * (WX3 H2 F1)" and "Atmosphere +1" with no word of what they were (their hover texts say it;
 * a phone has none). */
function drawKey(box, view) {
  const mountains = view.mountains || [];
  if (!mountains.some((m) => m.rocks.length)) return;
  const short = new Set(mountains.flatMap((m) => m.rocks.map((id) => card(id).rock)).filter((rock) => ROCK_SHORT[rock]));
  const names = [...short].map((rock) => `${ROCK_SHORT[rock]} is ${rock}`);
  const parts = [
    "a rock shows its card (WX, H or F: the deck it came from, and its number), its rock and "
    + `its hardness (Mohs, 1 to 10)${names.length ? `; ${names.join(", ")}` : ""}; a weathered rock is `
    + "dashed and set to the left",
    "hand 6 (WX3 H2 F1) is 6 cards in hand: 3 from WX, 2 from H, 1 from F; delta: the rocks "
    + "transported to your delta (2 points each)",
    "▲ mountain, ⌒ hill on a card: played only on a mountain of 4000 m or more, or under 4000 m",
  ];
  if ((view.atmosphere || []).length) parts.push("a deck's draw limit is the sum of the Atmosphere cards under it: each Atmosphere +1 adds 1, an Age end 0");
  html("p", { class: "er-key" }, box, `Key: ${parts.join("; ")}.`);
}

function drawRiver(middle, view, offerAt) {
  const river = html("div", { class: "er-river" }, middle);
  html("div", { class: "er-label" }, river, `The River (${(view.river || []).length})`);
  const rocks = html("div", { class: "er-river-rocks" }, river);
  if (!(view.river || []).length) html("div", { class: "er-empty" }, rocks, "empty");
  for (const id of view.river || []) {
    // 36 units tall: a River rock is a target to tap on a phone (it was 21 px there).
    const s = svg("svg", { viewBox: "0 0 170 36", class: "er-river-rock" }, rocks);
    const g = svg("g", {}, s);
    rockRect(g, id, 1, 1, 168, 34, false);
    offerAt(s, `card:${id}`);
  }
}

function drawDecks(middle, view, seat, offerAt) {
  const decks = html("div", { class: "er-decks" }, middle);
  for (const name of ["WX", "H", "F"]) {
    const d = (view.decks || {})[name] || {};
    const own = view.draw_limits ? view.draw_limits[name] : d.draw_limit;
    const pile = html("div", { class: `er-deck er-deck-${name}` }, decks);
    html("div", { class: "er-deck-name" }, pile, `${name} · ${DECK_NAMES[name]}`);
    html("div", { class: "er-deck-limit" }, pile, d.empty ? "deck empty" : `draw limit ${own}${own !== d.draw_limit ? ` (table ${d.draw_limit})` : ""}`);
    const atms = html("div", { class: "er-atms" }, pile);
    for (const a of (view.atmosphere || []).filter((x) => x.under === name)) {
      const aged = a.showing === "age";
      // Each Atmosphere card adds 1 to its deck's draw limit until it is turned to its age
      // end: "normal · 1" was a code to a newcomer.
      const el = html("div", { class: `er-atm${aged ? " er-aged" : ""}${a.triggered ? " er-triggered" : ""}` }, atms,
        aged ? `${a.age} age: +0` : "Atmosphere +1");
      el.title = `${a.card}, an Atmosphere card: ${aged ? `turned to its ${a.age} age end, it adds nothing to` : `at its normal end it adds 1 to`} `
        + `the ${DECK_NAMES[name]} deck's draw limit${aged ? "" : ` (turned to its ${a.age} age end, nothing)`}`;
      offerAt(el, `atm:${a.card}`);
    }
  }
}

function processText(p) {
  if (!p) return "";
  if (p.kind === "weather_n") return `weather up to ${p.n}, hardness ≤ ${p.max_hardness}`;
  if (p.kind === "weather_types") return `weather all ${p.types.join(", ")}`;
  if (p.kind === "hillslope_n") return `hillslope up to ${p.n}`;
  if (p.kind === "transport_n") return `transport exactly ${p.n}`;
  return p.kind;
}

/** The hand, each card offered where a move starts with it. `unplayable`: the cards no
 * action of the turn can play, with why (the rules' own words, the state message's
 * `unplayable`): greyed and dashed, and a tap on one says why under the hand's label. */
function drawHand(box, view, seat, offerAt, path, unplayable) {
  if (seat === null) return;
  const hand = ((view.hands || [])[seat] || {}).cards;
  if (!hand) return;
  const area = html("div", { class: "er-hand" }, box);
  html("div", { class: "er-label" }, area, `Your hand (${hand.length})`);
  const why = unplayableLine(area, hand.filter((id) => unplayable[id]).length, "er-why", "this turn");
  const row = html("div", { class: "er-hand-cards" }, area);
  for (const id of hand) {
    const c = card(id);
    const chosen = path.some((k) => k.endsWith(` ${id}`));
    const el = html("div", { class: `er-card er-card-${c.deck}${chosen ? " er-chosen" : ""}` }, row);
    if (unplayable[id]) {
      el.classList.add("er-unplayable");
      markUnplayable(el, id, unplayable[id], why);
    }
    const top = html("div", { class: "er-card-rock" }, el);
    top.style.background = ROCK_COLOURS[c.rock] || "#999";
    top.style.color = DARK_ROCKS.has(c.rock) ? "#f3efe6" : DARK_INK;
    html("span", { class: "er-card-id" }, top, id);
    html("span", {}, top, c.rock ? ` ${c.rock} · ${c.mohs}` : "");
    if (c.fossil) {
      const f = html("span", { class: "er-card-fossil" }, top);
      fossilIcon(svg("svg", { viewBox: "-10 -10 20 20", class: "er-fossil-inline" }, f), c.fossil, 0, 0);
      f.append(` ${c.fossil} fossil`);
    }
    const bottom = html("div", { class: "er-card-process" }, el);
    html("div", { class: "er-card-pname" }, bottom, c.process ? c.process.name : DECK_NAMES[c.deck] || "");
    html("div", { class: "er-card-does" }, bottom, processText(c.process));
    if (c.process && c.process.elevation) html("div", { class: "er-card-icon" }, bottom, c.process.elevation === "mountain" ? "▲ mountain" : "⌒ hill");
    if (view.advanced && c.architecture) html("div", { class: "er-card-arch" }, el, c.architecture.text);
    if (!unplayable[id]) el.title = describeRock(c, false);
    offerAt(el, `card:${id}`);
  }
}

function drawExtras(box, view, names, seat) {
  drawLegends(box, view, names, seat);
  const tb = view.tiebreak;
  if (!tb) return;
  const panel = html("div", { class: "er-extras" }, box);
  html("div", {}, panel, `Tie-breaker (${tb.purpose}): ` + tb.seats.map((p, i) =>
    `${names[p]} card ${tb.cards[i] ?? "?"}, guess ${tb.guesses[i] ?? "–"}`).join(" · "));
}

/** The Montane Legend Variant's cards in words: each legend's condition, points and owner,
 * and each challenge a seat may see (its own; everyone's once they are shown). The view names
 * them by id only, and a player who has never seen the printed cards cannot read "L1". */
function drawLegends(box, view, names, seat) {
  const legends = view.legends || [];
  const challenges = (view.challenges || []).map((id, p) => ({ id, p })).filter((c) => c.id);
  if (!legends.length && !challenges.length) return;
  const panel = html("div", { class: "er-extras er-legends" }, box);
  if (legends.length) {
    // Advanced claims read the printed "capped by X or Y" as both types on the mountaintop.
    const how = view.legend === "advanced"
      ? "claimed by the first mountain whose top two rocks are both of its types, at its height"
      : "claimed by the first mountain to reach its height with a capstone of its type";
    html("div", { class: "er-label" }, panel, "Montane legends");
    html("div", { class: "er-legend-how" }, panel, `Each is ${how}; its points count at every scoring.`);
    const list = html("ul", { class: "er-legend-list" }, panel);
    for (const l of legends) {
      const c = card(l.card);
      const owner = l.owner === null ? "open" : `claimed by ${names[l.owner] ?? l.owner}${l.owner === seat ? " (you)" : ""}`;
      const item = html("li", { class: l.owner === null ? null : "er-claimed" }, list);
      html("b", {}, item, `${l.card}${c.name ? ` ${c.name}` : ""}`);
      item.append(` · ${c.points ?? "?"} points · ${owner}`);
      if (c.text) html("div", { class: "er-legend-text" }, item, c.text);
    }
  }
  for (const { id, p } of challenges) {
    const c = card(id);
    const whose = p === seat && !view.challenges.every(Boolean)
      ? "Your challenge (the others see it once an era is scored)" : `${p === seat ? "Your" : `${names[p] ?? p}'s`} challenge`;
    const line = html("div", { class: "er-challenge" }, panel);
    html("b", {}, line, `${whose}: ${id}${c.name ? ` ${c.name}` : ""}`);
    line.append(` · ${c.points ?? "?"} bonus points at each scoring if: ${c.text || "its condition is met"}`);
  }
}

function drawBar(bar, view, path, rest, choose, ui, canMove, mark = () => {}, offTrack = null, names = [], said = "", step = null) {
  const building = html("div", { class: "er-building" }, bar);
  if (!canMove) {
    // One mountain moves at a time: with up to five at the table, name whose it is.
    const movers = (view.to_act || []).map((p) => names[p] || `seat ${p}`);
    if (view.result && view.result.over) bar.remove();
    else building.textContent = movers.length ? `waiting for ${movers.join(" and ")}…` : "waiting…";
    return;
  }
  const drawing = !path.length && rest.length && rest.every((o) => /^draw /.test(o.move || ""));
  // A step of the turn (transport, pay, uplift) is said here too: on a phone the bar is
  // pinned at the window's top, and the header that says the step has scrolled away.
  building.textContent = path.length ? said
    : drawing ? step || "draw: choose the cards to take" : step || "your move: pick a card or an action";
  // Seven ways to draw, pinned, covered more than half a phone's window: the choice is the
  // bar's alone, so there it stays in its place (and is scrolled to, not pinned).
  bar.classList.toggle("er-bar-draws", Boolean(drawing) && rest.length > 4);
  const buttons = html("div", { class: "er-buttons" }, bar);
  for (const o of rest) {
    const b = html("button", { class: "er-button" }, buttons, o.label);
    mark(b, o);
    clickable(b, o.label, { onClick: () => choose(o), move: o.move });
    if (o.warning) {
      // Said beside the button and read with it: what the click ends.
      const warning = html("div", { class: "er-warning", id: "er-pass-warning" }, bar);
      html("p", {}, warning, o.warning);
      if (o.rule) {
        // Kept open across redraws (a state or the card list arriving) once opened.
        const more = html("details", { class: "er-rule" }, warning);
        more.open = !!ui.tieRuleOpen;
        more.addEventListener("toggle", () => { ui.tieRuleOpen = more.open; });
        html("summary", {}, more, "How the tie-breaker works");
        html("p", {}, more, o.rule);
      }
      b.setAttribute("aria-describedby", warning.id);
    }
  }
  if (path.length) {
    const back = html("button", { class: "er-button er-back" }, buttons, "back");
    clickable(back, "back: undo the last step", {
      onClick: () => {
        if (path.length > 1) ui.selection.path = path.slice(0, -1);
        else delete ui.selection.path;
        ui.redraw();
      },
    });
    const cancel = html("button", { class: "er-button er-cancel" }, buttons, "cancel");
    // Off the lesson's way: cancelling is the way back.
    if (offTrack) cancel.setAttribute("data-tutorial", offTrack);
    clickable(cancel, "cancel this move", {
      onClick: () => {
        delete ui.selection.path;
        ui.redraw();
      },
    });
  }
}
