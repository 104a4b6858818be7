// Squad Combat, drawn for the browser (the drawing contract, docs/web-drawing.md).
//
// Each squad is a row of character cards (Life bar, wounds, energy diamonds, dice drawn as
// dice faces, traits); the seat's own squad sits at the bottom with its hand below it, the
// other squads above, and between them the "fight": the card being performed, who performs
// it on whom, its costs still due and, for an attack, the two dice and the two ratings.
// Views name cards by id only, so a card's name, cost and stats come from the server's card
// list, fetched once; until it arrives (or for an id it lacks) the id alone is drawn.
//
// Moves are read from msg.legal only and offered on the thing they concern: a card in hand
// (play or discard), a character (target, performer, refresh), a die (pay, die, drop), a
// button for pass/done/no die. Playing a card that several characters could perform takes
// two clicks (the card, then the character), kept in ui.selection.card with a cancel button.
// Any legal move the picture has no place for still gets a button, so every move is
// reachable by clicks.

import { CLICK, cardList, clickable, counted, gameStyle, html, revealOffer, svg, unplayable as markUnplayable, unplayableLine } from "../js/draw.js";

const SLOTS = "abc";
const STEP = {
  phase: "action phase",
  payDie: "die payment",
  payCard: "card discard payment",
  target: "target choice",
  boost: "boost die choice",
  attackDie: "attack die choice",
  defenseDie: "defense die choice",
  react: "reaction window",
  endWindow: "end-of-turn window",
  refreshWindow: "window before a refresh",
  drop: "dice trim after a refresh",
  discard: "end-of-turn discard",
  over: "game over",
};
const KIND_TEXT = { attack: "Attack", action: "Action", edge: "Edge" };
const EFFECT_TEXT = {
  heal: (n) => `heal a wound of ${n} or less`,
  boost: (n) => `+${n} to one of your dice`,
  energy: (n) => `regain ${n} energy`,
  draw: (n) => `draw ${counted(n, "card")}`,
  defense: (n) => `+${n} defense`,
  attack: (n) => `+${n} attack`,
};
const PIPS = {
  1: [[15, 15]],
  2: [[8, 8], [22, 22]],
  3: [[8, 8], [15, 15], [22, 22]],
  4: [[8, 8], [22, 8], [8, 22], [22, 22]],
  5: [[8, 8], [22, 8], [15, 15], [8, 22], [22, 22]],
  6: [[8, 7], [22, 7], [8, 15], [22, 15], [8, 23], [22, 23]],
};
const LOG_SHOWN = 6;

let catalogue = null; // Map id -> card, once fetched

function loadCatalogue(ui, options) {
  catalogue = cardList("squad-combat", ui, options);
}

/** A card by its id; until the card list has come, a stand-in named from the id
 * ("coordinated-strike": "Coordinated Strike", as every built-in card is named), so that a
 * slow connection never shows a player the id's unbroken word. */
function cardInfo(id) {
  if (catalogue && catalogue.has(id)) return catalogue.get(id);
  const name = id.split("-").map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(" ");
  return { id, name, kind: "unknown", traits: [], cost: "?", text: name };
}

/** A button on the table: `how` is what clickable() takes ({ ui, move } or { onClick }). */
function button(parent, label, hint, how, cls = "") {
  const node = html("button", { class: `sc-button ${cls}`.trim(), type: "button" }, parent, label);
  return clickable(node, hint, how);
}

/** A die face with its pips, as SVG. */
function dieFace(value, cls = "") {
  const box = svg("svg", { viewBox: "0 0 30 30", class: `sc-die ${cls}`.trim(), role: "img" });
  svg("title", {}, box, value === null ? "no die (counts as 0)" : `a die showing ${value}`);
  svg("rect", { x: 1.5, y: 1.5, width: 27, height: 27, rx: 6, class: "sc-die-body" }, box);
  if (value === null || value === 0) {
    svg("text", { x: 15, y: 20, "text-anchor": "middle", class: "sc-die-none" }, box, "0");
  } else {
    for (const [cx, cy] of PIPS[value] || []) svg("circle", { cx, cy, r: 2.8, class: "sc-pip" }, box);
  }
  return box;
}

/** A cost in the rulebook's notation (<X> energy diamonds, [X] die minimums, C card
 * discards) as its parts, in order: {kind: "energy" | "die" | "card", n}. */
function costParts(cost) {
  const parts = [];
  const re = /<(\d+)>|\[(\d)\]|C/g;
  let m;
  while ((m = re.exec(cost || "")) !== null) {
    if (m[1] !== undefined) parts.push({ kind: "energy", n: Number(m[1]) });
    else if (m[2] !== undefined) parts.push({ kind: "die", n: Number(m[2]) });
    else parts.push({ kind: "card", n: 1 });
  }
  return parts;
}

const COST_WORDS = {
  energy: (n) => `${n} energy`,
  die: (n) => (n <= 1 ? "any die" : `die ${n}+`),
  card: () => "a card",
};

/** A cost in words ("2 energy, die 4+"): a newcomer read "<2>[4]" as a code. */
function costWords(cost) {
  const parts = costParts(cost);
  return parts.length ? parts.map((p) => COST_WORDS[p.kind](p.n)).join(", ") : "free";
}

/** A cost as the rulebook draws it: diamonds of energy, die faces, card backs. */
function costChips(cost, parent) {
  const row = html("span", { class: "sc-cost" }, parent);
  row.title = `costs ${costWords(cost)}`;
  const parts = costParts(cost);
  if (!parts.length) html("span", { class: "sc-cost-free" }, row, "free");
  for (const p of parts) {
    const chip = html("span", { class: `sc-cost-${p.kind}` }, row, p.kind === "card" ? "C" : String(p.n));
    chip.title = p.kind === "card" ? "discard a card" : COST_WORDS[p.kind](p.n);
  }
  return row;
}

// -- reading the legal moves ---------------------------------------------------------------
function parseLegal(legal) {
  const out = {
    texts: new Set(), plays: new Map(), refresh: new Map(), discard: new Map(),
    target: new Map(), pay: new Map(), die: new Map(), drop: new Map(),
    pass: null, done: null, noDie: null,
  };
  for (const { text } of legal) {
    out.texts.add(text);
    let m;
    if ((m = /^play (\S+) by ([abc])$/.exec(text))) {
      if (!out.plays.has(m[1])) out.plays.set(m[1], new Map());
      out.plays.get(m[1]).set(SLOTS.indexOf(m[2]), text);
    } else if ((m = /^refresh ([abc])$/.exec(text))) out.refresh.set(SLOTS.indexOf(m[1]), text);
    else if ((m = /^discard (\S+)$/.exec(text))) out.discard.set(m[1], text);
    else if ((m = /^target (\d[abc])$/.exec(text))) out.target.set(m[1], text);
    else if ((m = /^(pay|die|drop) ([1-6])$/.exec(text))) out[m[1]].set(Number(m[2]), text);
    else if (text === "pass") out.pass = text;
    else if (text === "done") out.done = text;
    else if (text === "no die") out.noDie = text;
  }
  return out;
}

function character(view, ref) {
  if (!ref) return null;
  return ((view.characters || [])[Number(ref[0])] || [])[SLOTS.indexOf(ref[1])] || null;
}

function seatName(msg, seat) {
  return (msg.seat_names || (msg.view || {}).seats || [])[seat] ?? `seat ${seat}`;
}

function who(msg, ref) {
  const ch = character(msg.view, ref);
  return ch ? `${seatName(msg, Number(ref[0]))} ${ch.name} (${ref})` : ref;
}

/** Whose dice the pending die decision is about, and with which verb they are clicked. */
function diceChoice(view, legal) {
  const kind = (view.step || {}).kind;
  const top = (view.stack || [])[view.stack.length - 1];
  if (kind === STEP.drop) return { ref: `${view.phase}${SLOTS[view.dropping]}`, moves: legal.drop, verb: "drop" };
  if (!top) return null;
  if (kind === STEP.payDie) return { ref: top.performer, moves: legal.pay, verb: "pay" };
  if (kind === STEP.attackDie) return { ref: top.performer, moves: legal.die, verb: "attack die" };
  if (kind === STEP.defenseDie) return { ref: top.target, moves: legal.die, verb: "defense die" };
  if (kind === STEP.boost) return { ref: top.target, moves: legal.die, verb: "raise" };
  return null;
}

// -- the drawing ---------------------------------------------------------------------------
export function draw(root, msg, ui) {
  gameStyle("squad-combat", import.meta.url);
  loadCatalogue(ui, msg.options);
  root.replaceChildren();
  const view = msg.view || {};
  const seat = msg.seat ?? null;
  const legal = parseLegal(ui.canMove ? msg.legal || [] : []);
  const sel = ui.selection;
  // A remembered card that can no longer be played (another message came) is forgotten.
  if (sel.card && !legal.plays.has(sel.card)) delete sel.card;
  const placed = new Set();
  const ctx = { msg, view, seat, legal, ui, sel, placed, dice: diceChoice(view, legal) };

  const box = html("div", { class: "sc" }, root);
  drawHeader(box, ctx);
  const order = view.order || (view.characters || []).map((_, s) => s);
  const bottom = seat !== null ? seat : order[order.length - 1];
  const top = html("div", { class: "sc-opponents" }, box);
  // The others in turn order after the seat at the bottom, so the next to act is nearest.
  const start = order.indexOf(bottom);
  for (let i = 1; i < order.length; i += 1) drawSquad(top, ctx, order[(start + i) % order.length]);
  drawFight(box, ctx);
  drawSquad(box, ctx, bottom, true);
  if (view.hand) drawHand(box, ctx);
  drawActions(box, ctx);
  drawLog(box, ctx);
  fitCardNames(root);
  revealOffer(root, ui.canMove && !msg.replay ? `${msg.seq}#${sel.card || ""}` : "");
}

const measuring = document.createElement("canvas").getContext("2d");

/** A card's name whose longest word is wider than the card ("Coordinated" on a phone's
 * hand card, "Backstab" on the small card in the fight) is set smaller until it fits, not
 * broken in two nor run past the border. All read first, then all written: one layout. */
function fitCardNames(root) {
  const names = [...root.querySelectorAll(".sc-card-name")];
  const sizes = names.map((name) => {
    const style = getComputedStyle(name);
    measuring.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const widest = Math.max(0, ...name.textContent.split(/\s+/).map((w) => measuring.measureText(w).width));
    const room = name.clientWidth - 1;
    const size = parseFloat(style.fontSize);
    return room > 0 && widest > room ? Math.max(0.6 * size, Math.floor((10 * size * room) / widest) / 10) : null;
  });
  names.forEach((name, i) => { if (sizes[i]) name.style.fontSize = `${sizes[i]}px`; });
}

function drawHeader(box, ctx) {
  const { msg, view, seat, sel } = ctx;
  const bar = html("div", { class: "sc-header" }, box);
  const turn = html("div", { class: "sc-turn" }, bar);
  html("span", { class: "sc-turn-n" }, turn, `Turn ${view.turn ?? "?"}`);
  html("span", { class: `sc-chip sc-seat-${view.lead}` }, turn, `${seatName(msg, view.lead)} leads`);
  const step = view.step || {};
  const result = view.result || {};
  const prompt = html("div", { class: "sc-prompt" }, bar);
  if (result.over) {
    prompt.classList.add("sc-over");
    prompt.textContent = result.winner === null || result.winner === undefined
      ? `Game over: a draw (${result.reason})`
      : `Game over: ${seatName(msg, result.winner)} wins (${result.reason})`;
    return;
  }
  const mine = seat !== null && step.seat === seat && ctx.legal.texts.size > 0;
  prompt.classList.toggle("sc-mine", mine);
  prompt.textContent = promptText(ctx, step, mine);
  if (!ctx.legal.texts.size) return;
  // The move being built: the chosen card waiting for its performer, or what a pointer
  // over a clickable thing would send.
  const building = html("div", { class: "sc-building" }, bar);
  html("span", {}, building, "move: ");
  const code = html("code", {}, building, sel.card ? `play ${sel.card} by …` : "—");
  const resting = code.textContent;
  box.addEventListener("pointerover", (event) => {
    const target = event.target.closest ? event.target.closest("[data-move]") : null;
    code.textContent = target ? target.dataset.move : resting;
  });
}

/** What the seat to act is asked now, in the prompt's words ("You: choose the defense die
 * against Slash ..."): the game page says it when the seat's own move leads to its next
 * decision, where "Your move" alone would say nothing new. */
export function prompt(msg) {
  const view = msg.view || {};
  return promptText({ msg, view }, view.step || {}, true);
}

// Every window for edges asks the same of its seat; only the moment differs.
const EDGE_OR_DONE = "play an edge from your hand, or done";

function promptText(ctx, step, mine) {
  const { msg, view } = ctx;
  const whose = mine ? "You" : seatName(msg, step.seat);
  const top = (view.stack || [])[view.stack.length - 1];
  const card = top ? cardInfo(top.card).name : "";
  switch (step.kind) {
    case STEP.phase:
      return mine ? "Your action phase: play a card from your hand, refresh a character's dice, or pass"
        : `${whose}: action phase`;
    case STEP.payDie:
      return `${whose}: pay [${top.dice_due[0]}] for ${card}${mine ? `: ${CLICK} a die of that value or more` : ""}`;
    case STEP.payCard:
      return `${whose}: discard ${counted(top.cards_due, "card")} for ${card}${mine ? `: ${CLICK} a card in your hand` : ""}`;
    case STEP.target:
      return `${whose}: choose the target of ${card}${mine ? `: ${CLICK} a character` : ""}`;
    case STEP.boost:
      return `${whose}: choose the die ${card} raises${mine ? `: ${CLICK} it` : ""}`;
    case STEP.attackDie:
      return `${whose}: choose the attack die for ${card}${mine ? ` (${CLICK} one of the attacker's dice) or no die` : ""}`;
    case STEP.defenseDie:
      return `${whose}: choose the defense die against ${card}${mine ? ` (${CLICK} one of the defender's dice) or no die` : ""}`;
    case STEP.react:
      return `${whose}: reaction window${mine ? `: ${EDGE_OR_DONE}` : " (edges)"}`;
    case STEP.endWindow:
      return `${whose}: end of the turn, before spent energy clears${mine ? `: ${EDGE_OR_DONE}` : " (edges)"}`;
    case STEP.refreshWindow:
      return `${whose}: before the refreshed dice are rolled${mine ? `: ${EDGE_OR_DONE}` : " (edges)"}`;
    case STEP.drop:
      return `${whose}: too many dice after the refresh${mine ? `: ${CLICK} a die to drop` : ""}`;
    case STEP.discard:
      return `${whose}: end of turn, discard up to 2 cards (${view.discarded} so far)${mine ? ", then done" : ""}`;
    default:
      return `${whose}: ${step.kind}`;
  }
}

function drawSquad(parent, ctx, s, own = false) {
  const { msg, view } = ctx;
  const squad = html("section", { class: `sc-squad sc-seat-${s}${own ? " sc-own" : ""}` }, parent);
  const head = html("div", { class: "sc-squad-head" }, squad);
  html("span", { class: "sc-squad-name" }, head, seatName(msg, s) + (s === ctx.seat ? " (you)" : ""));
  html("span", { class: "sc-deck-name" }, head, (view.decks || [])[s] || "");
  const flags = html("span", { class: "sc-flags" }, head);
  const alive = (view.characters[s] || []).some((c) => !c.removed);
  // Over, nobody is deciding: a lesson that stops after a turn ("Game over") still had a
  // squad "deciding" in its "action phase"; and a squad that passed is past its phase.
  const ended = (view.result || {}).over || msg.status === "finished";
  const passed = !!(view.passed || [])[s];
  if (!alive) html("span", { class: "sc-chip sc-out" }, flags, "out");
  else if (passed) html("span", { class: "sc-chip sc-passed" }, flags, "passed");
  if (view.phase === s && alive && !passed && !ended) html("span", { class: "sc-chip sc-phase" }, flags, "action phase");
  if ((view.step || {}).seat === s && !ended) html("span", { class: "sc-chip sc-acting" }, flags, "deciding");
  const piles = html("span", { class: "sc-piles" }, head);
  if (!own || !view.hand) pile(piles, "hand", (view.hand_sizes || [])[s], "sc-pile-hand");
  pile(piles, "deck", (view.deck_sizes || [])[s], "sc-pile-deck");
  const discards = (view.discards || [])[s] || [];
  const last = discards.length ? cardInfo(discards[discards.length - 1]).name : null;
  pile(piles, "discard", discards.length, "sc-pile-discard", last);
  const row = html("div", { class: "sc-chars" }, squad);
  (view.characters[s] || []).forEach((ch, slot) => drawCharacter(row, ctx, s, slot, ch));
}

function pile(parent, label, count, cls, extra = null) {
  const node = html("span", { class: `sc-pile ${cls}` }, parent);
  html("span", { class: "sc-pile-count" }, node, String(count ?? 0));
  html("span", { class: "sc-pile-label" }, node, label);
  if (extra) {
    html("span", { class: "sc-pile-top" }, node, extra);
    node.title = `${label}: ${counted(count, "card")}, last ${extra}`;
  } else node.title = `${label}: ${counted(count, "card")}`;
}

function drawCharacter(row, ctx, s, slot, ch) {
  const { view, legal, ui, sel, placed } = ctx;
  const ref = `${s}${SLOTS[slot]}`;
  const top = (view.stack || [])[view.stack.length - 1];
  const node = html("div", { class: `sc-char sc-seat-${s}` }, row);
  if (ch.removed) node.classList.add("sc-removed");
  if (top && top.performer === ref) node.classList.add("sc-performer");
  if (top && top.target === ref) node.classList.add("sc-target");
  const head = html("div", { class: "sc-char-head" }, node);
  html("span", { class: "sc-char-name" }, head, ch.name);
  // "1c" is the character's name in the notation and the log; its hover text says so.
  html("span", { class: "sc-ref", title: `${ch.name}: "${ref}" in typed moves and the log (${seatName(ctx.msg, s)}'s ${["first", "second", "third"][slot]} character)` }, head, ref);
  const traits = html("div", { class: "sc-traits" }, node);
  for (const t of ch.traits) html("span", { class: `sc-trait sc-trait-${t.toLowerCase()}` }, traits, t);
  if (ch.removed) {
    html("div", { class: "sc-removed-label" }, node, "removed");
    return;
  }
  // Life: what is left of it, as a bar, and each wound under it as a small card.
  const left = Math.max(0, ch.life - ch.damage);
  const life = html("div", { class: "sc-life" }, node);
  life.title = `Life ${ch.life}, damage ${ch.damage}`;
  const bar = html("div", { class: "sc-life-bar" }, life);
  const fill = html("div", { class: "sc-life-fill" }, bar);
  fill.style.width = `${(100 * left) / ch.life}%`;
  if (left * 3 <= ch.life) fill.classList.add("sc-life-low");
  html("span", { class: "sc-life-text" }, life, `♥ ${left}/${ch.life}`);
  const wounds = html("div", { class: "sc-wounds" }, node);
  for (const w of ch.wounds) {
    const chip = html("span", { class: `sc-wound sc-seat-${w.owner}` }, wounds);
    html("span", { class: "sc-wound-name" }, chip, cardInfo(w.card).name);
    html("span", { class: "sc-wound-dmg" }, chip, String(w.damage));
    chip.title = `wound: ${cardInfo(w.card).name}, damage ${w.damage} (${seatName(ctx.msg, w.owner)}'s card)`;
  }
  // Energy: one diamond per point, hollow once spent this turn.
  const energy = html("div", { class: "sc-energy" }, node);
  energy.title = `energy ${ch.energy - ch.spent} left of ${ch.energy}`;
  for (let i = 0; i < ch.energy; i += 1) html("span", { class: `sc-en${i >= ch.energy - ch.spent ? " sc-en-spent" : ""}` }, energy);
  html("span", { class: "sc-en-text" }, energy, `${ch.energy - ch.spent}/${ch.energy}`);
  // Dice: the pool's dice with their values; clickable when this character's dice decide.
  const dice = html("div", { class: "sc-dice" }, node);
  const choice = ctx.dice && ctx.dice.ref === ref ? ctx.dice : null;
  if (!ch.dice.length) html("span", { class: "sc-no-dice" }, dice, "no dice");
  ch.dice.forEach((v) => {
    const face = html("span", { class: "sc-die-slot" }, dice);
    face.appendChild(dieFace(v));
    const move = choice && choice.moves.get(v);
    if (move) {
      placed.add(move);
      clickable(face, `${choice.verb} ${v}`, { ui, move });
    }
  });
  // "pool 2 · refresh <2>" was the rulebook's shorthand: said in words.
  const pool = html("div", { class: "sc-pool" }, node, `keeps ${ch.dice_pool} ${ch.dice_pool === 1 ? "die" : "dice"} · refresh: ${ch.refresh} energy`);
  pool.title = `Dice pool ${ch.dice_pool}: a refresh rolls ${ch.dice_pool} new dice for ${ch.refresh} energy, then keeps at most ${ch.dice_pool}`;
  // The character as a whole: a target, the performer of the selected card, or a refresh.
  const targetMove = legal.target.get(ref);
  const performMove = sel.card && s === ctx.seat ? (legal.plays.get(sel.card) || new Map()).get(slot) : null;
  if (targetMove) {
    placed.add(targetMove);
    clickable(node, `target ${ch.name}`, { ui, move: targetMove });
  } else if (performMove) {
    placed.add(performMove);
    clickable(node, `${ch.name} performs ${cardInfo(sel.card).name}`, { ui, move: performMove });
    node.classList.add("sc-can-perform");
  }
  const refresh = legal.refresh.get(slot);
  if (refresh && s === ctx.seat) placed.add(refresh);
  // While a card waits for its performer, a click on a character means "this one performs".
  if (refresh && s === ctx.seat && !sel.card) {
    button(node, `↻ refresh dice (${ch.refresh} energy)`, `refresh ${ch.name}'s dice`, { ui, move: refresh }, "sc-refresh");
  }
}

function drawFight(box, ctx) {
  const { msg, view } = ctx;
  const stack = view.stack || [];
  const zone = html("section", { class: "sc-fight" }, box);
  if (!stack.length) {
    // Between cards: how the last attack ended (its dice and ratings are in the log line),
    // or the heal since, which says the life left now: the hit's figure stood after it.
    const log = view.log || [];
    const quiet = html("div", { class: "sc-fight-quiet" }, zone);
    const attack = [...log].reverse().find((line) => / (hits|misses) | removes a wound /.test(line));
    if (attack) {
      const kind = / hits /.test(attack) ? "sc-hits" : / misses /.test(attack) ? "sc-misses" : "sc-heals";
      html("div", { class: `sc-last-attack ${kind}` }, quiet, attack);
    }
    const last = log[log.length - 1];
    if (last && last !== attack) html("div", {}, quiet, last);
    return;
  }
  stack.forEach((perf, i) => {
    const info = cardInfo(perf.card);
    const lane = html("div", { class: `sc-perf${i === stack.length - 1 ? " sc-perf-top" : " sc-perf-under"}` }, zone);
    drawCardFace(lane, info, `sc-card-small sc-kind-${info.kind}`);
    const text = html("div", { class: "sc-perf-text" }, lane);
    const line = html("div", { class: "sc-perf-line" }, text);
    html("span", { class: `sc-who sc-seat-${perf.player}` }, line, who(msg, perf.performer));
    html("span", { class: "sc-arrow" }, line, info.kind === "attack" ? " attacks → " : " plays " + info.name + (perf.target ? " on " : ""));
    if (perf.target) html("span", { class: `sc-who sc-seat-${perf.target[0]}` }, line, who(msg, perf.target));
    else if (info.kind === "attack") html("span", { class: "sc-who sc-unknown" }, line, "?");
    const due = [];
    if (perf.dice_due.length) due.push(`dice due ${perf.dice_due.map((d) => `[${d}]`).join("")}`);
    if (perf.cards_due) due.push(`cards due ${perf.cards_due}`);
    if (due.length) html("div", { class: "sc-due" }, text, due.join(" · "));
    if (perf.boost_die !== null && perf.boost_die !== undefined) html("div", { class: "sc-due" }, text, `raises the ${perf.boost_die}`);
    if (info.kind === "attack") drawRatings(text, perf, info);
    drawSteps(text, ctx, perf, info, i === stack.length - 1);
  });
}

function drawRatings(parent, perf, info) {
  const row = html("div", { class: "sc-ratings" }, parent);
  const side = (label, die, mods, cls) => {
    const cell = html("div", { class: `sc-rating ${cls}` }, row);
    html("span", { class: "sc-rating-label" }, cell, label);
    if (die === null || die === undefined) {
      html("span", { class: "sc-rating-wait" }, cell, "die ?");
      return;
    }
    cell.appendChild(dieFace(die, die === 0 ? "sc-die-declined" : ""));
    let total = die;
    for (const [name, value] of mods) {
      if (!value && name !== "hit") continue;
      html("span", { class: "sc-mod" }, cell, `${value >= 0 ? "+" : "−"}${Math.abs(value)} ${name}`);
      total += value;
    }
    html("span", { class: "sc-rating-total" }, cell, `= ${total}`);
  };
  side("attack", perf.attack_die, [["hit", info.hit ?? 0], ["edges", perf.attack_bonus]], "sc-rating-attack");
  html("span", { class: "sc-vs" }, row, "vs");
  side("defense", perf.defense_die, [["edges", perf.defense_bonus]], "sc-rating-defense");
  if (perf.attack_die !== null && perf.defense_die !== null && perf.attack_die !== undefined && perf.defense_die !== undefined) {
    const a = perf.attack_die + (info.hit ?? 0) + perf.attack_bonus;
    const d = perf.defense_die + perf.defense_bonus;
    html("span", { class: `sc-forecast ${a >= d ? "sc-hits" : "sc-misses"}` }, row, a >= d ? `hits for ${info.damage} so far` : "misses so far");
  }
}

function drawSteps(parent, ctx, perf, info, isTop) {
  const { msg, view } = ctx;
  const steps = ["announce", "pay", "target"];
  if (info.effect === "boost") steps.push("die");
  if (info.kind === "attack") steps.push("attack die", "defense die", "reactions");
  steps.push("resolve");
  const kind = isTop ? (view.step || {}).kind : null;
  const now = {
    [STEP.payDie]: "pay", [STEP.payCard]: "pay", [STEP.target]: "target", [STEP.boost]: "die",
    [STEP.attackDie]: "attack die", [STEP.defenseDie]: "defense die", [STEP.react]: "reactions",
  }[kind];
  const row = html("ol", { class: "sc-steps" }, parent);
  const at = steps.indexOf(now);
  steps.forEach((name, i) => {
    const item = html("li", { class: i < at ? "sc-step-done" : i === at ? "sc-step-now" : "" }, row, name);
    if (name === "reactions" && perf.windows && perf.windows.length) {
      item.textContent = `reactions: ${perf.windows.map((s) => seatName(msg, s)).join(", then ")}`;
    }
  });
}

function drawCardFace(parent, info, cls = "") {
  const card = html("div", { class: `sc-card ${cls}`.trim() }, parent);
  const top = html("div", { class: "sc-card-top" }, card);
  costChips(info.cost, top);
  html("span", { class: "sc-card-kind" }, top, info.kind === "edge" ? `Edge · ${info.timing}` : KIND_TEXT[info.kind] || "");
  html("div", { class: "sc-card-name" }, card, info.name); // made to fit: fitCardNames
  const traits = html("div", { class: "sc-traits" }, card);
  for (const t of info.traits || []) html("span", { class: `sc-trait sc-trait-${t.toLowerCase()}` }, traits, t);
  const body = html("div", { class: "sc-card-body" }, card);
  if (info.kind === "attack") {
    html("span", { class: "sc-stat sc-stat-hit" }, body, `hit ${info.hit >= 0 ? "+" : ""}${info.hit}`);
    html("span", { class: "sc-stat sc-stat-dmg" }, body, `dmg ${info.damage}`);
  } else if (info.effect) {
    html("span", { class: "sc-stat" }, body, (EFFECT_TEXT[info.effect] || ((n) => `${info.effect} ${n}`))(info.amount));
  }
  // The cost in words at the card's foot; the rulebook's notation stays on hand (data-cost).
  const words = info.cost === "?" ? "?" : costWords(info.cost);
  html("span", { class: "sc-card-cost", "data-cost": info.cost, title: `${info.cost} in the rulebook's notation` }, card, words);
  card.title = info.text || info.name;
  return card;
}

function drawHand(box, ctx) {
  const { view, legal, ui, sel, placed } = ctx;
  const area = html("section", { class: "sc-hand" }, box);
  html("h3", { class: "sc-hand-title" }, area, `Your hand (${view.hand.length})`);
  // The rules' reasons for the cards no character can play now (the state message's).
  const reasons = ctx.msg.unplayable || {};
  const why = unplayableLine(area, view.hand.filter((id) => reasons[id]).length, "sc-why", "now");
  for (const id of new Set(view.hand)) {
    const warning = spentDiceWarning(ctx, id);
    if (warning) html("p", { class: "sc-warning" }, area, warning);
  }
  const row = html("div", { class: "sc-hand-cards" }, area);
  const kind = (view.step || {}).kind;
  for (const id of view.hand) {
    const info = cardInfo(id);
    const card = drawCardFace(row, info, `sc-kind-${info.kind}`);
    const discard = legal.discard.get(id);
    const plays = legal.plays.get(id);
    if (discard) {
      placed.add(discard);
      const why = kind === STEP.payCard ? "discard to pay" : "discard";
      clickable(card, `${why} ${info.name}`, { ui, move: discard });
      card.classList.add("sc-discardable");
    } else if (plays) {
      for (const text of plays.values()) placed.add(text);
      // One card of two alike (two Quick Shots) is the one chosen: both rose as chosen.
      if (sel.card === id && !row.querySelector(".sc-selected")) card.classList.add("sc-selected");
      if (plays.size === 1) {
        const [[slot, text]] = plays;
        const ch = view.characters[ctx.seat][slot];
        clickable(card, `play ${info.name} by ${ch.name}`, { ui, move: text });
      } else {
        // A tutorial's play (docs/web.md, "Tutorials"): its card first, then the performer.
        const expected = ctx.msg.tutorial && ctx.msg.tutorial.expected;
        if (expected && !sel.card && [...plays.values()].includes(expected)) {
          card.setAttribute("data-tutorial", expected);
        }
        clickable(card, `play ${info.name}: then choose who performs it`, {
          onClick: () => {
            sel.card = id;
            ui.redraw();
          },
        });
      }
      card.classList.add("sc-playable");
    } else if (legal.texts.size && id in reasons) {
      // Greyed where the rules say it cannot be played: the action phase and the windows,
      // and every card while a die or a target is chosen (it looked playable there).
      card.classList.add("sc-unplayable");
      markUnplayable(card, info.name, reasons[id], why);
    }
  }
  if (!view.hand.length) html("div", { class: "sc-empty" }, row, "no cards");
}

/** An attack whose die cost takes every die its performer has leaves it none to attack
 * with, which the rules do without asking: a newcomer's Heavy Blow spent Vanguard's only die
 * and then rolled "no die", with no word before (a card with one performer plays at a tap).
 * Said above the hand while the card can be played: "" where it would not happen. */
function spentDiceWarning(ctx, id) {
  const info = cardInfo(id);
  const costs = costParts(info.cost).filter((p) => p.kind === "die").map((p) => `[${p.n}]`);
  if (info.kind !== "attack" || !costs.length) return "";
  const squad = (ctx.view.characters || [])[ctx.seat] || [];
  const bare = [...(ctx.legal.plays.get(id) || new Map()).keys()]
    .filter((slot) => squad[slot] && squad[slot].dice.length <= costs.length)
    .map((slot) => squad[slot].name);
  if (!bare.length) return "";
  const its = costs.length === 1 ? "its only die" : "all its dice";
  return `${info.name} by ${bare.join(" or ")} pays ${its} for ${costs.join("")} and attacks with no die (counts as 0).`;
}

function drawActions(box, ctx) {
  const { legal, ui, sel, placed } = ctx;
  const bar = html("div", { class: "sc-actions" }, box);
  if (sel.card) {
    html("span", { class: "sc-hint" }, bar, `choose who performs ${cardInfo(sel.card).name}: ${CLICK} one of your lit characters`);
    const expected = ctx.msg.tutorial && ctx.msg.tutorial.expected;
    const chosen = [...(legal.plays.get(sel.card) || new Map()).values()];
    const cancel = button(bar, "cancel", "cancel: choose another move", {
      onClick: () => {
        delete sel.card;
        ui.redraw();
      },
    }, "sc-cancel");
    // The card chosen is not the lesson's: cancelling is the way back.
    if (expected && !chosen.includes(expected)) cancel.setAttribute("data-tutorial", expected);
  }
  if (legal.noDie) {
    placed.add(legal.noDie);
    button(bar, "no die (counts as 0)", "spend no die", { ui, move: legal.noDie });
  }
  if (legal.done) {
    placed.add(legal.done);
    button(bar, "done", "done", { ui, move: legal.done }, "sc-primary");
  }
  if (legal.pass) {
    placed.add(legal.pass);
    button(bar, "pass", "pass: no more actions this turn", { ui, move: legal.pass }, "sc-pass");
  }
  // Anything the picture had no place for (a die that was not drawn, a card not in hand...).
  for (const text of legal.texts) {
    if (!placed.has(text)) button(bar, text, text, { ui, move: text }, "sc-other");
  }
  if (!bar.children.length) bar.remove();
}

function drawLog(box, ctx) {
  const all = ctx.view.log || [];
  const lines = all.slice(-LOG_SHOWN);
  if (!lines.length) return;
  const area = html("section", { class: "sc-log" }, box);
  // Said when lines are left out: a setup's first roll was missing with no word why. Not
  // "of N": the view keeps only the latest events, and "of 24" stood still for a whole game.
  html("h3", {}, area, all.length > lines.length ? `On the table: the latest ${lines.length} events` : "On the table");
  const list = html("ol", {}, area);
  for (const line of lines) {
    const item = html("li", {}, list, line);
    if (/ hits /.test(line)) item.classList.add("sc-log-hit");
    else if (/ misses /.test(line)) item.classList.add("sc-log-miss");
    else if (/removed from the game|Game over/.test(line)) item.classList.add("sc-log-big");
  }
  const key = logKey(lines, ctx.msg);
  if (key) html("p", { class: "sc-log-key" }, area, key);
}

// The log's notation in words, for what the lines shown use: a newcomer met "(<2>[3])" and
// "0b" with no word of what they were (the character's hover text says it; a phone has none).
function logKey(lines, msg) {
  const text = lines.join(" ");
  const parts = [];
  const cost = text.match(/ \(((?:<\d+>|\[\d\]|C)+)\)/);
  if (cost) {
    const said = {
      energy: (n) => `<${n}> is ${n} energy`,
      die: (n) => `[${n}] a die of ${n}${n === 6 ? "" : " or more"}`,
      card: () => "C one other card from the hand",
    };
    const says = [];
    const told = new Set();
    for (const p of costParts(cost[1])) {
      if (told.has(p.kind)) continue; // each kind once, as the first of its kind reads
      told.add(p.kind);
      says.push(said[p.kind](p.n));
    }
    parts.push(`(${cost[1]}) after a card is what it cost: ${says.join(", ")}`);
  }
  const ref = text.match(/\((\d)([abc])\)/);
  if (ref) {
    const place = ["first", "second", "third"]["abc".indexOf(ref[2])];
    parts.push(`${ref[1]}${ref[2]} is ${seatName(msg, Number(ref[1]))}'s ${place} character`);
  }
  return parts.length ? `Key: ${parts.join("; ")}.` : "";
}
