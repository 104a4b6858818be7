// Tutorials on the game page (docs/web.md, "Tutorials"): in a tutorial match the server
// sends the learner's seat a `tutorial` block with each state (the step's prompt, the move
// it expects, or the closing words). This module shows it in a box above the picture,
// marks the picture's parts that make the expected move, and shows the server's why when
// it refuses another move (error code `off_script`).
import { el } from "./common.js";

let latest = null; // the state message last shown
let why = null; // { seq, text } of the last off-script refusal
let shown = null; // what the box last said that the learner must read: a step, a why, the end

function box() {
  let node = document.getElementById("tutorial-box");
  if (node) return node;
  node = el("section", { id: "tutorial-box", class: "tutorial-box", "aria-label": "lesson" },
    el("p", { id: "tutorial-step", class: "tutorial-step" }),
    el("p", { id: "tutorial-prompt", class: "tutorial-prompt", role: "status", "aria-live": "polite" }),
    el("p", { id: "tutorial-expected", class: "tutorial-expected" }),
    el("p", { id: "tutorial-why", class: "tutorial-why", role: "alert" }),
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

/** Called by the game page with the server's refusal of a move; true when it was the
 * lesson's (shown in the box rather than as a toast). */
export function tutorialRefused(message) {
  if (message.code !== "off_script" || !latest || !latest.tutorial) return false;
  why = { seq: latest.seq, text: message.message };
  showTutorial(latest);
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
  expected.replaceChildren(...(lesson.expected ? ["Your move: ", el("code", {}, lesson.expected)] : []));
  expected.hidden = !lesson.expected;
  document.body.dataset.expected = lesson.expected || "";
  const whyLine = document.getElementById("tutorial-why");
  whyLine.textContent = why ? `Not that one: ${why.text}` : "";
  whyLine.hidden = !why;
  const end = document.getElementById("tutorial-end");
  end.replaceChildren(...(done ? [
    lesson.end, " ",
    el("a", { class: "button primary", id: "tutorial-play", href: `/?game=${encodeURIComponent(m.game)}` },
      `Play a real game of ${m.title}`),
  ] : []));
  end.hidden = !done;
  mark(lesson.expected);
  bringIntoSight(node, done ? "end" : why ? `why ${why.seq}` : lesson.expected ? `step ${lesson.step}` : null);
}

/** On a phone (and beside a tall board on a laptop) the learner scrolls down to the marked
 * part and taps it; the next step's words, a refusal's why or the closing words then came
 * into the box above, out of sight, and nothing on screen said the lesson had moved on. So
 * the box is scrolled into sight whenever it says something new and is not wholly shown. */
function bringIntoSight(node, what) {
  if (!what || what === shown) return;
  shown = what;
  const r = node.getBoundingClientRect();
  if (r.top >= 0 && r.bottom <= window.innerHeight) return;
  const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  node.scrollIntoView({ block: "nearest", behavior: still ? "auto" : "smooth" });
}
