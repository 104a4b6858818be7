// Tutorials on the game page (docs/web.md, "Tutorials"): in a tutorial match the server
// sends the learner's seat a `tutorial` block with each state (the step's prompt, the move
// it expects, or the closing words). This module shows it in a box above the picture,
// marks the picture's parts that make the expected move, and shows the server's why when
// it refuses another move (error code `off_script`).
import { el } from "./common.js";
import { CLICK } from "./draw.js";

let latest = null; // the state message last shown
let why = null; // { seq, text } of the last off-script refusal
let shown = null; // what the box last said that the learner must read: a step, a why, the end
let bars = null; // the bars pinned over the picture as it was last drawn (pinnedBars)
const GAP = 8; // px kept clear above the box and around the marked part when scrolling

function box() {
  let node = document.getElementById("tutorial-box");
  if (node) return node;
  node = el("section", { id: "tutorial-box", class: "tutorial-box", "aria-label": "lesson" },
    el("p", { id: "tutorial-step", class: "tutorial-step" }),
    el("p", { id: "tutorial-prompt", class: "tutorial-prompt", role: "status", "aria-live": "polite" }),
    el("p", { id: "tutorial-expected", class: "tutorial-expected" }),
    el("p", { id: "tutorial-why", class: "tutorial-why", role: "alert" }),
    el("p", { id: "tutorial-where", class: "tutorial-where", hidden: true },
      el("span", { id: "tutorial-where-text" }),
      el("button", { type: "button", id: "tutorial-show", class: "button", onclick: showMarked }, "Show it")),
    el("p", { id: "tutorial-end", class: "tutorial-end" }));
  const layout = document.querySelector(".layout");
  if (layout) layout.parentNode.insertBefore(node, layout);
  return node;
}

/** Whether a clickable part of the picture makes (or starts) the expected move. */
function makes(node, expected) {
  if (node.getAttribute("data-move") === expected) return true;
  const what = node.getAttribute("data-hint") || "";
  const steps = expected.split(" ");
  // Edges: an edge first ("edge h1,0"), then the size; the pie rule starts at the pyramid.
  if (steps.some((step) => what === `edge ${step}`)) return true;
  if (steps[0] === "pie" && what.startsWith("take over")) return true;
  const parts = node.getAttribute("data-tutorial");
  return !!parts && parts.split("|").includes(expected);
}

function mark(expected) {
  for (const node of document.querySelectorAll(".tutorial-mark")) node.classList.remove("tutorial-mark");
  if (!expected) return;
  for (const node of document.querySelectorAll("#board .clickable")) {
    if (makes(node, expected)) node.classList.add("tutorial-mark");
  }
}

// A learner who clicks a marked part after a refusal is making the lesson's move: the
// refusal's "Not that one" stayed on screen until the move was sent (an Edges edge opens
// its size picker first), as if the right part were refused too. Captured, before the
// click's own redraw takes the part away.
document.addEventListener("click", (event) => {
  if (!why || !(event.target instanceof Element) || !event.target.closest(".tutorial-mark")) return;
  why = null;
  const line = document.getElementById("tutorial-why");
  if (line) {
    line.textContent = "";
    line.hidden = true;
  }
}, true);

/** Called by the game page with the server's refusal of a move; true when it was the
 * lesson's, which the box says when the page next draws the state (at once: the refused
 * click's picture, drawn while the move was on its way, has nothing to click, so the box
 * would have been placed beside a picture with no marked part). */
export function tutorialRefused(message) {
  if (message.code !== "off_script" || !latest || !latest.tutorial) return false;
  why = { seq: latest.seq, text: message.message };
  return true;
}

/** Called by the game page after each drawing of a state message. */
export function showTutorial(m) {
  latest = m;
  const lesson = m.tutorial;
  const node = box();
  node.hidden = !lesson;
  document.body.dataset.tutorial = lesson ? (lesson.end ? "done" : String(lesson.step)) : "";
  if (!lesson) return;
  if (why && why.seq !== m.seq) why = null;
  const done = !!lesson.end;
  document.getElementById("tutorial-step").textContent = done
    ? `${lesson.title}: done`
    : `${lesson.title}: step ${lesson.step + 1} of ${lesson.steps}`;
  const prompt = document.getElementById("tutorial-prompt");
  prompt.textContent = lesson.prompt || "";
  prompt.hidden = !lesson.prompt;
  const expected = document.getElementById("tutorial-expected");
  // The notation is taught by the side's typing box, not needed here: "Your move: weather
  // WX13 on 0 x1" came before a learner had met it.
  expected.replaceChildren(...(lesson.expected
    ? [`${CLICK[0].toUpperCase()}${CLICK.slice(1)} what glows white (typed, this move reads `, el("code", {}, lesson.expected), ")"] : []));
  expected.hidden = !lesson.expected;
  document.body.dataset.expected = lesson.expected || "";
  const whyLine = document.getElementById("tutorial-why");
  whyLine.textContent = why ? `Not that one: ${why.text}` : "";
  whyLine.hidden = !why;
  const end = document.getElementById("tutorial-end");
  end.replaceChildren(...(done ? [
    lesson.end, " ",
    el("a", { class: "button primary", id: "tutorial-play", href: `/?game=${encodeURIComponent(m.game)}&against=easy` },
      `Play a real game of ${m.title}`),
  ] : []));
  end.hidden = !done;
  bars = null;
  mark(lesson.expected);
  bringIntoSight(node, done ? "end" : why ? `why ${why.seq}` : lesson.expected ? `step ${lesson.step}` : null);
}

/** On a phone (and beside a tall board on a laptop) the learner scrolls down to the marked
 * part and taps it; the next step's words, a refusal's why or the closing words then came
 * into the box above, out of sight, and nothing on screen said the lesson had moved on. So
 * whenever the box says something new it is scrolled wholly into sight, and with it the
 * marked part, clear of the bars a game pins over its picture, where both fit in the
 * window; where they do not (The Triangle Clock's cards lie a screen below the box), the
 * box says that the part is further down and offers to show it. */
function bringIntoSight(node, what) {
  if (!what || what === shown) return;
  shown = what;
  const where = document.getElementById("tutorial-where");
  where.hidden = true; // measured without it: it is said only where the part does not fit
  const marked = [...document.querySelectorAll("#board .tutorial-mark")];
  const range = boxInSight(node);
  const both = marked.map((part) => withPart(range, part)).find(Boolean);
  if (both || !marked.length) {
    scrollToY(both || range);
    return;
  }
  const part = marked[0];
  const below = part.getBoundingClientRect().top > 0;
  document.getElementById("tutorial-where-text").replaceChildren(
    el("span", { "aria-hidden": "true" }, below ? "↓ " : "↑ "),
    `What to ${CLICK} is further ${below ? "down" : "up"} the page.`);
  where.hidden = false;
  scrollToY(boxInSight(node)); // the line makes the box taller
}

/** The scroll offsets that show the box wholly: [least, most]. Brought down from above the
 * window, its top comes GAP below the window's. */
function boxInSight(node) {
  const r = node.getBoundingClientRect();
  const most = scrollY + (r.top >= 0 ? Math.max(r.top - GAP, 0) : r.top - GAP);
  return [Math.min(most, scrollY + r.bottom - innerHeight), most];
}

/** Of the offsets `range`, those that also show `part` wholly, clear of the pinned bars
 * (each taken as stuck, as it is once the page scrolls under it); null if none. A part on
 * a pinned bar (Erd's builder), in sight now, stays where it is as the page scrolls. */
function withPart([least, most], part) {
  const r = part.getBoundingClientRect();
  const held = pinnedBars().some((bar) => bar.contains(part));
  if (held && r.top >= 0 && r.bottom <= innerHeight) return [least, most];
  const pinned = pinnedInsets(part);
  const low = Math.max(least, scrollY + r.bottom + GAP + pinned.bottom - innerHeight);
  const high = Math.min(most, scrollY + r.top - GAP - pinned.top);
  return low <= high ? [low, high] : null;
}

/** Scrolls by as little as puts the offset in `[least, most]`. */
function scrollToY([least, most]) {
  const top = Math.min(Math.max(scrollY, least), most);
  if (Math.abs(top - scrollY) < 1) return;
  const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  window.scrollTo({ top, behavior: still ? "auto" : "smooth" });
}

/** "Show it": the marked part in the middle of the window clear of the pinned bars, and
 * the focus on it (ringed only for a keyboard's user, who presses Enter on it next). */
function showMarked() {
  const part = document.querySelector("#board .tutorial-mark");
  if (!part) return;
  const r = part.getBoundingClientRect();
  const pinned = pinnedInsets(part);
  const middle = (pinned.top + innerHeight - pinned.bottom) / 2;
  const y = scrollY + (r.top + r.bottom) / 2 - middle;
  scrollToY([y, y]);
  part.focus({ preventScroll: true });
}

/** The elements a game pins over its picture as the page scrolls (position sticky or
 * fixed: Erosion's actions at the window's top, Edges' size picker and Erd's builder at
 * its bottom), found once per drawing. An SVG's parts are never pinned. */
function pinnedBars() {
  bars = bars || [...document.querySelectorAll("#board :not(svg *)")]
    .filter((e) => ["sticky", "fixed"].includes(getComputedStyle(e).position));
  return bars;
}

/** How far down from the window's top and up from its bottom the pinned bars that do not
 * hold `part` reach once stuck. */
function pinnedInsets(part) {
  const out = { top: 0, bottom: 0 };
  for (const bar of pinnedBars()) {
    if (bar.contains(part)) continue;
    const height = bar.getBoundingClientRect().height;
    const style = getComputedStyle(bar);
    if (style.top !== "auto") out.top = Math.max(out.top, parseFloat(style.top) + height);
    else if (style.bottom !== "auto") out.bottom = Math.max(out.bottom, parseFloat(style.bottom) + height);
  }
  return out;
}
