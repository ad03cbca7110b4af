// The phone frame: the device size chosen (or dragged / keyed with the handle) is the size the feed
// really has, so `containerSize` is that size minus the frame's own edge. When the device does not fit
// the window it is scaled down visually (a CSS transform, which changes nothing the geometry reports)
// and the readout says so. "This screen" is the room the window has for the feed, shown at 100 %: the
// default on a narrow screen, where a phone-sized frame would otherwise be shrunk into the phone.

export const FRAME_EDGE_PX = 6; // the frame's border on every side: containerSize = size − 2 × edge
const STRIP_HEIGHT_PX = 260;
const MIN = { w: 240, h: 160 };
const MAX = { w: 1600, h: 2000 };
const KEY_STEP = 10;
const KEY_STEP_LARGE = 50;
const MIN_SCALE = 0.35;
const SCREEN = "screen";
// The page is the phone layout (tabs) on a phone, upright or on its side: as playground.css says.
const NARROW = "(max-width: 767px), (max-width: 1023px) and (max-height: 499px)";

/** Events (EventTarget): `change` (detail: {width, height, scale}) whenever the size or scale changes. */
export class PhoneFrame extends EventTarget {
  constructor({ stage, slot, phone, select, customOption, readout, handle, group, stageHome, narrowHome, fixedParts }) {
    super();
    Object.assign(this, { stage, slot, phone, select, customOption, readout, handle, stageHome });
    this.fixedParts = fixedParts; // elements whose height the phone must leave room for in the window
    this.axis = "vertical";
    this.physics = "";
    const narrow = window.matchMedia(NARROW);
    if (narrow.matches) select.value = SCREEN;
    // The frame's choice sits beside the phone on a wide screen; on a phone, whose feed tab is the feed
    // alone, it is in the Settings tab.
    const place = () => {
      const home = narrow.matches ? narrowHome : stageHome;
      if (group.parentElement !== home) home.prepend(group);
    };
    place();
    narrow.addEventListener("change", place);
    this.size = this.selectedSize();
    this.scale = 1;
    this.drag = null;
    select.addEventListener("change", () => {
      if (select.value === "custom") return;
      this.size = this.selectedSize();
      this.customOption.hidden = true;
      this.layout();
    });
    handle.addEventListener("keydown", (event) => this.onKey(event));
    handle.addEventListener("pointerdown", (event) => this.onPointerDown(event));
    handle.addEventListener("pointermove", (event) => this.onPointerMove(event));
    handle.addEventListener("pointerup", (event) => this.onPointerUp(event));
    handle.addEventListener("pointercancel", (event) => this.onPointerUp(event));
    // The room there is changes with the window and with the panel the stage sits in.
    const observer = new ResizeObserver(() => this.layout());
    observer.observe(stage);
    // The bars above the stage can change height too (a wrapped line): the room changes with them.
    for (const part of fixedParts()) if (part instanceof Element) observer.observe(part);
    window.addEventListener("resize", () => this.layout());
    this.layout();
  }

  /** Whether the frame is the screen's own room for the feed (it follows the window). */
  get fitsScreen() {
    return this.select.value === SCREEN;
  }

  /** Fits the frame to the screen again (a restored choice). */
  fitScreen() {
    this.select.value = SCREEN;
    this.customOption.hidden = true;
    this.layout();
  }

  selectedSize() {
    if (this.fitsScreen) return this.screenSize() ?? this.size ?? { w: 390, h: 700 };
    const [w, h] = this.select.value.split("x").map(Number);
    return { w: w || 390, h: h || 700 };
  }

  /** The size the feed has (the strip keeps its own height on the horizontal axis). */
  get frameSize() {
    return { w: this.size.w, h: this.axis === "horizontal" ? STRIP_HEIGHT_PX : this.size.h };
  }

  setAxis(axis) {
    this.axis = axis === "horizontal" ? "horizontal" : "vertical";
    this.layout();
  }

  /** A size from the handle or a restored session: shown as "Custom" unless it is one of the choices. */
  setSize(w, h, { exact = false } = {}) {
    // Whole px from the handle; a recording's own size (a fork) to a tenth, as its containerSize was.
    const round = exact ? (v) => Math.round(v * 10) / 10 : Math.round;
    const size = {
      w: round(Math.min(MAX.w, Math.max(MIN.w, w))),
      h: round(Math.min(MAX.h, Math.max(MIN.h, h))),
    };
    this.size = size;
    const value = `${size.w}x${size.h}`;
    const listed = Array.from(this.select.options).some((o) => o.value === value);
    this.customOption.hidden = listed;
    this.customOption.textContent = `Custom · ${size.w} × ${size.h}`;
    this.select.value = listed ? value : "custom";
    this.layout();
  }

  /** The room the stage has for the frame (null while the stage is hidden: its size says nothing then). */
  screenSize() {
    if (this.stage.getClientRects().length === 0) return null;
    return {
      w: Math.floor(Math.min(MAX.w, Math.max(MIN.w, this.room()))),
      h: Math.floor(Math.min(MAX.h, Math.max(MIN.h, this.availableHeight()))),
    };
  }

  /** The stage's width for the phone: less its padding and, on a wide screen, the rail beside the phone. */
  room() {
    const style = getComputedStyle(this.stage);
    const rail = this.railBeside ? this.stageHome.offsetWidth + parseFloat(style.columnGap) : 0;
    return this.stage.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - rail;
  }

  /** Whether the stage's other parts are in a rail beside the phone (a grid; on a phone they are around it). */
  get railBeside() {
    return railBeside(this.stage);
  }

  /** How tall the phone may be on screen so the feed and its buttons stay in the window. */
  availableHeight() {
    const fixed = this.fixedParts().reduce((sum, element) => sum + (element?.offsetHeight ?? 0), 0);
    return Math.max(MIN.h * MIN_SCALE, window.innerHeight - fixed);
  }

  layout() {
    // A hidden stage (a phone's other tabs) has no room to measure: the scale waits until it is shown.
    if (this.stage.getClientRects().length === 0) {
      this.updateReadout();
      return;
    }
    if (this.fitsScreen) this.size = this.selectedSize();
    const { w, h } = this.frameSize;
    this.phone.style.setProperty("--frame-w", `${w}px`);
    this.phone.style.setProperty("--frame-h", `${h}px`);
    const room = this.room();
    const scale = Math.max(MIN_SCALE, Math.min(1, room / w, this.availableHeight() / h));
    const rounded = Math.floor(scale * 1000) / 1000;
    this.phone.style.transform = rounded < 1 ? `scale(${rounded})` : "";
    this.slot.style.width = `${Math.round(w * rounded)}px`;
    this.slot.style.height = `${Math.round(h * rounded)}px`;
    const changed = rounded !== this.scale || w !== this.lastW || h !== this.lastH;
    this.scale = rounded;
    this.lastW = w;
    this.lastH = h;
    this.updateReadout();
    if (changed) this.dispatchEvent(new CustomEvent("change", { detail: { width: w, height: h, scale: rounded } }));
  }

  updateReadout() {
    const { w, h } = this.frameSize;
    const edge = 2 * FRAME_EDGE_PX;
    this.readout.textContent = `feed ${w - edge} × ${h - edge} (${FRAME_EDGE_PX} px frame)${this.fitsScreen ? " · this screen" : ""}`
      + (this.physics ? ` · ${this.physics}\u00a0physics` : ""); // one unbroken phrase where the line wraps
    this.readout.title = "containerSize is the frame size minus the frame's edge on each side";
    if (this.scale < 1) {
      const note = document.createElement("span");
      note.className = "is-scaled";
      note.textContent = ` · shown at ${Math.round(this.scale * 100)} % to fit`;
      this.readout.append(note);
    }
  }

  /** Says in the readout which physics moves the feed (`ios` or `browser`). */
  setPhysics(physics) {
    if (physics === this.physics) return;
    this.physics = physics;
    this.updateReadout();
  }

  // ---------- the handle: drag or arrow keys ----------

  onKey(event) {
    const step = event.shiftKey ? KEY_STEP_LARGE : KEY_STEP;
    const deltas = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    const delta = deltas[event.key];
    if (!delta) return;
    event.preventDefault();
    this.setSize(this.size.w + delta[0], this.size.h + (this.axis === "horizontal" ? 0 : delta[1]));
  }

  onPointerDown(event) {
    if (event.button !== 0) return;
    this.drag = { id: event.pointerId, x: event.clientX, y: event.clientY, w: this.size.w, h: this.size.h };
    this.handle.setPointerCapture(event.pointerId);
    event.preventDefault();
  }

  onPointerMove(event) {
    if (!this.drag || event.pointerId !== this.drag.id) return;
    const k = this.scale || 1;
    this.setSize(this.drag.w + (event.clientX - this.drag.x) / k, this.drag.h + (event.clientY - this.drag.y) / k);
  }

  onPointerUp(event) {
    if (!this.drag || event.pointerId !== this.drag.id) return;
    this.drag = null;
    if (this.handle.hasPointerCapture(event.pointerId)) this.handle.releasePointerCapture(event.pointerId);
  }
}

/** Whether the stage's controls are in a rail beside the phone: a grid of more than one column (a tablet
 * upright stacks them in one column, a phone around the phone in a flex column). */
export function railBeside(stage) {
  const style = getComputedStyle(stage);
  return style.display === "grid" && style.gridTemplateColumns.trim().split(/\s+/).length > 1;
}
