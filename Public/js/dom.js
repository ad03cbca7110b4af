// Small DOM helpers shared by the modules. Nothing here touches the `style` attribute as
// markup: the server's CSP forbids inline styles, so styles are set through CSSOM only.

/** Looks up an element by id and fails loudly when the markup and the code disagree. */
export function byId(id) {
  const element = document.getElementById(id);
  if (!element) throw new Error(`missing #${id}`);
  return element;
}

/** Creates an element with a class name and optional text content. */
export function el(tag, className, text) {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text !== undefined && text !== null) element.textContent = String(text);
  return element;
}

/** Formats a number for display: fixed decimals, dropped when they are zero. */
export function num(value, digits = 1) {
  if (value === undefined || value === null || Number.isNaN(value)) return "—";
  const fixed = Number(value).toFixed(digits);
  return fixed.includes(".") ? fixed.replace(/\.?0+$/, "") : fixed;
}

/** Local wall-clock time as HH:MM:SS.mmm. */
export function clockTime(date) {
  const pad = (n, w = 2) => String(n).padStart(w, "0");
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

/** Whether the user asked for reduced motion (read each time: the setting can change live). */
export function prefersReducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}
