// Edges, drawn for the browser: the grid of squares, pyramids on the edges (Large, Medium
// and Small as triangles of three sizes in their player's colour), every square shaded by
// the side that takes it, and each seat's stash. A move is built in two clicks, both read
// from msg.legal only: an edge, then a pyramid size ("L h2,3"); or, on the second move,
// the first edge again to take it over with the pie rule ("pie M").
import { CLICK, clickable, gameStyle, html, svg } from "../js/draw.js";

const SIZES = ["L", "M", "S"];
const SIZE_NAMES = { L: "Large", M: "Medium", S: "Small" };
const POINTS = { L: 3, M: 2, S: 1 };
const HALF = { L: 26, M: 19, S: 13 }; // half the width of a pyramid's triangle
const SEAT_COLOURS = ["#e0483e", "#3f7fe0", "#f08a5d", "#6fb6ff"];
const SIDE_COLOURS = ["#e0483e", "#3f7fe0"];
const CELL = 110;
const PAD = 40;
const HIT = 48; // an open edge's tap band, across (viewBox units)

/** "3x4" -> [3, 4]. */
function boardSize(board) {
  const match = /^(\d+)x(\d+)$/.exec(String(board));
  return match ? [Number(match[1]), Number(match[2])] : [3, 4];
}

/** The end points of an edge ("h1,2" or "v0,3") in board units. */
function edgeEnds(name) {
  const match = /^([hv])(\d+),(\d+)$/.exec(name);
  if (!match) return null;
  const [r, c] = [Number(match[2]), Number(match[3])];
  return match[1] === "h" ? [[c, r], [c + 1, r]] : [[c, r], [c, r + 1]];
}

/** Where an edge is, in the squares' words the hints and results use (square (r, c) is
 * row r, column c, from 0): "between squares (0,1) and (1,1)", "the top of square (0,1)".
 * A screen reader says it after the notation, which names the edge but not where it is. */
function edgePlace(name, rows, cols) {
  const [kind, r, c] = [name[0], ...name.slice(1).split(",").map(Number)];
  const [a, b] = kind === "h" ? [[r - 1, c], [r, c]] : [[r, c - 1], [r, c]];
  const inside = ([y, x]) => y >= 0 && x >= 0 && y < rows && x < cols;
  if (inside(a) && inside(b)) return `between squares (${a}) and (${b})`;
  const [side, square] = inside(b) ? [kind === "h" ? "top" : "left", b] : [kind === "h" ? "bottom" : "right", a];
  return `the ${side} of square (${square})`;
}

function allEdges(rows, cols) {
  const out = [];
  for (let r = 0; r <= rows; r += 1) for (let c = 0; c < cols; c += 1) out.push(`h${r},${c}`);
  for (let r = 0; r < rows; r += 1) for (let c = 0; c <= cols; c += 1) out.push(`v${r},${c}`);
  return out;
}

/** A move's notation read: a placement ("L h2,3": its size and edge), a pie take-over
 * ("pie M": its size, pie true), or null for anything else. */
function readMove(text) {
  const placing = /^([LMS])\s+([hv]\d+,\d+)$/.exec(text.trim());
  if (placing) return { size: placing[1], edge: placing[2], pie: false };
  const taking = /^pie\s+([LMS])$/.exec(text.trim());
  return taking ? { size: taking[1], edge: null, pie: true } : null;
}

/** The legal moves read as placements per edge and pie take-overs by size. */
export function parseLegal(legal) {
  const place = new Map();
  const pie = [];
  for (const { text } of legal) {
    const move = readMove(text);
    if (!move) continue;
    if (move.pie) {
      pie.push(move.size);
    } else {
      if (!place.has(move.edge)) place.set(move.edge, []);
      place.get(move.edge).push(move.size);
    }
  }
  return { place, pie };
}

/** A pyramid of a seat's colour; the second side's (seats 1 and 3) also has a dashed white
 * rim, so that whose it is never rests on the colour alone (the stashes show the same rim). */
function pyramid(parent, x, y, size, seat, extra = {}) {
  const h = HALF[size];
  const group = svg("g", { class: `pyramid pyramid-${size} pyramid-side-${seat % 2}`, ...extra }, parent);
  const rim = seat % 2 === 1 ? { stroke: "#fff", "stroke-dasharray": "5 3" } : { stroke: "#1a1410" };
  svg("polygon", {
    points: `${x - h},${y + h * 0.75} ${x + h},${y + h * 0.75} ${x},${y - h * 0.95}`,
    fill: SEAT_COLOURS[seat], "stroke-width": 2.5, "stroke-linejoin": "round", ...rim,
  }, group);
  // The lit face gives the triangle a little depth, like a pyramid seen from above.
  svg("polygon", {
    points: `${x},${y - h * 0.95} ${x + h},${y + h * 0.75} ${x + h * 0.25},${y + h * 0.75}`,
    fill: "#0003",
  }, group);
  svg("text", { x, y: y + h * 0.55, "text-anchor": "middle", class: "edges-pyr-letter", "font-size": h * 0.8 }, group, size);
  return group;
}

/** The log's last move in words and the edge it filled ("Blue placed a Small pyramid
 * on h1,2 (ringed)"), or null where the page has no log (the replay page) or no move yet. */
function lastMove(msg, view) {
  const entry = (msg.log || []).at(-1);
  if (!entry || !entry.text) return null;
  const move = readMove(entry.text);
  if (!move) return null;
  const who = (view.seats || msg.seat_names || [])[entry.seat] ?? `seat ${entry.seat}`;
  if (move.pie) {
    return { edge: view.first_edge, words: `last move: ${who} took over the first pyramid (pie rule, ringed)` };
  }
  return { edge: move.edge, words: `last move: ${who} placed a ${SIZE_NAMES[move.size]} pyramid on ${move.edge} (ringed)` };
}

export function draw(root, msg, ui) {
  gameStyle("edges", import.meta.url);
  root.replaceChildren();
  const view = msg.view;
  const [rows, cols] = boardSize(view.board);
  const seats = view.seats || msg.seat_names;
  const double = seats.length === 4;
  const sel = ui.selection;
  const { place, pie } = ui.canMove ? parseLegal(msg.legal) : { place: new Map(), pie: [] };
  if (sel.edge && !place.has(sel.edge) && !(sel.pie && pie.length)) delete sel.edge;

  const wrap = html("div", { class: "edges" }, root);
  drawScores(wrap, view, seats, msg, double);

  const width = cols * CELL + 2 * PAD;
  const height = rows * CELL + 2 * PAD;
  const board = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "edges-board", role: "group", "aria-label": "the board" }, wrap);
  const at = ([c, r]) => [PAD + c * CELL, PAD + r * CELL];
  svg("rect", { x: 6, y: 6, width: width - 12, height: height - 12, rx: 22, class: "edges-table" }, board);

  const squares = (view.result && view.result.squares) || [];
  const sides = (view.result && view.result.sides) || seats;
  // A square's words are drawn after the pyramids, over them: a large pyramid on a middle
  // edge would otherwise hide its score.
  const labels = [];
  for (const sq of squares) {
    const [x, y] = at([sq.col, sq.row]);
    const fill = sq.side === null || sq.side === undefined ? "#f4ecd6" : SIDE_COLOURS[sq.side];
    svg("rect", {
      x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8, rx: 6, fill,
      "fill-opacity": sq.side === null || sq.side === undefined ? 0.9 : sq.points === 2 ? 0.75 : 0.45,
      class: "edges-square",
    }, board);
    const [a, b] = sq.strength || [0, 0];
    if (a || b) {
      const taken = sq.side !== null && sq.side !== undefined;
      labels.push([{ x: x + CELL / 2, y: y + CELL / 2 + 6, "text-anchor": "middle", class: "edges-strength" },
        taken ? `+${sq.points}` : `${a} = ${b}`]);
      // The taker by name as well as by shade: colour is never the only sign. Its strength
      // first ("Blue 5–4"): "Blue · 4 : 5", Red's first, read as Blue's 4.
      const [own, other] = sq.side === 1 ? [b, a] : [a, b];
      labels.push([{ x: x + CELL / 2, y: y + CELL / 2 + 24, "text-anchor": "middle", class: "edges-strength-small" },
        // A tie's own words under its strengths: "3 = 3" over "3 : 3" said it twice.
        taken ? `${sides[sq.side] ?? ""} ${own}–${other}` : "tied"]);
    }
  }

  // Each square's name in its corner, clear of every pyramid: the hints, the results and
  // the move log name squares "(r,c)", which a board without them leaves to be counted.
  for (let r = 0; r < rows; r += 1) {
    for (let c = 0; c < cols; c += 1) {
      const [x, y] = at([c, r]);
      svg("text", { x: x + 9, y: y + 22, class: "edges-coord", "aria-hidden": "true" }, board, `${r},${c}`);
    }
  }

  const placed = view.edges || {};
  const last = lastMove(msg, view);
  for (const name of allEdges(rows, cols)) {
    const [p, q] = edgeEnds(name).map(at);
    const taken = placed[name];
    const canPlace = place.has(name);
    const canPie = pie.length > 0 && name === view.first_edge;
    const line = svg("line", {
      x1: p[0], y1: p[1], x2: q[0], y2: q[1],
      class: `edges-edge ${taken ? "taken" : ""} ${canPlace || canPie ? "open" : ""} ${sel.edge === name ? "chosen-edge" : ""}`,
    }, board);
    const mid = [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2];
    if (taken) {
      // The last move's pyramid is ringed, so the opponent's move is seen, not looked for.
      if (last && last.edge === name) svg("circle", { cx: mid[0], cy: mid[1], r: 32, class: "edges-last" }, board);
      const group = pyramid(board, mid[0], mid[1], taken.pyramid, taken.seat);
      if (canPie) {
        svg("circle", { cx: mid[0], cy: mid[1], r: 34, class: "edges-pie-ring" }, board);
        clickable(group, `take over the pyramid on ${name} (pie rule)`, {
          label: `take over the pyramid on ${name}, ${edgePlace(name, rows, cols)} (pie rule)`,
          onClick: () => { ui.selection.edge = name; ui.selection.pie = true; ui.redraw(); },
        });
        board.appendChild(group);
      }
    } else if (canPlace) {
      // A wide invisible band over the line, so a finger can hit the edge on a phone: HIT
      // units across, at least 24 px at 390 px wide up to Double Edges' 5x5 board; it stops
      // HIT/2 short of each post, so that the bands of two edges meeting there never overlap.
      const horizontal = p[1] === q[1];
      const across = -HIT / 2, along = HIT / 2;
      const hit = svg("rect", {
        x: Math.min(p[0], q[0]) + (horizontal ? along : across), y: Math.min(p[1], q[1]) + (horizontal ? across : along),
        width: horizontal ? CELL - HIT : HIT, height: horizontal ? HIT : CELL - HIT, rx: 12, class: "edges-hit",
      }, board);
      clickable(hit, `edge ${name}`, {
        label: `edge ${name}, ${edgePlace(name, rows, cols)}`,
        onClick: () => { ui.selection.edge = name; ui.selection.pie = false; ui.redraw(); },
      });
      if (sel.edge === name) line.classList.add("chosen-edge");
    }
  }
  for (let r = 0; r <= rows; r += 1) {
    for (let c = 0; c <= cols; c += 1) {
      const [x, y] = at([c, r]);
      svg("circle", { cx: x, cy: y, r: 7, class: "edges-post" }, board);
    }
  }
  for (const [attributes, words] of labels) svg("text", attributes, board, words);
  if (sel.edge && !sel.pie) {
    const [p, q] = edgeEnds(sel.edge).map(at);
    svg("circle", { cx: (p[0] + q[0]) / 2, cy: (p[1] + q[1]) / 2, r: 16, class: "edges-ghost" }, board);
  }

  drawChoice(wrap, view, sel, place, pie, msg, ui);
  // The edges' names, as moves, hints and the log use them, in words: "v0,1" and "h1,0"
  // were never said, nor that rows and columns count from 0.
  html("p", { class: "edges-key" }, wrap,
    `Key: squares are named row,column from 0,0 at the top left; an edge h1,2 is the line along the top of square 1,2 (h${rows},… the bottom line), v1,2 the line along its left side (v…,${cols} the right-hand line).`);
  drawStashes(wrap, view, seats, msg);
}

function drawScores(wrap, view, seats, msg, double) {
  const bar = html("div", { class: "edges-scores" }, wrap);
  const result = view.result || {};
  const sides = result.sides || seats;
  sides.forEach((name, side) => {
    const box = html("div", { class: `edges-side side-${side}` }, bar);
    box.style.borderColor = SIDE_COLOURS[side];
    const members = double ? seats.filter((_, s) => s % 2 === side).join(" + ") : "";
    html("div", { class: "edges-side-name" }, box, `${name}${members ? ` (${members})` : ""}${!double && msg.seat === side ? " — you" : ""}`);
    html("div", { class: "edges-side-score" }, box, String((result.scores || [])[side] ?? 0));
  });
  const info = html("div", { class: "edges-info" }, bar);
  const last = lastMove(msg, view);
  if (last) html("div", { class: "edges-last-words" }, info, last.words);
  // The take-over is said by its own move's words ("took over the first pyramid (pie rule,
  // ringed)"); said apart as well, "the pie rule was used" stood under "last move" to the end.
  if (view.took_over && !last) html("div", {}, info, "the pie rule was used");
  // Double Edges' order turns from whoever starts, with the starting team's seats first: the
  // Moves list was the only place a newcomer could find it (B2, A2, B1, A1 when B2 starts).
  if (double && view.order) {
    const order = view.order.map((seat) => `${seats[seat]}${msg.seat === seat ? " (you)" : ""}`);
    html("div", { class: "edges-order" }, info, `order of play: ${order.join(" → ")}`);
  }
  if (view.pie_available && msg.legal.some((a) => a.text.startsWith("pie"))) {
    html("div", { class: "edges-pie-offer" }, info, `Pie rule: you may take over the first pyramid (${CLICK} it)`);
  }
}

function drawChoice(wrap, view, sel, place, pie, msg, ui) {
  if (!ui.canMove) return;
  const bar = html("div", { class: "edges-choice" }, wrap);
  if (!sel.edge) {
    html("span", { class: "building" }, bar, pie.length ? `${CLICK} an edge, or the first pyramid to take it over` : `${CLICK} an edge to place a pyramid on it`);
    return;
  }
  const sizes = sel.pie ? pie : place.get(sel.edge) || [];
  const notation = (size) => (sel.pie ? `pie ${size}` : `${size} ${sel.edge}`);
  // In words, not the notation's "? h1,1" (what the click will send is on each button's hover).
  html("span", { class: "building" }, bar, sel.pie
    ? "pie rule: choose the pyramid that takes over the first one"
    : `edge ${sel.edge}: choose the pyramid to place on it`);
  for (const size of SIZES.filter((s) => sizes.includes(s))) {
    const button = svg("svg", { viewBox: "0 0 70 70", class: "edges-size" }, bar);
    pyramid(button, 35, 38, size, msg.seat ?? 0);
    svg("text", { x: 35, y: 68, "text-anchor": "middle", class: "edges-size-label" }, button, `${SIZE_NAMES[size]} (${POINTS[size]})`);
    clickable(button, `${notation(size)}: a ${SIZE_NAMES[size]} pyramid`, { move: notation(size), ui });
  }
  const cancel = html("button", { type: "button", class: "edges-cancel" }, bar, "cancel");
  clickable(cancel, "cancel: choose another edge", { onClick: () => { for (const key of Object.keys(sel)) delete sel[key]; ui.redraw(); } });
}

function drawStashes(wrap, view, seats, msg) {
  const row = html("div", { class: "edges-stashes" }, wrap);
  (view.stashes || []).forEach((stash, seat) => {
    // msg.to_act, not the view's: a match ended by resigning leaves the game's own turn open.
    const toMove = (msg.to_act || []).includes(seat);
    const box = html("div", { class: `edges-stash ${toMove ? "to-act" : ""}` }, row);
    box.style.borderColor = SEAT_COLOURS[seat];
    html("div", { class: "edges-stash-name" }, box, `${seats[seat]}${msg.seat === seat ? " (you)" : ""}${toMove ? " — to move" : ""}`);
    const pic = svg("svg", { viewBox: "0 0 270 56", class: "edges-stash-pic" }, box);
    SIZES.forEach((size, i) => {
      const x = 32 + i * 86;
      if (stash[size] > 0) pyramid(pic, x, 30, size, seat);
      else svg("circle", { cx: x, cy: 30, r: 10, class: "edges-empty-slot" }, pic);
      svg("text", { x: x + 30, y: 40, class: "edges-count" }, pic, `×${stash[size]}`);
    });
  });
}
