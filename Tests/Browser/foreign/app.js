// A foreign app with its own infinite list: 15 rows at a time, loaded 120 ms after the list comes within
// 150 px of its end, 60 rows in all. It knows nothing of the playground except the two recorder lines.
import { record } from "./recorder.js";

const list = document.getElementById("list");
const status = document.getElementById("status");
const PAGE = 15;
const TOTAL = 60;
let rows = 0;
let loading = false;
window.pagesLoaded = 0;

function addPage() {
  for (let i = 0; i < PAGE && rows < TOTAL; i++, rows++) {
    const row = document.createElement("li");
    row.dataset.id = `message-${rows}`;
    row.textContent = `Message ${rows + 1} — ${["Lunch?", "Quarterly numbers", "Re: the build", "Photos"][rows % 4]}`;
    list.append(row);
  }
  if (rows >= TOTAL) {
    const end = document.createElement("li");
    end.className = "end";
    end.textContent = "No more messages";
    list.append(end);
  }
  window.pagesLoaded += 1;
}

function maybeLoad() {
  if (loading || rows >= TOTAL) return;
  if (list.scrollTop + list.clientHeight < list.scrollHeight - 150) return;
  loading = true;
  status.textContent = "Loading…";
  setTimeout(() => {
    addPage();
    loading = false;
    status.textContent = "";
    maybeLoad();
  }, 120);
}

list.addEventListener("scroll", maybeLoad, { passive: true });
addPage();

// Whether anything stopped the page's own scrolling (the recorder must never).
window.prevented = 0;
for (const type of ["wheel", "touchmove", "pointermove"]) {
  window.addEventListener(type, (event) => { if (event.defaultPrevented) window.prevented += 1; }, { passive: true });
}
window.atEnd = () => rows >= TOTAL && list.scrollTop + list.clientHeight >= list.scrollHeight - 1;

const server = new URLSearchParams(location.search).get("server");
window.recording = record(list, { name: "Acme Inbox", ...(server ? { server } : {}) });
