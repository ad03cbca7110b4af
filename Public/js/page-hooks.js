// The page's hooks for people in the console and for the browser tests: `window.playground`.
// `live` reads main.js's current values (they are reassigned as messages arrive), the rest are its parts.

function nextFrame() {
  return new Promise((resolve) => requestAnimationFrame(() => resolve()));
}

export function installPageHooks({ live, reporter, feed, log, connection, frame, timeline, lanes, traceView }) {
  window.playground = Object.freeze({
    get config() { return { ...live.config }; },
    /** The session's preset as `welcome.presets` describes it. */
    get preset() { return { ...live.described() }; },
    /** The log's category of an event name (the server's catalog). */
    eventCategory: (name) => log.categoryOf(name),
    get state() { return live.state; },
    get geometry() { return reporter.lastGeometry; },
    /** How the feed scrolls (`ios` | `browser`) and, under `ios`, the latest release: {position, velocity, maxOffset, at}. */
    get physics() { return reporter.physics; },
    get lastRelease() { return reporter.ios.lastRelease ? { ...reporter.ios.lastRelease } : null; },
    /** Under `ios`: the model's motion (`idle`, `tracking`, `dragging`, `decelerating`, `bouncing`). */
    get motion() { return reporter.ios.model.motion.kind; },
    get rev() { return feed.rev; },
    get status() { return live.status; },
    get session() { return connection.sessionId; },
    get presets() { return [...live.presets.values()]; },
    get unloggedErrors() { return live.unloggedErrors; },
    get events() { return live.events.slice(); },
    get frameScale() { return frame.scale; },
    /** The first item in view and its offset from the feed's top, as every geometry reports it. */
    get anchor() { return live.visibleAnchor(); },
    get restoring() { return live.restoring !== null; },
    itemIds: () => feed.itemIds(),
    /** The content size the page reports, and the one it measures with every row an element (they must agree). */
    contentSizes: () => ({
      reported: reporter.measure("idle").contentSize,
      everyRow: feed.virtual.withEveryRow(() => reporter.measure("idle").contentSize),
      realized: feed.virtual.lazy ? feed.virtual.realized : feed.count,
    }),
    eventCount: (name) => live.events.filter((e) => e.name === name).length,
    /** The timeline's y (px) for an offset, as last drawn. */
    timelineY: (value) => timeline.yOf(value),
    failedSpans: () => timeline.failedSpans(),
    timelineSamples: () => timeline.samples.length,
    laneMarks: () => lanes.visibleMarks(),
    laneFirings: () => lanes.visibleFirings(),
    lanePresets: () => lanes.presets.slice(),
    timelineLabels: () => timeline.labels.slice(),
    /** Work done so far: geometry frames measured and timeline frames drawn (an idle page adds none). */
    work: () => ({ geometryFrames: reporter.frames, timelineDraws: timeline.draws }),
    /** Sends a raw message, as the page's buttons do. */
    send: (message) => connection.send(message),
    /** Resolves once every geometry measured so far has reached the server and it answered a ping. */
    async sync() {
      reporter.wake();
      await nextFrame();
      await nextFrame();
      return connection.ping();
    },
    drop: () => connection.drop(),
    /** The opened trace's moment (its clock, ms) and bounds, or null; `scrubTo(t)` moves it. */
    get traceMoment() { return traceView.trace ? { at: traceView.at, start: traceView.trace.start, end: traceView.trace.end } : null; },
    scrubTo: (t) => traceView.scrubTo(t),
  });
}
