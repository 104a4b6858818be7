// The replay page's Review panel: the server's review of a finished match or an uploaded
// record (GET /api/matches/{id}/review, POST /api/replay/review), asked for again while it
// is computed, drawn as a graph of the winning chances and a list of the marked decisions.
// Marks, chances and turning points come from the server (lab/review_marks.py; docs/web.md).
import { ask, askUntilAnswered, el, wait } from "./common.js";

const SVG = "http://www.w3.org/2000/svg";
const POLL_MS = 1500;
const WORDS = { "??": "blunder", "?": "mistake", "?!": "inaccuracy" };
const PLURALS = { "??": "blunders", "?": "mistakes", "?!": "inaccuracies" };
// The judges in words (the server names them "exact", "ismcts 200", ...: kept in brackets).
const JUDGES = {
  exact: "the exact solver (perfect play from here)",
  uct: "a search",
  ismcts: "a search from the player's own view (hidden cards guessed)",
  equilibrium: "the solved game's best mix",
};

/** A judge's name in words: "a search from the player's own view ..., 200 tries a
 * decision (ismcts 200)". */
function judgeWords(judge) {
  const [name, tries] = judge.split(" ");
  const words = JUDGES[name];
  if (!words) return judge;
  return `${words}${tries ? `, ${Number(tries).toLocaleString("en")} tries a decision` : ""} (${judge})`;
}
let generation = 0; // a newer load stops the older one's polling

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) if (value !== null) node.setAttribute(key, String(value));
  node.append(...children);
  return node;
}

/** Ask for a review until it is done or refused; `say` hears how it stands. ``match``: a
 * finished match's id; else ``recordText`` is uploaded once and then asked for by key. */
async function fetchReview(match, recordText, say, mine, peek) {
  let key = null;
  const query = peek ? "?start=false" : "";
  const wanted = () => mine === generation;
  for (;;) {
    if (!wanted()) return null;
    // Not reached, or a reverse proxy answering for it while it restarts: asked again there.
    const reply = await askUntilAnswered(() => (match ? ask(`/api/matches/${encodeURIComponent(match)}/review${query}`)
      : key ? ask(`/api/replay/review/${key}`) : ask(`/api/replay/review${query}`, recordText)), say, wanted);
    if (!wanted()) return null;
    if (reply.status === 200) return reply.body; // a review, or {"status": "not_reviewed"}
    const code = reply.body && reply.body.code;
    if (reply.status === 202) {
      key = reply.body.key || key;
      say("Reviewing: judging every decision…");
      await wait(POLL_MS);
    } else if (code === "busy" || code === "stopping") {
      say(`The server is busy reviewing other games; trying again in ${reply.retry || 10} s.`);
      await wait(1000 * (reply.retry || 10));
    } else if (code === "unknown_review") {
      key = null; // the server restarted meanwhile: upload it again
    } else {
      throw new Error(reply.refused || `HTTP ${reply.status}`);
    }
  }
}

function fmt(value) {
  return value === null || value === undefined ? "?" : `${value > 0 ? "+" : ""}${Number(value).toFixed(2).replace(/\.?0+$/, "") || "0"}`;
}

/** The graph of the winning chances: seat 0's for two players (up: seat 0 ahead), the
 * deciding seat's otherwise; marked decisions as dots, turning points ringed, the step
 * shown as a line. Clicking it goes to the nearest move. */
function chart(review, names, goTo) {
  const points = review.chart.points;
  const last = Math.max(1, points.length - 1);
  const W = 600, H = 200, pad = 14;
  const x = (n) => pad + (n / last) * (W - 2 * pad);
  const y = (c) => pad + ((1 - c) / 2) * (H - 2 * pad);
  const two = review.chart.view === "seat 0";
  const seats = two ? [0] : [...new Set(points.map((p) => p.seat))];
  const lines = seats.map((seat) => {
    const mine = points.filter((p) => p.chance !== null && (two || p.seat === seat));
    const d = mine.map((p, i) => `${i ? "L" : "M"}${x(p.n).toFixed(1)},${y(p.chance).toFixed(1)}`).join("");
    const area = two && mine.length
      ? svg("path", { d: `${d}L${x(mine[mine.length - 1].n).toFixed(1)},${y(0)}L${x(mine[0].n).toFixed(1)},${y(0)}Z`, class: "review-area" })
      : null;
    return [area, svg("path", { d, class: `review-line seat-line-${two ? 0 : seat}` })];
  }).flat().filter(Boolean);
  const turning = new Set(review.turning);
  const dots = review.decisions.filter((d) => d.mark).map((d) => {
    const p = points.find((q) => q.n === d.n);
    if (!p || p.chance === null) return null;
    const title = svg("title", {}, `${d.n}. ${names[d.seat] || `seat ${d.seat}`} ${d.action} ${d.mark}${turning.has(d.n) ? " (turning point)" : ""}`);
    const at = { cx: x(p.n).toFixed(1), cy: y(p.chance).toFixed(1) };
    const dot = svg("circle", { ...at, r: 7, class: `review-dot mark-${WORDS[d.mark]}`, "data-n": d.n }, title);
    return turning.has(d.n) ? [svg("circle", { ...at, r: 13, class: "review-ring" }), dot] : [dot];
  }).filter(Boolean).flat();
  const cursor = svg("line", { x1: x(0), x2: x(0), y1: 0, y2: H, class: "review-cursor" });
  const view = two ? `${names[0] || "seat 0"}'s winning chances` : "each seat's winning chances at its decisions";
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "review-chart", role: "img",
    "aria-label": `${view}, from -1 (lost) to +1 (won), move by move` },
  svg("rect", { x: 0, y: 0, width: W, height: H, class: "review-bg" }),
  svg("line", { x1: 0, x2: W, y1: y(0), y2: y(0), class: "review-mid" }),
  ...lines, cursor, ...dots);
  root.addEventListener("click", (event) => {
    const box = root.getBoundingClientRect();
    const n = Math.round(((event.clientX - box.left) / box.width * W - pad) / (W - 2 * pad) * last);
    goTo(Math.max(0, Math.min(last, n)));
  });
  return { root, place: (step) => { cursor.setAttribute("x1", x(step)); cursor.setAttribute("x2", x(step)); } };
}

/** One marked decision: a button that goes to the position after it. */
function item(d, names, turning, goTo) {
  const who = names[d.seat] || `seat ${d.seat}`;
  // Worth, in the judge's unit, to the deciding seat: points (exact Edges) or -1..+1.
  const best = d.values[d.best], played = d.values[d.action];
  const unit = d.unit === "points" ? " points" : "";
  const better = d.best !== d.action
    ? el("span", { class: "review-better" }, " better: ", el("code", {}, d.best),
      best !== undefined && best !== null && played !== undefined && played !== null
        ? `, worth ${fmt(best)}${unit} to ${who}, the move played ${fmt(played)}` : "")
    : null;
  return el("li", {},
    el("button", { type: "button", class: `review-move mark-${WORDS[d.mark]}`, "data-n": d.n,
      title: d.why || "", "aria-label": `move ${d.n}, ${who}: ${d.action}, ${WORDS[d.mark]}; go there` },
    el("span", { class: "review-mark" }, d.mark),
    ` ${d.n}. `, el("span", { class: `seat-dot seat-${d.seat}` }), `${who}: `, el("code", {}, d.action)),
    turning.has(d.n) ? el("span", { class: "review-turn" }, " turning point") : null,
    better);
}

/** Shows the review of ``match`` (or of ``recordText``) in ``box``; returns an object
 * whose ``step(n)`` moves the graph's line and whose ``marks()`` gives the marks by move
 * number (for the move list). ``goTo(n)`` moves the replay. */
export function showReview(box, { match = null, recordText = null, names = [], goTo, onReady }) {
  generation += 1;
  const mine = generation;
  const status = el("p", { class: "review-status", role: "status" }, "Looking for a review…");
  box.replaceChildren(el("h3", {}, "Review"), status);
  box.hidden = false;
  box.dataset.state = "looking";
  const handle = { step() {}, marks: new Map() };
  const say = (text) => { status.textContent = text; };
  // A review already kept (or being computed) shows at once; another is computed only
  // when asked for, as lichess's "request a computer analysis": it costs the server.
  const got = (review) => {
    if (!review || mine !== generation) return;
    if (review.status === "not_reviewed") {
      const button = el("button", { type: "button", id: "review-start", class: "primary" }, "Review this game");
      say("Every decision judged by the best judge the game has: seconds for a short game, a few minutes for a long one.");
      box.append(button);
      box.dataset.state = "offered";
      button.addEventListener("click", () => {
        button.remove();
        box.dataset.state = "computing";
        say("Reviewing: judging every decision…");
        fetchReview(match, recordText, say, mine, false).then(got).catch(failed);
      });
      return;
    }
    shown(review);
  };
  const failed = (error) => {
    if (mine !== generation) return;
    say(`No review: ${error.message}`);
    box.dataset.state = "failed";
  };
  const shown = (review) => {
    const turning = new Set(review.turning);
    const marked = review.decisions.filter((d) => d.mark);
    const graph = chart(review, names, goTo);
    const counts = ["??", "?", "?!"].map((m) => [m, marked.filter((d) => d.mark === m).length]);
    const judges = review.judges.map(judgeWords).join("; ");
    status.textContent = marked.length
      ? counts.filter(([, c]) => c).map(([m, c]) => `${c} ${c === 1 ? WORDS[m] : PLURALS[m]} (${m})`).join(", ")
      : "No decision gave anything away that the judge could see.";
    const list = el("ol", { class: "review-list" }, ...marked.map((d) => item(d, names, turning, goTo)));
    list.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-n]");
      if (button) goTo(Number(button.dataset.n));
    });
    // Two judges, two scales: a list of "worth +0.16" and then "worth -2 points" read as one.
    const units = new Set(marked.map((d) => d.unit));
    const scales = units.has("points") && units.size > 1
      ? " A move's worth is an expected result (-1 to +1) where a search judged it, and points where the solver did (exact, near the end)."
      : "";
    box.replaceChildren(el("h3", {}, "Review"), status, graph.root,
      el("p", { class: "review-legend" }, `Judged by ${judges}. The line is ${review.chart.view === "seat 0" ? `${names[0] || "seat 0"}'s` : "each seat's"} winning chances (+1 won, -1 lost); dots mark mistakes, rings the turning points.${scales}`),
      list);
    box.dataset.state = "done";
    for (const d of marked) handle.marks.set(d.n, d.mark);
    handle.step = graph.place;
    if (onReady) onReady(handle);
  };
  fetchReview(match, recordText, say, mine, true).then(got).catch(failed);
  return handle;
}
